//! The build cache: one folder outside the sources, shared by every build on the machine.
//!
//! Everything in it is addressed by a hash of what it was made from, so builds of different
//! content (two checkouts, two branches, side by side) share it safely and a stale entry can
//! never be read for a new input:
//!
//! - `bundles/<site hash>/`: the site's Vite build (client and server bundles, no content),
//!   keyed by the site's own inputs (see [`crate::bundle`]);
//! - `files/<ab>/<hash>`: a file of some output (a page, the feed, a search shard) by the hash
//!   of its bytes, with its `.br` and `.gz` variants and, for a page, what [`crate::scan`]
//!   read of it (`<hash>.scan`);
//! - `memo/<ab>/<key>`: what a step produced, by the hash of its inputs: a page's rendering
//!   ([`crate::render`]), a run of the search index ([`crate::search`]), the size report of an
//!   output that passed verification; and, by bundle, what each page read of the content, which
//!   a build checks against its content before trusting it;
//! - `outputs/<hash of the path>`: what each output directory holds, so a rebuild touches only
//!   the files that changed (see [`crate::publish::publish_plan`]);
//! - `builds/`: what each of the last builds used, by which the cache is trimmed (see
//!   [`usage`]);
//! - `tmp/`: files of a build in progress.
//!
//! Entries are written under a temporary name and renamed into place, so a build that stops
//! half-way leaves nothing half-written, and each stored file's bytes are checked against its
//! name before they are published (see [`Store::expected`]): an entry torn by a crash or a
//! disk error is dropped and made again rather than published. A memo carries the hash of its
//! own bytes, checked each time it is read ([`Cache::recall`]): a damaged one is a miss. Output files are copies (see
//! [`crate::publish::publish_plan`]): nothing done to an output reaches the cache.
//!
//! Every sitegen process using the cache holds a shared lock on `lock` for as long as it
//! does; pruning takes it exclusively, so it never removes what a running build is using.
//! Deleting the folder is always safe: the next build makes what it needs again.
//!
//! The cache of a `--no-cache` build ([`Cache::fresh`]) is its own and gone when it ends, so
//! what only it would read later stays in memory: its memos and the pages' scans. Its files
//! are written in place (no other process reads them, and a build that stops removes them
//! all), without a list of their variants' hashes (it checks nothing it wrote), and are moved
//! into the output rather than copied (see [`Store::throwaway`]).

mod frame;
pub mod usage;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Context, Result};
use tempfile::TempDir;

use crate::compress::{self, Encoding};

/// The environment variable naming the cache folder (also `--cache-dir`).
pub const CACHE_ENV: &str = "SITEGEN_CACHE_DIR";

/// The build cache folder.
#[derive(Debug)]
pub struct Cache {
    root: PathBuf,
    /// The shared lock on `lock`, held while this process uses the cache (see the module
    /// documentation); `None` where the file system has no locks.
    lock: Option<File>,
    /// What this process read or wrote of the cache, for [`usage`].
    used: Arc<Used>,
    /// With `--no-cache`: what the build keeps in memory rather than in its own folder.
    memory: Option<Arc<Memory>>,
    /// With `--no-cache`: a fresh folder, removed when the build ends. Declared last, so
    /// the lock is released before the folder goes.
    _scratch: Option<TempDir>,
}

/// What a throwaway cache ([`Cache::fresh`]) holds in memory: what nothing reads once the
/// build ends.
#[derive(Debug, Default)]
struct Memory {
    /// Memos by key.
    memos: Mutex<HashMap<String, Vec<u8>>>,
    /// Side files of stored files (`<hash>.scan`), by name.
    sides: Mutex<HashMap<String, Vec<u8>>>,
}

/// The entries a process used, and the files it wrote itself.
#[derive(Debug, Default)]
struct Used {
    /// Stored files by hash (with their variants and side files).
    files: Mutex<HashSet<String>>,
    /// The stored files this process wrote: their bytes need no check before they are
    /// published.
    fresh: Mutex<HashSet<String>>,
    /// Memo keys recalled or remembered.
    memo: Mutex<HashSet<String>>,
    /// Bundles by hash.
    bundles: Mutex<BTreeSet<String>>,
    /// Memo keys found damaged when they were read (and removed).
    damaged_memos: Mutex<HashSet<String>>,
}

fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn insert(set: &Mutex<HashSet<String>>, item: &str) {
    insert_all(set, [item]);
}

fn insert_all<'i>(set: &Mutex<HashSet<String>>, items: impl IntoIterator<Item = &'i str>) {
    let mut set = set.lock().unwrap_or_else(PoisonError::into_inner);
    for item in items {
        if !set.contains(item) {
            set.insert(item.to_owned());
        }
    }
}

impl Cache {
    /// The cache at `dir`, or where the platform keeps caches: `$XDG_CACHE_HOME/sitegen`, else
    /// `~/.cache/sitegen`.
    pub fn open(dir: Option<&Path>) -> Result<Self> {
        let root = dir_or_default(dir)?;
        let root =
            std::path::absolute(&root).with_context(|| format!("resolving {}", root.display()))?;
        std::fs::create_dir_all(root.join("tmp"))
            .with_context(|| format!("creating the build cache {}", root.display()))?;
        let lock = usage::lock(&root, usage::Access::Shared)?;
        Ok(Self {
            root,
            lock,
            used: Arc::default(),
            memory: None,
            _scratch: None,
        })
    }

    /// An empty cache of this build's own, removed when it is dropped (`--no-cache`).
    pub fn fresh() -> Result<Self> {
        let scratch = tempfile::Builder::new()
            .prefix("sitegen-cache-")
            .tempdir()
            .context("creating a temporary build cache")?;
        let mut cache = Self::open(Some(scratch.path()))?;
        cache._scratch = Some(scratch);
        cache.memory = Some(Arc::default());
        Ok(cache)
    }

    /// The cache folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the bundle built from the site inputs hashed `hash` lives.
    pub fn bundle_dir(&self, hash: &str) -> PathBuf {
        self.used
            .bundles
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(hash.to_owned());
        self.root.join("bundles").join(hash)
    }

