//! The Insights page (`/insights`), from `content/pages/insights.yaml`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Meta};

/// The Insights page (`/insights`), from `content/pages/insights.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct InsightsPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
}
