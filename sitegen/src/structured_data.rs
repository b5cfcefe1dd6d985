//! The check of a page's structured data (`<script type="application/ld+json">`, built by
//! site/lib/structuredData.server.ts): search engines drop a graph whose nodes point at nodes
//! it does not hold, and a URL in it that leads nowhere is a broken link no browser shows.
//! So, as part of the output's verification ([`crate::check`]), each block must be a JSON-LD
//! document of schema.org with an `@graph`, every reference (`{"@id": ...}` alone) must name a
//! node of the same graph, and every URL on the site's own origin must lead to a published
//! page or asset.

use std::collections::BTreeSet;

use serde_json::Value;

/// The JSON-LD blocks of a page's HTML, as written: the text of each
/// `<script type="application/ld+json">`, the one form the site writes.
pub fn blocks(html: &str) -> Vec<String> {
    const OPEN: &str = r#"<script type="application/ld+json">"#;
    html.match_indices(OPEN)
        .filter_map(|(at, _)| {
            let rest = &html[at + OPEN.len()..];
            rest.find("</script").map(|end| rest[..end].to_owned())
        })
        .collect()
}

/// What is wrong with the JSON-LD `block`, one sentence each. `site_url` is the site's base URL
/// (`https://www.example.com`), and `published` tells whether a path of the site (`/et/about`,
/// without its fragment) is a published page or asset.
pub fn problems(block: &str, site_url: &str, published: impl Fn(&str) -> bool) -> Vec<String> {
    let document: Value = match serde_json::from_str(block) {
        Ok(document) => document,
        Err(err) => return vec![format!("structured data is not JSON: {err}")],
    };
    let mut problems = Vec::new();
    if document.get("@context").and_then(Value::as_str) != Some("https://schema.org") {
        problems.push(r#"structured data has no "@context": "https://schema.org""#.to_owned());
    }
    if !document.get("@graph").is_some_and(Value::is_array) {
        problems.push(r#"structured data has no "@graph" list of nodes"#.to_owned());
    }
    let mut nodes = Nodes::default();
    nodes.walk(&document);
    for id in nodes.references.difference(&nodes.defined) {
        problems.push(format!(
            "structured data refers to `{id}`, a node its graph does not hold"
        ));
    }
    let site_url = site_url.trim_end_matches('/');
    for url in &nodes.strings {
        let Some(rest) = url.strip_prefix(site_url) else {
            continue;
        };
        if !(rest.is_empty() || rest.starts_with(['/', '#', '?'])) {
            continue;
        }
        let path = rest.split(['#', '?']).next().unwrap_or_default();
        let path = if path.is_empty() { "/" } else { path };
        if !published(path) {
            problems.push(format!(
                "structured data links `{url}`, which is not published"
            ));
        }
    }
    problems
}

/// What a walk over a document found.
#[derive(Default)]
struct Nodes {
    /// The `@id` of every node that says more than its `@id`.
    defined: BTreeSet<String>,
    /// The `@id` of every object that is nothing but an `@id`: a reference.
    references: BTreeSet<String>,
    /// Every string value, where the URLs are.
    strings: BTreeSet<String>,
}

impl Nodes {
    fn walk(&mut self, value: &Value) {
        match value {
            Value::Object(fields) => {
                if let Some(id) = fields.get("@id").and_then(Value::as_str) {
                    match fields.len() {
                        1 => self.references.insert(id.to_owned()),
                        _ => self.defined.insert(id.to_owned()),
                    };
                }
                fields.values().for_each(|v| self.walk(v));
            }
            Value::Array(items) => items.iter().for_each(|v| self.walk(v)),
            Value::String(text) => {
                self.strings.insert(text.clone());
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "https://example.com";

    fn check(block: &str) -> Vec<String> {
        problems(block, SITE, |path| {
            ["/", "/about", "/logo.svg"].contains(&path)
        })
    }

    #[test]
    fn a_sound_graph_has_no_problem() {
        let block = r##"{"@context":"https://schema.org","@graph":[
            {"@type":"Organization","@id":"https://example.com/#org","logo":"https://example.com/logo.svg"},
            {"@type":"WebPage","@id":"https://example.com/about#webpage","url":"https://example.com/about",
             "publisher":{"@id":"https://example.com/#org"},"sameAs":"https://elsewhere.example/x"}]}"##;
        assert_eq!(check(block), Vec::<String>::new());
    }

    #[test]
    fn a_dangling_reference_and_an_unpublished_url_are_reported() {
        let block = r##"{"@context":"https://schema.org","@graph":[
            {"@type":"WebPage","@id":"https://example.com/about#webpage","url":"https://example.com/gone",
             "publisher":{"@id":"https://example.com/#org"}}]}"##;
        assert_eq!(
            check(block),
            vec![
                "structured data refers to `https://example.com/#org`, a node its graph does not hold",
                "structured data links `https://example.com/gone`, which is not published",
            ]
        );
    }

    #[test]
    fn a_block_that_is_no_json_ld_graph_is_reported() {
        assert_eq!(check("{").len(), 1);
        assert_eq!(check(r#"{"@type":"Thing"}"#).len(), 2);
    }

    #[test]
    fn the_blocks_of_a_page_are_found_as_the_site_writes_them() {
        let html =
            r#"<head><script type="application/ld+json">{"a":1}</script><script>x</script></head>"#;
        assert_eq!(blocks(html), vec![r#"{"a":1}"#]);
    }
}