    /// Drops the entry `path` is part of (a stored file with its variants and side files, or
    /// a bundle), whose bytes were found not to match its name: the next build makes it
    /// again.
    pub fn drop_entry(&self, path: &Path) -> Result<()> {
        let Ok(rel) = path.strip_prefix(&self.root) else {
            anyhow::bail!(
                "{} is not in the cache {}",
                path.display(),
                self.root.display()
            );
        };
        let mut parts = rel.components().map(|c| c.as_os_str().to_string_lossy());
        match (parts.next().as_deref(), parts.next(), parts.next()) {
            (Some("bundles"), Some(hash), _) => {
                let dir = self.root.join("bundles").join(hash.as_ref());
                // Moved aside first, so no build finds half of it.
                let aside = self.scratch("dropped-")?;
                let to = aside.path().join("bundle");
                match std::fs::rename(&dir, &to) {
                    Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                        Err(err).with_context(|| format!("removing {}", dir.display()))
                    }
                    _ => Ok(()),
                }
            }
            (Some("files"), Some(_), Some(name)) => {
                let hash = usage::entry_of(&name);
                let dir = path.parent().unwrap_or(&self.root);
                // The file, its variants and its side files: every name that starts with it.
                for entry in
                    std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?
                {
                    let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
                    if usage::entry_of(&entry.file_name().to_string_lossy()) == hash {
                        match std::fs::remove_file(entry.path()) {
                            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                                return Err(err).with_context(|| {
                                    format!("removing {}", entry.path().display())
                                });
                            }
                            _ => {}
                        }
                    }
                }
                Ok(())
            }
            _ => anyhow::bail!("{} is no entry of the cache", path.display()),
        }
    }

    /// A new temporary folder for work in progress, removed on drop.
    pub fn scratch(&self, prefix: &str) -> Result<TempDir> {
        tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in(self.root.join("tmp"))
            .with_context(|| format!("creating a work folder in {}", self.root.display()))
    }

    /// The content-addressed file store.
    pub fn files(&self) -> Store {
        Store {
            dir: self.root.join("files"),
            used: Some(Arc::clone(&self.used)),
            memory: self.memory.clone(),
        }
    }

    /// Where the record of what the output directory `out` holds is kept (see
    /// [`crate::publish::publish_plan`]), by its absolute path.
    pub fn output_record(&self, out: &Path) -> Result<PathBuf> {
        let out =
            std::path::absolute(out).with_context(|| format!("resolving {}", out.display()))?;
        let key = hash_hex(&[out.as_os_str().as_encoded_bytes()]);
        Ok(self.root.join("outputs").join(key))
    }

    /// Locks the output directory whose record is `record` (see [`Cache::output_record`])
    /// for this process until the lock is dropped, waiting while another build publishes
    /// into it; `None` where the file system has no locks.
    pub fn lock_output(&self, record: &Path) -> Result<Option<File>> {
        let mut path = record.as_os_str().to_owned();
        path.push(".lock");
        if let Some(dir) = record.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let file = usage::lock_file(Path::new(&path))?;
        Ok(file.lock().is_ok().then_some(file))
    }

    /// What was remembered under `key` (see [`Cache::remember`]). A memo whose bytes no
    /// longer match the hash stored with them (a torn write, a disk error) is a miss, with a
    /// warning, and is removed: the step runs again and remembers it anew.
    pub fn recall(&self, key: &str) -> Option<Vec<u8>> {
        let value = match &self.memory {
            Some(memory) => locked(&memory.memos).get(key).cloned()?,
            None => {
                let path = self.memo_path(key);
                match frame::unframe(std::fs::read(&path).ok()?) {
                    frame::Unframed::Value(value) => value,
                    frame::Unframed::Foreign => return None,
                    frame::Unframed::Damaged => {
                        eprintln!(
                            "warning: the memo {} of the build cache no longer matches its hash \
                             (a torn write or a disk error); making it again",
                            path.display()
                        );
                        insert(&self.used.damaged_memos, key);
                        // Best effort: remembering it again replaces it anyway.
                        let _ = std::fs::remove_file(&path);
                        return None;
                    }
                }
            }
        };
        insert(&self.used.memo, key);
        Some(value)
    }

    /// How many memos this process found damaged when it read them ([`Cache::recall`]).
    pub fn damaged_memos(&self) -> usize {
        locked(&self.used.damaged_memos).len()
    }

    /// Notes that this build uses the memos `keys` without recalling them: those a memo that
    /// stands for them made unnecessary to read (see [`usage`]).
    pub fn note_memos<'k>(&self, keys: impl IntoIterator<Item = &'k str>) {
        insert_all(&self.used.memo, keys);
    }

    /// Remembers `value` under `key`, a hash of everything `value` was made from.
    pub fn remember(&self, key: &str, value: &[u8]) -> Result<()> {
        insert(&self.used.memo, key);
        match &self.memory {
            Some(memory) => {
                locked(&memory.memos).insert(key.to_owned(), value.to_vec());
                Ok(())
            }
            None => write_atomic(&self.memo_path(key), &frame::frame(value)),
        }
    }

    fn memo_path(&self, key: &str) -> PathBuf {
        fanned_out(&self.root.join("memo"), key)
    }
}

/// The cache folder this command line would use: `dir`, else the platform's.
pub fn dir_or_default(dir: Option<&Path>) -> Result<PathBuf> {
    match dir {
        Some(dir) => Ok(dir.to_owned()),
        None => default_dir().context(
            "no cache folder: set SITEGEN_CACHE_DIR or --cache-dir (neither XDG_CACHE_HOME \
             nor HOME is set)",
        ),
    }
}

fn default_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
    Some(base.join("sitegen"))
}

/// `dir/ab/abcdef...`: a level of 256 folders keeps each one small.
fn fanned_out(dir: &Path, hash: &str) -> PathBuf {
    dir.join(hash.get(..2).unwrap_or("00")).join(hash)
}

/// A file of the store: its hash and what the size report needs of it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The hash of its bytes.
    pub hash: String,
    /// The size of its `.gz` variant, when it has variants.
    pub gzip_len: Option<u64>,
}

