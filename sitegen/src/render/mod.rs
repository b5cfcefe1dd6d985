//! Rendering: every page of the content model through Vike's server rendering of the bundle,
//! in a pool of long-lived Node workers (`site/render/worker.mjs`), each page written as it
//! arrives and rendered again only when what it renders changed.
//!
//! A page's HTML is a function of the bundle and of what the worker hashes for it (its path,
//! its `+data`, the frame's content; see `site/render/entry.server.ts`). So a build first asks
//! the workers for those hashes, a cheap pass without React, and renders only the pages whose
//! `(bundle, hash)` the cache has not seen; the rest are linked from the cache with their
//! compressed variants and what [`crate::scan`] read of them. The hash pass itself asks only
//! about the pages for which something they read of the content changed since the last build
//! of the bundle ([`reads`]), and a build of the same bundle and the same content skips the
//! workers altogether.
//!
//! Faults are named: a page that throws names its route and content file; a worker that dies or
//! answers nothing within the page deadline fails the build naming the route it was given. No
//! worker outlives sitegen: they exit when their stdin closes, are killed on drop, and on
//! Ctrl-C or SIGTERM sitegen kills them before it exits ([`crate::interrupt`]).

mod reads;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::bundle::{self, Bundle};
use crate::cache::{self, Cache, Store, Stored};
use crate::interrupt;
use crate::relay::Relay;
use crate::scan;
use reads::{Digests, PageInputs, Records};

/// The worker script, relative to the site.
const WORKER_SCRIPT: &str = "render/worker.mjs";

/// Paths per hash request: large enough to make the round trip cheap, small enough that a
/// worker that dies on one names a short list.
const HASH_BATCH: usize = 64;

/// The pool starts with one worker per this many routes (and at most `--jobs`): one worker
/// hashes a thousand pages in about the time another takes to start (0.2 s). Two Node
/// processes starting at once on two cores each start more slowly, so a site of a few dozen
/// pages, which a rebuild hashes in 15 ms and renders two of, is rendered sooner by one.
const ROUTES_PER_STARTING_WORKER: usize = 1000;
/// Once the pages to render are known, the pool grows to one worker per this many of them (and
/// at most `--jobs`): a worker renders about this many pages in the time a new one takes to
/// start and render its first, cold page.
const PAGES_PER_WORKER: usize = 16;

/// Changes whenever what a cached rendering means changes.
const RENDER_FORMAT: &str = "sitegen-render-1";

/// How the pages are rendered.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// How many Node workers render in parallel.
    pub jobs: usize,
    /// How long one request may take before its worker is taken for hung.
    pub page_timeout: Duration,
}

impl RenderOptions {
    /// One worker per core, a minute per page.
    pub fn default_jobs() -> usize {
        std::thread::available_parallelism().map_or(2, usize::from)
    }
}

/// One page to render.
#[derive(Debug, Clone)]
pub struct PageJob {
    /// The URL path the worker renders (`/about`; for the not-found page a path no route has).
    pub path: String,
    /// The output file (`about/index.html`).
    pub file: String,
    /// The content file its words come from, for messages (`pages/about.yaml`).
    pub source: String,
    /// The HTTP status Vike must answer: 200, or 404 for the not-found page.
    pub status: u16,
}

/// A page in the output: its file and its bytes in the store. What the scan read of it is
/// stored beside it, read by [`scans`] only when the output is verified and measured.
#[derive(Debug, Clone)]
pub struct PageOut {
    /// The output file (`about/index.html`).
    pub file: String,
    /// Its bytes in the store.
    pub stored: Stored,
}

/// What the render step did.
#[derive(Debug)]
pub struct Rendered {
    /// Every page, in the order of the jobs.
    pub pages: Vec<PageOut>,
    /// How many pages were rendered (the rest came from the cache).
    pub rendered: usize,
    /// How many of those were published as Vike's `renderPage` rendered them
    /// (`site/render/thin.ts` rendered the rest): a kind's first page in each worker, and every
    /// page of a kind the thin path leaves to Vike, the page that showed it must included.
    pub via_vike: usize,
    /// How many parts of the frame (a header, a footer) the thin path put into pages as it had
    /// rendered them once for pages that show them alike (`site/lib/once.server.tsx`).
    pub parts_once: usize,
    /// For how many pages the workers hashed what they render (the rest came from the cache;
    /// none with a throwaway cache, which no later build reads).
    pub hashed: usize,
    /// How many render workers hashed or rendered pages: none when the cache knew the whole site.
    pub workers: usize,
}

