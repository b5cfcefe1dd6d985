//! `sitegen build`: the pipeline, as a list of stages, each a module of its own that knows
//! nothing of this one:
//!
//! | stage | module | does |
//! |---|---|---|
//! | load | [`content`] | read and validate `content/` into the model |
//! | bundle | [`bundle`] | `vite build` of `site/`, only when the site's own files changed |
//! | images | [`images`] | encode the raster pictures the content names, unless cached |
//! | cards | [`cards`] | draw every page's social card (`og:image`), unless cached |
//! | search index | [`search`] | the articles' static search index |
//! | render | [`render`] | every page through the render workers, only those whose data changed |
//! | site files | [`outputs`], [`feed`], [`redirects`] | sitemap, robots, `_headers`, the feed, the index, the redirects |
//! | verify | [`scan`], [`check`] | every route has its page, every link resolves |
//! | publish | [`publish`] | swap in the new output: copies of what changed, the rest kept |
//! | report | [`report`] | what each page weighs |
//!
//! Files are made once and kept in the build cache ([`cache`]) by the hash of their bytes,
//! with their `.br` and `.gz` variants compressed when they are stored ([`compress`]): a file
//! that did not change is neither rendered nor compressed again. The new output is a plan of
//! those files, verified as a whole before it is made beside the output and swapped in, so a
//! failed build leaves the previous output byte for byte as it was. A build writes nothing into `site/` or
//! `content/`.

use std::collections::HashMap;
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use rayon::prelude::*;

use crate::bundle::{self, Bundle, BundleError};
use crate::cache::{self, Cache, HashingWriter, Stored};
use crate::cards::{self, Cards};
use crate::check;
use crate::compress::{self, Encoding};
use crate::content::articles::TocEntry;
use crate::content::{ArticleBodies, Content, ContentErrors};
use crate::feed;
use crate::images::{self, Images};
use crate::output_dir::{Files, NOT_FOUND_FILE, route_file};
use crate::outputs::{self, SitemapEntry};
use crate::publish::{self, PlannedFile};
use crate::redirects;
use crate::render::{self, PageJob, RenderError, RenderOptions, Rendered};
use crate::report::{self, BuildReport, StageTime};
use crate::scan::Scan;
use crate::search;

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
    /// Hide the progress and Vite's output unless it fails.
    pub quiet: bool,
    /// The build cache folder; `None` for the default (see [`cache::Cache::open`]).
    pub cache_dir: Option<PathBuf>,
    /// Ignore the cache: build everything in a fresh one, removed afterwards.
    pub no_cache: bool,
    /// How many render workers at most.
    pub jobs: usize,
    /// How long one page may take to render.
    pub page_timeout: Duration,
    /// Leave deleting the previous output to a process that goes on after the build returns
    /// ([`publish::PreviousOutput::remove_in_background`]), rather than waiting for it: for a
    /// command that ends with the build.
    pub remove_previous_in_background: bool,
    /// What the build shows besides the published pages (drafts, what is not yet due), and
    /// at what time; the default is a production build at [`crate::content::publishing::NOW_ENV`]
    /// or now.
    pub publishing: crate::content::Publishing,
}

impl BuildOptions {
    /// A build of `content_dir` with `site_dir` into `out_dir`, with the defaults for the rest.
    pub fn new(content_dir: PathBuf, site_dir: PathBuf, out_dir: PathBuf) -> Self {
        Self {
            content_dir,
            site_dir,
            out_dir,
            contact_endpoint: None,
            quiet: false,
            cache_dir: None,
            no_cache: false,
            jobs: RenderOptions::default_jobs(),
            page_timeout: Duration::from_secs(60),
            remove_previous_in_background: false,
            publishing: crate::content::Publishing::default(),
        }
    }
}

/// The steps of a build, in order; each is timed and names the failures it causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Load and validate the content.
    Load,
    /// Build the site's bundle, or take it from the cache. Node.js and the site's packages are
    /// looked for before the pictures, so that a site without them fails at once; `vite build`
    /// itself runs beside the images and the cards, and its time is this stage's.
    Bundle,
    /// Encode the raster pictures, or take them from the cache.
    Images,
    /// Draw the social cards, or take them from the cache.
    Cards,
    /// Build the search index of the articles (written with the site-wide files).
    Search,
    /// Render the pages whose data changed; take the rest from the cache.
    Render,
    /// Write `sitemap.xml`, `robots.txt`, `_headers`, the feed and the search index.
    SiteFiles,
    /// Check routes, links and fragments.
    Verify,
    /// Swap in the new output, copying what changed and keeping what did not.
    Publish,
    /// Measure every route.
    Report,
}

