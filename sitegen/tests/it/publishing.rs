//! Drafts and scheduled content: at a fixed time, a draft, a future and an expired article and a
//! draft sub-service are in no output of a production build and in a preview with their banner;
//! a link to a draft is an error at its line; moving the time past `publish_at` publishes the
//! article in an incremental build equal to a clean one; `next_change_at` is exact.
//!
//! The site is a small copy of the repository's: six articles (three translated into Estonian),
//! the photos swapped for an illustration. The builds need Node.js and the site's packages
//! (`make deps`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use sitegen::build::{BuildOptions, build};
use sitegen::content::{Content, Publishing};

use crate::common;

/// The articles the small site keeps (with their translations).
const KEPT: &[&str] = &[
    DRAFT,
    FUTURE,
    EXPIRED,
    "five-questions-to-ask-before-your-next-cloud-migration",
    "what-it-really-takes-to-put-machine-learning-into-production",
    "generative-ai-in-the-enterprise-from-pilot-to-production",
];
/// `draft: true`.
const DRAFT: &str = "dashboards-nobody-opens-and-how-to-fix-them";
/// `publish_at` after [`NOW`], translated into Estonian under a slug of its own.
const FUTURE: &str = "designing-event-driven-apis-that-scale";
const FUTURE_ET_PATH: &str = "/et/insights/skaleeruvate-sundmuspohiste-api-de-kujundamine";
const PUBLISH_AT: &str = "2026-12-09T09:00:00+02:00";
/// `expires_at` before [`NOW`], written as a date (00:00 in Tallinn).
const EXPIRED: &str = "kubernetes-cost-optimisation-in-practice";
/// The draft sub-service.
const DRAFT_SUB_SERVICE: &str = "/services/cloud-services/security";

/// The build's time: after the expiry, before `publish_at`.
const NOW: &str = "2026-12-07T00:00:00Z";
/// After `publish_at`.
const LATER: &str = "2026-12-09T08:00:00Z";

fn at(time: &str) -> Option<jiff::Timestamp> {
    Some(time.parse().expect("an RFC 3339 time"))
}

/// The small site, with the draft, the future and the expired article and the draft
/// sub-service.
struct Site {
    _copy: common::Copy,
    content: PathBuf,
    site: PathBuf,
}

impl Site {
    fn new() -> anyhow::Result<Self> {
        let copy = common::Copy::new()?;
        common::without_photos(&copy.content)?;
        for entry in std::fs::read_dir(copy.content.join("articles"))? {
            let path = entry?.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let slug = name.split('.').next().unwrap_or_default();
            if !KEPT.contains(&slug) {
                std::fs::remove_file(&path)?;
            }
        }
        let site = Self {
            content: copy.content.clone(),
            site: copy.site.clone(),
            _copy: copy,
        };
        site.front_matter(DRAFT, "draft: true")?;
        site.front_matter(FUTURE, &format!("publish_at: {PUBLISH_AT}"))?;
        site.front_matter(EXPIRED, "expires_at: 2026-12-01")?;
        common::replace(
            &site.content.join("services/cloud-services.yaml"),
            "      title: Cloud Security | Nordvale",
            "      draft: true\n      title: Cloud Security | Nordvale",
        )?;
        Ok(site)
    }

    fn article(&self, slug: &str) -> PathBuf {
        self.content.join(format!("articles/{slug}.md"))
    }

    /// Adds `line` at the top of the front matter of the article `slug`.
    fn front_matter(&self, slug: &str, line: &str) -> anyhow::Result<()> {
        let file = self.article(slug);
        let text = std::fs::read_to_string(&file)?;
        let rest = text
            .strip_prefix("---\n")
            .ok_or_else(|| anyhow::anyhow!("{} has no front matter", file.display()))?;
        std::fs::write(&file, format!("---\n{line}\n{rest}"))?;
        Ok(())
    }

    fn load(&self, now: &str) -> Result<Content, sitegen::content::ContentErrors> {
        let production = Publishing {
            now: at(now),
            ..Publishing::default()
        };
        Content::load_with(&self.content, &self.site.join("public"), None, &production)
    }

