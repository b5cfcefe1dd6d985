//! The file store of the outbox: one JSON file `outbox/<id>.json` per message, fsynced before
//! it counts as stored. The files are the truth; memory only keeps the schedule and the sizes
//! for the quota, rebuilt from the folder at start-up. Messages that cannot be delivered move to
//! `dead/` with the reason, never deleted. A message's files are `attachments/<id>/<index>`,
//! moved there from the upload spool before its record is written (so a record never names
//! files that are not there), and removed with the message when it is delivered or purged;
//! files that no record names (a crash between the two writes) are removed at start-up.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::Context as _;

use crate::durable::{self, now_ms};
use crate::store::{
    BoxFuture, CHUNK_BYTES, Depth, EnqueueError, OutboxStore, Record, Seen, Taken, revived,
};

/// Wait before trying again a message whose move to the dead letters failed.
const BURY_RETRY: std::time::Duration = std::time::Duration::from_secs(1);

/// Where the file store keeps its files.
#[derive(Debug, Clone)]
pub struct OutboxPaths {
    /// Folder of waiting messages.
    pub outbox: PathBuf,
    /// Folder of messages that will never be delivered.
    pub dead: PathBuf,
    /// Folder of the messages' files, a folder per message (waiting or dead).
    pub attachments: PathBuf,
}

/// The messages waiting for delivery, as files.
#[derive(Debug)]
pub struct FileOutbox {
    paths: OutboxPaths,
    max_messages: u64,
    max_bytes: u64,
    index: Mutex<Index>,
}

#[derive(Debug, Default)]
struct Index {
    /// Size on disk of every message in the outbox, by id.
    sizes: HashMap<String, u64>,
    /// When each message in the outbox was accepted, by id.
    created_ms: HashMap<String, u64>,
    bytes: u64,
    /// Messages waiting for their time, ordered by it; taken out while being delivered.
    due: BTreeSet<(u64, String)>,
}

impl Index {
    fn set_size(&mut self, id: &str, size: u64) {
        let old = self.sizes.insert(id.to_owned(), size).unwrap_or(0);
        self.bytes = self.bytes.saturating_sub(old) + size;
    }

    fn forget(&mut self, id: &str) {
        self.created_ms.remove(id);
        if let Some(old) = self.sizes.remove(id) {
            self.bytes = self.bytes.saturating_sub(old);
        }
    }
}

fn file_name(id: &str) -> String {
    format!("{id}.json")
}

/// What a message takes of the quota: its file and its attachments.
fn quota_size(record_bytes: usize, record: &Record) -> u64 {
    record_bytes as u64 + record.attachment_bytes()
}