impl Stage {
    /// A short name for timings (`render`).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Load => "load",
            Stage::Images => "images",
            Stage::Cards => "cards",
            Stage::Search => "search index",
            Stage::Bundle => "bundle",
            Stage::Render => "render",
            Stage::SiteFiles => "site files",
            Stage::Verify => "verify",
            Stage::Publish => "publish",
            Stage::Report => "report",
        }
    }

    fn doing(self) -> &'static str {
        match self {
            Stage::Load => "loading and validating content",
            Stage::Images => "encoding the pictures (unless cached)",
            Stage::Cards => "drawing the social cards (unless cached)",
            Stage::Search => "building the search index",
            Stage::Bundle => {
                "bundling the site (vite build unless cached, beside the next two steps)"
            }
            Stage::Render => "rendering the pages whose data changed",
            Stage::SiteFiles => {
                "writing sitemap.xml, robots.txt, _headers, the feed and the search index"
            }
            Stage::Verify => "verifying every page and internal link",
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
    /// `vite build` failed; its output says why.
    #[error("{0}")]
    Bundle(String),
    /// A page could not be rendered; the message names its route and content file.
    #[error("{0}")]
    Render(RenderError),
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

    /// Wraps an error of the images or cards `stage`: a picture that cannot be decoded is the
    /// content's mistake.
    pub fn of_pictures(stage: Stage) -> impl Fn(images::ImagesError) -> BuildError {
        move |err| match err {
            images::ImagesError::Content(errors) => BuildError::Content(errors),
            images::ImagesError::Files(source) => BuildError::Files { stage, source },
        }
    }
}

impl From<BundleError> for BuildError {
    fn from(err: BundleError) -> Self {
        match err {
            BundleError::Toolchain(message) => BuildError::Toolchain(message),
            BundleError::Vite { .. } => BuildError::Bundle(err.to_string()),
            BundleError::Files(source) => BuildError::Files {
                stage: Stage::Bundle,
                source,
            },
        }
    }
}

impl From<RenderError> for BuildError {
    fn from(err: RenderError) -> Self {
        match err {
            RenderError::Toolchain(message) => BuildError::Toolchain(message),
            RenderError::Files(source) => BuildError::Files {
                stage: Stage::Render,
                source,
            },
            err => BuildError::Render(err),
        }
    }
}

/// What a successful build produced.
#[derive(Debug)]
pub struct Built {
    /// The validated content the site was rendered from, without the articles' plain text
    /// (which only the search index reads).
    pub content: Content,
    /// Sizes per route (HTML and the JS/CSS it loads), totals and the time of each step.
    pub report: BuildReport,
    /// Whether the bundle was built (false: taken from the cache).
    pub bundled: bool,
    /// How many pages were rendered (the rest came from the cache).
    pub rendered: usize,
    /// How many of those went through Vike's `renderPage` rather than `site/render/thin.ts`.
    pub rendered_via_vike: usize,
    /// How many parts of the frame went into those pages as rendered once for the pages that show
    /// them alike (`site/lib/once.server.tsx`), rather than rendered for the page.
    pub frame_parts_once: usize,
    /// For how many pages the workers hashed what they render: those for which something they
    /// read of the content changed (the rest came from the cache; none with `--no-cache`).
    pub hashed: usize,
    /// How many render workers hashed or rendered pages: none when the cache knew the whole site.
    pub render_workers: usize,
    /// How many files the output directory took and lost.
    pub published: publish::Published,
    /// The URL paths of the pages the replaced output had that this one drops with no
    /// redirect answering them (`/insights/old-slug/`): what `sitegen deploy` would refuse
    /// to remove from a bucket.
    pub dropped_pages: Vec<String>,
}

/// Runs the whole pipeline. See the module documentation.
///
/// Files of the cache found damaged when they are published (their bytes no longer match their
/// hash) are dropped from it, and the pipeline runs once more to make them again.
pub fn build(options: &BuildOptions) -> Result<Built, BuildError> {
    let cache = if options.no_cache {
        Cache::fresh()
    } else {
        Cache::open(options.cache_dir.as_deref())
    }
    .map_err(BuildError::during(Stage::Load))?;
    let built = match build_with(options, &cache) {
        Err(Attempt::Damaged(damaged)) => {
            eprintln!(
                "warning: {} files of the build cache {} no longer match their hash (a torn write \
                 or a disk error); making them again",
                damaged.len(),
                cache.root().display()
            );
            for path in &damaged {
                cache
                    .drop_entry(path)
                    .map_err(BuildError::during(Stage::Publish))?;
            }
            build_with(options, &cache)
        }
        other => other,
    }
    .map_err(Attempt::into_error)?;
    log_build(&built, options);
    // Kept out of the build's time: what this build used is recorded, and the cache pruned.
    if let Err(err) = cache.finish_build(&options.out_dir) {
        eprintln!("warning: the build cache could not be trimmed: {err:#}");
    }
    Ok(built)
}

/// The environment variable naming the file [`log_build`] appends to.
pub const BUILD_LOG_ENV: &str = "SITEGEN_BUILD_LOG";

/// Appends a line of JSON about a finished build to the file `SITEGEN_BUILD_LOG` names, when it
/// is set: what ran it (the process's command line: a test binary's names the test), how many
/// pages and articles it published, how many it rendered, whether it ran Vite, how many
/// pictures it encoded and how long it took. `make
/// test-times` sets it to count the builds a test run makes, and of what size. A log that
/// cannot be written is a warning: it never fails a build.
fn log_build(built: &Built, options: &BuildOptions) {
    let Some(log) = std::env::var_os(BUILD_LOG_ENV) else {
        return;
    };
    let line = serde_json::json!({
        "command": std::env::args().collect::<Vec<_>>().join(" "),
        "pages": built.report.pages.len(),
        "articles": built.content.articles.len(),
        "rendered": built.rendered,
        "bundled": built.bundled,
        "pictures_encoded": built.report.images.as_ref().map_or(0, |images| images.encoded),
        "no_cache": options.no_cache,
        "ms": built.report.elapsed.as_millis(),
    });
    // One write of a whole line with O_APPEND: lines of concurrent builds do not interleave.
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut file| std::io::Write::write_all(&mut file, format!("{line}\n").as_bytes()));
    if let Err(err) = written {
        eprintln!("warning: {BUILD_LOG_ENV} {}: {err}", log.to_string_lossy());
    }
}

