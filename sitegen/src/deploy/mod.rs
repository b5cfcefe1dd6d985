//! `sitegen deploy`: publishes a build directory to a bucket of any S3-compatible store
//! (AWS S3, Cloudflare R2, MinIO, Backblaze B2, Garage...), as a list of named steps:
//!
//! 1. [`local`]: the objects the build becomes: the gzip variant the build wrote as the body
//!    of each compressed file (the `.br`/`.gz` files are never objects of their own),
//!    `Content-Type` with charset, `Cache-Control` from the build's `_headers`.
//! 2. [`s3`]: one listing of the bucket under the prefix (ETags included, no request per
//!    object).
//! 3. [`plan`]: the diff: upload what is new or whose bytes changed (ETag against MD5), delete
//!    what the build no longer has.
//! 4. The guards, each stopping the deploy before any change: a page the bucket serves that
//!    the build no longer has and no redirect of its `_redirects` answers (unless
//!    `--allow-removals`), and more deletions than `--max-deletes`.
//! 5. Uploads, concurrently, phase after phase: assets, then pages, then the sitemap, robots
//!    and feed, so a visitor never gets a page whose assets are missing; deletions last, so
//!    the old pages keep working until the new ones are in place. A deploy that fails
//!    part-way leaves the old site working, and the next run uploads what is still missing.
//! 6. [`cloudfront`]: invalidation of exactly the changed paths, when asked.

pub mod cloudfront;
pub mod credentials;
pub mod kvs;
pub mod local;
pub mod plan;
pub mod previews;
pub mod s3;
pub mod sigv4;
pub mod target;

use std::fmt;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};

use self::local::{LocalObject, Phase};
use self::plan::{Plan, Upload};
use self::s3::{Retry, S3Store};
use self::target::Target;
use crate::redirects::Rules;

/// What `--max-deletes` is unless raised.
pub const DEFAULT_MAX_DELETES: usize = 256;

/// What `--concurrency` is unless set.
pub const DEFAULT_CONCURRENCY: u16 = 16;

/// What `sitegen deploy` was asked to do.
#[derive(Debug, Clone)]
pub struct DeployOptions {
    /// The build directory.
    pub dir: PathBuf,
    /// The bucket and prefix.
    pub target: Target,
    /// The store's address; `None` for AWS S3 in the region.
    pub endpoint: Option<String>,
    /// Uploads in flight at once.
    pub concurrency: usize,
    /// The most objects a deploy deletes; beyond, it changes nothing and fails.
    pub max_deletes: usize,
    /// List what would be uploaded and deleted, and why; change nothing.
    pub dry_run: bool,
    /// Upload every object, changed or not (after a change of the cache rules).
    pub force: bool,
    /// Delete pages the bucket serves that the build no longer has and that no alias or
    /// `redirects.yaml` entry answers; without it such a deploy stops before any change.
    pub allow_removals: bool,
    /// The CloudFront distribution whose cache is invalidated for the changed paths.
    pub invalidate: Option<cloudfront::Distribution>,
    /// How progress is shown.
    pub progress: Progress,
    /// How failed requests are retried.
    pub retry: Retry,
}

impl DeployOptions {
    /// A deploy of `dir` to `target` (AWS S3) as `sitegen deploy` makes it with no flags,
    /// without progress output.
    pub fn new(dir: PathBuf, target: Target) -> Self {
        Self {
            dir,
            target,
            endpoint: None,
            concurrency: usize::from(DEFAULT_CONCURRENCY),
            max_deletes: DEFAULT_MAX_DELETES,
            dry_run: false,
            force: false,
            allow_removals: false,
            invalidate: None,
            progress: Progress::Quiet,
            retry: Retry::default(),
        }
    }
}

/// How a deploy shows its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// A progress bar, for a terminal.
    Bar,
    /// One line per object written or deleted, for CI logs.
    Lines,
    /// Nothing but the summary.
    Quiet,
}

/// What a deploy did (or, in a dry run, would do).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Objects written.
    pub uploaded: usize,
    /// Objects the bucket already had byte for byte.
    pub unchanged: usize,
    /// Objects deleted.
    pub deleted: usize,
    /// Body bytes uploaded.
    pub bytes: u64,
    /// HTTP requests sent to the store, retries included.
    pub requests: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The paths invalidated in the CDN, if any.
    pub invalidated: Vec<String>,
    /// Whether nothing was changed because it was a dry run.
    pub dry_run: bool,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb =
            |done: &'static str, would: &'static str| if self.dry_run { would } else { done };
        write!(
            f,
            "{}{} {}, {} unchanged, {} {}; {} in {} requests, {:.2} s",
            if self.dry_run { "dry run: " } else { "" },
            verb("uploaded", "would upload"),
            self.uploaded,
            self.unchanged,
            verb("deleted", "would delete"),
            self.deleted,
            human_bytes(self.bytes),
            self.requests,
            self.elapsed.as_secs_f64(),
        )?;
        if !self.invalidated.is_empty() {
            write!(f, "; invalidated {} CDN paths", self.invalidated.len())?;
        }
        Ok(())
    }
}

