//! `sitegen build`: load and validate the content, prerender the site with Vike, add the
//! site-wide files, verify every page and link, precompress, publish atomically, and report
//! what each page weighs.
//!
//! Nothing touches the output directory until the new site is complete and verified, so a
//! failed build leaves the previous output byte for byte as it was.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::check;
use crate::compress;
use crate::content::{Content, ContentErrors};
use crate::outputs::{self, SitemapEntry};
use crate::prerender;
use crate::publish;
use crate::report::{self, BuildReport, StageTime};
use crate::scan::Scan;

/// Where a build reads from and writes to.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The YAML content directory (`content/`).
    pub content_dir: PathBuf,
    /// The Vike project (`site/`).
    pub site_dir: PathBuf,
    /// The output directory, replaced as a whole on success.
    pub out_dir: PathBuf,
    /// Overrides `contact_endpoint` from `content/site.yaml`.
    pub contact_endpoint: Option<String>,
    /// Hide the progress and the prerender's output unless it fails.
    pub quiet: bool,
}

/// The steps of a build, in order; each is timed and names the failures it causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Load and validate the content.
    Load,
    /// Build the search index of the articles (written with the site-wide files).
    Search,
    /// Write the content JSON and run `vite build`; move its output into staging.
    Prerender,
    /// Write `sitemap.xml`, `robots.txt`, `_headers`, the feed and the search index.
    SiteFiles,
    /// Parse every page once; check routes, links and fragments.
    Verify,
    /// Write the `.br` and `.gz` variants.
    Compress,
    /// Swap the staging directory in.
    Publish,
    /// Measure every route.
    Report,
}

impl Stage {
    /// A short name for timings (`prerender`).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Load => "load",
            Stage::Search => "search index",
            Stage::Prerender => "prerender",
            Stage::SiteFiles => "site files",
            Stage::Verify => "verify",
            Stage::Compress => "compress",
            Stage::Publish => "publish",
            Stage::Report => "report",
        }
    }

    fn doing(self) -> &'static str {
        match self {
            Stage::Load => "loading and validating content",
            Stage::Search => "building the search index",
            Stage::Prerender => "prerendering every page with Vike (vite build)",
            Stage::SiteFiles => {
                "writing sitemap.xml, robots.txt, _headers, the feed and the search index"
            }
            Stage::Verify => "verifying every page and internal link",
            Stage::Compress => "writing the .br and .gz variants",
            Stage::Publish => "publishing",
            Stage::Report => "measuring every route",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.doing())
    }
}

/// Why a build failed, for callers that act on the kind.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The content has mistakes; each names its file, line and field.
    #[error("{0}")]
    Content(#[from] ContentErrors),
    /// Node.js or the site's packages are missing.
    #[error("{0}")]
    Toolchain(String),
    /// `vite build` exited unsuccessfully; its output says why.
    #[error("the prerender (vite build in {site}) failed with {status}")]
    Render {
        /// The Vike project that failed to build.
        site: String,
        /// How it exited.
        status: std::process::ExitStatus,
    },
    /// The rendered site is missing pages or has links that lead nowhere.
    #[error("the rendered site failed verification:\n{0}")]
    Verify(String),
    /// Reading or writing files failed during a step; the source says which file.
    #[error("{stage} failed")]
    Files {
        /// The step that failed.
        stage: Stage,
        /// What went wrong, with the file it concerns.
        #[source]
        source: anyhow::Error,
    },
}

impl BuildError {
    /// Wraps a file error of `stage`.
    pub fn during(stage: Stage) -> impl Fn(anyhow::Error) -> BuildError {
        move |source| BuildError::Files { stage, source }
    }
}

/// What a successful build produced.
#[derive(Debug)]
pub struct Built {
    /// The validated content the site was rendered from.
    pub content: Content,
    /// Sizes per route (HTML and the JS/CSS it loads), totals and the time of each step.
    pub report: BuildReport,
}