/// How one run of the pipeline ended without a build.
enum Attempt {
    /// It failed.
    Failed(BuildError),
    /// Files of the cache were found damaged as they were published: these.
    Damaged(Vec<PathBuf>),
}

impl Attempt {
    /// The build's error; damaged files here are damaged again right after being made.
    fn into_error(self) -> BuildError {
        match self {
            Attempt::Failed(err) => err,
            Attempt::Damaged(damaged) => BuildError::Files {
                stage: Stage::Publish,
                source: anyhow::anyhow!(
                    "{} files of the build cache are damaged right after being made, e.g. {}: \
                     check the disk",
                    damaged.len(),
                    damaged
                        .first()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                ),
            },
        }
    }
}

impl From<BuildError> for Attempt {
    fn from(err: BuildError) -> Self {
        Attempt::Failed(err)
    }
}

fn build_with(options: &BuildOptions, cache: &Cache) -> Result<Built, Attempt> {
    let mut steps = Steps::new(options.quiet);
    let mut content = steps.run(Stage::Load, || load(options))?;
    // Node.js and the site's packages are looked for first, so that a site without them fails at
    // once; `vite build` then runs beside the pictures and the cards, which do not read the
    // bundle, on the cores it leaves idle (a quarter of two).
    let prepared = steps.run(Stage::Bundle, || {
        Ok(bundle::prepare(&options.site_dir, cache)?)
    })?;
    let (bundled, pictures_and_cards) = std::thread::scope(|scope| {
        let bundled = scope.spawn(move || {
            let started = Instant::now();
            let bundle = match prepared {
                bundle::Prepared::Cached(bundle) => bundle,
                bundle::Prepared::ToBuild(build) => build.run(cache, options.quiet)?,
            };
            // The first render worker loads the bundle while the pictures and cards are made.
            let head_start = render::HeadStart::spawn(&options.site_dir, &bundle);
            Ok::<_, BuildError>((bundle, head_start, started.elapsed()))
        });
        let pictures_and_cards = (|| {
            let pictures = steps.run(Stage::Images, || {
                images::process(cache, &mut content, &images::Settings::default())
                    .map_err(BuildError::of_pictures(Stage::Images))
            })?;
            let social = steps.run(Stage::Cards, || {
                let mut social = cards::process(cache, &mut content)
                    .map_err(BuildError::of_pictures(Stage::Cards))?;
                for translation in &mut content.translations {
                    let more = cards::process(cache, translation)
                        .map_err(BuildError::of_pictures(Stage::Cards))?;
                    social.files.extend(more.files);
                    social.drawn += more.drawn;
                }
                Ok(social)
            })?;
            Ok::<_, BuildError>((pictures, social))
        })();
        let bundled = bundled
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (bundled, pictures_and_cards)
    });
    // A bundle that failed is the build's error, as when it was built before the pictures.
    let (bundle, head_start, bundling) = bundled?;
    steps.add(Stage::Bundle, bundling);
    let (pictures, social) = pictures_and_cards?;
    let search = steps.run(Stage::Search, || {
        // One index per language, of its own articles.
        let mut files =
            search_index(cache, &mut content).map_err(BuildError::during(Stage::Search))?;
        for translation in &mut content.translations {
            files.extend(
                search_index(cache, translation).map_err(BuildError::during(Stage::Search))?,
            );
        }
        Ok(files)
    })?;
    // Only the search index reads the articles' plain text: the JSON every worker parses goes
    // without it, a third lighter, and sitegen does not hold it for the rest of the build.
    for article in &mut content.articles {
        article.text = Arc::default();
    }
    for translation in &mut content.translations {
        for article in &mut translation.articles {
            article.text = Arc::default();
        }
    }
    let routes: Vec<String> = content.all_routes().map(|r| r.path.clone()).collect();
    let rendered = steps.run(Stage::Render, || {
        render_pages(options, cache, &bundle, &mut content, head_start)
    })?;
    let site_files = steps.run(Stage::SiteFiles, || {
        let public = options.site_dir.join("public");
        let mut files = write_site_files(cache, &public, &content, &search)
            .map_err(BuildError::during(Stage::SiteFiles))?;
        // The editor of the live site, only when site.yaml asks for it.
        if let Some(cms) = &content.settings.cms {
            let editor = crate::cms::live::files(
                cache,
                &options.site_dir,
                &options.content_dir,
                cms,
                options.quiet,
            )
            .map_err(BuildError::during(Stage::SiteFiles))?;
            files.extend(editor);
        }
        Ok(files)
    })?;
    let plan = Plan::new(cache, &bundle, &rendered, &site_files, &pictures, &social)
        .map_err(BuildError::during(Stage::Verify))?;
    let clashes = redirects::clashes(
        &content.redirects,
        plan.files.iter().map(|f| f.file.as_str()),
    );
    if !clashes.is_empty() {
        return Err(BuildError::Content(ContentErrors(clashes)).into());
    }
    let checked = steps.run(Stage::Verify, || {
        verify(
            cache,
            &plan,
            &rendered.pages,
            &routes,
            &content.settings.base_url,
        )
    })?;
    let record = cache
        .output_record(&options.out_dir)
        .map_err(BuildError::during(Stage::Publish))?;
    // The output's record names what it holds; without one, the output is listed.
    let unrecorded_drops =
        (!record.is_file()).then(|| dropped_pages(&options.out_dir, &plan, &content));
    let mut damaged = Vec::new();
    let published = steps.run(Stage::Publish, || {
        let _lock = cache
            .lock_output(&record)
            .map_err(BuildError::during(Stage::Publish))?;
        match publish::publish_plan(&plan.files, &options.out_dir, &record) {
            Ok(done) => Ok(Some(done)),
            Err(publish::PublishError::Damaged(files)) => {
                damaged = files;
                Ok(None)
            }
            Err(publish::PublishError::Files(err)) => Err(BuildError::during(Stage::Publish)(err)),
        }
    })?;
    let Some((published, previous)) = published else {
        return Err(Attempt::Damaged(damaged));
    };
    let dropped_pages = unrecorded_drops.unwrap_or_else(|| {
        redirects::Rules::of(&content.redirects)
            .uncovered_pages(published.removed_files.iter().map(String::as_str))
    });
    // The previous output goes while the report is made; a command that ends with the build
    // leaves it to a process of its own and does not wait.
    let removal = if options.remove_previous_in_background {
        if let Err(err) = previous.remove_in_background() {
            eprintln!("warning: {err:#}");
        }
        None
    } else {
        Some(std::thread::spawn(move || previous.remove()))
    };
    let elapsed = steps.started.elapsed();
    let report = steps.run(Stage::Report, || {
        measure(cache, &options.out_dir, &plan, checked, &routes, elapsed)
            .map_err(BuildError::during(Stage::Report))
    });
    match removal.map(std::thread::JoinHandle::join) {
        Some(Ok(Err(err))) => eprintln!("warning: {err:#}"),
        Some(Err(_)) => eprintln!("warning: removing the previous output failed"),
        Some(Ok(Ok(()))) | None => {}
    }
    let mut report = report?;
    report.stages = steps.times;
    report.images = (!pictures.files.is_empty()).then_some(pictures.report);
    report.next_change_at = content.next_change_at.map(|at| at.to_string());
    Ok(Built {
        content,
        report,
        bundled: bundle.built,
        rendered: rendered.rendered,
        rendered_via_vike: rendered.via_vike,
        frame_parts_once: rendered.parts_once,
        hashed: rendered.hashed,
        render_workers: rendered.workers,
        published,
        dropped_pages,
    })
}

