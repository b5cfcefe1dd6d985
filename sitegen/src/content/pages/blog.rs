//! The blog list (`/blog`), from `content/pages/blog.yaml`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Meta};

/// The blog list (`/blog`), from `content/pages/blog.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct BlogPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
}
