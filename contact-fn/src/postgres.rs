//! The PostgreSQL store: outbox, dead letters and idempotency records in tables shared by
//! every replica on one database (`--database-url`).
//!
//! Each write commits before it returns, so a 200 means a committed row. A replica takes a
//! due message with `SELECT ... FOR UPDATE SKIP LOCKED` and a lease (`claimed_by`,
//! `lease_until`): no other replica takes it while the lease runs, and if the replica dies,
//! another takes the message over once the lease ran out. The schema lives in `migrations/`,
//! embedded in the binary and applied at start (or alone by `contact-fn migrate`).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr as _;
use std::time::Duration;

use anyhow::{Context as _, bail};
use serde_json::Value;
use sqlx::Row as _;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions, PgRow};
use uuid::Uuid;

use crate::config::Config;
use crate::durable::now_ms;
use crate::store::{Depth, EnqueueError, Record, Seen, Taken, WebhookTarget};

/// The migrations, oldest first, as `<version>_<description>` file names in `migrations/`.
macro_rules! embedded {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../migrations/", $name, ".sql")))),*]
    };
}
const MIGRATIONS: &[(&str, &str)] =
    embedded!["0001_initial", "0002_subscriber_times", "0003_webhooks"];

/// The connection pool and what every table of this replica needs to know.
#[derive(Debug, Clone)]
pub struct Database {
    pub(crate) pool: PgPool,
    /// Names this process in `claimed_by`.
    replica: String,
    lease: Duration,
    poll: Duration,
    /// Host, port and database, for the logs (no credentials).
    describe: String,
}

impl Database {
    /// A pool for the configured database. Connections are made when first needed and again
    /// after an outage, so this never waits for the database.
    pub fn connect_lazy(config: &Config, url: &str) -> anyhow::Result<Self> {
        let options = PgConnectOptions::from_str(url)
            .context(
                "reading the database URL (expected postgres://user:password@host:port/database)",
            )?
            .application_name("contact-fn")
            .options([(
                "statement_timeout",
                config.database_statement_timeout.as_millis(),
            )]);
        let describe = format!(
            "PostgreSQL at {}:{}/{}",
            options.get_host(),
            options.get_port(),
            options.get_database().unwrap_or_default()
        );
        let pool = PgPoolOptions::new()
            .max_connections(config.database_pool_size)
            .acquire_timeout(config.database_connect_timeout)
            .connect_lazy_with(options);
        Ok(Self {
            pool,
            replica: replica_name(),
            lease: config.delivery_lease,
            poll: config.database_poll_interval,
            describe,
        })
    }

    /// Where the messages are kept, for the start-up log.
    pub fn describe(&self) -> &str {
        &self.describe
    }

    /// This replica's name in `claimed_by`.
    pub fn replica(&self) -> &str {
        &self.replica
    }

    /// The newest schema version this binary knows.
    pub fn schema_version() -> i64 {
        latest_version()
    }

