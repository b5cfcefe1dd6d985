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
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use uuid::Uuid;

use crate::config::Config;

/// The migrations, oldest first, as `<version>_<description>` file names in `migrations/`.
macro_rules! embedded {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../../migrations/", $name, ".sql")))),*]
    };
}
const MIGRATIONS: &[(&str, &str)] = embedded![
    "0001_initial",
    "0002_subscriber_times",
    "0003_webhooks",
    "0004_challenges",
    "0005_auto_replies",
    "0006_notifications",
    "0007_attachments",
];

mod auto_replies;
mod challenges;
mod keys;
mod outbox;
mod subscribers;

pub use auto_replies::PgAutoReplies;
pub use challenges::PgChallenges;
pub use keys::PgKeys;
pub use outbox::PgOutbox;
pub use subscribers::PgSubscriberStore;

/// The connection pool and what every table of this replica needs to know.
#[derive(Debug, Clone)]
pub struct Database {
    pub(crate) pool: PgPool,
    /// Connections whose commits do not wait for the disk (`synchronous_commit = off`), for
    /// delivery's bookkeeping (claims, removal of delivered messages): such a commit is
    /// visible to every session at once, and a crash of the database can lose it, which means
    /// at most a second delivery. Acknowledged messages are stored through [`Self::pool`].
    pub(crate) lazy_pool: PgPool,
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
            .connect_lazy_with(options.clone());
        // The deliveries in flight and the worker that claims them.
        let lazy_pool = PgPoolOptions::new()
            .max_connections(config.smtp_concurrency + 1)
            .acquire_timeout(config.database_connect_timeout)
            .connect_lazy_with(options.options([("synchronous_commit", "off")]));
        Ok(Self {
            pool,
            lazy_pool,
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
            usage: std::sync::Mutex::default(),
        }
    }

    /// The spent proof-of-work challenges.
    pub fn challenges(&self) -> PgChallenges {
        PgChallenges { db: self.clone() }
    }

    /// The auto-replies sent.
    pub fn auto_replies(&self) -> PgAutoReplies {
        PgAutoReplies { db: self.clone() }
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

    /// A file added to `migrations/` but not to [`MIGRATIONS`] would never be applied.
    #[test]
    fn every_file_in_the_migrations_folder_is_embedded() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .expect("the migrations folder")
            .map(|entry| {
                entry
                    .expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter_map(|name| name.strip_suffix(".sql").map(str::to_owned))
            .collect();
        files.sort();
        let embedded: Vec<&str> = MIGRATIONS.iter().map(|(name, _)| *name).collect();
        assert_eq!(files, embedded);
    }
}