/// Why rendering failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A page threw, or answered the wrong status.
    #[error("rendering {route} (content: {source_file}) failed:\n{message}")]
    Page {
        /// The page's path.
        route: String,
        /// The content file its words come from.
        source_file: String,
        /// What went wrong, with the stack the worker reported.
        message: String,
    },
    /// A worker died or hung.
    #[error("the render worker {fault} while rendering {route} (content: {source_file})")]
    Worker {
        /// The page (or pages) it was given.
        route: String,
        /// The content file of that page.
        source_file: String,
        /// What happened to the worker.
        fault: Fault,
    },
    /// Node.js or the site is missing.
    #[error("{0}")]
    Toolchain(String),
    /// Reading or writing files failed.
    #[error(transparent)]
    Files(#[from] anyhow::Error),
}

/// What happened to a worker.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    /// It exited.
    #[error("exited ({0})")]
    Died(String),
    /// It answered nothing in time; it was killed.
    #[error("answered nothing within {0:?} and was stopped")]
    Hung(Duration),
    /// It answered something that is not an answer.
    #[error("answered out of turn: {0}")]
    Protocol(String),
}

/// The content as the workers read it: the model's JSON in a file, and the hash of its bytes.
#[derive(Debug, Clone)]
pub struct ContentFile {
    /// The JSON file.
    pub path: PathBuf,
    /// The hash of its bytes.
    pub hash: String,
}

/// A render worker started as soon as the bundle is known, so that it starts Node and loads the
/// bundle while sitegen loads the content and draws what the pages show; [`render`] hands it
/// the first page it needs a worker for. A build that needs no worker stops it unused.
#[derive(Debug)]
pub struct HeadStart(Option<Worker>);

impl HeadStart {
    /// Starts a worker of the site's script on `bundle`. When it cannot start, there is no head
    /// start: the pool starts its workers itself, and names what is missing.
    pub fn spawn(site_dir: &Path, bundle: &Bundle) -> Self {
        let started = site_script(site_dir)
            .ok()
            .and_then(|script| Worker::spawn(&script, &bundle.dir).ok());
        Self(started)
    }
}

/// The digest of an article's body in the bodies file: of its table of contents as JSON and
/// its HTML, what the hash of a page's inputs reads in place of them.
pub(crate) fn body_digest(toc: &[u8], html: &str) -> String {
    cache::hash_hex(&[toc, html.as_bytes()])
}

/// Renders `jobs` from `content` with `bundle`: every page in the store (with its variants),
/// in the order of the jobs.
pub fn render(
    jobs: &[PageJob],
    content: &ContentFile,
    bundle: &Bundle,
    site_dir: &Path,
    cache: &Cache,
    options: &RenderOptions,
    head_start: HeadStart,
) -> Result<Rendered, RenderError> {
    let store = cache.files();
    let site_key = cache::hash_hex(&[
        RENDER_FORMAT.as_bytes(),
        bundle.hash.as_bytes(),
        content.hash.as_bytes(),
    ]);
    if let Some(site) = recall_site(cache, &store, &site_key, jobs) {
        // The listing stands for the memos it spared reading: the build keeps them.
        cache.note_memos(site.memos.iter().map(String::as_str));
        let pages = site
            .pages
            .par_iter()
            .map(|(file, hash)| page_out(&store, file, hash))
            .collect();
        return Ok(Rendered {
            pages,
            rendered: 0,
            via_vike: 0,
            parts_once: 0,
            hashed: 0,
            workers: 0,
        });
    }

    let most = options.jobs;
    let mut pool = PoolSlot::new(
        site_dir,
        bundle,
        &content.path,
        options.page_timeout,
        head_start,
    );
    // The head start parses the content while sitegen works out which pages it needs.
    pool.hand_content_ahead()?;
    // What each page renders names it in the cache for a later build. A throwaway cache
    // (`--no-cache`) has no later build and knows no page: the workers are not asked.
    let remembered = !store.throwaway();
    let (inputs, hashed) = if remembered {
        page_inputs(jobs, content, bundle, cache, &mut pool, most)?
    } else {
        (Vec::new(), 0)
    };
    let keys: Vec<String> = inputs
        .iter()
        .map(|inputs| {
            cache::hash_hex(&[
                RENDER_FORMAT.as_bytes(),
                bundle.hash.as_bytes(),
                inputs.hash.as_bytes(),
            ])
        })
        .collect();
    let known: Vec<Option<String>> = if remembered {
        keys.par_iter()
            .map(|key| {
                cache
                    .recall(key)
                    .and_then(|hash| String::from_utf8(hash).ok())
                    .filter(|hash| store.contains(hash) && store.has_side(hash, SCAN_SUFFIX))
            })
            .collect()
    } else {
        vec![None; jobs.len()]
    };
    let todo: Vec<usize> = (0..jobs.len()).filter(|&i| known[i].is_none()).collect();
    let fresh = if todo.is_empty() {
        Renders::default()
    } else {
        let pool = pool.get()?;
        pool.grow(workers_for(todo.len(), PAGES_PER_WORKER, most))?;
        // Pages rendered now are stored (and compressed) as they arrive, while the workers go on.
        pool.render_each(jobs, &todo, |i, html| {
            let page = store_page(&store, &jobs[i].file, html.as_bytes())?;
            if remembered {
                cache.remember(&keys[i], page.stored.hash.as_bytes())?;
            }
            Ok(page.stored)
        })?
    };
    let workers = pool.started();
    drop(pool);
    for warning in &fresh.warnings {
        eprintln!("warning: {warning}");
    }

    // A page rendered now is known with its `.gz`'s size; one from the cache is looked up.
    let pages: Vec<PageOut> = jobs
        .par_iter()
        .zip(known)
        .enumerate()
        .map(|(i, (job, known))| match (known, fresh.done.get(&i)) {
            (Some(hash), _) => page_out(&store, &job.file, &hash),
            (None, stored) => PageOut {
                file: job.file.clone(),
                stored: stored.cloned().unwrap_or_default(),
            },
        })
        .collect();
    if remembered {
        let hashes: Vec<(String, String)> = pages
            .iter()
            .map(|page| (page.file.clone(), page.stored.hash.clone()))
            .collect();
        let mut memos = keys;
        memos.push(Records::key(&bundle.hash));
        let listing = SiteMemo {
            pages: hashes,
            memos,
        };
        let listing = serde_json::to_vec(&listing).context("listing the pages")?;
        cache.remember(&site_key, &listing)?;
    }
    Ok(Rendered {
        pages,
        rendered: todo.len(),
        via_vike: fresh.via_vike,
        parts_once: fresh.parts_once,
        hashed,
        workers,
    })
}

