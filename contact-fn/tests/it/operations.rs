//! What an operator sees: `/metrics` on its own address (requests, submissions, deliveries,
//! the outbox and dead letters, SMTP latency), JSON logs with the request id that the answer
//! and the email carry too, and alert rules that name only metrics the service exports. Real
//! SMTP over TCP throughout.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::time::{Duration, Instant};

use contact_fn::contract::FormKind;
use contact_fn::telemetry::{self, REQUEST_ID_HEADER};
use serde_json::{Value, json};
use support::{Delivering, Mode, PATIENCE, Process, SmtpServer, post_json};

/// The value of the sample of `name` whose labels include `labels`, in Prometheus text.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let (metric, rest) = series.split_once('{').unwrap_or((series, ""));
            let matches = metric == name
                && labels
                    .iter()
                    .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")));
            matches.then(|| value.parse().ok()).flatten()
        })
}

/// Scrapes `url` until `ready` holds for the text (bounded), and returns that text.
async fn scrape_until(url: &str, ready: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let response = reqwest::get(url).await.unwrap();
        assert_eq!(response.status(), 200);
        let text = response.text().await.unwrap();
        if ready(&text) {
            return text;
        }
        assert!(start.elapsed() < PATIENCE, "gave up waiting: {text}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn metrics_are_served_off_the_public_port_and_count_requests_submissions_and_deliveries() {
    let metrics = support::free_port();
    let bind = metrics.to_string();
    let d = Delivering::start(Mode::Accept, &["--metrics-bind", &bind]).await;
    let path = FormKind::Contact.path();
    d.submit(path, &support::contact_body()).await;
    let (status, _) = post_json(&d.client, &d.service.url(path), &json!({})).await;
    assert_eq!(status, 422);
    let public = reqwest::get(d.service.url("/metrics")).await.unwrap();
    assert_eq!(public.status(), 404, "not on the public port");
    d.smtp.wait_for(1).await;

    let url = format!("http://{metrics}/metrics");
    let delivered = |text: &str| {
        sample(
            text,
            telemetry::DELIVERIES,
            &[("result", "delivered"), ("attempt", "1")],
        ) == Some(1.0)
    };
    let text = scrape_until(&url, delivered).await;
    let requests = |status| {
        sample(
            &text,
            telemetry::HTTP_REQUESTS,
            &[("route", path), ("status", status)],
        )
    };
    assert_eq!(requests("200"), Some(1.0), "{text}");
    assert_eq!(requests("422"), Some(1.0), "{text}");
    let unmatched = [("route", "unmatched"), ("status", "404")];
    assert_eq!(
        sample(&text, telemetry::HTTP_REQUESTS, &unmatched),
        Some(1.0)
    );
    let contact = [("form", "contact")];
    assert_eq!(
        sample(&text, telemetry::SUBMISSIONS_ACCEPTED, &contact),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &text,
            telemetry::SUBMISSIONS_REJECTED,
            &[("form", "contact"), ("reason", "invalid")]
        ),
        Some(1.0)
    );
    let smtp_count = format!("{}_count", telemetry::SMTP_SECONDS);
    assert_eq!(sample(&text, &smtp_count, &[("result", "ok")]), Some(1.0));
    let scraped_later = scrape_until(&url, |text| {
        sample(text, telemetry::OUTBOX_MESSAGES, &[]) == Some(0.0)
    })
    .await;
    assert_eq!(
        sample(&scraped_later, telemetry::DEAD_LETTERS, &[]),
        Some(0.0)
    );
    assert_eq!(
        sample(&scraped_later, telemetry::OUTBOX_OLDEST_AGE, &[]),
        Some(0.0)
    );
    d.service.stop().await;
}

