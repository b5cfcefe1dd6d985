//! The newsletter's double opt-in against a real SMTP server: the confirmation email and its
//! links, tampered, expired and replayed links, the same answer for every address, the
//! per-address limit under a flood, the home form's checkbox, the CLI, and a crash between
//! accepting and sending.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;
use std::process::Command;

use contact_fn::Config;
use contact_fn::contract::{CONFIRM_PATH, FormKind, NEWSLETTER_PAGES_PATH};
use contact_fn::newsletter::Words;
use serde_json::{Value, json};
use support::{
    Delivering, Mode, Process, Received, SmtpServer, eventually, files, post_json,
    status_and_location,
};

const SITE: &str = "https://site.test";
const SUBSCRIBE: &str = "/subscribe";

fn page(name: &str) -> String {
    format!("{SITE}{NEWSLETTER_PAGES_PATH}/{name}/")
}

async fn start(extra: &[&str]) -> Delivering {
    let mut args = vec!["--site-url", SITE];
    args.extend_from_slice(extra);
    Delivering::start(Mode::Accept, &args).await
}

/// The links of a confirmation email: (confirm, unsubscribe).
fn links(mail: &Received) -> (String, String) {
    let parsed = mail.parsed();
    let text = parsed.body_text(0).unwrap().into_owned();
    let confirm = text
        .split_whitespace()
        .find(|word| word.starts_with("http") && word.contains(CONFIRM_PATH))
        .unwrap_or_else(|| panic!("no confirmation link in {text}"))
        .to_owned();
    let header = parsed.header_raw("List-Unsubscribe").unwrap().trim();
    let unsubscribe = header
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned();
    assert!(
        text.contains(&unsubscribe),
        "the visible unsubscribe link: {text}"
    );
    (confirm, unsubscribe)
}

/// Follows `url` once; the status and where it leads.
async fn get(url: &str) -> (u16, String) {
    let response = support::no_redirects().get(url).send().await.unwrap();
    status_and_location(&response)
}

/// `contact-fn subscribers ...` on the data folder `dir`; its standard output.
fn cli(dir: &Path, args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .args(["--data-dir", dir.to_str().unwrap(), "subscribers"])
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

async fn subscribe(d: &Delivering, address: &str) -> Value {
    let (status, answer) = post_json(
        &d.client,
        &d.service.url(SUBSCRIBE),
        &json!({ "email": address }),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    answer
}

#[tokio::test]
async fn subscribe_confirm_export_and_unsubscribe_with_one_click() {
    let d = start(&[]).await;
    let words = Words::built_in().unwrap();
    subscribe(&d, "Reader@Example.org").await;
    let mail = d.smtp.wait_for(1).await.remove(0);
    assert_eq!(mail.to, ["reader@example.org"]);
    assert_eq!(mail.from, "website@example.com");
    let parsed = mail.parsed();
    assert_eq!(parsed.subject(), Some(words.email.subject.as_str()));
    assert_eq!(
        parsed.header_raw("List-Unsubscribe-Post").map(str::trim),
        Some("List-Unsubscribe=One-Click")
    );
    assert!(parsed.body_html(0).unwrap().contains(&words.email.action));
    let (confirm, unsubscribe) = links(&mail);
    assert!(confirm.starts_with(&d.service.base), "{confirm}");
    assert!(confirm.contains("source=newsletter"), "{confirm}");

    assert_eq!(get(&confirm).await, (303, page("confirmed")));
    assert_eq!(
        get(&confirm).await,
        (303, page("confirmed")),
        "twice is harmless"
    );
    let (ok, csv) = cli(d.dir.path(), &["export"]);
    assert!(ok);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "address,confirmed_at,source");
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(lines[1].starts_with("reader@example.org,20"), "{csv}");
    assert!(lines[1].ends_with(",newsletter"), "{csv}");

    // The link in the email shows a button; a mail client posts the one-click body.
    let page_html = reqwest::get(&unsubscribe)
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page_html.contains(&words.unsubscribe.button), "{page_html}");
    assert!(page_html.contains("name=\"List-Unsubscribe\" value=\"One-Click\""));
    assert_eq!(
        cli(d.dir.path(), &["export"]).1.lines().count(),
        2,
        "GET changes nothing"
    );
    let response = d
        .client
        .post(&unsubscribe)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        cli(d.dir.path(), &["export"]).1.lines().count(),
        1,
        "removed"
    );

    // The old confirmation link does not bring it back.
    assert_eq!(get(&confirm).await, (303, page("invalid")));
    assert_eq!(cli(d.dir.path(), &["export"]).1.lines().count(), 1);
    d.service.stop().await;
}