/// What each page renders besides the bundle, in the order of `jobs`: from the records of
/// the last build of this bundle where what the page read is unchanged ([`reads`]), from the
/// workers for the rest; and for how many pages the workers were asked.
fn page_inputs(
    jobs: &[PageJob],
    content: &ContentFile,
    bundle: &Bundle,
    cache: &Cache,
    pool: &mut PoolSlot,
    most: usize,
) -> Result<(Vec<PageInputs>, usize), RenderError> {
    let digests = Digests::of_file(&content.path, &content.hash)?;
    let records_key = Records::key(&bundle.hash);
    let paths: Vec<&str> = jobs.iter().map(|job| job.path.as_str()).collect();
    let before = Records::recall(cache, &records_key);
    let mut inputs = before.inputs(&paths, &digests);
    let unknown: Vec<usize> = (0..jobs.len()).filter(|&i| inputs[i].is_none()).collect();
    let hashed = unknown.len();
    if hashed > 0 {
        let pool = pool.get()?;
        pool.grow(workers_for(unknown.len(), ROUTES_PER_STARTING_WORKER, most))?;
        let asked: Vec<PageJob> = unknown.iter().map(|&i| jobs[i].clone()).collect();
        for (i, found) in unknown.into_iter().zip(pool.input_hashes(&asked)?) {
            inputs[i] = Some(found);
        }
    }
    let inputs: Vec<PageInputs> = inputs.into_iter().flatten().collect();
    if inputs.len() != jobs.len() {
        return Err(RenderError::Files(anyhow::anyhow!(
            "the render workers hashed {} of {} pages",
            inputs.len(),
            jobs.len()
        )));
    }
    // Records that all held hold still.
    if hashed > 0 {
        let paths_and_inputs = paths.iter().copied().zip(&inputs);
        Records::new(paths_and_inputs, &digests, &before).remember(cache, &records_key)?;
    }
    Ok((inputs, hashed))
}

/// One worker per `per` of `count` things to do, at least one and at most `most`.
fn workers_for(count: usize, per: usize, most: usize) -> usize {
    count.div_ceil(per).clamp(1, most.max(1))
}

// `-2`: since scans carry the pages' JSON-LD; a scan stored before is read no more.
const SCAN_SUFFIX: &str = ".scan-2";

/// Stores a rendered page with its variants and what the scan reads of it.
fn store_page(store: &Store, file: &str, html: &[u8]) -> Result<PageOut> {
    let stored = store.put(file, html)?;
    if !store.has_side(&stored.hash, SCAN_SUFFIX) {
        let scan = scan::Page::parse(&scan::text(html));
        let scan = serde_json::to_vec(&scan).context("saving a scan")?;
        store.put_side(&stored.hash, SCAN_SUFFIX, scan)?;
    }
    Ok(PageOut {
        file: file.to_owned(),
        stored,
    })
}

