//! The languages of the site and the one table of a page's versions in each of them.
//!
//! [`link`] runs once, after every language's routes are derived. It gives every route its
//! [`Versions`]: the canonical URL, the `hreflang` set and the language switcher's links. The
//! page's `<head>`, the switcher and `sitemap.xml` all read this table and nothing else, so
//! they cannot disagree (Google ignores an `hreflang` set that is not identical and
//! reciprocal on every version). It also points the links of each translation at the pages of
//! its own language: a translation never writes a link, it takes the source's.

use std::collections::HashMap;

use rayon::prelude::*;
use serde::Serialize;

use super::Content;
use super::loader::Loader;
use super::routes::{HrefLang, RouteKind, Version, Versions};
use super::settings::Settings;
use super::translate;

/// The absolute URL of the page at `path` (`/about` -> `https://example.com/about/`), as
/// the canonical link, `hreflang` and the sitemap write it.
pub fn page_url(base_url: &str, path: &str) -> String {
    let base = base_url.trim_end_matches('/');
    match path {
        "/" => format!("{base}/"),
        _ => format!("{base}{path}/"),
    }
}

/// Whether `tag` is a BCP 47 language tag of the forms search engines accept: a two- or
/// three-letter language, then optionally a four-letter script and a two-letter or
/// three-digit region (`en`, `et`, `pt-BR`, `zh-Hans`, `es-419`).
pub fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let Some(language) = parts.next() else {
        return false;
    };
    if !(2..=3).contains(&language.len()) || !language.chars().all(|c| c.is_ascii_lowercase()) {
        return false;
    }
    let mut rest: Vec<&str> = parts.collect();
    if rest
        .first()
        .is_some_and(|s| s.len() == 4 && s.chars().all(|c| c.is_ascii_alphabetic()))
    {
        rest.remove(0);
    }
    match rest.as_slice() {
        [] => true,
        [region] => {
            (region.len() == 2 && region.chars().all(|c| c.is_ascii_uppercase()))
                || (region.len() == 3 && region.chars().all(|c| c.is_ascii_digit()))
        }
        _ => false,
    }
}

/// Reports a language tag that is not BCP 47, and one named twice.
pub(super) fn check_languages(loader: &mut Loader, settings: &Settings) {
    for (i, language) in settings.languages.iter().enumerate() {
        if !is_language_tag(&language.tag) {
            loader.error(
                super::SITE_FILE,
                Some(&format!("languages[{i}].tag")),
                format!(
                    "`{}` is not a BCP 47 language tag: write a language (`et`), optionally with \
                     a script or region (`pt-BR`, `zh-Hans`)",
                    language.tag
                ),
            );
        }
        if language.search_fold().len() != language.search_folds.len() {
            loader.error(
                super::SITE_FILE,
                Some(&format!("languages[{i}].search_folds")),
                "each entry is one letter and the one letter it is typed as (`õ: o`)".into(),
            );
        }
        if settings.languages[..i]
            .iter()
            .any(|l| l.tag == language.tag)
        {
            loader.error(
                super::SITE_FILE,
                Some(&format!("languages[{i}].tag")),
                format!("the language `{}` is named twice", language.tag),
            );
        }
    }
}

/// Reports a translation that nothing would publish: one in a language the site does not have
/// (`about.de.yaml` beside `languages: [en, et]`), and one whose source is gone (an article
/// renamed without its translation). Either would otherwise vanish without a word.
pub(super) fn check_translation_files(loader: &mut Loader, settings: &Settings) {
    let root = loader.root().to_owned();
    let tags: Vec<&str> = settings
        .languages
        .iter()
        .skip(1)
        .map(|l| l.tag.as_str())
        .collect();
    // Each translation (`pages/about.et.yaml`) with its source (`pages/about.yaml`).
    let mut found: Vec<(String, String)> = loader
        .files()
        .iter()
        .filter_map(|rel| {
            let ext = rel.rsplit_once('.')?.1;
            let source = translate::source_path(rel)?;
            matches!(ext, "md" | "yaml" | "yml").then(|| (rel.clone(), source))
        })
        .collect();
    found.sort();
    for (rel, source) in found {
        let tag = rel.rsplit('.').nth(1).unwrap_or_default();
        if !tags.contains(&tag) {
            let languages = match tags.as_slice() {
                [] => "the site has one language".to_owned(),
                tags => format!("its other languages are {}", tags.join(", ")),
            };
            loader.error(
                &rel,
                None,
                format!(
                    "a translation into `{tag}`, which is not in `languages` of {}: {languages}; \
                     add the language or delete the file",
                    super::SITE_FILE
                ),
            );
        } else if !root.join(&source).is_file() {
            loader.error(
                &rel,
                None,
                format!(
                    "translates `{source}`, which does not exist: a renamed file takes its \
                     translations with it (rename this one too), or delete it"
                ),
            );
        }
    }
}