    /// Applies the migrations the database lacks; refuses a schema newer than this binary's.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        let known = latest_version();
        if let Some(applied) = self.applied_version().await?.filter(|v| *v > known) {
            bail!(
                "the database schema is at version {applied}, newer than this contact-fn \
                 knows (up to {known}); run a contact-fn at least as new as the one that \
                 migrated it"
            );
        }
        let migrator = Migrator::new(Embedded)
            .await
            .context("reading the embedded migrations")?;
        migrator
            .run(&self.pool)
            .await
            .context("applying the database migrations")
    }

    /// The newest migration applied to the database, if any.
    async fn applied_version(&self) -> anyhow::Result<Option<i64>> {
        let exists: bool = sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations') IS NOT NULL")
            .fetch_one(&self.pool)
            .await
            .with_context(|| format!("connecting to {}", self.describe))?;
        if !exists {
            return Ok(None);
        }
        sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations")
            .fetch_one(&self.pool)
            .await
            .context("reading the schema version")
    }

    /// The outbox tables, holding at most `max_messages` messages of `max_bytes` together.
    pub fn outbox(&self, max_messages: u64, max_bytes: u64) -> PgOutbox {
        PgOutbox {
            db: self.clone(),
            max_messages,
            max_bytes,
        }
    }

    /// The idempotency records.
    pub fn keys(&self) -> PgKeys {
        PgKeys { db: self.clone() }
    }

    /// Fails, saying to run `contact-fn migrate`, unless the database has this binary's schema:
    /// for the commands that work on the database without applying migrations.
    pub async fn require_schema(&self) -> anyhow::Result<()> {
        let known = latest_version();
        let applied = self.applied_version().await?;
        match applied {
            Some(applied) if applied == known => Ok(()),
            // Refused by `migrate`, with its message.
            Some(applied) if applied > known => self.migrate().await,
            applied => bail!(
                "the database schema is at version {}, this contact-fn needs {known}; run \
                 `contact-fn migrate` (or start the service once) first",
                applied.unwrap_or(0)
            ),
        }
    }
}

/// The highest migration version embedded in this binary.
fn latest_version() -> i64 {
    MIGRATIONS
        .iter()
        .filter_map(|(name, _)| parse_name(name).map(|(version, _)| version))
        .max()
        .unwrap_or(0)
}

fn parse_name(name: &str) -> Option<(i64, &str)> {
    let (version, description) = name.split_once('_')?;
    Some((version.parse().ok()?, description))
}

/// The migrations compiled into the binary, as sqlx's migrator reads them.
#[derive(Debug)]
struct Embedded;

type Resolved = Result<Vec<Migration>, sqlx::error::BoxDynError>;

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> Pin<Box<dyn Future<Output = Resolved> + Send + 'static>> {
        Box::pin(async {
            MIGRATIONS
                .iter()
                .map(|(name, sql)| {
                    let (version, description) = parse_name(name)
                        .ok_or_else(|| format!("migration {name} is not named VERSION_WHAT"))?;
                    Ok(Migration::new(
                        version,
                        Cow::Owned(description.replace('_', " ")),
                        MigrationType::Simple,
                        Cow::Borrowed(*sql),
                        false,
                    ))
                })
                .collect()
        })
    }
}

/// Host name, process id and a random part: unique per process, readable in `claimed_by`.
fn replica_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "contact-fn".to_owned());
    // The last characters of a v7 UUID are random.
    let uuid = Uuid::now_v7().simple().to_string();
    format!("{host}/{}/{}", std::process::id(), &uuid[uuid.len() - 8..])
}

pub(crate) fn to_db(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

pub(crate) fn from_db(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// The record's kind as its text in the table: what serde writes, so a new kind needs no
/// schema change.
fn kind_text(record: &Record) -> anyhow::Result<String> {
    match serde_json::to_value(record.kind).context("serialising the kind")? {
        Value::String(text) => Ok(text),
        other => bail!("the kind serialises as {other}, not as text"),
    }
}

const COLUMNS: &str = "id, kind, created_ms, attempts, next_attempt_ms, last_error, envelope_from, envelope_to, message, webhook_url, webhook_id";

/// Binds the record's fields, in the order of [`COLUMNS`], as `$1` to `$11`.
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
    })
}

