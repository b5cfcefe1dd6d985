//! The objects a build directory becomes: one per file the host serves, with the bytes to
//! upload and the metadata that goes with them. Everything here is read from the directory:
//! the precompressed variant the build wrote, `Content-Type` from [`crate::headers`], and
//! `Cache-Control` from the `_headers` the build wrote, and the redirect of each page left at
//! an old path from its `_redirects`, so the bucket serves what `sitegen serve` previews.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use axum::http::header::CACHE_CONTROL;
use md5::{Digest, Md5};
use rayon::prelude::*;

use crate::compress::Encoding;
use crate::headers::{HeaderRules, content_type};
use crate::output_dir::{CONFIG_FILES, Files, header_paths};
use crate::outputs::SITE_WIDE_FILES;
use crate::redirects::Rules;

/// The coding of the bytes uploaded for a file the build compressed. A bucket sends one
/// body per key whatever the request's `Accept-Encoding`, and every HTTP client of the last
/// twenty years accepts gzip; brotli is not sent to clients over plain HTTP nor by every
/// crawler, so it cannot be the only copy.
pub const UPLOADED_ENCODING: Encoding = Encoding::Gzip;

/// When an object is written, so that no visitor meets a page whose assets are not there
/// yet, nor a sitemap naming pages not yet published. Deletions come after all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Scripts, styles, pictures, the search index: what pages load.
    Assets,
    /// The HTML pages, `404.html` included.
    Pages,
    /// The sitemap, robots.txt and the feed, which name pages.
    SiteWide,
}

impl Phase {
    /// Every phase, in upload order.
    pub const ORDER: [Phase; 3] = [Phase::Assets, Phase::Pages, Phase::SiteWide];

    /// How the phase is named in the output.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Assets => "assets",
            Phase::Pages => "pages",
            Phase::SiteWide => "site-wide files",
        }
    }

    fn of(file: &str) -> Self {
        if file.ends_with(".html") {
            Phase::Pages
        } else if SITE_WIDE_FILES.contains(&file) {
            Phase::SiteWide
        } else {
            Phase::Assets
        }
    }
}

/// One object to be in the bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalObject {
    /// The file's path in the build directory, `about/index.html` (the key without prefix).
    pub file: String,
    /// The file whose bytes are uploaded: the file itself or its gzip variant.
    pub source: PathBuf,
    /// The coding of the uploaded bytes, if compressed.
    pub encoding: Option<Encoding>,
    /// `Content-Type`, with charset for text.
    pub content_type: String,
    /// `Cache-Control`, from the `_headers` rules for the file's URLs.
    pub cache_control: Option<String>,
    /// Hex MD5 of the uploaded bytes: what S3 reports as the ETag of a single-part upload.
    pub md5: String,
    /// Length of the uploaded bytes.
    pub len: u64,
    /// When it is uploaded.
    pub phase: Phase,
    /// Where an S3 website endpoint redirects its URL (`x-amz-website-redirect-location`):
    /// set on the page left at an old path, from the build's `_redirects`.
    pub redirect: Option<String>,
}

/// Every object of the build in `dir`, sorted by file. Fails when `dir` is not a build.
pub fn objects(dir: &Path) -> Result<Vec<LocalObject>> {
    ensure_build(dir)?;
    let rules = HeaderRules::load(&dir.join("_headers"))?;
    let redirects = Rules::load(dir)?;
    let files = Files::list(dir)?;
    let mut served: Vec<&String> = files.iter().filter(|f| !is_side_file(f, &files)).collect();
    served.sort();
    served
        .into_par_iter()
        .map(|file| object(dir, file, &files, &rules, &redirects))
        .collect()
}

/// Fails unless `dir` looks like the output of `sitegen build`.
pub fn ensure_build(dir: &Path) -> Result<()> {
    if !dir.join("index.html").is_file() {
        bail!(
            "{} is not a site build (it has no index.html); run `sitegen build` first",
            dir.display()
        );
    }
    Ok(())
}

/// Config files the host reads and never serves, and the compressed variants of a served
/// file (uploaded as that file's body, never as objects of their own).
fn is_side_file(file: &str, files: &Files) -> bool {
    let original = Encoding::PREFERRED
        .iter()
        .find_map(|e| file.strip_suffix(e.suffix()));
    let config = |name: &str| CONFIG_FILES.contains(&name);
    config(file) || original.is_some_and(|o| files.contains(o) || config(o))
}

fn object(
    dir: &Path,
    file: &str,
    files: &Files,
    rules: &HeaderRules,
    redirects: &Rules,
) -> Result<LocalObject> {
    let variant = format!("{file}{}", UPLOADED_ENCODING.suffix());
    let (source, encoding) = if files.contains(&variant) {
        (dir.join(&variant), Some(UPLOADED_ENCODING))
    } else {
        (dir.join(file), None)
    };
    let bytes = std::fs::read(&source).with_context(|| format!("reading {}", source.display()))?;
    let url_path = format!("/{file}");
    let cache_control = rules.value(&header_paths(&url_path, &url_path), &CACHE_CONTROL);
    Ok(LocalObject {
        file: file.to_owned(),
        source,
        encoding,
        content_type: content_type(file),
        cache_control,
        md5: hex(&Md5::digest(&bytes)),
        len: bytes.len() as u64,
        phase: Phase::of(file),
        redirect: redirects.location_of_file(file).map(str::to_owned),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, file: &str, bytes: &[u8]) {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }

    #[test]
    fn variants_and_config_files_are_not_objects_and_gzip_is_uploaded() {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        write(d, "index.html", b"<p>home</p>");
        write(d, "index.html.gz", b"gzipped home");
        write(d, "index.html.br", b"brotli home");
        write(d, "assets/app-1a2b.js", b"js");
        write(d, "feed.xml", b"<feed/>");
        write(
            d,
            "_headers",
            b"/assets/*\n  Cache-Control: immutable\n/\n  Cache-Control: no-cache\n",
        );
        write(d, crate::output_dir::CLOUDFRONT_POLICY_FILE, b"{}");
        let objects = objects(d).expect("a build");
        let files: Vec<&str> = objects.iter().map(|o| o.file.as_str()).collect();
        assert_eq!(files, ["assets/app-1a2b.js", "feed.xml", "index.html"]);
        let home = &objects[2];
        assert_eq!(home.source, d.join("index.html.gz"));
        assert_eq!(home.encoding, Some(Encoding::Gzip));
        assert_eq!(home.len, 12);
        assert_eq!(home.md5, hex(&Md5::digest(b"gzipped home")));
        assert_eq!(home.content_type, "text/html; charset=utf-8");
        assert_eq!(home.cache_control.as_deref(), Some("no-cache"));
        assert_eq!(home.phase, Phase::Pages);
        let app = &objects[0];
        assert_eq!(app.encoding, None);
        assert_eq!(app.content_type, "text/javascript; charset=utf-8");
        assert_eq!(app.cache_control.as_deref(), Some("immutable"));
        assert_eq!(app.phase, Phase::Assets);
        assert_eq!(objects[1].phase, Phase::SiteWide);
        assert_eq!(objects[1].cache_control, None);
    }

    #[test]
    fn a_directory_without_index_html_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = objects(dir.path()).expect_err("not a build");
        assert!(err.to_string().ends_with("run `sitegen build` first"));
    }
}
