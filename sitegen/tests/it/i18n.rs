//! The whole output of a build of the real site in two languages, read as search engines
//! read it: every `hreflang` set is complete, reciprocal, identical on every version and
//! absolute, each target is its own canonical, `x-default` is there, `sitemap.xml` says the
//! same as the heads, an untranslated article has no Estonian page, and the language
//! switcher of a page with a translated slug leads to its translation.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use scraper::{Html, Selector};
use sitegen::build::{BuildOptions, build};

use crate::common;

const BASE: &str = "https://www.nordvale.example";

/// What a page's head says of its versions.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Head {
    lang: String,
    canonical: Option<String>,
    hreflang: BTreeSet<(String, String)>,
    /// The language switcher's links: (hreflang, href), in the header and in the mobile menu
    /// alike.
    switcher: BTreeSet<(String, String)>,
}

/// An element's (`hreflang`, `href`): a head's alternate, a sitemap's `xhtml:link`, a
/// switcher's link.
fn link_of(element: &scraper::node::Element) -> (String, String) {
    (
        element.attr("hreflang").unwrap_or_default().to_owned(),
        element.attr("href").unwrap_or_default().to_owned(),
    )
}

/// Builds a copy of the site (without its photos) into the copy's `dist/`, its forms posting to
/// `endpoint` when given.
fn built(endpoint: Option<&str>) -> (common::Copy, std::path::PathBuf) {
    let copy = common::Copy::new().expect("a copy of the site");
    common::without_photos(&copy.content).expect("illustrations");
    let out = copy.dir.path().join("dist");
    let mut options = BuildOptions::new(copy.content.clone(), copy.site.clone(), out.clone());
    options.quiet = true;
    options.cache_dir = Some(copy.dir.path().join("cache"));
    options.contact_endpoint = endpoint.map(str::to_owned);
    if let Err(err) = build(&options) {
        panic!("the build failed: {err:#}");
    }
    (copy, out)
}

