//! The build summary: what each page weighs on the wire. Per route, the HTML and the JS and
//! CSS it loads as it opens (its scripts, module preloads and stylesheets), raw and gzipped,
//! against the JavaScript budget; separately, what loads only on demand (chunks imported
//! dynamically, such as the form island). Large sites are summarised: the heaviest routes
//! and the totals, the full table going to the JSON report.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::compress::{self, GzipSizes};
use crate::output_dir::{Files, Resolved, page_url, resolve, route_file};
use crate::scan::Scan;

/// The most JavaScript, gzipped, a route may load before a visitor touches a form.
pub const JS_BUDGET_GZIP: u64 = 10_000;

/// Sites with more routes than this print the heaviest ones and the totals, not every row.
pub const FULL_TABLE_MAX_ROUTES: usize = 60;

/// How many of the heaviest routes a summarised table shows.
const HEAVIEST_SHOWN: usize = 10;

/// Size of one file or a sum of files.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageReport {
    /// The route (`/about`).
    pub route: String,
    /// Its HTML file.
    pub html: Size,
    /// The JavaScript it loads as it opens: `<script src>`, `modulepreload` and
    /// `preload as=script`, with what they import statically, each file counted once.
    pub js: Size,
    /// The CSS it loads: stylesheets and `preload as=style`, each file counted once.
    pub css: Size,
    /// JavaScript its scripts import only on demand (dynamic `import()`), such as the form
    /// island, and not already loaded as the page opens.
    pub on_demand_js: Size,
    /// CSS loaded only with those on-demand chunks.
    pub on_demand_css: Size,
}

impl PageReport {
    /// Whether the route loads more JavaScript up front than [`JS_BUDGET_GZIP`].
    pub fn over_budget(&self) -> bool {
        self.js.gzip > JS_BUDGET_GZIP
    }

    fn weight(&self) -> u64 {
        self.html.gzip + self.js.gzip + self.css.gzip
    }
}

/// How long one step of the build took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StageTime {
    /// The step (`prerender`).
    pub stage: &'static str,
    /// Wall time.
    #[serde(serialize_with = "as_millis")]
    pub elapsed: Duration,
}

fn as_millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64() * 1e3)
}

/// The summary printed at the end of a build. Read back (as a build of the same output
/// remembers it), it has the sizes only: no times, no images.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildReport {
    /// One entry per route, in the order the routes were given.
    pub pages: Vec<PageReport>,
    /// All pages' HTML together.
    pub total_html: Size,
    /// Every JavaScript file some page loads as it opens, each counted once.
    pub total_js: Size,
    /// Every CSS file some page loads, each counted once.
    pub total_css: Size,
    /// Every JavaScript file some page loads only on demand, each counted once.
    pub total_on_demand_js: Size,
    /// Every CSS file loaded only with on-demand chunks, each counted once.
    pub total_on_demand_css: Size,
    /// How long the build took.
    #[serde(serialize_with = "as_millis", skip_deserializing)]
    pub elapsed: Duration,
    /// How long each step took, in order; empty when not measured.
    #[serde(skip_deserializing)]
    pub stages: Vec<StageTime>,
    /// What the images stage encoded and saved; none when the content names no raster picture.
    #[serde(skip_deserializing)]
    pub images: Option<crate::images::ImagesReport>,
    /// When the next draft-free piece falls due or expires after the build's time (RFC 3339,
    /// UTC): when a build would next publish something else, for CI to schedule; `null` when
    /// nothing is scheduled.
    #[serde(skip_deserializing)]
    pub next_change_at: Option<String>,
}

/// Measures the pages of `routes` in the output directory `dir`.
///
/// Assets on other origins and references to missing files are left out: the link check
/// reports the latter.
pub fn summarize(dir: &Path, routes: &[String], elapsed: Duration) -> Result<BuildReport> {
    summarize_scan(dir, &Scan::dir(dir)?, &GzipSizes::new(), routes, elapsed)
}