    fn options(&self, out: &Path, cache: &Path, publishing: Publishing) -> BuildOptions {
        let mut options = BuildOptions::new(self.content.clone(), self.site.clone(), out.into());
        options.quiet = true;
        options.cache_dir = Some(cache.to_owned());
        options.contact_endpoint = Some("http://127.0.0.1:9".into());
        options.publishing = publishing;
        options
    }
}

/// The text files of an output (not the compressed variants), by path.
fn texts_of(dir: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    Ok(common::tree(dir)?
        .into_iter()
        .filter(|(file, _)| !file.ends_with(".br") && !file.ends_with(".gz"))
        .filter_map(|(file, bytes)| Some((file, String::from_utf8(bytes).ok()?)))
        .collect())
}

/// The files of `texts` that mention `what`.
fn mentioning<'a>(texts: &'a BTreeMap<String, String>, what: &str) -> Vec<&'a str> {
    texts
        .iter()
        .filter(|(_, text)| text.contains(what))
        .map(|(file, _)| file.as_str())
        .collect()
}

#[test]
fn a_link_to_a_draft_is_an_error_at_its_line() {
    let site = Site::new().expect("the small site");
    let linking = site.article("five-questions-to-ask-before-your-next-cloud-migration");
    let mut text = std::fs::read_to_string(&linking).expect("read");
    text.push_str(&format!(
        "\nRead [why dashboards fail](/insights/{DRAFT}/).\n"
    ));
    let line = text.lines().count();
    std::fs::write(&linking, text).expect("write");

    let errors = site
        .load(NOW)
        .expect_err("a published article links to a draft");
    let errors: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
    let expected = format!(
        "{}:{line}:6: link `/insights/{DRAFT}/` leads to articles/{DRAFT}.md, which is a draft \
         and not published by this build: remove the link until it is published",
        linking.display()
    );
    assert_eq!(errors, [expected]);
    // A preview publishes the draft: the link is then fine.
    let preview = Publishing {
        now: at(NOW),
        ..Publishing::preview()
    };
    Content::load_with(&site.content, &site.site.join("public"), None, &preview)
        .expect("a preview shows the draft");
}

#[test]
fn a_preview_redirects_store_that_is_no_store_s_arn_is_an_error_at_its_line() {
    let site = Site::new().expect("the small site");
    let file = site.content.join("site.yaml");
    let mut text = std::fs::read_to_string(&file).expect("read");
    text.push_str(
        "preview_domain: preview.example.com\npreview_redirects_store: arn:aws:s3:::www\n",
    );
    let line = text.lines().count();
    std::fs::write(&file, text).expect("write");
    let errors = site.load(NOW).expect_err("not a store's ARN");
    let errors: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [format!(
            "{}:{line}:1: \"arn:aws:s3:::www\" is not the ARN of a CloudFront KeyValueStore \
             (arn:aws:cloudfront::123456789012:key-value-store/ID)",
            file.display()
        )]
    );
}

#[test]
fn next_change_at_is_the_earliest_publish_at_or_expires_at_to_come() {
    let site = Site::new().expect("the small site");
    let content = site.load(NOW).expect("valid");
    assert_eq!(content.next_change_at, at("2026-12-09T07:00:00Z"));
    // Once it is published, nothing more is scheduled (the draft's dates do not count).
    site.front_matter(DRAFT, "publish_at: 2026-12-08T00:00:00Z")
        .expect("edit");
    assert_eq!(site.load(LATER).expect("valid").next_change_at, None);
    // An expiry to come counts, in the site's time zone.
    site.front_matter(
        "five-questions-to-ask-before-your-next-cloud-migration",
        "expires_at: 2027-01-01",
    )
    .expect("edit");
    assert_eq!(
        site.load(LATER).expect("valid").next_change_at,
        at("2026-12-31T22:00:00Z")
    );
}

