//! The outbox and dead letters in PostgreSQL: a row per message, taken under a lease.

use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use serde_json::Value;
use sqlx::Row as _;
use sqlx::postgres::{PgConnection, PgPool, PgRow};

use super::{Database, from_db, to_db};
use crate::durable::now_ms;
use crate::store::{
    BoxFuture, CHUNK_BYTES, Depth, EnqueueError, Notifications, OutboxStore, Record, Seen, Taken,
    WebhookTarget, revived,
};

/// The record's kind as its text in the table: what serde writes, so a new kind needs no
/// schema change.
fn kind_text(record: &Record) -> anyhow::Result<String> {
    match serde_json::to_value(record.kind).context("serialising the kind")? {
        Value::String(text) => Ok(text),
        other => bail!("the kind serialises as {other}, not as text"),
    }
}

const COLUMNS: &str = "id, kind, created_ms, attempts, next_attempt_ms, last_error, envelope_from, envelope_to, message, webhook_url, webhook_id, notify_urls, notify_body, attachments, attachment_bytes";

/// The record's list of files as its column holds it: JSON, or NULL for none.
fn attachments_text(record: &Record) -> Option<String> {
    if record.attachments.is_empty() {
        return None;
    }
    // A list of plain strings and numbers: serialising cannot fail.
    serde_json::to_string(&record.attachments).ok()
}

/// How many [`COLUMNS`] there are: the first parameter after a record's is `$N+1`.
fn column_count() -> usize {
    COLUMNS.split(',').count()
}

