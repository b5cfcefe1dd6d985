//! The blog list (`/blog`), from `content/pages/blog.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Meta, SectionIntro};

/// The blog list (`/blog`), from `content/pages/blog.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlogPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The list of articles.
    pub articles: BlogListSection,
}

/// A heading and the articles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlogListSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The text of each article's button; its accessible name adds the article's title.
    pub read_more: String,
}
