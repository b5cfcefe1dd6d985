//! Atomic publish of a build: the output is written into a staging directory next to the
//! target and swapped in with renames only once it is complete, so a failed or interrupted
//! build leaves the previous output exactly as it was.
//!
//! ```no_run
//! # fn build_into(_: &std::path::Path) -> anyhow::Result<()> { Ok(()) }
//! let target = std::path::Path::new("dist");
//! let staging = sitegen::publish::staging_dir(target)?;
//! build_into(staging.path())?; // on error `staging` is dropped and removed
//! sitegen::publish::publish(staging, target)?;
//! # anyhow::Ok(())
//! ```

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use tempfile::TempDir;

pub use crate::cache::Expected;

/// Creates a fresh, empty staging directory next to `target` (`dist` -> `.dist.staging-XXXXXX`
/// in the same parent), so the final rename stays on one file system and is atomic.
///
/// The parent directory is created if missing. The staging directory is removed when the
/// returned [`TempDir`] is dropped, which is what happens when a build fails.
pub fn staging_dir(target: &Path) -> Result<TempDir> {
    let (parent, name) = split_target(target)?;
    fs::create_dir_all(&parent).with_context(|| format!("creating {}", parent.display()))?;
    tempfile::Builder::new()
        .prefix(&hidden_name(&name, "staging"))
        // An ordinary folder: the umask decides (0755 under the usual 022), as for its files.
        .permissions(fs::Permissions::from_mode(0o777))
        .tempdir_in(&parent)
        .with_context(|| format!("creating a staging directory in {}", parent.display()))
}

/// Replaces `target` with the finished `staging` directory.
///
/// The previous output is first moved aside, the staging directory renamed to `target`, and
/// the old output then removed. If the second rename fails the old output is moved back, so
/// `target` is never left missing or half-written. To guard against a mistyped `--out`, an
/// existing `target` must be a directory that is empty or holds an `index.html`.
pub fn publish(staging: TempDir, target: &Path) -> Result<()> {
    publish_keeping_old(staging, target)?.remove()
}

/// The previous output, moved aside by [`publish_keeping_old`] and not yet removed.
#[derive(Debug)]
#[must_use = "the previous output stays on disk until removed"]
pub struct PreviousOutput {
    /// The hidden directory holding it (`.dist.old-XXXXXX/dist`); `None` when there was none.
    holder: Option<TempDir>,
    target: PathBuf,
}

impl PreviousOutput {
    /// Deletes the previous output. A failure leaves a hidden directory behind, but the
    /// publish has succeeded.
    pub fn remove(self) -> Result<()> {
        match self.holder {
            None => Ok(()),
            Some(holder) => holder
                .close()
                .with_context(|| format!("removing the previous {}", self.target.display())),
        }
    }

    /// Hands the previous output to a process of its own (`rm -rf`) that deletes it while the
    /// caller goes on, and after it exits: for a command that ends once the new output is in
    /// place. Deleting many files is slow on a disk that discards freed blocks (the README's
    /// step 7 has the figure), and nothing after the swap needs it done.
    ///
    /// Until that process is done the hidden directory stays beside the target; if it is
    /// killed first, the next publish into the target removes what is left. Where the process
    /// cannot start, the previous output is removed here.
    pub fn remove_in_background(self) -> Result<()> {
        let Some(holder) = self.holder else {
            return Ok(());
        };
        let path = holder.keep();
        let spawned = Command::new("rm")
            .arg("-rf")
            .arg("--")
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group: a Ctrl-C meant for what runs next does not reach it.
            .process_group(0)
            .spawn();
        match spawned {
            Ok(mut child) => {
                // Reaped if it ends while this process runs; left to init if this one ends first.
                std::thread::spawn(move || child.wait());
                Ok(())
            }
            Err(_) => fs::remove_dir_all(&path)
                .with_context(|| format!("removing the previous {}", self.target.display())),
        }
    }
}

