//! The Insights page (`/insights`), from `content/pages/insights.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Icon, Meta, SectionIntro};

/// The Insights page (`/insights`), from `content/pages/insights.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InsightsPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The search box and Filter button under the hero.
    pub search: InsightsSearch,
    /// The featured articles.
    pub featured: FeaturedSection,
    /// The grid of latest articles.
    pub latest: LatestSection,
    /// The free resources.
    pub resources: ResourcesSection,
    /// The newsletter sign-up block.
    pub newsletter: NewsletterSection,
}

/// The words of the search box and the Filter button.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InsightsSearch {
    /// Accessible name of the search region and its box.
    pub label: String,
    /// Hint shown in the empty box.
    pub placeholder: String,
    /// The Filter button's text.
    pub filter_label: String,
}

/// A heading and the featured articles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeaturedSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The badge on articles whose `featured` flag is set (`Featured`).
    pub featured_label: String,
    /// The articles, in order.
    pub items: Vec<FeaturedArticle>,
}

/// An article shown large, with its author's picture.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeaturedArticle {
    /// The article's heading.
    pub title: String,
    /// Two or three sentences.
    pub excerpt: String,
    /// Who wrote it.
    pub author: String,
    /// The author's role.
    pub role: String,
    /// Publication date as displayed (`March 12, 2024`).
    pub date: String,
    /// Reading time as displayed (`8 min read`).
    pub read_time: String,
    /// The topic shown as a badge.
    pub category: String,
    /// The illustration under `site/public`.
    pub image: String,
    /// The illustration's alternative text.
    pub image_alt: String,
    /// The author's picture under `site/public` (decorative: the name is shown beside it).
    pub avatar: String,
    /// Whether the article carries the Featured badge.
    pub featured: bool,
}

/// A heading and the grid of latest articles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatestSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The badge text of each kind of article.
    pub type_labels: ArticleTypeLabels,
    /// The articles, newest first.
    pub items: Vec<LatestArticle>,
}

/// An article in the grid of latest articles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatestArticle {
    /// The article's heading.
    pub title: String,
    /// One or two sentences.
    pub excerpt: String,
    /// Who wrote it.
    pub author: String,
    /// The author's role.
    pub role: String,
    /// Publication date as displayed (`March 12, 2024`).
    pub date: String,
    /// Reading time as displayed (`8 min read`).
    pub read_time: String,
    /// The topic.
    pub category: String,
    /// What kind of piece it is.
    #[serde(rename = "type")]
    pub kind: ArticleType,
    /// The illustration under `site/public`.
    pub image: String,
    /// The illustration's alternative text.
    pub image_alt: String,
}

/// What kind of piece an article is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, TS, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArticleType {
    /// An opinion or how-to article.
    Article,
    /// A client story.
    CaseStudy,
    /// A technical deep dive.
    Technical,
    /// A long-form research paper.
    Whitepaper,
}

/// The badge text of each [`ArticleType`].
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArticleTypeLabels {
    /// For `article`.
    pub article: String,
    /// For `case-study`.
    pub case_study: String,
    /// For `technical`.
    pub technical: String,
    /// For `whitepaper`.
    pub whitepaper: String,
}

/// A heading and the free resources.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResourcesSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// Caption of each download count (`downloads`).
    pub downloads_label: String,
    /// The resources, in order.
    pub items: Vec<Resource>,
}

/// A free resource such as a whitepaper or a webinar recording.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// The card's icon.
    pub icon: Icon,
    /// The kind of resource as displayed (`Whitepaper`, `Guide`, `Checklist`, `Webinar`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The card's heading.
    pub title: String,
    /// One or two sentences.
    pub description: String,
    /// Its size or length as displayed (`32 pages`, `60 minutes`).
    pub details: String,
    /// How often it was downloaded, as displayed (`2.3K`).
    pub download_count: String,
}

/// The newsletter sign-up block.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsletterSection {
    /// The block's heading block.
    pub intro: SectionIntro,
    /// Label of the email box.
    pub email_label: String,
    /// Hint shown in the empty email box.
    pub email_placeholder: String,
    /// The button's text.
    pub submit_label: String,
    /// The small print under the box.
    pub note: String,
}