fn load(options: &BuildOptions) -> Result<Content, BuildError> {
    let mut content = Content::load_with(
        &options.content_dir,
        &options.site_dir.join("public"),
        None,
        &options.publishing,
    )?;
    for warning in &content.warnings {
        eprintln!("warning: {warning}");
    }
    if let Some(endpoint) = &options.contact_endpoint {
        // Every language's forms post to the same service.
        for settings in std::iter::once(&mut content.settings)
            .chain(content.translations.iter_mut().map(|t| &mut t.settings))
        {
            settings.contact_endpoint.clone_from(endpoint);
        }
    }
    Ok(content)
}

/// Every page of the model in every language, and each language's not-found page (`404.html`,
/// `et/404.html`).
fn page_jobs(content: &Content) -> Vec<PageJob> {
    let not_found = |folder: &str| {
        let path = format!("{folder}/{NOT_FOUND_FILE}");
        PageJob {
            // No route has this path (routes have no extension), so Vike renders its error page.
            file: route_file(&path),
            path,
            source: crate::content::SITE_FILE.into(),
            status: 404,
        }
    };
    content
        .all_routes()
        .map(|route| PageJob {
            path: route.path.clone(),
            file: route_file(&route.path),
            source: route.kind.source_file(),
            status: 200,
        })
        .chain([not_found("")])
        .chain(content.translations.iter().map(|translation| {
            not_found(
                &translation
                    .settings
                    .language_prefix(&translation.settings.language),
            )
        }))
        .collect()
}

fn render_pages(
    options: &BuildOptions,
    cache: &Cache,
    bundle: &Bundle,
    content: &mut Content,
    head_start: render::HeadStart,
) -> Result<Rendered, BuildError> {
    let work = cache
        .scratch("build-")
        .map_err(BuildError::during(Stage::Render))?;
    // The bodies and their tables of contents, five sixths of the JSON at thousands of
    // articles, go to a file of their own that a worker reads an article's from only for the
    // page that shows it, instead of every worker parsing and holding them all; they are back
    // in the model for the rest of the build.
    let bodies: Vec<(Vec<TocEntry>, Arc<str>)> = content
        .articles
        .iter_mut()
        .map(|article| {
            (
                std::mem::take(&mut article.toc),
                std::mem::take(&mut article.html),
            )
        })
        .collect();
    let written = write_bodies(&work.path().join(BODIES_FILE), &bodies);
    let written = written.and_then(|spans| {
        content.article_bodies = Some(spans);
        // The JSON names the bodies file only relatively, so it is the same from one build
        // to the next, and it holds each body's digest: its hash covers the bodies too.
        write_content_json(content, &work.path().join("content.json"))
    });
    content.article_bodies = None;
    for (article, (toc, html)) in content.articles.iter_mut().zip(bodies) {
        article.toc = toc;
        article.html = html;
    }
    let content_file = written.map_err(BuildError::during(Stage::Render))?;
    let render_options = RenderOptions {
        jobs: options.jobs,
        page_timeout: options.page_timeout,
    };
    Ok(render::render(
        &page_jobs(content),
        &content_file,
        bundle,
        &options.site_dir,
        cache,
        &render_options,
        head_start,
    )?)
}

