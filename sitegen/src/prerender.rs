//! The prerender: writes the content JSON the Vike pages read and runs `vite build` in the
//! site, whose client output (one HTML file per route, the assets) is the site.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::Context;
use tempfile::TempDir;

use crate::build::{BuildError, Stage};
use crate::content::Content;

/// The site's scratch directory for sitegen's files, relative to the site (`site/.sitegen`).
/// Vike's prerender only finds its server entry inside the site, so builds work here too.
const SCRATCH_DIR: &str = ".sitegen";

/// The file name of the content JSON, in the scratch directory and in each build's.
const CONTENT_JSON: &str = "content.json";

/// The environment variable through which the site's Vite config finds the content JSON.
const CONTENT_ENV: &str = "SITEGEN_CONTENT";

/// Where `sitegen export` writes the content JSON for the site's development server
/// (`npm run dev`), which reads it there when [`CONTENT_ENV`] is not set.
pub fn dev_content_json(site_dir: &Path) -> PathBuf {
    site_dir.join(SCRATCH_DIR).join(CONTENT_JSON)
}

/// Writes the content JSON the Vike pages read, e.g. for `npm run dev`.
pub fn write_json(path: &Path, content: &Content) -> anyhow::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let json = serde_json::to_vec(content).context("serialising the content")?;
    std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))
}

/// A finished prerender: its client output, removed with the scratch directory on drop.
#[derive(Debug)]
pub struct Rendered {
    scratch: TempDir,
}

impl Rendered {
    /// The prerendered site: the HTML pages and every asset they load.
    pub fn client_dir(&self) -> PathBuf {
        self.scratch.path().join("vite/client")
    }
}

/// Renders `content` with the Vike project in `site_dir`. Vite's progress is streamed to
/// stderr, or when `quiet` shown only if the prerender fails.
pub fn render(site_dir: &Path, content: &Content, quiet: bool) -> Result<Rendered, BuildError> {
    let vite = vite_entry(site_dir)?;
    let scratch_parent = site_dir.join(SCRATCH_DIR);
    std::fs::create_dir_all(&scratch_parent)
        .with_context(|| format!("creating {}", scratch_parent.display()))
        .map_err(BuildError::during(Stage::Prerender))?;
    let scratch = tempfile::Builder::new()
        .prefix("build-")
        .tempdir_in(&scratch_parent)
        .with_context(|| format!("creating a work directory in {}", scratch_parent.display()))
        .map_err(BuildError::during(Stage::Prerender))?;
    let content_json = scratch.path().join(CONTENT_JSON);
    write_json(&content_json, content).map_err(BuildError::during(Stage::Prerender))?;
    let out = scratch.path().join("vite");

    let resolve = |path: &Path| absolute(path).map_err(BuildError::during(Stage::Prerender));
    let mut command = Command::new("node");
    command
        .arg(resolve(&vite)?)
        .arg("build")
        .current_dir(site_dir)
        .env(CONTENT_ENV, resolve(&content_json)?)
        .env(
            "SITEGEN_OUT_DIR",
            relative_to(&resolve(&out)?, &resolve(site_dir)?),
        )
        .stdin(Stdio::null());
    let site = site_dir.display().to_string();
    let spawn_error =
        |err: std::io::Error| BuildError::Toolchain(format!("running vite build in {site}: {err}"));
    if quiet {
        let output = command.output().map_err(spawn_error)?;
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
            .map_err(spawn_error)?;
        if !status.success() {
            return Err(BuildError::Render { site, status });
        }
    }
    Ok(Rendered { scratch })
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

fn absolute(path: &Path) -> anyhow::Result<PathBuf> {
    std::path::absolute(path).with_context(|| format!("resolving {}", path.display()))
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
