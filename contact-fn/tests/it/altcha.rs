//! The proof of work (ALTCHA's format) over real TCP and SMTP: a solved challenge is delivered
//! unlabelled; a missing, tampered or replayed solution is delivered labelled, never refused;
//! a solution spent on one replica counts as spent on the other (PostgreSQL); the auto-reply
//! goes to verified senders only, once a day, with none of their words.
#![allow(clippy::unwrap_used)]

use crate::support;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use contact_fn::contract::{ALTCHA, CHALLENGE_PATH, FormKind};
use contact_fn::spam;
use serde_json::{Value, json};
use support::pg::Cluster;
use support::{Mode, Received, Service, SmtpServer, post_json};

const POW: [&str; 3] = ["--proof-of-work", "--proof-of-work-max-number", "2000"];
const SECRET: &str = "a newsletter secret shared by both replicas, 32+";

async fn start(smtp: &SmtpServer, dir: &tempfile::TempDir, extra: &[&str]) -> Service {
    let url = smtp.url();
    let mut args = vec!["--smtp-url", url.as_str()];
    args.extend_from_slice(&POW);
    args.extend_from_slice(extra);
    Service::start_with(dir.path(), &args, |config| {
        config.newsletter_secret = Some(SECRET.to_owned());
    })
    .await
}

async fn submit(service: &Service, subject: &str, solution: Option<&str>) {
    submit_as(service, "ada@example.org", subject, solution).await;
}

/// Sends the contact form from `email`.
async fn submit_as(service: &Service, email: &str, subject: &str, solution: Option<&str>) {
    let mut body = support::contact_body();
    body["email"] = json!(email);
    body["subject"] = json!(subject);
    if let Some(solution) = solution {
        body[ALTCHA] = json!(solution);
    }
    let url = service.url(FormKind::Contact.path());
    let (status, answer) = post_json(&reqwest::Client::new(), &url, &body).await;
    assert_eq!(status, 200, "{answer}");
}

/// The reasons header of the received mail whose subject ends with `subject`.
fn reasons(received: &[Received], subject: &str) -> Option<String> {
    let mail = received
        .iter()
        .find(|m| m.parsed().subject().unwrap().ends_with(subject))
        .unwrap_or_else(|| panic!("no mail for {subject}"));
    let parsed = mail.parsed();
    let labelled = parsed.subject().unwrap().starts_with(spam::SUBJECT_LABEL);
    let reasons = parsed
        .header_raw(spam::REASONS_HEADER)
        .map(|r| r.trim().to_owned());
    assert_eq!(labelled, reasons.is_some(), "label and header go together");
    reasons
}

#[tokio::test]
async fn solved_once_is_verified_and_missing_tampered_or_replayed_is_labelled_not_refused() {
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let service = start(&smtp, &dir, &[]).await;
    let solution = support::solve_challenge(&service).await;
    submit(&service, "solved", Some(&solution)).await;
    submit(&service, "replayed", Some(&solution)).await;
    submit(&service, "missing", None).await;
    let mut tampered: Value = serde_json::from_slice(
        &STANDARD
            .decode(support::solve_challenge(&service).await)
            .unwrap(),
    )
    .unwrap();
    tampered["number"] = json!(tampered["number"].as_u64().unwrap() + 1);
    submit(
        &service,
        "tampered",
        Some(&STANDARD.encode(tampered.to_string())),
    )
    .await;
    submit(&service, "garbage", Some("not a solution")).await;
    let received = smtp.wait_for(5).await;
    assert_eq!(reasons(&received, "solved"), None);
    for subject in ["replayed", "missing", "tampered", "garbage"] {
        assert_eq!(
            reasons(&received, subject).as_deref(),
            Some("no-proof-of-work"),
            "{subject}"
        );
    }
    service.stop().await;
}

#[tokio::test]
async fn without_the_proof_of_work_there_is_no_challenge_and_no_label() {
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(
        dir.path(),
        &["--smtp-url", &smtp.url(), "--proof-of-work=false"],
    )
    .await;
    let response = reqwest::get(service.url(CHALLENGE_PATH)).await.unwrap();
    assert_eq!(response.status(), 404);
    submit(&service, "plain", None).await;
    assert_eq!(reasons(&smtp.wait_for(1).await, "plain"), None);
    service.stop().await;
}

#[tokio::test]
async fn a_solution_spent_on_one_replica_is_spent_on_the_other() {
    let smtp = SmtpServer::start(Mode::Accept);
    let url = Cluster::shared().database().await;
    let (first_dir, second_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = start(&smtp, &first_dir, &["--database-url", &url]).await;
    let second = start(&smtp, &second_dir, &["--database-url", &url]).await;
    let solution = support::solve_challenge(&first).await;
    submit(&second, "on the second", Some(&solution)).await;
    submit(&first, "replayed on the first", Some(&solution)).await;
    let received = smtp.wait_for(2).await;
    assert_eq!(
        reasons(&received, "on the second"),
        None,
        "replicas share the key"
    );
    assert_eq!(
        reasons(&received, "replayed on the first").as_deref(),
        Some("no-proof-of-work")
    );
    first.stop().await;
    second.stop().await;
}

#[tokio::test]
async fn a_verified_sender_gets_one_auto_reply_a_day_with_none_of_their_words() {
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let service = start(&smtp, &dir, &["--auto-reply"]).await;
    let ada = "ada@example.org";
    let solution = support::solve_challenge(&service).await;
    submit_as(&service, ada, "first", Some(&solution)).await;
    let solution = support::solve_challenge(&service).await;
    submit_as(&service, "ADA@example.org", "again today", Some(&solution)).await;
    submit_as(&service, "grace@example.org", "unverified", None).await;
    let solution = support::solve_challenge(&service).await;
    let mut spam = support::contact_body();
    spam["email"] = json!("bob@example.org");
    spam["message"] =
        json!("https://a.example https://b.example https://c.example https://d.example");
    spam[ALTCHA] = json!(solution);
    let url = service.url(FormKind::Contact.path());
    let (status, answer) = post_json(&reqwest::Client::new(), &url, &spam).await;
    assert_eq!(status, 200, "{answer}");
    let solution = support::solve_challenge(&service).await;
    submit_as(&service, "carol@example.org", "last", Some(&solution)).await;

    // Five messages for the inbox and the two replies, delivered in the order stored.
    let received = smtp.wait_for(7).await;
    let replies: Vec<&Received> = received
        .iter()
        .filter(|m| m.parsed().header_raw("Auto-Submitted").is_some())
        .collect();
    let to: Vec<&str> = replies.iter().map(|m| m.to[0].as_str()).collect();
    assert_eq!(
        to,
        [ada, "carol@example.org"],
        "verified, unflagged, once a day"
    );
    let words = contact_fn::auto_reply_words().unwrap();
    for reply in replies {
        let parsed = reply.parsed();
        assert_eq!(parsed.subject(), Some(words.subject.as_str()));
        let text = parsed.body_text(0).unwrap().into_owned();
        assert!(text.contains(&words.signature), "{text}");
        for typed in [
            "Ada",
            "Lovelace",
            "Analytical",
            "discuss",
            "first",
            "last",
            "7946",
        ] {
            assert!(!text.contains(typed), "the reply repeats {typed:?}: {text}");
        }
    }
    service.stop().await;
}