impl FileOutbox {
    /// Opens (creating if needed) the folders and resumes every message found in them.
    pub fn open(paths: OutboxPaths, max_messages: u64, max_bytes: u64) -> anyhow::Result<Self> {
        for dir in [&paths.outbox, &paths.dead, &paths.attachments] {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            durable::remove_leftovers(dir)
                .with_context(|| format!("cleaning up {}", dir.display()))?;
        }
        let outbox = Self {
            paths,
            max_messages,
            max_bytes,
            index: Mutex::default(),
        };
        let entries = fs::read_dir(&outbox.paths.outbox)
            .with_context(|| format!("listing {}", outbox.paths.outbox.display()))?;
        for entry in entries {
            let path = entry?.path();
            let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".json"))
                .map(str::to_owned)
            else {
                continue;
            };
            match read_record(&path) {
                Ok(record) => {
                    let size = fs::metadata(&path).map(|m| m.len()).unwrap_or(0)
                        + record.attachment_bytes();
                    let mut index = outbox.lock();
                    index.set_size(&id, size);
                    index.created_ms.insert(id.clone(), record.created_ms);
                    index.due.insert((record.next_attempt_ms, id));
                }
                Err(error) => {
                    tracing::error!(
                        id,
                        "unreadable outbox file moved to the dead letters: {error:#}"
                    );
                    outbox
                        .move_to_dead(&id)
                        .with_context(|| format!("moving the unreadable {}", path.display()))?;
                }
            }
        }
        outbox.remove_unnamed_attachments()?;
        Ok(outbox)
    }

    /// Removes the files of messages that are neither waiting nor dead: left by a crash
    /// between storing the files and their record, or between removing the two.
    fn remove_unnamed_attachments(&self) -> anyhow::Result<()> {
        let dir = &self.paths.attachments;
        for entry in fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
            let entry = entry?;
            let id = entry.file_name().to_string_lossy().into_owned();
            let name = file_name(&id);
            if self.paths.outbox.join(&name).exists() || self.paths.dead.join(&name).exists() {
                continue;
            }
            let modified = entry.metadata()?.modified()?;
            let age = std::time::SystemTime::now()
                .duration_since(modified)
                .unwrap_or_default();
            // A young folder may be a store in progress in the running service.
            if age >= durable::LEFTOVER_AGE {
                tracing::info!(id, "removing the files of a message that was never stored");
                fs::remove_dir_all(entry.path())
                    .with_context(|| format!("removing {}", entry.path().display()))?;
            }
        }
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, Index> {
        // A panic while holding this lock cannot leave the index half-updated in a way that
        // matters more than losing the service, so a poisoned lock is simply reused.
        self.index.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Folder of dead letters.
    pub fn dead_dir(&self) -> &Path {
        &self.paths.dead
    }

    /// Messages waiting (including those being delivered right now).
    pub fn len(&self) -> usize {
        self.lock().sizes.len()
    }

    /// Messages waiting, the oldest one's acceptance time, and the dead letters kept.
    pub async fn depth(&self) -> anyhow::Result<Depth> {
        let (queued, oldest_created_ms) = {
            let index = self.lock();
            (
                index.sizes.len() as u64,
                index.created_ms.values().min().copied(),
            )
        };
        let dead = self.paths.dead.clone();
        let dead = blocking("counting the dead letters", move || {
            fs::read_dir(&dead).map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
                    .count() as u64
            })
        })
        .await?;
        Ok(Depth {
            queued,
            oldest_created_ms,
            dead,
        })
    }

    /// Whether a message with this id waits for delivery.
    pub fn contains(&self, id: &str) -> bool {
        self.lock().sizes.contains_key(id)
    }

    /// Stores a new message durably. A message whose id is already waiting is not written again.
    pub async fn enqueue(&self, record: Record) -> Result<(), EnqueueError> {
        let bytes = serde_json::to_vec(&record)
            .context("serialising the message")
            .map_err(EnqueueError::Io)?;
        {
            let mut index = self.lock();
            if index.sizes.contains_key(&record.id) {
                return Ok(());
            }
            let count = index.sizes.len() as u64;
            let size = quota_size(bytes.len(), &record);
            if count + 1 > self.max_messages || index.bytes + size > self.max_bytes {
                return Err(EnqueueError::Full {
                    count,
                    bytes: index.bytes,
                });
            }
            // Reserve the space before the slow write so concurrent writers respect the quota.
            index.set_size(&record.id, size);
            index
                .created_ms
                .insert(record.id.clone(), record.created_ms);
        }
        let (dir, name) = (self.paths.outbox.clone(), file_name(&record.id));
        let files = (self.paths.attachments.clone(), record.spooled.clone());
        let id = record.id.clone();
        let written = blocking("writing the message file", move || {
            let stored = if files.1.is_empty() {
                durable::write(&dir, &name, &bytes)
            } else {
                // The record is written while its files are made durable, and renamed into
                // place once they are: a record never names files that are not there.
                durable::write_after(&dir, &name, &bytes, || {
                    store_attachments(&files.0, &id, &files.1)
                })
            };
            stored.inspect_err(|_| {
                let _ = fs::remove_dir_all(files.0.join(&id));
            })
        })
        .await;
        let mut index = self.lock();
        match written {
            Ok(()) => {
                index.due.insert((record.next_attempt_ms, record.id));
                Ok(())
            }
            Err(error) => {
                index.forget(&record.id);
                Err(EnqueueError::Io(error))
            }
        }
    }

    /// Takes the id of a message whose time has come, if any; it is out of the schedule
    /// until it is delivered, retried later or buried.
    pub fn take_due(&self, now_ms: u64) -> Option<String> {
        let mut index = self.lock();
        let first = index.due.first()?;
        if first.0 > now_ms {
            return None;
        }
        index.due.pop_first().map(|(_, id)| id)
    }

    /// Time of the next scheduled attempt.
    pub fn next_due(&self) -> Option<u64> {
        self.lock().due.first().map(|(at, _)| *at)
    }

    /// Reads a waiting message.
    pub async fn load(&self, id: &str) -> anyhow::Result<Record> {
        let path = self.paths.outbox.join(file_name(id));
        blocking("reading the message file", move || read_record(&path)).await
    }

    /// Reads a dead letter; `None` when there is none under `id`.
    pub async fn dead_letter(&self, id: &str) -> anyhow::Result<Option<Record>> {
        let path = self.paths.dead.join(file_name(id));
        blocking("reading the dead letter", move || {
            if path.exists() {
                read_record(&path).map(Some)
            } else {
                Ok(None)
            }
        })
        .await
    }

    /// Forgets a delivered message. The removal is not fsynced: a crash can bring the file
    /// back, which only means the message is delivered again (at-least-once), and spares every
    /// message a second flush of the folder beside the one that stored it.
    pub async fn delivered(&self, id: &str) -> anyhow::Result<()> {
        let path = self.paths.outbox.join(file_name(id));
        let files = self.paths.attachments.join(id);
        let removed = blocking(
            "removing the delivered message",
            move || match fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => remove_attachments(&files),
            },
        )
        .await;
        self.lock().forget(id);
        removed
    }

    /// Stores the new state of a message that failed for now and schedules its next attempt.
    pub async fn retry_later(&self, record: Record) -> anyhow::Result<()> {
        let bytes = serde_json::to_vec(&record).context("serialising the message")?;
        let size = bytes.len() as u64;
        let dir = self.paths.outbox.clone();
        let name = file_name(&record.id);
        let written = blocking("updating the message file", move || {
            durable::write(&dir, &name, &bytes)
        })
        .await;
        let mut index = self.lock();
        if written.is_ok() {
            index.set_size(&record.id, size + record.attachment_bytes());
        }
        // Even if the update was not written, the old file is still there: keep trying.
        index.due.insert((record.next_attempt_ms, record.id));
        written
    }

    /// Moves a message that will never be delivered to the dead letters, with its reason.
    pub async fn bury(&self, record: Record) -> anyhow::Result<()> {
        let bytes = serde_json::to_vec_pretty(&record).context("serialising the message")?;
        let paths = self.paths.clone();
        let id = record.id.clone();
        let moved = blocking("moving the message to the dead letters", move || {
            durable::write(&paths.dead, &file_name(&id), &bytes)?;
            durable::remove(&paths.outbox, &file_name(&id))
        })
        .await;
        self.after_move(&record.id, &moved);
        moved
    }

    /// Moves a file that cannot be read as a message to the dead letters, bytes unchanged.
    pub async fn bury_unreadable(&self, id: &str) -> anyhow::Result<()> {
        let moved = {
            let id = id.to_owned();
            let outbox = OutboxMover(self.paths.clone());
            blocking("moving an unreadable file to the dead letters", move || {
                outbox.move_to_dead(&id)
            })
            .await
        };
        self.after_move(id, &moved);
        moved
    }

    /// After a move of `id` to the dead letters: forgotten once moved; otherwise its file is
    /// still in the outbox, and it stays scheduled, so that the move is tried again after
    /// another attempt rather than at the next start.
    fn after_move(&self, id: &str, moved: &anyhow::Result<()>) {
        let mut index = self.lock();
        if moved.is_ok() {
            index.forget(id);
        } else {
            let later = now_ms() + BURY_RETRY.as_millis() as u64;
            index.due.insert((later, id.to_owned()));
        }
    }

    fn move_to_dead(&self, id: &str) -> anyhow::Result<()> {
        OutboxMover(self.paths.clone()).move_to_dead(id)
    }

    /// Checks that a file can be created in the outbox folder.
    pub async fn check_writable(&self) -> anyhow::Result<()> {
        let dir = self.paths.outbox.clone();
        blocking("checking the outbox folder", move || {
            tempfile::Builder::new()
                .prefix(durable::TEMP_PREFIX)
                .tempfile_in(&dir)
                .map(drop)
                .with_context(|| format!("creating a file in {}", dir.display()))
        })
        .await
    }
}

