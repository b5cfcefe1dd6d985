//! A legal page (`/privacy`, `/terms`), from `content/pages/privacy.yaml` and `terms.yaml`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Meta};

/// A legal page (`/privacy`, `/terms`), from `content/pages/privacy.yaml` and `terms.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct LegalPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
}
