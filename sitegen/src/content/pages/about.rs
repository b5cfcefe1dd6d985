//! The About page (`/about`), from `content/pages/about.yaml`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Meta};

/// The About page (`/about`), from `content/pages/about.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct AboutPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
}