#[tokio::test]
async fn a_refused_message_shows_as_a_dead_letter_and_a_waiting_one_as_outbox_depth() {
    let metrics = support::free_port();
    let bind = metrics.to_string();
    let d = Delivering::start(Mode::RejectRecipients, &["--metrics-bind", &bind]).await;
    d.submit(FormKind::Contact.path(), &support::contact_body())
        .await;
    let url = format!("http://{metrics}/metrics");
    let text = scrape_until(&url, |text| {
        sample(text, telemetry::DEAD_LETTERS, &[]) == Some(1.0)
    })
    .await;
    let dead = [("result", "dead"), ("attempt", "1")];
    assert_eq!(sample(&text, telemetry::DELIVERIES, &dead), Some(1.0));
    d.service.stop().await;

    // No SMTP server answers: the message waits, and the gauges say since when.
    let metrics = support::free_port();
    let bind = metrics.to_string();
    let nobody = format!("smtp://{}", support::free_port());
    let dir = tempfile::tempdir().unwrap();
    let service = support::Service::start(
        dir.path(),
        &[
            "--metrics-bind",
            &bind,
            "--smtp-url",
            &nobody,
            "--retry-initial",
            "1h",
            "--retry-max",
            "1h",
        ],
    )
    .await;
    let client = reqwest::Client::new();
    let answer = post_json(
        &client,
        &service.url(FormKind::Contact.path()),
        &support::contact_body(),
    )
    .await;
    assert_eq!(answer.0, 200);
    let url = format!("http://{metrics}/metrics");
    let text = scrape_until(&url, |text| {
        sample(
            text,
            telemetry::DELIVERIES,
            &[("result", "retry"), ("attempt", "1")],
        ) == Some(1.0)
    })
    .await;
    assert_eq!(sample(&text, telemetry::OUTBOX_MESSAGES, &[]), Some(1.0));
    let age = sample(&text, telemetry::OUTBOX_OLDEST_AGE, &[]).unwrap();
    assert!(age > 0.0, "the oldest message's age: {age}");
    assert_eq!(sample(&text, telemetry::DEAD_LETTERS, &[]), Some(0.0));
    service.stop().await;
}

#[tokio::test]
async fn json_logs_carry_the_request_id_that_the_answer_and_the_email_carry() {
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let url = smtp.url();
    let service = Process::start(dir.path(), &["--smtp-url", &url, "--log-format", "json"]);
    let response = reqwest::Client::new()
        .post(service.url(FormKind::Contact.path()))
        .header(REQUEST_ID_HEADER, "chosen-by-the-client")
        .json(&support::contact_body())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let request_id = response.headers()[REQUEST_ID_HEADER]
        .to_str()
        .unwrap()
        .to_owned();
    assert_ne!(request_id, "chosen-by-the-client", "the service picks it");
    let answer: Value = response.json().await.unwrap();

    let mail = smtp.wait_for(1).await.remove(0);
    let parsed = mail.parsed();
    assert_eq!(
        parsed.header_raw(REQUEST_ID_HEADER).map(str::trim),
        Some(request_id.as_str())
    );

    let log = service.log();
    let lines: Vec<Value> = log
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    let accepted = lines
        .iter()
        .find(|line| line["fields"]["message"] == "accepted")
        .unwrap_or_else(|| panic!("no accepted line in {log:?}"));
    assert_eq!(accepted["fields"]["id"], answer["id"]);
    assert_eq!(accepted["span"]["request_id"], request_id.as_str());
    service.terminate();
}

#[test]
fn the_alert_rules_name_only_metrics_the_service_exports() {
    let rules = include_str!("../../prometheus/alerts.yml");
    let mut named = 0;
    for word in rules.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if !word.starts_with("contact_") {
            continue;
        }
        let metric = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|suffix| word.strip_suffix(suffix))
            .filter(|base| telemetry::ALL.contains(base))
            .unwrap_or(word);
        assert!(telemetry::ALL.contains(&metric), "{word} is not exported");
        named += 1;
    }
    assert!(named >= 3, "the rules name the metrics they watch");
}
