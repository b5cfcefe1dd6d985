//! The editor of the live site: what `sitegen build` publishes under `/admin/` when `site.yaml`
//! has `cms` (and nothing at all without it).
//!
//! - `admin/index.html`: the editor's page (`site/admin/index.html` as Vite builds it), with a
//!   Content-Security-Policy of its own in a `<meta>`: Decap styles itself inline and talks to
//!   GitHub, which the site's policy forbids, so `_headers` detaches the site's policy from
//!   `/admin/*` ([`HEADERS`]) and this one stands in its place.
//! - `admin/config.json`: the configuration generated from the content model
//!   ([`super::config`]), editing the repository of `cms` through GitHub, each change a pull
//!   request.
//! - `admin/assets/`: the editor's bundle, `vite build --config admin/vite.config.ts` of the
//!   site. It is a function of the site's files alone, so it is built once per version of them
//!   and kept in the cache; a build without `cms` never runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, Result};

use crate::bundle::{self, BundleError};
use crate::cache::{Cache, Stored};
use crate::content::settings::Cms;

/// The folder of the output the editor is published in: `/admin/`.
pub const DIR: &str = "admin";

/// The editor's Vite configuration, relative to the site.
const VITE_CONFIG: &str = "admin/vite.config.ts";

/// The variable through which `admin/vite.config.ts` learns where to write.
const OUT_ENV: &str = "SITEGEN_ADMIN_OUT";

/// Changes whenever the editor's bundle is built or laid out in the cache differently.
const FORMAT: &str = "sitegen-editor-1";

/// Written into a bundle's folder last: a folder without it is no bundle.
const DONE: &str = ".done";

/// The `_headers` rules of `/admin/`, added when the editor is published: never indexed; the
/// editor's own policy (in its page) in place of the site's; no opener policy, which would cut
/// the GitHub sign-in window off from the editor that opened it (the proxy answers through
/// `window.opener`); its hashed files kept like the site's (`cache_hashed`), its page and
/// configuration revalidated (`cache_revalidated`).
pub fn headers(cache_hashed: &str, cache_revalidated: &str) -> String {
    format!(
        "\n# The content editor (site.yaml's `cms`): never indexed. Decap styles itself inline and\n\
         # talks to GitHub, which the site's policy forbids: its page brings its own policy. Its\n\
         # sign-in window answers through window.opener, which the opener policy would cut.\n\
         /{DIR}/*\n  X-Robots-Tag: noindex, nofollow\n  ! Content-Security-Policy\n  ! Cross-Origin-Opener-Policy\n\
         /{DIR}/assets/*\n  Cache-Control: {cache_hashed}\n\
         /{DIR}/{CONFIG_FILE}\n  Cache-Control: {cache_revalidated}\n"
    )
}

/// The configuration's file under [`DIR`] (what `site/admin/cms.ts` fetches).
const CONFIG_FILE: &str = "config.json";

