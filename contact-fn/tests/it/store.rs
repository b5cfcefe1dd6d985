//! The behavioural suite of the outbox and idempotency stores: every test of [`suite!`] runs
//! against the files of the data folder and against PostgreSQL (a fresh database of the test
//! run's throwaway cluster), through the same interface the service uses. Then what only the
//! shared database does: leases between replicas, migrations.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use contact_fn::contract::FormKind;
use contact_fn::subscribers::{Requested, SendLimits, StoreError};
use contact_fn::{AppState, Config, EnqueueError, Record, Seen, Taken};
use sqlx::Connection as _;
use support::Kind;
use support::pg::Cluster;

/// One store opened as the service opens it, and what it takes to open it again.
struct Fixture {
    state: AppState,
    args: Vec<String>,
    dir: tempfile::TempDir,
}

impl Fixture {
    async fn open(kind: Kind, extra: &[&str]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut args = support::test_args(dir.path());
        if let Kind::Postgres = kind {
            args.extend([
                "--database-url".to_owned(),
                Cluster::shared().database().await,
            ]);
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        let state = open_state(&args).await;
        Self { state, args, dir }
    }

    /// Another process on the same store: the data folder after a restart, or a replica.
    async fn reopen(self) -> Self {
        let Fixture { state, args, dir } = self;
        drop(state);
        let state = open_state(&args).await;
        Self { state, args, dir }
    }

    fn outbox(&self) -> &contact_fn::Outbox {
        self.state.outbox()
    }

    async fn take(&self, now: u64) -> Option<Record> {
        match self.outbox().take_due(now).await.unwrap()? {
            Taken::Message(record) => Some(*record),
            Taken::Unreadable { id, error } => panic!("{id} unreadable: {error:#}"),
        }
    }
}

async fn open_state(args: &[String]) -> AppState {
    let (state, _worker) = AppState::open(Config::from_args(args).unwrap()).unwrap();
    state.migrate().await.unwrap();
    state
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis()
        .try_into()
        .unwrap()
}

fn record(id: &str, due: u64) -> Record {
    Record {
        id: id.to_owned(),
        kind: FormKind::Enquiry,
        created_ms: now(),
        attempts: 0,
        next_attempt_ms: due,
        last_error: None,
        envelope_from: "site@example.com".to_owned(),
        envelope_to: vec![
            "inbox@example.com".to_owned(),
            "copy@example.com".to_owned(),
        ],
        message: format!("Message-ID: <{id}@example.com>\r\nSubject: test\r\n\r\nÜber alles\r\n"),
        webhook: None,
        notifications: None,
        attachments: Vec::new(),
        spooled: Vec::new(),
    }
}

support::on_both_stores![
    a_stored_message_is_taken_once_and_forgotten_once_delivered,
    a_message_is_not_taken_before_its_time,
    a_failed_attempt_is_kept_with_its_state_and_retried_later,
    a_buried_message_becomes_a_dead_letter_with_its_reason,
    the_same_id_is_stored_once,
    the_quota_refuses_what_does_not_fit,
    a_quota_far_from_full_is_still_exact_at_its_edge,
    waiting_messages_survive_a_restart,
    idempotency_records_tell_a_retry_from_a_different_submission,
    idempotency_records_expire,
    idempotency_records_survive_a_restart,
    a_keyed_message_is_stored_once_with_its_key,
    the_subscribers_pass_the_subscriber_store_suite,
    the_subscribers_are_bounded_and_known_addresses_still_work,
    a_webhook_notification_keeps_its_target_through_retry_and_burial,
    an_email_keeps_its_notifications_until_a_retry_stores_them_gone,
    the_depth_counts_waiting_messages_the_oldest_and_dead_letters,
    an_address_gets_one_auto_reply_a_day_on_every_replica,
];

async fn a_webhook_notification_keeps_its_target_through_retry_and_burial(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let mut notification = record("w1", now());
    notification.envelope_from = String::new();
    notification.envelope_to = Vec::new();
    notification.message = r#"{"type":"message.accepted"}"#.to_owned();
    notification.webhook = Some(contact_fn::WebhookTarget {
        url: "http://127.0.0.1:9/hook".to_owned(),
        event_id: "m1".to_owned(),
    });
    store.outbox().enqueue(notification.clone()).await.unwrap();
    let mut taken = store.take(now()).await.unwrap();
    assert_eq!(taken, notification);
    taken.attempts = 1;
    taken.next_attempt_ms = now();
    store.outbox().retry_later(taken.clone()).await.unwrap();
    let taken = store.take(now()).await.unwrap();
    store.outbox().bury(taken.clone()).await.unwrap();
    assert_eq!(store.outbox().dead_letter("w1").await.unwrap(), Some(taken));
}

async fn an_email_keeps_its_notifications_until_a_retry_stores_them_gone(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let mut email = record("n1", now());
    email.notifications = Some(contact_fn::Notifications {
        urls: vec![
            "http://127.0.0.1:9/hook".to_owned(),
            "https://hooks.example.com/x".to_owned(),
        ],
        body: r#"{"type":"message.accepted","data":{"id":"n1"}}"#.to_owned(),
    });
    store.outbox().enqueue(email.clone()).await.unwrap();
    let store = store.reopen().await;
    let mut taken = store.take(now()).await.unwrap();
    assert_eq!(taken, email, "the notifications are stored with the email");
    // Posted (or split off) at the first attempt: the retry stores the email without them.
    taken.notifications = None;
    taken.attempts = 1;
    taken.next_attempt_ms = now();
    store.outbox().retry_later(taken.clone()).await.unwrap();
    let mut again = store.take(now()).await.unwrap();
    assert_eq!(again, taken);
    again.notifications = email.notifications.clone();
    store.outbox().bury(again.clone()).await.unwrap();
    assert_eq!(store.outbox().dead_letter("n1").await.unwrap(), Some(again));
}

async fn the_depth_counts_waiting_messages_the_oldest_and_dead_letters(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    assert_eq!(store.outbox().depth().await.unwrap(), Default::default());
    let mut older = record("older", now());
    older.created_ms = 1_000;
    store.outbox().enqueue(older).await.unwrap();
    store
        .outbox()
        .enqueue(record("newer", now()))
        .await
        .unwrap();
    store.outbox().enqueue(record("dead", now())).await.unwrap();
    let depth = store.outbox().depth().await.unwrap();
    assert_eq!(
        (depth.queued, depth.oldest_created_ms, depth.dead),
        (3, Some(1_000), 0)
    );
    let mut dead = None;
    while let Some(taken) = store.take(now()).await {
        if taken.id == "dead" {
            dead = Some(taken);
        }
    }
    store.outbox().bury(dead.unwrap()).await.unwrap();
    let depth = store.outbox().depth().await.unwrap();
    assert_eq!(
        (depth.queued, depth.oldest_created_ms, depth.dead),
        (2, Some(1_000), 1)
    );
}

async fn an_address_gets_one_auto_reply_a_day_on_every_replica(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    // A database shared with other tests: addresses of this test alone.
    let unique = now();
    let ada = contact_fn::auto_reply_key(&format!("ada{unique}@example.org"));
    let grace = contact_fn::auto_reply_key(&format!("grace{unique}@example.org"));
    assert_eq!(
        ada,
        contact_fn::auto_reply_key(&format!("ADA{unique}@example.org"))
    );
    let replies = store.state.auto_replies();
    assert!(replies.claim(&ada, 100).await.unwrap());
    assert!(!replies.claim(&ada, 100).await.unwrap(), "once a day");
    assert!(replies.claim(&grace, 100).await.unwrap(), "per address");
    assert!(replies.claim(&ada, 101).await.unwrap(), "the next day");
    let store = store.reopen().await;
    let replies = store.state.auto_replies();
    assert!(
        !replies.claim(&ada, 101).await.unwrap(),
        "kept across a restart"
    );
    replies.prune(101).await.unwrap();
    assert!(
        replies.claim(&ada, 100).await.unwrap(),
        "past days forgotten"
    );
    assert!(!replies.claim(&ada, 101).await.unwrap(), "today kept");
}

async fn the_subscribers_pass_the_subscriber_store_suite(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    contact_fn::subscribers::suite::check_store(store.state.subscribers()).await;
}

const LIMITS: SendLimits = SendLimits {
    resend_after: Duration::from_secs(3600),
    per_day: 3,
};

async fn the_subscribers_are_bounded_and_known_addresses_still_work(kind: Kind) {
    let store = Fixture::open(kind, &["--subscribers-max", "2"]).await;
    let subscribers = store.state.subscribers();
    for a in ["a@example.org", "b@example.org"] {
        subscribers.request(a.into(), LIMITS, now()).await.unwrap();
    }
    assert!(matches!(
        subscribers
            .request("c@example.org".into(), LIMITS, now())
            .await,
        Err(StoreError::Full(2))
    ));
    assert_eq!(
        subscribers
            .request("A@example.org".into(), LIMITS, now() + 86_400_000)
            .await
            .unwrap(),
        Requested::Send,
        "known addresses still work when full"
    );
    assert!(subscribers.remove("b@example.org".into()).await.unwrap());
    assert_eq!(
        subscribers
            .request("c@example.org".into(), LIMITS, now())
            .await
            .unwrap(),
        Requested::Send
    );
}

async fn a_stored_message_is_taken_once_and_forgotten_once_delivered(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let sent = record("m1", now());
    store.outbox().enqueue(sent.clone()).await.unwrap();
    assert_eq!(store.outbox().len().await.unwrap(), 1);
    assert!(store.outbox().contains("m1").await.unwrap());
    assert_eq!(store.take(now()).await, Some(sent));
    assert_eq!(store.take(now()).await, None, "taken once");
    assert_eq!(
        store.outbox().len().await.unwrap(),
        1,
        "still stored while delivered"
    );
    store.outbox().delivered("m1").await.unwrap();
    assert!(store.outbox().is_empty().await.unwrap());
    assert!(!store.outbox().contains("m1").await.unwrap());
    assert_eq!(store.outbox().dead_letter("m1").await.unwrap(), None);
}

async fn a_message_is_not_taken_before_its_time(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let due = now() + 60_000;
    store.outbox().enqueue(record("later", due)).await.unwrap();
    assert_eq!(store.take(now()).await, None);
    let next = store.outbox().next_due().await.unwrap().unwrap();
    assert!(next <= due, "the worker wakes up in time: {next} > {due}");
    assert_eq!(store.take(due).await.unwrap().id, "later");
}

async fn a_failed_attempt_is_kept_with_its_state_and_retried_later(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    store.outbox().enqueue(record("m1", now())).await.unwrap();
    let mut taken = store.take(now()).await.unwrap();
    taken.attempts = 1;
    taken.last_error = Some("451 try again later".to_owned());
    taken.next_attempt_ms = now() + 60_000;
    store.outbox().retry_later(taken.clone()).await.unwrap();
    assert_eq!(store.take(now()).await, None, "not before its next attempt");
    assert_eq!(store.take(taken.next_attempt_ms).await, Some(taken));
}

async fn a_buried_message_becomes_a_dead_letter_with_its_reason(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    store.outbox().enqueue(record("m1", now())).await.unwrap();
    let mut taken = store.take(now()).await.unwrap();
    taken.attempts = 1;
    taken.last_error = Some("550 no such mailbox".to_owned());
    store.outbox().bury(taken.clone()).await.unwrap();
    assert!(store.outbox().is_empty().await.unwrap());
    assert_eq!(store.outbox().dead_letter("m1").await.unwrap(), Some(taken));
    assert_eq!(store.take(u64::MAX / 2).await, None);
}

async fn the_same_id_is_stored_once(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let first = record("same", now());
    store.outbox().enqueue(first.clone()).await.unwrap();
    let mut second = record("same", now());
    second.message = "something else".to_owned();
    store.outbox().enqueue(second).await.unwrap();
    assert_eq!(store.outbox().len().await.unwrap(), 1);
    assert_eq!(store.take(now()).await, Some(first));
}

async fn the_quota_refuses_what_does_not_fit(kind: Kind) {
    let store = Fixture::open(kind, &["--outbox-max-messages", "2"]).await;
    for id in ["a", "b"] {
        store.outbox().enqueue(record(id, now())).await.unwrap();
    }
    let refused = store.outbox().enqueue(record("c", now())).await;
    assert!(
        matches!(refused, Err(EnqueueError::Full { count: 2, .. })),
        "{refused:?}"
    );
    assert_eq!(store.outbox().len().await.unwrap(), 2);

    let store = Fixture::open(kind, &["--outbox-max-bytes", "300"]).await;
    store.outbox().enqueue(record("a", now())).await.unwrap();
    let mut big = record("big", now());
    big.message = "x".repeat(300);
    let refused = store.outbox().enqueue(big).await;
    assert!(
        matches!(refused, Err(EnqueueError::Full { .. })),
        "{refused:?}"
    );
}

/// PostgreSQL inserts without counting the outbox while it is far from full: the quota still
/// refuses the first message over it, and a delivery makes room at once.
async fn a_quota_far_from_full_is_still_exact_at_its_edge(kind: Kind) {
    let store = Fixture::open(kind, &["--outbox-max-messages", "30"]).await;
    for n in 0..30 {
        store
            .outbox()
            .enqueue(record(&format!("m{n}"), now()))
            .await
            .unwrap();
    }
    let refused = store.outbox().enqueue(record("over", now())).await;
    assert!(
        matches!(refused, Err(EnqueueError::Full { count: 30, .. })),
        "{refused:?}"
    );
    let taken = store.take(now()).await.unwrap();
    store.outbox().delivered(&taken.id).await.unwrap();
    store.outbox().enqueue(record("room", now())).await.unwrap();
    assert!(store.outbox().contains("room").await.unwrap());
    assert_eq!(store.outbox().len().await.unwrap(), 30);
}

async fn waiting_messages_survive_a_restart(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let due = record("due", now());
    let later = record("later", now() + 60_000);
    store.outbox().enqueue(due.clone()).await.unwrap();
    store.outbox().enqueue(later.clone()).await.unwrap();
    let store = store.reopen().await;
    assert_eq!(store.outbox().len().await.unwrap(), 2);
    assert_eq!(store.take(now()).await, Some(due));
    assert_eq!(store.take(later.next_attempt_ms).await, Some(later));
}

async fn idempotency_records_tell_a_retry_from_a_different_submission(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let keys = store.state.idempotency();
    assert_eq!(keys.seen("k1", "fp-a").await.unwrap(), Seen::New);
    keys.remember("k1", "fp-a".to_owned()).await.unwrap();
    assert_eq!(keys.seen("k1", "fp-a").await.unwrap(), Seen::Same);
    assert_eq!(keys.seen("k1", "fp-b").await.unwrap(), Seen::Different);
    assert_eq!(keys.seen("k2", "fp-a").await.unwrap(), Seen::New);
}

async fn idempotency_records_expire(kind: Kind) {
    let store = Fixture::open(kind, &["--idempotency-ttl", "200ms"]).await;
    let keys = store.state.idempotency();
    keys.remember("k1", "fp-a".to_owned()).await.unwrap();
    assert_eq!(keys.seen("k1", "fp-b").await.unwrap(), Seen::Different);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(keys.seen("k1", "fp-b").await.unwrap(), Seen::New);
    keys.prune().await;
    keys.remember("k1", "fp-b".to_owned()).await.unwrap();
    assert_eq!(keys.seen("k1", "fp-b").await.unwrap(), Seen::Same);
}

async fn idempotency_records_survive_a_restart(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    store
        .state
        .idempotency()
        .remember("k1", "fp-a".to_owned())
        .await
        .unwrap();
    let store = store.reopen().await;
    let keys = store.state.idempotency();
    assert_eq!(keys.seen("k1", "fp-a").await.unwrap(), Seen::Same);
}

async fn a_keyed_message_is_stored_once_with_its_key(kind: Kind) {
    let store = Fixture::open(kind, &[]).await;
    let keys = store.state.idempotency();
    let stored = |fingerprint: &str| {
        keys.enqueue_remembering(store.outbox(), record("k1", now()), fingerprint.to_owned())
    };
    assert_eq!(stored("fp-a").await.unwrap(), Seen::New);
    assert_eq!(keys.seen("k1", "fp-a").await.unwrap(), Seen::Same);
    assert_eq!(store.outbox().len().await.unwrap(), 1);
    // What the in-process lock and the look-up before it let through is still settled here.
    if let Kind::Postgres = kind {
        assert_eq!(stored("fp-a").await.unwrap(), Seen::Same);
        assert_eq!(stored("fp-b").await.unwrap(), Seen::Different);
    }
    assert_eq!(store.outbox().len().await.unwrap(), 1);
}

// --- only the file store -------------------------------------------------------------------

#[tokio::test]
async fn a_message_whose_burial_failed_stays_scheduled_and_is_buried_on_a_later_attempt() {
    let store = Fixture::open(Kind::Files, &[]).await;
    store.outbox().enqueue(record("m1", now())).await.unwrap();
    let mut taken = store.take(now()).await.unwrap();
    taken.attempts = 1;
    taken.last_error = Some("550 no such mailbox".to_owned());
    // The dead letters' folder cannot take a file.
    let dead = store.dir.path().join("dead");
    std::fs::remove_dir_all(&dead).unwrap();
    std::fs::write(&dead, b"in the way").unwrap();
    assert!(store.outbox().bury(taken.clone()).await.is_err());

    std::fs::remove_file(&dead).unwrap();
    std::fs::create_dir(&dead).unwrap();
    assert_eq!(
        store.take(now()).await,
        None,
        "not at once: the disk may need a while"
    );
    let again = store.take(now() + 60_000).await.expect("scheduled again");
    assert_eq!(again.attempts, 0, "as the outbox file still has it");
    store.outbox().bury(taken.clone()).await.unwrap();
    assert_eq!(store.outbox().dead_letter("m1").await.unwrap(), Some(taken));
    assert!(store.outbox().is_empty().await.unwrap());
}

// --- only the shared database -------------------------------------------------------------

/// Flags of a replica whose claims run out quickly.
const SHORT_LEASE: [&str; 4] = ["--smtp-timeout", "100ms", "--delivery-lease", "1s"];

#[tokio::test]
async fn a_replicas_claim_holds_until_its_lease_runs_out_then_another_takes_over() {
    let first = Fixture::open(Kind::Postgres, &SHORT_LEASE).await;
    let second = open_state(&first.args).await;
    first.outbox().enqueue(record("m1", now())).await.unwrap();
    let mut held = first.take(now()).await.unwrap();
    assert!(
        second.outbox().take_due(now()).await.unwrap().is_none(),
        "claimed by the first replica"
    );
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let Some(Taken::Message(taken)) = second.outbox().take_due(now()).await.unwrap() else {
        panic!("the second replica takes the message over once the lease ran out");
    };
    assert_eq!(taken.id, "m1");
    // The first replica comes back late: its update no longer applies.
    held.attempts = 1;
    held.next_attempt_ms = now();
    first.outbox().retry_later(held).await.unwrap();
    assert!(first.take(now()).await.is_none(), "still the second's");
    second.outbox().delivered("m1").await.unwrap();
    assert!(first.outbox().is_empty().await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_key_on_two_replicas_at_once_stores_one_message() {
    let first = Fixture::open(Kind::Postgres, &[]).await;
    let second = open_state(&first.args).await;
    for round in 0..20 {
        let id = format!("k{round}");
        let (a, b) = tokio::join!(
            first.state.idempotency().enqueue_remembering(
                first.outbox(),
                record(&id, now()),
                "fp-a".to_owned()
            ),
            second.idempotency().enqueue_remembering(
                second.outbox(),
                record(&id, now()),
                "fp-b".to_owned()
            ),
        );
        let mut seen = [a.unwrap(), b.unwrap()];
        seen.sort_by_key(|s| format!("{s:?}"));
        assert_eq!(seen, [Seen::Different, Seen::New], "round {round}");
    }
    assert_eq!(first.outbox().len().await.unwrap(), 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_subscribe_requests_for_one_address_on_two_replicas_send_one_email() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode, header};
    use tower::ServiceExt as _;

    let first = Fixture::open(Kind::Postgres, &[]).await;
    let second = open_state(&first.args).await;
    let replicas = [
        contact_fn::app(first.state.clone()),
        contact_fn::app(second.clone()),
    ];
    let requests = (0..40).map(|i| {
        let request = Request::post(FormKind::Newsletter.path())
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(r#"{"email":"Burst@Example.org"}"#))
            .unwrap();
        replicas[i % 2].clone().oneshot(request)
    });
    let answers = futures_join_all(requests).await;
    for answer in answers {
        assert_eq!(answer.unwrap().status(), StatusCode::OK);
    }
    assert_eq!(
        first.outbox().len().await.unwrap(),
        1,
        "one confirmation email, whichever replica was asked"
    );
    let entry = second
        .subscribers()
        .get("burst@example.org".into())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(entry.sends_ms.len(), 1);
}

/// Runs the futures at once (each spawned, so both runtime threads work), in order.
async fn futures_join_all<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut outputs = Vec::new();
    for handle in handles {
        outputs.push(handle.await.unwrap());
    }
    outputs
}

#[tokio::test]
async fn a_row_that_is_no_message_becomes_a_dead_letter_as_it_is() {
    let store = Fixture::open(Kind::Postgres, &[]).await;
    let url = &store.args[store.args.len() - 1];
    let mut db = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::query(
        "INSERT INTO outbox (id, kind, created_ms, attempts, next_attempt_ms, envelope_from,
                             envelope_to, message)
         VALUES ('odd', 'no-such-kind', 0, 0, 0, 'a@example.com', '{b@example.com}', 'x')",
    )
    .execute(&mut db)
    .await
    .unwrap();
    let Some(Taken::Unreadable { id, error }) = store.outbox().take_due(now()).await.unwrap()
    else {
        panic!("an unknown kind cannot be read as a message");
    };
    assert_eq!(id, "odd");
    assert!(format!("{error:#}").contains("no-such-kind"), "{error:#}");
    store.outbox().bury_unreadable("odd").await.unwrap();
    assert!(store.outbox().is_empty().await.unwrap());
    let kind: String = sqlx::query_scalar("SELECT kind FROM dead_letters WHERE id = 'odd'")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(kind, "no-such-kind");
}

#[tokio::test]
async fn migrating_twice_changes_nothing_and_a_newer_schema_is_refused() {
    let store = Fixture::open(Kind::Postgres, &[]).await;
    store.state.migrate().await.unwrap();
    let url = &store.args[store.args.len() - 1];
    let mut db = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (999999, 'from the future', true, '\\x00', 0)",
    )
    .execute(&mut db)
    .await
    .unwrap();
    let refused = store.state.migrate().await.unwrap_err().to_string();
    assert!(
        refused
            .contains("the database schema is at version 999999, newer than this contact-fn knows"),
        "{refused}"
    );
}

#[tokio::test]
async fn contact_fn_migrate_applies_the_migrations_and_exits() {
    let url = Cluster::shared().database().await;
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .args(["--database-url", &url, "migrate"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("is at schema version"), "{stderr}");
    let mut db = sqlx::PgConnection::connect(&url).await.unwrap();
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM information_schema.tables
         WHERE table_name IN ('outbox', 'dead_letters', 'idempotency_keys', 'subscribers')",
    )
    .fetch_one(&mut db)
    .await
    .unwrap();
    assert_eq!(tables, 4);

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .arg("migrate")
        .env_remove("CONTACT_DATABASE_URL")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("contact-fn migrate needs --database-url"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `contact-fn --database-url URL subscribers ARGS...`: (success, stdout, stderr).
fn subscribers_cli(url: &str, args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
        .args(["--database-url", url, "subscribers"])
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_subscribers_commands_work_on_the_database_once_migrated() {
    let url = Cluster::shared().database().await;
    let (ok, _, stderr) = subscribers_cli(&url, &["export"]);
    assert!(!ok);
    assert!(stderr.contains("run `contact-fn migrate`"), "{stderr}");

    let store = Fixture::open(
        Kind::Files,
        &["--database-url", &url, "--subscribers-max", "10"],
    )
    .await;
    let subscribers = store.state.subscribers();
    let address = "reader@example.org".to_owned();
    subscribers
        .request(address.clone(), LIMITS, now())
        .await
        .unwrap();
    let confirmation = contact_fn::subscribers::Confirmation {
        source: FormKind::Newsletter,
        consent_version: "v1".into(),
        consent_text: "One email a week.".into(),
        issued_ms: now(),
        now_ms: now(),
    };
    subscribers
        .confirm(address.clone(), confirmation)
        .await
        .unwrap();

    let (ok, csv, stderr) = subscribers_cli(&url, &["export"]);
    assert!(ok, "{stderr}");
    assert!(csv.starts_with("address,confirmed_at,source\r\n"), "{csv}");
    assert!(csv.contains("reader@example.org,"), "{csv}");

    let (ok, _, stderr) = subscribers_cli(&url, &["remove", "Reader@Example.org"]);
    assert!(ok, "{stderr}");
    assert!(subscribers.get(address.clone()).await.unwrap().is_none());
    let mut db = sqlx::PgConnection::connect(&url).await.unwrap();
    let sends: i64 = sqlx::query_scalar("SELECT count(*) FROM subscriber_sends")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(sends, 0, "the sends go with the address");
    let (ok, _, _) = subscribers_cli(&url, &["remove", "reader@example.org"]);
    assert!(!ok, "an unknown address is an error");
}
