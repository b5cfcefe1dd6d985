//! Service categories and their sub-services, one YAML file per category under
//! `content/services/`. The file name is the category's slug, so
//! `content/services/cloud-services.yaml` publishes `/services/cloud-services` and one page per
//! entry of its `sub_services` list.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::common::{CaseStudySection, Feature, Hero, Icon, Meta, SectionIntro};

/// A service category such as Cloud Services.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServiceCategory {
    /// URL segment, taken from the file name (`cloud-services`); the file must not set it.
    #[serde(default)]
    #[schemars(skip)]
    pub slug: String,
    /// Position among the categories, lowest first.
    pub order: u32,
    /// Short name used on cards and in menus.
    pub name: String,
    /// One-sentence summary used on cards.
    pub summary: String,
    /// The category's icon.
    pub icon: Icon,
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The category's sub-service pages, in menu order.
    pub sub_services: Vec<SubService>,
    /// Heading of the section that links every sub-service; without it the cards stand alone.
    #[serde(default)]
    pub services_intro: Option<SectionIntro>,
    /// Client stories shown after the sub-services.
    #[serde(default)]
    pub case_studies: Option<CaseStudySection>,
}

/// A sub-service page such as `/services/cloud-services/devops`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubService {
    /// URL segment under the category (`devops`).
    pub slug: String,
    /// Short name used in link lists.
    pub name: String,
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// Icon on the sub-service's card on the category page.
    #[serde(default)]
    pub icon: Option<Icon>,
    /// A short text section under the hero.
    #[serde(default)]
    pub blurb: Option<Blurb>,
    /// A grid of tiles after the blurb, such as the platforms a service covers.
    #[serde(default)]
    pub tiles: Option<Tiles>,
}

/// A short text section of a sub-service page.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Blurb {
    /// The section's heading.
    pub title: String,
    /// Paragraphs, in order.
    pub body: Vec<String>,
    /// Short highlights shown as a checklist beside the text.
    #[serde(default)]
    pub points: Vec<String>,
}

/// A titled grid of tiles on a sub-service page.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tiles {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The tiles, in order.
    pub items: Vec<Feature>,
}