fn head_of(html: &str) -> Head {
    let doc = Html::parse_document(html);
    let select = |s: &str| Selector::parse(s).expect("a selector");
    let lang = doc
        .select(&select("html"))
        .next()
        .and_then(|e| e.value().attr("lang"))
        .unwrap_or_default()
        .to_owned();
    let canonical = doc
        .select(&select(r#"link[rel="canonical"]"#))
        .next()
        .and_then(|e| e.value().attr("href"))
        .map(str::to_owned);
    let hreflang = doc
        .select(&select(r#"link[rel="alternate"][hreflang]"#))
        .map(|e| link_of(e.value()))
        .collect();
    let switcher = doc
        .select(&select("header nav a[hreflang]"))
        .map(|e| link_of(e.value()))
        .collect();
    Head {
        lang,
        canonical,
        hreflang,
        switcher,
    }
}

/// Every page of the output by its URL, with what its head says; the pages at old paths
/// (redirects) and the not-found pages are left out.
fn pages(out: &Path) -> BTreeMap<String, Head> {
    let mut pages = BTreeMap::new();
    for entry in walkdir::WalkDir::new(out)
        .into_iter()
        .filter_map(Result::ok)
    {
        let path = entry.path();
        if path.file_name().and_then(|n| n.to_str()) != Some("index.html") {
            continue;
        }
        let html = std::fs::read_to_string(path).expect("a page");
        if html.contains(r#"http-equiv="refresh""#) {
            continue;
        }
        let rel = path
            .strip_prefix(out)
            .expect("inside")
            .parent()
            .expect("a folder");
        let url = match rel.to_string_lossy().as_ref() {
            "" => format!("{BASE}/"),
            rel => format!("{BASE}/{rel}/"),
        };
        pages.insert(url, head_of(&html));
    }
    pages
}

/// The sitemap's URLs, each with its `xhtml:link` alternates.
fn sitemap(out: &Path) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let xml = std::fs::read_to_string(out.join("sitemap.xml")).expect("a sitemap");
    let doc = Html::parse_fragment(&xml);
    let select = |s: &str| Selector::parse(s).expect("a selector");
    doc.select(&select("url"))
        .map(|url| {
            let loc = url
                .select(&select("loc"))
                .next()
                .map(|l| l.text().collect::<String>())
                .expect("a loc");
            let links = url
                .select(&select("xhtml\\:link"))
                .map(|l| link_of(l.value()))
                .collect();
            (loc, links)
        })
        .collect()
}

#[test]
fn every_version_of_every_page_agrees_on_its_alternates_the_sitemap_says_the_same_and_hosts_serve_it()
 {
    let (_copy, out) = built(None);
    let pages = pages(&out);
    let estonian = pages
        .keys()
        .filter(|u| u.starts_with(&format!("{BASE}/et/")))
        .count();
    assert!(estonian > 40, "only {estonian} Estonian pages");

    for (url, head) in &pages {
        let expected_lang = if url.starts_with(&format!("{BASE}/et/")) {
            "et"
        } else {
            "en"
        };
        assert_eq!(head.lang, expected_lang, "{url}: <html lang>");
        assert_eq!(
            head.canonical.as_deref(),
            Some(url.as_str()),
            "{url} is its own canonical"
        );
        let set = &head.hreflang;
        let x_default: Vec<_> = set.iter().filter(|(l, _)| l == "x-default").collect();
        assert_eq!(x_default.len(), 1, "{url}: one x-default in {set:?}");
        assert!(
            set.contains(&(expected_lang.to_owned(), url.clone())),
            "{url} lists itself: {set:?}"
        );
        for (lang, href) in set {
            assert!(
                href.starts_with("https://"),
                "{url}: {lang} -> {href} is not absolute"
            );
            let Some(target) = pages.get(href) else {
                panic!("{url}: {lang} -> {href}, which the output does not have");
            };
            assert_eq!(
                target.canonical.as_deref(),
                Some(href.as_str()),
                "{href} is its own canonical"
            );
            assert_eq!(
                &target.hreflang, set,
                "{href} lists the same versions as {url}"
            );
        }
        // x-default is the English version.
        let (_, default) = x_default[0];
        assert!(
            set.contains(&("en".to_owned(), default.clone())),
            "{url}: x-default is English"
        );
    }

    let sitemap = sitemap(&out);
    for (loc, links) in &sitemap {
        let Some(head) = pages.get(loc) else {
            panic!("the sitemap lists {loc}, which the output does not have");
        };
        assert_eq!(
            links, &head.hreflang,
            "the sitemap's alternates of {loc} are its head's"
        );
    }
    for (url, head) in &pages {
        if !url.contains("/contact/") && !url.contains("/newsletter/") {
            assert!(sitemap.contains_key(url), "the sitemap lists {url}");
        }
        assert!(head.hreflang.len() >= 2, "{url}");
    }

    // The hosts' rules cover every language: each published file has its caching rule in
    // `_headers` (the Estonian not-found page and feed too, which no page pattern covers),
    // and `_redirects` answers an unknown Estonian path with the Estonian not-found page.
    let headers = sitegen::headers::HeaderRules::load(&out.join("_headers")).expect("_headers");
    for entry in walkdir::WalkDir::new(&out) {
        let entry = entry.expect("walks");
        let file = entry
            .path()
            .strip_prefix(&out)
            .expect("inside")
            .to_string_lossy();
        let config = file.starts_with('_') || file.ends_with(".br") || file.ends_with(".gz");
        if !entry.file_type().is_file() || config {
            continue;
        }
        let path = match file.strip_suffix("index.html") {
            Some(dir) => format!("/{dir}"),
            None => format!("/{file}"),
        };
        let cache = headers.value(&[&path], &axum::http::header::CACHE_CONTROL);
        assert!(cache.is_some(), "{path} has no Cache-Control in _headers");
    }
    let redirects = sitegen::redirects::Rules::load(&out).expect("_redirects");
    assert_eq!(
        redirects.not_found(),
        [sitegen::redirects::NotFound {
            prefix: "/et".into(),
            page: "/et/404.html".into()
        }]
    );
    assert!(out.join("et/404.html").is_file());
}

#[test]
fn an_untranslated_article_has_no_estonian_page_and_a_translated_slug_is_followed() {
    let (copy, out) = built(Some("https://forms.example"));
    // Every language's forms post to the endpoint the build was given; a translated page's
    // names its language.
    for (page, action) in [
        ("contact", "https://forms.example/send-contact-email"),
        (
            "et/contact",
            "https://forms.example/send-contact-email?lang=et",
        ),
    ] {
        let html = std::fs::read_to_string(out.join(page).join("index.html")).expect(page);
        assert!(html.contains(&format!("action=\"{action}\"")), "{page}");
    }
    let translated: BTreeSet<String> = std::fs::read_dir(copy.content.join("articles"))
        .expect("articles")
        .filter_map(Result::ok)
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".et.md")
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(translated.len(), 3);
    let published: BTreeSet<String> = std::fs::read_dir(out.join("et/insights"))
        .expect("Estonian articles")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("index.html").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|name| name != "category")
        .collect();
    assert_eq!(published.len(), translated.len(), "{published:?}");
    // An untranslated article: English only, and the switcher shows no Estonian link.
    let untranslated = std::fs::read_dir(out.join("insights"))
        .expect("articles")
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .find(|name| name != "category" && e_index(&out, name) && !translated.contains(name))
        .expect("an untranslated article");
    let html = std::fs::read_to_string(out.join(format!("insights/{untranslated}/index.html")))
        .expect("its page");
    let head = head_of(&html);
    let url = format!("{BASE}/insights/{untranslated}/");
    assert_eq!(
        head.hreflang,
        BTreeSet::from([
            ("en".to_owned(), url.clone()),
            ("x-default".to_owned(), url)
        ])
    );
    assert_eq!(head.switcher, BTreeSet::new());
    // A translated article: its switcher leads to the Estonian slug, and back.
    let slug = "five-questions-to-ask-before-your-next-cloud-migration";
    let local = "viis-kusimust-enne-jargmist-pilvemigratsiooni";
    let english = head_of(
        &std::fs::read_to_string(out.join(format!("insights/{slug}/index.html"))).expect("en"),
    );
    assert_eq!(
        english.switcher,
        BTreeSet::from([("et".to_owned(), format!("/et/insights/{local}"))])
    );
    let estonian = head_of(
        &std::fs::read_to_string(out.join(format!("et/insights/{local}/index.html"))).expect("et"),
    );
    assert_eq!(
        estonian.switcher,
        BTreeSet::from([("en".to_owned(), format!("/insights/{slug}"))])
    );
}

fn e_index(out: &Path, name: &str) -> bool {
    out.join(format!("insights/{name}/index.html")).is_file()
}

#[test]
fn i18n_status_counts_the_real_content_and_fails_below_the_coverage_asked() {
    let copy = common::Copy::new().expect("a copy of the site");
    let status = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sitegen"))
            .args(["i18n", "status", "--content"])
            .arg(&copy.content)
            .args(args)
            .output()
            .expect("sitegen runs")
    };
    let all = status(&[]);
    assert!(all.status.success());
    let printed = String::from_utf8_lossy(&all.stdout).into_owned();
    let first = printed.lines().next().unwrap_or_default().to_owned();
    assert!(first.starts_with("et (Eesti): "), "{printed}");
    assert!(
        first.contains(", 0 stale, "),
        "every translation is marked: {printed}"
    );

    let strict = status(&["--min", "et=100"]);
    assert!(!strict.status.success(), "some articles are English only");
    assert!(
        String::from_utf8_lossy(&strict.stderr).contains("below the 100% asked"),
        "{}",
        String::from_utf8_lossy(&strict.stderr)
    );

    // A source edited after its translation was marked makes the translation stale.
    let about = copy.content.join("pages/about.yaml");
    let text = std::fs::read_to_string(&about).expect("about");
    std::fs::write(&about, text.replacen("About", "About us", 1)).expect("written");
    let printed = String::from_utf8_lossy(&status(&[]).stdout).into_owned();
    assert!(printed.contains(", 1 stale, "), "{printed}");
    assert!(printed.contains("content/pages/about.et.yaml"), "{printed}");
}

