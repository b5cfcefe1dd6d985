//! The site's bundle: `vite build` of `site/` (the browser's assets and the server bundle the
//! render workers load), a function of the site's own files alone.
//!
//! The content never enters the bundle (the pages get it when they are rendered), so the bundle
//! is built once per version of the site's sources, lockfile and configuration and kept in the
//! cache under the hash of those inputs: a content-only build runs no Vite at all.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};

use crate::cache::{self, Cache};
use crate::compress;

/// What a build renders with.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The hash of the site's inputs; part of every rendered page's cache key.
    pub hash: String,
    /// `client/` (published as it is), `server/` (loaded by the render workers) and Vite's
    /// client manifest `assets.json`.
    pub dir: PathBuf,
    /// Whether this build ran `vite build` (false when the cache had the bundle).
    pub built: bool,
}

impl Bundle {
    /// The files the browser loads, with their `.br` and `.gz` variants.
    pub fn client_dir(&self) -> PathBuf {
        self.dir.join("client")
    }

    /// The hash of every file of [`Bundle::client_dir`] by its path there (a JSON object),
    /// checked before one is published.
    pub fn sums_file(&self) -> PathBuf {
        self.dir.join(SUMS_FILE)
    }
}

/// See [`Bundle::sums_file`].
const SUMS_FILE: &str = "client.sums";

/// Lists the hash of every file under `client` in `sums`.
fn write_sums(client: &Path, sums: &Path) -> Result<()> {
    let mut list = std::collections::BTreeMap::new();
    for entry in walkdir::WalkDir::new(client) {
        let entry = entry.with_context(|| format!("reading {}", client.display()))?;
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(client)?
                .to_string_lossy()
                .into_owned();
            let bytes = std::fs::read(entry.path())
                .with_context(|| format!("reading {}", entry.path().display()))?;
            list.insert(rel, cache::hash_hex(&[&bytes]));
        }
    }
    let bytes = serde_json::to_vec(&list).context("listing the bundle's files")?;
    std::fs::write(sums, bytes).with_context(|| format!("writing {}", sums.display()))
}

/// Why there is no bundle.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// Node.js or the site's packages are missing.
    #[error("{0}")]
    Toolchain(String),
    /// `vite build` exited unsuccessfully; its output says why.
    #[error("the site's bundle (vite build in {site}) failed with {status}")]
    Vite {
        /// The Vike project that failed to build.
        site: String,
        /// How it exited.
        status: std::process::ExitStatus,
    },
    /// Reading the site or writing the cache failed.
    #[error(transparent)]
    Files(#[from] anyhow::Error),
}

/// The variable through which the site's Vite config and the render workers learn where the
/// bundle is (`site/lib/buildOutput.ts`).
pub const OUT_DIR_ENV: &str = "SITEGEN_OUT_DIR";

/// The site's folder for the dev server's files (`site/.sitegen`); builds never write there.
pub const DEV_DIR: &str = ".sitegen";

/// Entries of the site that are not inputs of its bundle: installed packages (their lockfile
/// stands for them), what builds, dev servers and test runs write, and the browser tests and
/// benchmarks, which no page imports.
pub const NOT_INPUTS: [&str; 11] = [
    "node_modules",
    "dist",
    DEV_DIR,
    "test-results",
    "playwright-report",
    "tests",
    "tests-dev",
    "tests-static",
    "bench",
    "playwright.config.ts",
    "playwright.dev.config.ts",
];

/// Files under `node_modules` that are inputs all the same: npm's record of what is installed.
const INSTALLED_PACKAGES: &str = "node_modules/.package-lock.json";

/// Changes whenever the way a bundle is built or laid out in the cache changes.
const BUNDLE_FORMAT: &str = "sitegen-bundle-3";

/// The site's files that its bundle is built from (but [`NOT_INPUTS`]), by path relative to
/// the site, in a stable order.
fn site_files(site_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    let walk = walkdir::WalkDir::new(site_dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() != 1 || !NOT_INPUTS.iter().any(|name| entry.file_name() == *name)
        });
    for entry in walk {
        let entry = entry.with_context(|| format!("reading {}", site_dir.display()))?;
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(site_dir).unwrap_or(entry.path());
            files.push((rel.to_string_lossy().into_owned(), entry.path().to_owned()));
        }
    }
    Ok(files)
}

