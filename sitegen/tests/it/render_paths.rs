//! The two ways a page is rendered (`site/render/thin.ts`): the first page of each kind through
//! Vike's `renderPage`, the kind's further pages through the same hooks without it. Every page of
//! the site, in both languages, comes out byte for byte as `SITEGEN_RENDER=vike` renders it, with
//! only a kind's first pages through Vike; and a kind the thin path would render differently is
//! left to Vike with a warning naming the page. Copies of the site (without their photos) are
//! built by sitegen's library and its binary. The builds compared are also one with a cache and
//! one with `--no-cache`, whose cache of its own moves its files into the output: the same
//! bytes, with the same ordinary modes, and nothing left in its temporary folder.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use sitegen::build::{BuildOptions, build};

use crate::common;

/// `sitegen build --no-cache` of `copy` into `out`, with its temporary files in `copy`'s `tmp`.
fn run(copy: &common::Copy, out: &Path, via_vike: bool) -> anyhow::Result<Output> {
    let tmp = copy.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp)?;
    let mut command = Command::new(env!("CARGO_BIN_EXE_sitegen"));
    command
        .env("TMPDIR", &tmp)
        .args(["build", "--quiet", "--no-cache", "--jobs", "2", "--content"])
        .arg(&copy.content)
        .arg("--site")
        .arg(&copy.site)
        .arg("--out")
        .arg(out)
        .env_remove("SITEGEN_RENDER")
        .stdin(Stdio::null());
    if via_vike {
        command.env("SITEGEN_RENDER", "vike");
    }
    Ok(command.output()?)
}

