//! The old paths of the site and what answers each: the one redirects table every host's rules
//! are written from (`_redirects`, the pages left at old paths, the CloudFront Function, the
//! objects `sitegen deploy` writes, `sitegen serve`).
//!
//! A path comes from one of two places: a page's `aliases` (its old paths, in `meta.aliases`,
//! or an article's front matter), or `content/redirects.yaml`, which moves a path to another
//! path or to another site, or marks it `gone` on purpose. Every entry is checked like the
//! rest of the content and reported at its `file:line:col`: an old path that is a published
//! page, two entries for one path, a path that leads to no page, and a loop; a chain is
//! collapsed to its final target, with a warning.

use std::collections::{BTreeSet, HashMap};

use serde::Deserialize;

use super::Content;
use super::articles::ARTICLES_DIR;
use super::error::ContentError;
use super::loader::Loader;
use super::pages::FixedPage;
use super::routes::RouteKind;
use super::routes::closest;

/// The file of moved and removed paths, under the content directory.
pub const REDIRECTS_FILE: &str = "redirects.yaml";

/// The target of `redirects.yaml` that answers a path as removed on purpose (410 Gone).
pub const GONE: &str = "gone";

/// `content/redirects.yaml`: each old path (`/services/legacy`) with where it now leads: a
/// path of the site (`/services/cloud-services`), an absolute URL of another site, or `gone`
/// for a page removed on purpose. Read in the order written, a path written twice included,
/// so that it can be reported.
#[derive(Debug, Clone, Default)]
pub struct RedirectsFile(pub Vec<(String, String)>);

impl<'de> Deserialize<'de> for RedirectsFile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = RedirectsFile;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map of old paths to a path, a URL or `gone`")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, String>()? {
                    entries.push(entry);
                }
                Ok(RedirectsFile(entries))
            }
            /// A file of comments only, once its last entry is removed.
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(RedirectsFile::default())
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

impl schemars::JsonSchema for RedirectsFile {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RedirectsFile".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "`content/redirects.yaml`: each old path (`/services/legacy`) with where it now leads: a path of the site (`/services/cloud-services`), an absolute URL of another site (`https://...`), or `gone` for a page removed on purpose.",
            "type": "object",
            "propertyNames": { "pattern": "^/" },
            "additionalProperties": { "type": "string" },
        })
    }
}

/// One old path and what answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The old path, written as routes are (`/insights/old-slug`, no trailing slash).
    pub from: String,
    /// What answers it, chains already followed to their end.
    pub to: Target,
    /// Whether a page lists it among its `aliases` (else `redirects.yaml` does).
    pub alias: bool,
    /// Where it is written, for a mistake found once the output is known.
    pub at: ContentError,
}

impl Redirect {
    /// A mistake of this entry, at the place it is written.
    pub fn error(&self, message: String) -> ContentError {
        ContentError {
            message,
            ..self.at.clone()
        }
    }
}

/// What answers an old path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A page of the site: its route (`/about`), with a `#fragment` when one was written.
    Page(String),
    /// Another site's absolute URL.
    Url(String),
    /// Removed on purpose: 410 Gone.
    Gone,
}

/// An old path as written, before the whole table is known.
struct Declared {
    /// Normalised as a route.
    from: String,
    /// What it leads to, as written.
    to: Written,
    /// Where it is written, with no message yet.
    at: ContentError,
}

impl Declared {
    fn mistake(&self, message: String) -> ContentError {
        ContentError {
            message,
            ..self.at.clone()
        }
    }
}

enum Written {
    /// An alias of this route.
    AliasOf(String),
    /// An entry of `redirects.yaml`, once its value is read.
    Entry(Target),
}

/// `content/redirects.yaml:3:1`: where `at` is, as a message names another place.
fn written_at(at: &ContentError) -> String {
    let mut text = at.file.display().to_string();
    if let Some(line) = at.line {
        text.push_str(&format!(":{line}"));
        if let Some(column) = at.column {
            text.push_str(&format!(":{column}"));
        }
    }
    text
}

