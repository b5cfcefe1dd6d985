//! The services overview (`/services`), from `content/pages/services.yaml`.
//!
//! The service cards themselves come from the categories in `content/services/`; this file holds
//! only the words around them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{CallToAction, Hero, Meta, ProcessStep, SectionIntro};

/// The services overview (`/services`), from `content/pages/services.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServicesPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The grid of service category cards.
    pub categories: CategoriesSection,
    /// Our Proven Process.
    pub process: ProcessSection,
    /// The closing call to action.
    pub cta: CallToAction,
}

/// The words around the service category cards.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CategoriesSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Label of each card's button to its category page; `{name}` is the category's name.
    pub explore_label: String,
}

/// A heading and a numbered process.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProcessSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The steps, in order.
    pub steps: Vec<ProcessStep>,
}
