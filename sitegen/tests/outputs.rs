//! The site-wide files written next to the pages: sitemap.xml, robots.txt and _headers.

use std::fs;

use sitegen::outputs::{SitemapEntry, write_site_files};

fn render(base_url: &str, contact: &str, routes: &[SitemapEntry]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    write_site_files(dir.path(), base_url, contact, routes).expect("site files are written");
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
    let err = write_site_files(dir.path(), "https://example.com", "", &routes)
        .expect_err("a newline cannot be part of a route");
    assert_eq!(
        err.to_string(),
        r#"route "/about\n/*\n  X-Injected: 1" contains '\n', which a route path cannot contain"#
    );
    assert_eq!(fs::read_dir(dir.path()).expect("readable").count(), 0);
}
