//! What the last builds used of the cache, and pruning the cache to that.
//!
//! Every build writes a record of the entries it used into `builds/`: the stored files of its
//! output, the memos it read or wrote (and those a memo that stands for them spared it from
//! reading), its bundle. Pruning keeps what the newest records name and removes everything
//! else, with whatever crashed builds left in `tmp/`. A build prunes the cache to the entries
//! of the last [`DEFAULT_KEEP_BUILDS`] builds: enough for the outputs a contributor keeps side
//! by side (`dist/`, the tests' build, a branch or two) to stay warm, while a content or design
//! change stops costing disk once a few builds have passed it. Pruning walks the whole cache
//! (52,000 files, a tenth of a second, at 5,000 articles: as long as the rest of a one-article
//! rebuild's bookkeeping), so a build prunes only once the records reach [`PRUNE_AT`]: every
//! [`DEFAULT_KEEP_BUILDS`]th build, and the cache holds at most [`PRUNE_AT`] builds' entries.
//!
//! A build that used exactly what the previous one did (a rebuild with nothing changed) only
//! renames that record to its own time, so repeating a build neither grows the cache nor
//! forgets older builds, and costs no walk of the cache.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{self, File, TryLockError};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::PoisonError;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::{Cache, hash_hex, write_atomic};

/// How many builds' entries a build leaves in the cache when it prunes it.
pub const DEFAULT_KEEP_BUILDS: usize = 5;

/// How many records of builds there are when a build prunes the cache: twice
/// [`DEFAULT_KEEP_BUILDS`], so that a prune comes every [`DEFAULT_KEEP_BUILDS`] builds.
const PRUNE_AT: usize = 2 * DEFAULT_KEEP_BUILDS;

/// The name of the lock file in the cache folder.
const LOCK_FILE: &str = "lock";
/// The folder of the records of builds.
const BUILDS_DIR: &str = "builds";
/// The folders of entries (see the cache's module documentation).
const FILES_DIR: &str = "files";
const MEMO_DIR: &str = "memo";
const BUNDLES_DIR: &str = "bundles";
const TMP_DIR: &str = "tmp";

/// How many digits of a record's digest its file name holds.
const DIGEST_DIGITS: usize = 16;

/// How a process holds the cache's lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Using the cache: any number of processes at once.
    Shared,
    /// Pruning it: no other process.
    Exclusive,
}

/// Takes the cache's lock at `root`, waiting (and saying so) while another process holds it
/// the other way; `None` where the file system has no locks.
pub fn lock(root: &Path, access: Access) -> Result<Option<File>> {
    let path = root.join(LOCK_FILE);
    let file = lock_file(&path)?;
    let tried = match access {
        Access::Shared => file.try_lock_shared(),
        Access::Exclusive => file.try_lock(),
    };
    match tried {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => {
            match access {
                Access::Shared => {
                    eprintln!("waiting for `sitegen cache prune` to finish with {}", root.display());
                    file.lock_shared()
                }
                Access::Exclusive => {
                    eprintln!(
                        "waiting for the sitegen processes using {} (builds, `sitegen dev`) to finish",
                        root.display()
                    );
                    file.lock()
                }
            }
            .with_context(|| format!("locking {}", path.display()))?;
            Ok(Some(file))
        }
        Err(TryLockError::Error(_)) => Ok(None),
    }
}

/// Opens (creating it) the file at `path` that a lock is taken on.
pub(super) fn lock_file(path: &Path) -> Result<File> {
    fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

/// The entry a file of `files/` or `memo/` belongs to: its name up to the first dot (a stored
/// file's variants and side files are `<hash>.br`, `<hash>.scan`, ...). A temporary file
/// (`.tmpXXXXXX`) belongs to none.
pub fn entry_of(name: &str) -> &str {
    name.split('.').next().unwrap_or_default()
}

/// What one build used.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// When it finished, in milliseconds since the Unix epoch.
    time_ms: u64,
    /// The output directory it published.
    out: PathBuf,
    /// The bundles, by hash.
    bundles: Vec<String>,
    /// The stored files, by hash.
    files: Vec<String>,
    /// The memos, by key.
    memo: Vec<String>,
}

impl Record {
    fn digest(&self) -> String {
        let mut parts: Vec<&[u8]> = vec![self.out.as_os_str().as_encoded_bytes()];
        for list in [&self.bundles, &self.files, &self.memo] {
            parts.push(b"|");
            parts.extend(list.iter().map(String::as_bytes));
        }
        hash_hex(&parts)
    }
}

