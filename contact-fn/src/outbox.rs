//! The durable outbox: an accepted message is stored until the mail server took it.
//!
//! [`Outbox`] is the one interface the service uses; behind it a store keeps the messages:
//! files in the data folder (the embedded default, [`files`]) or PostgreSQL tables shared by
//! several replicas ([`crate::postgres`]). Messages that cannot be delivered become dead letters
//! with the reason, never deleted.

mod files;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use crate::postgres::PgOutbox;
use crate::submission::FormKind;
use crate::telemetry::Depth;

/// One queued email and its delivery state, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Record {
    /// Message id: the file name, the Message-ID's left part and the id answered to the client.
    pub id: String,
    /// Form the message came from.
    pub kind: FormKind,
    /// When it was accepted, in ms since the Unix epoch.
    pub created_ms: u64,
    /// Failed delivery attempts so far.
    pub attempts: u32,
    /// Earliest time of the next attempt, in ms since the Unix epoch.
    pub next_attempt_ms: u64,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// SMTP envelope sender.
    pub envelope_from: String,
    /// SMTP envelope recipients.
    pub envelope_to: Vec<String>,
    /// The complete RFC 5322 message (ASCII: headers and bodies are transfer-encoded); for a
    /// webhook, the request body.
    pub message: String,
    /// Where a webhook notification goes; `None` for an email.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookTarget>,
}

/// The receiver of a webhook notification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WebhookTarget {
    /// The URL posted to.
    pub url: String,
    /// The `webhook-id`: the id of the message it notifies of.
    pub event_id: String,
}

/// Why a delivery (an email or a webhook) failed.
#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    /// Worth trying again later.
    #[error("{0}")]
    Transient(String),
    /// Will never succeed.
    #[error("{0}")]
    Permanent(String),
}

/// Why a message was not stored.
#[derive(Debug, thiserror::Error)]
pub enum EnqueueError {
    /// The quota of messages or bytes is used up.
    #[error("the outbox is full ({count} messages, {bytes} bytes)")]
    Full {
        /// Messages waiting.
        count: u64,
        /// Bytes waiting.
        bytes: u64,
    },
    /// The disk or the database refused the write.
    #[error("writing to the outbox")]
    Io(#[source] anyhow::Error),
}

/// Where the file store keeps its files.
#[derive(Debug, Clone)]
pub struct OutboxPaths {
    /// Folder of waiting messages.
    pub outbox: PathBuf,
    /// Folder of messages that will never be delivered.
    pub dead: PathBuf,
}

/// A message the worker took for delivery.
#[derive(Debug)]
pub enum Taken {
    /// A message to deliver.
    Message(Box<Record>),
    /// Something stored under `id` that cannot be read as a message.
    Unreadable {
        /// Its id.
        id: String,
        /// Why it cannot be read.
        error: anyhow::Error,
    },
}

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