/// Files by the hash of their bytes, each with its compressed variants: a file is compressed
/// once, however many builds publish it.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    /// Where the files it stores and checks are noted.
    used: Option<Arc<Used>>,
    /// A throwaway cache's memory (see [`Store::throwaway`]).
    memory: Option<Arc<Memory>>,
}

/// The suffix of the side file listing the hashes of a stored file's variants.
pub const SUMS_SUFFIX: &str = ".sums";

/// The mode of a stored file: read-only, so that no process writes into one by mistake.
const STORED_MODE: u32 = 0o444;

impl Store {
    /// Stores `bytes`, published as `name` (whose extension says whether it gets `.br` and
    /// `.gz` variants), compressing them unless the same bytes are stored already.
    pub fn put(&self, name: &str, bytes: &[u8]) -> Result<Stored> {
        self.put_as(name, bytes, hash_hex(&[bytes]))
    }

    /// Stores `bytes` as [`Store::put`] does, published under the name `name` makes of their
    /// hash (a content-hashed name, with [`name_hash`] in it): the name and the stored file.
    pub fn put_named(
        &self,
        bytes: &[u8],
        name: impl FnOnce(&str) -> String,
    ) -> Result<(String, Stored)> {
        let hash = hash_hex(&[bytes]);
        let name = name(&hash);
        let stored = self.put_as(&name, bytes, hash)?;
        Ok((name, stored))
    }

    fn put_as(&self, name: &str, bytes: &[u8], hash: String) -> Result<Stored> {
        if self.memory.is_some() {
            return self.put_throwaway(name, bytes, hash);
        }
        let path = self.path(&hash);
        let compressible = compress::is_compressible(name, bytes.len() as u64);
        if !path.is_file() {
            if compressible {
                let mut sums = std::collections::BTreeMap::new();
                for encoding in Encoding::PREFERRED {
                    let variant = encoding.compress(bytes);
                    sums.insert(encoding.suffix(), hash_hex(&[&variant]));
                    write_stored(&compress::variant_path(&path, encoding), &variant)?;
                }
                let sums = serde_json::to_vec(&sums).context("listing the variants")?;
                write_stored(&self.side_file(&hash, SUMS_SUFFIX), &sums)?;
            }
            // The file last: once it is there, its variants are too.
            write_stored(&path, bytes)?;
            if let Some(used) = &self.used {
                insert(&used.fresh, &hash);
            }
        }
        self.note(&hash);
        let gzip_len = if compressible {
            Some(
                std::fs::metadata(compress::variant_path(&path, Encoding::Gzip))
                    .with_context(|| format!("reading {}", path.display()))?
                    .len(),
            )
        } else {
            None
        };
        Ok(Stored { hash, gzip_len })
    }

    /// [`Store::put_as`] in a throwaway cache: every file in it is this process's, so the
    /// first to claim a hash writes it, in place and with no list of its variants; the
    /// others only need the size of its `.gz`.
    fn put_throwaway(&self, name: &str, bytes: &[u8], hash: String) -> Result<Stored> {
        let compressible = compress::is_compressible(name, bytes.len() as u64);
        let claimed = self
            .used
            .as_ref()
            .is_none_or(|used| locked(&used.fresh).insert(hash.clone()));
        self.note(&hash);
        if !claimed {
            let gzip_len = compressible.then(|| compress::gzip_bytes(bytes).len() as u64);
            return Ok(Stored { hash, gzip_len });
        }
        let path = self.path(&hash);
        let mut gzip_len = None;
        if compressible {
            for encoding in Encoding::PREFERRED {
                let variant = encoding.compress(bytes);
                if encoding == Encoding::Gzip {
                    gzip_len = Some(variant.len() as u64);
                }
                write_new(&compress::variant_path(&path, encoding), &variant)?;
            }
        }
        write_new(&path, bytes)?;
        Ok(Stored { hash, gzip_len })
    }

    /// Whether this is a throwaway cache's store ([`Cache::fresh`]): its files can be moved
    /// into the output, as nothing reads them once the build ends.
    pub fn throwaway(&self) -> bool {
        self.memory.is_some()
    }