/// A record's file name: its time (so names sort by it), then its digest.
fn record_name(time: Duration, digest: &str) -> String {
    format!("{:020}-{}.json", time.as_nanos(), &digest[..DIGEST_DIGITS])
}

fn digest_of(name: &str) -> Option<&str> {
    name.strip_suffix(".json")?.split_once('-').map(|(_, d)| d)
}

/// The records' file names, newest first.
fn record_names(root: &Path) -> Result<Vec<String>> {
    let dir = root.join(BUILDS_DIR);
    let mut names = Vec::new();
    match fs::read_dir(&dir) {
        Err(err) if err.kind() == ErrorKind::NotFound => {}
        Err(err) => return Err(err).with_context(|| format!("reading {}", dir.display())),
        Ok(entries) => {
            for entry in entries {
                let name = entry
                    .with_context(|| format!("reading {}", dir.display()))?
                    .file_name()
                    .to_string_lossy()
                    .into_owned();
                if digest_of(&name).is_some() {
                    names.push(name);
                }
            }
        }
    }
    names.sort_unstable_by(|a, b| b.cmp(a));
    Ok(names)
}

fn now() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

/// What a prune did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pruned {
    /// The builds whose entries were kept.
    pub kept_builds: usize,
    /// Files removed.
    pub removed_files: u64,
    /// Their bytes.
    pub removed_bytes: u64,
    /// The bytes left in the cache's entries.
    pub size: u64,
}

/// How much a prune keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// The entries of this many of the newest builds.
    pub builds: usize,
    /// At most this many bytes: the newest builds whose entries together fit (the newest
    /// build's entries are kept whatever their size).
    pub max_size: Option<u64>,
}

impl Default for Keep {
    fn default() -> Self {
        Self {
            builds: DEFAULT_KEEP_BUILDS,
            max_size: None,
        }
    }
}

impl Cache {
    /// Records what this build, published into `out`, used of the cache; then, when it used
    /// something the last build did not, the records number [`PRUNE_AT`] and no other sitegen
    /// is using the cache, prunes it to the last [`DEFAULT_KEEP_BUILDS`] builds' entries.
    pub fn finish_build(&self, out: &Path) -> Result<Option<Pruned>> {
        if self._scratch.is_some() {
            return Ok(None);
        }
        let out = std::path::absolute(out).unwrap_or_else(|_| out.to_owned());
        let sorted = |set: &std::sync::Mutex<HashSet<String>>| {
            let mut list: Vec<String> = set
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .iter()
                .cloned()
                .collect();
            list.sort_unstable();
            list
        };
        let record = Record {
            time_ms: u64::try_from(now().as_millis()).unwrap_or(u64::MAX),
            out,
            bundles: self
                .used
                .bundles
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .iter()
                .cloned()
                .collect(),
            files: sorted(&self.used.files),
            memo: sorted(&self.used.memo),
        };
        let digest = record.digest();
        let dir = self.root.join(BUILDS_DIR);
        let name = record_name(now(), &digest);
        let names = record_names(&self.root)?;
        if let Some(last) = names.first()
            && digest_of(last) == Some(&digest[..DIGEST_DIGITS])
        {
            // The same as the last build: it becomes this one, and nothing was added.
            fs::rename(dir.join(last), dir.join(&name))
                .with_context(|| format!("renaming {}", dir.join(last).display()))?;
            return Ok(None);
        }
        let bytes = serde_json::to_vec(&record).context("recording the build")?;
        write_atomic(&dir.join(&name), &bytes)?;
        // This build's record is one more than were listed.
        let Some(lock) = self.lock.as_ref().filter(|_| names.len() + 1 >= PRUNE_AT) else {
            return Ok(None);
        };
        // Pruning needs the cache alone; another sitegen using it will prune after its build.
        match lock.try_lock() {
            Ok(()) => {
                let pruned = prune_locked(&self.root, Keep::default());
                lock.lock_shared()
                    .with_context(|| format!("locking {}", self.root.display()))?;
                pruned.map(Some)
            }
            Err(TryLockError::WouldBlock) => {
                // The conversion may have let go of the shared lock: take it again.
                lock.lock_shared()
                    .with_context(|| format!("locking {}", self.root.display()))?;
                Ok(None)
            }
            Err(TryLockError::Error(err)) => {
                Err(err).with_context(|| format!("locking {}", self.root.display()))
            }
        }
    }
}

