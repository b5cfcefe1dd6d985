//! Remembers `Idempotency-Key` headers, so a retried submission gets the first answer and
//! the inbox gets one email.
//!
//! The message id is derived from the form and the key, so a retry maps to the same outbox
//! file. A record per key (`idempotency/<id>.json`) holds a fingerprint of the submission
//! and survives restarts until it expires.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::Context as _;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use tokio::sync::OwnedMutexGuard;
use uuid::Uuid;

use crate::durable::{self, now_ms};
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

/// What a key has seen before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Nothing: process the submission.
    New,
    /// The same submission: answer as before.
    Same,
    /// A different submission under the same key.
    Different,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Entry {
    fingerprint: String,
    created_ms: u64,
}

/// The remembered keys, in memory and on disk.
#[derive(Debug)]
pub struct IdempotencyStore {
    dir: PathBuf,
    ttl: Duration,
    entries: Mutex<HashMap<String, Entry>>,
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

fn relock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl IdempotencyStore {
    /// Opens (creating if needed) the folder and loads the records that have not expired.
    pub fn open(dir: PathBuf, ttl: Duration) -> anyhow::Result<Self> {
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        durable::remove_leftovers(&dir)
            .with_context(|| format!("cleaning up {}", dir.display()))?;
        let store = Self {
            dir,
            ttl,
            entries: Mutex::default(),
            locks: Mutex::default(),
        };
        let oldest = now_ms().saturating_sub(store.ttl_ms());
        for entry in
            fs::read_dir(&store.dir).with_context(|| format!("listing {}", store.dir.display()))?
        {
            let path = entry?.path();
            let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".json"))
            else {
                continue;
            };
            let record = fs::read(&path)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<Entry>(&bytes).ok());
            match record {
                Some(record) if record.created_ms >= oldest => {
                    relock(&store.entries).insert(id.to_owned(), record);
                }
                _ => fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?,
            }
        }
        Ok(store)
    }

    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// Serialises submissions carrying the same key; hold the guard until remembered.
    pub async fn lock(&self, id: &str) -> OwnedMutexGuard<()> {
        let lock = relock(&self.locks)
            .entry(id.to_owned())
            .or_default()
            .clone();
        lock.lock_owned().await
    }

    /// What this key has seen within its lifetime.
    pub fn seen(&self, id: &str, fingerprint: &str) -> Seen {
        let oldest = now_ms().saturating_sub(self.ttl_ms());
        match relock(&self.entries).get(id) {
            Some(entry) if entry.created_ms >= oldest => {
                if entry.fingerprint == fingerprint {
                    Seen::Same
                } else {
                    Seen::Different
                }
            }
            _ => Seen::New,
        }
    }

    /// Records a key durably after its message was stored.
    pub async fn remember(&self, id: &str, fingerprint: String) -> anyhow::Result<()> {
        let entry = Entry {
            fingerprint,
            created_ms: now_ms(),
        };
        let bytes = serde_json::to_vec(&entry).context("serialising the idempotency record")?;
        let dir = self.dir.clone();
        let name = format!("{id}.json");
        tokio::task::spawn_blocking(move || durable::write(&dir, &name, &bytes))
            .await
            .context("the idempotency writer stopped")?
            .context("writing the idempotency record")?;
        relock(&self.entries).insert(id.to_owned(), entry);
        Ok(())
    }

    /// Forgets expired keys and unused locks.
    pub async fn prune(&self) {
        let oldest = now_ms().saturating_sub(self.ttl_ms());
        let expired: Vec<String> = {
            let mut entries = relock(&self.entries);
            let expired = entries
                .iter()
                .filter(|(_, e)| e.created_ms < oldest)
                .map(|(id, _)| id.clone())
                .collect::<Vec<_>>();
            for id in &expired {
                entries.remove(id);
            }
            expired
        };
        relock(&self.locks).retain(|_, lock| Arc::strong_count(lock) > 1);
        if expired.is_empty() {
            return;
        }
        let dir = self.dir.clone();
        let removed = tokio::task::spawn_blocking(move || {
            for id in expired {
                durable::remove(&dir, &format!("{id}.json"))?;
            }
            std::io::Result::Ok(())
        })
        .await;
        if !matches!(removed, Ok(Ok(()))) {
            tracing::warn!("could not remove expired idempotency records: {removed:?}");
        }
    }
}