/// The articles' bodies file, beside the content JSON the workers read: each article's table
/// of contents as JSON, then its body as HTML.
const BODIES_FILE: &str = "bodies";

/// Writes each article's table of contents (as JSON) and body, one article after the other,
/// into `file`: where each is, and the hash of each.
fn write_bodies(
    file: &Path,
    bodies: &[(Vec<TocEntry>, Arc<str>)],
) -> anyhow::Result<ArticleBodies> {
    let tocs = bodies
        .iter()
        .map(|(toc, _)| serde_json::to_vec(toc))
        .collect::<Result<Vec<_>, _>>()
        .context("serialising the tables of contents")?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(file).with_context(|| format!("writing {}", file.display()))?,
    );
    let mut spans = Vec::with_capacity(bodies.len());
    let mut offset = 0;
    for (toc, (_, html)) in tocs.iter().zip(bodies) {
        out.write_all(toc)
            .and_then(|()| out.write_all(html.as_bytes()))
            .with_context(|| format!("writing {}", file.display()))?;
        spans.push((offset, toc.len() as u64, html.len() as u64));
        offset += (toc.len() + html.len()) as u64;
    }
    out.into_inner()
        .map_err(|err| err.into_error())
        .with_context(|| format!("writing {}", file.display()))?;
    let digests = tocs
        .par_iter()
        .zip(bodies)
        .map(|(toc, (_, html))| render::body_digest(toc, html))
        .collect();
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    Ok(ArticleBodies {
        file: name.into_owned(),
        spans,
        digests,
    })
}

/// Writes the content JSON the workers read into `file`, and hashes it: streamed to the file
/// and hashed on the way, never whole in memory.
fn write_content_json(content: &Content, file: &Path) -> anyhow::Result<render::ContentFile> {
    let mut out = std::io::BufWriter::new(cache::HashingWriter::new(
        std::fs::File::create(file).with_context(|| format!("writing {}", file.display()))?,
    ));
    serde_json::to_writer(&mut out, content).context("serialising the content")?;
    let (_, hash) = out
        .into_inner()
        .map_err(|err| err.into_error())
        .and_then(HashingWriter::finish)
        .with_context(|| format!("writing {}", file.display()))?;
    Ok(render::ContentFile {
        hash,
        path: file.to_owned(),
    })
}

/// The pages of the output being replaced that the new one drops with no redirect answering
/// their path, by URL path; none when there is no output yet.
fn dropped_pages(out_dir: &Path, plan: &Plan, content: &Content) -> Vec<String> {
    let Ok(previous) = Files::list(out_dir) else {
        return Vec::new();
    };
    let kept: std::collections::HashSet<&str> =
        plan.files.iter().map(|f| f.file.as_str()).collect();
    redirects::Rules::of(&content.redirects).uncovered_pages(
        previous
            .iter()
            .map(String::as_str)
            .filter(|file| !kept.contains(file)),
    )
}

/// The new output: every file, where its bytes are, and what the report needs of them.
struct Plan {
    files: Vec<PlannedFile>,
    gzip: compress::GzipSizes,
}

/// Changes whenever the verification or the report reads an output differently.
const CHECKED_FORMAT: &str = "sitegen-checked-1";

impl Plan {
    /// The key of what verifying and measuring this plan for `routes` finds: both read only
    /// the files' names and bytes, which their ids name.
    fn key(&self, routes: &[String]) -> String {
        let mut files: Vec<(&str, &str)> = self
            .files
            .iter()
            .map(|f| (f.file.as_str(), f.id.as_str()))
            .collect();
        files.sort_unstable();
        let mut parts: Vec<&[u8]> = vec![CHECKED_FORMAT.as_bytes()];
        for route in routes {
            parts.extend([b"r".as_slice(), route.as_bytes()]);
        }
        for (file, id) in files {
            parts.extend([b"f".as_slice(), file.as_bytes(), id.as_bytes()]);
        }
        cache::hash_hex(&parts)
    }

