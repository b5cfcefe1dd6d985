//! The Insights page (`/insights`), from `content/pages/insights.yaml`: the words around the
//! articles, which come from `content/articles/`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{CallToAction, Hero, Icon, Meta, SectionIntro};

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
    /// The words of every article page and category page.
    pub article: ArticleWords,
    /// How a category's articles are split into pages, and the words of their navigation.
    pub pagination: Pagination,
}

/// A category's articles in pages of `per_page`, newest first: the first page at
/// `/insights/category/<slug>`, the next ones at `/insights/category/<slug>/page/<n>`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pagination {
    /// How many articles one page lists (at least 1).
    #[ts(type = "number")]
    pub per_page: std::num::NonZeroU32,
    /// The link to the page of newer articles (`Newer articles`).
    pub previous_label: String,
    /// The link to the page of older articles (`Older articles`).
    pub next_label: String,
    /// Where the visitor is; `{page}` and `{pages}` are replaced (`Page {page} of {pages}`).
    pub page_label: String,
}

impl Pagination {
    /// How many pages list `articles` articles: at least one, which may be empty.
    pub fn pages(&self, articles: usize) -> u32 {
        let per_page = self.per_page.get() as usize;
        u32::try_from(articles.div_ceil(per_page).max(1)).unwrap_or(u32::MAX)
    }

    /// The page label of page `page` of `pages`.
    pub fn label(&self, page: u32, pages: u32) -> String {
        self.page_label
            .replace("{page}", &page.to_string())
            .replace("{pages}", &pages.to_string())
    }
}

/// The words around an article (`/insights/<slug>`) and on the category pages.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArticleWords {
    /// After the number of minutes (`min read`).
    pub read_time_suffix: String,
    /// The heading of the table of contents.
    pub toc_label: String,
    /// The heading of the related articles.
    pub related_title: String,
    /// The call to action closing every article.
    pub cta: CallToAction,
    /// The eyebrow of a category page's hero (`Insights`).
    pub category_eyebrow: String,
    /// The heading of the list on a category page (`All articles`).
    pub category_list_title: String,
    /// The link back to every article (`All insights`).
    pub all_insights_label: String,
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
    /// The heading of the filter's categories.
    pub categories_label: String,
    /// The heading of the filter's types.
    pub types_label: String,
    /// The choice that removes a filter (`All`).
    pub all_label: String,
    /// The live count of search results; `{count}` is replaced (`{count} results`).
    pub results_label: String,
    /// Said when nothing matches.
    pub no_results: String,
}

/// A heading and the featured articles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeaturedSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The badge on articles whose `featured` flag is set (`Featured`).
    pub featured_label: String,
}

/// A heading and the grid of latest articles.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatestSection {
    /// The section's heading block.
    pub intro: SectionIntro,
    /// The badge text of each kind of article.
    pub type_labels: ArticleTypeLabels,
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

/// The newsletter sign-up block; its button, messages and small print (the consent) are the
/// newsletter form's, in `forms.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsletterSection {
    /// The block's heading block.
    pub intro: SectionIntro,
    /// Label of the email box.
    pub email_label: String,
    /// Hint shown in the empty email box.
    pub email_placeholder: String,
}