fn page_out(store: &Store, file: &str, hash: &str) -> PageOut {
    PageOut {
        file: file.to_owned(),
        stored: Stored {
            hash: hash.to_owned(),
            gzip_len: store.gzip_len(hash),
        },
    }
}

/// What the scan read of each of `pages` (every rendered page has it beside its bytes), by
/// output file.
pub fn scans(cache: &Cache, pages: &[PageOut]) -> Result<Vec<(String, scan::Page)>> {
    let store = cache.files();
    pages
        .par_iter()
        .map(|page| {
            let bytes = store.side(&page.stored.hash, SCAN_SUFFIX)?;
            let scan = serde_json::from_slice(&bytes)
                .with_context(|| format!("reading the scan of {}", page.file))?;
            Ok((page.file.clone(), scan))
        })
        .collect()
}

/// What a build of a bundle and content rendered: each page's file and stored hash, and the
/// memos it read to know them (each page's, the records of the pages' reads), which a build
/// that recalls this instead keeps in the cache all the same.
#[derive(serde::Serialize, serde::Deserialize)]
struct SiteMemo {
    pages: Vec<(String, String)>,
    memos: Vec<String>,
}

/// The pages of a build of the same bundle and content, when every one is still stored.
fn recall_site(cache: &Cache, store: &Store, key: &str, jobs: &[PageJob]) -> Option<SiteMemo> {
    let site: SiteMemo = serde_json::from_slice(&cache.recall(key)?).ok()?;
    let listing = &site.pages;
    let complete = listing.len() == jobs.len()
        && listing
            .iter()
            .zip(jobs)
            .all(|((file, _), job)| *file == job.file)
        && listing
            .par_iter()
            .all(|(_, hash)| store.contains(hash) && store.has_side(hash, SCAN_SUFFIX));
    complete.then_some(site)
}

/// The pool, started when a page first needs a worker, with the head start as its first: a
/// rebuild whose pages all read what they read before, and are all rendered already, uses none
/// and stops the head start unused.
struct PoolSlot<'a> {
    pool: Option<Pool>,
    /// Whether a page needed the pool: one only handed the content ahead was not used.
    used: bool,
    head_start: HeadStart,
    site_dir: &'a Path,
    bundle: &'a Bundle,
    content: &'a Path,
    timeout: Duration,
}

impl<'a> PoolSlot<'a> {
    fn new(
        site_dir: &'a Path,
        bundle: &'a Bundle,
        content: &'a Path,
        timeout: Duration,
        head_start: HeadStart,
    ) -> Self {
        Self {
            pool: None,
            used: false,
            head_start,
            site_dir,
            bundle,
            content,
            timeout,
        }
    }

    /// Starts the pool with the head start, when there is one, and sends it the content
    /// without waiting for its answer, which the pool reads when a page first needs it.
    fn hand_content_ahead(&mut self) -> Result<(), RenderError> {
        if self.head_start.0.is_some() {
            self.pool()?.send_content();
        }
        Ok(())
    }

    /// The pool, for a page that needs it.
    fn get(&mut self) -> Result<&mut Pool, RenderError> {
        self.used = true;
        self.pool()
    }

    /// The pool, started on first use.
    fn pool(&mut self) -> Result<&mut Pool, RenderError> {
        let pool = match self.pool.take() {
            Some(pool) => pool,
            None => Pool::start(
                self.site_dir,
                self.bundle,
                self.content,
                self.timeout,
                self.head_start.0.take(),
            )?,
        };
        Ok(self.pool.insert(pool))
    }

    /// How many workers were started and used.
    fn started(&self) -> usize {
        match (&self.pool, self.used) {
            (Some(pool), true) => pool.workers.len(),
            _ => 0,
        }
    }
}

/// The render workers, each with the bundle loaded.
struct Pool {
    workers: Vec<Worker>,
    /// How many of the workers, from the first, were handed the content.
    loaded: usize,
    /// How many of the workers, from the first, were sent the content (at least `loaded`):
    /// those past `loaded` have yet to answer.
    sent: usize,
    /// The worker script, the bundle it loads and the content it renders, for the workers
    /// started as the pool grows.
    script: PathBuf,
    bundle_dir: PathBuf,
    content: PathBuf,
    timeout: Duration,
}

