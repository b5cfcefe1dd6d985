//! The embedded default store: one JSON file per address in `<data dir>/subscribers/`,
//! written durably (write, fsync, rename, fsync) like the outbox.
//!
//! Nothing is cached, so `contact-fn subscribers` may change the folder while the service
//! runs. A file is named after a hash of its address, so no address becomes a path.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use tokio::sync::Mutex;
use uuid::Uuid;

use crate::durable;
use crate::store::subscribers::{
    BoxFuture, Confirmation, Confirmed, Entry, Requested, SendLimits, StoreError, Subscriber,
    SubscriberStore, normalise,
};

/// Subscribers as files in a folder, at most `max` of them.
#[derive(Debug)]
pub struct FileStore {
    dir: PathBuf,
    max: u64,
    /// Files in the folder, as far as this process knows.
    count: AtomicU64,
    /// One change at a time: read, decide, write.
    writing: Mutex<()>,
}

impl FileStore {
    /// Opens (creating if needed) the folder `dir`, holding at most `max` addresses.
    pub fn open(dir: PathBuf, max: u64) -> anyhow::Result<Self> {
        fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        durable::remove_leftovers(&dir)
            .with_context(|| format!("cleaning up {}", dir.display()))?;
        let count = entry_files(&dir)?.len() as u64;
        Ok(Self {
            dir,
            max,
            count: AtomicU64::new(count),
            writing: Mutex::new(()),
        })
    }

    fn file_name(address: &str) -> String {
        let id = Uuid::new_v5(&Uuid::NAMESPACE_URL, format!("mailto:{address}").as_bytes());
        format!("{id}.json")
    }

    async fn read(&self, address: &str) -> Result<Option<Entry>, StoreError> {
        let path = self.dir.join(Self::file_name(address));
        blocking(move || read_entry(&path)).await
    }

    async fn write(&self, entry: &Entry) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(entry)
            .context("serialising a subscriber")
            .map_err(StoreError::Failed)?;
        let dir = self.dir.clone();
        let name = Self::file_name(&entry.address);
        blocking(move || {
            durable::write(&dir, &name, &bytes)
                .context("writing a subscriber file")
                .map_err(StoreError::Failed)
        })
        .await
    }

    async fn delete(&self, address: &str) -> Result<(), StoreError> {
        let dir = self.dir.clone();
        let name = Self::file_name(address);
        blocking(move || {
            durable::remove(&dir, &name)
                .context("removing a subscriber file")
                .map_err(StoreError::Failed)
        })
        .await?;
        let _ = self
            .count
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        Ok(())
    }

    async fn all(&self) -> Result<Vec<Entry>, StoreError> {
        let dir = self.dir.clone();
        blocking(move || {
            let mut entries = Vec::new();
            for path in entry_files(&dir)? {
                if let Some(entry) = read_entry(&path)? {
                    entries.push(entry);
                }
            }
            Ok(entries)
        })
        .await
    }
}

