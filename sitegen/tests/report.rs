//! The build summary measured on a hand-written output directory.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sitegen::report::{Size, summarize};

fn dist_basic() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dist-basic")
}

fn routes() -> Vec<String> {
    ["/", "/about", "/404.html"].map(String::from).to_vec()
}

fn file_len(path: &str) -> u64 {
    std::fs::metadata(dist_basic().join(path))
        .expect("fixture file")
        .len()
}

#[test]
fn each_route_counts_its_html_and_the_assets_it_loads_once() {
    let report = summarize(&dist_basic(), &routes(), Duration::from_millis(1234)).expect("summary");
    let by_route = |route: &str| {
        report
            .pages
            .iter()
            .find(|p| p.route == route)
            .expect("route is reported")
    };
    let app_and_vendor = file_len("assets/app-abc123.js") + file_len("assets/vendor-def456.js");
    let style = file_len("assets/style-789abc.css");

    let home = by_route("/");
    assert_eq!(home.html.bytes, file_len("index.html"));
    assert_eq!(home.js.bytes, app_and_vendor);
    assert_eq!(home.css.bytes, style);

    // The about page preloads the vendor chunk twice; it is loaded, and counted, once.
    let about = by_route("/about");
    assert_eq!(about.html.bytes, file_len("about/index.html"));
    assert_eq!(about.js.bytes, app_and_vendor);

    let not_found = by_route("/404.html");
    assert_eq!(not_found.js, Size::default());
    assert_eq!(not_found.css.bytes, style);

    assert_eq!(
        report.total_html.bytes,
        file_len("index.html") + file_len("about/index.html") + file_len("404.html")
    );
    assert_eq!(
        report.total_js.bytes, app_and_vendor,
        "shared files count once"
    );
    assert_eq!(report.total_css.bytes, style);
    for page in &report.pages {
        assert!(
            page.html.gzip > 0 && page.html.gzip < page.html.bytes,
            "{page:?}"
        );
    }
}

#[test]
fn the_summary_prints_as_an_aligned_table() {
    let report = summarize(&dist_basic(), &routes(), Duration::from_millis(1234)).expect("summary");
    insta::assert_snapshot!(report.to_string());
}

#[test]
fn a_route_without_its_page_is_an_error() {
    let err = summarize(&dist_basic(), &["/contact".to_owned()], Duration::ZERO)
        .expect_err("no contact page in the fixture");
    assert!(err.to_string().starts_with("reading "), "{err}");
    assert!(err.to_string().ends_with("contact/index.html"), "{err}");
}