impl Pool {
    /// A pool of the head start's worker, if there is one, after checking that Node and the
    /// worker script are there.
    fn start(
        site_dir: &Path,
        bundle: &Bundle,
        content: &Path,
        timeout: Duration,
        head_start: Option<Worker>,
    ) -> Result<Self, RenderError> {
        bundle::node_version().map_err(|err| RenderError::Toolchain(err.to_string()))?;
        let script = site_script(site_dir)?;
        Ok(Self {
            workers: head_start.into_iter().collect(),
            loaded: 0,
            sent: 0,
            script,
            bundle_dir: bundle.dir.clone(),
            content: bundle::absolute(content)?,
            timeout,
        })
    }

    /// Starts workers until there are `count`, and hands each new one the content.
    fn grow(&mut self, count: usize) -> Result<(), RenderError> {
        while self.workers.len() < count {
            self.workers
                .push(Worker::spawn(&self.script, &self.bundle_dir)?);
        }
        self.load_content(self.loaded)?;
        self.loaded = self.workers.len();
        Ok(())
    }

    /// Sends the content to the workers that were not sent it, without waiting for answers.
    /// A worker that cannot be sent it has died, which its answer will say.
    fn send_content(&mut self) {
        let request = Request::Content {
            file: &self.content,
            scheme: &reads::SCHEME,
        };
        for worker in &mut self.workers[self.sent..] {
            let _ = worker.send(&request);
        }
        self.sent = self.workers.len();
    }

    /// Hands the workers from number `from` on the content: sends it to those not sent it,
    /// and waits for every one's answer.
    fn load_content(&mut self, from: usize) -> Result<(), RenderError> {
        self.send_content();
        let file = &self.content;
        let timeout = self.timeout;
        std::thread::scope(|scope| {
            let handles: Vec<_> = self.workers[from..]
                .iter_mut()
                .map(|worker| scope.spawn(move || worker.receive(timeout)))
                .collect();
            for handle in handles {
                let reply = handle
                    .join()
                    .unwrap_or_else(|_| Err(Fault::Protocol("a worker thread panicked".into())))
                    .map_err(|fault| RenderError::Worker {
                        route: "(loading the content)".into(),
                        source_file: file.display().to_string(),
                        fault,
                    })?;
                if let Some(error) = reply.error {
                    return Err(RenderError::Files(anyhow::anyhow!(
                        "a render worker could not read the content: {error}"
                    )));
                }
            }
            Ok(())
        })
    }

    /// What each page renders, hashed by the workers, in the order of `jobs`.
    fn input_hashes(&mut self, jobs: &[PageJob]) -> Result<Vec<PageInputs>, RenderError> {
        let batches: Vec<&[PageJob]> = jobs.chunks(HASH_BATCH).collect();
        let results: Vec<Mutex<Option<Vec<PageInputs>>>> =
            batches.iter().map(|_| Mutex::new(None)).collect();
        self.each_worker(batches.len(), |worker, timeout, b| {
            let batch = batches[b];
            let paths: Vec<String> = batch.iter().map(|job| job.path.clone()).collect();
            let named = |fault| RenderError::Worker {
                route: describe_batch(batch),
                source_file: batch.first().map(|j| j.source.clone()).unwrap_or_default(),
                fault,
            };
            let reply = worker
                .call(&Request::Hash { paths: &paths }, timeout)
                .map_err(named)?;
            if let Some(message) = reply.error {
                let job = batch
                    .iter()
                    .find(|job| Some(&job.path) == reply.path.as_ref())
                    .or(batch.first());
                return Err(page_error(job, message));
            }
            let hashes = reply.hashes.unwrap_or_default();
            let reads = reply.reads.unwrap_or_default();
            if hashes.len() != batch.len() || reads.len() != batch.len() {
                return Err(named(Fault::Protocol(format!(
                    "{} hashes and {} lists of reads for {} pages",
                    hashes.len(),
                    reads.len(),
                    batch.len()
                ))));
            }
            let inputs = hashes
                .into_iter()
                .zip(reads)
                .map(|(hash, reads)| PageInputs { hash, reads })
                .collect();
            if let Ok(mut slot) = results[b].lock() {
                *slot = Some(inputs);
            }
            Ok(())
        })?;
        Ok(results
            .into_iter()
            .flat_map(|slot| slot.into_inner().ok().flatten().unwrap_or_default())
            .collect())
    }

