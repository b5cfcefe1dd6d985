//! An incremental build is byte-identical to a clean one: random sequences of edits (articles
//! added, changed, renamed and deleted; YAML entries changed, added and removed; a component
//! edited) are applied to a copy of the site and its content, and after each edit the build
//! that reuses the cache is compared, file by file, with a build from an empty cache.
//!
//! Needs Node.js and the site's packages (`make deps`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sitegen::build::{BuildOptions, build};

use crate::common;
use common::{replace, tree, without_photos};

/// One change an author or a developer makes between two builds.
#[derive(Debug, Clone)]
enum Edit {
    /// A new article, written from an existing one.
    AddArticle { from: usize },
    /// A paragraph added to an article's body.
    ChangeArticle { which: usize },
    /// An article's title changed: its card, on the lists and beside related articles, too.
    RetitleArticle { which: usize },
    /// An article's file renamed: its page moves.
    RenameArticle { which: usize },
    /// An article deleted (when more than a few are left).
    DeleteArticle { which: usize },
    /// The brand's name changed: every page's frame changes.
    ChangeSiteYaml,
    /// A sub-service's name changed: its page, its category's and the menus change.
    ChangeServiceYaml,
    /// A sub-service added to a category, then its page exists.
    AddSubService,
    /// A component's words changed: the bundle changes, so every page does.
    ChangeComponent,
}

fn edits() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0..100usize).prop_map(|from| Edit::AddArticle { from }),
        (0..100usize).prop_map(|which| Edit::ChangeArticle { which }),
        (0..100usize).prop_map(|which| Edit::RetitleArticle { which }),
        (0..100usize).prop_map(|which| Edit::RenameArticle { which }),
        (0..100usize).prop_map(|which| Edit::DeleteArticle { which }),
        Just(Edit::ChangeSiteYaml),
        Just(Edit::ChangeServiceYaml),
        Just(Edit::AddSubService),
        Just(Edit::ChangeComponent),
    ]
}

/// A copy of the repository's site and content, edited step by step.
struct Project {
    _copy: common::Copy,
    content: PathBuf,
    site: PathBuf,
    counter: usize,
}

impl Project {
    /// The copy, with category pages of two articles: adding, renaming and deleting articles
    /// then adds and removes pages of them too.
    fn new() -> anyhow::Result<Self> {
        let copy = common::Copy::new()?;
        without_photos(&copy.content)?;
        replace(
            &copy.content.join("pages/insights.yaml"),
            "  per_page: ",
            &format!("  per_page: {PER_PAGE}"),
        )?;
        Ok(Self {
            content: copy.content.clone(),
            site: copy.site.clone(),
            _copy: copy,
            counter: 0,
        })
    }

