//! `check_dir` on hand-written output directories.

use std::path::{Path, PathBuf};

use sitegen::check::{CheckReport, check_dir};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn routes(list: &[&str]) -> Vec<String> {
    list.iter().map(|r| (*r).to_owned()).collect()
}

fn check(name: &str, list: &[&str]) -> CheckReport {
    check_dir(&fixture(name), &routes(list), None).expect("fixture is readable")
}

#[test]
fn a_sound_output_has_nothing_to_report() {
    let report = check("dist-basic", &["/", "/about"]);
    assert_eq!(report.to_string(), "");
    assert!(report.is_ok());
    assert_eq!(report.pages_checked, 3);
}

#[test]
fn each_broken_link_is_one_page_arrow_target_line() {
    let report = check("dist-broken", &["/", "/about"]);
    assert_eq!(
        report.to_string(),
        "\
about/index.html -> ../nowhere/
about/index.html -> /#main
index.html -> /assets/style-gone.css
index.html -> /missing
index.html -> /about/#nope
index.html -> #
index.html -> contact
index.html -> /img/absent.svg
"
    );
    assert!(!report.is_ok());
}

#[test]
fn a_route_without_its_html_file_is_reported() {
    let report = check("dist-basic", &["/", "/about", "/services/", "/contact"]);
    assert_eq!(
        report.to_string(),
        "/services/: missing services/index.html\n/contact: missing contact/index.html\n"
    );
    assert!(report.broken_links.is_empty());
}

#[test]
fn a_fragment_must_name_an_element_of_the_target_page() {
    let report = check("dist-broken", &[]);
    let targets: Vec<_> = report
        .broken_links
        .iter()
        .filter(|l| l.target.contains('#'))
        .map(|l| l.to_string())
        .collect();
    assert_eq!(
        targets,
        [
            "about/index.html -> /#main",
            "index.html -> /about/#nope",
            "index.html -> #"
        ]
    );
}

#[test]
fn a_missing_directory_is_an_error() {
    let err = check_dir(&fixture("no-such-dist"), &[], None).expect_err("nothing to check");
    assert!(
        err.to_string()
            .ends_with("no-such-dist is not a directory; build the site first"),
        "{err}"
    );
}
