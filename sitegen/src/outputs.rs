//! The site-wide files a CDN and crawlers read next to the pages: `sitemap.xml`, `robots.txt`
//! and `_headers`, rendered with minijinja from the templates in `sitegen/templates/`, and
//! `_headers`' site-wide headers again as a CloudFront response-headers policy
//! ([`CLOUDFRONT_POLICY_FILE`]) for hosts that do not read `_headers`.
//!
//! The templates are compiled into the binary so a release build needs nothing beside it.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use minijinja::syntax::SyntaxConfig;
use minijinja::{AutoEscape, Environment, UndefinedBehavior, Value, context};
use url::Url;

use crate::content::settings::CacheRules;
use crate::headers::HeaderRules;
use crate::output_dir::{CLOUDFRONT_POLICY_FILE, CONFIG_FILES, NOT_FOUND_FILE, route_url_path};

/// One page of the site as the site-wide files see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapEntry {
    /// URL path of the route, starting with `/` (`/`, `/about`, `/services/cloud-services`).
    /// A trailing slash is optional; pages are published directory style (`/about/`).
    pub path: String,
    /// Whether the page is listed in `sitemap.xml`. Every page, listed or not, is revalidated
    /// on each visit (see `_headers`).
    pub in_sitemap: bool,
    /// The page's `hreflang` set (language or `x-default`, absolute URL), as its `<head>`
    /// lists it: written as its `xhtml:link`s. Empty on a site of one language.
    pub alternates: Vec<(String, String)>,
}

impl SitemapEntry {
    /// A route listed in the sitemap.
    pub fn listed(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            in_sitemap: true,
            alternates: Vec::new(),
        }
    }
}

/// The `_headers` paths of every page but the not-found page: the home page and any
/// directory-style URL (`/about/`, `/services/cloud-services/devops/`). Patterns rather than
/// one rule per page, so the file stays the same size however many pages the site has.
const PAGE_PATTERNS: [&str; 2] = ["/", "/*/"];

/// The folders whose files carry a hash of their content in their names: Vite's assets, the
/// search index and the encoded pictures.
pub const HASHED_DIRS: [&str; 3] = ["assets", crate::search::DIR, crate::images::DIR];

/// The site-wide files written beside the pages, revalidated like them.
pub const SITE_WIDE_FILES: [&str; 3] = ["sitemap.xml", "robots.txt", "feed.xml"];

const TEMPLATES: [(&str, &str); 5] = [
    (
        "sitemap.xml.j2",
        include_str!("../templates/sitemap.xml.j2"),
    ),
    ("robots.txt.j2", include_str!("../templates/robots.txt.j2")),
    ("_headers.j2", include_str!("../templates/_headers.j2")),
    ("feed.xml.j2", include_str!("../templates/feed.xml.j2")),
    ("moved.html.j2", include_str!("../templates/moved.html.j2")),
];