#[tokio::test]
async fn tampered_expired_and_foreign_links_land_on_the_invalid_page() {
    let d = start(&[]).await;
    subscribe(&d, "eve@example.org").await;
    let mail = d.smtp.wait_for(1).await.remove(0);
    let (confirm, unsubscribe) = links(&mail);
    let invalid = (303, page("invalid"));
    for tampered in [
        confirm.replace("eve%40", "mallory%40"),
        confirm.replace("source=newsletter", "source=enquiry"),
        confirm.replace("expires=", "expires=9"),
        format!(
            "{}0",
            confirm.trim_end_matches(|c: char| c.is_ascii_hexdigit())
        ),
        confirm.split_once("&sig").unwrap().0.to_owned(),
        d.service.url(CONFIRM_PATH),
    ] {
        assert_eq!(get(&tampered).await, invalid, "{tampered}");
    }
    assert_eq!(get(&unsubscribe.replace("eve", "mallory")).await, invalid);

    // A link signed with this service's key that expired a moment ago.
    let config = Config::from_args(support::test_args(d.dir.path())).unwrap();
    let newsletter = contact_fn::Newsletter::new(&config, &d.service.base).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let english = newsletter.languages().default();
    let expired =
        newsletter.confirm_link("eve@example.org", FormKind::Newsletter, now - 1, english);
    assert_eq!(get(&expired).await, invalid);
    let fresh = newsletter.confirm_link(
        "eve@example.org",
        FormKind::Newsletter,
        now + 60_000,
        english,
    );
    assert_eq!(
        get(&fresh).await,
        (303, page("confirmed")),
        "the same key works"
    );

    // A one-click POST needs the one-click body and a genuine link.
    let post = |url: String, body: &'static str| {
        d.client
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    assert_eq!(post(unsubscribe.clone(), "").await.unwrap().status(), 400);
    let forged = unsubscribe.replace("eve", "mallory");
    let answer = post(forged, "List-Unsubscribe=One-Click").await.unwrap();
    assert_eq!(answer.status(), 400);
    d.service.stop().await;
}

#[tokio::test]
async fn new_pending_and_subscribed_addresses_get_the_same_answer() {
    let d = start(&[]).await;
    let new = subscribe(&d, "new@example.org").await;
    let (confirm, _) = links(&d.smtp.wait_for(1).await[0]);
    assert_eq!(get(&confirm).await.1, page("confirmed"));
    let subscribed = subscribe(&d, "new@example.org").await;
    subscribe(&d, "pending@example.org").await;
    let pending = subscribe(&d, "pending@example.org").await;
    for answer in [&new, &subscribed, &pending] {
        let keys: Vec<&String> = answer.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["id", "ok"], "{answer}");
        assert_eq!(answer["ok"], json!(true));
        assert_eq!(answer["id"].as_str().unwrap().len(), 36);
    }
    for address in [
        "fresh@example.org",
        "new@example.org",
        "pending@example.org",
    ] {
        let response = support::no_redirects()
            .post(d.service.url(SUBSCRIBE))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("email={}", address.replace('@', "%40")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 303);
        assert_eq!(response.headers()["location"], page("pending").as_str());
    }
    let response = support::no_redirects()
        .post(d.service.url(SUBSCRIBE))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("email=not-an-address")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["location"], page("failed").as_str());
    // A filled honeypot is answered the same and sends nothing.
    let (status, _) = post_json(
        &d.client,
        &d.service.url(SUBSCRIBE),
        &json!({ "email": "bot@example.org", "_gotcha": "x" }),
    )
    .await;
    assert_eq!(status, 200);
    eventually("the outbox to empty", || d.outbox().is_empty()).await;
    // The worker delivers several messages at once, so they may arrive in any order.
    let mut to: Vec<Vec<String>> = d.smtp.received().into_iter().map(|m| m.to).collect();
    to.sort();
    assert_eq!(
        to,
        [
            ["fresh@example.org"],
            ["new@example.org"],
            ["pending@example.org"]
        ],
        "one email per new address, none for the subscribed, limited or spam ones"
    );
    d.service.stop().await;
}

