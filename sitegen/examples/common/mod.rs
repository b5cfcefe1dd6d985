//! What the benchmark examples share: the generated articles and a copy of `content/`.
//! (Each example includes this folder with `mod common;`.)

use std::path::Path;

use anyhow::Result;

pub mod articles;

/// Copies the directory tree `from` to `to`.
pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    copy_dir_except(from, to, &[])
}

/// Copies the directory tree `from` to `to`, less the entries of `from` named in `left_out`.
pub fn copy_dir_except(from: &Path, to: &Path, left_out: &[&str]) -> Result<()> {
    let entries = walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.depth() != 1 || !left_out.iter().any(|name| e.file_name() == *name));
    for entry in entries {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from)?);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
