//! The Industries page (`/industries`), from `content/pages/industries.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{
    CallToAction, Feature, Hero, Icon, Link, Meta, SectionIntro, Statistic,
};

/// The Industries page (`/industries`), from `content/pages/industries.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IndustriesPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The row of figures under the hero.
    pub stats: Vec<Statistic>,
    /// The industries served, one block each.
    pub industries: IndustryList,
    /// The grid of technologies applied across industries.
    pub technologies: TechnologyGrid,
    /// The closing band.
    pub call_to_action: CallToAction,
}

/// The industry blocks, with the words they share.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IndustryList {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Heading of each block's list of solutions (`Key Solutions`).
    pub solutions_label: String,
    /// The link at the end of every block (`Explore Solutions`).
    pub explore: Link,
    /// The industries, in order; the layout alternates sides.
    pub items: Vec<Industry>,
}

/// One industry served.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Industry {
    /// The industry's icon.
    pub icon: Icon,
    /// The industry's name, the block's heading.
    pub title: String,
    /// What the company does for this industry.
    pub description: String,
    /// Key solutions, one line each.
    pub solutions: Vec<String>,
    /// Illustration: an SVG under `site/public` (`/images/industries/healthcare.svg`) or a
    /// photo under `content/images`.
    pub image: String,
    /// The illustration's alternative text; leave it out with `decorative: true`.
    #[serde(default)]
    pub image_alt: String,
    /// Whether the picture adds nothing the words beside it do not say: then it is shown
    /// with empty alternative text, and `image_alt` is left out.
    #[serde(default)]
    pub decorative: bool,
}

/// The technology tiles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TechnologyGrid {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The tiles, in order.
    pub items: Vec<Feature>,
}