/// `$1, $2, ...`: a record's values, as [`bind_record`] binds them.
fn record_values() -> String {
    (1..=column_count())
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Binds the record's fields, in the order of [`COLUMNS`], as `$1` to `$N`.
fn bind_record<'q>(query: PgQuery<'q>, record: &'q Record, kind: String) -> PgQuery<'q> {
    query
        .bind(&record.id)
        .bind(kind)
        .bind(to_db(record.created_ms))
        .bind(i32::try_from(record.attempts).unwrap_or(i32::MAX))
        .bind(to_db(record.next_attempt_ms))
        .bind(&record.last_error)
        .bind(&record.envelope_from)
        .bind(&record.envelope_to)
        .bind(&record.message)
        .bind(record.webhook.as_ref().map(|w| &w.url))
        .bind(record.webhook.as_ref().map(|w| &w.event_id))
        .bind(record.notifications.as_ref().map(|n| &n.urls))
        .bind(record.notifications.as_ref().map(|n| &n.body))
        .bind(attachments_text(record))
        .bind(to_db(record.attachment_bytes()))
}

type PgQuery<'q> = sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>;

fn record_of(row: &PgRow) -> anyhow::Result<Record> {
    let kind: String = row.try_get("kind")?;
    Ok(Record {
        id: row.try_get("id")?,
        kind: serde_json::from_value(Value::String(kind.clone()))
            .with_context(|| format!("unknown kind {kind:?}"))?,
        created_ms: from_db(row.try_get("created_ms")?),
        attempts: u32::try_from(row.try_get::<i32, _>("attempts")?).unwrap_or(0),
        next_attempt_ms: from_db(row.try_get("next_attempt_ms")?),
        last_error: row.try_get("last_error")?,
        envelope_from: row.try_get("envelope_from")?,
        envelope_to: row.try_get("envelope_to")?,
        message: row.try_get("message")?,
        webhook: match (row.try_get("webhook_url")?, row.try_get("webhook_id")?) {
            (Some(url), Some(event_id)) => Some(WebhookTarget { url, event_id }),
            _ => None,
        },
        notifications: match (row.try_get("notify_urls")?, row.try_get("notify_body")?) {
            (Some(urls), Some(body)) => Some(Notifications { urls, body }),
            _ => None,
        },
        attachments: match row.try_get::<Option<String>, _>("attachments")? {
            Some(text) => serde_json::from_str(&text).context("reading the list of files")?,
            None => Vec::new(),
        },
        spooled: Vec::new(),
    })
}

/// The outbox and dead letters in PostgreSQL.
#[derive(Debug)]
pub struct PgOutbox {
    pub(super) db: Database,
    pub(super) max_messages: u64,
    pub(super) max_bytes: u64,
    /// The outbox's usage as this replica last read it, for the quota.
    pub(super) usage: std::sync::Mutex<Usage>,
}

/// The outbox's usage as a replica last read it, plus what it stored since (what was delivered
/// since is not taken off: the estimate errs on the full side).
#[derive(Debug, Default)]
pub(super) struct Usage {
    read_at: Option<Instant>,
    messages: u64,
    bytes: u64,
}

/// The outbox's usage, as the quota counts it: messages `n`, and `bytes` of their emails.
const USAGE: &str =
    "count(*) AS n, coalesce(sum(octet_length(message) + attachment_bytes), 0)::bigint AS bytes";

/// How long a replica trusts the usage it read.
const USAGE_FRESH: Duration = Duration::from_secs(1);

impl PgOutbox {
    fn pool(&self) -> &PgPool {
        &self.db.pool
    }

    /// Messages waiting, claimed or not.
    pub async fn len(&self) -> anyhow::Result<usize> {
        let count: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox")
            .fetch_one(self.pool())
            .await
            .context("counting the outbox")?;
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// Messages waiting, the oldest one's acceptance time, and the dead letters kept.
    pub async fn depth(&self) -> anyhow::Result<Depth> {
        let (queued, oldest, dead): (i64, Option<i64>, i64) = sqlx::query_as(
            "SELECT (SELECT count(*) FROM outbox), (SELECT min(created_ms) FROM outbox),
                    (SELECT count(*) FROM dead_letters)",
        )
        .fetch_one(self.pool())
        .await
        .context("measuring the outbox")?;
        Ok(Depth {
            queued: from_db(queued),
            oldest_created_ms: oldest.map(from_db),
            dead: from_db(dead),
        })
    }

    /// Whether a message with this id waits.
    pub async fn contains(&self, id: &str) -> anyhow::Result<bool> {
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM outbox WHERE id = $1)")
            .bind(id)
            .fetch_one(self.pool())
            .await
            .context("reading the outbox")
    }

    /// Inserts a message, committed before it returns, unless the quota is used up; a message
    /// whose id is already waiting is left as it is.
    pub async fn enqueue(&self, record: Record) -> Result<(), EnqueueError> {
        if !record.spooled.is_empty() {
            // The files' rows and the message's row are committed together.
            let io = |e: sqlx::Error| EnqueueError::Io(anyhow::Error::new(e));
            let mut tx = self.pool().begin().await.map_err(io)?;
            self.insert(&mut tx, &record).await?;
            return tx.commit().await.map_err(io);
        }
        let mut conn = self
            .pool()
            .acquire()
            .await
            .context("connecting to the database")
            .map_err(EnqueueError::Io)?;
        self.insert(&mut conn, &record).await
    }

    /// Inserts a message and remembers its Idempotency-Key record with it, in one transaction;
    /// a key already remembered (by this replica or another, even at the same moment) stores
    /// nothing and says whether the submission is the same.
    pub async fn enqueue_keyed(
        &self,
        record: Record,
        fingerprint: &str,
        oldest: u64,
    ) -> Result<Seen, EnqueueError> {
        let io = |e: sqlx::Error| EnqueueError::Io(anyhow::Error::new(e));
        let mut tx = self.pool().begin().await.map_err(io)?;
        // A concurrent transaction with the same key waits here until that one ends.
        let claimed: Option<String> = sqlx::query_scalar(
            "INSERT INTO idempotency_keys (id, fingerprint, created_ms) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
                                            created_ms = EXCLUDED.created_ms
             WHERE idempotency_keys.created_ms < $4
             RETURNING id",
        )
        .bind(&record.id)
        .bind(fingerprint)
        .bind(to_db(now_ms()))
        .bind(to_db(oldest))
        .fetch_optional(&mut *tx)
        .await
        .map_err(io)?;
        if claimed.is_none() {
            let remembered: Option<String> =
                sqlx::query_scalar("SELECT fingerprint FROM idempotency_keys WHERE id = $1")
                    .bind(&record.id)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(io)?;
            return Ok(Seen::of(remembered.as_deref(), fingerprint));
        }
        self.insert(&mut tx, &record).await?;
        tx.commit().await.map_err(io)?;
        Ok(Seen::New)
    }

    /// Inserts a message on `conn` unless the quota is used up; one already there is kept.
    ///
    /// Counting the outbox reads every row, which under a backlog (a mail server down for an
    /// hour) would make each insert slower than the last. So a replica counts at most once a
    /// second, adds what it stores meanwhile, and inserts without counting while that estimate
    /// stays a tenth of the quota away from it; closer, each insert counts (in the statement
    /// that inserts). What other replicas store within that second may overshoot the quota by
    /// as much, as concurrent inserts could before.
    async fn insert(&self, conn: &mut PgConnection, record: &Record) -> Result<(), EnqueueError> {
        let kind = kind_text(record).map_err(EnqueueError::Io)?;
        let size = record.message.len() as u64 + record.attachment_bytes();
        if self.far_from_quota(conn, size).await? {
            let sql = format!(
                "INSERT INTO outbox ({COLUMNS}) VALUES ({}) ON CONFLICT (id) DO NOTHING",
                record_values()
            );
            let inserted = bind_record(sqlx::query(&sql), record, kind)
                .execute(&mut *conn)
                .await
                .context("inserting the message")
                .map_err(EnqueueError::Io)?;
            if inserted.rows_affected() == 1 {
                {
                    let mut usage = self.lock_usage();
                    usage.messages += 1;
                    usage.bytes += size;
                }
                store_chunks(conn, record).await?;
            }
            return Ok(());
        }
        let n = column_count();
        let sql = format!(
            "WITH usage AS (SELECT {USAGE} FROM outbox)
             INSERT INTO outbox ({COLUMNS})
             SELECT {} FROM usage
             WHERE usage.n < ${} AND usage.bytes + ${} <= ${}
             ON CONFLICT (id) DO NOTHING",
            record_values(),
            n + 1,
            n + 2,
            n + 3
        );
        let inserted = bind_record(sqlx::query(&sql), record, kind)
            .bind(to_db(self.max_messages))
            .bind(to_db(size))
            .bind(to_db(self.max_bytes))
            .execute(&mut *conn)
            .await
            .context("inserting the message")
            .map_err(EnqueueError::Io)?;
        if inserted.rows_affected() == 1 {
            return store_chunks(conn, record).await;
        }
        // Nothing inserted: either the message was already there, or the outbox is full.
        let row = sqlx::query(&format!(
            "SELECT EXISTS (SELECT 1 FROM outbox WHERE id = $1) AS present, {USAGE} FROM outbox"
        ))
        .bind(&record.id)
        .fetch_one(&mut *conn)
        .await
        .context("reading the outbox usage")
        .map_err(EnqueueError::Io)?;
        let usage = || -> Result<(bool, i64, i64), sqlx::Error> {
            Ok((
                row.try_get("present")?,
                row.try_get("n")?,
                row.try_get("bytes")?,
            ))
        };
        let (present, count, bytes) = usage()
            .context("reading the outbox usage")
            .map_err(EnqueueError::Io)?;
        if present {
            Ok(())
        } else {
            Err(EnqueueError::Full {
                count: from_db(count),
                bytes: from_db(bytes),
            })
        }
    }

    fn lock_usage(&self) -> std::sync::MutexGuard<'_, Usage> {
        // Only an estimate: a panic while it was held cannot make it matter.
        self.usage.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the outbox, as last counted (within [`USAGE_FRESH`]) plus what this replica
    /// stored since, leaves a tenth of the quota free besides a message of `size` bytes.
    async fn far_from_quota(
        &self,
        conn: &mut PgConnection,
        size: u64,
    ) -> Result<bool, EnqueueError> {
        let known = {
            let usage = self.lock_usage();
            usage
                .read_at
                .filter(|at| at.elapsed() < USAGE_FRESH)
                .map(|_| (usage.messages, usage.bytes))
        };
        let (messages, bytes) = match known {
            Some(known) => known,
            None => {
                let (messages, bytes): (i64, i64) =
                    sqlx::query_as(&format!("SELECT {USAGE} FROM outbox"))
                        .fetch_one(&mut *conn)
                        .await
                        .context("reading the outbox usage")
                        .map_err(EnqueueError::Io)?;
                let (messages, bytes) = (from_db(messages), from_db(bytes));
                *self.lock_usage() = Usage {
                    read_at: Some(Instant::now()),
                    messages,
                    bytes,
                };
                (messages, bytes)
            }
        };
        Ok(messages + 1 + self.max_messages / 10 <= self.max_messages
            && bytes + size + self.max_bytes / 10 <= self.max_bytes)
    }

    /// Claims the most overdue message nobody else holds, for the lease time.
    ///
    /// The claim is committed without waiting for the disk ([`Database::lazy_pool`]): other
    /// replicas see it at once, and a claim a crash loses only means the message is delivered
    /// again, which at-least-once delivery allows.
    pub async fn take_due(&self, now_ms: u64) -> anyhow::Result<Option<Taken>> {
        let row = sqlx::query(&format!(
            "UPDATE outbox SET claimed_by = $1, lease_until = now() + make_interval(secs => $2)
             WHERE id = (SELECT id FROM outbox
                         WHERE next_attempt_ms <= $3
                           AND (lease_until IS NULL OR lease_until < now())
                         ORDER BY next_attempt_ms
                         LIMIT 1
                         FOR UPDATE SKIP LOCKED)
             RETURNING {COLUMNS}"
        ))
        .bind(&self.db.replica)
        .bind(self.db.lease.as_secs_f64())
        .bind(to_db(now_ms))
        .fetch_optional(&self.db.lazy_pool)
        .await
        .context("claiming a due message")?;
        let Some(row) = row else {
            return Ok(None);
        };
        Ok(Some(match record_of(&row) {
            Ok(record) => Taken::Message(Box::new(record)),
            Err(error) => Taken::Unreadable {
                id: row.try_get("id")?,
                error,
            },
        }))
    }

    /// The next time to look for due messages: the earliest unclaimed attempt, but no later
    /// than the poll interval, since other replicas add messages and leases run out.
    pub async fn next_due(&self) -> anyhow::Result<Option<u64>> {
        let next: Option<i64> = sqlx::query_scalar(
            "SELECT min(next_attempt_ms) FROM outbox WHERE lease_until IS NULL OR lease_until < now()",
        )
        .fetch_one(self.pool())
        .await
        .context("reading the schedule")?;
        let poll = now_ms().saturating_add(to_db_ms(self.db.poll));
        Ok(Some(next.map_or(poll, |at| from_db(at).min(poll))))
    }

    /// Deletes a delivered message, without waiting for the disk ([`Database::lazy_pool`]): a
    /// deletion a crash loses only means the message is delivered again.
    pub async fn delivered(&self, id: &str) -> anyhow::Result<()> {
        sqlx::query(
            "WITH gone AS (DELETE FROM outbox WHERE id = $1)
             DELETE FROM attachment_chunks WHERE message_id = $1",
        )
        .bind(id)
        .execute(&self.db.lazy_pool)
        .await
        .context("removing the delivered message")?;
        Ok(())
    }

    /// Stores the state after a failed attempt and gives up the claim; a message another
    /// replica has taken over meanwhile is left to it.
    pub async fn retry_later(&self, record: Record) -> anyhow::Result<()> {
        let updated = sqlx::query(
            "UPDATE outbox SET attempts = $2, next_attempt_ms = $3, last_error = $4,
                               notify_urls = $6, notify_body = $7,
                               claimed_by = NULL, lease_until = NULL
             WHERE id = $1 AND claimed_by = $5",
        )
        .bind(&record.id)
        .bind(i32::try_from(record.attempts).unwrap_or(i32::MAX))
        .bind(to_db(record.next_attempt_ms))
        .bind(&record.last_error)
        .bind(&self.db.replica)
        .bind(record.notifications.as_ref().map(|n| &n.urls))
        .bind(record.notifications.as_ref().map(|n| &n.body))
        .execute(self.pool())
        .await
        .context("updating the message")?;
        if updated.rows_affected() == 0 {
            tracing::info!(
                id = record.id,
                "another replica took the message over meanwhile"
            );
        }
        Ok(())
    }

    /// Gives up every claim of this replica.
    pub async fn release_claims(&self) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE outbox SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = $1",
        )
        .bind(&self.db.replica)
        .execute(self.pool())
        .await
        .context("giving up the claims")?;
        Ok(())
    }

    /// Moves a message to the dead letters in one statement.
    pub async fn bury(&self, record: Record) -> anyhow::Result<()> {
        let kind = kind_text(&record)?;
        let sql = format!(
            "WITH gone AS (DELETE FROM outbox WHERE id = $1)
             INSERT INTO dead_letters ({COLUMNS})
             VALUES ({})
             ON CONFLICT (id) DO UPDATE SET attempts = EXCLUDED.attempts,
                 last_error = EXCLUDED.last_error, notify_urls = EXCLUDED.notify_urls,
                 notify_body = EXCLUDED.notify_body, buried_at = now()",
            record_values()
        );
        bind_record(sqlx::query(&sql), &record, kind)
            .execute(self.pool())
            .await
            .context("moving the message to the dead letters")?;
        Ok(())
    }

    /// Moves a row that cannot be read as a message to the dead letters, as it is.
    pub async fn bury_unreadable(&self, id: &str) -> anyhow::Result<()> {
        sqlx::query(&format!(
            "WITH gone AS (DELETE FROM outbox WHERE id = $1 RETURNING {COLUMNS})
             INSERT INTO dead_letters ({COLUMNS}) SELECT {COLUMNS} FROM gone
             ON CONFLICT (id) DO NOTHING"
        ))
        .bind(id)
        .execute(self.pool())
        .await
        .context("moving an unreadable message to the dead letters")?;
        Ok(())
    }

    /// Reads a dead letter; `None` when there is none under `id`.
    pub async fn dead_letter(&self, id: &str) -> anyhow::Result<Option<Record>> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM dead_letters WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await
            .context("reading the dead letters")?;
        row.as_ref().map(record_of).transpose()
    }

    /// Checks that the database answers and holds the outbox.
    pub async fn check_writable(&self) -> anyhow::Result<()> {
        sqlx::query("SELECT 1 FROM outbox LIMIT 0")
            .execute(self.pool())
            .await
            .with_context(|| format!("reaching the outbox in {}", self.db.describe))?;
        Ok(())
    }
}