/// The place `position` of the content file `rel`, for a message.
fn place(loader: &Loader, rel: &str, position: Option<(usize, usize)>) -> ContentError {
    ContentError {
        file: loader.root().join(rel),
        line: position.map(|p| p.0),
        column: position.map(|p| p.1),
        message: String::new(),
    }
}

/// Every path the content redirects, sorted by path; mistakes go to `loader`, each at the
/// entry that wrote it.
pub(crate) fn derive(
    loader: &mut Loader,
    content: &Content,
    file: Option<&RedirectsFile>,
) -> Vec<Redirect> {
    let routes: BTreeSet<&str> = content.routes.iter().map(|r| r.path.as_str()).collect();
    let mut declared = Vec::new();
    let mut mistakes = Vec::new();
    for (route, file, field, aliases) in aliases(content) {
        for (i, alias) in aliases.iter().enumerate() {
            let field = format!("{field}[{i}]");
            let at = place(loader, &file, loader.position(&file, &field));
            match normalise(alias) {
                Ok(from) => declared.push(Declared {
                    from,
                    to: Written::AliasOf(route.clone()),
                    at,
                }),
                Err(problem) => mistakes.push(ContentError {
                    message: format!("alias `{alias}` {problem}"),
                    ..at
                }),
            }
        }
    }
    let mut times: HashMap<&str, usize> = HashMap::new();
    for (key, to) in file.map(|f| &f.0).into_iter().flatten() {
        let n = times.entry(key).or_default();
        let at = place(
            loader,
            REDIRECTS_FILE,
            loader.key_position(REDIRECTS_FILE, key, *n),
        );
        *n += 1;
        match entry(key, to) {
            Ok((from, to)) => declared.push(Declared {
                from,
                to: Written::Entry(to),
                at,
            }),
            Err(message) => mistakes.push(ContentError { message, ..at }),
        }
    }

    // Old paths that are live pages, or written twice.
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut kept = Vec::new();
    for (i, entry) in declared.iter().enumerate() {
        if routes.contains(entry.from.as_str()) {
            let what = match &entry.to {
                Written::AliasOf(_) => format!("alias `{}`", entry.from),
                Written::Entry(_) => format!("`{}`", entry.from),
            };
            mistakes.push(entry.mistake(format!(
                "{what} is the path of a published page, which it would hide: remove it, or \
                 move that page"
            )));
            continue;
        }
        if let Some(&before) = first.get(entry.from.as_str()) {
            let other = written_at(&declared[before].at);
            mistakes.push(entry.mistake(format!(
                "`{}` has two entries: {other} also redirects it; keep one",
                entry.from
            )));
            continue;
        }
        first.insert(&entry.from, i);
        kept.push(entry);
    }

    // Each path followed to its end.
    let written: HashMap<&str, &Target> = kept
        .iter()
        .filter_map(|e| match &e.to {
            Written::Entry(to) => Some((e.from.as_str(), to)),
            Written::AliasOf(_) => None,
        })
        .collect();
    let mut table = Vec::new();
    for entry in kept {
        let to = match &entry.to {
            Written::AliasOf(route) => Target::Page(route.clone()),
            Written::Entry(to) => match follow(&entry.from, to, &written, &routes) {
                Ok((end, hops)) => {
                    if hops.len() > 1 {
                        loader.warnings.push(entry.mistake(format!(
                            "`{}` redirects through {}: collapsed to `{}`; write that target \
                             here",
                            entry.from,
                            hops.join(" -> "),
                            end.written()
                        )));
                    }
                    end
                }
                Err(problem) => {
                    mistakes.push(entry.mistake(problem));
                    continue;
                }
            },
        };
        table.push(Redirect {
            from: entry.from.clone(),
            to,
            alias: matches!(entry.to, Written::AliasOf(_)),
            at: entry.at.clone(),
        });
    }
    // In the order they are written, whichever check found them.
    mistakes.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    loader.errors.extend(mistakes);
    table.sort_by(|a, b| a.from.cmp(&b.from));
    table
}

