//! The images stage: every raster picture the content names ([`Content::image_refs`]) encoded
//! as AVIF and WebP plus a JPEG (or PNG) fallback at each width of its ladder, published
//! under [`DIR`] with content-hashed names, and described to the pages in
//! [`Content::images`].
//!
//! Pictures are encoded in parallel, each once: what a picture became is remembered in the
//! build cache by the hash of its bytes, its widths and the [`Settings`], and its files are
//! kept in the store, so a rebuild encodes only new or changed sources.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use sitegen_pixels::{Format, Settings, Source, encode};

use crate::cache::{self, Cache, Stored};
use crate::content::articles::picture_html;
use crate::content::images::{ImageRef, ImageUse, Picture, PictureSource, ladder};
use crate::content::{Content, ContentError, ContentErrors};

/// The output folder of the encoded pictures; their names carry a hash of their bytes.
pub const DIR: &str = "img";

/// Changes whenever the same source and settings would be encoded differently.
const ENCODER_VERSION: &str = "sitegen-images-2";

/// What the images stage did.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct ImagesReport {
    /// Pictures encoded by this build.
    pub encoded: usize,
    /// Pictures taken from the cache.
    pub reused: usize,
    /// Files published (every width of every format).
    pub files: usize,
    /// How long encoding took, in milliseconds (0 when every picture came from the cache).
    pub encode_ms: u64,
    /// The sources' bytes, each counted once.
    pub source_bytes: u64,
    /// The bytes of the largest AVIF of each picture: what a wide screen fetches instead of
    /// the source.
    pub largest_avif_bytes: u64,
}

impl ImagesReport {
    /// The bytes a visitor is spared on a wide screen, over every picture.
    pub fn bytes_saved(&self) -> u64 {
        self.source_bytes.saturating_sub(self.largest_avif_bytes)
    }
}

/// The stage's output: the files to publish and the report.
#[derive(Debug, Default)]
pub struct Images {
    /// Output path (`img/anna-480.1a2b3c4d5e6f.avif`) and the stored file.
    pub files: Vec<(String, Stored)>,
    /// What was encoded and what it saved.
    pub report: ImagesReport,
}

/// Why the stage failed; the cards stage fails the same two ways.
#[derive(Debug, thiserror::Error)]
pub enum ImagesError {
    /// A source cannot be decoded (truncated, corrupt); each names where the content names it.
    #[error("{0}")]
    Content(#[from] ContentErrors),
    /// Reading, encoding or storing failed.
    #[error(transparent)]
    Files(#[from] anyhow::Error),
}

/// What one picture became, as remembered in the cache.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Encoded {
    picture: Picture,
    /// Output path and store hash of every file.
    files: Vec<(String, String)>,
    largest_avif: u64,
}

/// One source to encode: its bytes, its uses and the first place the content names it.
struct Job<'a> {
    src: &'a str,
    first: &'a ImageRef,
    uses: Vec<ImageUse>,
    bytes: Vec<u8>,
}

/// Encodes every picture of `content` not yet in the cache and fills `content.images`.
pub fn process(
    cache: &Cache,
    content: &mut Content,
    settings: &Settings,
) -> Result<Images, ImagesError> {
    let mut by_src: BTreeMap<&str, Vec<&ImageRef>> = BTreeMap::new();
    // A page's own share picture is cropped and published by the cards stage.
    for image in content
        .image_refs
        .iter()
        .filter(|r| r.usage != ImageUse::Share)
    {
        by_src.entry(&image.src).or_default().push(image);
    }
    let jobs = by_src
        .into_par_iter()
        .map(|(src, refs)| {
            let first = refs[0];
            let bytes = std::fs::read(&first.path)
                .with_context(|| format!("reading {}", first.path.display()))?;
            let mut uses: Vec<ImageUse> = refs.iter().map(|r| r.usage).collect();
            uses.sort_unstable();
            uses.dedup();
            Ok(Job {
                src,
                first,
                uses,
                bytes,
            })
        })
        .collect::<Result<Vec<_>>>()?;

    let started = Instant::now();
    let store = cache.files();
    let outcomes: Vec<_> = jobs
        .par_iter()
        .map(|job| {
            let key = cache_key(job, settings);
            let recalled = cache
                .recall(&key)
                .and_then(|bytes| serde_json::from_slice::<Encoded>(&bytes).ok())
                .filter(|e| e.files.iter().all(|(_, hash)| store.contains(hash)));
            if let Some(encoded) = recalled {
                return Ok((encoded, false));
            }
            let encoded = encode_one(cache, job, settings)?;
            cache.remember(
                &key,
                &serde_json::to_vec(&encoded).map_err(anyhow::Error::from)?,
            )?;
            Ok((encoded, true))
        })
        .collect();
    let encode_time = started.elapsed();

    let mut errors = Vec::new();
    let mut images = Images::default();
    for (job, outcome) in jobs.iter().zip(outcomes) {
        let (encoded, fresh): (Encoded, bool) = match outcome {
            Ok(done) => done,
            Err(Failure::Decode(err)) => {
                errors.push(ContentError {
                    file: job.first.file.clone(),
                    line: job.first.line,
                    column: job.first.column,
                    message: format!("`{}` cannot be decoded: {err:#}", job.src),
                });
                continue;
            }
            Err(Failure::Files(err)) => return Err(err.into()),
        };
        let report = &mut images.report;
        if fresh {
            report.encoded += 1;
        } else {
            report.reused += 1;
        }
        report.source_bytes += job.bytes.len() as u64;
        report.largest_avif_bytes += encoded.largest_avif;
        report.files += encoded.files.len();
        for (name, hash) in encoded.files {
            images.files.push((
                name,
                Stored {
                    hash,
                    gzip_len: None,
                },
            ));
        }
        content.images.insert(job.src.to_owned(), encoded.picture);
    }
    if !errors.is_empty() {
        return Err(ContentErrors(errors).into());
    }
    place_body_pictures(content);
    // The translations show the same pictures, the articles' bodies in their words.
    let pictures = content.images.clone();
    for translation in &mut content.translations {
        translation.images.clone_from(&pictures);
        place_body_pictures(translation);
    }
    if images.report.encoded > 0 {
        images.report.encode_ms = u64::try_from(encode_time.as_millis()).unwrap_or(u64::MAX);
    }
    Ok(images)
}