/// The hash of everything the bundle of `site_dir` is built from: its [`site_files`], the
/// installed packages' record, the Node.js version, and where those packages are (the bundle
/// loads them through a link, [`packages_of`]). Not where the site is: Vite builds a copy of
/// it in a scratch folder, so two copies of a site that share their packages (a test's copy
/// whose `node_modules` links to the repository's) share their bundle.
pub fn inputs_hash(site_dir: &Path, node_version: &str) -> Result<String> {
    let site_dir = &absolute(site_dir)?;
    let mut files = site_files(site_dir)?;
    let installed = site_dir.join(INSTALLED_PACKAGES);
    if installed.is_file() {
        files.push((INSTALLED_PACKAGES.to_owned(), installed));
    }
    let mut parts: Vec<Vec<u8>> = vec![
        BUNDLE_FORMAT.into(),
        node_version.into(),
        packages_of(site_dir)?
            .as_os_str()
            .as_encoded_bytes()
            .to_vec(),
    ];
    for (name, path) in files {
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        parts.push(name.into_bytes());
        parts.push(bytes);
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Ok(cache::hash_hex(&parts))
}

/// What [`prepare`] found: the bundle in the cache, or one to build.
#[derive(Debug)]
pub enum Prepared {
    Cached(Bundle),
    ToBuild(ToBuild),
}

/// A bundle the cache does not have, with its toolchain found: [`ToBuild::run`] builds it.
#[derive(Debug)]
pub struct ToBuild {
    site_dir: PathBuf,
    vite: PathBuf,
    hash: String,
    dir: PathBuf,
}

/// The bundle of `site_dir` if the cache has it, or what building it takes ([`ToBuild::run`]).
/// The quick part: it finds Node.js and the site's packages (a [`BundleError::Toolchain`] if they
/// are missing) and hashes the inputs, so that a build can fail at once on those and run the
/// slow `vite build` beside other work.
pub fn prepare(site_dir: &Path, cache: &Cache) -> Result<Prepared, BundleError> {
    let node_version = node_version()?;
    let vite = vite_entry(site_dir)?;
    let hash = inputs_hash(site_dir, &node_version)?;
    let dir = cache.bundle_dir(&hash);
    if dir.join(SUMS_FILE).is_file() {
        return Ok(Prepared::Cached(Bundle {
            hash,
            dir,
            built: false,
        }));
    }
    Ok(Prepared::ToBuild(ToBuild {
        site_dir: site_dir.to_owned(),
        vite,
        hash,
        dir,
    }))
}

impl ToBuild {
    /// Runs `vite build` and keeps the bundle in `cache`. Vite's output is shown as one block
    /// once it ends (it may run beside other steps that report their progress), or only on
    /// failure when `quiet`.
    pub fn run(self, cache: &Cache, quiet: bool) -> Result<Bundle, BundleError> {
        let Self {
            site_dir,
            vite,
            hash,
            dir,
        } = self;
        let work = cache.scratch("bundle-")?;
        let _interrupted = crate::interrupt::track_dir(work.path().to_owned());
        let out = work.path().join("bundle");
        let site = absolute(&site_dir)?;
        let copy = work.path().join("site");
        copy_site(&site, &copy)?;
        // Its output is read through pipes of its own: given sitegen's stderr, Node would make it
        // non-blocking for sitegen too (see [`crate::relay`]).
        let output = Command::new("node")
            .arg(absolute(&vite)?)
            .arg("build")
            .current_dir(&copy)
            // Vike resolves the output folder against the site, so it is given relative to it.
            .env(OUT_DIR_ENV, relative_to(&out, &copy))
            .stdin(Stdio::null())
            .output()
            .map_err(spawn_error(&site))?;
        if !quiet || !output.status.success() {
            eprint!("{}", String::from_utf8_lossy(&output.stdout));
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
        }
        if !output.status.success() {
            return Err(BundleError::Vite {
                site: site_dir.display().to_string(),
                status: output.status,
            });
        }
        // The browser's files are compressed once per bundle, not once per build.
        compress::compress_dir(&out.join("client"))?;
        write_sums(&out.join("client"), &out.join(SUMS_FILE))?;
        // The server bundle imports the site's packages by name: Node finds them through this link.
        link_packages(&packages_of(&site)?, &out.join("node_modules"))?;
        std::fs::create_dir_all(dir.parent().unwrap_or(cache.root()))
            .with_context(|| format!("creating {}", dir.display()))?;
        if let Err(err) = std::fs::rename(&out, &dir) {
            // Another build of the same site finished first: its bundle is the same.
            if !dir.join(SUMS_FILE).is_file() {
                return Err(BundleError::Files(
                    anyhow::Error::new(err)
                        .context(format!("moving the bundle to {}", dir.display())),
                ));
            }
        }
        Ok(Bundle {
            hash,
            dir,
            built: true,
        })
    }
}

/// A copy of the site's [`site_files`] at `copy`, its packages linked, for `vite build`: Vite
/// and Vike write temporary files beside the sources they load, so they build a copy and nothing
/// is written into the site (which may be read-only, or being edited meanwhile).
pub(crate) fn copy_site(site: &Path, copy: &Path) -> Result<()> {
    for (rel, path) in site_files(site)? {
        let to = copy.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::copy(&path, &to).with_context(|| format!("copying {}", path.display()))?;
    }
    link_packages(&site.join("node_modules"), &copy.join("node_modules"))?;
    // Tailwind finds the classes the site uses by scanning the folder Vite builds in, and
    // leaves out what a `.gitignore` of the folders above it ignores: a cache inside a
    // checkout (`--cache-dir target/cache`, ignored there) would give CSS without the
    // site's classes. A `.git` here is where it stops looking up.
    std::fs::create_dir(copy.join(".git"))
        .with_context(|| format!("creating {}", copy.join(".git").display()))?;
    Ok(())
}

/// The site's installed packages, links resolved: what a bundle's `node_modules` links to, so
/// that it outlives a copy of the site whose `node_modules` is itself a link. The folder as
/// named when it cannot be resolved (not installed yet: the build stops on that anyway).
fn packages_of(site_dir: &Path) -> Result<PathBuf> {
    let packages = absolute(site_dir)?.join("node_modules");
    Ok(packages.canonicalize().unwrap_or(packages))
}

fn link_packages(packages: &Path, link: &Path) -> Result<()> {
    std::os::unix::fs::symlink(packages, link)
        .with_context(|| format!("linking {} to {}", link.display(), packages.display()))
}

pub(crate) fn spawn_error(site: &Path) -> impl Fn(std::io::Error) -> BundleError + '_ {
    move |err| BundleError::Toolchain(format!("running vite build in {}: {err}", site.display()))
}