/// [`summarize`] from a scan of `dir`, taking the gzipped sizes already known from the
/// compression step and measuring the rest.
pub fn summarize_scan(
    dir: &Path,
    scan: &Scan,
    known: &GzipSizes,
    routes: &[String],
    elapsed: Duration,
) -> Result<BuildReport> {
    let assets = Assets {
        dir,
        files: &scan.files,
        known,
        sizes: Mutex::default(),
        imports: Mutex::default(),
        loads: Mutex::default(),
    };
    let pages = routes
        .par_iter()
        .map(|route| {
            let file = route_file(route);
            let page = scan.pages.get(&file).map(Ok).unwrap_or_else(|| {
                Err(std::io::Error::from(std::io::ErrorKind::NotFound))
                    .with_context(|| format!("reading {}", dir.join(&file).display()))
            })?;
            let base = page_url(&file, None);
            let local = |urls: &[String]| -> BTreeSet<String> {
                urls.iter()
                    .filter_map(|url| match resolve(&base, url) {
                        Resolved::Local { path, .. } => scan.files.find(&path),
                        _ => None,
                    })
                    .collect()
            };
            let loads = assets.loads(local(&page.scripts), local(&page.styles))?;
            let html = assets.size(&file)?;
            Ok((
                PageReport {
                    route: route.clone(),
                    html,
                    js: loads.sizes[0],
                    css: loads.sizes[1],
                    on_demand_js: loads.sizes[2],
                    on_demand_css: loads.sizes[3],
                },
                loads,
            ))
        })
        .collect::<Result<Vec<_>>>()?;

    let mut all: [BTreeSet<String>; 4] = Default::default();
    let mut total_html = Size::default();
    let mut reports = Vec::with_capacity(pages.len());
    let mut seen = HashSet::new();
    for (report, loads) in pages {
        total_html += report.html;
        if seen.insert(Arc::as_ptr(&loads)) {
            for (all, set) in all.iter_mut().zip(&loads.files) {
                all.extend(set.iter().cloned());
            }
        }
        reports.push(report);
    }
    // A file some page loads up front is not on demand for the site as a whole.
    let [js, css, mut on_demand_js, mut on_demand_css] = all;
    on_demand_js.retain(|f| !js.contains(f));
    on_demand_css.retain(|f| !css.contains(f));
    Ok(BuildReport {
        pages: reports,
        total_html,
        total_js: assets.sum(&js)?,
        total_css: assets.sum(&css)?,
        total_on_demand_js: assets.sum(&on_demand_js)?,
        total_on_demand_css: assets.sum(&on_demand_css)?,
        elapsed,
        stages: Vec::new(),
        images: None,
        next_change_at: None,
    })
}

/// Sizes and import lists of the emitted files, each read once however many pages use it.
struct Assets<'a> {
    dir: &'a Path,
    files: &'a Files,
    known: &'a GzipSizes,
    sizes: Mutex<HashMap<String, Size>>,
    imports: Mutex<HashMap<String, Imports>>,
    /// What pages load, by the scripts and styles they name: most pages of a site name the
    /// same few.
    loads: Mutex<HashMap<[BTreeSet<String>; 2], Arc<Loads>>>,
}

/// What a page that names some scripts and styles loads: the scripts up front, the styles,
/// and the scripts and styles on demand, with the size of each set.
#[derive(Debug)]
struct Loads {
    files: [BTreeSet<String>; 4],
    sizes: [Size; 4],
}

/// The emitted files a script refers to.
#[derive(Debug, Default, Clone)]
struct Imports {
    /// `import ... from "./x.js"` and `import "./x.js"`: loaded with the script.
    static_: Vec<String>,
    /// Any other mention (`import("./x.js")`, Vite's preload lists): loaded on demand.
    dynamic: Vec<String>,
}