/// Puts each encoded photo of an article body in place of its marker.
fn place_body_pictures(content: &mut Content) {
    let pictures = &content.images;
    for article in &mut content.articles {
        for n in 0..article.body_images.len() {
            if let Some(picture) = pictures.get(&article.body_images[n].src) {
                let html = picture_html(picture, &article.body_images[n].alt);
                article.place_body_image(n, &html);
            }
        }
    }
}

/// A picture that cannot be decoded is the content's mistake; anything else is the build's.
enum Failure {
    Decode(anyhow::Error),
    Files(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(err: anyhow::Error) -> Self {
        Failure::Files(err)
    }
}

fn cache_key(job: &Job<'_>, settings: &Settings) -> String {
    let settings = serde_json::to_vec(&(settings, &job.uses)).unwrap_or_default();
    cache::hash_hex(&[ENCODER_VERSION.as_bytes(), &settings, &job.bytes])
}

/// Decodes, scales and encodes one picture, storing its files.
fn encode_one(cache: &Cache, job: &Job<'_>, settings: &Settings) -> Result<Encoded, Failure> {
    let source = Source::decode(&job.bytes).map_err(Failure::Decode)?;
    let (width, height) = source.size();
    let widths = ladder(&job.uses, width);
    let fallback = Format::fallback(source.has_alpha);
    let formats: Vec<Format> = Format::MODERN.into_iter().chain([fallback]).collect();
    let stem = stem(&job.first.path);
    let store = cache.files();
    let scaled = widths
        .par_iter()
        .map(|&w| Ok((w, source.scaled(w)?)))
        .collect::<Result<Vec<_>>>()?;
    let variants = scaled
        .par_iter()
        .flat_map(|(w, image)| formats.par_iter().map(move |f| (*w, image, *f)))
        .map(|(w, image, format)| {
            let bytes = encode(image, format, settings)?;
            let (name, stored) = store.put_named(&bytes, |hash| {
                let hash = cache::name_hash(hash);
                format!("{DIR}/{stem}-{w}.{hash}.{}", format.extension())
            })?;
            Ok((format, w, name, stored.hash, bytes.len() as u64))
        })
        .collect::<Result<Vec<_>>>()?;
    let srcset = |format: Format| {
        variants
            .iter()
            .filter(|v| v.0 == format)
            .map(|(_, w, name, _, _)| format!("/{name} {w}w"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let largest = |format: Format| {
        variants
            .iter()
            .filter(|v| v.0 == format)
            .max_by_key(|v| v.1)
    };
    let picture = Picture {
        width,
        height,
        // Behind a picture with transparency the preview would show through.
        placeholder: if source.has_alpha {
            String::new()
        } else {
            source.placeholder(settings)?
        },
        sources: Format::MODERN
            .iter()
            .map(|f| PictureSource {
                mime: f.mime().to_owned(),
                srcset: srcset(*f),
            })
            .collect(),
        srcset: srcset(fallback),
        src: largest(fallback)
            .map(|v| format!("/{}", v.2))
            .unwrap_or_default(),
    };
    Ok(Encoded {
        picture,
        largest_avif: largest(Format::Avif).map_or(0, |v| v.4),
        files: variants
            .into_iter()
            .map(|(_, _, name, hash, _)| (name, hash))
            .collect(),
    })
}

/// The source's file name without its extension, kept to URL-safe characters.
fn stem(path: &std::path::Path) -> String {
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    if stem.is_empty() {
        "image".into()
    } else {
        stem
    }
}
