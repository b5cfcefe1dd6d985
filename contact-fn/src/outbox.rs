//! The durable outbox: an accepted message is stored until the mail server took it.
//!
//! [`Outbox`] is the one interface the service uses; behind it a store keeps the messages:
//! files in the data folder (the embedded default, [`files`]) or PostgreSQL tables shared by
//! several replicas ([`crate::postgres`]). Messages that cannot be delivered become dead letters
//! with the reason, never deleted.

mod files;

use tokio::sync::Notify;

use crate::postgres::PgOutbox;
use crate::store::{Depth, EnqueueError, Record, Taken};

pub use files::OutboxPaths;

/// The queue of messages waiting for delivery.
#[derive(Debug)]
pub struct Outbox {
    store: Store,
    wake: Notify,
}

/// The two stores behind [`Outbox`]; each method of the outbox is one of each store's.
#[derive(Debug)]
enum Store {
    Files(files::FileOutbox),
    Postgres(PgOutbox),
}

impl Outbox {
    /// Opens (creating if needed) the folders and resumes every message found in them.
    pub fn open(paths: OutboxPaths, max_messages: u64, max_bytes: u64) -> anyhow::Result<Self> {
        let files = files::FileOutbox::open(paths, max_messages, max_bytes)?;
        Ok(Self::over(Store::Files(files)))
    }

    /// The outbox in PostgreSQL tables, shared with every replica on the same database.
    pub fn postgres(store: PgOutbox) -> Self {
        Self::over(Store::Postgres(store))
    }

    fn over(store: Store) -> Self {
        Self {
            store,
            wake: Notify::new(),
        }
    }

    /// The PostgreSQL store, when it is the one.
    pub(crate) fn as_postgres(&self) -> Option<&PgOutbox> {
        match &self.store {
            Store::Files(_) => None,
            Store::Postgres(pg) => Some(pg),
        }
    }

    /// Where dead letters are kept, for the logs.
    pub fn dead_letters(&self) -> String {
        match &self.store {
            Store::Files(files) => files.dead_dir().display().to_string(),
            Store::Postgres(_) => "the dead_letters table".to_owned(),
        }
    }

    /// Messages waiting (including those being delivered right now).
    pub async fn len(&self) -> anyhow::Result<usize> {
        match &self.store {
            Store::Files(files) => Ok(files.len()),
            Store::Postgres(pg) => pg.len().await,
        }
    }

    /// How many messages wait, since when the oldest, and how many dead letters are kept.
    pub async fn depth(&self) -> anyhow::Result<Depth> {
        match &self.store {
            Store::Files(files) => files.depth().await,
            Store::Postgres(pg) => pg.depth().await,
        }
    }

    /// Whether nothing waits.
    pub async fn is_empty(&self) -> anyhow::Result<bool> {
        Ok(self.len().await? == 0)
    }

    /// Whether a message with this id waits for delivery.
    pub async fn contains(&self, id: &str) -> anyhow::Result<bool> {
        match &self.store {
            Store::Files(files) => Ok(files.contains(id)),
            Store::Postgres(pg) => pg.contains(id).await,
        }
    }

    /// Stores a new message durably and wakes the delivery worker. A message whose id is
    /// already waiting is not written again.
    pub async fn enqueue(&self, record: Record) -> Result<(), EnqueueError> {
        match &self.store {
            Store::Files(files) => files.enqueue(record).await?,
            Store::Postgres(pg) => pg.enqueue(record).await?,
        }
        self.wake.notify_one();
        Ok(())
    }

    /// Takes a message whose time has come, if any, for this worker alone: it is out of the
    /// schedule until [`Outbox::delivered`], [`Outbox::retry_later`] or [`Outbox::bury`]. In
    /// PostgreSQL the claim is a lease: if this replica dies, another takes the message over
    /// once the lease ran out.
    pub async fn take_due(&self, now_ms: u64) -> anyhow::Result<Option<Taken>> {
        match &self.store {
            Store::Files(files) => {
                let Some(id) = files.take_due(now_ms) else {
                    return Ok(None);
                };
                Ok(Some(match files.load(&id).await {
                    Ok(record) => Taken::Message(Box::new(record)),
                    Err(error) => Taken::Unreadable { id, error },
                }))
            }
            Store::Postgres(pg) => pg.take_due(now_ms).await,
        }
    }

    /// Time of the next attempt the worker should wake up for, in ms since the Unix epoch.
    pub async fn next_due(&self) -> anyhow::Result<Option<u64>> {
        match &self.store {
            Store::Files(files) => Ok(files.next_due()),
            Store::Postgres(pg) => pg.next_due().await,
        }
    }

    /// Resolves when a message was added by this process.
    pub async fn added(&self) {
        self.wake.notified().await;
    }

    /// Forgets a message the mail server accepted.
    pub async fn delivered(&self, id: &str) -> anyhow::Result<()> {
        match &self.store {
            Store::Files(files) => files.delivered(id).await,
            Store::Postgres(pg) => pg.delivered(id).await,
        }
    }

    /// Stores the new state of a message that failed for now and schedules its next attempt.
    pub async fn retry_later(&self, record: Record) -> anyhow::Result<()> {
        match &self.store {
            Store::Files(files) => files.retry_later(record).await,
            Store::Postgres(pg) => pg.retry_later(record).await,
        }
    }

    /// Gives up the claims of this process after its deliveries ended, so that other replicas
    /// (or this one, restarted) need not wait for the leases to run out. Files keep no claims.
    pub async fn release_claims(&self) -> anyhow::Result<()> {
        match &self.store {
            Store::Files(_) => Ok(()),
            Store::Postgres(pg) => pg.release_claims().await,
        }
    }

    /// Moves a message that will never be delivered to the dead letters, with its reason.
    pub async fn bury(&self, record: Record) -> anyhow::Result<()> {
        match &self.store {
            Store::Files(files) => files.bury(record).await,
            Store::Postgres(pg) => pg.bury(record).await,
        }
    }

    /// Moves what cannot be read as a message to the dead letters, unchanged.
    pub async fn bury_unreadable(&self, id: &str) -> anyhow::Result<()> {
        match &self.store {
            Store::Files(files) => files.bury_unreadable(id).await,
            Store::Postgres(pg) => pg.bury_unreadable(id).await,
        }
    }

    /// The dead letter stored under `id`, if any.
    pub async fn dead_letter(&self, id: &str) -> anyhow::Result<Option<Record>> {
        match &self.store {
            Store::Files(files) => files.dead_letter(id).await,
            Store::Postgres(pg) => pg.dead_letter(id).await,
        }
    }

    /// Checks that a message could be stored now: the folder is writable, or the database
    /// answers.
    pub async fn check_writable(&self) -> anyhow::Result<()> {
        match &self.store {
            Store::Files(files) => files.check_writable().await,
            Store::Postgres(pg) => pg.check_writable().await,
        }
    }
}