/// Follows `to`, written for `from`, through the other entries to a page, a URL or `gone`;
/// returns it with the paths passed on the way (`to` first), or why it leads nowhere.
fn follow(
    from: &str,
    to: &Target,
    written: &HashMap<&str, &Target>,
    routes: &BTreeSet<&str>,
) -> Result<(Target, Vec<String>), String> {
    let mut seen = vec![from.to_owned()];
    let mut hops = Vec::new();
    let mut current = to.clone();
    loop {
        let Target::Page(path) = &current else {
            return Ok((current, hops));
        };
        let route = route_of(path);
        hops.push(path.clone());
        if seen.iter().any(|s| s == route) {
            seen.push(route.to_owned());
            return Err(format!(
                "redirect loop: {}; point one of them at a page",
                seen.join(" -> ")
            ));
        }
        if routes.contains(route) {
            return Ok((current, hops));
        }
        let Some(next) = written.get(route) else {
            let hint = closest(route, routes)
                .map(|r| format!("; did you mean `{r}`?"))
                .unwrap_or_default();
            return Err(format!(
                "`{from}` redirects to `{path}`, which leads to no page{hint}"
            ));
        };
        seen.push(route.to_owned());
        current = (*next).clone();
    }
}

impl Target {
    /// As `redirects.yaml` writes it.
    pub fn written(&self) -> &str {
        match self {
            Target::Page(path) | Target::Url(path) => path,
            Target::Gone => GONE,
        }
    }
}

/// An entry of `redirects.yaml` as written, `from` (an old path) and `to` (a path, a URL or
/// `gone`): the old path as a route and its target, or why it is not one. Whether the
/// target leads to a page is known only with the whole table.
pub fn entry(from: &str, to: &str) -> Result<(String, Target), String> {
    let from = normalise(from).map_err(|problem| format!("`{from}` {problem}"))?;
    Ok((from, target(to)?))
}

/// The route of a path that may carry a `#fragment`.
fn route_of(path: &str) -> &str {
    path.split('#').next().unwrap_or_default()
}

/// The value of an entry of `redirects.yaml`.
fn target(to: &str) -> Result<Target, String> {
    if to == GONE {
        return Ok(Target::Gone);
    }
    if to.starts_with("https://") || to.starts_with("http://") {
        // As the URL serialises (percent-encoded, ASCII), it is one word of `_redirects` and a
        // valid `Location`.
        return match url::Url::parse(to) {
            Ok(url) if url.has_host() && !to.contains(char::is_whitespace) => {
                Ok(Target::Url(url.into()))
            }
            _ => Err(format!("`{to}` is not a URL")),
        };
    }
    if to.starts_with('/') {
        let (path, fragment) = to.split_once('#').map_or((to, None), |(p, f)| (p, Some(f)));
        let path = normalise(path).map_err(|problem| format!("`{to}` {problem}"))?;
        // The target is one word of `_redirects` (found by the fuzz target `redirects`).
        if let Some(c) = fragment
            .into_iter()
            .flat_map(str::chars)
            .find(|c| c.is_whitespace() || c.is_control())
        {
            return Err(format!(
                "`{to}` has {c:?} in its fragment, which a link cannot carry"
            ));
        }
        return Ok(Target::Page(match fragment {
            Some(fragment) => format!("{path}#{fragment}"),
            None => path,
        }));
    }
    Err(format!(
        "`{to}` is neither a path of the site starting with `/`, an http(s) URL, nor `{GONE}`"
    ))
}

/// `path` written as a route (`/old/` -> `/old`), or why it cannot be one. A `:` or `*`
/// would make its line of `_redirects` a pattern rather than an exact path (a `:`, found by
/// the fuzz target `redirects`).
fn normalise(path: &str) -> Result<String, String> {
    let Some(rest) = path.strip_prefix('/') else {
        return Err("must be a path of the site, starting with `/`".into());
    };
    if let Some(c) = path
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '*' | ':' | '\\'))
    {
        return Err(format!("contains {c:?}, which an old path cannot contain"));
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.is_empty() {
        return Ok("/".to_owned());
    }
    if rest
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
    {
        return Err("has an empty, `.` or `..` segment".into());
    }
    Ok(format!("/{rest}"))
}

