//! Verification of an output directory: every route has its HTML file and every internal
//! link, script, stylesheet and image in every emitted page resolves to an emitted file
//! (and, for `#fragment` links, to an element with that id). Run after each build and by
//! `sitegen check`, so a broken link fails before it reaches the CDN.
//!
//! URLs resolve the way the CDN and `sitegen serve` answer them (see [`crate::output_dir`]).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

use anyhow::{Result, ensure};
use rayon::prelude::*;

use crate::content::Content;
use crate::output_dir::{Resolved, page_url, resolve, route_file};
use crate::scan::{Page, Scan};

/// What [`check_dir`] found. Empty lists mean the output is sound.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Number of `.html` files whose links were checked.
    pub pages_checked: usize,
    /// Routes with no HTML file, in the order the routes were given.
    pub missing_routes: Vec<MissingRoute>,
    /// Links that resolve to no emitted file or to a missing `#id`, ordered by page (file
    /// path) and then by position in the page, each listed once per page.
    pub broken_links: Vec<BrokenLink>,
    /// What is wrong with the pages' structured data ([`crate::structured_data`]), by page.
    pub structured_data: Vec<PageProblem>,
}

/// A problem of one page that is not a link of its markup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageProblem {
    /// The page, relative to the output directory (`about/index.html`).
    pub page: String,
    /// What is wrong, as a sentence.
    pub problem: String,
}

impl fmt::Display for PageProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.page, self.problem)
    }
}

/// A route of the model whose HTML file is not in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingRoute {
    /// The route, as given (`/about`).
    pub route: String,
    /// The file that should serve it, relative to the output directory (`about/index.html`).
    pub file: String,
}

/// An internal link that leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLink {
    /// The page holding the link, relative to the output directory (`about/index.html`).
    pub page: String,
    /// The URL exactly as written in the page (`/contact/#form`, `../img/logo.svg`).
    pub target: String,
}

impl CheckReport {
    /// True when no route is missing and no link is broken.
    pub fn is_ok(&self) -> bool {
        self.missing_routes.is_empty()
            && self.broken_links.is_empty()
            && self.structured_data.is_empty()
    }
}

/// One line per problem, missing routes first; nothing at all when the output is sound.
impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for missing in &self.missing_routes {
            writeln!(f, "{missing}")?;
        }
        for link in &self.broken_links {
            writeln!(f, "{link}")?;
        }
        for problem in &self.structured_data {
            writeln!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl fmt::Display for MissingRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: missing {}", self.route, self.file)
    }
}

impl fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -> {}", self.page, self.target)
    }
}

/// Checks the output directory `dir` against the model's `routes` (`/`, `/about`, ...), and
/// the pages' structured data against the site published at `site_url` (its `base_url`; the
/// structured data's URLs are not checked without it).
///
/// Links to other origins (`https://...`, `//cdn...`) and non-web schemes (`mailto:`, `tel:`,
/// `data:`, `javascript:`) are not followed. A bare `#` is reported: it is a placeholder,
/// not a link. Form `action`s are not checked, as they name endpoints rather than files.
pub fn check_dir(dir: &Path, routes: &[String], site_url: Option<&str>) -> Result<CheckReport> {
    ensure!(
        dir.is_dir(),
        "{} is not a directory; build the site first",
        dir.display()
    );
    Ok(check_scan(&Scan::dir(dir)?, routes, site_url))
}

/// [`check_dir`] on a directory already scanned, so a build parses each page only once.
pub fn check_scan(scan: &Scan, routes: &[String], site_url: Option<&str>) -> CheckReport {
    let mut report = CheckReport {
        pages_checked: scan.pages.len(),
        ..CheckReport::default()
    };
    for route in routes {
        let file = route_file(route);
        if !scan.files.contains(&file) {
            report.missing_routes.push(MissingRoute {
                route: route.clone(),
                file,
            });
        }
    }
    // Pages in parallel; `pages` is ordered by file name, and so is the result. Each thread
    // remembers what it found of the links every page repeats (the menu, the footer).
    let broken: Vec<Vec<BrokenLink>> = scan
        .pages
        .par_iter()
        .map_init(HashMap::new, |verdicts, (name, page)| {
            broken_links(scan, name, page, verdicts)
        })
        .collect();
    report.broken_links = broken.into_iter().flatten().collect();
    report.structured_data = structured_data_problems(scan, site_url);
    report
}

