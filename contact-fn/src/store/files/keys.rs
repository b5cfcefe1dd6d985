//! The idempotency records in files: one `idempotency/<id>.json` per key, in memory
//! as well for quick look-ups.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use crate::durable::{self, now_ms};
use crate::store::{BoxFuture, KeyStore};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Entry {
    fingerprint: String,
    created_ms: u64,
}

/// The remembered keys, in memory and on disk.
#[derive(Debug)]
pub struct FileKeys {
    dir: PathBuf,
    entries: Mutex<HashMap<String, Entry>>,
}

impl FileKeys {
    /// Opens (creating if needed) the folder and loads the records created from `oldest` on;
    /// older ones are removed.
    pub fn open(dir: PathBuf, oldest: u64) -> anyhow::Result<Self> {
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        durable::remove_leftovers(&dir)
            .with_context(|| format!("cleaning up {}", dir.display()))?;
        let store = Self {
            dir,
            entries: Mutex::default(),
        };
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

    /// The fingerprint remembered under `id`, if created from `oldest` on.
    pub fn fingerprint(&self, id: &str, oldest: u64) -> Option<String> {
        relock(&self.entries)
            .get(id)
            .filter(|entry| entry.created_ms >= oldest)
            .map(|entry| entry.fingerprint.clone())
    }

    /// Records a key durably.
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
            .context("the idempotency writer stopped")??;
        relock(&self.entries).insert(id.to_owned(), entry);
        Ok(())
    }

    /// Forgets the keys created before `oldest`.
    pub async fn prune(&self, oldest: u64) -> anyhow::Result<()> {
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
        if expired.is_empty() {
            return Ok(());
        }
        let dir = self.dir.clone();
        tokio::task::spawn_blocking(move || {
            for id in expired {
                durable::remove(&dir, &format!("{id}.json"))?;
            }
            std::io::Result::Ok(())
        })
        .await
        .context("the idempotency cleaner stopped")?
        .context("removing expired idempotency records")
    }
}

impl KeyStore for FileKeys {
    fn fingerprint<'a>(
        &'a self,
        id: &'a str,
        oldest_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<Option<String>>> {
        Box::pin(async move { Ok(FileKeys::fingerprint(self, id, oldest_ms)) })
    }
    fn remember<'a>(
        &'a self,
        id: &'a str,
        fingerprint: String,
        _oldest_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(FileKeys::remember(self, id, fingerprint))
    }
    fn prune(&self, oldest_ms: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(FileKeys::prune(self, oldest_ms))
    }
}

/// Locks `mutex`, reusing it if a panic poisoned it: the maps it guards stay usable.
fn relock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