fn mode(path: &Path) -> anyhow::Result<u32> {
    use std::os::unix::fs::PermissionsExt as _;
    Ok(std::fs::metadata(path)?.permissions().mode() & 0o7777)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A copy of the site in one language, without its photos, whose `file` (under `site/`) has each
/// `(from, to)` replaced and imports `usePageContext`.
fn with_page_context(file: &str, edits: &[(&str, &str)]) -> anyhow::Result<common::Copy> {
    let copy = common::Copy::new()?;
    common::without_photos(&copy.content)?;
    common::one_language(&copy.content)?;
    let path = copy.site.join(file);
    for (from, to) in edits {
        common::replace(&path, from, to)?;
    }
    let text = std::fs::read_to_string(&path)?;
    std::fs::write(
        &path,
        format!("import {{ usePageContext }} from 'vike-react/usePageContext'\n{text}"),
    )?;
    Ok(copy)
}

/// The files of two outputs whose bytes differ, or that only one has.
fn differing(a: &Path, b: &Path) -> anyhow::Result<Vec<String>> {
    let (a, b) = (common::tree(a)?, common::tree(b)?);
    Ok(a.keys()
        .chain(b.keys())
        .filter(|file| a.get(*file) != b.get(*file))
        .cloned()
        .collect())
}

#[test]
fn every_page_is_what_vike_renders() -> anyhow::Result<()> {
    let copy = common::Copy::new()?;
    common::without_photos(&copy.content)?;
    let [thin, vike] = ["thin", "vike"].map(|name| copy.dir.path().join(name));
    let mut options = BuildOptions::new(copy.content.clone(), copy.site.clone(), thin.clone());
    (options.quiet, options.jobs) = (true, 2);
    options.cache_dir = Some(copy.dir.path().join("cache"));
    let built = build(&options)?;
    let output = run(&copy, &vike, true)?;
    anyhow::ensure!(output.status.success(), "{}", stderr(&output));
    // The throwaway cache's files moved into the output (or went with it), with the mode a
    // copy of the cache's would have (what the umask leaves of 0666: a file made just now).
    let tmp = copy.dir.path().join("tmp");
    let left: Vec<_> = std::fs::read_dir(&tmp)?.collect();
    assert!(left.is_empty(), "left in {}: {left:?}", tmp.display());
    let probe = tmp.join("probe");
    std::fs::write(&probe, "")?;
    let ordinary = mode(&probe)?;
    for out in [&thin, &vike] {
        for entry in walkdir::WalkDir::new(out) {
            let entry = entry?;
            if entry.file_type().is_file() {
                assert_eq!(mode(entry.path())?, ordinary, "{}", entry.path().display());
            }
        }
    }
    let (thin, vike) = (common::tree(&thin)?, common::tree(&vike)?);
    let pages = thin.keys().filter(|file| file.ends_with(".html")).count();
    assert!(pages > 50, "{pages} pages");
    assert!(thin.keys().any(|file| file.starts_with("et/")));
    let differing: Vec<&String> = thin
        .keys()
        .chain(vike.keys())
        .filter(|file| thin.get(*file) != vike.get(*file))
        .collect();
    assert!(differing.is_empty(), "differ: {differing:?}");
    // Through Vike: at most each kind's first page in each worker, and the not-found pages.
    let kinds = walkdir::WalkDir::new(copy.site.join("pages"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| {
            entry.file_name() == "+Page.tsx"
                && !entry.path().starts_with(copy.site.join("pages/_error"))
        })
        .count();
    let not_found = thin
        .keys()
        .filter(|file| file.ends_with("404.html"))
        .count();
    assert_eq!(built.rendered, pages);
    // The footer, alike on the pages of a language, was rendered once for most of them.
    assert!(
        built.frame_parts_once > pages / 2,
        "{} parts of the frame rendered once for {pages} pages",
        built.frame_parts_once
    );
    assert!(
        built.rendered_via_vike <= 2 * kinds + not_found,
        "{} of {} pages through Vike, {kinds} kinds",
        built.rendered_via_vike,
        built.rendered
    );
    Ok(())
}

#[test]
fn a_kind_the_thin_path_renders_differently_is_left_to_vike_with_a_warning() -> anyhow::Result<()> {
    // Vike's page context has the parsed URL; the thin path's has only what the pages read.
    let copy = with_page_context(
        "pages/insights/@slug/+Page.tsx",
        &[
            (
                "  const { words } = article",
                "  const { words } = article\n  const parsed = usePageContext().urlParsed?.pathname",
            ),
            (
                "      <article aria-labelledby=\"article-title\">",
                "      <article aria-labelledby=\"article-title\" data-parsed={parsed}>",
            ),
        ],
    )?;
    let out = copy.dir.path().join("dist");
    let output = run(&copy, &out, false)?;
    assert!(output.status.success(), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains(
            "warning: the pages of /pages/insights/@slug are rendered through Vike's renderPage: \
             sitegen's own render path differs on /insights/"
        ),
        "{message}"
    );
    // Once from each render worker that rendered an article, at the first it rendered.
    let warnings = message.matches("warning: the pages of").count();
    assert!((1..=2).contains(&warnings), "{message}");
    assert!(
        message.contains("data-parsed"),
        "the warning shows where the two differ: {message}"
    );
    // Every article is Vike's page, with the parsed URL.
    let articles: Vec<String> = std::fs::read_dir(out.join("insights"))?
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read_to_string(entry.path().join("index.html")).ok())
        .filter(|html| html.contains("<article"))
        .collect();
    assert!(articles.len() > 3, "{} articles", articles.len());
    for html in &articles {
        assert!(
            html.contains("data-parsed=\"/insights/"),
            "an article without its parsed URL"
        );
    }
    Ok(())
}

#[test]
fn a_part_of_the_frame_that_reads_the_page_behind_its_props_is_rendered_for_every_page()
-> anyhow::Result<()> {
    // The footer learns the page's path from the page context, not from its props: what it
    // rendered for one page is not what it renders for the next.
    let copy = with_page_context(
        "components/layout/SiteFooter.tsx",
        &[
            (
                "  const { brand, nav, footer, ui } = settings",
                "  const { brand, nav, footer, ui } = settings\n  const { urlPathname } = usePageContext()",
            ),
            (
                "    <footer className=",
                "    <footer data-page={urlPathname} className=\"relative overflow-hidden bg-ink-950 text-ink-300\">",
            ),
        ],
    )?;
    let [thin, vike] = ["thin", "vike"].map(|name| copy.dir.path().join(name));
    let output = run(&copy, &thin, false)?;
    assert!(output.status.success(), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains("warning: the frame's part") && message.contains("SiteFooter"),
        "{message}"
    );
    let output = run(&copy, &vike, true)?;
    assert!(output.status.success(), "{}", stderr(&output));
    let differ = differing(&thin, &vike)?;
    assert!(differ.is_empty(), "differ: {differ:?}");
    let about = std::fs::read_to_string(thin.join("about/index.html"))?;
    assert!(
        about.contains("data-page=\"/about\""),
        "the footer of /about is its own"
    );
    Ok(())
}