/// Publishes `options.dir` to `options.target`, signing with `found`'s credentials.
pub fn deploy(options: &DeployOptions, found: &credentials::Found) -> Result<Summary> {
    let started = Instant::now();
    let target = &options.target;
    local::ensure_build(&options.dir)?;
    let store = S3Store::new(
        options.endpoint.as_deref(),
        &found.region,
        &target.bucket,
        &found.credentials,
        options.retry,
    )?;
    // The listing waits on the store while the build's files are read and hashed.
    let (objects, remote) = std::thread::scope(|scope| {
        let listing = scope.spawn(|| store.list(&target.prefix));
        let objects = local::objects(&options.dir);
        let remote = listing
            .join()
            .map_err(|_| anyhow!("listing {target}: the listing thread panicked"))?;
        let objects = objects?;
        let mut remote = remote.map_err(|e| anyhow!("listing {target}: {e}"))?;
        // The previews beside the site are theirs to change: a deploy neither deletes them
        // nor counts them among the pages it would drop.
        remote.retain(|key, _| !previews::is_under_previews(&key[target.prefix.len()..]));
        Ok::<_, anyhow::Error>((objects, remote))
    })?;
    let plan = plan::diff(&objects, &remote, &target.prefix, options.force);
    let dropped = Rules::load(&options.dir)?.uncovered_pages(
        plan.deletions
            .iter()
            .filter_map(|key| key.strip_prefix(&target.prefix)),
    );
    let refuse_removals = !dropped.is_empty() && !options.allow_removals;
    if refuse_removals && !options.dry_run {
        return Err(removal_guard(&dropped, options));
    }
    let too_many_deletions = plan.deletions.len() > options.max_deletes;
    if too_many_deletions && !options.dry_run {
        return Err(deletion_guard(&plan, options));
    }
    let mut summary = Summary {
        unchanged: plan.unchanged,
        dry_run: options.dry_run,
        ..Summary::default()
    };
    if options.dry_run {
        for upload in &plan.uploads {
            println!(
                "would upload {} ({}, {}, {})",
                upload.key,
                upload.reason,
                human_bytes(upload.object.len),
                describe(upload.object)
            );
        }
        for key in &plan.deletions {
            println!("would delete {key} (not in the build)");
        }
        if too_many_deletions {
            return Err(deletion_guard(&plan, options));
        }
        if refuse_removals {
            return Err(removal_guard(&dropped, options));
        }
        summary.uploaded = plan.uploads.len();
        summary.deleted = plan.deletions.len();
        summary.bytes = plan.uploads.iter().map(|u| u.object.len).sum();
    } else {
        upload_all(&store, &plan, options)?;
        summary.uploaded = plan.uploads.len();
        if !plan.deletions.is_empty() {
            store.delete(&plan.deletions).map_err(|e| {
                anyhow!(
                    "deleting {} old objects of {target}: {e}",
                    plan.deletions.len()
                )
            })?;
            if options.progress == Progress::Lines {
                for key in &plan.deletions {
                    println!("deleted {key} (not in the build)");
                }
            }
            summary.deleted = plan.deletions.len();
        }
        summary.bytes = store.counters.bytes_up.load(Ordering::Relaxed);
    }
    summary.requests = store.counters.requests.load(Ordering::Relaxed);
    if let Some(distribution) = &options.invalidate {
        let paths = cloudfront::changed_paths(&plan, &target.prefix);
        if !paths.is_empty() && !options.dry_run {
            distribution.invalidate(&paths, &found.credentials)?;
        }
        summary.invalidated = paths;
    }
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// Why a deploy that would drop pages no redirect answers stops.
fn removal_guard(dropped: &[String], options: &DeployOptions) -> anyhow::Error {
    anyhow!(
        "the build no longer has these pages of {}, and no redirect answers them: nothing \
         was uploaded or deleted.\n{}\nKeep each one working: add its path to the `aliases` \
         of the page that replaces it, or mark it `gone` in content/redirects.yaml; or, to let \
         them go unannounced, run again with --allow-removals",
        options.target,
        dropped
            .iter()
            .map(|path| format!("  {path}"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Why a deploy that would delete more than `--max-deletes` objects stops.
fn deletion_guard(plan: &Plan<'_>, options: &DeployOptions) -> anyhow::Error {
    anyhow!(
        "the build no longer has {} objects of {}, more than --max-deletes {}: nothing \
         was uploaded or deleted (first: {}); if that is right, run again with \
         --max-deletes {}",
        plan.deletions.len(),
        options.target,
        options.max_deletes,
        plan.deletions.first().map_or("", String::as_str),
        plan.deletions.len(),
    )
}

/// `text/html; charset=utf-8, gzip, public, max-age=0, must-revalidate`.
fn describe(object: &LocalObject) -> String {
    let mut parts = vec![object.content_type.clone()];
    if let Some(encoding) = object.encoding {
        parts.push(encoding.token().to_owned());
    }
    if let Some(cache) = &object.cache_control {
        parts.push(cache.clone());
    }
    parts.join(", ")
}

/// Uploads the plan's objects phase after phase; a phase with a failure ends the deploy
/// before the next one starts, so no page goes up before its assets.
fn upload_all(store: &S3Store, plan: &Plan<'_>, options: &DeployOptions) -> Result<()> {
    let bar = (options.progress == Progress::Bar && !plan.uploads.is_empty()).then(|| {
        let bar = indicatif::ProgressBar::new(plan.uploads.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} {msg:16} [{bar:40}] {pos}/{len} objects, {elapsed}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    });
    let result = (|| {
        for phase in Phase::ORDER {
            let uploads: Vec<&Upload<'_>> = plan.phase(phase).collect();
            if uploads.is_empty() {
                continue;
            }
            if let Some(bar) = &bar {
                bar.set_message(phase.name());
            }
            upload_phase(store, &uploads, options, bar.as_ref(), phase)?;
        }
        Ok(())
    })();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}

fn upload_phase(
    store: &S3Store,
    uploads: &[&Upload<'_>],
    options: &DeployOptions,
    bar: Option<&indicatif::ProgressBar>,
    phase: Phase,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failures: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
    let workers = options.concurrency.clamp(1, uploads.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let Some(upload) = uploads.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    match upload_one(store, upload) {
                        Ok(()) => {
                            if let Some(bar) = bar {
                                bar.inc(1);
                            } else if options.progress == Progress::Lines {
                                println!(
                                    "uploaded {} ({}, {})",
                                    upload.key,
                                    upload.reason,
                                    human_bytes(upload.object.len)
                                );
                            }
                        }
                        Err(err) => {
                            stop.store(true, Ordering::Relaxed);
                            if let Ok(mut failures) = failures.lock() {
                                failures.push((upload.key.clone(), err));
                            }
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_default();
    if let Some((key, err)) = failures.first() {
        bail!(
            "uploading {key} to {}: {err}; the {} of this deploy and all after them are not \
             uploaded and nothing was deleted, so the site in the bucket still works: run the \
             deploy again to finish",
            options.target,
            phase.name()
        );
    }
    Ok(())
}

fn upload_one(store: &S3Store, upload: &Upload<'_>) -> Result<(), String> {
    let object = upload.object;
    let bytes = std::fs::read(&object.source)
        .map_err(|e| format!("reading {}: {e}", object.source.display()))?;
    let mut headers = vec![("content-type", object.content_type.as_str())];
    if let Some(encoding) = object.encoding {
        headers.push(("content-encoding", encoding.token()));
    }
    if let Some(cache) = &object.cache_control {
        headers.push(("cache-control", cache.as_str()));
    }
    if let Some(location) = &object.redirect {
        headers.push(("x-amz-website-redirect-location", location.as_str()));
    }
    store
        .put(&upload.key, &bytes, &headers)
        .map_err(|e| e.to_string())
}

/// `1.2 MB`, `830 B`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_reads_as_one_line() {
        let summary = Summary {
            uploaded: 3,
            unchanged: 120,
            deleted: 1,
            bytes: 48_200,
            requests: 5,
            elapsed: Duration::from_millis(1250),
            invalidated: vec![],
            dry_run: false,
        };
        assert_eq!(
            summary.to_string(),
            "uploaded 3, 120 unchanged, deleted 1; 48.2 kB in 5 requests, 1.25 s"
        );
        let dry = Summary {
            dry_run: true,
            ..summary
        };
        assert!(
            dry.to_string()
                .starts_with("dry run: would upload 3, 120 unchanged, would delete 1;")
        );
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(2_500_000), "2.5 MB");
    }
}
