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

use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
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
    let (parent, name) = split_target(target)?;
    match fs::symlink_metadata(target) {
        Err(err) if err.kind() == ErrorKind::NotFound => {
            let staged = staging.keep();
            return fs::rename(&staged, target)
                .with_context(|| format!("moving {} to {}", staged.display(), target.display()));
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
    // `staging` now names nothing; dropping it is a no-op. Removing `holder` deletes the old
    // output; a failure there leaves a hidden directory behind but the publish succeeded.
    drop(staging);
    holder
        .close()
        .with_context(|| format!("removing the previous {}", target.display()))
}

/// Moves every entry of `from` into `to`, e.g. the prerendered site into the staging
/// directory: a rename per entry on one file system, a copy across file systems.
pub fn move_into(from: &Path, to: &Path) -> Result<()> {
    let entries = fs::read_dir(from).with_context(|| {
        format!(
            "reading the prerendered site in {}: did the prerender run?",
            from.display()
        )
    })?;
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", from.display()))?;
        let target = to.join(entry.file_name());
        if fs::rename(entry.path(), &target).is_err() {
            copy_tree(&entry.path(), &target).with_context(|| {
                format!("moving {} to {}", entry.path().display(), target.display())
            })?;
        }
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from)?);
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target)?;
        } else {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
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