impl Assets<'_> {
    fn size(&self, file: &str) -> Result<Size> {
        if let Some(size) = self.sizes.lock().ok().and_then(|s| s.get(file).copied()) {
            return Ok(size);
        }
        let path = self.dir.join(file);
        let size = match self.known.get(file) {
            Some(&gzip) => Size {
                bytes: std::fs::metadata(&path)
                    .with_context(|| format!("reading {}", path.display()))?
                    .len(),
                gzip,
            },
            None => {
                let bytes =
                    std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
                measure(&bytes)
            }
        };
        if let Ok(mut sizes) = self.sizes.lock() {
            sizes.insert(file.to_owned(), size);
        }
        Ok(size)
    }

    fn sum<'f>(&self, files: impl IntoIterator<Item = &'f String>) -> Result<Size> {
        let mut total = Size::default();
        for file in files {
            total += self.size(file)?;
        }
        Ok(total)
    }

    fn imports(&self, file: &str) -> Result<Imports> {
        if let Some(imports) = self.imports.lock().ok().and_then(|i| i.get(file).cloned()) {
            return Ok(imports);
        }
        let path = self.dir.join(file);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let imports = script_imports(&text, file, self.files);
        if let Ok(mut all) = self.imports.lock() {
            all.insert(file.to_owned(), imports.clone());
        }
        Ok(imports)
    }

    /// What a page naming `scripts` and `styles` loads.
    fn loads(&self, scripts: BTreeSet<String>, styles: BTreeSet<String>) -> Result<Arc<Loads>> {
        let named = [scripts, styles];
        if let Some(loads) = self.loads.lock().ok().and_then(|l| l.get(&named).cloned()) {
            return Ok(loads);
        }
        let (js, on_demand) = self.closure(named[0].clone())?;
        let css = named[1].clone();
        let (on_demand_js, on_demand_css): (BTreeSet<_>, BTreeSet<_>) = on_demand
            .into_iter()
            .filter(|f| !css.contains(f))
            .partition(|f| !f.ends_with(".css"));
        let files = [js, css, on_demand_js, on_demand_css];
        let sizes = [
            self.sum(&files[0])?,
            self.sum(&files[1])?,
            self.sum(&files[2])?,
            self.sum(&files[3])?,
        ];
        let loads = Arc::new(Loads { files, sizes });
        if let Ok(mut all) = self.loads.lock() {
            all.insert(named, Arc::clone(&loads));
        }
        Ok(loads)
    }

    /// The scripts `initial` loads as the page opens (themselves and their static imports),
    /// and the files loaded only on demand from there (dynamic imports and everything they
    /// need), not counting the former.
    fn closure(&self, initial: BTreeSet<String>) -> Result<(BTreeSet<String>, BTreeSet<String>)> {
        let mut loaded = BTreeSet::new();
        let mut dynamic = Vec::new();
        let mut todo: Vec<String> = initial.into_iter().collect();
        while let Some(file) = todo.pop() {
            if !file.ends_with(".js") || !loaded.insert(file.clone()) {
                continue;
            }
            let imports = self.imports(&file)?;
            todo.extend(imports.static_);
            dynamic.extend(imports.dynamic);
        }
        let mut on_demand = BTreeSet::new();
        while let Some(file) = dynamic.pop() {
            if loaded.contains(&file) || !on_demand.insert(file.clone()) {
                continue;
            }
            if file.ends_with(".js") {
                let imports = self.imports(&file)?;
                dynamic.extend(imports.static_);
                dynamic.extend(imports.dynamic);
            }
        }
        Ok((loaded, on_demand))
    }
}

/// The emitted `.js` and `.css` files named by string literals in the script `file`: each
/// literal ending in `.js` or `.css` that resolves, relative to the script or to the site
/// root, to an emitted file.
fn script_imports(text: &str, file: &str, files: &Files) -> Imports {
    let base = page_url(file, None);
    let mut imports = Imports::default();
    for ext in [".js", ".css"] {
        let mut from = 0;
        while let Some(found) = text[from..].find(ext) {
            let end = from + found + ext.len();
            from = end;
            let Some(quote) = text[end..].chars().next() else {
                break;
            };
            if !matches!(quote, '"' | '\'' | '`') {
                continue;
            }
            let Some(start) = text[..end].rfind(quote) else {
                continue;
            };
            let literal = &text[start + 1..end];
            if literal.is_empty() || literal.contains(char::is_whitespace) {
                continue;
            }
            // Vite's preload lists name files from the site root without a leading slash.
            let target = [literal.to_owned(), format!("/{literal}")]
                .into_iter()
                .filter_map(|url| match resolve(&base, &url) {
                    Resolved::Local { path, .. } => files.find(&path),
                    _ => None,
                })
                .next();
            let Some(target) = target else { continue };
            if target == file {
                continue;
            }
            let before = text[..start].trim_end();
            let is_static =
                ext == ".js" && (before.ends_with("from") || before.ends_with("import"));
            if is_static {
                imports.static_.push(target);
            } else {
                imports.dynamic.push(target);
            }
        }
    }
    imports
}

fn measure(bytes: &[u8]) -> Size {
    Size {
        bytes: bytes.len() as u64,
        gzip: compress::gzip_bytes(bytes).len() as u64,
    }
}

impl BuildReport {
    /// The routes over the JavaScript budget, in route order.
    pub fn over_budget(&self) -> impl Iterator<Item = &PageReport> {
        self.pages.iter().filter(|p| p.over_budget())
    }

    /// The full report (every route, the totals, the stage times) as JSON.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string_pretty(self).context("serialising the build report")
    }

    /// Writes [`Self::to_json`] to `path`.
    pub fn write_json(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_json()?).with_context(|| format!("writing {}", path.display()))
    }
}

