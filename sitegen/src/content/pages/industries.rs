//! The Industries page (`/industries`), from `content/pages/industries.yaml`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Meta};

/// The Industries page (`/industries`), from `content/pages/industries.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct IndustriesPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
}
