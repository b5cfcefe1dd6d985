//! Verification of an output directory: every route has its HTML file and every internal
//! link, script, stylesheet and image in every emitted page resolves to an emitted file
//! (and, for `#fragment` links, to an element with that id). Run after each build and by
//! `sitegen check`, so a broken link fails before it reaches the CDN.
//!
//! URLs resolve the way the CDN and `sitegen serve` answer them: `/about` and `/about/` are
//! both `about/index.html`, a query string is ignored, and a page's relative links resolve
//! against its directory-style URL (`about/index.html` is `/about/`).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::path::Path;
use std::sync::LazyLock;

use anyhow::{Context, Result, ensure};
use percent_encoding::percent_decode_str;
use scraper::{Html, Selector};
use url::Url;

/// What [`check_dir`] found. Empty lists mean the output is sound.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Number of `.html` files whose links were checked.
    pub pages_checked: usize,
    /// Routes with no HTML file, in the order the routes were given.
    pub missing_routes: Vec<MissingRoute>,
    /// Links that resolve to no emitted file or to a missing `#id`, ordered by page (file
    /// path) and then by position in the page, each listed once per page.
    pub broken_links: Vec<BrokenLink>,
}

/// A route of the model whose HTML file is not in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingRoute {
    /// The route, as given (`/about`).
    pub route: String,
    /// The file that should serve it, relative to the output directory (`about/index.html`).
    pub file: String,
}

/// An internal link that leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLink {
    /// The page holding the link, relative to the output directory (`about/index.html`).
    pub page: String,
    /// The URL exactly as written in the page (`/contact/#form`, `../img/logo.svg`).
    pub target: String,
}

impl CheckReport {
    /// True when no route is missing and no link is broken.
    pub fn is_ok(&self) -> bool {
        self.missing_routes.is_empty() && self.broken_links.is_empty()
    }
}

/// One line per problem, missing routes first; nothing at all when the output is sound.
impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for missing in &self.missing_routes {
            writeln!(f, "{missing}")?;
        }
        for link in &self.broken_links {
            writeln!(f, "{link}")?;
        }
        Ok(())
    }
}

impl fmt::Display for MissingRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: missing {}", self.route, self.file)
    }
}

impl fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -> {}", self.page, self.target)
    }
}

/// Checks the output directory `dir` against the model's `routes` (`/`, `/about`, ...).
///
/// Links to other origins (`https://...`, `//cdn...`) and non-web schemes (`mailto:`, `tel:`,
/// `data:`, `javascript:`) are not followed. A bare `#` is reported: it is a placeholder,
/// not a link. Form `action`s are not checked, as they name endpoints rather than files.
pub fn check_dir(dir: &Path, routes: &[String]) -> Result<CheckReport> {
    ensure!(
        dir.is_dir(),
        "{} is not a directory; build the site first",
        dir.display()
    );
    let files = list_files(dir)?;
    let mut report = CheckReport::default();

    for route in routes {
        let file = route_file(route);
        if !files.contains(&file) {
            report.missing_routes.push(MissingRoute {
                route: route.clone(),
                file,
            });
        }
    }

    let mut pages = HashMap::new();
    for file in files.iter().filter(|f| f.ends_with(".html")) {
        let path = dir.join(file);
        let html =
            fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        pages.insert(file.clone(), Page::parse(&html));
    }
    report.pages_checked = pages.len();

    let mut names: Vec<&String> = pages.keys().collect();
    names.sort();
    for name in names {
        let page = &pages[name];
        let base = page_url(name, page.base_href.as_deref());
        let mut seen = HashSet::new();
        for target in &page.links {
            if !seen.insert(target) {
                continue;
            }
            let ok = match resolve(&base, target) {
                Resolved::Elsewhere => true,
                Resolved::Invalid => false,
                Resolved::Local { path, fragment } => match find_file(&files, &path) {
                    None => false,
                    Some(file) => match (fragment, pages.get(&file)) {
                        (None, _) => true,
                        (Some(id), _) if id.is_empty() => false,
                        (Some(id), Some(target_page)) => target_page.ids.contains(&id),
                        // A fragment into a non-HTML file (a PDF page, say) is not ours to check.
                        (Some(_), None) => true,
                    },
                },
            };
            if !ok {
                report.broken_links.push(BrokenLink {
                    page: name.clone(),
                    target: target.clone(),
                });
            }
        }
    }
    Ok(report)
}

/// The HTML file that serves `route`: `/` -> `index.html`, `/about` and `/about/` ->
/// `about/index.html`, and a route naming an HTML file (`/404.html`) is that file.
pub fn route_file(route: &str) -> String {
    let trimmed = route.trim_matches('/');
    if trimmed.is_empty() {
        "index.html".to_owned()
    } else if trimmed.ends_with(".html") {
        trimmed.to_owned()
    } else {
        format!("{trimmed}/index.html")
    }
}