/// The problems of every page's structured data, by page. A URL of the graph on the site's
/// origin is published when it leads to a file of the output, as a link would.
fn structured_data_problems(scan: &Scan, site_url: Option<&str>) -> Vec<PageProblem> {
    let root = page_url("", None);
    let published = |path: &str| link_resolves(scan, &root, path);
    // Without the site's URL no string of the graph is taken for one of its pages.
    let site_url = site_url.unwrap_or("\0");
    scan.pages
        .iter()
        .flat_map(|(name, page)| {
            let found = page
                .json_ld
                .iter()
                .flat_map(|block| crate::structured_data::problems(block, site_url, published));
            let many = (page.json_ld.len() > 1).then(|| {
                format!(
                    "{} blocks of structured data: one graph holds all of a page's",
                    page.json_ld.len()
                )
            });
            found.chain(many).map(|problem| PageProblem {
                page: name.clone(),
                problem,
            })
        })
        .collect()
}

/// The broken links of the page `name`. `verdicts` holds whether each link starting with `/`
/// (`/about#team`, `//host/`) seen on a page of the site's own origin resolves: such a link
/// leads to the same place from every page of that origin.
fn broken_links<'s>(
    scan: &Scan,
    name: &str,
    page: &'s Page,
    verdicts: &mut HashMap<&'s str, bool>,
) -> Vec<BrokenLink> {
    let base = page_url(name, page.base_href.as_deref());
    let same_for_every_page = base.origin() == page_url("", None).origin();
    let mut seen = HashSet::new();
    let mut broken = Vec::new();
    for target in &page.links {
        if !seen.insert(target) {
            continue;
        }
        let trimmed = target.trim();
        let memo = same_for_every_page && trimmed.starts_with('/');
        let ok = match memo.then(|| verdicts.get(trimmed)).flatten() {
            Some(&ok) => ok,
            None => {
                let ok = link_resolves(scan, &base, target);
                if memo {
                    verdicts.insert(trimmed, ok);
                }
                ok
            }
        };
        if !ok {
            broken.push(BrokenLink {
                page: name.to_owned(),
                target: target.clone(),
            });
        }
    }
    broken
}

/// Whether `target`, as written in a page served at `base`, leads to a file of the output (and
/// its fragment to an id of that page).
fn link_resolves(scan: &Scan, base: &url::Url, target: &str) -> bool {
    match resolve(base, target) {
        Resolved::Elsewhere => true,
        Resolved::Invalid => false,
        Resolved::Local { path, fragment } => match scan.files.find(&path) {
            None => false,
            Some(file) => match (fragment, scan.pages.get(&file)) {
                (None, _) => true,
                (Some(id), _) if id.is_empty() => false,
                (Some(id), Some(target_page)) => target_page.ids.contains(&id),
                // A fragment into a non-HTML file (a PDF page, say) is not ours to check.
                (Some(_), None) => true,
            },
        },
    }
}

/// The routes `sitegen check` expects pages for and the URL the site is published at: those
/// of the content in `content_dir`, or none when there is no such directory (then only the
/// links and the structured data's references are checked).
pub fn content_routes(
    content_dir: &Path,
    site_dir: &Path,
) -> Result<(Vec<String>, Option<String>)> {
    if !content_dir.is_dir() {
        return Ok((Vec::new(), None));
    }
    let content = Content::load(content_dir, &site_dir.join("public"))?;
    let routes = content.all_routes().map(|r| r.path.clone()).collect();
    Ok((routes, Some(content.settings.base_url)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    use crate::output_dir::Files;

    #[test]
    fn a_link_every_page_repeats_is_reported_on_every_page_it_breaks() {
        let page = |links: &[&str], ids: &[&str]| Page {
            links: links.iter().map(|l| (*l).to_owned()).collect(),
            ids: ids.iter().map(|i| (*i).to_owned()).collect(),
            ..Page::default()
        };
        // Enough pages that the threads' remembered verdicts are reused.
        let mut pages: BTreeMap<String, Page> = (0..64)
            .map(|n| {
                let links = [
                    "/about/",
                    "/missing",
                    "/about/#team",
                    "/about/#nope",
                    "//cdn/x",
                ];
                (format!("p{n}/index.html"), page(&links, &[]))
            })
            .collect();
        pages.insert("about/index.html".into(), page(&[], &["team"]));
        let files = Files::from_names(pages.keys().cloned());
        let report = check_scan(&Scan { files, pages }, &[], None);
        let broken: Vec<String> = report.broken_links.iter().map(|l| l.to_string()).collect();
        let expected: Vec<String> = (0..64)
            .map(|n| format!("p{n}/index.html"))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .flat_map(|page| {
                [
                    format!("{page} -> /missing"),
                    format!("{page} -> /about/#nope"),
                ]
            })
            .collect();
        assert_eq!(broken, expected);
    }
}