    /// The browser's files from the bundle, the pages and the site files from the store, each
    /// with its compressed variants.
    fn new(
        cache: &Cache,
        bundle: &Bundle,
        rendered: &Rendered,
        site_files: &[(String, Stored)],
        pictures: &Images,
        social: &Cards,
    ) -> anyhow::Result<Self> {
        let store = cache.files();
        let mut files = Vec::new();
        let mut gzip = compress::GzipSizes::new();
        let client = bundle.client_dir();
        for entry in walkdir::WalkDir::new(&client).sort_by_file_name() {
            let entry = entry.with_context(|| format!("reading {}", client.display()))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let rel = entry
                .path()
                .strip_prefix(&client)?
                .to_string_lossy()
                .into_owned();
            if let Some(original) = rel.strip_suffix(Encoding::Gzip.suffix()) {
                gzip.insert(original.to_owned(), entry.metadata()?.len());
            }
            files.push(PlannedFile {
                id: format!("bundle:{}/{rel}", bundle.hash),
                // A throwaway cache's bundle is this build's.
                expected: if store.throwaway() {
                    cache::Expected::Fresh
                } else {
                    cache::Expected::Listed {
                        list: bundle.sums_file(),
                        key: rel.clone(),
                    }
                },
                file: rel,
                from: entry.into_path(),
                take: false,
            });
        }
        let stored = rendered
            .pages
            .iter()
            .map(|page| (&page.file, &page.stored))
            .chain(site_files.iter().map(|(file, stored)| (file, stored)))
            .chain(pictures.files.iter().map(|(file, stored)| (file, stored)))
            .chain(social.files.iter().map(|(file, stored)| (file, stored)));
        // A throwaway cache's file published under one name moves into the output.
        let mut uses: HashMap<&str, usize> = HashMap::new();
        if store.throwaway() {
            for (_, stored) in stored.clone() {
                *uses.entry(&stored.hash).or_default() += 1;
            }
        }
        for (file, stored) in stored {
            let take = uses.get(stored.hash.as_str()) == Some(&1);
            let from = store.path(&stored.hash);
            store.note(&stored.hash);
            if let Some(len) = stored.gzip_len {
                gzip.insert(file.clone(), len);
                for encoding in Encoding::PREFERRED {
                    files.push(PlannedFile {
                        file: format!("{file}{}", encoding.suffix()),
                        from: compress::variant_path(&from, encoding),
                        id: format!("{}{}", stored.hash, encoding.suffix()),
                        expected: store.expected(&stored.hash, Some(encoding)),
                        take,
                    });
                }
            }
            files.push(PlannedFile {
                file: file.clone(),
                from,
                id: stored.hash.clone(),
                expected: store.expected(&stored.hash, None),
                take,
            });
        }
        Ok(Self { files, gzip })
    }
}

/// The search index's files in the store, remembered by the hash of what it is built from, and
/// its entry named in `content.search_index_path`.
fn search_index(cache: &Cache, content: &mut Content) -> anyhow::Result<Vec<(String, Stored)>> {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Index {
        entry: String,
        files: Vec<(String, String)>,
    }
    let store = cache.files();
    let fold = search::fold_of(content);
    let sources = search::sources(content, &fold);
    let memo = SearchMemo(cache);
    let runs = search::Runs::new(&sources, &memo)?;
    let mut parts: Vec<&[u8]> = vec![SEARCH_FORMAT.as_bytes()];
    parts.extend(runs.keys().iter().map(String::as_bytes));
    let key = cache::hash_hex(&parts);
    // The index stands for its runs: a build that recalls it keeps them too.
    cache.note_memos(runs.keys().iter().map(String::as_str));
    let recalled: Option<Index> = cache
        .recall(&key)
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .filter(|index: &Index| index.files.par_iter().all(|(_, hash)| store.contains(hash)));
    let index = match recalled {
        Some(index) => index,
        None => {
            let built = runs.build(search::SHARD_MAX_BYTES, &memo)?;
            let files = built
                .files
                .par_iter()
                .map(|(name, bytes)| {
                    let name = format!("{}/{name}", search::DIR);
                    let hash = store.put(&name, bytes)?.hash;
                    Ok((name, hash))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let index = Index {
                entry: built.entry_path(),
                files,
            };
            cache.remember(&key, &serde_json::to_vec(&index)?)?;
            index
        }
    };
    drop(runs);
    drop(sources);
    content.search_index_path = index.entry;
    Ok(index
        .files
        .into_iter()
        .map(|(name, hash)| {
            let gzip_len = store.gzip_len(&hash);
            (name, Stored { hash, gzip_len })
        })
        .collect())
}

/// Changes whenever the search index is built differently from the same articles.
const SEARCH_FORMAT: &str = "sitegen-search-3";

/// The search index's runs of articles, remembered in the cache between builds.
struct SearchMemo<'c>(&'c Cache);

impl search::Memo for SearchMemo<'_> {
    fn key(&self, parts: &[&[u8]]) -> String {
        cache::hash_hex(parts)
    }
    fn recall(&self, key: &str) -> Option<Vec<u8>> {
        self.0.recall(key)
    }
    fn remember(&self, key: &str, value: &[u8]) -> anyhow::Result<()> {
        self.0.remember(key, value)
    }
}