/// The files that may serve a URL path, in the order they are tried: `/` -> `index.html`;
/// `/about/` -> `about/index.html`; `/about` -> `about`, then `about/index.html`.
///
/// The path is percent-decoded first. Returns `None` for a path that could step outside the
/// output directory or is malformed: a `..` or `.` segment, an empty segment (`//`), a
/// backslash, a NUL byte, or invalid UTF-8.
pub fn candidate_files(url_path: &str) -> Option<Vec<String>> {
    let decoded = percent_decode_str(url_path).decode_utf8().ok()?;
    let rest = decoded.strip_prefix('/')?;
    if rest.is_empty() {
        return Some(vec!["index.html".to_owned()]);
    }
    let (dir, trailing_slash) = match rest.strip_suffix('/') {
        Some(dir) => (dir, true),
        None => (rest, false),
    };
    let safe = dir
        .split('/')
        .all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains(['\\', '\0']));
    if !safe {
        return None;
    }
    let index = format!("{dir}/index.html");
    Some(if trailing_slash {
        vec![index]
    } else {
        vec![dir.to_owned(), index]
    })
}

/// A link target relative to the site, once resolved against the page it appears on.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// Another origin or a scheme that is not fetched from the site.
    Elsewhere,
    /// Not a URL at all.
    Invalid,
    /// A path on this site (percent-encoded as in the URL) and the decoded fragment, if any.
    Local {
        path: String,
        fragment: Option<String>,
    },
}

/// Stands in for the site's origin while resolving relative URLs.
static SITE_ORIGIN: LazyLock<Url> =
    LazyLock::new(|| Url::parse("http://site.invalid/").expect("a constant URL"));

/// The URL a page is served at, as the base its relative links resolve against: the page's
/// own `<base href>` if it has one, otherwise its directory-style URL (`about/index.html`
/// is `/about/`).
pub(crate) fn page_url(file: &str, base_href: Option<&str>) -> Url {
    let served_as = match file.strip_suffix("index.html") {
        Some(dir) if dir.is_empty() || dir.ends_with('/') => dir,
        _ => file,
    };
    let mut url = SITE_ORIGIN.clone();
    if let Ok(mut segments) = url.path_segments_mut() {
        // Segment by segment, so a `#` or `?` in a file name is encoded, not parsed.
        segments.clear().extend(served_as.split('/'));
    }
    match base_href.map(|href| url.join(href.trim())) {
        Some(Ok(base)) => base,
        _ => url,
    }
}

pub(crate) fn resolve(base: &Url, target: &str) -> Resolved {
    let Ok(url) = base.join(target.trim()) else {
        return Resolved::Invalid;
    };
    if !matches!(url.scheme(), "http" | "https") || url.origin() != base.origin() {
        return Resolved::Elsewhere;
    }
    Resolved::Local {
        path: url.path().to_owned(),
        fragment: url
            .fragment()
            .map(|f| percent_decode_str(f).decode_utf8_lossy().into_owned()),
    }
}

/// The emitted file that serves `url_path`, if any.
pub(crate) fn find_file(files: &HashSet<String>, url_path: &str) -> Option<String> {
    candidate_files(url_path)?
        .into_iter()
        .find(|candidate| files.contains(candidate))
}

