//! sitegen: turns the YAML under `content/` into a CDN-ready static website.
//!
//! The pipeline is load -> validate -> prerender (Vike in `site/`) -> site files -> verify ->
//! compress -> publish -> report, and every stage is a module here so `main.rs` only parses
//! arguments and reports. [`output_dir`] is the one URL model of the output directory that
//! build, check, report and serve share; [`scan`] parses each page once for all of them.

pub mod build;
pub mod bundle;
pub mod cache;
pub mod cards;
pub mod check;
pub mod cms;
pub mod compress;
pub mod content;
pub mod deploy;
pub mod dev;
pub mod feed;
/// The fuzz targets' entry points (`sitegen/fuzz/`); not an interface.
#[doc(hidden)]
pub mod fuzzing;
pub mod headers;
pub mod images;
pub mod interrupt;
pub mod new;
pub mod output_dir;
pub mod outputs;
pub mod publish;
pub mod redirects;
pub mod relay;
pub mod render;
pub mod report;
pub mod scan;
pub mod schema;
pub mod search;
pub mod serve;
pub mod structured_data;
