//! sitegen's integration tests, in one binary: each file of this folder was a test binary of
//! its own, linking sitegen and its dependencies again. cargo-nextest still runs every test in
//! a process of its own. The tests with insta snapshots (`content`, `outputs`, `report`) stay
//! binaries of their own, beside their snapshots.

#[path = "../common/mod.rs"]
mod common;
mod support;

mod bundle;
mod cache_integrity;
mod check;
mod cms;
mod cms_live;
mod cms_media;
mod cms_preview;
mod cms_tidy;
mod compress;
mod deploy;
mod dev;
mod i18n;
mod images;
mod incremental;
mod json_schema;
mod new;
mod observatory;
mod preview_redirects;
mod publish;
mod publishing;
mod redirects;
mod render_faults;
mod render_paths;
mod schema;
mod serve;