/// The outbox and dead letters in PostgreSQL.
#[derive(Debug)]
pub struct PgOutbox {
    db: Database,
    max_messages: u64,
    max_bytes: u64,
}

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
    async fn insert(&self, conn: &mut PgConnection, record: &Record) -> Result<(), EnqueueError> {
        let kind = kind_text(record).map_err(EnqueueError::Io)?;
        let size = record.message.len() as u64;
        let inserted = bind_record(
            sqlx::query(
            "WITH usage AS (SELECT count(*) AS n, coalesce(sum(octet_length(message)), 0) AS bytes
                            FROM outbox)
             INSERT INTO outbox (id, kind, created_ms, attempts, next_attempt_ms, last_error,
                                 envelope_from, envelope_to, message, webhook_url, webhook_id)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 FROM usage
             WHERE usage.n < $12 AND usage.bytes + $13 <= $14
             ON CONFLICT (id) DO NOTHING",
        ),
            record,
            kind,
        )
        .bind(to_db(self.max_messages))
        .bind(to_db(size))
        .bind(to_db(self.max_bytes))
        .execute(&mut *conn)
        .await
        .context("inserting the message")
        .map_err(EnqueueError::Io)?;
        if inserted.rows_affected() == 1 {
            return Ok(());
        }
        // Nothing inserted: either the message was already there, or the outbox is full.
        let row = sqlx::query(
            "SELECT EXISTS (SELECT 1 FROM outbox WHERE id = $1) AS present, count(*) AS n,
                    coalesce(sum(octet_length(message)), 0)::bigint AS bytes
             FROM outbox",
        )
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

    /// Claims the most overdue message nobody else holds, for the lease time.
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
        .fetch_optional(self.pool())
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

    /// Deletes a delivered message.
    pub async fn delivered(&self, id: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM outbox WHERE id = $1")
            .bind(id)
            .execute(self.pool())
            .await
            .context("removing the delivered message")?;
        Ok(())
    }

    /// Stores the state after a failed attempt and gives up the claim; a message another
    /// replica has taken over meanwhile is left to it.
    pub async fn retry_later(&self, record: Record) -> anyhow::Result<()> {
        let updated = sqlx::query(
            "UPDATE outbox SET attempts = $2, next_attempt_ms = $3, last_error = $4,
                               claimed_by = NULL, lease_until = NULL
             WHERE id = $1 AND claimed_by = $5",
        )
        .bind(&record.id)
        .bind(i32::try_from(record.attempts).unwrap_or(i32::MAX))
        .bind(to_db(record.next_attempt_ms))
        .bind(&record.last_error)
        .bind(&self.db.replica)
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
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
             ON CONFLICT (id) DO UPDATE SET attempts = EXCLUDED.attempts,
                 last_error = EXCLUDED.last_error, buried_at = now()"
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

fn to_db_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The idempotency records in PostgreSQL.
#[derive(Debug)]
pub struct PgKeys {
    db: Database,
}

impl PgKeys {
    /// The fingerprint remembered under `id`, if created from `oldest` on.
    pub async fn fingerprint(&self, id: &str, oldest: u64) -> anyhow::Result<Option<String>> {
        sqlx::query_scalar(
            "SELECT fingerprint FROM idempotency_keys WHERE id = $1 AND created_ms >= $2",
        )
        .bind(id)
        .bind(to_db(oldest))
        .fetch_optional(&self.db.pool)
        .await
        .context("reading the idempotency record")
    }

    /// Records a key, replacing an expired record of it.
    pub async fn remember(&self, id: &str, fingerprint: &str, oldest: u64) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO idempotency_keys (id, fingerprint, created_ms) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
                                            created_ms = EXCLUDED.created_ms
             WHERE idempotency_keys.created_ms < $4",
        )
        .bind(id)
        .bind(fingerprint)
        .bind(to_db(now_ms()))
        .bind(to_db(oldest))
        .execute(&self.db.pool)
        .await?;
        Ok(())
    }

    /// Forgets the keys created before `oldest`.
    pub async fn prune(&self, oldest: u64) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM idempotency_keys WHERE created_ms < $1")
            .bind(to_db(oldest))
            .execute(&self.db.pool)
            .await
            .context("removing expired idempotency records")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_migration_is_named_version_description_in_order() {
        let versions: Vec<i64> = MIGRATIONS
            .iter()
            .map(|(name, _)| parse_name(name).expect("VERSION_WHAT").0)
            .collect();
        let mut sorted = versions.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(versions, sorted);
        assert_eq!(latest_version(), *versions.last().expect("one migration"));
    }
}
