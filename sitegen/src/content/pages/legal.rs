//! A legal page (`/privacy`, `/terms`), from `content/pages/privacy.yaml` and `terms.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Link, Meta};

/// A legal page (`/privacy`, `/terms`), from `content/pages/privacy.yaml` and `terms.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// When the text last changed, as displayed (`Last updated December 25, 2024`).
    pub updated: String,
    /// Heading of the table of contents (`On this page`).
    pub contents_label: String,
    /// The sections, in order.
    pub sections: Vec<LegalSection>,
}

/// One numbered section of a legal text.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalSection {
    /// Anchor of the section (`information-we-collect`), linked from the table of contents.
    pub id: String,
    /// The section's heading.
    pub title: String,
    /// Paragraphs, in order.
    pub paragraphs: Vec<String>,
    /// A bulleted list after the paragraphs.
    #[serde(default)]
    pub list: Vec<String>,
    /// Links after the list, such as the email address to write to.
    #[serde(default)]
    pub links: Vec<Link>,
}
