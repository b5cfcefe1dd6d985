//! `sitegen build`: load and validate the content, prerender the site with Vike, add the
//! site-wide files, verify every page and link, then publish atomically.
//!
//! Nothing touches the output directory until the new site is complete and verified, so a
//! failed build leaves the previous output byte for byte as it was.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, anyhow};

use crate::check;
use crate::content::{Content, ContentErrors};
use crate::outputs::{self, SitemapEntry};
use crate::publish;
use crate::report::{self, BuildReport};

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
    /// Hide the prerender's output unless it fails.
    pub quiet: bool,
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
    /// Reading or writing files failed.
    #[error(transparent)]
    Io(#[from] anyhow::Error),
}

/// What a successful build produced.
#[derive(Debug)]
pub struct Built {
    /// The validated content the site was rendered from.
    pub content: Content,
    /// Sizes per route (HTML and the JS/CSS it loads), totals and the build time.
    pub report: BuildReport,
}

/// Runs the whole pipeline. See the module documentation.
pub fn build(options: &BuildOptions) -> Result<Built, BuildError> {
    let started = Instant::now();
    let progress = |step: &str| {
        if !options.quiet {
            eprintln!("[{:>5.1}s] {step}", started.elapsed().as_secs_f64());
        }
    };
    progress("loading and validating content");
    let mut content = Content::load(&options.content_dir, &options.site_dir.join("public"))?;
    if let Some(endpoint) = &options.contact_endpoint {
        content.settings.contact_endpoint = endpoint.clone();
    }
    let vite = vite_entry(&options.site_dir)?;

    let staging = publish::staging_dir(&options.out_dir)?;
    // Scratch space for the content JSON and Vite's client/server bundles, removed on drop.
    // It lives inside the site: Vike's prerender only finds its server entry there.
    let scratch_parent = options.site_dir.join(".sitegen");
    std::fs::create_dir_all(&scratch_parent)
        .with_context(|| format!("creating {}", scratch_parent.display()))?;
    let scratch = tempfile::Builder::new()
        .prefix("build-")
        .tempdir_in(&scratch_parent)
        .with_context(|| format!("creating a work directory in {}", scratch_parent.display()))?;
    let content_json = scratch.path().join("content.json");
    write_json(&content_json, &content)?;

    let vite_out = scratch.path().join("vite");
    progress(&format!(
        "prerendering {} pages with Vike (vite build)",
        content.routes.len()
    ));
    render(options, &vite, &content_json, &vite_out)?;
    move_children(&vite_out.join("client"), staging.path())?;

    let routes: Vec<String> = content.routes.iter().map(|r| r.path.clone()).collect();
    let entries: Vec<SitemapEntry> = content
        .routes
        .iter()
        .map(|r| SitemapEntry {
            path: r.path.clone(),
            in_sitemap: r.in_sitemap,
        })
        .collect();
    outputs::write_site_files(
        staging.path(),
        &content.settings.base_url,
        &content.settings.contact_endpoint,
        &entries,
    )?;
    crate::feed::write(staging.path(), &content)?;

    progress("verifying every page and internal link");
    let check = check::check_dir(staging.path(), &routes)?;
    if !check.is_ok() {
        return Err(BuildError::Verify(check.to_string()));
    }
    publish::publish(staging, &options.out_dir)?;
    let report = report::summarize(&options.out_dir, &routes, started.elapsed())?;
    Ok(Built { content, report })
}

/// Writes the content JSON the Vike pages read (`SITEGEN_CONTENT`), e.g. for `npm run dev`.
pub fn write_json(path: &Path, content: &Content) -> anyhow::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let json = serde_json::to_vec(content).context("serialising the content")?;
    std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))
}

/// Finds Vite's command-line entry in the site's packages, or says how to install them.
fn vite_entry(site_dir: &Path) -> Result<PathBuf, BuildError> {
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => {}
        _ => {
            return Err(BuildError::Toolchain(
                "`node` was not found on PATH: install Node.js 20 or newer, then run `make deps`"
                    .into(),
            ));
        }
    }
    let entry = site_dir.join("node_modules/vite/bin/vite.js");
    if entry.is_file() {
        Ok(entry)
    } else {
        Err(BuildError::Toolchain(format!(
            "the site's Node packages are not installed ({} is missing): run `make deps` \
             (npm ci in {})",
            entry.display(),
            site_dir.display()
        )))
    }
}

/// Runs `vite build`, streaming its output unless quiet (then shown only on failure).
fn render(
    options: &BuildOptions,
    vite: &Path,
    content_json: &Path,
    out: &Path,
) -> Result<(), BuildError> {
    let mut command = Command::new("node");
    command
        .arg(absolute(vite)?)
        .arg("build")
        .current_dir(&options.site_dir)
        .env("SITEGEN_CONTENT", absolute(content_json)?)
        .env(
            "SITEGEN_OUT_DIR",
            relative_to(&absolute(out)?, &absolute(&options.site_dir)?),
        )
        .stdin(Stdio::null());
    let site = options.site_dir.display().to_string();
    if options.quiet {
        let output = command
            .output()
            .with_context(|| format!("running vite build in {site}"))?;
        if !output.status.success() {
            eprint!("{}", String::from_utf8_lossy(&output.stdout));
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            return Err(BuildError::Render {
                site,
                status: output.status,
            });
        }
    } else {
        // Progress goes to stderr, so stdout carries only the summary.
        let status = command
            .stdout(std::io::stderr())
            .status()
            .with_context(|| format!("running vite build in {site}"))?;
        if !status.success() {
            return Err(BuildError::Render { site, status });
        }
    }
    Ok(())
}

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    std::path::absolute(path).with_context(|| format!("resolving {}", path.display()))
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from)?);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// `path` expressed relative to `base` (both absolute), e.g. `../target/x` from `site/`.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let path: Vec<_> = path.components().collect();
    let base: Vec<_> = base.components().collect();
    let common = path.iter().zip(&base).take_while(|(a, b)| a == b).count();
    let mut relative: PathBuf = base[common..].iter().map(|_| "..").collect();
    relative.extend(&path[common..]);
    relative
}

/// Moves every entry of `from` into `to` (same file system, so each move is a rename).
fn move_children(from: &Path, to: &Path) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(from).with_context(|| {
        format!(
            "reading the prerendered site in {}: did the prerender run?",
            from.display()
        )
    })?;
    for entry in entries {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if std::fs::rename(entry.path(), &target).is_err() {
            // Another file system: copy instead.
            copy_tree(&entry.path(), &target).map_err(|err| {
                anyhow!(
                    "moving {} to {}: {err}",
                    entry.path().display(),
                    target.display()
                )
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_out_of_the_site_directory() {
        assert_eq!(
            relative_to(Path::new("/repo/target/e2e/x"), Path::new("/repo/site")),
            PathBuf::from("../target/e2e/x")
        );
        assert_eq!(
            relative_to(Path::new("/tmp/w/vite"), Path::new("/repo/site")),
            PathBuf::from("../../tmp/w/vite")
        );
        assert_eq!(
            relative_to(Path::new("/repo/site/dist"), Path::new("/repo/site")),
            PathBuf::from("dist")
        );
    }
}