    /// Keeps `bytes` as the side file `suffix` of the stored file hashed `hash` (its scan).
    pub fn put_side(&self, hash: &str, suffix: &str, bytes: Vec<u8>) -> Result<()> {
        match &self.memory {
            Some(memory) => {
                locked(&memory.sides).insert(format!("{hash}{suffix}"), bytes);
                Ok(())
            }
            None => write_atomic(&self.side_file(hash, suffix), &bytes),
        }
    }

    /// The side file `suffix` of the stored file hashed `hash`, if it is kept.
    pub fn side(&self, hash: &str, suffix: &str) -> Result<Vec<u8>> {
        match &self.memory {
            Some(memory) => locked(&memory.sides)
                .get(&format!("{hash}{suffix}"))
                .cloned()
                .with_context(|| format!("no {suffix} of {hash} in the build's memory")),
            None => {
                let side = self.side_file(hash, suffix);
                std::fs::read(&side).with_context(|| format!("reading {}", side.display()))
            }
        }
    }

    /// Whether the side file `suffix` of the stored file hashed `hash` is kept.
    pub fn has_side(&self, hash: &str, suffix: &str) -> bool {
        match &self.memory {
            Some(memory) => locked(&memory.sides).contains_key(&format!("{hash}{suffix}")),
            None => self.side_file(hash, suffix).is_file(),
        }
    }

    /// Whether the file hashed `hash` is stored.
    pub fn contains(&self, hash: &str) -> bool {
        self.path(hash).is_file()
    }

    /// Notes that this build uses the file hashed `hash` (see [`usage`]).
    pub fn note(&self, hash: &str) {
        if let Some(used) = &self.used {
            insert(&used.files, hash);
        }
    }

    /// What the bytes of the stored file hashed `hash`, or of its variant `encoding`, must
    /// hash to before they are published: [`Expected::Fresh`] when this process wrote them. A variant's hash is read from the file's list of them; a missing
    /// or unreadable list names no hash, so the entry is taken as damaged.
    pub fn expected(&self, hash: &str, encoding: Option<Encoding>) -> Expected {
        if self.used.as_ref().is_some_and(|used| {
            used.fresh
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .contains(hash)
        }) {
            return Expected::Fresh;
        }
        match encoding {
            None => Expected::Hash(hash.to_owned()),
            Some(encoding) => Expected::Listed {
                list: self.side_file(hash, SUMS_SUFFIX),
                key: encoding.suffix().to_owned(),
            },
        }
    }

    /// The stored file hashed `hash`.
    pub fn path(&self, hash: &str) -> PathBuf {
        fanned_out(&self.dir, hash)
    }

    /// The size of the `.gz` variant of the file hashed `hash`, if it has one.
    pub fn gzip_len(&self, hash: &str) -> Option<u64> {
        std::fs::metadata(compress::variant_path(&self.path(hash), Encoding::Gzip))
            .ok()
            .map(|m| m.len())
    }

    /// A side file of the stored file hashed `hash` (`<hash>.scan`).
    pub fn side_file(&self, hash: &str, suffix: &str) -> PathBuf {
        let mut path = self.path(hash).into_os_string();
        path.push(suffix);
        path.into()
    }
}

/// What the bytes of a file to publish must hash to (with [`hash_hex`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// Nothing to check: this process wrote them.
    Fresh,
    /// This hash.
    Hash(String),
    /// The hash under `key` in the JSON object of the file `list`.
    Listed {
        /// The list (a stored file's [`SUMS_SUFFIX`] side file, a bundle's sums).
        list: PathBuf,
        /// The file's key in it.
        key: String,
    },
}

impl Expected {
    /// Whether `bytes` are what was expected.
    pub fn matches(&self, bytes: &[u8]) -> bool {
        let expected = match self {
            Self::Fresh => return true,
            Self::Hash(hash) => hash.clone(),
            Self::Listed { list, key } => {
                let Some(hash) = std::fs::read(list)
                    .ok()
                    .and_then(|list| {
                        serde_json::from_slice::<std::collections::BTreeMap<String, String>>(&list)
                            .ok()
                    })
                    .and_then(|mut list| list.remove(key))
                else {
                    return false;
                };
                hash
            }
        };
        hash_hex(&[bytes]) == expected
    }
}

