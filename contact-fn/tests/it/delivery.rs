//! Delivery to a real SMTP server over TCP: what arrives, retries while the server is down,
//! dead letters, and one email per idempotent submission.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use contact_fn::Record;
use serde_json::{Value, json};
use support::{Delivering, Mode, Received, Service, SmtpServer, eventually, files, post_json};

fn records(dir: &Path) -> Vec<Record> {
    files(dir, "json")
        .iter()
        .filter_map(|p| serde_json::from_slice(&std::fs::read(p).ok()?).ok())
        .collect()
}

#[tokio::test]
async fn the_inbox_receives_every_contact_field_in_both_bodies() {
    let run = Delivering::start(
        Mode::Accept,
        &[
            "--mail-to",
            "Sales <sales@company.example>",
            "--mail-from",
            "Site <site@company.example>",
        ],
    )
    .await;
    let body = support::contact_body();
    let id = run.submit("/send-contact-email", &body).await;
    let Delivering {
        smtp, dir, service, ..
    } = run;

    let received = smtp.wait_for(1).await;
    let mail = &received[0];
    assert_eq!(mail.from, "site@company.example");
    assert_eq!(mail.to, ["sales@company.example"]);
    let message = mail.parsed();
    assert_eq!(
        message.from().unwrap().first().unwrap().address(),
        Some("site@company.example")
    );
    assert_eq!(
        message.to().unwrap().first().unwrap().address(),
        Some("sales@company.example")
    );
    let reply_to = message.reply_to().unwrap().first().unwrap();
    assert_eq!(
        (reply_to.name(), reply_to.address()),
        (Some("Ada Lovelace"), Some("ada@example.org"))
    );
    assert_eq!(message.subject(), Some("[Website contact] A new engine"));
    assert_eq!(
        message.message_id(),
        Some(format!("{id}@company.example").as_str())
    );
    assert!(message.date().is_some());

    let text = message.body_text(0).unwrap().replace("\r\n", "\n");
    let html = message.body_html(0).unwrap().replace("\r\n", "\n");
    support::assert_holds_every_contact_field(&text, &body);
    support::assert_holds_every_contact_field(&html, &body);
    assert!(text.contains(&id) && html.contains(&id));

    let outbox = dir.path().join("outbox");
    eventually("the delivered message to leave the outbox", || {
        files(&outbox, "json").is_empty()
    })
    .await;
    service.stop().await;
    assert_eq!(smtp.received().len(), 1);
}

#[tokio::test]
async fn the_inbox_receives_every_enquiry_field_in_both_bodies() {
    let run = Delivering::start(Mode::Accept, &[]).await;
    run.submit("/send-enquiry", &support::enquiry_body()).await;
    let Delivering { smtp, service, .. } = run;

    // The enquiry, and the confirmation email of its newsletter box, in either order.
    let received = smtp.wait_for(2).await;
    let enquiry = "[Website enquiry] Grace Hopper (Navy Computing)";
    let message = received
        .iter()
        .map(Received::parsed)
        .find(|m| m.subject() == Some(enquiry))
        .unwrap_or_else(|| panic!("no email titled {enquiry:?}"));
    let reply_to = message.reply_to().unwrap().first().unwrap();
    assert_eq!(
        (reply_to.name(), reply_to.address()),
        (Some("Grace Hopper"), Some("grace@example.org"))
    );
    let text = message.body_text(0).unwrap().replace("\r\n", "\n");
    let html = message.body_html(0).unwrap().replace("\r\n", "\n");
    for value in [
        "Grace",
        "Hopper",
        "grace@example.org",
        "Rear Admiral",
        "Navy Computing",
        "+1 555 0100",
        "Compilers\nand debugging",
        "Event/Conference",
        "CTO",
    ] {
        assert!(text.contains(value), "text body lacks {value}: {text}");
        // minijinja's HTML escaping also escapes the slash.
        let escaped = value.replace('/', "&#x2f;");
        assert!(html.contains(&escaped), "HTML body lacks {escaped}: {html}");
    }
    assert!(text.contains("Newsletter:        yes"), "{text}");
    assert!(text.contains("Privacy agreement: accepted"), "{text}");
    service.stop().await;
}

#[tokio::test]
async fn a_message_accepted_while_smtp_is_down_is_delivered_once_it_is_up() {
    let port = support::free_port();
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(dir.path(), &["--smtp-url", &format!("smtp://{port}")]).await;
    let client = reqwest::Client::new();
    let (status, answer) = post_json(
        &client,
        &service.url("/send-contact-email"),
        &support::contact_body(),
    )
    .await;
    assert_eq!(status, 200, "{answer}");

    let outbox = dir.path().join("outbox");
    eventually("a failed attempt to be recorded", || {
        records(&outbox)
            .iter()
            .any(|r| r.attempts >= 1 && r.last_error.is_some())
    })
    .await;

    let smtp = SmtpServer::start_on(std::net::TcpListener::bind(port).unwrap(), Mode::Accept);
    smtp.wait_for(1).await;
    eventually("the outbox to empty", || files(&outbox, "json").is_empty()).await;
    service.stop().await;
    assert_eq!(smtp.received().len(), 1);
    assert!(files(&dir.path().join("dead"), "json").is_empty());
}