#[tokio::test]
async fn a_flood_from_many_clients_sends_one_address_one_email() {
    let d = start(&["--trusted-proxies", "127.0.0.1", "--rate-burst", "3"]).await;
    let flood = 60;
    let mut requests = tokio::task::JoinSet::new();
    for n in 0..flood {
        let client = d.client.clone();
        let url = d.service.url(SUBSCRIBE);
        requests.spawn(async move {
            client
                .post(url)
                .header("x-forwarded-for", format!("198.51.100.{n}"))
                .json(&json!({ "email": "victim@example.org" }))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        });
    }
    let mut statuses = Vec::new();
    while let Some(status) = requests.join_next().await {
        statuses.push(status.unwrap());
    }
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    // Every email was in the outbox before its answer; once it is empty, all were sent.
    eventually("the outbox to empty", || d.outbox().is_empty()).await;
    let received = d.smtp.wait_for(1).await;
    assert_eq!(received.len(), 1, "one confirmation for {flood} requests");
    d.service.stop().await;
}

#[tokio::test]
async fn a_ticked_newsletter_box_on_an_enquiry_starts_the_opt_in() {
    let d = start(&[]).await;
    let mut body = support::enquiry_body();
    d.submit("/send-enquiry", &body).await;
    let received = d.smtp.wait_for(2).await;
    let confirmation = received
        .iter()
        .find(|m| m.to == ["grace@example.org"])
        .expect("a confirmation to the visitor");
    let (confirm, _) = links(confirmation);
    assert!(confirm.contains("source=enquiry"), "{confirm}");
    assert_eq!(get(&confirm).await.1, page("confirmed"));
    assert!(
        cli(d.dir.path(), &["export"])
            .1
            .contains("grace@example.org,")
    );

    body["newsletter"] = json!(false);
    body["email"] = json!("ada@example.org");
    d.submit("/send-enquiry", &body).await;
    d.smtp.wait_for(3).await;
    eventually("the outbox to empty", || d.outbox().is_empty()).await;
    assert!(
        !d.smtp
            .received()
            .iter()
            .any(|m| m.to == ["ada@example.org"])
    );
    d.service.stop().await;
}

#[tokio::test]
async fn the_cli_removes_an_address_for_good() {
    let d = start(&[]).await;
    subscribe(&d, "gdpr@example.org").await;
    let (confirm, _) = links(&d.smtp.wait_for(1).await[0]);
    get(&confirm).await;
    assert!(
        cli(d.dir.path(), &["export"])
            .1
            .contains("gdpr@example.org")
    );
    assert!(cli(d.dir.path(), &["remove", "GDPR@example.org"]).0);
    assert_eq!(cli(d.dir.path(), &["export"]).1.lines().count(), 1);
    assert!(
        !cli(d.dir.path(), &["remove", "gdpr@example.org"]).0,
        "unknown now"
    );
    assert_eq!(
        get(&confirm).await.1,
        page("invalid"),
        "the old link is void"
    );
    d.service.stop().await;
}

#[tokio::test]
async fn killed_between_accepting_and_sending_the_confirmation_is_sent_after_restart() {
    let port = support::free_port();
    let smtp_url = format!("smtp://{port}");
    let data = tempfile::tempdir().unwrap();
    let args = ["--smtp-url", &smtp_url, "--site-url", SITE];
    let service = Process::start(data.path(), &args);
    let client = reqwest::Client::new();
    let (status, _) = post_json(
        &client,
        &service.url(SUBSCRIBE),
        &json!({ "email": "crash@example.org" }),
    )
    .await;
    assert_eq!(status, 200);
    service.kill();
    let outbox = files(&data.path().join("outbox"), "json");
    assert_eq!(outbox.len(), 1, "the confirmation waits in the outbox");
    assert!(
        std::fs::read_to_string(&outbox[0])
            .unwrap()
            .contains("\"kind\":\"newsletter\"")
    );

    let smtp = SmtpServer::start_on(std::net::TcpListener::bind(port).unwrap(), Mode::Accept);
    let service = Process::start(data.path(), &args);
    let mail = smtp.wait_for(1).await.remove(0);
    assert_eq!(mail.to, ["crash@example.org"]);
    // The link names the killed process's port; the same path works on the new one.
    let (confirm, _) = links(&mail);
    let path = &confirm[confirm.find(CONFIRM_PATH).unwrap()..];
    assert_eq!(get(&service.url(path)).await, (303, page("confirmed")));
    assert!(service.terminate());
}
