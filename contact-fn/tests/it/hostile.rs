//! The second hostile suite, each test named after the hole it pins: slow bodies starving the
//! service, encoded-words in a subject, addresses mail cannot be sent to, raw UTF-8 in
//! headers, repeated JSON keys, the multipart one-click unsubscribe and amplified error lists.
//! Real TCP and a real SMTP server throughout.
#![allow(clippy::unwrap_used)]

use crate::support;

use contact_fn::contract::FormKind;
use contact_fn::submission::MAX_UNKNOWN_FIELDS_REPORTED;
use serde_json::{Value, json};
use support::{Delivering, Mode, PATIENCE, Service, post_json};
use tokio::io::AsyncWriteExt as _;
use tokio::net::TcpStream;

/// Posts raw JSON text (which `serde_json::Value` could not hold, e.g. a repeated key).
async fn post_text(d: &Delivering, path: &str, body: String) -> (u16, Value) {
    let response = d
        .client
        .post(d.service.url(path))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn slow_bodies_from_a_few_clients_do_not_starve_a_real_visitor() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(
        dir.path(),
        &[
            "--trusted-proxies",
            "127.0.0.1",
            "--max-concurrency",
            "2",
            "--max-bodies-per-client",
            "2",
            "--body-timeout",
            "120s",
            "--request-timeout",
            "120s",
        ],
    )
    .await;
    let url = service.url(FormKind::Contact.path());
    let attackers = ["198.51.100.1", "198.51.100.2", "198.51.100.3"];
    // Each attacker starts as many bodies as it may and never finishes them: together they
    // are three times the processing turns.
    let mut held = Vec::new();
    for attacker in attackers {
        for _ in 0..2 {
            let mut stream = TcpStream::connect(service.base.trim_start_matches("http://"))
                .await
                .unwrap();
            let head = format!(
                "POST {} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                 X-Forwarded-For: {attacker}\r\nContent-Length: 1000\r\n\r\n{{\"name\":",
                FormKind::Contact.path()
            );
            stream.write_all(head.as_bytes()).await.unwrap();
            held.push(stream);
        }
    }
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();
    // A third body from an attacker is refused at once, once its two are being read.
    for attacker in attackers {
        let start = std::time::Instant::now();
        loop {
            let status = client
                .post(&url)
                .header("x-forwarded-for", attacker)
                .json(&json!({}))
                .send()
                .await
                .unwrap()
                .status();
            if status == 429 {
                break;
            }
            assert_eq!(status, 422, "an empty form is only refused");
            assert!(start.elapsed() < PATIENCE, "no 429 for {attacker}");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    let response = client
        .post(&url)
        .header("x-forwarded-for", "203.0.113.7")
        .json(&support::contact_body())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{:?}", response.text().await);
    drop(held);
    service.stop().await;
}

#[tokio::test]
async fn an_encoded_word_in_the_subject_or_name_cannot_become_a_header() {
    let d = Delivering::start(Mode::Accept, &[]).await;
    let hostile = "=?utf-8?q?a=0D=0ABcc:x@y?=";
    let mut body = support::contact_body();
    body["subject"] = json!(hostile);
    body["name"] = json!(hostile);
    d.submit(FormKind::Contact.path(), &body).await;
    let mail = d.smtp.wait_for(1).await.remove(0);
    let parsed = mail.parsed();
    assert_eq!(
        parsed.subject(),
        Some(format!("[Website contact] {hostile}").as_str())
    );
    let reply_to = parsed.reply_to().unwrap().first().unwrap();
    assert_eq!(reply_to.name(), Some(hostile));
    assert_eq!(reply_to.address(), Some("ada@example.org"));
    assert!(parsed.header_raw("Bcc").is_none());
    assert_eq!(mail.to, ["contact@example.com"], "no recipient was added");
    d.service.stop().await;
}

#[tokio::test]
async fn addresses_mail_cannot_be_sent_to_are_refused_422_on_every_form_not_500() {
    let d = Delivering::start(Mode::Accept, &[]).await;
    let unmailable = [
        "\"a b\"@example.org",
        "a@[127.0.0.1]",
        "a@127.0.0.1",
        "a@localhost",
        "a..b@example.org",
    ];
    for kind in FormKind::ALL {
        let mut body = match kind {
            FormKind::Contact => support::contact_body(),
            FormKind::Enquiry => support::enquiry_body(),
            FormKind::Newsletter => json!({ "email": "" }),
        };
        for address in unmailable {
            body["email"] = json!(address);
            let (status, answer) = post_json(&d.client, &d.service.url(kind.path()), &body).await;
            assert_eq!(status, 422, "{kind} {address}: {answer}");
            assert_eq!(
                answer["fields"]["email"]["code"], "invalid_email",
                "{answer}"
            );
        }
    }
    assert!(d.outbox().is_empty(), "nothing stored");
    // The same address written properly subscribes and gets its email.
    let body = json!({ "email": "a.b@example.org" });
    let url = d.service.url(FormKind::Newsletter.path());
    assert_eq!(post_json(&d.client, &url, &body).await.0, 200);
    assert_eq!(d.smtp.wait_for(1).await[0].to, ["a.b@example.org"]);
    d.service.stop().await;
}

#[tokio::test]
async fn a_non_ascii_address_reaches_headers_as_a_labels_or_is_refused() {
    let d = Delivering::start(Mode::Accept, &[]).await;
    let mut body = support::contact_body();
    body["email"] = json!("ada@Bücher.example");
    d.submit(FormKind::Contact.path(), &body).await;
    let mail = d.smtp.wait_for(1).await.remove(0);
    assert!(mail.data.is_ascii(), "no raw UTF-8 without SMTPUTF8");
    let parsed = mail.parsed();
    let reply_to = parsed.reply_to().unwrap().first().unwrap();
    assert_eq!(reply_to.address(), Some("ada@xn--bcher-kva.example"));

    body["email"] = json!("jürgen@example.org");
    let (status, answer) =
        post_json(&d.client, &d.service.url(FormKind::Contact.path()), &body).await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(answer["fields"]["email"]["code"], "invalid_email");
    assert_eq!(
        answer["fields"]["email"]["message"],
        "Please enter an address whose part before the @ has only unaccented letters, digits and . _ - +."
    );
    d.service.stop().await;
}

#[tokio::test]
async fn a_json_key_given_twice_is_refused_as_repeated_not_last_wins() {
    let d = Delivering::start(Mode::Accept, &[]).await;
    let body = support::contact_body().to_string();
    let twice = body.replacen('{', "{\"email\":\"eve@example.org\",", 1);
    let (status, answer) = post_text(&d, FormKind::Contact.path(), twice).await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(answer["fields"]["email"]["code"], "repeated");
    assert_eq!(
        answer["fields"]["email"]["message"],
        "Email address must be given only once."
    );
    assert!(d.outbox().is_empty());
    d.service.stop().await;
}

#[tokio::test]
async fn one_click_unsubscribe_as_multipart_form_data_unsubscribes() {
    let d = Delivering::start(Mode::Accept, &[]).await;
    let url = d.service.url(FormKind::Newsletter.path());
    let address = json!({ "email": "reader@example.org" });
    assert_eq!(post_json(&d.client, &url, &address).await.0, 200);
    let mail = d.smtp.wait_for(1).await.remove(0);
    let unsubscribe = mail
        .parsed()
        .header_raw("List-Unsubscribe")
        .unwrap()
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned();
    assert_eq!(support::confirm(&mail).await, 303);
    assert_eq!(export(&d).await.lines().count(), 2, "subscribed");

    // What a mail client sends per RFC 8058.
    let multipart = "--b0undary\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\n\
                     One-Click\r\n--b0undary--\r\n";
    let response = d
        .client
        .post(&unsubscribe)
        .header("content-type", "multipart/form-data; boundary=b0undary")
        .body(multipart)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{:?}", response.text().await);
    assert_eq!(export(&d).await.lines().count(), 1, "unsubscribed");

    // A multipart body without the one-click field changes nothing and says why.
    let other =
        "--b0undary\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\ny\r\n--b0undary--\r\n";
    let response = d
        .client
        .post(&unsubscribe)
        .header("content-type", "multipart/form-data; boundary=b0undary")
        .body(other)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    d.service.stop().await;
}

/// The confirmed subscribers as CSV, through the CLI.
async fn export(d: &Delivering) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .args([
            "--data-dir",
            d.dir.path().to_str().unwrap(),
            "subscribers",
            "export",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[tokio::test]
async fn thousands_of_unknown_keys_get_a_short_answer_not_an_amplified_one() {
    let d = Delivering::start(Mode::Accept, &[]).await;
    let mut body = support::contact_body();
    for n in 0..6_000 {
        body[format!("k{n}")] = json!(1);
    }
    let text = body.to_string();
    let sent = text.len();
    let response = d
        .client
        .post(d.service.url(FormKind::Contact.path()))
        .header("content-type", "application/json")
        .body(text)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    let answer = response.bytes().await.unwrap();
    assert!(
        answer.len() < sent / 10,
        "{} bytes answered to {sent}",
        answer.len()
    );
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    let fields = answer["fields"].as_object().unwrap();
    assert_eq!(fields.len(), MAX_UNKNOWN_FIELDS_REPORTED);
    assert!(fields.values().all(|f| f["code"] == "unknown_field"));
    d.service.stop().await;
}