/// Regression: a translation file that left out some of its source's words (which readers then
/// meet in English) counted as translated.
#[test]
fn i18n_status_reports_a_translation_missing_a_string_as_partial_with_its_path() {
    let copy = common::Copy::new().expect("a copy of the site");
    let sitegen = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sitegen"))
            .args(args)
            .output()
            .expect("sitegen runs")
    };
    let content = copy.content.to_str().expect("a UTF-8 path");
    let status = |min: &[&str]| {
        let mut args = vec!["i18n", "status", "--content", content];
        args.extend(min);
        sitegen(&args)
    };
    let printed = String::from_utf8_lossy(&status(&[]).stdout).into_owned();
    assert!(printed.contains(", 0 partial, "), "{printed}");
    let coverage = |printed: &str| -> String {
        let first = printed.lines().next().unwrap_or_default();
        let start = first.find("): ").expect("a coverage") + 3;
        first[start..]
            .split('%')
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let before = coverage(&printed);
    // The coverage is printed rounded to a tenth: ask a hair below it.
    let floor = before.parse::<f64>().expect("a percentage") - 0.05;
    let at_least_before = format!("et={floor}");
    assert!(status(&["--min", &at_least_before]).status.success());

    // The Estonian settings leave out the office's name, and are marked as up to date.
    let site = copy.content.join("site.et.yaml");
    let text = std::fs::read_to_string(&site).expect("site.et.yaml");
    let without: String = text
        .lines()
        .filter(|line| line.trim() != "name: Tallinna kontor")
        .map(|line| format!("{line}\n"))
        .collect();
    assert_ne!(without, text, "the office's name was in the translation");
    std::fs::write(&site, without).expect("written");
    let marked = sitegen(&["i18n", "mark", site.to_str().expect("a UTF-8 path")]);
    assert!(
        marked.status.success(),
        "{}",
        String::from_utf8_lossy(&marked.stderr)
    );

    let printed = String::from_utf8_lossy(&status(&[]).stdout).into_owned();
    assert!(printed.contains(", 1 partial, "), "{printed}");
    let listed = printed
        .split("  partial (")
        .nth(1)
        .unwrap_or_else(|| panic!("a list of partial files: {printed}"));
    assert!(
        listed.contains("content/site.et.yaml\n      contact.office.name\n"),
        "{printed}"
    );
    assert_ne!(
        coverage(&printed),
        before,
        "a partial file is not translated"
    );
    assert!(
        !status(&["--min", &at_least_before]).status.success(),
        "--min counts a partial file as not translated"
    );
}