/// Removes from the cache at `root` every entry that the builds `keep` names did not use,
/// and what crashed builds left behind, waiting for the processes using it to finish.
pub fn prune(root: &Path, keep: Keep) -> Result<Pruned> {
    let _lock = lock(root, Access::Exclusive)?;
    prune_locked(root, keep)
}

/// One file of the cache's entries.
#[derive(Debug)]
struct Item {
    kind: Kind,
    /// The entry it belongs to (a hash or a memo key).
    entry: String,
    path: PathBuf,
    len: u64,
}

/// The kinds of entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    File,
    Memo,
    Bundle,
    /// Left by a build in progress, or by one that crashed.
    Temporary,
}

/// Every file of the cache's entries.
fn inventory(root: &Path) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    for (kind, dir) in [
        (Kind::File, FILES_DIR),
        (Kind::Memo, MEMO_DIR),
        (Kind::Bundle, BUNDLES_DIR),
        (Kind::Temporary, TMP_DIR),
    ] {
        let dir = root.join(dir);
        if !dir.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&dir).min_depth(1) {
            let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
            if entry.file_type().is_dir() {
                continue;
            }
            let rel = entry.path().strip_prefix(&dir).unwrap_or(entry.path());
            let entry_name = match kind {
                // bundles/<hash>/...: the whole folder is one entry.
                Kind::Bundle | Kind::Temporary => rel
                    .components()
                    .next()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .unwrap_or_default(),
                Kind::File | Kind::Memo => {
                    entry_of(&entry.file_name().to_string_lossy()).to_owned()
                }
            };
            let len = entry
                .path()
                .symlink_metadata()
                .map(|m| m.len())
                .unwrap_or(0);
            items.push(Item {
                kind,
                entry: entry_name,
                path: entry.into_path(),
                len,
            });
        }
    }
    Ok(items)
}

/// The entries a record names, by kind.
fn entries(record: &Record) -> impl Iterator<Item = (Kind, &str)> {
    record
        .bundles
        .iter()
        .map(|e| (Kind::Bundle, e.as_str()))
        .chain(record.files.iter().map(|e| (Kind::File, e.as_str())))
        .chain(record.memo.iter().map(|e| (Kind::Memo, e.as_str())))
}

fn read_record(dir: &Path, name: &str) -> Option<Record> {
    fs::read(dir.join(name))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
}

/// Entries by kind.
#[derive(Debug, Default)]
struct Kept(HashMap<Kind, HashSet<String>>);

impl Kept {
    fn contains(&self, kind: Kind, entry: &str) -> bool {
        self.0.get(&kind).is_some_and(|set| set.contains(entry))
    }
}

fn prune_locked(root: &Path, keep: Keep) -> Result<Pruned> {
    let dir = root.join(BUILDS_DIR);
    let names = record_names(root)?;
    let items = inventory(root)?;
    let mut sizes: HashMap<(Kind, &str), u64> = HashMap::new();
    for item in &items {
        *sizes.entry((item.kind, item.entry.as_str())).or_default() += item.len;
    }
    // The newest builds, as many as `keep` allows.
    let mut kept_names = Vec::new();
    let mut kept = Kept::default();
    let mut size = 0;
    for name in names.iter().take(keep.builds) {
        let Some(record) = read_record(&dir, name) else {
            continue;
        };
        let new: Vec<(Kind, &str)> = entries(&record)
            .filter(|(kind, e)| !kept.contains(*kind, e))
            .collect();
        let added: u64 = new
            .iter()
            .map(|key| sizes.get(key).copied().unwrap_or(0))
            .sum();
        if let Some(max) = keep.max_size
            && !kept_names.is_empty()
            && size + added > max
        {
            break;
        }
        size += added;
        for (kind, e) in new {
            kept.0.entry(kind).or_default().insert(e.to_owned());
        }
        kept_names.push(name.clone());
    }
    let mut pruned = Pruned {
        kept_builds: kept_names.len(),
        size,
        ..Pruned::default()
    };
    let mut folders_gone = HashSet::new();
    for item in &items {
        if kept.contains(item.kind, &item.entry) {
            continue;
        }
        pruned.removed_bytes += item.len;
        pruned.removed_files += 1;
        match item.kind {
            Kind::Bundle | Kind::Temporary => {
                folders_gone.insert((item.kind, item.entry.clone()));
            }
            Kind::File | Kind::Memo => match fs::remove_file(&item.path) {
                Err(err) if err.kind() != ErrorKind::NotFound => {
                    return Err(err).with_context(|| format!("removing {}", item.path.display()));
                }
                _ => {}
            },
        }
    }
    for (kind, entry) in folders_gone {
        let path = root
            .join(if kind == Kind::Bundle {
                BUNDLES_DIR
            } else {
                TMP_DIR
            })
            .join(&entry);
        let removed = if path.is_dir() {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        };
        match removed {
            Err(err) if err.kind() != ErrorKind::NotFound => {
                return Err(err).with_context(|| format!("removing {}", path.display()));
            }
            _ => {}
        }
    }
    for name in names.iter().filter(|n| !kept_names.contains(n)) {
        let _ = fs::remove_file(dir.join(name));
    }
    Ok(pruned)
}