    fn articles(&self) -> anyhow::Result<Vec<PathBuf>> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(self.content.join("articles"))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        found.sort();
        Ok(found)
    }

    fn apply(&mut self, edit: &Edit) -> anyhow::Result<()> {
        self.counter += 1;
        let n = self.counter;
        // Edits to words reach translations too; adding, renaming and deleting start from a
        // source article, and a translation follows its source as an author's would.
        let articles = self.articles()?;
        let pick = |i: usize| articles[i % articles.len()].clone();
        let sources: Vec<&PathBuf> = articles.iter().filter(|p| !is_translation(p)).collect();
        let pick_source = |i: usize| sources[i % sources.len()].clone();
        let translations_of = |source: &Path| -> Vec<PathBuf> {
            let stem = source
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            articles
                .iter()
                .filter(|p| {
                    is_translation(p)
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with(&format!("{stem}.")))
                })
                .cloned()
                .collect()
        };
        match *edit {
            Edit::AddArticle { from } => {
                let text = std::fs::read_to_string(pick_source(from))?;
                // A title line of its own: prefixing a quoted title made invalid YAML.
                let text: String = text
                    .split_inclusive('\n')
                    .map(|line| match line.starts_with("title: ") {
                        true => format!("title: Field notes {n}\n"),
                        false => line.to_owned(),
                    })
                    .collect();
                std::fs::write(
                    self.content.join(format!("articles/field-notes-{n}.md")),
                    text,
                )?;
            }
            Edit::ChangeArticle { which } => {
                let path = pick(which);
                let mut text = std::fs::read_to_string(&path)?;
                text.push_str(&format!("\nA paragraph added by edit {n}.\n"));
                std::fs::write(path, text)?;
            }
            Edit::RetitleArticle { which } => {
                let path = pick(which);
                let text: String = std::fs::read_to_string(&path)?
                    .split_inclusive('\n')
                    .map(|line| match line.starts_with("title: ") {
                        true => format!("title: Retitled {n}\n"),
                        false => line.to_owned(),
                    })
                    .collect();
                std::fs::write(path, text)?;
            }
            Edit::RenameArticle { which } => {
                let path = pick_source(which);
                let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("a");
                for translation in translations_of(&path) {
                    let name = translation
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or("");
                    let moved = name.replacen(stem, &format!("{stem}-moved-{n}"), 1);
                    std::fs::rename(&translation, translation.with_file_name(moved))?;
                }
                let to = path.with_file_name(format!("{stem}-moved-{n}.md"));
                std::fs::rename(path, to)?;
            }
            Edit::DeleteArticle { which } => {
                if sources.len() > 8 {
                    let path = pick_source(which);
                    for translation in translations_of(&path) {
                        std::fs::remove_file(translation)?;
                    }
                    std::fs::remove_file(path)?;
                }
            }
            Edit::ChangeSiteYaml => {
                replace(
                    &self.content.join("site.yaml"),
                    "  name: Nordvale",
                    &format!("  name: Nordvale {n}"),
                )?;
            }
            Edit::ChangeServiceYaml => {
                let file = self.content.join("services/cloud-services.yaml");
                replace(&file, "    name: DevOps", &format!("    name: DevOps {n}"))?;
            }
            Edit::AddSubService => {
                sitegen::new::sub_service(
                    &self.content,
                    &self.site.join("public"),
                    "data-analytics",
                    &format!("added-{n}"),
                )?;
            }
            Edit::ChangeComponent => {
                let file = self.site.join("components/layout/SkipLink.tsx");
                let text = std::fs::read_to_string(&file)?;
                let marker = "className=\"";
                anyhow::ensure!(text.contains(marker), "SkipLink.tsx has no className");
                std::fs::write(
                    &file,
                    text.replacen(marker, &format!("data-edit=\"{n}\" {marker}"), 1),
                )?;
            }
        }
        Ok(())
    }

    /// Options of a build into `out` with the cache `cache`, which starts with the site's bundle
    /// (Vite is not what these tests check).
    fn options(&self, out: &Path, cache: &Path) -> BuildOptions {
        if let Err(err) = common::seed_bundle(cache) {
            panic!(
                "seeding {} with the site's bundle: {err:#}",
                cache.display()
            );
        }
        let mut options =
            BuildOptions::new(self.content.clone(), self.site.clone(), out.to_owned());
        options.quiet = true;
        options.cache_dir = Some(cache.to_owned());
        options.contact_endpoint = Some("http://127.0.0.1:9".into());
        options
    }
}

/// Whether the article file `path` is a translation (`SLUG.et.md`).
fn is_translation(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(sitegen::content::translate::is_translation)
}

/// The articles of a category page in the copies.
const PER_PAGE: usize = 2;

fn differences(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut out = Vec::new();
    for (file, bytes) in a {
        match b.get(file) {
            None => out.push(format!("only in the incremental build: {file}")),
            Some(other) if other != bytes => out.push(format!("differs: {file}")),
            Some(_) => {}
        }
    }
    out.extend(
        b.keys()
            .filter(|f| !a.contains_key(*f))
            .map(|f| format!("only in the clean build: {f}")),
    );
    out
}