/// [`publish`], leaving the previous output moved aside for the caller to remove, e.g. on
/// another thread while the build goes on: the new output is in place when this returns.
pub fn publish_keeping_old(staging: TempDir, target: &Path) -> Result<PreviousOutput> {
    let (parent, name) = split_target(target)?;
    let nothing_old = PreviousOutput {
        holder: None,
        target: target.to_path_buf(),
    };
    match fs::symlink_metadata(target) {
        Err(err) if err.kind() == ErrorKind::NotFound => {
            let staged = staging.keep();
            return fs::rename(&staged, target)
                .with_context(|| format!("moving {} to {}", staged.display(), target.display()))
                .map(|()| nothing_old);
        }
        Err(err) => return Err(err).with_context(|| format!("reading {}", target.display())),
        Ok(meta) if !meta.is_dir() => bail!(
            "refusing to replace {}: it is not a directory; remove it or choose another output directory",
            target.display()
        ),
        Ok(_) => ensure_previous_output(target)?,
    }

    // The old output moves into a temporary holder, which removes it when dropped.
    let holder = tempfile::Builder::new()
        .prefix(&hidden_name(&name, "old"))
        .tempdir_in(&parent)
        .with_context(|| format!("creating a backup directory in {}", parent.display()))?;
    let backup = holder.path().join(&name);
    fs::rename(target, &backup)
        .with_context(|| format!("moving the previous {} aside", target.display()))?;

    if let Err(err) = fs::rename(staging.path(), target) {
        let swap_err = anyhow::Error::new(err).context(format!(
            "moving {} to {}",
            staging.path().display(),
            target.display()
        ));
        return match fs::rename(&backup, target) {
            Ok(()) => Err(swap_err),
            Err(restore) => {
                // Keep the holder on disk: it is now the only copy of the previous output.
                let kept = holder.keep();
                Err(swap_err.context(format!(
                    "the previous output could not be restored ({restore}); it is in {}",
                    kept.join(&name).display()
                )))
            }
        };
    }
    // `staging` now names nothing; dropping it is a no-op.
    drop(staging);
    Ok(PreviousOutput {
        holder: Some(holder),
        target: target.to_path_buf(),
    })
}

/// Splits `target` into its parent directory and final name; rejects `.`, `..` and `/`,
/// which cannot be swapped out by a rename.
fn split_target(target: &Path) -> Result<(PathBuf, OsString)> {
    let Some(name) = target.file_name() else {
        bail!(
            "output directory {} must end in a directory name (like dist)",
            target.display()
        );
    };
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_owned()))
}

fn hidden_name(name: &OsString, purpose: &str) -> OsString {
    let mut hidden = OsString::from(".");
    hidden.push(name);
    hidden.push(format!(".{purpose}-"));
    hidden
}

/// Refuses to delete a directory that does not look like an earlier build.
fn ensure_previous_output(target: &Path) -> Result<()> {
    let mut entries =
        fs::read_dir(target).with_context(|| format!("reading {}", target.display()))?;
    if entries.next().is_none() || target.join("index.html").is_file() {
        return Ok(());
    }
    bail!(
        "refusing to replace {}: it is not empty and has no index.html, so it does not look like a previous build; remove it or choose another output directory",
        target.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_without_a_name_are_rejected() {
        for target in [".", "..", "/", "dist/.."] {
            let err = split_target(Path::new(target))
                .map(|_| ())
                .expect_err("rejected");
            assert_eq!(
                err.to_string(),
                format!("output directory {target} must end in a directory name (like dist)")
            );
        }
    }

    #[test]
    fn a_bare_name_has_the_current_directory_as_parent() {
        let (parent, name) = split_target(Path::new("dist")).unwrap_or_default();
        assert_eq!(
            (parent.as_path(), name.as_os_str()),
            (Path::new("."), "dist".as_ref())
        );
    }
}

/// One file of a new output: where it goes, where its bytes are, and a name for those bytes
/// that changes whenever they do (a content hash).
#[derive(Debug, Clone)]
pub struct PlannedFile {
    /// Its path in the output (`about/index.html.br`).
    pub file: String,
    /// The file it is copied from (in the build cache).
    pub from: PathBuf,
    /// What identifies its bytes.
    pub id: String,
    /// What its bytes must hash to, checked before they are published.
    pub expected: Expected,
    /// Whether the file may be moved into the output rather than copied: one of a throwaway
    /// cache's, which nothing reads after this, published under this one name.
    pub take: bool,
}

/// What [`publish_plan`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// Files copied into the output.
    pub written: usize,
    /// Files the output no longer has, as its record named them (none without a record).
    pub removed_files: Vec<String>,
    /// Whether the output was written whole (no record of it, or none of it could be kept).
    pub replaced: bool,
}

/// Why [`publish_plan`] did not publish.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// Files of the cache whose bytes no longer hash to what they should (a torn write, a disk
    /// error): nothing was published.
    #[error("{} files of the build cache are damaged, e.g. {}", .0.len(), .0.first().map(|p| p.display().to_string()).unwrap_or_default())]
    Damaged(Vec<PathBuf>),
    /// Reading or writing files failed.
    #[error(transparent)]
    Files(#[from] anyhow::Error),
}