impl OutboxStore for FileOutbox {
    fn len(&self) -> BoxFuture<'_, anyhow::Result<usize>> {
        Box::pin(async move { Ok(FileOutbox::len(self)) })
    }
    fn contains<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<bool>> {
        Box::pin(async move { Ok(FileOutbox::contains(self, id)) })
    }
    fn enqueue(&self, record: Record) -> BoxFuture<'_, Result<(), EnqueueError>> {
        Box::pin(FileOutbox::enqueue(self, record))
    }
    fn enqueue_keyed<'a>(
        &'a self,
        _record: Record,
        _fingerprint: &'a str,
        _oldest_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Seen>, EnqueueError>> {
        // Files have no transaction over two folders.
        Box::pin(async { Ok(None) })
    }
    fn take_due(&self, now_ms: u64) -> BoxFuture<'_, anyhow::Result<Option<Taken>>> {
        Box::pin(async move {
            let Some(id) = FileOutbox::take_due(self, now_ms) else {
                return Ok(None);
            };
            Ok(Some(match self.load(&id).await {
                Ok(record) => Taken::Message(Box::new(record)),
                Err(error) => Taken::Unreadable { id, error },
            }))
        })
    }
    fn next_due(&self) -> BoxFuture<'_, anyhow::Result<Option<u64>>> {
        Box::pin(async move { Ok(FileOutbox::next_due(self)) })
    }
    fn delivered<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(FileOutbox::delivered(self, id))
    }
    fn retry_later(&self, record: Record) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(FileOutbox::retry_later(self, record))
    }
    fn release_claims(&self) -> BoxFuture<'_, anyhow::Result<()>> {
        // One process per data folder: there are no claims to give up.
        Box::pin(async { Ok(()) })
    }
    fn bury(&self, record: Record) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(FileOutbox::bury(self, record))
    }
    fn bury_unreadable<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(FileOutbox::bury_unreadable(self, id))
    }
    fn dead_letter<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<Option<Record>>> {
        Box::pin(FileOutbox::dead_letter(self, id))
    }
    fn depth(&self) -> BoxFuture<'_, anyhow::Result<Depth>> {
        Box::pin(FileOutbox::depth(self))
    }
    fn check_writable(&self) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(FileOutbox::check_writable(self))
    }
    fn dead_letters_place(&self) -> String {
        self.dead_dir().display().to_string()
    }
    fn waiting(&self) -> BoxFuture<'_, anyhow::Result<Vec<Record>>> {
        let dir = self.paths.outbox.clone();
        Box::pin(blocking("listing the outbox", move || read_all(&dir)))
    }
    fn dead(&self) -> BoxFuture<'_, anyhow::Result<Vec<Record>>> {
        let dir = self.paths.dead.clone();
        Box::pin(blocking("listing the dead letters", move || read_all(&dir)))
    }
    fn revive<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, anyhow::Result<bool>> {
        Box::pin(async move {
            let Some(record) = FileOutbox::dead_letter(self, id).await? else {
                return Ok(false);
            };
            let record = revived(record, now_ms);
            let bytes = serde_json::to_vec(&record).context("serialising the message")?;
            let paths = self.paths.clone();
            let name = file_name(id);
            blocking("moving the dead letter back", move || {
                durable::write(&paths.outbox, &name, &bytes)?;
                durable::remove(&paths.dead, &name)
            })
            .await?;
            let mut index = self.lock();
            index.set_size(id, quota_size(record.message.len(), &record));
            index.created_ms.insert(id.to_owned(), record.created_ms);
            index.due.insert((record.next_attempt_ms, id.to_owned()));
            Ok(true)
        })
    }
    fn purge<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<bool>> {
        let (dir, name) = (self.paths.dead.clone(), file_name(id));
        let files = self.paths.attachments.join(id);
        Box::pin(blocking("deleting the dead letter", move || {
            let present = dir.join(&name).exists();
            durable::remove(&dir, &name)?;
            if present {
                remove_attachments(&files)?;
            }
            Ok::<_, std::io::Error>(present)
        }))
    }
    fn attachment_chunk<'a>(
        &'a self,
        id: &'a str,
        index: usize,
        n: u32,
    ) -> BoxFuture<'a, anyhow::Result<Option<Vec<u8>>>> {
        let path = self.paths.attachments.join(id).join(index.to_string());
        Box::pin(blocking("reading an attachment", move || {
            read_chunk(&path, n)
        }))
    }
}