/// Runs the whole pipeline. See the module documentation.
pub fn build(options: &BuildOptions) -> Result<Built, BuildError> {
    let mut steps = Steps::new(options.quiet);
    let mut content = steps.run(Stage::Load, || load(options))?;
    let search = steps.run(Stage::Search, || {
        crate::search::attach(&mut content).map_err(BuildError::during(Stage::Search))
    })?;
    let routes: Vec<String> = content.routes.iter().map(|r| r.path.clone()).collect();
    let staging = steps.run(Stage::Prerender, || {
        prerender_into_staging(options, &content)
    })?;
    steps.run(Stage::SiteFiles, || {
        write_site_files(
            staging.path(),
            &options.site_dir.join("public"),
            &content,
            &search,
        )
    })?;
    let scan = steps.run(Stage::Verify, || verify(staging.path(), &routes))?;
    let gzip = steps.run(Stage::Compress, || {
        compress::compress_dir(staging.path(), Some(&options.out_dir))
            .map_err(BuildError::during(Stage::Compress))
    })?;
    let previous = steps.run(Stage::Publish, || {
        publish::publish_keeping_old(staging, &options.out_dir)
            .map_err(BuildError::during(Stage::Publish))
    })?;
    // The new output is in place; the old one is deleted on a thread of its own (not rayon's
    // pool, which the report uses) while the report is measured.
    let removal = std::thread::spawn(move || previous.remove());
    let elapsed = steps.started.elapsed();
    let report = steps.run(Stage::Report, || {
        report::summarize_scan(&options.out_dir, &scan, &gzip, &routes, elapsed)
            .map_err(BuildError::during(Stage::Report))
    });
    let removed = removal
        .join()
        .unwrap_or_else(|_| Err(anyhow::anyhow!("removing the previous output panicked")));
    let mut report = report?;
    removed.map_err(BuildError::during(Stage::Publish))?;
    report.stages = steps.times;
    Ok(Built { content, report })
}

/// Loads and validates the content in `content_dir` for the site in `site_dir`, whose
/// `public/` folder holds the pictures the content names.
pub fn load_content(content_dir: &Path, site_dir: &Path) -> Result<Content, ContentErrors> {
    Content::load(content_dir, &site_dir.join("public"))
}

fn load(options: &BuildOptions) -> Result<Content, BuildError> {
    let mut content = load_content(&options.content_dir, &options.site_dir)?;
    if let Some(endpoint) = &options.contact_endpoint {
        content.settings.contact_endpoint = endpoint.clone();
    }
    Ok(content)
}

fn prerender_into_staging(
    options: &BuildOptions,
    content: &Content,
) -> Result<tempfile::TempDir, BuildError> {
    let staging =
        publish::staging_dir(&options.out_dir).map_err(BuildError::during(Stage::Prerender))?;
    let rendered = prerender::render(&options.site_dir, content, options.quiet)?;
    publish::move_into(&rendered.client_dir(), staging.path())
        .map_err(BuildError::during(Stage::Prerender))?;
    Ok(staging)
}

fn write_site_files(
    dir: &Path,
    public: &Path,
    content: &Content,
    search: &crate::search::Files,
) -> Result<(), BuildError> {
    let entries: Vec<SitemapEntry> = content
        .routes
        .iter()
        .map(|r| SitemapEntry {
            path: r.path.clone(),
            in_sitemap: r.in_sitemap,
        })
        .collect();
    outputs::write_site_files(
        dir,
        public,
        &content.settings.base_url,
        &content.settings.contact_endpoint,
        &entries,
        &content.settings.cache,
    )
    .and_then(|()| crate::feed::write(dir, content))
    .and_then(|()| search.write(dir))
    .map_err(BuildError::during(Stage::SiteFiles))
}

fn verify(dir: &Path, routes: &[String]) -> Result<Scan, BuildError> {
    let scan = Scan::dir(dir).map_err(BuildError::during(Stage::Verify))?;
    let check = check::check_scan(&scan, routes);
    if check.is_ok() {
        Ok(scan)
    } else {
        Err(BuildError::Verify(check.to_string()))
    }
}

/// Runs the steps in order, timing each and printing progress unless quiet.
struct Steps {
    started: Instant,
    quiet: bool,
    times: Vec<StageTime>,
}

impl Steps {
    fn new(quiet: bool) -> Self {
        Self {
            started: Instant::now(),
            quiet,
            times: Vec::new(),
        }
    }

    fn run<T>(
        &mut self,
        stage: Stage,
        step: impl FnOnce() -> Result<T, BuildError>,
    ) -> Result<T, BuildError> {
        if !self.quiet {
            eprintln!("[{:>5.1}s] {stage}", self.started.elapsed().as_secs_f64());
        }
        let start = Instant::now();
        let result = step();
        self.times.push(StageTime {
            stage: stage.name(),
            elapsed: start.elapsed(),
        });
        result
    }
}
