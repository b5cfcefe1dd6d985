//! Loading and validating content: the real `content/` must be valid, and each broken fixture
//! must fail with the exact `file:line:col: message` lines a user would see.
//!
//! Each fixture under `tests/fixtures/content/` is an overlay: its files are copied over a copy
//! of the real content directory, so a fixture holds only what it breaks.

use std::path::{Path, PathBuf};

use sitegen::content::Content;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk fixture");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Loads the real content with `fixture` laid over it; errors are rendered with the
/// content directory shown as `content`.
fn load_with(fixture: Option<&str>) -> Result<Content, Vec<String>> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("content");
    copy_dir(&repo().join("content"), &dir);
    if let Some(name) = fixture {
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/content")
                .join(name),
            &dir,
        );
    }
    Content::load(&dir, &repo().join("site/public")).map_err(|errors| {
        errors
            .0
            .iter()
            .map(|e| e.to_string().replace(&dir.display().to_string(), "content"))
            .collect()
    })
}

fn errors_of(fixture: &str) -> Vec<String> {
    match load_with(Some(fixture)) {
        Ok(_) => panic!("fixture {fixture} should not load"),
        Err(errors) => errors,
    }
}

#[test]
fn the_real_content_is_valid_and_publishes_every_route_of_the_site() {
    let content = load_with(None).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let paths: Vec<&str> = content.routes.iter().map(|r| r.path.as_str()).collect();
    // The 39 pages of the site, plus the two pages a form sent without JavaScript ends on.
    assert_eq!(paths.len(), 41, "{paths:#?}");
    for path in [
        "/",
        "/about",
        "/services",
        "/services/data-analytics/data-strategy",
        "/services/data-analytics/insights",
        "/services/artificial-intelligence/computer-vision",
        "/services/cloud-services/legacy-modernization",
        "/services/software-engineering/api-development",
        "/industries",
        "/solutions",
        "/insights",
        "/case-studies",
        "/blog",
        "/contact",
        "/privacy",
        "/terms",
        "/contact/sent",
        "/contact/error",
    ] {
        assert!(paths.contains(&path), "missing route {path}");
    }
    let unlisted: Vec<&str> = content
        .routes
        .iter()
        .filter(|r| !r.in_sitemap)
        .map(|r| r.path.as_str())
        .collect();
    assert_eq!(unlisted, ["/contact/sent", "/contact/error"]);
    let categories: Vec<&str> = content.services.iter().map(|c| c.slug.as_str()).collect();
    assert_eq!(
        categories,
        [
            "data-analytics",
            "artificial-intelligence",
            "cloud-services",
            "software-engineering"
        ]
    );
}

#[test]
fn an_unknown_field_names_file_line_column_and_the_expected_fields() {
    assert_eq!(
        errors_of("unknown-field"),
        [
            "content/services/zz-fixture.yaml:18:7: sub_services[0].hero: unknown field `titel`, \
          expected one of `eyebrow`, `title`, `highlight`, `lead`, `actions`"
        ]
    );
}

#[test]
fn a_yaml_syntax_error_names_file_line_and_column() {
    assert_eq!(
        errors_of("yaml-syntax"),
        ["content/services/zz-fixture.yaml:7:15: mapping values are not allowed in this context"]
    );
}

#[test]
fn a_link_to_no_page_is_reported_at_its_field_with_a_suggestion() {
    assert_eq!(
        errors_of("broken-link"),
        [
            "content/services/zz-fixture.yaml:13:7: link `/contcat` leads to no page; did you mean `/contact`?"
        ]
    );
}

#[test]
fn a_duplicate_slug_is_reported_at_the_second_use() {
    assert_eq!(
        errors_of("duplicate-slug"),
        [
            "content/services/zz-fixture.yaml:16:5: duplicate slug `twin`: sub_services[0] already uses it"
        ]
    );
}

#[test]
fn every_mistake_is_reported_in_one_run() {
    let errors = errors_of("many-errors");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].starts_with("content/services/zz-fixture.yaml:4:7: icon: unknown variant `rocketship`, expected one of `linkedin`,"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with(
            "content/pages/abuot.yaml: unexpected content file; pages are home.yaml, about.yaml,"
        ),
        "{}",
        errors[1]
    );
}