/// Every file under `dir`, as `/`-separated paths relative to it.
pub(crate) fn list_files(dir: &Path) -> Result<HashSet<String>> {
    let mut files = HashSet::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.with_context(|| format!("listing {}", dir.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let parts: Vec<_> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect();
        files.insert(parts.join("/"));
    }
    Ok(files)
}

/// What the check needs from one HTML page.
#[derive(Debug)]
struct Page {
    /// Every URL the page references, in document order.
    links: Vec<String>,
    /// Every fragment target: `id` attributes and `<a name>`.
    ids: HashSet<String>,
    /// The page's `<base href>`, if any.
    base_href: Option<String>,
}

// Constant selectors, exercised by every test.
static LINKING: LazyLock<Selector> = LazyLock::new(|| {
    Selector::parse("[href]:not(base), [src], [srcset], [imagesrcset], [poster]")
        .expect("valid selector")
});
static TARGETS: LazyLock<Selector> =
    LazyLock::new(|| Selector::parse("[id], a[name]").expect("valid selector"));
static BASE: LazyLock<Selector> =
    LazyLock::new(|| Selector::parse("base[href]").expect("valid selector"));

impl Page {
    fn parse(html: &str) -> Self {
        let doc = Html::parse_document(html);
        let mut links = Vec::new();
        for element in doc.select(&LINKING) {
            let el = element.value();
            for attr in ["href", "src", "poster"] {
                if let Some(url) = el.attr(attr) {
                    links.push(url.trim().to_owned());
                }
            }
            for attr in ["srcset", "imagesrcset"] {
                if let Some(set) = el.attr(attr) {
                    links.extend(srcset_urls(set).into_iter().map(str::to_owned));
                }
            }
        }
        links.retain(|link| !link.is_empty());
        let mut ids = HashSet::new();
        for element in doc.select(&TARGETS) {
            let el = element.value();
            ids.extend(el.id().map(str::to_owned));
            if el.name() == "a" {
                ids.extend(el.attr("name").map(str::to_owned));
            }
        }
        let base_href = doc
            .select(&BASE)
            .next()
            .and_then(|b| b.value().attr("href"))
            .map(str::to_owned);
        Page {
            links,
            ids,
            base_href,
        }
    }
}

/// The URLs of a `srcset` (`a.png 1x, b.png 2x`), following the HTML parsing rules: a URL
/// runs to the next whitespace and may itself contain commas (`data:` URLs do); a trailing
/// comma ends a candidate; descriptors run to the next comma outside parentheses.
pub(crate) fn srcset_urls(srcset: &str) -> Vec<&str> {
    let mut urls = Vec::new();
    let mut rest = srcset;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            return urls;
        }
        let end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let (url, after) = rest.split_at(end);
        let trimmed = url.trim_end_matches(',');
        urls.push(trimmed);
        if trimmed.len() < url.len() {
            rest = after;
            continue;
        }
        // Skip the descriptors up to the next comma that is not inside parentheses.
        let mut depth = 0usize;
        let mut next = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    next = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &after[next..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srcset_urls_follow_the_html_rules() {
        assert_eq!(
            srcset_urls("a.png 1x, /b.png 2x,c.png"),
            ["a.png", "/b.png", "c.png"]
        );
        assert_eq!(srcset_urls(" x.png,  y.png 100w "), ["x.png", "y.png"]);
        assert_eq!(
            srcset_urls("data:image/png;base64,AAA= 1x, z.png 2x"),
            ["data:image/png;base64,AAA=", "z.png"]
        );
        assert_eq!(srcset_urls("q.png (a, b) 1x, r.png"), ["q.png", "r.png"]);
        assert!(srcset_urls(" , ").is_empty());
    }

    #[test]
    fn candidate_files_follow_directory_style() {
        let c = |p| candidate_files(p);
        assert_eq!(c("/"), Some(vec!["index.html".into()]));
        assert_eq!(c("/about/"), Some(vec!["about/index.html".into()]));
        assert_eq!(
            c("/about"),
            Some(vec!["about".into(), "about/index.html".into()])
        );
        assert_eq!(
            c("/a%20b/c.txt"),
            Some(vec!["a b/c.txt".into(), "a b/c.txt/index.html".into()])
        );
    }

    #[test]
    fn candidate_files_refuse_paths_that_could_escape() {
        for path in [
            "/../Cargo.toml",
            "/a/../../x",
            "/%2e%2e/x",
            "/a/%2E%2E/%2e%2e/x",
            "/a//b",
            "/a\\..\\b",
            "/a%5c..%5cb",
            "/a%00",
            "/%ff",
            "relative",
        ] {
            assert_eq!(candidate_files(path), None, "{path}");
        }
    }

    #[test]
    fn links_resolve_against_the_directory_style_page_url() {
        let base = page_url("about/index.html", None);
        let local = |path: &str, fragment: Option<&str>| Resolved::Local {
            path: path.into(),
            fragment: fragment.map(str::to_owned),
        };
        assert_eq!(resolve(&base, "team"), local("/about/team", None));
        assert_eq!(resolve(&base, "../x?y=1#z"), local("/x", Some("z")));
        assert_eq!(resolve(&base, "#top"), local("/about/", Some("top")));
        assert_eq!(resolve(&base, "mailto:a@b.c"), Resolved::Elsewhere);
        assert_eq!(resolve(&base, "https://example.com/"), Resolved::Elsewhere);
        assert_eq!(
            resolve(&base, "//cdn.example.com/x.js"),
            Resolved::Elsewhere
        );
        assert_eq!(resolve(&base, "http://[oops"), Resolved::Invalid);
        assert_eq!(page_url("index.html", None).path(), "/");
        assert_eq!(page_url("404.html", None).path(), "/404.html");
        assert_eq!(page_url("myindex.html", None).path(), "/myindex.html");
        assert_eq!(page_url("a#b/index.html", None).path(), "/a%23b/");
        let based = page_url("about/index.html", Some("/docs/"));
        assert_eq!(resolve(&based, "x"), local("/docs/x", None));
    }
}