/// Writes `sitemap.xml`, `robots.txt`, `_headers` and the CloudFront policy into `dir`.
/// `public` is the site's folder of files published as they are (`site/public`): each gets
/// its caching rule in `_headers`.
///
/// `base_url` is the absolute URL the site is published at (`https://example.com`, or with a
/// path prefix); sitemap entries are absolute URLs below it. `contact_endpoint` is the URL
/// the contact form posts to: its origin is added to the Content-Security-Policy's
/// `connect-src` and `form-action`. A same-origin path (`/api/contact`) or an empty string
/// adds nothing. `cache` gives the `Cache-Control` of each kind of file. `prefixes` are the
/// other languages' (`/et`), whose not-found page and feed get their rule too.
pub fn write_site_files(
    dir: &Path,
    public: &Path,
    base_url: &str,
    contact_endpoint: &str,
    routes: &[SitemapEntry],
    prefixes: &[&str],
    cache: &CacheRules,
) -> Result<()> {
    for (field, value) in [
        ("hashed", &cache.hashed),
        ("revalidated", &cache.revalidated),
    ] {
        // Visible ASCII: `_headers` is read back into header values, where anything else
        // has no text (found by the fuzz target `headers`).
        ensure!(
            !value.trim().is_empty() && value.chars().all(|c| c == ' ' || c.is_ascii_graphic()),
            "site.yaml: cache.{field} must be one line of Cache-Control directives in ASCII, \
             such as `public, max-age=0, must-revalidate`; found {value:?}"
        );
    }
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
            let alternates: Vec<_> = route
                .alternates
                .iter()
                .map(|(hreflang, href)| context! { hreflang, href })
                .collect();
            urls.push(context! { loc => url.to_string(), alternates });
        }
    }
    let alternates = routes.iter().any(|r| !r.alternates.is_empty());
    let hashed_paths: Vec<String> = HASHED_DIRS.iter().map(|d| format!("/{d}/*")).collect();
    let revalidated_paths = revalidated_paths(public, prefixes, routes)?;
    let sitemap_url = base.join("sitemap.xml")?.to_string();

    let env = environment()?;
    let files = [
        (
            "sitemap.xml",
            "sitemap.xml.j2",
            context! { urls, alternates },
        ),
        ("robots.txt", "robots.txt.j2", context! { sitemap_url }),
        (
            "_headers",
            "_headers.j2",
            context! { hashed_paths, revalidated_paths, connect_origins, cache_hashed => cache.hashed.clone(), cache_revalidated => cache.revalidated.clone() },
        ),
    ];
    for (file, template, ctx) in files {
        let text = render(&env, template, ctx)?;
        if file == "_headers" {
            let rules = HeaderRules::parse(&text).context("parsing the _headers just written")?;
            let policy = cloudfront_policy(&rules)?;
            let path = dir.join(CLOUDFRONT_POLICY_FILE);
            fs::write(&path, policy).with_context(|| format!("writing {}", path.display()))?;
        }
        let path = dir.join(file);
        fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The `_headers` paths of the files that keep their URL across builds: every page (by
/// [`PAGE_PATTERNS`]), the not-found page, the site-wide files, each other language's
/// not-found page and feed (under its `prefixes`), and the files of `public` (a top-level
/// file by its name, a folder as `/folder/*`); a missing `public` has none.
///
/// A name `_headers` cannot write as one literal path, or a folder named as a page's or a
/// language's folder (whose files would match two rules), is an error naming the file: found
/// by the fuzz target `headers`, where a line break in a name wrote lines of their own.
fn revalidated_paths(
    public: &Path,
    prefixes: &[&str],
    routes: &[SitemapEntry],
) -> Result<Vec<String>> {
    let mut paths: Vec<String> = PAGE_PATTERNS.map(String::from).to_vec();
    paths.push(format!("/{NOT_FOUND_FILE}"));
    paths.extend(SITE_WIDE_FILES.map(|f| format!("/{f}")));
    for prefix in prefixes {
        // Its pages would match the folder's rule too (found by the fuzz target `headers`).
        if let Some(dir) = HASHED_DIRS
            .iter()
            .find(|d| prefix.trim_start_matches('/') == **d)
        {
            bail!(
                "the language folder `{prefix}/` is the folder of the site's own files `/{dir}/`; \
                 give the language another tag in site.yaml"
            );
        }
        paths.push(format!("{prefix}/{NOT_FOUND_FILE}"));
        paths.push(format!("{prefix}/{}", crate::content::articles::FEED_FILE));
    }
    let mut files = Vec::new();
    let entries = match fs::read_dir(public) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(paths),
        Err(err) => return Err(err).with_context(|| format!("listing {}", public.display())),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("listing {}", public.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let known = name.ends_with(".html")
            || HASHED_DIRS.contains(&name.as_str())
            || SITE_WIDE_FILES.contains(&name.as_str())
            || CONFIG_FILES.contains(&name.as_str())
            || name.ends_with(".br")
            || name.ends_with(".gz");
        if known {
            continue;
        }
        if let Some(c) = name
            .chars()
            .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '*' | ':' | '#'))
        {
            bail!(
                "{}: {c:?} in a file name that `_headers` must write as a path; rename the file",
                path.display()
            );
        }
        let first_segment = |path: &str| {
            path.trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        let taken = prefixes.iter().any(|p| first_segment(p) == name)
            || routes.iter().any(|r| first_segment(&r.path) == name);
        if path.is_dir() {
            // A folder of pages is covered by the page patterns.
            let has_pages = walkdir::WalkDir::new(&path)
                .into_iter()
                .filter_map(Result::ok)
                .any(|e| e.file_name() == "index.html");
            if !has_pages && taken {
                bail!(
                    "{}: a folder of files named as a folder of the site's pages (`/{name}/`), \
                     whose files would take two caching rules; rename it",
                    path.display()
                );
            }
            if !has_pages {
                files.push(format!("/{name}/*"));
            }
        } else {
            files.push(format!("/{name}"));
        }
    }
    files.sort();
    paths.extend(files);
    Ok(paths)
}

/// The site-wide headers of `_headers` (its `/*` rule) as a CloudFront response-headers
/// policy configuration, the JSON that `aws cloudfront create-response-headers-policy
/// --response-headers-policy-config` takes. CloudFront names the security headers it knows
/// and takes the others as custom headers; `Cache-Control` is left to each object.
pub fn cloudfront_policy(rules: &HeaderRules) -> Result<String> {
    use serde_json::{Value, json};
    let mut security = serde_json::Map::new();
    let mut custom = Vec::new();
    for (name, value) in rules.site_wide() {
        let value = value
            .to_str()
            .with_context(|| format!("_headers: {name} is not ASCII"))?
            .to_owned();
        match name.as_str() {
            "content-security-policy" => {
                security.insert(
                    "ContentSecurityPolicy".into(),
                    json!({ "Override": true, "ContentSecurityPolicy": value }),
                );
            }
            "strict-transport-security" => {
                let directives: Vec<String> = value
                    .split(';')
                    .map(|d| d.trim().to_ascii_lowercase())
                    .collect();
                let max_age = directives
                    .iter()
                    .find_map(|d| d.strip_prefix("max-age="))
                    .and_then(|v| v.parse::<u64>().ok())
                    .with_context(|| {
                        format!("_headers: Strict-Transport-Security {value:?} has no max-age")
                    })?;
                security.insert(
                    "StrictTransportSecurity".into(),
                    json!({
                        "Override": true,
                        "AccessControlMaxAgeSec": max_age,
                        "IncludeSubdomains": directives.iter().any(|d| d == "includesubdomains"),
                        "Preload": directives.iter().any(|d| d == "preload"),
                    }),
                );
            }
            "x-content-type-options" => {
                security.insert("ContentTypeOptions".into(), json!({ "Override": true }));
            }
            "x-frame-options" => {
                security.insert(
                    "FrameOptions".into(),
                    json!({ "Override": true, "FrameOption": value.to_ascii_uppercase() }),
                );
            }
            "referrer-policy" => {
                security.insert(
                    "ReferrerPolicy".into(),
                    json!({ "Override": true, "ReferrerPolicy": value }),
                );
            }
            "cache-control" => {}
            _ => custom.push(json!({
                "Header": canonical_header_name(name.as_str()),
                "Value": value,
                "Override": true,
            })),
        }
    }
    let policy = json!({
        "Name": "sitegen-site-headers",
        "Comment": "The site-wide headers of the site's _headers, written by sitegen build",
        "SecurityHeadersConfig": Value::Object(security),
        "CustomHeadersConfig": { "Quantity": custom.len(), "Items": custom },
    });
    let mut text = serde_json::to_string_pretty(&policy).context("serialising the policy")?;
    text.push('\n');
    Ok(text)
}

/// `cross-origin-opener-policy` -> `Cross-Origin-Opener-Policy`.
fn canonical_header_name(name: &str) -> String {
    name.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join("-")
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
    // a sitemap; XML needs only the five predefined entities, and so does HTML.
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".xml.j2") || name.ends_with(".html.j2") {
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

    /// Writes the site-wide files of a site with the pages `/` and `/about`, the files of
    /// `public` made by `make` in a folder of its own, and `cache`; the error, if any.
    fn written_with(make: impl Fn(&Path), cache: CacheRules, prefix: &str) -> Result<String> {
        let temp = tempfile::tempdir()?;
        let (out, public) = (temp.path().join("dist"), temp.path().join("public"));
        fs::create_dir_all(&out)?;
        fs::create_dir_all(&public)?;
        make(&public);
        let routes = [SitemapEntry::listed("/"), SitemapEntry::listed("/about")];
        write_site_files(
            &out,
            &public,
            "https://example.com",
            "",
            &routes,
            &[prefix],
            &cache,
        )?;
        Ok(fs::read_to_string(out.join("_headers"))?)
    }

    /// Found by the fuzz target `headers`: each was written, and `_headers` read back gave
    /// some files no `Cache-Control`, or two.
    #[test]
    fn what_headers_cannot_write_as_one_rule_per_file_is_refused() {
        let cache = CacheRules::default;
        let refused = |make: &dyn Fn(&Path), cache: CacheRules| {
            let err = written_with(make, cache, "/et").expect_err("refused");
            format!("{err:#}")
        };
        let message = refused(
            &|public| fs::write(public.join("n in\n  # a comment"), "a").expect("a file"),
            cache(),
        );
        assert!(
            message.ends_with(
                ": ' ' in a file name that `_headers` must write as a path; rename the file"
            ),
            "{message}"
        );
        for name in ["*", ":name", "a b"] {
            refused(
                &|public| fs::write(public.join(name), "a").expect("a file"),
                cache(),
            );
        }
        for folder in ["about", "et"] {
            let message = refused(
                &|public| fs::create_dir(public.join(folder)).expect("a folder"),
                cache(),
            );
            assert!(message.contains(&format!("(`/{folder}/`)")), "{message}");
        }
        let message = refused(
            &|_| {},
            CacheRules {
                revalidated: "no-cache, \u{a0}max-age=0".into(),
                ..cache()
            },
        );
        assert!(
            message.contains(
                "cache.revalidated must be one line of Cache-Control directives in ASCII"
            ),
            "{message}"
        );
        // A name that is one literal path, and a folder of its own, are taken.
        let text = written_with(
            |public: &Path| {
                fs::write(public.join("favicon.ico"), "a").expect("a file");
                fs::create_dir(public.join("fonts")).expect("a folder");
                fs::write(public.join("fonts").join("a.woff2"), "a").expect("a file");
            },
            cache(),
            "/et",
        )
        .expect("written");
        // A language whose folder is the pictures' (`img` is a tag of three letters).
        let err = written_with(|_: &Path| {}, cache(), &format!("/{}", crate::images::DIR))
            .expect_err("refused");
        assert!(err.to_string().starts_with("the language folder"), "{err}");
        assert!(
            text.contains("\n/favicon.ico\n") && text.contains("\n/fonts/*\n"),
            "{text}"
        );
    }
}