/// Writes `bytes` to a new file at `path` in place, creating its folder: a throwaway cache's
/// file, with the mode the umask gives, as an output's files have.
fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
    };
    let mut file = match create() {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let dir = path.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            create()
        }
        other => other,
    }
    .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))
}

/// [`write_atomic`] for a file of the store: read-only once it is there.
fn write_stored(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(
        path,
        bytes,
        Some(std::fs::Permissions::from_mode(STORED_MODE)),
    )
}

/// Writes `bytes` to `path` under a temporary name in the same folder, then renames it into
/// place: readers see the old file or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, bytes, None)
}

fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut builder = tempfile::Builder::new();
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let mut file = builder
        .tempfile_in(dir)
        .with_context(|| format!("creating a file in {}", dir.display()))?;
    file.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    file.persist(path)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// How many hex digits of a file's hash its content-hashed published name holds.
const NAME_HASH_DIGITS: usize = 12;

/// The part of the store hash `hash` that a content-hashed file name holds
/// (`card-about.1a2b3c4d5e6f.png`).
pub fn name_hash(hash: &str) -> &str {
    hash.get(..NAME_HASH_DIGITS).unwrap_or(hash)
}

/// The BLAKE3 hash of `parts` (each length-prefixed, so `["ab", "c"]` and `["a", "bc"]` differ),
/// in hex.
pub fn hash_hex(parts: &[&[u8]]) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in parts {
        hasher.update(&(part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize().to_hex().to_string()
}

/// A writer that hashes what goes through it: a large file written and hashed in one pass,
/// never whole in memory.
pub struct HashingWriter<W> {
    inner: W,
    hasher: blake3::Hasher,
}

impl<W: std::io::Write> HashingWriter<W> {
    /// Hashes what is written to `inner`.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            hasher: blake3::Hasher::new(),
        }
    }

    /// The writer back, flushed, and the hex BLAKE3 hash of everything written.
    pub fn finish(mut self) -> std::io::Result<(W, String)> {
        self.inner.flush()?;
        Ok((self.inner, self.hasher.finalize().to_hex().to_string()))
    }
}

impl<W: std::io::Write> std::io::Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<W> std::fmt::Debug for HashingWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HashingWriter")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_named_by_its_hash_is_stored_as_any_other() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let store = Store {
            dir: dir.path().join("files"),
            used: None,
            memory: None,
        };
        let bytes = b"a drawing";
        let (name, stored) =
            store.put_named(bytes, |hash| format!("img/card.{}.png", name_hash(hash)))?;
        assert_eq!(name, format!("img/card.{}.png", &stored.hash[..12]));
        assert_eq!(stored, store.put("img/other.png", bytes)?);
        assert_eq!(std::fs::read(store.path(&stored.hash))?, bytes);
        Ok(())
    }

    #[test]
    fn a_stored_file_is_compressed_once_and_kept_with_its_variants() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let store = Store {
            dir: dir.path().join("files"),
            used: None,
            memory: None,
        };
        let page = "<!DOCTYPE html><p>".to_owned() + &"words ".repeat(400);
        let stored = store.put("about/index.html", page.as_bytes())?;
        assert_eq!(stored, store.put("blog/index.html", page.as_bytes())?);
        let gzip_len = stored.gzip_len.expect("a large page gets variants");
        assert_eq!(Some(gzip_len), store.gzip_len(&stored.hash));

        let out = store.path(&stored.hash);
        assert_eq!(std::fs::read_to_string(&out)?, page);
        let gz = std::fs::read(compress::variant_path(&out, Encoding::Gzip))?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text)?;
        assert_eq!(text, page);
        assert!(compress::variant_path(&out, Encoding::Brotli).is_file());

        let small = store.put("robots.txt", b"User-agent: *")?;
        assert_eq!(small.gzip_len, None);
        Ok(())
    }

    #[test]
    fn hashes_tell_apart_how_the_parts_are_cut() {
        assert_ne!(hash_hex(&[b"ab", b"c"]), hash_hex(&[b"a", b"bc"]));
        assert_eq!(hash_hex(&[b"x"]).len(), 64);
    }
}