#[test]
fn what_is_not_published_is_in_no_output_of_a_production_build_and_in_a_preview_with_its_banner() {
    let site = Site::new().expect("the small site");
    let work = tempfile::tempdir().expect("tempdir");
    let cache = work.path().join("cache");
    let out = work.path().join("dist");
    let production = Publishing {
        now: at(NOW),
        ..Publishing::default()
    };
    let built = build(&site.options(&out, &cache, production)).expect("production build");
    assert_eq!(
        built.report.next_change_at.as_deref(),
        Some("2026-12-09T07:00:00Z")
    );
    let texts = texts_of(&out).expect("the output");
    // Pages, listings in both languages, the feeds, the sitemap, the search index, alternates.
    for left_out in [DRAFT, FUTURE, FUTURE_ET_PATH, DRAFT_SUB_SERVICE] {
        assert_eq!(
            mentioning(&texts, left_out),
            Vec::<&str>::new(),
            "{left_out}"
        );
    }
    assert!(texts.contains_key(
        "insights/five-questions-to-ask-before-your-next-cloud-migration/index.html"
    ));
    // The expired article is answered as gone, and named nowhere else.
    assert_eq!(
        mentioning(&texts, EXPIRED),
        ["_cloudfront-redirects-function", "_redirects"]
    );
    // Both spellings of its path, in its one language (it has no Estonian version).
    let gone: Vec<&str> = texts["_redirects"]
        .lines()
        .filter(|rule| rule.contains(EXPIRED))
        .collect();
    assert_eq!(
        gone,
        [
            format!("/insights/{EXPIRED} /404.html 410"),
            format!("/insights/{EXPIRED}/ /404.html 410"),
        ]
    );
    assert!(
        texts
            .iter()
            .filter(|(file, _)| file.ends_with(".html"))
            .all(|(_, html)| !html.contains("data-publishing-banner")),
        "no banner in production"
    );

    let preview = Publishing {
        now: at(NOW),
        base_url: Some("https://pr-7.preview.example.com".into()),
        ..Publishing::preview()
    };
    build(&site.options(&out, &cache, preview)).expect("preview build");
    let texts = texts_of(&out).expect("the output");
    let page = |path: &str| {
        let file = sitegen::output_dir::route_file(path);
        texts
            .get(&file)
            .unwrap_or_else(|| panic!("{file} is published by the preview"))
    };
    // The banner's words: from its attribute to the end of its paragraph.
    let banner = |html: &str| {
        let at = html.find("data-publishing-banner")?;
        let end = at + html[at..].find("</p>")?;
        Some(html[at..end].rsplit('>').next()?.to_owned())
    };
    let shows = |path: &str, words: &str| {
        assert_eq!(banner(page(path)).as_deref(), Some(words), "{path}");
    };
    shows(&format!("/insights/{DRAFT}"), "Draft");
    shows(DRAFT_SUB_SERVICE, "Draft");
    shows(
        &format!("/insights/{FUTURE}"),
        "Scheduled for December 9, 2026, 09:00",
    );
    shows(FUTURE_ET_PATH, "Avaldatakse 9. detsember 2026 kell 09:00");
    // Listed in both languages, without a banner on the listing.
    assert!(page("/insights").contains(FUTURE));
    assert!(page("/et/insights").contains(FUTURE_ET_PATH));
    assert!(!page("/insights").contains("data-publishing-banner"));
    // The preview names its own host, never the site's.
    assert!(texts["sitemap.xml"].contains("https://pr-7.preview.example.com/about/"));
    assert_eq!(
        mentioning(&texts, "www.nordvale.example"),
        Vec::<&str>::new()
    );
    // What expired stays out of a preview.
    assert!(
        !texts.contains_key(&sitegen::output_dir::route_file(&format!(
            "/insights/{EXPIRED}"
        )))
    );
    // Every page of a preview asks not to be indexed.
    let indexed: Vec<&String> = texts
        .iter()
        .filter(|(file, html)| {
            file.ends_with(".html")
                && html.contains("<html")
                && !html.contains(r#"<meta name="robots" content="noindex""#)
        })
        .map(|(file, _)| file)
        .collect();
    assert_eq!(indexed, Vec::<&String>::new());
}

#[test]
fn moving_the_time_past_publish_at_publishes_in_an_incremental_build_equal_to_a_clean_one() {
    let site = Site::new().expect("the small site");
    let work = tempfile::tempdir().expect("tempdir");
    let cache = work.path().join("cache");
    let incremental = work.path().join("incremental");
    let production = |now| Publishing {
        now: at(now),
        ..Publishing::default()
    };
    build(&site.options(&incremental, &cache, production(NOW))).expect("build before");
    let page = sitegen::output_dir::route_file(&format!("/insights/{FUTURE}"));
    assert!(!incremental.join(&page).exists());

    let built = build(&site.options(&incremental, &cache, production(LATER))).expect("build after");
    assert!(incremental.join(&page).exists(), "{page} is published");
    assert_eq!(built.report.next_change_at, None);
    // A clean build of the same time, sharing only the bundles (a function of site/ alone).
    let clean_cache = work.path().join("clean-cache");
    std::fs::create_dir_all(&clean_cache).expect("mkdir");
    std::os::unix::fs::symlink(cache.join("bundles"), clean_cache.join("bundles")).expect("link");
    let clean = work.path().join("clean");
    build(&site.options(&clean, &clean_cache, production(LATER))).expect("clean build");
    let (a, b) = (
        common::tree(&incremental).expect("tree"),
        common::tree(&clean).expect("tree"),
    );
    let differing: Vec<&String> = a
        .keys()
        .chain(b.keys())
        .filter(|file| a.get(*file) != b.get(*file))
        .collect();
    assert_eq!(differing, Vec::<&String>::new());
}

#[test]
fn sitegen_now_fixes_the_time_and_must_be_rfc_3339() {
    let site = Site::new().expect("the small site");
    let validate = |now: &str| {
        Command::new(env!("CARGO_BIN_EXE_sitegen"))
            .args(["validate", "--content"])
            .arg(&site.content)
            .arg("--site")
            .arg(&site.site)
            .env(sitegen::content::publishing::NOW_ENV, now)
            .output()
            .expect("sitegen runs")
    };
    let bad = validate("tuesday");
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("SITEGEN_NOW=`tuesday` is not an RFC 3339 time"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    // At NOW a published article links to the future one: an error until it is due.
    let linking = site.article("five-questions-to-ask-before-your-next-cloud-migration");
    let mut text = std::fs::read_to_string(&linking).expect("read");
    text.push_str(&format!("\nSee [event-driven APIs](/insights/{FUTURE}).\n"));
    std::fs::write(&linking, text).expect("write");
    let before = validate(NOW);
    assert!(
        String::from_utf8_lossy(&before.stderr)
            .contains("which is scheduled for 2026-12-09T07:00:00Z"),
        "{}",
        String::from_utf8_lossy(&before.stderr)
    );
    assert!(validate(LATER).status.success());
}

/// `sitegen dev` shows what a preview shows, with the same banners; what expired stays out.
#[test]
fn sitegen_dev_shows_drafts_and_what_is_not_yet_due_with_their_banner() {
    let site = Site::new().expect("the small site");
    let scratch = tempfile::tempdir().expect("tempdir");
    let cache = sitegen::cache::Cache::open(Some(&scratch.path().join("cache"))).expect("cache");
    let mut memo = sitegen::dev::Memo::default();
    let prepared = sitegen::dev::prepare(
        &site.content,
        &site.site.join("public"),
        &cache,
        &sitegen::images::Settings::default(),
        &mut memo,
    )
    .expect("the cache works")
    .expect("the content is valid");
    let content = prepared.content;
    let banner_of = |path: &str| {
        content
            .all_routes()
            .find(|r| r.path == path)
            .map(|r| r.banner.clone())
    };
    assert_eq!(
        banner_of(&format!("/insights/{DRAFT}")),
        Some(Some("Draft".into()))
    );
    assert_eq!(banner_of(DRAFT_SUB_SERVICE), Some(Some("Draft".into())));
    // The dev server runs at the clock's time: the future piece is scheduled until its
    // publish_at, then published.
    let due = jiff::Timestamp::now() >= PUBLISH_AT.parse().expect("a time");
    let scheduled = (!due).then(|| "Scheduled for December 9, 2026, 09:00".to_owned());
    assert_eq!(banner_of(&format!("/insights/{FUTURE}")), Some(scheduled));
    assert_eq!(banner_of(&format!("/insights/{EXPIRED}")), None);
    assert_eq!(banner_of("/insights"), Some(None));
    assert!(content.settings.noindex);
}
