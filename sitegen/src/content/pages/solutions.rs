//! The Solutions page (`/solutions`), from `content/pages/solutions.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::services::ProcessSection;
use crate::content::common::{CallToAction, Hero, Icon, Link, Meta, SectionIntro, Testimonial};

/// The Solutions page (`/solutions`), from `content/pages/solutions.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SolutionsPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The core solutions, each leading to its service category.
    pub solutions: SolutionsSection,
    /// The enterprise platforms.
    pub platforms: PlatformsSection,
    /// How an engagement runs, step by step.
    pub process: ProcessSection,
    /// What clients say.
    pub testimonials: TestimonialsSection,
    /// The closing call to action.
    pub cta: CallToAction,
}

/// A heading and one large card per core solution.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SolutionsSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Heading of each card's list of features (`Key features`).
    pub features_label: String,
    /// Heading of each card's list of benefits (`Business impact`).
    pub benefits_label: String,
    /// The solutions, in order.
    pub items: Vec<Solution>,
}

/// A core solution such as AI-Powered Solutions.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Solution {
    /// The card's icon.
    pub icon: Icon,
    /// The card's heading.
    pub title: String,
    /// One or two sentences.
    pub description: String,
    /// What it includes, one bullet each.
    pub features: Vec<String>,
    /// What it achieves for the client, one bullet each.
    pub benefits: Vec<String>,
    /// The call to action: its label and the service page it leads to.
    pub link: Link,
}

/// A heading and one card per enterprise platform.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlatformsSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The platforms, in order.
    pub items: Vec<Platform>,
}

/// An enterprise platform such as Digital Workplace.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    /// The card's icon.
    pub icon: Icon,
    /// The card's heading.
    pub name: String,
    /// One or two sentences.
    pub description: String,
    /// What it offers, one bullet each.
    pub features: Vec<String>,
}

/// A heading and client quotes.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestimonialsSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Accessible name of a quote's stars; `{rating}` is replaced by its number of stars
    /// (`Rated {rating} out of 5`).
    pub rating_label: String,
    /// The quotes, in order.
    pub items: Vec<Testimonial>,
}
