//! The durable outbox: an accepted message is stored until the mail server (or the webhook)
//! took it.
//!
//! [`Outbox`] is the one interface the service uses; behind it an [`OutboxStore`] keeps the
//! messages: files in the data folder (the embedded default) or PostgreSQL tables shared by
//! several replicas (both in `store/`). Messages that cannot be delivered become dead letters
//! with the reason, never deleted.

use tokio::sync::Notify;

use crate::store::files::{FileOutbox, OutboxPaths};
use crate::store::postgres::PgOutbox;
use crate::store::{Depth, EnqueueError, OutboxStore, Record, Seen, Taken};

/// The queue of messages waiting for delivery.
#[derive(Debug)]
pub struct Outbox {
    store: Box<dyn OutboxStore>,
    wake: Notify,
}

impl Outbox {
    /// Opens (creating if needed) the folders and resumes every message found in them.
    pub fn open(paths: OutboxPaths, max_messages: u64, max_bytes: u64) -> anyhow::Result<Self> {
        let files = FileOutbox::open(paths, max_messages, max_bytes)?;
        Ok(Self::over(Box::new(files)))
    }

    /// The outbox in PostgreSQL tables, shared with every replica on the same database.
    pub fn postgres(store: PgOutbox) -> Self {
        Self::over(Box::new(store))
    }

    fn over(store: Box<dyn OutboxStore>) -> Self {
        Self {
            store,
            wake: Notify::new(),
        }
    }

    /// Where dead letters are kept, for the logs.
    pub fn dead_letters(&self) -> String {
        self.store.dead_letters_place()
    }

    /// Messages waiting (including those being delivered right now).
    pub async fn len(&self) -> anyhow::Result<usize> {
        self.store.len().await
    }

    /// How many messages wait, since when the oldest, and how many dead letters are kept.
    pub async fn depth(&self) -> anyhow::Result<Depth> {
        self.store.depth().await
    }

    /// Whether nothing waits.
    pub async fn is_empty(&self) -> anyhow::Result<bool> {
        Ok(self.len().await? == 0)
    }

    /// Whether a message with this id waits for delivery.
    pub async fn contains(&self, id: &str) -> anyhow::Result<bool> {
        self.store.contains(id).await
    }

    /// Stores a new message durably and wakes the delivery worker. A message whose id is
    /// already waiting is not written again.
    pub async fn enqueue(&self, record: Record) -> Result<(), EnqueueError> {
        self.store.enqueue(record).await?;
        self.wake.notify_one();
        Ok(())
    }

    /// Stores a message with its Idempotency-Key in one transaction, when the store can
    /// ([`OutboxStore::enqueue_keyed`]); `None` when it cannot.
    pub(crate) async fn enqueue_keyed(
        &self,
        record: Record,
        fingerprint: &str,
        oldest_ms: u64,
    ) -> Result<Option<Seen>, EnqueueError> {
        let stored = self
            .store
            .enqueue_keyed(record, fingerprint, oldest_ms)
            .await?;
        if stored.is_some() {
            self.wake.notify_one();
        }
        Ok(stored)
    }

    /// Takes a message whose time has come, if any, for this worker alone: it is out of the
    /// schedule until [`Outbox::delivered`], [`Outbox::retry_later`] or [`Outbox::bury`]. In
    /// PostgreSQL the claim is a lease: if this replica dies, another takes the message over
    /// once the lease ran out.
    pub async fn take_due(&self, now_ms: u64) -> anyhow::Result<Option<Taken>> {
        self.store.take_due(now_ms).await
    }

    /// Time of the next attempt the worker should wake up for, in ms since the Unix epoch.
    pub async fn next_due(&self) -> anyhow::Result<Option<u64>> {
        self.store.next_due().await
    }

    /// Resolves when a message was added by this process.
    pub async fn added(&self) {
        self.wake.notified().await;
    }

    /// The chunk `n` of the file `index` of message `id`; `None` past its end (see
    /// [`OutboxStore::attachment_chunk`](crate::store::OutboxStore::attachment_chunk)).
    pub async fn attachment_chunk(
        &self,
        id: &str,
        index: usize,
        n: u32,
    ) -> anyhow::Result<Option<Vec<u8>>> {
        self.store.attachment_chunk(id, index, n).await
    }

    /// Forgets a message the mail server accepted, and its files.
    pub async fn delivered(&self, id: &str) -> anyhow::Result<()> {
        self.store.delivered(id).await
    }

    /// Stores the new state of a message that failed for now and schedules its next attempt.
    pub async fn retry_later(&self, record: Record) -> anyhow::Result<()> {
        self.store.retry_later(record).await
    }

    /// Gives up the claims of this process after its deliveries ended, so that other replicas
    /// (or this one, restarted) need not wait for the leases to run out. Files keep no claims.
    pub async fn release_claims(&self) -> anyhow::Result<()> {
        self.store.release_claims().await
    }

    /// Moves a message that will never be delivered to the dead letters, with its reason.
    pub async fn bury(&self, record: Record) -> anyhow::Result<()> {
        self.store.bury(record).await
    }

    /// Moves what cannot be read as a message to the dead letters, unchanged.
    pub async fn bury_unreadable(&self, id: &str) -> anyhow::Result<()> {
        self.store.bury_unreadable(id).await
    }

    /// The dead letter stored under `id`, if any.
    pub async fn dead_letter(&self, id: &str) -> anyhow::Result<Option<Record>> {
        self.store.dead_letter(id).await
    }

    /// Every message waiting, oldest first.
    pub async fn waiting(&self) -> anyhow::Result<Vec<Record>> {
        self.store.waiting().await
    }

    /// Every dead letter, oldest first.
    pub async fn dead(&self) -> anyhow::Result<Vec<Record>> {
        self.store.dead().await
    }

    /// Moves the dead letter `id` back for another round of attempts, due now; `false` when
    /// there is none.
    pub async fn revive(&self, id: &str, now_ms: u64) -> anyhow::Result<bool> {
        let revived = self.store.revive(id, now_ms).await?;
        if revived {
            self.wake.notify_one();
        }
        Ok(revived)
    }

    /// Deletes the dead letter `id` for good; `false` when there is none.
    pub async fn purge(&self, id: &str) -> anyhow::Result<bool> {
        self.store.purge(id).await
    }

    /// Checks that a message could be stored now: the folder is writable, or the database
    /// answers.
    pub async fn check_writable(&self) -> anyhow::Result<()> {
        self.store.check_writable().await
    }
}
