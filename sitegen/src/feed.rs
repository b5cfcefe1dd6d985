//! The Atom feed of the articles (`/feed.xml`): the newest [`FEED_ENTRIES`], absolute URLs from
//! the base URL, each entry with its summary (the excerpt) and full content (the rendered body).
//! Each language has its own, of its own articles (`/et/feed.xml`), at the content's
//! `feed_path`, with the pages' paths taken from its routes.

use std::path::Path;

use anyhow::{Context, Result};
use minijinja::context;

use crate::content::{Content, FixedPage, RouteKind};
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
    // A page's path in the content's language, from its routes (the default language's
    // paths are the kinds' own).
    let paths: std::collections::HashMap<&RouteKind, &str> = content
        .routes
        .iter()
        .map(|route| (&route.kind, route.path.as_str()))
        .collect();
    let path_of = |kind: &RouteKind| -> Result<String> {
        Ok(paths
            .get(kind)
            .map_or_else(|| kind.path(), |path| (*path).to_owned()))
    };
    let mut entries = Vec::new();
    for article in content.articles.iter().take(FEED_ENTRIES) {
        let path = path_of(&RouteKind::Article {
            slug: article.slug.clone(),
        })?;
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
            feed_url => base.join(content.feed_path.trim_start_matches('/'))?.to_string(),
            insights_url => url_of(&path_of(&RouteKind::Fixed(insights))?)?,
            base_url => base.to_string(),
            title => &meta.title,
            subtitle => &meta.description,
            updated,
            entries,
        },
    )
}

/// Writes the feed of `content` at its `feed_path` into the site directory `dir`: the name of
/// the file written (`feed.xml`, `et/feed.xml`).
pub fn write(dir: &Path, content: &Content) -> Result<String> {
    let name = content.feed_path.trim_start_matches('/').to_owned();
    let path = dir.join(&name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(&path, render(content)?)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(name)
}