/// The site-wide files, each stored (and compressed) once per version.
fn write_site_files(
    cache: &Cache,
    public: &Path,
    content: &Content,
    search: &[(String, Stored)],
) -> anyhow::Result<Vec<(String, Stored)>> {
    let work = cache.scratch("site-files-")?;
    let entries: Vec<SitemapEntry> = content
        .all_routes()
        .map(|r| SitemapEntry {
            path: r.path.clone(),
            // A page standing in for a missing translation is not the page search engines
            // should find: its canonical is the source's.
            in_sitemap: r.in_sitemap
                && r.versions.as_ref().is_none_or(|v| {
                    v.canonical == crate::content::page_url(&content.settings.base_url, &r.path)
                }),
            alternates: r
                .versions
                .as_ref()
                .map(|v| {
                    v.hreflang
                        .iter()
                        .map(|h| (h.hreflang.clone(), h.href.clone()))
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect();
    let prefixes = content.translation_prefixes();
    outputs::write_site_files(
        work.path(),
        public,
        &content.settings.base_url,
        &content.settings.contact_endpoint,
        &entries,
        &prefixes.iter().map(String::as_str).collect::<Vec<_>>(),
        &content.settings.cache,
    )?;
    if content.settings.cms.is_some() {
        let headers = work.path().join("_headers");
        let mut text = std::fs::read_to_string(&headers)?;
        let rules = &content.settings.cache;
        text.push_str(&crate::cms::live::headers(
            &rules.hashed,
            &rules.revalidated,
        ));
        crate::headers::HeaderRules::parse(&text).context("the editor's _headers rules")?;
        std::fs::write(&headers, text)?;
    }
    let mut feeds = vec![feed::write(work.path(), content)?];
    for translation in &content.translations {
        feeds.push(feed::write(work.path(), translation)?);
    }
    let mut files = redirects::files(content)?;
    for entry in std::fs::read_dir(work.path())? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            files.push((name, std::fs::read(entry.path())?));
        }
    }
    // The translations' feeds are in folders of their own (`et/feed.xml`).
    for name in feeds.into_iter().filter(|name| name.contains('/')) {
        let bytes = std::fs::read(work.path().join(&name))?;
        files.push((name, bytes));
    }
    let store = cache.files();
    let mut stored = files
        .par_iter()
        .map(|(name, bytes)| Ok((name.clone(), store.put(name, bytes)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    stored.extend_from_slice(search);
    Ok(stored)
}

/// An output verified by this build, or one with the very same files verified and measured
/// by an earlier build, whose report holds as it was.
enum Checked {
    Now { scan: Scan, key: String },
    Before(BuildReport),
}

fn verify(
    cache: &Cache,
    plan: &Plan,
    pages: &[render::PageOut],
    routes: &[String],
    site_url: &str,
) -> Result<Checked, BuildError> {
    let key = plan.key(routes);
    let before = cache
        .recall(&key)
        .and_then(|bytes| serde_json::from_slice(&bytes).ok());
    if let Some(report) = before {
        return Ok(Checked::Before(report));
    }
    let files = Files::from_names(plan.files.iter().map(|f| f.file.clone()));
    let pages = render::scans(cache, pages)
        .map_err(BuildError::during(Stage::Verify))?
        .into_iter()
        .collect();
    let scan = Scan { files, pages };
    let check = check::check_scan(&scan, routes, Some(site_url));
    if check.is_ok() {
        Ok(Checked::Now { scan, key })
    } else {
        Err(BuildError::Verify(check.to_string()))
    }
}

/// What every route weighs, remembered for the next build of the same output.
fn measure(
    cache: &Cache,
    out_dir: &Path,
    plan: &Plan,
    checked: Checked,
    routes: &[String],
    elapsed: Duration,
) -> anyhow::Result<BuildReport> {
    match checked {
        Checked::Before(report) => Ok(BuildReport { elapsed, ..report }),
        Checked::Now { scan, key } => {
            let report = report::summarize_scan(out_dir, &scan, &plan.gzip, routes, elapsed)?;
            cache.remember(&key, &serde_json::to_vec(&report)?)?;
            Ok(report)
        }
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

    /// Adds `elapsed` to the time of `stage`, for the part of it that ran beside other stages.
    fn add(&mut self, stage: Stage, elapsed: Duration) {
        if let Some(time) = self.times.iter_mut().find(|t| t.stage == stage.name()) {
            time.elapsed += elapsed;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every source file under `src/`, by path relative to it, with its text.
    fn sources() -> Vec<(String, String)> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        walkdir::WalkDir::new(&src)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
            .map(|e| {
                let rel = e.path().strip_prefix(&src).unwrap_or(e.path());
                let text = std::fs::read_to_string(e.path()).unwrap_or_default();
                (rel.to_string_lossy().into_owned(), text)
            })
            .collect()
    }

    #[test]
    fn stages_depend_downward_only() {
        let sources = sources();
        assert!(sources.len() > 20, "the sources were not found");
        // No stage (nor any other module but the entry points) reaches back into the
        // orchestrator.
        for (file, source) in &sources {
            if !["build.rs", "main.rs", "lib.rs"].contains(&file.as_str()) {
                assert!(
                    !source.contains("crate::build"),
                    "{file} reaches back into the build orchestrator"
                );
            }
        }
        // The content model depends on no stage of the pipeline.
        let stages = [
            "schema", "search", "images", "cards", "bundle", "render", "publish", "check",
            "report", "build",
        ];
        for (file, source) in sources.iter().filter(|(f, _)| f.starts_with("content/")) {
            for stage in stages {
                let path = format!("crate::{stage}");
                assert!(
                    !source.contains(&path),
                    "the content model ({file}) uses {path}"
                );
            }
        }
    }

    /// The module a source file under `src/` defines, as a path: `content/mod.rs` is
    /// `["content"]`, `content/articles.rs` is `["content", "articles"]`.
    fn module_of(file: &str) -> Vec<String> {
        let mut path: Vec<String> = file
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_owned)
            .collect();
        if path
            .last()
            .is_some_and(|last| ["mod", "lib", "main"].contains(&last.as_str()))
        {
            path.pop();
        }
        path
    }

    /// The modules `source` (the text of `module`) names through `crate::` and `super::`
    /// paths outside comments, each the longest known module the path starts with.
    fn uses(module: &[String], source: &str, known: &[Vec<String>]) -> Vec<Vec<String>> {
        // Comments name paths without using them.
        let source: String = source
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let source = source.as_str();
        let mut found = Vec::new();
        let words = |rest: &str| -> Vec<String> {
            rest.split("::")
                .map(|part| {
                    part.chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .take_while(|part| !part.is_empty())
                .collect()
        };
        for (at, _) in source.match_indices("crate::") {
            found.push(words(&source[at + "crate::".len()..]));
        }
        for (at, _) in source.match_indices("super::") {
            if source[..at].ends_with("super::") {
                continue;
            }
            let mut base = module.to_vec();
            let mut rest = &source[at..];
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
            base.extend(words(rest));
            found.push(base);
        }
        found
            .into_iter()
            .filter_map(|path| {
                (1..=path.len())
                    .rev()
                    .map(|n| path[..n].to_vec())
                    .find(|prefix| known.contains(prefix))
            })
            .collect()
    }

    #[test]
    fn no_module_uses_one_that_uses_it_back() {
        let sources = sources();
        let modules: Vec<Vec<String>> = sources.iter().map(|(file, _)| module_of(file)).collect();
        // Who uses whom, leaving out a module and its own submodules (a parent declares its
        // children, and children may use what their parent defines).
        let edges: std::collections::BTreeMap<
            &Vec<String>,
            std::collections::BTreeSet<Vec<String>>,
        > = sources
            .iter()
            .zip(&modules)
            .map(|((_, source), module)| {
                let used = uses(module, source, &modules)
                    .into_iter()
                    .filter(|other| !other.starts_with(module) && !module.starts_with(other))
                    .collect();
                (module, used)
            })
            .collect();
        let mut circles = Vec::new();
        for (from, used) in &edges {
            // Every module reachable from `from`, by depth-first search; a circle leads back.
            let mut stack: Vec<Vec<String>> = used.iter().cloned().collect();
            let mut seen = std::collections::BTreeSet::new();
            while let Some(next) = stack.pop() {
                if &&next == from {
                    circles.push(from.join("::"));
                    break;
                }
                if seen.insert(next.clone()) {
                    stack.extend(edges.get(&next).into_iter().flatten().cloned());
                }
            }
        }
        assert!(
            edges.contains_key(&vec!["content".to_owned(), "articles".to_owned()]),
            "the modules were not found"
        );
        assert!(
            circles.is_empty(),
            "modules in an import circle: {circles:?}"
        );
    }

    #[test]
    fn module_uses_are_read_from_crate_and_super_paths() {
        let known = vec![
            vec!["content".to_owned()],
            vec!["content".to_owned(), "images".to_owned()],
            vec!["cards".to_owned()],
        ];
        let module = vec!["content".to_owned(), "articles".to_owned()];
        let found = uses(
            &module,
            "use super::images::Picture;\nuse crate::cards::draw;\nuse super::Content;",
            &known,
        );
        assert_eq!(
            found,
            vec![known[2].clone(), known[1].clone(), known[0].clone()]
        );
    }

    #[test]
    fn the_bodies_file_holds_each_table_of_contents_then_its_body_and_a_digest_of_both() {
        use super::{TocEntry, write_bodies};
        use std::sync::Arc;

        let dir = tempfile::tempdir().expect("a temporary folder");
        let file = dir.path().join("bodies");
        let toc = vec![TocEntry {
            id: "start".into(),
            text: "Start \"here\"".into(),
            level: 2,
        }];
        let bodies = vec![
            (toc.clone(), Arc::from("<h2 id=\"start\">Start</h2>")),
            (Vec::new(), Arc::from("<p>Ünïcode</p>")),
        ];
        let written = write_bodies(&file, &bodies).expect("written");
        let bytes = std::fs::read(&file).expect("read back");
        for ((offset, toc_len, html_len), (toc, html)) in written.spans.iter().zip(&bodies) {
            let (offset, toc_len, html_len) =
                (*offset as usize, *toc_len as usize, *html_len as usize);
            let read: Vec<TocEntry> =
                serde_json::from_slice(&bytes[offset..offset + toc_len]).expect("the toc's JSON");
            assert_eq!(&read, toc);
            assert_eq!(
                &bytes[offset + toc_len..offset + toc_len + html_len],
                html.as_bytes()
            );
        }
        assert_eq!(written.spans.len(), 2);

        // The digest changes with the table of contents alone, as with the body alone.
        let retitled = vec![(Vec::new(), bodies[0].1.clone()), bodies[1].clone()];
        let rewritten = vec![
            (toc, Arc::from("<h2 id=\"start\">Begin</h2>")),
            bodies[1].clone(),
        ];
        let other = dir.path().join("other");
        let digests = |bodies| write_bodies(&other, bodies).expect("written").digests;
        let (retitled, rewritten) = (digests(&retitled), digests(&rewritten));
        assert_ne!(retitled[0], written.digests[0]);
        assert_ne!(rewritten[0], written.digests[0]);
        assert_eq!(retitled[1], written.digests[1]);
    }
}
