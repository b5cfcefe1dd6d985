//! The output directory's URL model, in one place: which file serves a route, which files may
//! answer a URL path, the URL a page is served at, and how its links resolve. Build, check,
//! report, serve and the site-wide files all answer these questions through this module, so
//! the CDN, the preview server and the verification can never disagree.
//!
//! Pages are published directory style: the route `/about` is the file `about/index.html`,
//! served at `/about/` (and, without a redirect, at `/about`). A query string is ignored, and
//! a page's relative links resolve against its directory-style URL.

use std::collections::HashSet;
use std::path::Path;
use std::sync::LazyLock;

use anyhow::{Context, Result, bail};
use percent_encoding::percent_decode_str;
use url::Url;

/// The not-found page every build emits, as a file and as the URL path it is served at.
pub const NOT_FOUND_FILE: &str = "404.html";

/// Files the CDN reads as configuration and never serves.
pub const CONFIG_FILES: [&str; 5] = [
    "_headers",
    REDIRECTS_FILE,
    CLOUDFRONT_POLICY_FILE,
    CLOUDFRONT_FUNCTION_FILE,
    CLOUDFRONT_PREVIEW_FUNCTION_FILE,
];

/// The redirect rules of Netlify and Cloudflare Pages (see [`crate::redirects`]).
pub const REDIRECTS_FILE: &str = "_redirects";

/// The CloudFront Function (viewer request, `cloudfront-js-2.0`) answering the redirects in
/// front of an S3 REST origin (see [`crate::redirects`]): JavaScript, named without `.js` like
/// the other configuration files so that it gets no compressed variants.
pub const CLOUDFRONT_FUNCTION_FILE: &str = "_cloudfront-redirects-function";

/// The CloudFront Function (viewer response) that marks every answer to a preview host
/// `X-Robots-Tag: noindex`, written when `site.yaml` names a `preview_domain` (see
/// [`crate::redirects`]): a response-headers policy would apply to every host alike.
pub const CLOUDFRONT_PREVIEW_FUNCTION_FILE: &str = "_cloudfront-preview-response-function";

/// The site-wide headers of `_headers` as a CloudFront response-headers policy, for S3 +
/// CloudFront, which do not read `_headers`.
pub const CLOUDFRONT_POLICY_FILE: &str = "_cloudfront-headers-policy";

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

/// The canonical URL path of a route: `/about` and `/about/` -> `/about/`; `/` stays `/`.
/// Rejects what cannot be a route path, so nothing written into `_headers` or the sitemap
/// can break their formats.
pub fn route_url_path(route: &str) -> Result<String> {
    if !route.starts_with('/') {
        bail!("route {route:?} must start with '/'");
    }
    if let Some(c) = route
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '*'))
    {
        bail!("route {route:?} contains {c:?}, which a route path cannot contain");
    }
    if route.ends_with('/') {
        Ok(route.to_owned())
    } else {
        Ok(format!("{route}/"))
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

/// The URL paths under which the `_headers` rules of `file` apply: the path it was requested
/// at, the file itself, and for an `index.html` its directory (`/about/`).
pub fn header_paths<'a>(request_path: &'a str, file_path: &'a str) -> Vec<&'a str> {
    let mut paths = vec![request_path, file_path];
    if let Some(dir) = file_path.strip_suffix("index.html") {
        paths.push(dir);
    }
    paths
}

/// A link target relative to the site, once resolved against the page it appears on.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Another origin or a scheme that is not fetched from the site.
    Elsewhere,
    /// Not a URL at all.
    Invalid,
    /// A path on this site (percent-encoded as in the URL) and the decoded fragment, if any.
    Local {
        /// The URL path, `/about/`.
        path: String,
        /// The decoded fragment (`main` for `#main`).
        fragment: Option<String>,
    },
}

/// Stands in for the site's origin while resolving relative URLs.
static SITE_ORIGIN: LazyLock<Url> =
    LazyLock::new(|| Url::parse("http://site.invalid/").expect("a constant URL"));

/// The URL a page is served at, as the base its relative links resolve against: the page's
/// own `<base href>` if it has one, otherwise its directory-style URL (`about/index.html`
/// is `/about/`).
pub fn page_url(file: &str, base_href: Option<&str>) -> Url {
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

/// Resolves `target` as written in a page against the page's URL `base`.
pub fn resolve(base: &Url, target: &str) -> Resolved {
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

/// Every file of an output directory, as `/`-separated paths relative to it.
#[derive(Debug, Default, Clone)]
pub struct Files(HashSet<String>);

impl Files {
    /// Lists every file under `dir`.
    pub fn list(dir: &Path) -> Result<Self> {
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
        Ok(Self(files))
    }

    /// The files named `names` (`about/index.html`), e.g. of an output not yet written.
    pub fn from_names(names: impl IntoIterator<Item = String>) -> Self {
        Self(names.into_iter().collect())
    }

    /// Whether `file` (`about/index.html`) is in the directory.
    pub fn contains(&self, file: &str) -> bool {
        self.0.contains(file)
    }

    /// The emitted file that serves `url_path`, if any.
    pub fn find(&self, url_path: &str) -> Option<String> {
        candidate_files(url_path)?
            .into_iter()
            .find(|candidate| self.0.contains(candidate))
    }

    /// Every file, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_become_directory_paths() {
        assert_eq!(route_url_path("/").ok().as_deref(), Some("/"));
        assert_eq!(route_url_path("/about").ok().as_deref(), Some("/about/"));
        assert_eq!(route_url_path("/a/b/").ok().as_deref(), Some("/a/b/"));
    }

    #[test]
    fn route_paths_that_could_break_headers_are_rejected() {
        let err = route_url_path("/a\n  X-Evil: 1")
            .map(|_| ())
            .expect_err("rejected");
        assert_eq!(
            err.to_string(),
            r#"route "/a\n  X-Evil: 1" contains '\n', which a route path cannot contain"#
        );
        let err = route_url_path("about").map(|_| ()).expect_err("rejected");
        assert_eq!(err.to_string(), r#"route "about" must start with '/'"#);
    }

    #[test]
    fn routes_and_their_files_agree() {
        assert_eq!(route_file("/"), "index.html");
        assert_eq!(route_file("/about"), "about/index.html");
        assert_eq!(route_file("/about/"), "about/index.html");
        assert_eq!(route_file("/404.html"), NOT_FOUND_FILE);
        for route in ["/", "/about", "/services/cloud-services/devops"] {
            let url = route_url_path(route).unwrap_or_default();
            assert_eq!(candidate_files(&url), Some(vec![route_file(route)]));
        }
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
