//! TypeScript types for `site/`, generated from the content model so the two cannot drift.
//!
//! `sitegen schema` (or `make schema`) rewrites `site/schema/`; a test fails when the checked-in
//! files differ from what the Rust types generate.

use std::path::Path;

use anyhow::{Context, Result};
use ts_rs::{Config, TS};

use crate::content::{Content, RouteKind};

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
    let config = Config::new().with_out_dir(dir);
    Content::export_all(&config)
        // A route's kind is flattened into `RouteInfo`; the site also names it on its own.
        .and_then(|()| RouteKind::export_all(&config))
        .with_context(|| format!("writing TypeScript types into {}", dir.display()))
}
