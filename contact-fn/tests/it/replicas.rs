//! Several contact-fn processes on one PostgreSQL database: a replica killed mid-burst loses
//! nothing, duplicates stay within what it had in flight, retries with the same
//! Idempotency-Key land on the other replica; a database outage answers 503 and passes
//! without a restart.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use contact_fn::contract::FormKind;
use serde_json::{Value, json};
use support::pg::Cluster;
use support::{Mode, Process, Received, Service, SmtpServer, eventually};

/// Submissions of the burst, and the clients sending them at once.
const BURST: usize = 200;
const CLIENTS: usize = 16;
/// Deliveries a replica makes at once: what a killed one can have had in flight.
const SMTP_CONCURRENCY: usize = 4;

/// The message ids of what the SMTP server received (the left part of each Message-ID).
fn message_ids(received: &[Received]) -> Vec<String> {
    received
        .iter()
        .map(|mail| {
            let parsed = mail.parsed();
            let id = parsed.message_id().unwrap();
            id.split('@').next().unwrap().to_owned()
        })
        .collect()
}

/// Posts submission `n` with its own Idempotency-Key; `None` when no answer came back.
async fn submit(client: &reqwest::Client, base: &str, n: usize) -> Option<(u16, Value)> {
    let mut body = support::contact_body();
    body["subject"] = json!(format!("burst {n}"));
    let response = client
        .post(format!("{base}/send-contact-email"))
        .header("Idempotency-Key", format!("burst-{n}"))
        .json(&body)
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .ok()?;
    let status = response.status().as_u16();
    Some((status, response.json().await.unwrap_or(Value::Null)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replica_killed_mid_burst_loses_nothing_and_its_duplicates_stay_within_its_lease() {
    let smtp = SmtpServer::start(Mode::Accept);
    let url = Cluster::shared().database().await;
    let smtp_url = smtp.url();
    let concurrency = SMTP_CONCURRENCY.to_string();
    let flags = [
        "--smtp-url",
        &smtp_url,
        "--database-url",
        &url,
        "--smtp-concurrency",
        &concurrency,
        // Claims of the killed replica are taken over after 3 s, well beyond a delivery.
        "--smtp-timeout",
        "400ms",
        "--delivery-lease",
        "3s",
        "--database-poll-interval",
        "200ms",
    ];
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let survivor = Process::start(dirs[0].path(), &flags);
    let doomed = Process::start(dirs[1].path(), &flags);
    let bases = [survivor.base.clone(), doomed.base.clone()];
    let doomed = Arc::new(Mutex::new(Some(doomed)));
    let killed = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicUsize::new(0));
    let accepted = Arc::new(Mutex::new(BTreeMap::<usize, String>::new()));
    let retried = Arc::new(AtomicUsize::new(0));

    let mut clients = tokio::task::JoinSet::new();
    for _ in 0..CLIENTS {
        let (bases, doomed, killed, next, accepted, retried) = (
            bases.clone(),
            doomed.clone(),
            killed.clone(),
            next.clone(),
            accepted.clone(),
            retried.clone(),
        );
        clients.spawn(async move {
            let client = reqwest::Client::new();
            loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= BURST {
                    break;
                }
                if n == BURST / 2 {
                    // SIGKILL mid-burst, with deliveries and submissions in flight.
                    if let Some(process) = doomed.lock().unwrap().take() {
                        process.kill();
                    }
                    killed.store(true, Ordering::SeqCst);
                }
                let mut replica = n % 2;
                let mut answer = None;
                for _ in 0..3 {
                    answer = submit(&client, &bases[replica], n).await;
                    if matches!(answer, Some((200 | 409 | 422, _))) {
                        break;
                    }
                    // No answer or 5xx: retry on the other replica, as a load balancer would,
                    // with the same Idempotency-Key.
                    retried.fetch_add(1, Ordering::SeqCst);
                    replica = 0;
                }
                if let Some((200, body)) = answer {
                    let id = body["id"].as_str().unwrap().to_owned();
                    accepted.lock().unwrap().insert(n, id);
                }
            }
        });
    }
    while let Some(joined) = clients.join_next().await {
        joined.unwrap();
    }
    assert!(killed.load(Ordering::SeqCst));
    let accepted = accepted.lock().unwrap().clone();

    // Every accepted message arrives, including those the killed replica held.
    let wanted: BTreeSet<String> = accepted.values().cloned().collect();
    eventually("every accepted message at the SMTP server", || {
        let got: BTreeSet<String> = message_ids(&smtp.received()).into_iter().collect();
        wanted.is_subset(&got)
    })
    .await;
    // And the shared outbox empties: nothing more is on its way.
    let mut db = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        let waiting: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox")
            .fetch_one(&mut db)
            .await
            .unwrap();
        if waiting == 0 {
            break;
        }
        assert!(
            start.elapsed() < support::PATIENCE,
            "{waiting} still in the outbox"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let dead: i64 = sqlx::query_scalar("SELECT count(*) FROM dead_letters")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert!(survivor.terminate(), "the surviving replica stops cleanly");

    let ids = message_ids(&smtp.received());
    let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
    for id in &ids {
        *copies.entry(id.as_str()).or_default() += 1;
    }
    let distinct = copies.len();
    let duplicates = ids.len() - distinct;
    let lost: Vec<&String> = wanted
        .iter()
        .filter(|id| !copies.contains_key(id.as_str()))
        .collect();
    println!(
        "kill -9 of one of two replicas mid-burst: sent {BURST}, accepted {}, retried on the \
         other replica {}, delivered {} distinct in {} emails, duplicates {duplicates}, lost {}, \
         dead letters {dead}",
        accepted.len(),
        retried.load(Ordering::SeqCst),
        distinct,
        ids.len(),
        lost.len()
    );
    assert_eq!(
        accepted.len(),
        BURST,
        "every submission is accepted by one replica"
    );
    assert!(lost.is_empty(), "accepted but never delivered: {lost:?}");
    assert_eq!(dead, 0);
    assert!(
        duplicates <= SMTP_CONCURRENCY,
        "{duplicates} duplicates, more than the {SMTP_CONCURRENCY} deliveries the killed replica could have had in flight"
    );
    // Retries with the same key got the same id: one message per submission.
    let by_subject: BTreeSet<String> = smtp
        .received()
        .iter()
        .map(|m| m.parsed().subject().unwrap().to_owned())
        .collect();
    assert_eq!(by_subject.len(), BURST);
}

#[tokio::test]
async fn an_idempotent_retry_on_the_other_replica_gets_the_first_answer() {
    let smtp = SmtpServer::start(Mode::Accept);
    let url = Cluster::shared().database().await;
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let flags = ["--smtp-url", &smtp.url(), "--database-url", &url];
    let first = Service::start(dirs[0].path(), &flags).await;
    let second = Service::start(dirs[1].path(), &flags).await;
    let (a, b) = (first.base.clone(), second.base.clone());
    let client = reqwest::Client::new();
    let ready: Value = client
        .get(format!("{b}/readyz"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&ready["ready"], &ready["database"], &ready["queued"]),
        (&json!(true), &json!("reachable"), &json!(0)),
        "{ready}"
    );
    let (status, answer) = submit(&client, &a, 1).await.unwrap();
    assert_eq!(status, 200, "{answer}");
    smtp.wait_for(1).await;
    let (status, again) = submit(&client, &b, 1).await.unwrap();
    assert_eq!((status, &again["id"]), (200, &answer["id"]));
    // The same key with a different submission is a conflict on any replica.
    let mut other = support::contact_body();
    other["subject"] = json!("something else");
    let response = client
        .post(format!("{b}/send-contact-email"))
        .header("Idempotency-Key", "burst-1")
        .json(&other)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 409);
    first.stop().await;
    second.stop().await;
    assert_eq!(smtp.received().len(), 1);
}

/// Asks for the newsletter; the answer's status.
async fn subscribe(client: &reqwest::Client, base: &str) -> u16 {
    let response = client
        .post(format!("{base}{}", FormKind::Newsletter.path()))
        .json(&json!({ "email": "reader@example.org" }))
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .unwrap();
    response.status().as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_database_outage_answers_503_and_passes_without_a_restart() {
    let cluster = Cluster::private();
    let url = cluster.database().await;
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let service = Service::start(
        dir.path(),
        &[
            "--smtp-url",
            &smtp.url(),
            "--database-url",
            &url,
            "--database-connect-timeout",
            "1s",
            "--database-poll-interval",
            "200ms",
        ],
    )
    .await;
    let client = reqwest::Client::new();
    let base = service.base.clone();

    // Submissions keep coming while the database stops and starts again.
    let stop_sending = Arc::new(AtomicBool::new(false));
    let sender = tokio::spawn({
        let (client, base, stop_sending) = (client.clone(), base.clone(), stop_sending.clone());
        async move {
            let mut answers = Vec::new();
            let mut n = 0;
            while !stop_sending.load(Ordering::SeqCst) {
                n += 1;
                if let Some(answer) = submit(&client, &base, n).await {
                    answers.push(answer);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            answers
        }
    });
    let statuses = |answers: &[(u16, Value)]| -> Vec<u16> { answers.iter().map(|a| a.0).collect() };
    tokio::time::sleep(Duration::from_millis(300)).await;
    cluster.stop();
    let ready = client.get(format!("{base}/readyz")).send().await.unwrap();
    assert_eq!(ready.status(), 503);
    let ready: Value = ready.json().await.unwrap();
    assert_eq!(ready["database"], "unreachable", "{ready}");
    assert_eq!(
        subscribe(&client, &base).await,
        503,
        "the subscribers are there too"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    cluster.start();
    eventually("the service to be ready again", || {
        std::thread::sleep(Duration::from_millis(50));
        std::process::Command::new("curl")
            .args(["-fs", "-o", "/dev/null", &format!("{base}/readyz")])
            .status()
            .is_ok_and(|s| s.success())
    })
    .await;
    assert_eq!(subscribe(&client, &base).await, 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop_sending.store(true, Ordering::SeqCst);
    let answers = sender.await.unwrap();
    let seen = statuses(&answers);
    assert!(
        seen.iter().all(|s| *s == 200 || *s == 503),
        "only stored (200) or refused (503): {seen:?}"
    );
    assert!(seen.contains(&503), "the outage was answered 503: {seen:?}");
    assert_eq!(seen.last(), Some(&200), "accepting again: {seen:?}");
    // Every 200 had its row: each of them is delivered, by the same process.
    let accepted: BTreeSet<String> = answers
        .iter()
        .filter(|a| a.0 == 200)
        .map(|a| a.1["id"].as_str().unwrap().to_owned())
        .collect();
    eventually("every accepted message delivered after the outage", || {
        let got: BTreeSet<String> = message_ids(&smtp.received()).into_iter().collect();
        accepted.is_subset(&got)
    })
    .await;
    println!(
        "database outage: {} submissions, {} answered 200, {} answered 503, all 200s delivered",
        seen.len(),
        accepted.len(),
        seen.iter().filter(|s| **s == 503).count()
    );
    service.stop().await;
}