#[tokio::test]
async fn a_permanent_rejection_moves_the_message_to_the_dead_letters() {
    let run = Delivering::start(Mode::RejectRecipients, &[]).await;
    let id = run
        .submit("/send-contact-email", &support::contact_body())
        .await;
    let Delivering {
        smtp, dir, service, ..
    } = run;

    let dead = dir.path().join("dead");
    eventually("a dead letter", || !files(&dead, "json").is_empty()).await;
    let record: Record =
        serde_json::from_slice(&std::fs::read(dead.join(format!("{id}.json"))).unwrap()).unwrap();
    assert_eq!(record.attempts, 1, "a permanent failure is not retried");
    let error = record.last_error.unwrap();
    assert!(error.contains("550"), "{error}");
    // The dead letter is written before the outbox file is removed.
    eventually("the outbox emptied", || {
        files(&dir.path().join("outbox"), "json").is_empty()
    })
    .await;
    service.stop().await;
    assert!(smtp.received().is_empty());
}

#[tokio::test]
async fn a_message_undeliverable_past_the_give_up_age_becomes_a_dead_letter() {
    let port = support::free_port();
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(
        dir.path(),
        &[
            "--smtp-url",
            &format!("smtp://{port}"),
            "--retry-give-up",
            "500ms",
        ],
    )
    .await;
    let client = reqwest::Client::new();
    let (status, _) = post_json(
        &client,
        &service.url("/send-contact-email"),
        &support::contact_body(),
    )
    .await;
    assert_eq!(status, 200);
    let dead = dir.path().join("dead");
    eventually("the message to be given up", || {
        !files(&dead, "json").is_empty()
    })
    .await;
    let record = &records(&dead)[0];
    assert!(
        record.attempts >= 2,
        "retried before giving up: {}",
        record.attempts
    );
    // The dead letter is written before the outbox file is removed.
    let outbox = dir.path().join("outbox");
    eventually("the outbox to be empty", || {
        files(&outbox, "json").is_empty()
    })
    .await;
    service.stop().await;
}

#[tokio::test]
async fn the_same_idempotency_key_twice_sends_one_email() {
    let Delivering {
        smtp,
        dir,
        service,
        client,
    } = Delivering::start(Mode::Accept, &[]).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let response = client
            .post(service.url("/send-contact-email"))
            .header("Idempotency-Key", "5f0c6a52-3b8e-4c53-9a4c-8f1d2e7b9a10")
            .json(&support::contact_body())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        ids.push(response.json::<Value>().await.unwrap()["id"].clone());
        // The second submission comes after the first was delivered.
        smtp.wait_for(1).await;
        eventually("the outbox to empty", || {
            files(&dir.path().join("outbox"), "json").is_empty()
        })
        .await;
    }
    assert_eq!(ids[0], ids[1]);
    service.stop().await;
    assert_eq!(smtp.received().len(), 1);
}

#[tokio::test]
async fn a_graceful_stop_keeps_the_outbox_for_the_next_start() {
    let port = support::free_port();
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(dir.path(), &["--smtp-url", &format!("smtp://{port}")]).await;
    let client = reqwest::Client::new();
    for n in 0..3 {
        let mut full = support::contact_body();
        full["subject"] = json!(format!("message {n}"));
        assert_eq!(
            post_json(&client, &service.url("/send-contact-email"), &full)
                .await
                .0,
            200
        );
    }
    service.stop().await;
    assert_eq!(files(&dir.path().join("outbox"), "json").len(), 3);

    let smtp = SmtpServer::start_on(std::net::TcpListener::bind(port).unwrap(), Mode::Accept);
    let service = Service::start(dir.path(), &["--smtp-url", &smtp.url()]).await;
    smtp.wait_for(3).await;
    eventually("the outbox to empty", || {
        files(&dir.path().join("outbox"), "json").is_empty()
    })
    .await;
    service.stop().await;
    let mut subjects: Vec<String> = smtp
        .received()
        .iter()
        .map(|m| m.parsed().subject().unwrap().to_owned())
        .collect();
    subjects.sort();
    assert_eq!(
        subjects,
        [
            "[Website contact] message 0",
            "[Website contact] message 1",
            "[Website contact] message 2"
        ]
    );
}