impl OutboxStore for PgOutbox {
    fn len(&self) -> BoxFuture<'_, anyhow::Result<usize>> {
        Box::pin(PgOutbox::len(self))
    }
    fn contains<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<bool>> {
        Box::pin(PgOutbox::contains(self, id))
    }
    fn enqueue(&self, record: Record) -> BoxFuture<'_, Result<(), EnqueueError>> {
        Box::pin(PgOutbox::enqueue(self, record))
    }
    fn enqueue_keyed<'a>(
        &'a self,
        record: Record,
        fingerprint: &'a str,
        oldest_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Seen>, EnqueueError>> {
        Box::pin(async move {
            PgOutbox::enqueue_keyed(self, record, fingerprint, oldest_ms)
                .await
                .map(Some)
        })
    }
    fn take_due(&self, now_ms: u64) -> BoxFuture<'_, anyhow::Result<Option<Taken>>> {
        Box::pin(PgOutbox::take_due(self, now_ms))
    }
    fn next_due(&self) -> BoxFuture<'_, anyhow::Result<Option<u64>>> {
        Box::pin(PgOutbox::next_due(self))
    }
    fn delivered<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(PgOutbox::delivered(self, id))
    }
    fn retry_later(&self, record: Record) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(PgOutbox::retry_later(self, record))
    }
    fn release_claims(&self) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(PgOutbox::release_claims(self))
    }
    fn bury(&self, record: Record) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(PgOutbox::bury(self, record))
    }
    fn bury_unreadable<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(PgOutbox::bury_unreadable(self, id))
    }
    fn dead_letter<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<Option<Record>>> {
        Box::pin(PgOutbox::dead_letter(self, id))
    }
    fn depth(&self) -> BoxFuture<'_, anyhow::Result<Depth>> {
        Box::pin(PgOutbox::depth(self))
    }
    fn check_writable(&self) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(PgOutbox::check_writable(self))
    }
    fn dead_letters_place(&self) -> String {
        "the dead_letters table".to_owned()
    }
    fn waiting(&self) -> BoxFuture<'_, anyhow::Result<Vec<Record>>> {
        Box::pin(self.all("outbox"))
    }
    fn dead(&self) -> BoxFuture<'_, anyhow::Result<Vec<Record>>> {
        Box::pin(self.all("dead_letters"))
    }
    fn revive<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, anyhow::Result<bool>> {
        Box::pin(async move {
            let mut tx = self
                .pool()
                .begin()
                .await
                .context("reviving a dead letter")?;
            let row = sqlx::query(&format!(
                "DELETE FROM dead_letters WHERE id = $1 RETURNING {COLUMNS}"
            ))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await
            .context("taking the dead letter")?;
            let Some(row) = row else {
                return Ok(false);
            };
            let record = revived(record_of(&row)?, now_ms);
            let kind = kind_text(&record)?;
            let sql = format!(
                "INSERT INTO outbox ({COLUMNS}) VALUES ({}) ON CONFLICT (id) DO NOTHING",
                record_values()
            );
            bind_record(sqlx::query(&sql), &record, kind)
                .execute(&mut *tx)
                .await
                .context("moving the dead letter back")?;
            tx.commit().await.context("reviving a dead letter")?;
            Ok(true)
        })
    }
    fn purge<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<bool>> {
        Box::pin(async move {
            let deleted: Option<String> = sqlx::query_scalar(
                "WITH gone AS (DELETE FROM dead_letters WHERE id = $1 RETURNING id),
                      files AS (DELETE FROM attachment_chunks
                                WHERE message_id IN (SELECT id FROM gone))
                 SELECT id FROM gone",
            )
            .bind(id)
            .fetch_optional(self.pool())
            .await
            .context("deleting the dead letter")?;
            Ok(deleted.is_some())
        })
    }
    fn attachment_chunk<'a>(
        &'a self,
        id: &'a str,
        index: usize,
        n: u32,
    ) -> BoxFuture<'a, anyhow::Result<Option<Vec<u8>>>> {
        Box::pin(async move {
            // A row is a chunk (store_chunks): one row per query, as delivery consumes them.
            sqlx::query_scalar(
                "SELECT data FROM attachment_chunks WHERE message_id = $1 AND part = $2 AND seq = $3",
            )
            .bind(id)
            .bind(i32::try_from(index).unwrap_or(i32::MAX))
            .bind(i32::try_from(n).unwrap_or(i32::MAX))
            .fetch_optional(self.pool())
            .await
            .context("reading an attachment")
        })
    }
}

