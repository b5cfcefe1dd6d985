//! Remembers `Idempotency-Key` headers, so a retried submission gets the first answer and
//! the inbox gets one email.
//!
//! The message id is derived from the form and the key, so a retry maps to the same outbox
//! message, on any replica. A record per key holds a fingerprint of the submission and
//! survives restarts until it expires, in a [`KeyStore`]: a file in the data folder or a row
//! shared by every replica.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use axum::http::HeaderMap;
use tokio::sync::OwnedMutexGuard;
use uuid::Uuid;

use crate::durable::now_ms;
use crate::outbox::Outbox;
use crate::store::files::FileKeys;
use crate::store::postgres::PgKeys;
use crate::store::{EnqueueError, KeyStore, Record, Seen};
use crate::submission::{FormKind, Submission};

/// Name of the request header.
pub const HEADER: &str = "idempotency-key";
/// Longest accepted key.
pub const MAX_KEY_LEN: usize = 255;

/// Reads the header: absent is fine, present must be 1 to 255 visible ASCII characters.
pub fn key(headers: &HeaderMap) -> Result<Option<String>, String> {
    let mut values = headers.get_all(HEADER).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let invalid = || {
        format!("Idempotency-Key must be one value of 1 to {MAX_KEY_LEN} visible ASCII characters.")
    };
    if values.next().is_some() {
        return Err(invalid());
    }
    let bytes = value.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_KEY_LEN || !bytes.iter().all(u8::is_ascii_graphic) {
        return Err(invalid());
    }
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

/// The message id a key stands for.
pub fn message_id(kind: FormKind, key: &str) -> String {
    let name = format!("contact-fn/idempotency/{}/{key}", kind.as_str());
    Uuid::new_v5(&Uuid::NAMESPACE_URL, name.as_bytes()).to_string()
}

/// A short stand-in for the submission, to tell a retry from a different message.
pub fn fingerprint(submission: &Submission) -> anyhow::Result<String> {
    let canonical = serde_json::to_vec(submission).context("serialising the submission")?;
    Ok(Uuid::new_v5(&Uuid::NAMESPACE_OID, &canonical).to_string())
}

/// The remembered keys.
#[derive(Debug)]
pub struct IdempotencyStore {
    store: Box<dyn KeyStore>,
    ttl: Duration,
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl IdempotencyStore {
    /// Opens (creating if needed) the folder and loads the records that have not expired.
    pub fn open(dir: PathBuf, ttl: Duration) -> anyhow::Result<Self> {
        let oldest = oldest(ttl);
        Ok(Self::over(Box::new(FileKeys::open(dir, oldest)?), ttl))
    }

    /// The records in PostgreSQL, shared with every replica on the same database.
    pub fn postgres(keys: PgKeys, ttl: Duration) -> Self {
        Self::over(Box::new(keys), ttl)
    }

    fn over(store: Box<dyn KeyStore>, ttl: Duration) -> Self {
        Self {
            store,
            ttl,
            locks: Mutex::default(),
        }
    }

    /// Serialises submissions carrying the same key in this process; hold the guard until
    /// remembered. (Across replicas the key's message id keeps a retry to one message.)
    pub async fn lock(&self, id: &str) -> OwnedMutexGuard<()> {
        let lock = locks(&self.locks).entry(id.to_owned()).or_default().clone();
        lock.lock_owned().await
    }

    /// What this key has seen within its lifetime.
    pub async fn seen(&self, id: &str, fingerprint: &str) -> anyhow::Result<Seen> {
        let oldest = oldest(self.ttl);
        let remembered = self.store.fingerprint(id, oldest).await?;
        Ok(Seen::of(remembered.as_deref(), fingerprint))
    }

    /// Records a key durably after its message was stored.
    pub async fn remember(&self, id: &str, fingerprint: String) -> anyhow::Result<()> {
        let oldest = oldest(self.ttl);
        self.store
            .remember(id, fingerprint, oldest)
            .await
            .context("writing the idempotency record")
    }

    /// Stores `record` (whose id is the key's) through `outbox` and remembers the key with
    /// `fingerprint`. With PostgreSQL both happen in one transaction, which also settles the
    /// same key arriving on two replicas at once: the later one stores nothing and learns
    /// whether it was the same submission. With files, under [`IdempotencyStore::lock`], the
    /// message is stored first and the key after it (if that fails, only a retry could send a
    /// second email).
    pub async fn enqueue_remembering(
        &self,
        outbox: &Outbox,
        record: Record,
        fingerprint: String,
    ) -> Result<Seen, EnqueueError> {
        let id = record.id.clone();
        if let Some(seen) = outbox
            .enqueue_keyed(record.clone(), &fingerprint, oldest(self.ttl))
            .await?
        {
            return Ok(seen);
        }
        outbox.enqueue(record).await?;
        if let Err(error) = self.remember(&id, fingerprint).await {
            tracing::warn!(
                id,
                "message stored, but its Idempotency-Key was not: {error:#}"
            );
        }
        Ok(Seen::New)
    }

    /// Forgets expired keys and unused locks.
    pub async fn prune(&self) {
        locks(&self.locks).retain(|_, lock| Arc::strong_count(lock) > 1);
        let oldest = oldest(self.ttl);
        let pruned = self.store.prune(oldest).await;
        if let Err(error) = pruned {
            tracing::warn!("could not remove expired idempotency records: {error:#}");
        }
    }
}

/// The per-key locks; a panic elsewhere while holding them leaves the map usable.
fn locks<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Records created before this time (ms since the Unix epoch) have expired.
fn oldest(ttl: Duration) -> u64 {
    now_ms().saturating_sub(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX))
}
