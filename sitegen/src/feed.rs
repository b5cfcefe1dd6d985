//! The Atom feed of the articles (`/feed.xml`): the newest [`FEED_ENTRIES`], absolute URLs from
//! the base URL, each entry with its summary (the excerpt) and full content (the rendered body).

use std::path::Path;

use anyhow::{Context, Result};
use minijinja::context;

use crate::content::Content;
use crate::content::FixedPage;
use crate::outputs;

pub use crate::content::articles::{FEED_ENTRIES, FEED_FILE};

/// An ISO date as an Atom timestamp (midnight UTC).
fn timestamp(date: &str) -> String {
    format!("{date}T00:00:00Z")
}

/// The feed's XML.
pub fn render(content: &Content) -> Result<String> {
    let base = outputs::parse_base_url(&content.settings.base_url)?;
    let url_of = |path: &str| -> Result<String> {
        let path = crate::output_dir::route_url_path(path)?;
        Ok(base
            .join(path.trim_start_matches('/'))
            .with_context(|| format!("path {path:?} does not form a URL"))?
            .to_string())
    };
    let insights = FixedPage::Insights;
    let mut entries = Vec::new();
    for article in content.articles.iter().take(FEED_ENTRIES) {
        let path = crate::content::RouteKind::Article {
            slug: article.slug.clone(),
        }
        .path();
        entries.push(context! {
            url => url_of(&path)?,
            title => &article.title,
            date => timestamp(&article.date),
            author => content
                .authors
                .get(&article.author)
                .map_or(article.author.as_str(), |a| a.name.as_str()),
            category => &article.category,
            category_label => content
                .services
                .iter()
                .find(|c| c.slug == article.category)
                .map_or(article.category.as_str(), |c| c.name.as_str()),
            summary => &article.excerpt,
            content => crate::content::articles::without_previews(&article.html),
        });
    }
    // Articles are newest first; an empty feed is as new as the oldest possible article.
    let updated = content
        .articles
        .first()
        .map_or_else(|| timestamp("1970-01-01"), |a| timestamp(&a.date));
    let meta = content.pages.meta(insights);
    let env = outputs::environment()?;
    outputs::render(
        &env,
        "feed.xml.j2",
        context! {
            language => &content.settings.language,
            feed_url => base.join(FEED_FILE)?.to_string(),
            insights_url => url_of(insights.path())?,
            base_url => base.to_string(),
            title => &meta.title,
            subtitle => &meta.description,
            updated,
            entries,
        },
    )
}

/// Writes `feed.xml` into the site directory `dir`.
pub fn write(dir: &Path, content: &Content) -> Result<()> {
    let path = dir.join(FEED_FILE);
    std::fs::write(&path, render(content)?).with_context(|| format!("writing {}", path.display()))
}
