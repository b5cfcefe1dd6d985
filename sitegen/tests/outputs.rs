//! The site-wide files written next to the pages: sitemap.xml, robots.txt and _headers.

use std::fs;

use sitegen::content::settings::CacheRules;
use sitegen::outputs::{SitemapEntry, write_site_files};

fn render(base_url: &str, contact: &str, routes: &[SitemapEntry]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    write_site_files(
        dir.path(),
        dir.path(),
        base_url,
        contact,
        routes,
        &[],
        &CacheRules::default(),
    )
    .expect("site files are written");
    dir
}

fn small_site() -> Vec<SitemapEntry> {
    vec![
        SitemapEntry::listed("/"),
        SitemapEntry::listed("/about"),
        SitemapEntry::listed("/services/cloud-services/"),
        SitemapEntry {
            path: "/thank-you".into(),
            in_sitemap: false,
            alternates: Vec::new(),
        },
    ]
}

fn read(dir: &tempfile::TempDir, name: &str) -> String {
    fs::read_to_string(dir.path().join(name)).expect("file was written")
}

#[test]
fn sitemap_lists_absolute_directory_urls() {
    let dir = render(
        "https://www.example.com",
        "https://contact.example.com/send-contact-email",
        &small_site(),
    );
    insta::assert_snapshot!("sitemap.xml", read(&dir, "sitemap.xml"));
}

#[test]
fn robots_points_at_the_sitemap() {
    let dir = render("https://www.example.com", "", &small_site());
    insta::assert_snapshot!("robots.txt", read(&dir, "robots.txt"));
}

#[test]
fn headers_cache_assets_forever_and_revalidate_pages() {
    let dir = render(
        "https://www.example.com",
        "https://contact.example.com/send-contact-email",
        &small_site(),
    );
    insta::assert_snapshot!("_headers", read(&dir, "_headers"));
}

#[test]
fn same_origin_contact_endpoint_adds_no_origin_to_the_policy() {
    let dir = render("https://www.example.com", "/api/contact", &small_site());
    let headers = read(&dir, "_headers");
    assert!(
        headers.contains("connect-src 'self'; form-action 'self';"),
        "{headers}"
    );
}

#[test]
fn sitemap_urls_are_xml_escaped_and_keep_the_base_path() {
    let routes = [SitemapEntry::listed("/"), SitemapEntry::listed("/q&a")];
    let dir = render("https://example.com/en", "", &routes);
    let sitemap = read(&dir, "sitemap.xml");
    assert!(
        sitemap.contains("<loc>https://example.com/en/</loc>"),
        "{sitemap}"
    );
    assert!(
        sitemap.contains("<loc>https://example.com/en/q&amp;a/</loc>"),
        "{sitemap}"
    );
    assert!(read(&dir, "robots.txt").contains("Sitemap: https://example.com/en/sitemap.xml\n"));
}

#[test]
fn a_route_with_a_newline_is_rejected_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let routes = [SitemapEntry::listed("/about\n/*\n  X-Injected: 1")];
    let err = write_site_files(
        dir.path(),
        dir.path(),
        "https://example.com",
        "",
        &routes,
        &[],
        &CacheRules::default(),
    )
    .expect_err("a newline cannot be part of a route");
    assert_eq!(
        err.to_string(),
        r#"route "/about\n/*\n  X-Injected: 1" contains '\n', which a route path cannot contain"#
    );
    assert_eq!(fs::read_dir(dir.path()).expect("readable").count(), 0);
}

#[test]
fn cache_rules_from_site_yaml_reach_every_kind_of_file_in_headers() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir_all(dir.path().join("images")).expect("mkdir");
    fs::write(dir.path().join("images/team.jpg"), b"jpg").expect("write");
    fs::write(dir.path().join("favicon.svg"), b"<svg/>").expect("write");
    fs::create_dir_all(dir.path().join("about")).expect("mkdir");
    fs::write(dir.path().join("about/index.html"), b"<p>").expect("write");
    let cache = CacheRules {
        hashed: "public, max-age=86400".into(),
        revalidated: "no-cache".into(),
    };
    write_site_files(
        dir.path(),
        dir.path(),
        "https://example.com",
        "",
        &small_site(),
        &["/et"],
        &cache,
    )
    .expect("site files are written");
    let rules = sitegen::headers::HeaderRules::parse(&read(&dir, "_headers")).expect("valid");
    let cache_of = |path: &str| rules.value(&[path], &axum::http::header::CACHE_CONTROL);
    for hashed in ["/assets/app-1a2b.js", "/search/entry.9f8e.json"] {
        assert_eq!(
            cache_of(hashed).as_deref(),
            Some("public, max-age=86400"),
            "{hashed}"
        );
    }
    for revalidated in [
        "/",
        "/about/",
        "/404.html",
        "/sitemap.xml",
        "/robots.txt",
        "/feed.xml",
        "/favicon.svg",
        "/images/team.jpg",
        // Each other language's not-found page and feed, which no page pattern covers.
        "/et/",
        "/et/404.html",
        "/et/feed.xml",
    ] {
        assert_eq!(
            cache_of(revalidated).as_deref(),
            Some("no-cache"),
            "{revalidated}"
        );
    }
}

#[test]
fn a_cache_rule_of_two_lines_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = CacheRules {
        revalidated: "no-cache\n/*\n  X-Injected: 1".into(),
        ..CacheRules::default()
    };
    let err = write_site_files(
        dir.path(),
        dir.path(),
        "https://example.com",
        "",
        &small_site(),
        &[],
        &cache,
    )
    .expect_err("refused");
    assert_eq!(
        err.to_string(),
        "site.yaml: cache.revalidated must be one line of Cache-Control directives in ASCII, such as \
         `public, max-age=0, must-revalidate`; found \"no-cache\\n/*\\n  X-Injected: 1\""
    );
}

#[test]
fn the_cloudfront_policy_carries_the_site_wide_headers_of_headers() {
    let dir = render(
        "https://www.example.com",
        "https://contact.example.com/send-contact-email",
        &small_site(),
    );
    let rules = sitegen::headers::HeaderRules::parse(&read(&dir, "_headers")).expect("valid");
    let site_wide = rules.site_wide();
    let value = |name: &str| {
        site_wide
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.to_str().ok())
            .expect("in _headers")
            .to_owned()
    };
    let policy: serde_json::Value =
        serde_json::from_str(&read(&dir, sitegen::output_dir::CLOUDFRONT_POLICY_FILE))
            .expect("JSON");
    let security = &policy["SecurityHeadersConfig"];
    assert_eq!(
        security["ContentSecurityPolicy"]["ContentSecurityPolicy"],
        value("content-security-policy")
    );
    assert_eq!(security["FrameOptions"]["FrameOption"], "DENY");
    assert_eq!(
        security["ReferrerPolicy"]["ReferrerPolicy"],
        value("referrer-policy")
    );
    assert_eq!(
        security["StrictTransportSecurity"]["AccessControlMaxAgeSec"],
        31_536_000
    );
    assert_eq!(security["ContentTypeOptions"]["Override"], true);
    let custom = &policy["CustomHeadersConfig"];
    let names: Vec<&str> = custom["Items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["Header"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        names,
        [
            "Permissions-Policy",
            "Cross-Origin-Opener-Policy",
            "Cross-Origin-Resource-Policy"
        ]
    );
    assert_eq!(custom["Quantity"], 3);
    // Every site-wide header of _headers is in the policy, one way or the other.
    assert_eq!(site_wide.len(), 5 + names.len());
}
