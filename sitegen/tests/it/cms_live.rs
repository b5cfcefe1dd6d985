//! The editor of the live site (`cms:` in `site.yaml`): its configuration edits the repository
//! through pull requests, a mistake in `cms` is named at its line, and a build publishes
//! `/admin/` with it (and, the e2e build's static checks assert, nothing without it).

use std::path::{Path, PathBuf};

use serde_json::Value;
use sitegen::build::{BuildOptions, build};
use sitegen::content::{Content, Publishing};

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// `site.yaml`'s `cms`, as a site that publishes its editor writes it.
const CMS: &str =
    "cms:\n  repo: nordvale/site\n  branch: main\n  base_url: https://cms-auth.example.com\n";

/// A copy of the content with `extra` appended to its `site.yaml`.
fn content_with(extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    crate::common::copy_dir(&content(), dir.path()).expect("copy");
    let site = dir.path().join("site.yaml");
    let text = std::fs::read_to_string(&site).expect("site.yaml");
    std::fs::write(&site, format!("{text}{extra}")).expect("write");
    dir
}

#[test]
fn the_live_configuration_edits_the_repository_of_site_yaml_through_pull_requests() {
    let dir = content_with(CMS);
    let backend = sitegen::cms::live_backend(dir.path()).expect("backend");
    let config = sitegen::cms::config(dir.path(), "content", backend).expect("config");
    let yaml = config.to_yaml().expect("yaml");
    let back: Value = serde_yaml::from_str(&yaml).expect("parses");
    assert_eq!(
        back["backend"],
        serde_json::json!({
            "name": "sitegen-github",
            "repo": "nordvale/site",
            "branch": "main",
            "base_url": "https://cms-auth.example.com",
            "preview_context": sitegen::cms::PREVIEW_CONTEXT,
        })
    );
    assert_eq!(back["publish_mode"], "editorial_workflow");
    assert_eq!(back, serde_json::to_value(&config).expect("json"));
    // The editor of `sitegen dev` writes at once: there is no pull request to review.
    let local = sitegen::cms::Backend::Local {
        proxy_url: sitegen::cms::LOCAL_PROXY_URL.into(),
    };
    let dev = sitegen::cms::config(dir.path(), "content", local).expect("config");
    assert_eq!(dev.publish_mode, None);
}

#[test]
fn a_site_without_cms_has_no_live_configuration_and_is_told_what_to_write() {
    let dir = content_with("");
    let err = sitegen::cms::live_backend(dir.path()).expect_err("no cms");
    let message = format!("{err:#}");
    assert!(message.contains("site.yaml: no `cms`"), "{message}");
    assert!(message.contains("repo: owner/name"), "{message}");
}

#[test]
fn a_mistake_in_cms_is_named_at_its_line_and_field() {
    let dir = content_with(
        "cms:\n  repo: https://github.com/nordvale/site\n  branch: main\n  base_url: http://auth.example.com/login\n",
    );
    let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../site/public");
    let errors = Content::load_with(dir.path(), &public, None, &Publishing::preview())
        .expect_err("invalid cms");
    let text = errors.to_string();
    let lines = std::fs::read_to_string(dir.path().join("site.yaml"))
        .expect("site.yaml")
        .lines()
        .count();
    let (repo, base_url) = (lines - 2, lines);
    assert!(
        text.contains(&format!(
            "site.yaml:{repo}:3: `https://github.com/nordvale/site` is not a GitHub repository: write it as `owner/name`"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "site.yaml:{base_url}:3: `http://auth.example.com/login` is not the address of an OAuth proxy"
        )),
        "{text}"
    );
}

/// The CI example's pull-request job posts the status the editor reads its preview link from:
/// the context is written there by hand, so it is held to the one definition here.
#[test]
fn the_ci_example_posts_the_preview_status_the_editor_reads() {
    let workflow = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ci/deploy.yml");
    let text = std::fs::read_to_string(&workflow).expect("deploy.yml");
    assert!(
        text.contains(&format!("context={}", sitegen::cms::PREVIEW_CONTEXT)),
        "{} posts no commit status `{}`",
        workflow.display(),
        sitegen::cms::PREVIEW_CONTEXT
    );
}

#[test]
fn a_build_with_cms_publishes_the_editor_never_indexed_and_no_page_names_it() {
    let copy = crate::common::Copy::new().expect("copy");
    crate::common::without_photos(&copy.content).expect("photos");
    let site = copy.content.join("site.yaml");
    let text = std::fs::read_to_string(&site).expect("site.yaml");
    std::fs::write(&site, format!("{text}{CMS}")).expect("write");
    let out = copy.dir.path().join("out");
    let mut options = BuildOptions::new(copy.content.clone(), copy.site.clone(), out.clone());
    options.quiet = true;
    options.cache_dir = Some(copy.dir.path().join("cache"));
    options.contact_endpoint = Some("http://127.0.0.1:9".into());
    if let Err(err) = build(&options) {
        panic!("the build failed: {err:#}");
    }
    let read = |rel: &str| std::fs::read_to_string(out.join(rel)).expect(rel);

    let page = read("admin/index.html");
    assert!(page.contains(r#"<meta name="robots" content="noindex, nofollow">"#));
    assert!(page.contains(r#"<meta http-equiv="Content-Security-Policy""#));
    let script = page
        .split(r#"<script type="module" crossorigin src="/admin/assets/"#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page loads the editor's hashed script");
    assert!(out.join("admin/assets").join(script).is_file(), "{script}");

    let config: Value = serde_json::from_str(&read("admin/config.json")).expect("json");
    assert_eq!(config["backend"]["name"], "sitegen-github");
    assert_eq!(config["backend"]["repo"], "nordvale/site");
    assert_eq!(config["publish_mode"], "editorial_workflow");

    let headers = sitegen::headers::HeaderRules::parse(&read("_headers")).expect("_headers");
    let robots = axum::http::HeaderName::from_static("x-robots-tag");
    assert_eq!(
        headers.value(&["/admin/"], &robots).as_deref(),
        Some("noindex, nofollow")
    );

    // Not in the sitemap, the feed or the search index, and no page of the site names it.
    for (rel, bytes) in crate::common::tree(&out).expect("tree") {
        if rel.starts_with("admin/")
            || rel == "_headers"
            || rel.ends_with(".br")
            || rel.ends_with(".gz")
        {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("/admin"), "{rel} names /admin");
    }
}

/// `sitegen cms present`, the answers the live editor's presentation in TypeScript is checked
/// against (site/tests-static/cms-present.spec.ts), answers reads as `sitegen dev` does and
/// never a write.
#[test]
fn the_reference_of_the_live_presentation_answers_reads_and_refuses_writes() {
    let get = r#"{"action":"getEntry","params":{"path":"content/pages/about.yaml"}}"#.to_owned();
    let answers =
        sitegen::cms::local::answer_reads(&content(), std::slice::from_ref(&get)).expect("answers");
    let data: serde_yaml::Value =
        serde_yaml::from_str(answers[0]["data"].as_str().expect("data")).expect("yaml");
    let locales: Vec<&str> = data
        .as_mapping()
        .expect("a document")
        .keys()
        .filter_map(|k| k.as_str())
        .collect();
    assert_eq!(locales, ["en", "et"]);
    let write = r#"{"action":"persistEntry","params":{"dataFiles":[]}}"#.to_owned();
    let err = sitegen::cms::local::answer_reads(&content(), &[write]).expect_err("refused");
    assert!(
        format!("{err:#}").contains("`persistEntry` is not one of the reads"),
        "{err:#}"
    );
}