/// The chunk `n` of the file at `path` ([`OutboxStore::attachment_chunk`]).
fn read_chunk(path: &Path, n: u32) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let mut file = fs::File::open(path)?;
    file.seek(SeekFrom::Start(u64::from(n) * CHUNK_BYTES as u64))?;
    let mut chunk = Vec::with_capacity(CHUNK_BYTES);
    file.take(CHUNK_BYTES as u64).read_to_end(&mut chunk)?;
    Ok((n == 0 || !chunk.is_empty()).then_some(chunk))
}

/// Moves the spooled files of message `id` into `attachments/<id>/0`, `1`, ... durably: their
/// bytes (the spool wrote them and started their writeback, but left the fsync to the store),
/// the new folder in `attachments` and the names in it. Each of the three waits for the disk on
/// a thread of its own, at the same time; a crash before all are done may leave the folder
/// with files in part, which no record names (it is removed at the next start).
fn store_attachments(attachments: &Path, id: &str, spooled: &[PathBuf]) -> std::io::Result<()> {
    if spooled.is_empty() {
        return Ok(());
    }
    let dir = attachments.join(id);
    fs::create_dir_all(&dir)?;
    // Opened before they are moved; fsync needs no write access.
    let files = spooled
        .iter()
        .map(fs::File::open)
        .collect::<std::io::Result<Vec<_>>>()?;
    std::thread::scope(|scope| {
        let thread = || std::thread::Builder::new().name("contact-fsync".to_owned());
        let bytes =
            thread().spawn_scoped(scope, || files.iter().try_for_each(fs::File::sync_all))?;
        let folder = thread().spawn_scoped(scope, || durable::sync_dir(attachments))?;
        let names = (|| {
            for (index, path) in spooled.iter().enumerate() {
                fs::rename(path, dir.join(index.to_string()))?;
            }
            durable::sync_dir(&dir)
        })();
        let panicked = |_| Err(std::io::Error::other("an fsync panicked"));
        let (bytes, folder) = (
            bytes.join().unwrap_or_else(panicked),
            folder.join().unwrap_or_else(panicked),
        );
        names.and(bytes).and(folder)
    })
}