/// An aligned table: one row per route (or, for large sites, the heaviest routes), a total
/// row, the page count and build time, the budget, what loads on demand and the stage times.
impl fmt::Display for BuildReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut header =
            ["route", "html", "gzip", "js", "gzip", "css", "gzip", ""].map(String::from);
        let row = |name: &str, html: Size, js: Size, css: Size, mark: &str| {
            [
                name.to_owned(),
                human(html.bytes),
                human(html.gzip),
                human(js.bytes),
                human(js.gzip),
                human(css.bytes),
                human(css.gzip),
                mark.to_owned(),
            ]
        };
        let page_row = |p: &PageReport| {
            let mark = if p.over_budget() { "over budget" } else { "" };
            row(&p.route, p.html, p.js, p.css, mark)
        };
        let summarised = self.pages.len() > FULL_TABLE_MAX_ROUTES;
        if summarised {
            header[0] = format!("heaviest {HEAVIEST_SHOWN} routes");
        }
        let mut rows = vec![header];
        if summarised {
            let mut heaviest: Vec<&PageReport> = self.pages.iter().collect();
            heaviest.sort_by(|a, b| b.weight().cmp(&a.weight()).then(a.route.cmp(&b.route)));
            rows.extend(heaviest.into_iter().take(HEAVIEST_SHOWN).map(page_row));
        } else {
            rows.extend(self.pages.iter().map(page_row));
        }
        rows.push(row(
            "total",
            self.total_html,
            self.total_js,
            self.total_css,
            "",
        ));

        let mut widths = [0usize; 8];
        for r in &rows {
            for (width, cell) in widths.iter_mut().zip(r) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for r in &rows {
            let mut line = format!("{:<w$}", r[0], w = widths[0]);
            for (cell, width) in r.iter().zip(widths).skip(1).take(6) {
                line.push_str(&format!("  {cell:>width$}"));
            }
            if !r[7].is_empty() {
                line.push_str(&format!("  {}", r[7]));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(
            f,
            "{} page{} in {:.1}s (total js and css count each file once)",
            self.pages.len(),
            if self.pages.len() == 1 { "" } else { "s" },
            self.elapsed.as_secs_f64()
        )?;
        if summarised {
            writeln!(
                f,
                "{} more routes not shown: the JSON report (--report-json) lists every route",
                self.pages.len() - HEAVIEST_SHOWN.min(self.pages.len())
            )?;
        }
        let over: Vec<&str> = self.over_budget().map(|p| p.route.as_str()).collect();
        let budget = human(JS_BUDGET_GZIP);
        match over.len() {
            0 => writeln!(
                f,
                "js budget: every route loads at most {budget} gzipped before a form is touched"
            )?,
            n => {
                let shown = over
                    .iter()
                    .take(HEAVIEST_SHOWN)
                    .copied()
                    .collect::<Vec<_>>();
                let more = if n > shown.len() { ", ..." } else { "" };
                writeln!(
                    f,
                    "js budget: {n} route{} over {budget} gzipped before a form is touched: {}{more}",
                    if n == 1 { "" } else { "s" },
                    shown.join(", ")
                )?;
            }
        }
        let routes_on_demand = self
            .pages
            .iter()
            .filter(|p| p.on_demand_js.bytes > 0)
            .count();
        if routes_on_demand > 0 {
            writeln!(
                f,
                "on demand (dynamic imports such as the form island, loaded by {routes_on_demand} route{}): js {} ({} gzip), css {} ({} gzip)",
                if routes_on_demand == 1 { "" } else { "s" },
                human(self.total_on_demand_js.bytes),
                human(self.total_on_demand_js.gzip),
                human(self.total_on_demand_css.bytes),
                human(self.total_on_demand_css.gzip),
            )?;
        }
        if let Some(images) = &self.images {
            writeln!(
                f,
                "pictures: {} encoded in {:.1}s, {} from the cache; {} files; {} of sources, {} as the largest AVIFs (saved {})",
                images.encoded,
                images.encode_ms as f64 / 1e3,
                images.reused,
                images.files,
                human(images.source_bytes),
                human(images.largest_avif_bytes),
                human(images.bytes_saved()),
            )?;
        }
        if !self.stages.is_empty() {
            let stages: Vec<String> = self
                .stages
                .iter()
                .map(|s| format!("{} {:.0} ms", s.stage, s.elapsed.as_secs_f64() * 1e3))
                .collect();
            writeln!(f, "stages: {}", stages.join(", "))?;
        }
        Ok(())
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