/// What the record of an output holds of each of its files: the bytes' id, and the file's
/// identity and state when it was published, which an edit in place changes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Recorded {
    id: String,
    ino: u64,
    len: u64,
    mtime_ns: i64,
    mode: u32,
}

impl Recorded {
    fn of(id: &str, meta: &fs::Metadata) -> Self {
        Self {
            id: id.to_owned(),
            ino: meta.ino(),
            len: meta.len(),
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            mode: meta.mode(),
        }
    }
}

/// The record's layout; a record of another is no record.
const RECORD_FORMAT: &str = "sitegen-output-2";

#[derive(serde::Serialize, serde::Deserialize)]
struct Record {
    format: String,
    files: BTreeMap<String, Recorded>,
}

/// Publishes `plan` into `target`, recording what it holds in `record`.
///
/// The new output is made whole beside `target` and swapped in with one rename, so whatever
/// happens to the build (an error, a full disk, `kill -9`), `target` is the previous output
/// or the new one, never a mix. Files are copies of the cache's, checked against their
/// expected hash unless this build wrote them, with the modes the umask gives (`0644`,
/// directories `0755`): nothing done to the output reaches the cache or another output.
///
/// When `record` describes files of `target` that are still as this function left them (same
/// inode, size, time and mode: not edited in place since) and the plan has the same bytes for
/// them, they are linked into the new output rather than copied: a rebuild that changes one
/// page copies a few files. A rebuild that changes nothing touches nothing. The previous
/// output is returned moved aside, for the caller to remove.
pub fn publish_plan(
    plan: &[PlannedFile],
    target: &Path,
    record: &Path,
) -> Result<(Published, PreviousOutput), PublishError> {
    let (parent, name) = split_target(target)?;
    remove_leftovers(&parent, &name, target)?;
    let previous = read_record(record).filter(|_| target.is_dir());
    let recorded_at = fs::metadata(record)
        .ok()
        .map(|m| m.mtime() * 1_000_000_000 + m.mtime_nsec());
    // Which planned files the output already has, as they were published.
    let kept: Vec<Option<Recorded>> = plan
        .par_iter()
        .map(|planned| {
            let before = previous.as_ref()?.files.get(&planned.file)?;
            (before.id == planned.id).then_some(())?;
            let path = target.join(&planned.file);
            let meta = fs::symlink_metadata(&path).ok()?;
            let now = Recorded::of(&planned.id, &meta);
            (now == *before && meta.is_file()).then_some(())?;
            // Written in the same tick of the clock as the record: an edit in that tick
            // would leave the time as it was, so the bytes tell.
            if recorded_at.is_none_or(|at| now.mtime_ns >= at) {
                let same = fs::read(&path).ok()? == fs::read(&planned.from).ok()?;
                same.then_some(())?;
            }
            Some(now)
        })
        .collect();
    let unchanged = kept.iter().filter(|k| k.is_some()).count();
    let removed_files: Vec<String> = previous.as_ref().map_or_else(Vec::new, |previous| {
        let planned: std::collections::HashSet<&str> =
            plan.iter().map(|f| f.file.as_str()).collect();
        previous
            .files
            .keys()
            .filter(|file| !planned.contains(file.as_str()))
            .cloned()
            .collect()
    });
    let nothing_old = PreviousOutput {
        holder: None,
        target: target.to_path_buf(),
    };
    if previous.is_some() && unchanged == plan.len() && removed_files.is_empty() {
        let published = Published {
            written: 0,
            removed_files: Vec::new(),
            replaced: false,
        };
        return Ok((published, nothing_old));
    }

    let staging = staging_dir(target)?;
    // Each folder once (a page's folder holds its HTML and variants), before any file.
    let folders: std::collections::BTreeSet<&Path> = plan
        .iter()
        .filter_map(|planned| Path::new(&planned.file).parent())
        .filter(|folder| !folder.as_os_str().is_empty())
        .collect();
    folders.par_iter().try_for_each(|folder| {
        let folder = staging.path().join(folder);
        fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))
    })?;
    let damaged = std::sync::Mutex::new(Vec::new());
    let files: Vec<Recorded> = plan
        .par_iter()
        .zip(&kept)
        .map(|(planned, kept)| {
            let to = staging.path().join(&planned.file);
            // A link is the file as it was found: same inode, size, time and mode.
            if let Some(kept) = kept
                && fs::hard_link(target.join(&planned.file), &to).is_ok()
            {
                return Ok(Some(kept.clone()));
            }
            if !copy_checked(planned, &to)? {
                damaged
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(planned.from.clone());
                return Ok(None);
            }
            let meta =
                fs::symlink_metadata(&to).with_context(|| format!("reading {}", to.display()))?;
            Ok(Some(Recorded::of(&planned.id, &meta)))
        })
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let damaged = damaged
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !damaged.is_empty() {
        return Err(PublishError::Damaged(damaged));
    }
    let previous_output = match fs::symlink_metadata(target) {
        Ok(meta) if meta.is_dir() => {
            ensure_previous_output(target)?;
            exchange(staging, target)?
        }
        // Nothing there yet, or something that is refused with its reason.
        _ => publish_keeping_old(staging, target)?,
    };
    let now = Record {
        format: RECORD_FORMAT.into(),
        files: plan.iter().map(|f| f.file.clone()).zip(files).collect(),
    };
    let bytes = serde_json::to_vec(&now).context("recording the output")?;
    crate::cache::write_atomic(record, &bytes)?;
    let published = Published {
        written: plan.len() - unchanged,
        removed_files,
        replaced: unchanged == 0,
    };
    Ok((published, previous_output))
}