/// Removes a message's files, if it has any.
fn remove_attachments(dir: &Path) -> std::io::Result<()> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Every readable message in `dir`, oldest first.
fn read_all(dir: &Path) -> anyhow::Result<Vec<Record>> {
    let mut records: Vec<Record> = fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|x| x == "json"))
        .filter_map(|path| read_record(&path).ok())
        .collect();
    records.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
    Ok(records)
}

/// Runs file work on the blocking thread pool; `what` names it in the error.
async fn blocking<T, E>(
    what: &'static str,
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> anyhow::Result<T>
where
    T: Send + 'static,
    E: Into<anyhow::Error> + Send + 'static,
{
    tokio::task::spawn_blocking(work)
        .await
        .with_context(|| format!("the outbox task {what} stopped"))?
        .map_err(Into::into)
        .context(what)
}

/// Moves files between the folders; usable from a blocking thread.
struct OutboxMover(OutboxPaths);

impl OutboxMover {
    fn move_to_dead(&self, id: &str) -> anyhow::Result<()> {
        let name = file_name(id);
        fs::rename(self.0.outbox.join(&name), self.0.dead.join(&name))?;
        durable::sync_dir(&self.0.dead)?;
        durable::sync_dir(&self.0.outbox)?;
        Ok(())
    }
}

fn read_record(path: &Path) -> anyhow::Result<Record> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
}
