//! The Success Stories page (`/case-studies`), from `content/pages/case-studies.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{CallToAction, CaseStudySection, Hero, Meta, Statistic};

/// The Success Stories page (`/case-studies`), from `content/pages/case-studies.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseStudiesPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// Headline results from the stories, on cards under the hero.
    pub highlights: Vec<Statistic>,
    /// The client stories, one card each.
    pub stories: CaseStudySection,
    /// The closing band.
    pub call_to_action: CallToAction,
}