fn read_record(record: &Path) -> Option<Record> {
    let bytes = fs::read(record).ok()?;
    let record: Record = serde_json::from_slice(&bytes).ok()?;
    (record.format == RECORD_FORMAT).then_some(record)
}

/// Copies `planned` to `to` (a new file, with the mode the umask gives) if its bytes are what
/// they should be: whether they were. A file to take is moved there when it can be (its folder
/// on the same file system), which leaves the throwaway cache nothing to remove.
fn copy_checked(planned: &PlannedFile, to: &Path) -> Result<bool> {
    use crate::cache::Expected;
    if planned.take && fs::rename(&planned.from, to).is_ok() {
        return Ok(true);
    }
    if planned.expected != Expected::Fresh {
        let Ok(bytes) = fs::read(&planned.from) else {
            return Ok(false);
        };
        if !planned.expected.matches(&bytes) {
            return Ok(false);
        }
    }
    let mut from = fs::File::open(&planned.from)
        .with_context(|| format!("reading {}", planned.from.display()))?;
    let mut file =
        fs::File::create_new(to).with_context(|| format!("creating {}", to.display()))?;
    // copy_file_range: in the kernel, and a reflink where the file system has them.
    std::io::copy(&mut from, &mut file)
        .with_context(|| format!("copying {} to {}", planned.from.display(), to.display()))?;
    Ok(true)
}

/// Swaps the finished `staging` with `target` in one step (`renameat2` with
/// `RENAME_EXCHANGE`), so there is no moment without an output; where the system cannot,
/// moves `target` aside first ([`publish_keeping_old`]).
fn exchange(staging: TempDir, target: &Path) -> Result<PreviousOutput> {
    #[cfg(target_os = "linux")]
    {
        use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
        match renameat2(
            AT_FDCWD,
            staging.path(),
            AT_FDCWD,
            target,
            RenameFlags::RENAME_EXCHANGE,
        ) {
            Ok(()) => {
                // The staging folder now holds the previous output; it goes when dropped.
                return Ok(PreviousOutput {
                    holder: Some(staging),
                    target: target.to_path_buf(),
                });
            }
            Err(nix::errno::Errno::EINVAL | nix::errno::Errno::ENOSYS) => {}
            Err(err) => {
                return Err(anyhow::Error::new(err).context(format!(
                    "swapping {} with {}",
                    staging.path().display(),
                    target.display()
                )));
            }
        }
    }
    publish_keeping_old(staging, target)
}

/// Removes what an interrupted publish into `target` left beside it: staging folders, and
/// previous outputs moved aside (only while `target` exists: when a swap could not be undone,
/// the one moved aside is the only output).
fn remove_leftovers(parent: &Path, name: &OsString, target: &Path) -> Result<()> {
    let staging = hidden_name(name, "staging");
    let old = hidden_name(name, "old");
    let Ok(entries) = fs::read_dir(parent) else {
        return Ok(());
    };
    let target_exists = target.is_dir();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let bytes = file_name.as_encoded_bytes();
        let leftover = bytes.starts_with(staging.as_encoded_bytes())
            || (target_exists && bytes.starts_with(old.as_encoded_bytes()));
        if leftover && entry.file_type().is_ok_and(|t| t.is_dir()) {
            // A background removal of an earlier build's previous output may be deleting it too
            // (PreviousOutput::remove_in_background): std's removal takes an entry gone before it
            // got to it as removed, and so is a folder that is gone as a whole.
            match fs::remove_dir_all(entry.path()) {
                Err(err) if err.kind() != ErrorKind::NotFound => {
                    return Err(err)
                        .with_context(|| format!("removing {}", entry.path().display()));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
