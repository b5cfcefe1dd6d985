//! The real binary: started with no configuration, killed with a full outbox, stopped by
//! SIGTERM.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::collections::BTreeMap;

use serde_json::json;
use support::{Mode, Process, SmtpServer, eventually, files, post_json};

#[tokio::test]
async fn with_no_configuration_a_valid_submission_lands_as_an_eml_file_holding_every_field() {
    let cwd = tempfile::tempdir().unwrap();
    // Only the port is chosen, so tests do not collide with a running `make run`.
    let service = Process::start_in(cwd.path(), &["--bind", "127.0.0.1:0"]);
    assert!(
        service
            .log()
            .iter()
            .any(|l| l.contains("delivered as .eml files into var/contact-fn/mail/")),
        "the start-up log says where mail goes: {:?}",
        service.log()
    );
    let client = reqwest::Client::new();
    let body = support::contact_body();
    let (status, answer) = post_json(&client, &service.url("/send-contact-email"), &body).await;
    assert_eq!(status, 200, "{answer}");
    let id = answer["id"].as_str().unwrap();

    let eml = cwd.path().join(format!("var/contact-fn/mail/{id}.eml"));
    eventually("the .eml file", || eml.exists()).await;
    let raw = std::fs::read(&eml).unwrap();
    let message = mail_parser::MessageParser::default().parse(&raw).unwrap();
    let text = message.body_text(0).unwrap().replace("\r\n", "\n");
    support::assert_holds_every_contact_field(&text, &body);
    assert!(service.terminate(), "exits cleanly on SIGTERM");
}

#[tokio::test]
async fn killed_with_messages_in_the_outbox_then_restarted_delivers_each_exactly_once() {
    let port = support::free_port();
    let smtp_url = format!("smtp://{port}");
    let data = tempfile::tempdir().unwrap();
    let outbox = data.path().join("outbox");
    let service = Process::start(data.path(), &["--smtp-url", &smtp_url]);
    let client = reqwest::Client::new();
    let count = 6;
    for n in 0..count {
        let mut body = support::contact_body();
        body["subject"] = json!(format!("message {n}"));
        let (status, _) = post_json(&client, &service.url("/send-contact-email"), &body).await;
        assert_eq!(status, 200);
    }
    // Let at least one delivery attempt fail before the crash, so retry state is on disk.
    eventually("failed attempts to be recorded", || {
        files(&outbox, "json")
            .iter()
            .any(|p| std::fs::read_to_string(p).is_ok_and(|s| s.contains("\"attempts\":1")))
    })
    .await;
    service.kill();
    assert_eq!(
        files(&outbox, "json").len(),
        count,
        "nothing accepted is lost"
    );

    let smtp = SmtpServer::start_on(std::net::TcpListener::bind(port).unwrap(), Mode::Accept);
    let service = Process::start(data.path(), &["--smtp-url", &smtp_url]);
    smtp.wait_for(count).await;
    eventually("the outbox to empty", || files(&outbox, "json").is_empty()).await;
    assert!(service.terminate());

    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for mail in smtp.received() {
        *seen
            .entry(mail.parsed().subject().unwrap().to_owned())
            .or_default() += 1;
    }
    let expected: BTreeMap<String, usize> = (0..count)
        .map(|n| (format!("[Website contact] message {n}"), 1))
        .collect();
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn sigterm_stops_cleanly_and_keeps_undelivered_messages() {
    let port = support::free_port();
    let data = tempfile::tempdir().unwrap();
    let service = Process::start(data.path(), &["--smtp-url", &format!("smtp://{port}")]);
    let client = reqwest::Client::new();
    let (status, _) = post_json(
        &client,
        &service.url("/send-contact-email"),
        &support::contact_body(),
    )
    .await;
    assert_eq!(status, 200);
    assert!(service.terminate(), "exits with success");
    assert_eq!(files(&data.path().join("outbox"), "json").len(), 1);
}

#[tokio::test]
async fn a_bad_configuration_is_refused_with_a_clear_message() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .args(["--retry-initial", "soon"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("invalid value 'soon' for '--retry-initial"),
        "{stderr}"
    );

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .args([
            "--bind",
            "127.0.0.1:0",
            "--allowed-origins",
            "http://localhost:8080/",
        ])
        .current_dir(tempfile::tempdir().unwrap().path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("allowed origin `http://localhost:8080/` must look like"),
        "{stderr}"
    );
}