/// What `sitegen cache` shows: where the cache is, what it holds and what the last builds
/// used of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// The cache folder.
    pub root: PathBuf,
    /// Bytes and files of each kind of entry: stored files, memos, bundles, temporary.
    pub kinds: [(&'static str, u64, u64); 4],
    /// The last builds, newest first.
    pub builds: Vec<BuildInfo>,
    /// The bytes no build of `builds` uses (what [`prune`] with `builds.len()` would remove).
    pub unused: u64,
}

/// One build of [`Info`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildInfo {
    /// When it finished.
    pub time: SystemTime,
    /// Its output directory.
    pub out: PathBuf,
    /// The files of the entries it used.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// What the cache at `root` holds.
pub fn info(root: &Path) -> Result<Info> {
    let dir = root.join(BUILDS_DIR);
    let items = inventory(root)?;
    let mut sizes: HashMap<(Kind, &str), (u64, u64)> = HashMap::new();
    let mut kinds: BTreeMap<Kind, (u64, u64)> = BTreeMap::new();
    for item in &items {
        let size = sizes.entry((item.kind, item.entry.as_str())).or_default();
        size.0 += 1;
        size.1 += item.len;
        let kind = kinds.entry(item.kind).or_default();
        kind.0 += 1;
        kind.1 += item.len;
    }
    let mut builds = Vec::new();
    let mut used: HashSet<(Kind, &str)> = HashSet::new();
    let records: Vec<Record> = record_names(root)?
        .iter()
        .filter_map(|name| read_record(&dir, name))
        .collect();
    for record in &records {
        let (mut files, mut bytes) = (0, 0);
        for key in entries(record) {
            let (n, len) = sizes.get(&key).copied().unwrap_or_default();
            files += n;
            bytes += len;
            used.insert(key);
        }
        builds.push(BuildInfo {
            time: UNIX_EPOCH + Duration::from_millis(record.time_ms),
            out: record.out.clone(),
            files,
            bytes,
        });
    }
    let unused = items
        .iter()
        .filter(|item| !used.contains(&(item.kind, item.entry.as_str())))
        .map(|item| item.len)
        .sum();
    let of = |kind| kinds.get(&kind).copied().unwrap_or_default();
    Ok(Info {
        root: root.to_owned(),
        kinds: [
            ("stored files", of(Kind::File).0, of(Kind::File).1),
            ("memos", of(Kind::Memo).0, of(Kind::Memo).1),
            ("bundles", of(Kind::Bundle).0, of(Kind::Bundle).1),
            ("temporary", of(Kind::Temporary).0, of(Kind::Temporary).1),
        ],
        builds,
        unused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build that uses a memo of its own, the `n`th into `root`: what it pruned.
    fn build(root: &Path, n: usize) -> Result<Option<Pruned>> {
        let cache = Cache::open(Some(root))?;
        cache.remember(&hash_hex(&[&n.to_le_bytes()]), b"a memo")?;
        cache.finish_build(&root.join("out"))
    }

    #[test]
    fn a_build_prunes_the_cache_once_the_records_reach_twice_the_builds_kept() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path().join("cache");
        for n in 1..PRUNE_AT {
            assert_eq!(build(&root, n)?, None, "build {n} pruned");
        }
        assert_eq!(record_names(&root)?.len(), PRUNE_AT - 1);
        let pruned = build(&root, PRUNE_AT)?.expect("a prune at the record that makes PRUNE_AT");
        assert_eq!(pruned.kept_builds, DEFAULT_KEEP_BUILDS);
        // The memos of the builds before the last five.
        assert_eq!(
            pruned.removed_files,
            (PRUNE_AT - DEFAULT_KEEP_BUILDS) as u64
        );
        assert_eq!(record_names(&root)?.len(), DEFAULT_KEEP_BUILDS);
        assert_eq!(
            build(&root, PRUNE_AT + 1)?,
            None,
            "the next build prunes nothing"
        );
        Ok(())
    }
}
