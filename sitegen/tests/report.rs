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

/// A generated output directory: `routes` pages loading `/assets/entry.js`, which imports
/// `chunk.js` statically and `island.js` (with `island.css`) on demand; `/heavy` also loads
/// a script that gzips to more than the budget.
fn generated_site(routes: usize) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |file: &str, text: &str| {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "assets/entry.js",
        r#"import{a}from"./chunk.js";const m=()=>import("./island.js"),d=["assets/island.css"];"#,
    );
    write("assets/chunk.js", "export const a=1;");
    write(
        "assets/island.js",
        r#"import"./chunk.js";export const form=2;"#,
    );
    write("assets/island.css", "form{color:red}");
    // Text that gzip cannot shrink much: a pseudo-random sequence.
    let mut x: u64 = 88172645463325252;
    let noise: String = (0..30_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from(b'!' + (x % 90) as u8)
        })
        .collect();
    write(
        "assets/heavy.js",
        &format!("const s=`{}`;", noise.replace('`', "'")),
    );
    let mut list = vec!["/".to_owned(), "/heavy".to_owned()];
    list.extend((2..routes).map(|i| format!("/page-{i}")));
    for route in &list {
        let extra = if route == "/heavy" {
            r#"<script type="module" src="/assets/heavy.js"></script>"#
        } else {
            ""
        };
        let file = sitegen::output_dir::route_file(route);
        write(
            &file,
            &format!(
                r#"<!doctype html><html><head><script type="module" src="/assets/entry.js"></script>{extra}</head><body>{route}</body></html>"#
            ),
        );
    }
    (dir, list)
}

#[test]
fn on_demand_chunks_and_the_budget_are_reported_apart_from_what_a_page_loads() {
    let (dir, routes) = generated_site(5);
    let report = summarize(dir.path(), &routes, Duration::ZERO).expect("summary");
    let len = |f: &str| std::fs::metadata(dir.path().join(f)).expect("file").len();
    let home = &report.pages[0];
    assert_eq!(
        home.js.bytes,
        len("assets/entry.js") + len("assets/chunk.js")
    );
    assert_eq!(home.on_demand_js.bytes, len("assets/island.js"));
    assert_eq!(home.on_demand_css.bytes, len("assets/island.css"));
    assert_eq!(home.css, Size::default());
    assert!(!home.over_budget());
    let heavy = &report.pages[1];
    assert!(heavy.over_budget(), "{heavy:?}");
    assert_eq!(
        report
            .over_budget()
            .map(|p| p.route.as_str())
            .collect::<Vec<_>>(),
        ["/heavy"]
    );
    assert_eq!(report.total_on_demand_js.bytes, len("assets/island.js"));
    let text = report.to_string();
    assert!(
        text.lines()
            .any(|l| l.starts_with("/heavy") && l.ends_with("over budget")),
        "{text}"
    );
    assert!(
        text.contains("js budget: 1 route over 10.0 kB gzipped before a form is touched: /heavy"),
        "{text}"
    );
    assert!(
        text.contains("on demand (dynamic imports such as the form island, loaded by 5 routes)"),
        "{text}"
    );
}

#[test]
fn a_large_site_prints_its_heaviest_routes_and_the_json_report_lists_every_route() {
    let (dir, routes) = generated_site(sitegen::report::FULL_TABLE_MAX_ROUTES + 40);
    let report = summarize(dir.path(), &routes, Duration::ZERO).expect("summary");
    let text = report.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("heaviest 10 routes"), "{text}");
    assert!(
        lines[1].starts_with("/heavy "),
        "the heaviest comes first: {text}"
    );
    assert!(lines[11].starts_with("total "), "{text}");
    assert!(
        text.contains("100 pages in 0.0s") && text.contains("90 more routes not shown"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&report.to_json().expect("json")).expect("valid JSON");
    let pages = json["pages"].as_array().expect("pages");
    assert_eq!(pages.len(), 100);
    assert_eq!(pages[1]["route"], "/heavy");
    assert!(pages[1]["js"]["gzip"].as_u64().expect("a size") > sitegen::report::JS_BUDGET_GZIP);
}
