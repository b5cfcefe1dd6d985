//! The operator's commands on the outbox and dead letters, as the real binary on both stores:
//! list, show, purge only when confirmed, and `retry --all` after an SMTP outage is fixed.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::process::{Command, Stdio};

use contact_fn::contract::FormKind;
use serde_json::Value;
use support::pg::Cluster;
use support::{Mode, Service, SmtpServer, eventually, eventually_showing, post_json};

/// `contact-fn <store> ARGS...` with no terminal: (success, stdout, stderr).
fn cli(store: &[&str], args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .args(store)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn ids(listing: &str) -> Vec<String> {
    listing
        .lines()
        .map(|line| line.split('\t').next().unwrap().to_owned())
        .collect()
}

/// Waits (bounded) until `dead-letters list` shows `n` messages; if it never does, fails with
/// what both lists show, which tells a slow delivery from a lost one.
async fn dead_letters(store: &[&str], n: usize) {
    let list = |what: &str| cli(store, &[what, "list"]).1;
    eventually_showing(
        &format!("{n} dead letters"),
        || list("dead-letters").lines().count() == n,
        || {
            format!(
                "dead letters:\n{}\nwaiting:\n{}",
                list("dead-letters"),
                list("outbox")
            )
        },
    )
    .await;
}

/// Starts the service against `smtp` on `store`, submits `n` messages and waits until they
/// are dead letters (the server refuses them) or delivered; returns the ids.
async fn submit(service: &Service, n: usize) -> Vec<String> {
    let client = reqwest::Client::new();
    let mut ids = Vec::new();
    for _ in 0..n {
        let url = service.url(FormKind::Contact.path());
        let (status, answer) = post_json(&client, &url, &support::contact_body()).await;
        assert_eq!(status, 200);
        ids.push(answer["id"].as_str().unwrap().to_owned());
    }
    ids
}

// The service runs in this process while `cli` blocks a thread waiting for the command: on a
// single-threaded runtime the service would move only between polls, which on a loaded machine
// is too seldom to deliver within the test's patience.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_letters_are_listed_shown_purged_when_confirmed_and_retried_on_the_file_store() {
    let refusing = SmtpServer::start(Mode::RejectRecipients);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_owned();
    let store = ["--data-dir", data.as_str()];
    let service = Service::start(dir.path(), &["--smtp-url", &refusing.url()]).await;
    let mut sent = submit(&service, 3).await;
    sent.sort();
    dead_letters(&store, 3).await;
    service.stop().await;

    let (ok, listing, _) = cli(&store, &["dead-letters", "list"]);
    assert!(ok);
    let mut listed = ids(&listing);
    listed.sort();
    assert_eq!(listed, sent);
    assert!(
        listing.contains("contact@example.com") && listing.contains("550"),
        "{listing}"
    );
    assert_eq!(cli(&store, &["outbox", "list"]).1, "", "nothing waits");
    let (ok, shown, _) = cli(&store, &["dead-letters", "show", &sent[0]]);
    assert!(ok);
    let record: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(record["id"], sent[0].as_str());
    assert!(record["lastError"].as_str().unwrap().contains("550"));
    let (ok, _, err) = cli(&store, &["dead-letters", "show", "nope"]);
    assert!(!ok && err.contains("nope is not a dead letter"), "{err}");

    let (ok, _, err) = cli(&store, &["dead-letters", "purge", &sent[0]]);
    assert!(!ok, "not confirmed without a terminal");
    assert!(err.contains("pass --yes"), "{err}");
    assert_eq!(cli(&store, &["dead-letters", "list"]).1.lines().count(), 3);
    assert!(cli(&store, &["dead-letters", "purge", &sent[0], "--yes"]).0);
    assert_eq!(cli(&store, &["dead-letters", "list"]).1.lines().count(), 2);

    // The mail server works again: every dead letter goes back and out.
    let (ok, said, _) = cli(&store, &["dead-letters", "retry", "--all"]);
    assert!(ok, "{said}");
    assert_eq!(cli(&store, &["dead-letters", "list"]).1, "");
    let (_, waiting, _) = cli(&store, &["outbox", "list"]);
    let mut waiting = ids(&waiting);
    waiting.sort();
    assert_eq!(waiting, sent[1..]);
    let accepting = SmtpServer::start(Mode::Accept);
    let service = Service::start(dir.path(), &["--smtp-url", &accepting.url()]).await;
    accepting.wait_for(2).await;
    eventually("the outbox emptied", || {
        cli(&store, &["outbox", "list"]).1.is_empty()
    })
    .await;
    service.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_all_on_postgresql_reaches_the_running_replica_after_the_outage() {
    let url = Cluster::shared().database().await;
    let store = ["--database-url", url.as_str()];
    let refusing = SmtpServer::start(Mode::RejectRecipients);
    let dir = tempfile::tempdir().unwrap();
    let args = ["--database-url", url.as_str(), "--smtp-url"];
    let service = Service::start(
        dir.path(),
        &[&args[..], &[refusing.url().as_str()]].concat(),
    )
    .await;
    let sent = submit(&service, 2).await;
    dead_letters(&store, 2).await;
    service.stop().await;

    let accepting = SmtpServer::start(Mode::Accept);
    let service = Service::start(
        dir.path(),
        &[&args[..], &[accepting.url().as_str()]].concat(),
    )
    .await;
    let (ok, said, err) = cli(&store, &["dead-letters", "retry", "--all"]);
    assert!(ok, "{err}");
    assert_eq!(said.lines().count(), 2, "{said}");
    let delivered = accepting.wait_for(2).await;
    let mut got: Vec<String> = delivered
        .iter()
        .map(|m| {
            m.parsed()
                .message_id()
                .unwrap()
                .split('@')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    got.sort();
    let mut sent = sent;
    sent.sort();
    assert_eq!(got, sent);
    assert_eq!(cli(&store, &["dead-letters", "list"]).1, "");
    service.stop().await;
}