fn check_sequence(edits: &[Edit]) -> anyhow::Result<()> {
    let mut project = Project::new()?;
    let work = tempfile::tempdir()?;
    let cache = work.path().join("cache");
    let bundles = work.path().join("bundles");
    common::seed_bundle(work.path())?;
    let incremental = work.path().join("incremental");
    build(&project.options(&incremental, &cache))?;
    for (step, edit) in edits.iter().enumerate() {
        project.apply(edit)?;
        let built = build(&project.options(&incremental, &cache))?;
        // The clean build: an empty cache but for the bundles, which are a function of the
        // site's files alone (rebuilding them would only cost time).
        let clean_cache = work.path().join(format!("clean-{step}"));
        std::fs::create_dir_all(&clean_cache)?;
        std::fs::create_dir_all(&bundles)?;
        std::os::unix::fs::symlink(&bundles, clean_cache.join("bundles"))?;
        let clean = work.path().join(format!("clean-out-{step}"));
        let reference = build(&project.options(&clean, &clean_cache))?;
        assert_eq!(
            reference.rendered,
            pages_of(&reference.content),
            "the clean build renders every page"
        );
        let diff = differences(&tree(&incremental)?, &tree(&clean)?);
        anyhow::ensure!(
            diff.is_empty(),
            "after {:?} (step {step} of {edits:?}), the incremental build ({} pages rendered) \
             differs from a clean one:\n{}",
            edit,
            built.rendered,
            diff.join("\n")
        );
        std::fs::remove_dir_all(&clean)?;
    }
    Ok(())
}