/// Each page that may list aliases: its route, its file, the field of its aliases and them.
fn aliases(content: &Content) -> Vec<(String, String, String, &[String])> {
    let mut out = Vec::new();
    for page in FixedPage::ALL {
        let meta = content.pages.meta(*page);
        out.push((
            page.path().to_owned(),
            page.file(),
            "meta.aliases".to_owned(),
            meta.aliases.as_slice(),
        ));
    }
    for category in &content.services {
        let file = format!("{}/{}.yaml", super::SERVICES_DIR, category.slug);
        let path = RouteKind::ServiceCategory {
            category: category.slug.clone(),
        }
        .path();
        out.push((
            path,
            file.clone(),
            "meta.aliases".into(),
            &category.meta.aliases,
        ));
        for (i, sub) in category.sub_services.iter().enumerate() {
            let path = RouteKind::SubService {
                category: category.slug.clone(),
                service: sub.slug.clone(),
            }
            .path();
            out.push((
                path,
                file.clone(),
                format!("sub_services[{i}].meta.aliases"),
                &sub.meta.aliases,
            ));
        }
    }
    for article in &content.articles {
        let path = RouteKind::Article {
            slug: article.slug.clone(),
        }
        .path();
        let file = format!("{ARTICLES_DIR}/{}.md", article.slug);
        out.push((path, file, "aliases".into(), &article.aliases));
    }
    let forms = &content.forms;
    let mut form_pages = vec![
        (
            RouteKind::ContactSent,
            "sent.meta".to_owned(),
            &forms.sent.meta,
        ),
        (
            RouteKind::ContactError,
            "error.meta".to_owned(),
            &forms.error.meta,
        ),
    ];
    for (page, words) in &forms.newsletter.pages {
        let field = format!("newsletter.pages.{}.meta", page.as_str());
        form_pages.push((RouteKind::Newsletter { page: *page }, field, &words.meta));
    }
    for (kind, field, meta) in form_pages {
        out.push((
            kind.path(),
            super::FORMS_FILE.to_owned(),
            format!("{field}.aliases"),
            &meta.aliases,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_paths_are_written_as_routes() {
        assert_eq!(normalise("/old/").as_deref(), Ok("/old"));
        assert_eq!(normalise("/a/b").as_deref(), Ok("/a/b"));
        assert!(normalise("old").is_err());
        assert!(normalise("/a//b").is_err());
        assert!(normalise("/a/../b").is_err());
        assert!(normalise("/a b").is_err());
    }

    #[test]
    fn a_value_is_a_path_a_url_or_gone() {
        assert_eq!(target("gone"), Ok(Target::Gone));
        assert_eq!(target("/new/#part"), Ok(Target::Page("/new#part".into())));
        assert_eq!(
            target("https://example.com/x"),
            Ok(Target::Url("https://example.com/x".into()))
        );
        assert!(target("elsewhere").is_err());
    }

    /// Found by the fuzz target `redirects`: each was accepted, and its line of `_redirects`
    /// did not read back.
    #[test]
    fn what_redirects_cannot_write_as_one_exact_rule_is_refused() {
        assert_eq!(
            entry("/s/site", "/sh/# y:/"),
            Err("`/sh/# y:/` has ' ' in its fragment, which a link cannot carry".into())
        );
        assert!(entry("/s", "/a#b\u{2028}c").is_err());
        assert_eq!(
            entry("/a:b", "/c"),
            Err("`/a:b` contains ':', which an old path cannot contain".into())
        );
        assert_eq!(
            entry("/s", "/a#b:c"),
            Ok(("/s".into(), Target::Page("/a#b:c".into())))
        );
    }
}
