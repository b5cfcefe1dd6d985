//! TypeScript types for `site/`, generated from the content model so the two cannot drift.
//!
//! `sitegen schema` (or `make schema`) rewrites `site/schema/`; a test fails when the checked-in
//! files differ from what the Rust types generate.

use std::path::Path;

use anyhow::{Context, Result};
use ts_rs::{Config, TS};

use crate::content::Content;

/// Writes one `.ts` file per content type into `dir`, removing stale ones.
pub fn write_typescript(dir: &Path) -> Result<()> {
    if dir.exists() {
        for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "ts") {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    Content::export_all(&Config::new().with_out_dir(dir))
        .with_context(|| format!("writing TypeScript types into {}", dir.display()))
}
