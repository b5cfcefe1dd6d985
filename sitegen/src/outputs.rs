//! The site-wide files a CDN and crawlers read next to the pages: `sitemap.xml`, `robots.txt`
//! and `_headers`, rendered with minijinja from the templates in `sitegen/templates/`.
//!
//! The templates are compiled into the binary so a release build needs nothing beside it.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, ensure};
use minijinja::syntax::SyntaxConfig;
use minijinja::{AutoEscape, Environment, UndefinedBehavior, Value, context};
use url::Url;

use crate::output_dir::{NOT_FOUND_FILE, route_url_path};

/// One page of the site as the site-wide files see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapEntry {
    /// URL path of the route, starting with `/` (`/`, `/about`, `/services/cloud-services`).
    /// A trailing slash is optional; pages are published directory style (`/about/`).
    pub path: String,
    /// Whether the page is listed in `sitemap.xml`. Every page, listed or not, is revalidated
    /// on each visit (see `_headers`).
    pub in_sitemap: bool,
}

impl SitemapEntry {
    /// A route listed in the sitemap.
    pub fn listed(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            in_sitemap: true,
        }
    }
}

/// The `_headers` paths of every page but the not-found page: the home page and any
/// directory-style URL (`/about/`, `/services/cloud-services/devops/`). Patterns rather than
/// one rule per page, so the file stays the same size however many pages the site has.
const PAGE_PATTERNS: [&str; 2] = ["/", "/*/"];

const TEMPLATES: [(&str, &str); 4] = [
    (
        "sitemap.xml.j2",
        include_str!("../templates/sitemap.xml.j2"),
    ),
    ("robots.txt.j2", include_str!("../templates/robots.txt.j2")),
    ("_headers.j2", include_str!("../templates/_headers.j2")),
    ("feed.xml.j2", include_str!("../templates/feed.xml.j2")),
];

/// Writes `sitemap.xml`, `robots.txt` and `_headers` into `dir`.
///
/// `base_url` is the absolute URL the site is published at (`https://example.com`, or with a
/// path prefix); sitemap entries are absolute URLs below it. `contact_endpoint` is the URL
/// the contact form posts to: its origin is added to the Content-Security-Policy's
/// `connect-src` and `form-action`. A same-origin path (`/api/contact`) or an empty string
/// adds nothing.
pub fn write_site_files(
    dir: &Path,
    base_url: &str,
    contact_endpoint: &str,
    routes: &[SitemapEntry],
) -> Result<()> {
    let base = parse_base_url(base_url)?;
    let connect_origins = contact_origin(contact_endpoint)?
        .into_iter()
        .collect::<Vec<_>>();

    let mut urls = Vec::new();
    for route in routes {
        let path = route_url_path(&route.path)?;
        if route.in_sitemap {
            let url = base
                .join(path.trim_start_matches('/'))
                .with_context(|| format!("route {:?} does not form a URL", route.path))?;
            urls.push(url.to_string());
        }
    }
    let mut html_paths: Vec<String> = PAGE_PATTERNS.map(String::from).to_vec();
    html_paths.push(format!("/{NOT_FOUND_FILE}"));
    let sitemap_url = base.join("sitemap.xml")?.to_string();
    let search_files = format!("/{}/*", crate::search::DIR);

    let env = environment()?;
    let files = [
        ("sitemap.xml", "sitemap.xml.j2", context! { urls }),
        ("robots.txt", "robots.txt.j2", context! { sitemap_url }),
        (
            "_headers",
            "_headers.j2",
            context! { html_paths, connect_origins, search_files },
        ),
    ];
    for (file, template, ctx) in files {
        let text = render(&env, template, ctx)?;
        let path = dir.join(file);
        fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

pub(crate) fn environment() -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_syntax(
        SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .context("configuring the template syntax")?,
    );
    // minijinja's HTML escaping writes `/` as `&#x2f;`, which is valid XML but unreadable in
    // a sitemap; XML needs only the five predefined entities.
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".xml.j2") {
            AutoEscape::Custom("xml".into())
        } else {
            AutoEscape::None
        }
    });
    env.set_formatter(|out, state, value| {
        if matches!(state.auto_escape(), AutoEscape::Custom(name) if name == "xml")
            && !value.is_safe()
        {
            out.write_str(&escape_xml(&value.to_string()))
                .map_err(minijinja::Error::from)
        } else {
            minijinja::escape_formatter(out, state, value)
        }
    });
    for (name, source) in TEMPLATES {
        env.add_template(name, source)
            .with_context(|| format!("compiling template {name}"))?;
    }
    Ok(env)
}

pub(crate) fn render(env: &Environment<'_>, name: &str, ctx: Value) -> Result<String> {
    env.get_template(name)
        .and_then(|template| template.render(ctx))
        .with_context(|| format!("rendering template {name}"))
}

fn escape_xml(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Parses the site's base URL; the result ends with `/` so routes join below it.
pub(crate) fn parse_base_url(base_url: &str) -> Result<Url> {
    let mut base =
        Url::parse(base_url).with_context(|| format!("base URL {base_url:?} is not a URL"))?;
    ensure!(
        matches!(base.scheme(), "http" | "https") && base.has_host(),
        "base URL {base_url:?} must be an absolute http(s) URL such as https://example.com"
    );
    ensure!(
        base.query().is_none() && base.fragment().is_none(),
        "base URL {base_url:?} must not have a query or fragment"
    );
    if !base.path().ends_with('/') {
        let path = format!("{}/", base.path());
        base.set_path(&path);
    }
    Ok(base)
}

/// The origin (`https://api.example.com`) of an absolute contact endpoint URL, or `None` for
/// a same-origin path or an empty string.
fn contact_origin(endpoint: &str) -> Result<Option<String>> {
    if endpoint.is_empty() || endpoint.starts_with('/') && !endpoint.starts_with("//") {
        return Ok(None);
    }
    let url = Url::parse(endpoint)
        .with_context(|| format!("contact endpoint {endpoint:?} is not a URL or a path"))?;
    ensure!(
        matches!(url.scheme(), "http" | "https") && url.has_host(),
        "contact endpoint {endpoint:?} must be an http(s) URL or a path"
    );
    Ok(Some(url.origin().ascii_serialization()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_must_be_absolute_http() {
        let err = parse_base_url("example.com")
            .map(|_| ())
            .expect_err("rejected");
        assert_eq!(err.to_string(), r#"base URL "example.com" is not a URL"#);
        let err = parse_base_url("ftp://example.com")
            .map(|_| ())
            .expect_err("rejected");
        assert_eq!(
            err.to_string(),
            r#"base URL "ftp://example.com" must be an absolute http(s) URL such as https://example.com"#
        );
        let base = parse_base_url("https://example.com/docs").map(|u| u.to_string());
        assert_eq!(base.ok().as_deref(), Some("https://example.com/docs/"));
    }

    #[test]
    fn contact_origin_keeps_scheme_host_and_port_only() {
        let origin = contact_origin("https://api.example.com:8443/send-contact-email?x=1");
        assert_eq!(
            origin.ok().flatten().as_deref(),
            Some("https://api.example.com:8443")
        );
        assert_eq!(contact_origin("/api/contact").ok(), Some(None));
        assert_eq!(contact_origin("").ok(), Some(None));
        assert!(contact_origin("javascript:alert(1)").is_err());
    }

    #[test]
    fn xml_escaping_covers_the_predefined_entities() {
        assert_eq!(
            escape_xml(r#"a&b<c>"d"'e'/"#),
            "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;/"
        );
    }
}