    /// Renders the jobs numbered `todo`, handing each page's HTML to `done` as it arrives;
    /// what `done` returns, by job number, and what the workers said of how they rendered.
    fn render_each<T: Send>(
        &mut self,
        jobs: &[PageJob],
        todo: &[usize],
        done: impl Fn(usize, String) -> Result<T> + Sync,
    ) -> Result<Renders<T>, RenderError> {
        let results = Mutex::new(Renders::default());
        self.each_worker(todo.len(), |worker, timeout, t| {
            let i = todo[t];
            let job = &jobs[i];
            let reply = worker
                .call(&Request::Render { path: &job.path }, timeout)
                .map_err(|fault| RenderError::Worker {
                    route: job.path.clone(),
                    source_file: job.source.clone(),
                    fault,
                })?;
            if let Some(message) = reply.error {
                return Err(page_error(Some(job), message));
            }
            if reply.status != Some(job.status) {
                return Err(page_error(
                    Some(job),
                    format!(
                        "Vike answered {} where {} was expected",
                        reply.status.map_or("no status".into(), |s| s.to_string()),
                        job.status
                    ),
                ));
            }
            let value = done(i, reply.html.unwrap_or_default())?;
            if let Ok(mut results) = results.lock() {
                results.done.insert(i, value);
                results.via_vike += usize::from(reply.via_vike);
                results.parts_once += reply.parts_once;
                results.warnings.extend(reply.warning);
            }
            Ok(())
        })?;
        Ok(results.into_inner().unwrap_or_default())
    }

    /// Runs `task(worker, timeout, n)` for n in 0..count, each worker on a thread of its own
    /// taking the next n; the first failure stops the others at their next task.
    fn each_worker(
        &mut self,
        count: usize,
        task: impl Fn(&mut Worker, Duration, usize) -> Result<(), RenderError> + Sync,
    ) -> Result<(), RenderError> {
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let timeout = self.timeout;
        let errors: Vec<RenderError> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .workers
                .iter_mut()
                .map(|worker| {
                    let (next, failed, task) = (&next, &failed, &task);
                    scope.spawn(move || -> Result<(), RenderError> {
                        while !failed.load(Ordering::Relaxed) {
                            let n = next.fetch_add(1, Ordering::Relaxed);
                            if n >= count {
                                break;
                            }
                            if let Err(err) = task(worker, timeout, n) {
                                failed.store(true, Ordering::Relaxed);
                                return Err(err);
                            }
                        }
                        Ok(())
                    })
                })
                .collect();
            handles
                .into_iter()
                .filter_map(|handle| match handle.join() {
                    Ok(result) => result.err(),
                    Err(_) => Some(RenderError::Files(anyhow::anyhow!(
                        "a render thread panicked"
                    ))),
                })
                .collect()
        });
        errors.into_iter().next().map_or(Ok(()), Err)
    }
}

fn page_error(job: Option<&PageJob>, message: String) -> RenderError {
    RenderError::Page {
        route: job.map(|j| j.path.clone()).unwrap_or_default(),
        source_file: job.map(|j| j.source.clone()).unwrap_or_default(),
        message,
    }
}

fn describe_batch(batch: &[PageJob]) -> String {
    match batch {
        [one] => one.path.clone(),
        [first, .., last] => format!(
            "one of {} pages from {} to {}",
            batch.len(),
            first.path,
            last.path
        ),
        [] => String::new(),
    }
}

/// A request to a worker (see `site/render/worker.mjs`).
#[derive(Debug, Serialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Request<'a> {
    Content {
        file: &'a Path,
        scheme: &'a reads::Scheme,
    },
    Hash {
        paths: &'a [String],
    },
    Render {
        path: &'a str,
    },
}

/// A worker's answer: the fields of the request's kind, or `error`.
#[derive(Debug, Default, Deserialize)]
struct Reply {
    hashes: Option<Vec<String>>,
    /// Whether the page went through Vike's `renderPage`.
    #[serde(default)]
    via_vike: bool,
    /// How many parts of the frame were put into the page as rendered once for many pages.
    #[serde(default)]
    parts_once: usize,
    /// Why a kind of page is left to Vike from now on.
    warning: Option<String>,
    /// What each hashed page read of the content ([`reads`]).
    reads: Option<Vec<Vec<String>>>,
    status: Option<u16>,
    /// The length in bytes of the page's HTML, which follows the line as it is (see
    /// [`read_reply`]).
    html_bytes: Option<usize>,
    #[serde(skip)]
    html: Option<String>,
    error: Option<String>,
    /// The page a failed hash request failed on.
    path: Option<String>,
}

/// What [`Pool::render_each`] rendered: what its `done` returned for each job, by job number;
/// how many pages went through Vike's `renderPage`, how many parts of the frame were rendered
/// once for many pages; the workers' warnings, each once.
struct Renders<T> {
    done: HashMap<usize, T>,
    via_vike: usize,
    parts_once: usize,
    warnings: std::collections::BTreeSet<String>,
}

impl<T> Default for Renders<T> {
    fn default() -> Self {
        Self {
            done: HashMap::new(),
            via_vike: 0,
            parts_once: 0,
            warnings: std::collections::BTreeSet::new(),
        }
    }
}

