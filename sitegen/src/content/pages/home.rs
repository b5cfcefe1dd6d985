//! The home page (`/`), from `content/pages/home.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{
    CallToAction, Faq, Feature, Hero, Icon, Link, Logo, Meta, SectionIntro, Statistic,
};

/// The home page (`/`), from `content/pages/home.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HomePage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block; its `highlight` is the phrase the headline types, deletes and retypes.
    pub hero: Hero,
    /// Our Technology Stack: one card per service category.
    pub tech_stack: TechStackSection,
    /// Our Platform Partnerships: the partners' logos.
    pub partners: LogoSection,
    /// Why engineering teams love us: the benefit tiles.
    pub benefits: FeatureSection,
    /// The frequently asked questions.
    pub faq: Faq,
    /// Trusted by industry leaders: the headline figures.
    pub stats: StatsSection,
    /// The Get in Touch block around the enquiry form.
    pub enquiry: EnquirySection,
    /// The closing call to action.
    pub cta: CallToAction,
}

/// A heading and a grid of cards that each lead to a service category.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TechStackSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The cards, in order.
    pub cards: Vec<TechStackCard>,
}

/// A card for one service category with the technologies it works with.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TechStackCard {
    /// The card's icon.
    pub icon: Icon,
    /// The card's heading.
    pub title: String,
    /// One or two sentences.
    pub description: String,
    /// Technologies shown as tags.
    pub technologies: Vec<String>,
    /// The link to the category page.
    pub link: Link,
}

/// A heading and a row of logos.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogoSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The logos, in order.
    pub logos: Vec<Logo>,
}

/// A heading and a grid of feature tiles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeatureSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The tiles, in order.
    pub items: Vec<Feature>,
}

/// A heading and a row of figures.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The figures, in order.
    pub items: Vec<Statistic>,
}

/// The text beside the Get in Touch form (the form's own heading and fields are in `forms.yaml`).
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnquirySection {
    /// Small label above the form's heading.
    #[serde(default)]
    pub eyebrow: Option<String>,
    /// The paragraph introducing the form.
    pub lead: String,
    /// What happens after sending, one short promise each.
    pub points: Vec<Feature>,
}