/// Computes every route's [`Versions`] in `content` and its translations, and points the
/// links of each translation at its own language's pages. Does nothing for a site of one
/// language.
pub(super) fn link(content: &mut Content) {
    if content.translations.is_empty() {
        return;
    }
    let base_url = content.settings.base_url.clone();
    let languages = content.settings.languages.clone();
    // Per language: each page's path, and whether it is a translation.
    let mut tables: Vec<HashMap<RouteKind, (String, bool)>> = Vec::new();
    for (i, language) in std::iter::once(&*content)
        .chain(content.translations.iter())
        .enumerate()
    {
        tables.push(
            language
                .routes
                .iter()
                .map(|route| {
                    let translated =
                        i == 0 || language.translated.contains(&route.kind.source_file());
                    (route.kind.clone(), (route.path.clone(), translated))
                })
                .collect(),
        );
    }
    let versions_of = |kind: &RouteKind, current: usize| -> Versions {
        let default_url = tables[0]
            .get(kind)
            .map(|(path, _)| page_url(&base_url, path))
            .unwrap_or_default();
        let mut hreflang: Vec<HrefLang> = languages
            .iter()
            .zip(&tables)
            .filter_map(|(language, table)| {
                let (path, translated) = table.get(kind)?;
                translated.then(|| HrefLang {
                    hreflang: language.tag.clone(),
                    href: page_url(&base_url, path),
                })
            })
            .collect();
        hreflang.push(HrefLang {
            hreflang: "x-default".into(),
            href: default_url.clone(),
        });
        let (own_path, translated) = tables[current].get(kind).cloned().unwrap_or_default();
        Versions {
            canonical: if translated {
                page_url(&base_url, &own_path)
            } else {
                default_url
            },
            hreflang,
            languages: languages
                .iter()
                .zip(&tables)
                .enumerate()
                .map(|(i, (language, table))| Version {
                    tag: language.tag.clone(),
                    name: language.name.clone(),
                    path: table.get(kind).map(|(path, _)| path.clone()),
                    current: i == current,
                })
                .collect(),
        }
    };
    // One route's versions read the tables alone: an archive's thousands, on every core.
    content
        .routes
        .par_iter_mut()
        .for_each(|route| route.versions = Some(versions_of(&route.kind, 0)));
    for (i, translation) in content.translations.iter_mut().enumerate() {
        for route in &mut translation.routes {
            route.versions = Some(versions_of(&route.kind, i + 1));
        }
        // The source's path of each page -> its path in this language.
        let paths: HashMap<String, String> = tables[0]
            .iter()
            .filter_map(|(kind, (path, _))| {
                Some((path.clone(), tables[i + 1].get(kind)?.0.clone()))
            })
            .collect();
        localize_links(translation, &paths);
    }
}