impl SubscriberStore for FileStore {
    fn request(
        &self,
        address: String,
        limits: SendLimits,
        now_ms: u64,
    ) -> BoxFuture<'_, Result<Requested, StoreError>> {
        Box::pin(async move {
            let address = normalise(&address);
            let _writing = self.writing.lock().await;
            let mut entry = match self.read(&address).await? {
                Some(entry) => entry,
                None => {
                    let count = self.count.load(Ordering::SeqCst);
                    if count >= self.max {
                        return Err(StoreError::Full(count));
                    }
                    self.count.fetch_add(1, Ordering::SeqCst);
                    Entry::new(address, now_ms)
                }
            };
            let requested = entry.request(limits, now_ms);
            self.write(&entry).await?;
            Ok(requested)
        })
    }

    fn confirm(
        &self,
        address: String,
        confirmation: Confirmation,
    ) -> BoxFuture<'_, Result<Confirmed, StoreError>> {
        Box::pin(async move {
            let address = normalise(&address);
            let _writing = self.writing.lock().await;
            let Some(mut entry) = self.read(&address).await? else {
                return Ok(Confirmed::Outdated);
            };
            let confirmed = entry.confirm(confirmation);
            if confirmed == Confirmed::Subscribed {
                self.write(&entry).await?;
            }
            Ok(confirmed)
        })
    }

    fn unsubscribe(&self, address: String, now_ms: u64) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async move {
            let address = normalise(&address);
            let _writing = self.writing.lock().await;
            let Some(mut entry) = self.read(&address).await? else {
                return Ok(false);
            };
            entry.status = crate::store::subscribers::Status::Unsubscribed {
                unsubscribed_ms: now_ms,
            };
            self.write(&entry).await?;
            Ok(true)
        })
    }

    fn remove(&self, address: String) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async move {
            let address = normalise(&address);
            let _writing = self.writing.lock().await;
            if self.read(&address).await?.is_none() {
                return Ok(false);
            }
            self.delete(&address).await?;
            Ok(true)
        })
    }

    fn get(&self, address: String) -> BoxFuture<'_, Result<Option<Entry>, StoreError>> {
        Box::pin(async move { self.read(&normalise(&address)).await })
    }

    fn export(&self) -> BoxFuture<'_, Result<Vec<Subscriber>, StoreError>> {
        Box::pin(async move {
            let mut subscribers: Vec<Subscriber> = self
                .all()
                .await?
                .iter()
                .filter_map(Entry::subscriber)
                .collect();
            subscribers
                .sort_by(|a, b| (a.confirmed_ms, &a.address).cmp(&(b.confirmed_ms, &b.address)));
            Ok(subscribers)
        })
    }

    fn prune(
        &self,
        now_ms: u64,
        pending_for: Duration,
    ) -> BoxFuture<'_, Result<usize, StoreError>> {
        Box::pin(async move {
            let mut forgotten = 0;
            for entry in self.all().await? {
                if !entry.is_stale(now_ms, pending_for) {
                    continue;
                }
                let _writing = self.writing.lock().await;
                // Read again under the lock: a request may have come in since.
                if let Some(current) = self.read(&entry.address).await?
                    && current.is_stale(now_ms, pending_for)
                {
                    self.delete(&entry.address).await?;
                    forgotten += 1;
                }
            }
            Ok(forgotten)
        })
    }
}

fn entry_files(dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let listed = fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))
        .map_err(StoreError::Failed)?;
    let mut files = Vec::new();
    for entry in listed {
        let path = entry
            .context("listing the subscribers")
            .map_err(StoreError::Failed)?
            .path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with(".json") && !name.starts_with(durable::TEMP_PREFIX) {
            files.push(path);
        }
    }
    Ok(files)
}

fn read_entry(path: &Path) -> Result<Option<Entry>, StoreError> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(StoreError::Failed(
                anyhow::Error::new(error).context(format!("reading {}", path.display())),
            ));
        }
    };
    serde_json::from_slice(&bytes)
        .with_context(|| format!("parsing {}", path.display()))
        .map(Some)
        .map_err(StoreError::Failed)
}

/// Runs file work on the blocking thread pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(work)
        .await
        .context("a subscriber store task stopped")
        .map_err(StoreError::Failed)?
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::store::subscribers::suite::{LIMITS, T0};
    use crate::store::subscribers::{DAY_MS, Requested, StoreError, SubscriberStore};

    #[tokio::test]
    async fn the_file_store_is_bounded_and_survives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("subscribers");
        let store = FileStore::open(path.clone(), 2).unwrap();
        for a in ["a@example.org", "b@example.org"] {
            store.request(a.into(), LIMITS, T0).await.unwrap();
        }
        assert!(matches!(
            store.request("c@example.org".into(), LIMITS, T0).await,
            Err(StoreError::Full(2))
        ));
        assert_eq!(
            store
                .request("a@example.org".into(), LIMITS, T0 + DAY_MS)
                .await
                .unwrap(),
            Requested::Send,
            "known addresses still work when full"
        );
        drop(store);
        let store = FileStore::open(path, 2).unwrap();
        assert!(
            store
                .request("c@example.org".into(), LIMITS, T0)
                .await
                .is_err()
        );
        assert!(store.remove("b@example.org".into()).await.unwrap());
        assert_eq!(
            store
                .request("c@example.org".into(), LIMITS, T0)
                .await
                .unwrap(),
            Requested::Send
        );
    }
}
