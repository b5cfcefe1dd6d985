//! The static search index of the articles (`/search-index.json`), built at `sitegen build`
//! and fetched by the Insights search box the first time it gets focus.
//!
//! An inverted index: every word of an article's title, excerpt, author and body maps to the
//! articles containing it with a weight (a title word counts most, a body word least), so the
//! browser matches the typed words (the last one as a prefix) without reading any body text.
//! Words are lowercased runs of letters and digits; the browser splits a query the same way.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::content::{Content, RouteKind};

pub use crate::content::articles::SEARCH_INDEX_FILE as INDEX_FILE;

const TITLE_WEIGHT: u32 = 20;
const META_WEIGHT: u32 = 8;
const BODY_WEIGHT: u32 = 1;
/// A word repeated in a body counts at most this often, so long articles do not drown short ones.
const BODY_REPEAT_CAP: u32 = 5;

/// One searchable article: what a result shows.
#[derive(Debug, Serialize)]
pub struct Doc {
    url: String,
    title: String,
    excerpt: String,
    author: String,
}

/// The whole index.
#[derive(Debug, Serialize)]
pub struct Index {
    docs: Vec<Doc>,
    /// Word -> `[doc, weight]` pairs, heaviest first.
    words: BTreeMap<String, Vec<(usize, u32)>>,
}

/// Lowercased runs of letters and digits.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// Builds the index of every article.
pub fn build(content: &Content) -> Index {
    let mut docs = Vec::new();
    let mut words_map: BTreeMap<String, BTreeMap<usize, u32>> = BTreeMap::new();
    for (i, article) in content.articles.iter().enumerate() {
        let author = content
            .authors
            .get(&article.author)
            .map_or(article.author.clone(), |a| a.name.clone());
        let mut add = |text: &str, weight: u32, cap: u32| {
            let mut seen: BTreeMap<String, u32> = BTreeMap::new();
            for word in words(text) {
                let n = seen.entry(word).or_insert(0);
                if *n < cap {
                    *n += 1;
                }
            }
            for (word, n) in seen {
                *words_map.entry(word).or_default().entry(i).or_insert(0) += weight * n;
            }
        };
        add(&article.title, TITLE_WEIGHT, 1);
        add(&article.excerpt, META_WEIGHT, 1);
        add(&author, META_WEIGHT, 1);
        add(&article.text, BODY_WEIGHT, BODY_REPEAT_CAP);
        docs.push(Doc {
            url: RouteKind::Article {
                slug: article.slug.clone(),
            }
            .path(),
            title: article.title.clone(),
            excerpt: article.excerpt.clone(),
            author,
        });
    }
    let words = words_map
        .into_iter()
        .map(|(word, postings)| {
            let mut postings: Vec<(usize, u32)> = postings.into_iter().collect();
            postings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            (word, postings)
        })
        .collect();
    Index { docs, words }
}

/// Writes `search-index.json` into the site directory `dir`.
pub fn write(dir: &Path, content: &Content) -> Result<()> {
    let path = dir.join(INDEX_FILE);
    let json = serde_json::to_vec(&build(content)).context("serialising the search index")?;
    std::fs::write(&path, json).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_runs_of_letters_and_digits() {
        let found: Vec<String> = words("Kubernetes' cost, in 2024: 95%!").collect();
        assert_eq!(found, ["kubernetes", "cost", "in", "2024", "95"]);
    }
}
