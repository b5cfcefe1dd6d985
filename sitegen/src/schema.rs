//! TypeScript types for `site/`, generated from the content model so the two cannot drift.
//!
//! `sitegen schema` (or `make schema`) rewrites `site/schema/`: the content model's types, the
//! form contract's types (the contact service's error answer) and its values (`contract.ts`). A
//! test fails when the checked-in files differ from what the Rust code generates.

use std::path::Path;

use anyhow::{Context, Result};
use ts_rs::{Config, TS};

use crate::content::{Content, RouteKind};

/// The file holding the form contract's values.
const CONTRACT_FILE: &str = "contract.ts";

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
        .and_then(|()| form_contract::ErrorBody::export_all(&config))
        .with_context(|| format!("writing TypeScript types into {}", dir.display()))?;
    let contract = dir.join(CONTRACT_FILE);
    std::fs::write(&contract, form_contract::typescript())
        .with_context(|| format!("writing {}", contract.display()))
}
