//! The build summary: what each page weighs on the wire. Per route, the HTML and the JS and
//! CSS it loads (its scripts, module preloads and stylesheets), raw and gzipped, so a page
//! that grows past its budget shows up in the build output rather than in production.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::LazyLock;
use std::time::Duration;

use anyhow::{Context, Result};
use flate2::Compression;
use flate2::write::GzEncoder;
use scraper::{Html, Selector};

use crate::check::{Resolved, find_file, list_files, page_url, resolve, route_file};

/// Size of one file or a sum of files.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Bytes as stored.
    pub bytes: u64,
    /// Bytes once gzipped at the default level, close to what a CDN sends.
    pub gzip: u64,
}

impl std::ops::AddAssign for Size {
    fn add_assign(&mut self, other: Size) {
        self.bytes += other.bytes;
        self.gzip += other.gzip;
    }
}

/// What one route weighs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageReport {
    /// The route (`/about`).
    pub route: String,
    /// Its HTML file.
    pub html: Size,
    /// The JavaScript it loads: `<script src>`, `modulepreload` and `preload as=script`,
    /// each file counted once.
    pub js: Size,
    /// The CSS it loads: stylesheets and `preload as=style`, each file counted once.
    pub css: Size,
}

/// The summary printed at the end of a build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildReport {
    /// One entry per route, in the order the routes were given.
    pub pages: Vec<PageReport>,
    /// All pages' HTML together.
    pub total_html: Size,
    /// Every JavaScript file some page loads, each counted once.
    pub total_js: Size,
    /// Every CSS file some page loads, each counted once.
    pub total_css: Size,
    /// How long the build took.
    pub elapsed: Duration,
}

/// Measures the pages of `routes` in the output directory `dir`.
///
/// Assets on other origins and references to missing files are left out: the link check
/// reports the latter.
pub fn summarize(dir: &Path, routes: &[String], elapsed: Duration) -> Result<BuildReport> {
    let files = list_files(dir)?;
    let mut sizes = SizeCache::new(dir);
    let mut pages = Vec::new();
    let (mut all_js, mut all_css) = (BTreeSet::new(), BTreeSet::new());
    let mut total_html = Size::default();

    for route in routes {
        let page = route_file(route);
        let path = dir.join(&page);
        let html =
            fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let (js_files, css_files) = loaded_assets(&html, &page, &files);
        let html = measure(html.as_bytes());
        total_html += html;
        pages.push(PageReport {
            route: route.clone(),
            html,
            js: sizes.sum(&js_files)?,
            css: sizes.sum(&css_files)?,
        });
        all_js.extend(js_files);
        all_css.extend(css_files);
    }
    Ok(BuildReport {
        pages,
        total_html,
        total_js: sizes.sum(&all_js)?,
        total_css: sizes.sum(&all_css)?,
        elapsed,
    })
}

// A constant selector, exercised by every test.
static ASSET_LINKS: LazyLock<Selector> =
    LazyLock::new(|| Selector::parse("script[src], link[href]").expect("valid selector"));

/// The emitted JS and CSS files a page loads, as paths relative to the output directory.
fn loaded_assets(
    html: &str,
    page: &str,
    files: &HashSet<String>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let doc = Html::parse_document(html);
    let base = page_url(page, None);
    let (mut js, mut css) = (BTreeSet::new(), BTreeSet::new());
    for element in doc.select(&ASSET_LINKS) {
        let el = element.value();
        let (url, kind) = if el.name() == "script" {
            (el.attr("src"), Some(&mut js))
        } else {
            let rel = el.attr("rel").unwrap_or_default().to_ascii_lowercase();
            let has = |token: &str| rel.split_ascii_whitespace().any(|t| t == token);
            let preload_as = el.attr("as").unwrap_or_default();
            let kind = if has("modulepreload") || has("preload") && preload_as == "script" {
                Some(&mut js)
            } else if has("stylesheet") || has("preload") && preload_as == "style" {
                Some(&mut css)
            } else {
                None
            };
            (el.attr("href"), kind)
        };
        let (Some(url), Some(set)) = (url, kind) else {
            continue;
        };
        if let Resolved::Local { path, .. } = resolve(&base, url) {
            set.extend(find_file(files, &path));
        }
    }
    (js, css)
}

fn measure(bytes: &[u8]) -> Size {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    // Writing into a Vec cannot fail.
    let gzip = encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_or(0, |out| out.len());
    Size {
        bytes: bytes.len() as u64,
        gzip: gzip as u64,
    }
}

/// Measures each asset once, however many pages load it.
struct SizeCache<'a> {
    dir: &'a Path,
    known: HashMap<String, Size>,
}

impl<'a> SizeCache<'a> {
    fn new(dir: &'a Path) -> Self {
        Self {
            dir,
            known: HashMap::new(),
        }
    }

    fn sum<'f>(&mut self, files: impl IntoIterator<Item = &'f String>) -> Result<Size> {
        let mut total = Size::default();
        for file in files {
            total += match self.known.get(file) {
                Some(size) => *size,
                None => {
                    let path = self.dir.join(file);
                    let bytes =
                        fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
                    let size = measure(&bytes);
                    self.known.insert(file.clone(), size);
                    size
                }
            };
        }
        Ok(total)
    }
}

/// An aligned table: one row per route, a total row, then the page count and build time.
impl fmt::Display for BuildReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header = ["route", "html", "gzip", "js", "gzip", "css", "gzip"].map(String::from);
        let row = |name: &str, html: Size, js: Size, css: Size| {
            [
                name.to_owned(),
                human(html.bytes),
                human(html.gzip),
                human(js.bytes),
                human(js.gzip),
                human(css.bytes),
                human(css.gzip),
            ]
        };
        let mut rows = vec![header];
        rows.extend(
            self.pages
                .iter()
                .map(|p| row(&p.route, p.html, p.js, p.css)),
        );
        rows.push(row("total", self.total_html, self.total_js, self.total_css));

        let mut widths = [0usize; 7];
        for r in &rows {
            for (width, cell) in widths.iter_mut().zip(r) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for r in &rows {
            let mut line = format!("{:<w$}", r[0], w = widths[0]);
            for (cell, width) in r.iter().zip(widths).skip(1) {
                line.push_str(&format!("  {cell:>width$}"));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(
            f,
            "{} page{} in {:.1}s (total js and css count each file once)",
            self.pages.len(),
            if self.pages.len() == 1 { "" } else { "s" },
            self.elapsed.as_secs_f64()
        )
    }
}

/// `512 B`, `12.3 kB`, `1.20 MB` (decimal units, as transfer sizes are usually quoted).
fn human(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        _ => format!("{:.2} MB", bytes as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_decimal_units() {
        assert_eq!(human(0), "0 B");
        assert_eq!(human(999), "999 B");
        assert_eq!(human(1_000), "1.0 kB");
        assert_eq!(human(12_345), "12.3 kB");
        assert_eq!(human(1_234_567), "1.23 MB");
    }

    #[test]
    fn gzip_shrinks_repetitive_text_and_is_deterministic() {
        let text = "<p>hello</p>".repeat(100);
        let size = measure(text.as_bytes());
        assert_eq!(size.bytes, 1200);
        assert!(size.gzip < 100, "{size:?}");
        assert_eq!(measure(text.as_bytes()), size);
    }
}