/// Two random sequences per run, each a different draw on every run: a sequence of four edits
/// is nine real builds of the site, and the edits that matter most have tests of their own.
#[test]
fn incremental_builds_equal_clean_builds_after_random_edits() {
    let mut runner = TestRunner::new(Config {
        cases: 2,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&prop::collection::vec(edits(), 3..5), |edits| {
        check_sequence(&edits).map_err(|err| TestCaseError::fail(format!("{err:#}")))
    });
    if let Err(err) = result {
        panic!("{err}");
    }
}

/// A title shows on the article's cards, in the lists and beside its related articles: pages
/// whose hash reads the article only through them, which the random sequences may not retitle.
/// The same for a translation's title, and for a translated article renamed with its
/// translation (its Estonian page keeps its own slug, and its English path changes).
#[test]
fn a_retitled_or_renamed_article_is_built_as_a_clean_build_would() -> anyhow::Result<()> {
    let project = Project::new()?;
    let articles = project.articles()?;
    let at = |name: &str| {
        articles
            .iter()
            .position(|p| p.ends_with(name))
            .unwrap_or_else(|| panic!("no article {name}"))
    };
    let translated = "designing-event-driven-apis-that-scale";
    let sources = articles.iter().filter(|p| !is_translation(p)).count();
    let source_at = articles[..at(&format!("{translated}.md"))]
        .iter()
        .filter(|p| !is_translation(p))
        .count();
    assert!(source_at < sources);
    check_sequence(&[
        Edit::RetitleArticle { which: 0 },
        Edit::RetitleArticle {
            which: at(&format!("{translated}.et.md")),
        },
        Edit::RenameArticle { which: source_at },
    ])
}

#[test]
fn an_unchanged_rebuild_renders_nothing_and_one_edit_renders_little() -> anyhow::Result<()> {
    let mut project = Project::new()?;
    let work = tempfile::tempdir()?;
    let cache = work.path().join("cache");
    let out = work.path().join("out");
    let first = build(&project.options(&out, &cache))?;
    let pages = pages_of(&first.content);
    assert_eq!(first.rendered, pages);
    let again = build(&project.options(&out, &cache))?;
    assert_eq!((again.bundled, again.rendered, again.hashed), (false, 0, 0));
    assert_eq!(again.render_workers, 0, "the cache knows the whole site");
    // The worker started ahead, as soon as the bundle was known, was stopped unused.
    assert_eq!(common::workers_of(&project.site), Vec::<u32>::new());
    // The same files as the first build: its report, remembered, holds as it was.
    assert_eq!(
        (&again.report.pages, again.report.total_html),
        (&first.report.pages, first.report.total_html)
    );

    // The browser's files hold no content: the bundle is a function of the site alone.
    let content = &first.content;
    let phrases = [
        content.settings.brand.name.as_str(),
        content.settings.ui.skip_to_content.as_str(),
        content.articles.first().map_or("", |a| a.title.as_str()),
        content.pages.home.hero.title.as_str(),
    ];
    for (file, bytes) in common::tree(&out.join("assets"))? {
        let text = String::from_utf8_lossy(&bytes);
        for phrase in phrases {
            assert!(
                !text.contains(phrase),
                "assets/{file} holds the content phrase {phrase:?}"
            );
        }
    }

    project.apply(&Edit::ChangeArticle { which: 0 })?;
    let edited = build(&project.options(&out, &cache))?;
    assert!(!edited.bundled, "a content edit runs no Vite");
    // The article itself; other pages render it only as a card (title, excerpt), which a body
    // edit leaves alone, but the reading time it shows may change.
    assert!(
        (1..pages / 2).contains(&edited.rendered),
        "{} of {pages} pages rendered after one article's body changed",
        edited.rendered
    );
    // Nor are the others asked what they render: only the pages that read the body, which are
    // the pages it changes (a list that shows the article reads its entry, not its body).
    assert_eq!(
        edited.hashed, edited.rendered,
        "pages hashed (of {pages}) after one article's body changed, against pages rendered"
    );
    // A page changed: the output is verified and measured again, not taken from the first.
    let weighed = |built: &sitegen::build::Built| {
        built
            .report
            .pages
            .iter()
            .map(|page| (page.route.clone(), page.html))
            .collect::<Vec<_>>()
    };
    let changed: Vec<_> = weighed(&edited)
        .into_iter()
        .zip(weighed(&first))
        .filter(|(now, before)| now != before)
        .map(|(now, _)| now.0)
        .collect();
    assert!(
        changed.iter().any(|route| route.starts_with("/insights/")),
        "the edited article's size is measured again (changed: {changed:?})"
    );
    Ok(())
}

#[test]
fn a_category_s_articles_are_split_into_pages_linked_both_ways() -> anyhow::Result<()> {
    let project = Project::new()?;
    let work = tempfile::tempdir()?;
    let out = work.path().join("out");
    let built = build(&project.options(&out, &work.path().join("cache")))?;
    let content = &built.content;
    for category in &content.services {
        let articles: Vec<String> = content
            .articles
            .iter()
            .filter(|a| a.category == category.slug)
            .map(|a| format!("/insights/{}", a.slug))
            .collect();
        let pages = articles.len().div_ceil(PER_PAGE).max(1);
        let mut listed = Vec::new();
        for page in 1..=pages {
            let path = match page {
                1 => format!("/insights/category/{}", category.slug),
                _ => format!("/insights/category/{}/page/{page}", category.slug),
            };
            let html = std::fs::read_to_string(out.join(&path[1..]).join("index.html"))?;
            let on_page: Vec<String> = hrefs(&html)
                .into_iter()
                .filter(|href| articles.contains(href))
                .collect();
            // A card links its article from its title and its image.
            let mut unique = on_page.clone();
            unique.dedup();
            assert!(unique.len() <= PER_PAGE, "{path} lists {unique:?}");
            listed.extend(unique);
            let next = format!("/insights/category/{}/page/{}", category.slug, page + 1);
            assert_eq!(
                html.contains(&format!(r#"href="{next}" rel="next""#)),
                page < pages,
                "{path} links the next of {pages} pages"
            );
            assert_eq!(html.contains(r#"rel="prev""#), page > 1, "{path}");
            // content/pages/insights.yaml's `page_label`, filled in by sitegen.
            assert_eq!(
                html.contains(&format!("Page {page} of {pages}")),
                pages > 1,
                "{path} says where it is"
            );
        }
        assert_eq!(
            listed, articles,
            "every article of {} once, newest first",
            category.slug
        );
        let beyond = format!("insights/category/{}/page/{}", category.slug, pages + 1);
        assert!(!out.join(beyond).exists());
    }
    Ok(())
}

/// The `href`s of a page, in order.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

/// The pages a build of `content` renders: every route of every language and each language's
/// not-found page.
fn pages_of(content: &sitegen::content::Content) -> usize {
    content.all_routes().count() + 1 + content.translations.len()
}