/// The editor's files, each stored in the cache's file store, by their path in the output
/// (`admin/index.html`): the bundle of the site at `site_dir` (built if the cache lacks it),
/// its page with the policy for `cms`, and the configuration of the content at `content_dir`.
pub fn files(
    cache: &Cache,
    site_dir: &Path,
    content_dir: &Path,
    cms: &Cms,
    quiet: bool,
) -> Result<Vec<(String, Stored)>> {
    let built = editor_bundle(cache, site_dir, quiet)?;
    let store = cache.files();
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(built.join(DIR)).sort_by_file_name() {
        let entry = entry.with_context(|| format!("reading {}", built.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(&built)?
            .to_string_lossy()
            .into_owned();
        let mut bytes = std::fs::read(entry.path())
            .with_context(|| format!("reading {}", entry.path().display()))?;
        if rel == format!("{DIR}/index.html") {
            bytes = with_policy(&String::from_utf8(bytes)?, cms)?.into_bytes();
        }
        files.push((rel.clone(), store.put(&rel, &bytes)?));
    }
    let config = super::config(content_dir, super::CONTENT_PATH, super::Backend::live(cms))?;
    let json = serde_json::to_vec(&config).context("writing the editor's configuration")?;
    let rel = format!("{DIR}/{CONFIG_FILE}");
    files.push((rel.clone(), store.put(&rel, &json)?));
    Ok(files)
}

/// The editor's policy: its own scripts, with `eval` (Decap checks its configuration with ajv,
/// which compiles each JSON Schema into a function: without it the editor stops on "Error
/// loading the CMS configuration") and WebAssembly (its picture encoder), inline styles, pictures from anywhere (the repository's, GitHub's avatars), and
/// requests to GitHub's API and to the OAuth proxy that signs editors in.
fn policy(cms: &Cms) -> String {
    let proxy = cms.base_url.as_deref().unwrap_or(NETLIFY_AUTH);
    format!(
        "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob: https:; font-src 'self' data:; \
         connect-src 'self' https://api.github.com {proxy}; frame-src 'self' blob:; \
         base-uri 'self'; object-src 'none'; form-action 'none'"
    )
}

/// Decap's GitHub sign-in when `cms` names no proxy.
const NETLIFY_AUTH: &str = "https://api.netlify.com";

/// The page as Vite built it, with [`policy`] right after its charset, before anything it
/// governs.
fn with_policy(page: &str, cms: &Cms) -> Result<String> {
    const CHARSET: &str = "<meta charset=\"utf-8\">";
    let at = page
        .find(CHARSET)
        .map(|i| i + CHARSET.len())
        .with_context(|| format!("site/admin/index.html has no `{CHARSET}` to follow"))?;
    let meta = format!(
        "\n<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        policy(cms)
    );
    let mut page = page.to_owned();
    page.insert_str(at, &meta);
    Ok(page)
}

/// The folder of the editor's bundle of the site at `site_dir` in the cache (`admin/` under
/// it), built now if the cache does not have it.
fn editor_bundle(cache: &Cache, site_dir: &Path, quiet: bool) -> Result<PathBuf, BundleError> {
    let node_version = bundle::node_version()?;
    let vite = bundle::vite_entry(site_dir)?;
    let inputs = bundle::inputs_hash(site_dir, &node_version)?;
    let hash = crate::cache::hash_hex(&[FORMAT.as_bytes(), inputs.as_bytes()]);
    let dir = cache.bundle_dir(&format!("editor-{hash}"));
    if dir.join(DONE).is_file() {
        return Ok(dir);
    }
    let work = cache.scratch("editor-")?;
    let _interrupted = crate::interrupt::track_dir(work.path().to_owned());
    let site = bundle::absolute(site_dir)?;
    let copy = work.path().join("site");
    bundle::copy_site(&site, &copy)?;
    let out = work.path().join("editor");
    let output = Command::new("node")
        .arg(bundle::absolute(&vite)?)
        .args(["build", "--config", VITE_CONFIG])
        .current_dir(&copy)
        .env(OUT_ENV, &out)
        .stdin(Stdio::null())
        .output()
        .map_err(bundle::spawn_error(&site))?;
    if !quiet || !output.status.success() {
        eprint!("{}", String::from_utf8_lossy(&output.stdout));
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
    }
    if !output.status.success() {
        return Err(BundleError::Vite {
            site: format!("{} ({VITE_CONFIG})", site_dir.display()),
            status: output.status,
        });
    }
    std::fs::write(out.join(DONE), b"").context("marking the editor's bundle done")?;
    std::fs::create_dir_all(dir.parent().unwrap_or(cache.root()))
        .with_context(|| format!("creating {}", dir.display()))?;
    if let Err(err) = std::fs::rename(&out, &dir) {
        // Another build of the same site finished first: its bundle is the same.
        if !dir.join(DONE).is_file() {
            return Err(BundleError::Files(
                anyhow::Error::new(err).context(format!("moving the editor to {}", dir.display())),
            ));
        }
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cms(base_url: Option<&str>) -> Cms {
        Cms {
            repo: "acme/site".into(),
            branch: "main".into(),
            base_url: base_url.map(str::to_owned),
            auth_endpoint: None,
        }
    }

    #[test]
    fn the_page_gets_the_policy_before_its_scripts_naming_the_sign_in_proxy() {
        let page = "<html><head>\n<meta charset=\"utf-8\">\n<script src=x></script></head></html>";
        let with = with_policy(page, &cms(Some("https://auth.example.com"))).expect("page");
        assert!(with.starts_with(
            "<html><head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\""
        ));
        assert!(
            with.contains("connect-src 'self' https://api.github.com https://auth.example.com;")
        );
        let netlify = with_policy(page, &cms(None)).expect("page");
        assert!(netlify.contains("https://api.github.com https://api.netlify.com;"));
        assert!(with_policy("<html></html>", &cms(None)).is_err());
    }

    #[test]
    fn the_headers_never_index_the_editor_and_lift_the_site_policy_from_it_alone() {
        let text = format!(
            "/*\n  Content-Security-Policy: default-src 'self'\n  Cross-Origin-Opener-Policy: same-origin\n{}",
            headers("public, immutable", "no-cache")
        );
        let rules = crate::headers::HeaderRules::parse(&text).expect("parses");
        let csp = axum::http::HeaderName::from_static("content-security-policy");
        let robots = axum::http::HeaderName::from_static("x-robots-tag");
        let cache = axum::http::HeaderName::from_static("cache-control");
        assert_eq!(
            rules.value(&["/admin/"], &robots).as_deref(),
            Some("noindex, nofollow")
        );
        assert_eq!(rules.value(&["/admin/"], &csp), None);
        let opener = axum::http::HeaderName::from_static("cross-origin-opener-policy");
        assert_eq!(rules.value(&["/admin/"], &opener), None);
        assert_eq!(
            rules.value(&["/about/"], &csp).as_deref(),
            Some("default-src 'self'")
        );
        assert_eq!(rules.value(&["/about/"], &robots), None);
        assert_eq!(
            rules
                .value(&["/admin/assets/index-x.js"], &cache)
                .as_deref(),
            Some("public, immutable")
        );
        assert_eq!(
            rules.value(&["/admin/config.json"], &cache).as_deref(),
            Some("no-cache")
        );
    }
}