/// V8's optimising compiler, made lighter for the workers: without escape analysis, and
/// inlining less into each function it optimises (460 bytes of bytecode a callee, 920 in all,
/// by default). A worker's TurboFan runs beside it on the other core, compiling React's render
/// functions as they get hot, and again after each deoptimisation: measured on a worker
/// rendering 2,800 article pages, a third of its CPU time. With these, 8% less CPU in all and
/// no slower a page (V8 11.3, Node 20).
const OPTIMIZER_FLAGS: [&str; 2] = [
    "--no-turbo-escape",
    "--max-inlined-bytecode-size-cumulative=400",
];

/// One Node render worker.
struct Worker {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    replies: Receiver<std::io::Result<Result<Reply, String>>>,
    /// The worker's stderr on its way to sitegen's (see [`crate::relay`]); taken once it ended.
    stderr: Option<Relay>,
}

impl Worker {
    /// The command that starts a worker of `script` on the bundle in `bundle_dir`; its stderr
    /// is for the caller to give.
    fn command(script: &Path, bundle_dir: &Path) -> Command {
        let mut command = Command::new("node");
        command
            // The worker collects its garbage itself as the heap grows (see worker.mjs).
            .arg("--expose-gc")
            .args(OPTIMIZER_FLAGS)
            .arg(script)
            .arg(bundle_dir)
            // The page's enhancement preloads read the client manifest from here.
            .env(bundle::OUT_DIR_ENV, bundle_dir)
            .env("NODE_ENV", "production")
            // Node reads and parses the certificates this names before it runs any script:
            // 0.1 s of every worker's start with a system's whole bundle of them. A worker
            // renders from the content it is handed and opens no connection, so it needs none.
            .env_remove("NODE_EXTRA_CA_CERTS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        command
    }

    fn spawn(script: &Path, bundle_dir: &Path) -> Result<Self> {
        let (stderr, child_stderr) = Relay::start()?;
        let mut child = Self::command(script, bundle_dir)
            .stderr(child_stderr)
            .spawn()
            .with_context(|| format!("starting the render worker {}", script.display()))?;
        interrupt::track_child(child.id());
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => anyhow::bail!("the render worker has no pipes"),
        };
        let (send, replies) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let reply = read_reply(&mut stdout);
                let end = reply.is_err();
                if send.send(reply).is_err() || end {
                    break;
                }
            }
        });
        Ok(Self {
            child,
            stdin: BufWriter::new(stdin),
            replies,
            stderr: Some(stderr),
        })
    }

    /// Sends `request` and waits at most `timeout` for the answer.
    fn call(&mut self, request: &Request<'_>, timeout: Duration) -> Result<Reply, Fault> {
        self.send(request)?;
        self.receive(timeout)
    }

    /// Sends `request`; its answer is the next one [`Worker::receive`] reads.
    fn send(&mut self, request: &Request<'_>) -> Result<(), Fault> {
        let sent = serde_json::to_writer(&mut self.stdin, request)
            .map_err(std::io::Error::other)
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        if sent.is_err() {
            return Err(self.died());
        }
        Ok(())
    }

    /// Waits at most `timeout` for the answer to the oldest request not yet answered.
    fn receive(&mut self, timeout: Duration) -> Result<Reply, Fault> {
        match self.replies.recv_timeout(timeout) {
            Ok(Ok(reply)) => reply.map_err(Fault::Protocol),
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Err(self.died()),
            Err(RecvTimeoutError::Timeout) => {
                self.stop();
                Err(Fault::Hung(timeout))
            }
        }
    }

    fn died(&mut self) -> Fault {
        let status = self
            .child
            .wait()
            .map_or_else(|e| e.to_string(), |s| s.to_string());
        interrupt::forget_child(self.child.id());
        // What the worker said as it died comes before what sitegen says of it.
        if let Some(stderr) = self.stderr.take() {
            stderr.finish();
        }
        Fault::Died(status)
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        interrupt::forget_child(self.child.id());
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("pid", &self.child.id())
            .finish()
    }
}

/// Reads a worker's next answer: a line of JSON and, when it names `html_bytes`, that many bytes
/// of HTML after it. A page's markup travels as it is rather than as a JSON string, which the
/// worker would escape and sitegen unescape, quote by quote, on every page. An error of the
/// stream ends the worker (its end is one); an answer that makes no sense is the inner error.
fn read_reply(from: &mut impl BufRead) -> std::io::Result<Result<Reply, String>> {
    let mut line = String::new();
    if from.read_line(&mut line)? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let mut reply: Reply = match serde_json::from_str(&line) {
        Ok(reply) => reply,
        Err(err) => return Ok(Err(format!("{err}: {}", truncate(&line)))),
    };
    if let Some(len) = reply.html_bytes {
        let mut html = vec![0; len];
        from.read_exact(&mut html)?;
        match String::from_utf8(html) {
            Ok(html) => reply.html = Some(html),
            Err(err) => return Ok(Err(format!("the page's HTML is not UTF-8: {err}"))),
        }
    }
    Ok(Ok(reply))
}

