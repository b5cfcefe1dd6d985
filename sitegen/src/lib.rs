//! sitegen: turns the YAML under `content/` into a CDN-ready static website.
//!
//! The pipeline is load -> validate -> render (Vike prerender in `site/`) -> write -> verify,
//! and every stage is a module here so `main.rs` only parses arguments and reports.

pub mod build;
pub mod check;
pub mod content;
pub mod feed;
pub mod outputs;
pub mod publish;
pub mod report;
pub mod schema;
pub mod serve;