/// `node --version`, or says how to install Node.js. Asked once per process: starting Node
/// takes tens of milliseconds, and the bundle's hash and the render pool both need it.
pub fn node_version() -> Result<String, BundleError> {
    static VERSION: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    VERSION
        .get_or_init(|| match Command::new("node").arg("--version").output() {
            Ok(out) if out.status.success() => {
                Some(String::from_utf8_lossy(&out.stdout).trim().into())
            }
            _ => None,
        })
        .clone()
        .ok_or_else(|| {
            BundleError::Toolchain(
                "`node` was not found on PATH: install Node.js 20 or newer, then run `make deps`"
                    .into(),
            )
        })
}

/// Finds Vite's command-line entry in the site's packages, or says how to install them.
pub(crate) fn vite_entry(site_dir: &Path) -> Result<PathBuf, BundleError> {
    let entry = site_dir.join("node_modules/vite/bin/vite.js");
    if entry.is_file() {
        Ok(entry)
    } else {
        Err(BundleError::Toolchain(format!(
            "the site's Node packages are not installed ({} is missing): run `make deps` \
             (npm ci in {})",
            entry.display(),
            site_dir.display()
        )))
    }
}

/// `path` made absolute against the working directory.
pub fn absolute(path: &Path) -> Result<PathBuf> {
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

    #[test]
    fn the_bundle_hash_follows_the_site_files_but_not_its_outputs() -> Result<()> {
        let site = tempfile::tempdir()?;
        let write = |rel: &str, text: &str| -> Result<()> {
            let path = site.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap_or(site.path()))?;
            Ok(std::fs::write(path, text)?)
        };
        write("pages/index/+Page.tsx", "export default () => 'a'")?;
        write("node_modules/.package-lock.json", "{}")?;
        let first = inputs_hash(site.path(), "v20")?;
        write("dist/client/index.html", "built")?;
        write("test-results/x.txt", "ran")?;
        write("tests/home.spec.ts", "test('a', () => {})")?;
        write("node_modules/react/index.js", "installed")?;
        assert_eq!(first, inputs_hash(site.path(), "v20")?);
        assert_ne!(first, inputs_hash(site.path(), "v22")?);
        write("node_modules/.package-lock.json", "{\"x\":1}")?;
        let reinstalled = inputs_hash(site.path(), "v20")?;
        assert_ne!(first, reinstalled);
        write("pages/index/+Page.tsx", "export default () => 'b'")?;
        assert_ne!(reinstalled, inputs_hash(site.path(), "v20")?);
        Ok(())
    }

    #[test]
    fn copies_of_a_site_sharing_its_packages_share_its_bundle() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let write = |rel: &str, text: &str| -> Result<()> {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap_or(dir.path()))?;
            Ok(std::fs::write(path, text)?)
        };
        for site in ["a", "b"] {
            write(
                &format!("{site}/pages/index/+Page.tsx"),
                "export default () => 'a'",
            )?;
        }
        write("packages/.package-lock.json", "{}")?;
        write("own/.package-lock.json", "{}")?;
        std::os::unix::fs::symlink(
            dir.path().join("packages"),
            dir.path().join("a/node_modules"),
        )?;
        std::os::unix::fs::symlink(
            dir.path().join("packages"),
            dir.path().join("b/node_modules"),
        )?;
        let a = inputs_hash(&dir.path().join("a"), "v20")?;
        assert_eq!(a, inputs_hash(&dir.path().join("b"), "v20")?);
        // The same files over packages installed elsewhere: a bundle of its own.
        std::fs::remove_file(dir.path().join("b/node_modules"))?;
        std::os::unix::fs::symlink(dir.path().join("own"), dir.path().join("b/node_modules"))?;
        assert_ne!(a, inputs_hash(&dir.path().join("b"), "v20")?);
        Ok(())
    }
}