fn truncate(text: &str) -> &str {
    let end = text.char_indices().nth(200).map_or(text.len(), |(i, _)| i);
    &text[..end]
}

/// Where the worker script of `site_dir` is.
pub fn worker_script(site_dir: &Path) -> PathBuf {
    site_dir.join(WORKER_SCRIPT)
}

/// The site's worker script as a worker is started on it: absolute, and there.
fn site_script(site_dir: &Path) -> Result<PathBuf, RenderError> {
    let script = bundle::absolute(&worker_script(site_dir))?;
    if !script.is_file() {
        return Err(RenderError::Toolchain(format!(
            "the site has no render worker ({} is missing)",
            script.display()
        )));
    }
    Ok(script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_follows_its_answer_as_it_is_and_the_next_answer_follows_it() -> Result<()> {
        // HTML with a line break, a quote and a letter of two bytes: 20 bytes.
        let html = "<p class=\"a\">\nå</p>";
        let stream = format!(
            "{{\"status\":200,\"html_bytes\":{}}}\n{html}{{\"ok\":true}}\n{{\"status\":200,\"html_bytes\":9}}\n<p>",
            html.len()
        );
        let mut from = stream.as_bytes();
        let page = read_reply(&mut from)?.map_err(anyhow::Error::msg)?;
        assert_eq!((page.status, page.html.as_deref()), (Some(200), Some(html)));
        let next = read_reply(&mut from)?.map_err(anyhow::Error::msg)?;
        assert_eq!((next.status, next.html), (None, None));
        // A page cut short ends the worker's stream; so does its end.
        assert!(read_reply(&mut from).is_err());
        assert!(read_reply(&mut from).is_err());
        Ok(())
    }

    #[test]
    fn an_answer_that_is_no_json_is_named_by_its_text() -> Result<()> {
        let mut from = "Vike says hello\n".as_bytes();
        let answer = read_reply(&mut from)?;
        assert!(
            answer
                .as_ref()
                .is_err_and(|err| err.ends_with(": Vike says hello\n")),
            "{answer:?}"
        );
        Ok(())
    }

    #[test]
    fn a_small_site_starts_one_worker_and_grows_only_for_many_pages() {
        // The site's 63 pages start one worker, 5,479 start every allowed one.
        assert_eq!(workers_for(63, ROUTES_PER_STARTING_WORKER, 2), 1);
        assert_eq!(workers_for(5_479, ROUTES_PER_STARTING_WORKER, 2), 2);
        assert_eq!(workers_for(5_479, ROUTES_PER_STARTING_WORKER, 16), 6);
        // A rebuild rendering two pages keeps the one; a cold build of the site takes both.
        assert_eq!(workers_for(2, PAGES_PER_WORKER, 2), 1);
        assert_eq!(workers_for(63, PAGES_PER_WORKER, 2), 2);
        // Nothing to render, or `--jobs 1`: one.
        assert_eq!(workers_for(0, PAGES_PER_WORKER, 2), 1);
        assert_eq!(workers_for(5_479, PAGES_PER_WORKER, 1), 1);
    }

    #[test]
    fn a_site_without_the_worker_script_is_named_by_its_path() {
        let site = tempfile::tempdir().expect("a temporary site");
        let missing = site.path().join(WORKER_SCRIPT);
        match site_script(site.path()) {
            Err(RenderError::Toolchain(message)) => {
                assert!(
                    message.contains(&missing.display().to_string()),
                    "{message}"
                );
            }
            other => panic!("expected the missing script named, got {other:?}"),
        }
        std::fs::create_dir_all(missing.parent().expect("a folder")).expect("the folder");
        std::fs::write(&missing, "").expect("the script");
        assert_eq!(site_script(site.path()).ok(), Some(missing));
    }

    #[test]
    fn a_worker_renders_for_production_without_the_certificates_only_connections_need() {
        use std::ffi::OsStr;
        let command = Worker::command(Path::new("worker.mjs"), Path::new("bundle"));
        let envs: HashMap<&OsStr, Option<&OsStr>> = command.get_envs().collect();
        assert_eq!(envs[OsStr::new("NODE_ENV")], Some(OsStr::new("production")));
        // Removed, not inherited: `None` is what `env_remove` records.
        assert_eq!(envs[OsStr::new("NODE_EXTRA_CA_CERTS")], None);
    }
}