impl PgOutbox {
    /// Every readable row of `table` (the outbox or the dead letters), oldest first.
    async fn all(&self, table: &'static str) -> anyhow::Result<Vec<Record>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM {table} ORDER BY created_ms, id"
        ))
        .fetch_all(self.pool())
        .await
        .with_context(|| format!("listing {table}"))?;
        Ok(rows.iter().filter_map(|row| record_of(row).ok()).collect())
    }
}

/// Stores the spooled files of `record` as rows of `attachment_chunks` on `conn` (inside the
/// transaction that inserts the record), a chunk at a time.
async fn store_chunks(conn: &mut PgConnection, record: &Record) -> Result<(), EnqueueError> {
    use tokio::io::AsyncReadExt as _;
    let io = |e: anyhow::Error| EnqueueError::Io(e.context("storing an attachment"));
    for (part, path) in record.spooled.iter().enumerate() {
        let mut file = tokio::fs::File::open(path)
            .await
            .map_err(|e| io(e.into()))?;
        let mut chunk = vec![0_u8; CHUNK_BYTES];
        for seq in 0_i32.. {
            let mut filled = 0;
            while filled < CHUNK_BYTES {
                match file
                    .read(&mut chunk[filled..])
                    .await
                    .map_err(|e| io(e.into()))?
                {
                    0 => break,
                    n => filled += n,
                }
            }
            if filled == 0 && seq > 0 {
                break;
            }
            sqlx::query(
                "INSERT INTO attachment_chunks (message_id, part, seq, data) VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING",
            )
            .bind(&record.id)
            .bind(i32::try_from(part).unwrap_or(i32::MAX))
            .bind(seq)
            .bind(&chunk[..filled])
            .execute(&mut *conn)
            .await
            .map_err(|e| io(e.into()))?;
            if filled < CHUNK_BYTES {
                break;
            }
        }
    }
    Ok(())
}

fn to_db_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
