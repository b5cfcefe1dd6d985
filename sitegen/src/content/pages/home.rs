//! The home page (`/`), from `content/pages/home.yaml`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Meta};

/// The home page (`/`), from `content/pages/home.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct HomePage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
}