/// Points every link of `content` (a translation, whose links are its source's) at the
/// page's version in its language, where it has one: `href`s of the YAML and the articles'
/// bodies. A link to a page not published in the language keeps the source's page.
fn localize_links(content: &mut Content, paths: &HashMap<String, String>) {
    fn walk(value: &mut serde_json::Value, paths: &HashMap<String, String>) {
        match value {
            serde_json::Value::Object(fields) => {
                for (key, value) in fields.iter_mut() {
                    match value {
                        serde_json::Value::String(href) if key == "href" => {
                            if let Some(local) = local_href(href, paths) {
                                *href = local;
                            }
                        }
                        _ => walk(value, paths),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| walk(v, paths)),
            _ => {}
        }
    }
    /// `part` with its links localized; `hidden` adds back what `part` does not serialize
    /// but needs to be read (`moved` of the settings). A part that does not read back is a
    /// bug of the model, not of the content: it keeps its links.
    fn relink<T: Serialize + serde::de::DeserializeOwned>(
        part: &mut T,
        paths: &HashMap<String, String>,
        hidden: &[(&str, serde_json::Value)],
    ) {
        let Ok(mut value) = serde_json::to_value(&*part) else {
            return;
        };
        walk(&mut value, paths);
        if let serde_json::Value::Object(fields) = &mut value {
            for (name, hidden) in hidden {
                fields.insert((*name).to_owned(), hidden.clone());
            }
        }
        match serde_json::from_value(value) {
            Ok(localized) => *part = localized,
            Err(err) => debug_assert!(false, "a part of the content does not read back: {err}"),
        }
    }
    // `cache` is not serialized and need not be read back; `moved` must be. Only the default
    // language's pages use either.
    let cache = content.settings.cache.clone();
    let moved = serde_json::to_value(&content.settings.moved).unwrap_or_default();
    relink(&mut content.settings, paths, &[("moved", moved)]);
    content.settings.cache = cache;
    relink(&mut content.pages, paths, &[]);
    relink(&mut content.services, paths, &[]);
    relink(&mut content.forms, paths, &[]);
    for article in &mut content.articles {
        article.html = localize_html(&article.html, paths).into();
    }
}

/// The path in the language of `href` (`/contact#form` -> `/et/contact#form`), if it is a link
/// to a page that has a version there.
pub fn local_href(href: &str, paths: &HashMap<String, String>) -> Option<String> {
    if !href.starts_with('/') || href.starts_with("//") {
        return None;
    }
    let cut = href.find(['#', '?']).unwrap_or(href.len());
    let (path, rest) = href.split_at(cut);
    let trimmed = match path.trim_end_matches('/') {
        "" => "/",
        trimmed => trimmed,
    };
    paths.get(trimmed).map(|local| format!("{local}{rest}"))
}

/// `html` with each `href="/..."` pointing at the page's version in the language.
pub fn localize_html(html: &str, paths: &HashMap<String, String>) -> String {
    const ATTR: &str = "href=\"";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(ATTR) {
        let (before, after) = rest.split_at(at + ATTR.len());
        out.push_str(before);
        let end = after.find('"').unwrap_or(after.len());
        let href = &after[..end];
        match local_href(href, paths) {
            Some(local) => out.push_str(&local),
            None => out.push_str(href),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_tags_are_checked_as_search_engines_read_them() {
        for good in ["en", "et", "pt-BR", "zh-Hans", "es-419", "zh-Hans-CN"] {
            assert!(is_language_tag(good), "{good}");
        }
        for bad in ["", "EN", "english", "e", "en_GB", "en-gb", "GB", "et-"] {
            assert!(!is_language_tag(bad), "{bad}");
        }
    }

    #[test]
    fn links_point_at_the_language_version_keeping_fragment_and_query() {
        let paths: HashMap<String, String> = [
            ("/".to_owned(), "/et".to_owned()),
            ("/contact".to_owned(), "/et/contact".to_owned()),
        ]
        .into();
        assert_eq!(
            local_href("/contact#form", &paths).as_deref(),
            Some("/et/contact#form")
        );
        assert_eq!(
            local_href("/contact/", &paths).as_deref(),
            Some("/et/contact")
        );
        assert_eq!(local_href("/", &paths).as_deref(), Some("/et"));
        assert_eq!(local_href("/insights/untranslated", &paths), None);
        assert_eq!(local_href("https://example.com/contact", &paths), None);
        assert_eq!(
            localize_html(
                r#"<a href="/contact">x</a> <a href="https://a.b/">y</a>"#,
                &paths
            ),
            r#"<a href="/et/contact">x</a> <a href="https://a.b/">y</a>"#
        );
    }

    #[test]
    fn urls_are_absolute_with_a_trailing_slash() {
        assert_eq!(page_url("https://a.example", "/"), "https://a.example/");
        assert_eq!(
            page_url("https://a.example/", "/et"),
            "https://a.example/et/"
        );
    }
}
