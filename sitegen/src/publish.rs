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
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use tempfile::TempDir;

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
    /// The file it is linked from.
    pub from: PathBuf,
    /// What identifies its bytes.
    pub id: String,
}

/// What [`publish_plan`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    /// Files linked into the output.
    pub written: usize,
    /// Files removed from it.
    pub removed: usize,
    /// Whether the output was replaced as a whole (no record of it, or it was changed by hand).
    pub replaced: bool,
}

/// Publishes `plan` into `target`, recording what it holds in `record`.
///
/// When `record` describes `target` as the last publish left it, only what changed is
/// touched: new and changed files are staged beside the output and renamed into place, and
/// files the plan no longer has are removed, so a rebuild that changes one page writes a few
/// files instead of the whole site. Otherwise (a first build, an output changed by hand) the
/// output is staged whole and swapped in ([`publish`]). Either way every file is linked from
/// its store, and `target` is only touched once the plan is complete, so a build that fails
/// before publishing leaves it as it was.
pub fn publish_plan(plan: &[PlannedFile], target: &Path, record: &Path) -> Result<Published> {
    let previous: Option<BTreeMap<String, String>> = fs::read(record)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .filter(|_| target.is_dir());
    // A publish that stops half-way leaves no record, so the next one replaces the output.
    let _ = fs::remove_file(record);
    let published = match previous {
        Some(previous) if is_intact(&previous, plan, target) => {
            update_in_place(plan, &previous, target)?
        }
        _ => {
            let staging = staging_dir(target)?;
            link_all(plan.iter(), staging.path())?;
            publish(staging, target)?;
            Published {
                written: plan.len(),
                removed: 0,
                replaced: true,
            }
        }
    };
    let now: BTreeMap<&str, &str> = plan
        .iter()
        .map(|f| (f.file.as_str(), f.id.as_str()))
        .collect();
    if let Some(dir) = record.parent() {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let bytes = serde_json::to_vec(&now).context("recording the output")?;
    fs::write(record, bytes).with_context(|| format!("writing {}", record.display()))?;
    Ok(published)
}

/// Whether every file `previous` records is in `target` as it was published (the same file,
/// linked from the store, not edited or replaced since).
fn is_intact(previous: &BTreeMap<String, String>, plan: &[PlannedFile], target: &Path) -> bool {
    let sources: BTreeMap<&str, &PlannedFile> = plan.iter().map(|f| (f.file.as_str(), f)).collect();
    previous.par_iter().all(|(file, id)| {
        let Ok(meta) = fs::symlink_metadata(target.join(file)) else {
            return false;
        };
        match sources.get(file.as_str()) {
            // Unchanged: it must still be the very file of the store.
            Some(planned) if planned.id == *id => fs::metadata(&planned.from)
                .is_ok_and(|from| from.ino() == meta.ino() && from.dev() == meta.dev()),
            _ => meta.is_file(),
        }
    })
}

fn update_in_place(
    plan: &[PlannedFile],
    previous: &BTreeMap<String, String>,
    target: &Path,
) -> Result<Published> {
    let changed: Vec<&PlannedFile> = plan
        .iter()
        .filter(|f| previous.get(&f.file) != Some(&f.id))
        .collect();
    let planned: std::collections::HashSet<&str> = plan.iter().map(|f| f.file.as_str()).collect();
    let removed: Vec<&String> = previous
        .keys()
        .filter(|file| !planned.contains(file.as_str()))
        .collect();
    if !changed.is_empty() {
        // Staged beside the output first, then renamed into place: each file is swapped whole.
        let staging = staging_dir(target)?;
        link_all(changed.iter().copied(), staging.path())?;
        for file in &changed {
            let to = target.join(&file.file);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
            let from = staging.path().join(&file.file);
            fs::rename(&from, &to)
                .with_context(|| format!("moving {} to {}", from.display(), to.display()))?;
        }
    }
    for file in &removed {
        let path = target.join(file);
        match fs::remove_file(&path) {
            Err(err) if err.kind() != ErrorKind::NotFound => {
                return Err(err).with_context(|| format!("removing {}", path.display()));
            }
            _ => {}
        }
        // Folders the removal emptied go too (a page's `about/`), up to the output itself.
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| *d != target) {
            if fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
    Ok(Published {
        written: changed.len(),
        removed: removed.len(),
        replaced: false,
    })
}

/// Links every planned file into `dir`, in parallel.
fn link_all<'a>(files: impl Iterator<Item = &'a PlannedFile>, dir: &Path) -> Result<()> {
    let files: Vec<&PlannedFile> = files.collect();
    files.par_iter().try_for_each(|f| {
        let to = dir.join(&f.file);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        if fs::hard_link(&f.from, &to).is_err() {
            fs::copy(&f.from, &to)
                .with_context(|| format!("copying {} to {}", f.from.display(), to.display()))?;
        }
        Ok(())
    })
}
