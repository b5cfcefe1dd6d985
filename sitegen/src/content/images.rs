//! Raster pictures named by the content (JPEG, PNG, WebP under `content/images/`), as the model
//! knows them: where each is shown, which decides the widths it is encoded at, and what the
//! pages receive of it once the images stage has encoded it ([`Picture`]).
//!
//! SVG illustrations stay in `site/public/images/` and are published as they are; a raster
//! source is written the same way (`/images/team/anna.jpg` is `content/images/team/anna.jpg`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::loader::{AUTHORS_FILE, Stamp};

/// The folder of raster sources under the content directory.
pub const SOURCE_DIR: &str = "images";

/// The extensions of the raster sources the images stage encodes.
pub const RASTER_EXTENSIONS: [&str; 4] = ["jpg", "jpeg", "png", "webp"];

/// The extension of AVIF, which sitegen publishes but cannot read: every AVIF decoder the
/// `image` crate offers (`avif-native`) binds libdav1d 1.3 or later through dav1d-sys, and
/// Debian 12 ships 1.0; no pure-Rust AVIF decoder is kept well enough to depend on.
pub const UNREADABLE_EXTENSION: &str = "avif";

/// Where a picture is shown, which decides the widths it is encoded at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ImageUse {
    /// An author's round portrait beside their name (44 to 48 CSS pixels).
    Byline,
    /// A team member's card-wide portrait (up to 400 CSS pixels).
    Portrait,
    /// An article's or an industry's illustration: cards, and an article's header.
    Illustration,
    /// A picture in an article body: shown at its own width, up to the column's (44rem),
    /// so any width will do.
    Body,
    /// A page's own picture for link previews, cropped to 1200 x 630 by the cards stage.
    Share,
}

impl ImageUse {
    /// The use of the picture named by the field `key` of the content file `file`.
    pub fn of_field(file: &str, key: &str) -> Option<Self> {
        match key {
            "avatar" if file == AUTHORS_FILE => Some(Self::Byline),
            "avatar" => Some(Self::Portrait),
            "image" => Some(Self::Illustration),
            "share_image" => Some(Self::Share),
            _ => None,
        }
    }

    /// The widths encoded for this use, narrowest first: 1x to 3x of the sizes it is shown
    /// at. A source narrower than the first is refused; wider ones are never upscaled.
    pub fn widths(self) -> &'static [u32] {
        match self {
            Self::Byline => &[48, 96, 144],
            Self::Portrait => &[320, 640, 960],
            Self::Illustration => &[480, 768, 1024, 1536],
            Self::Body => &[480, 768, 1024, 1408],
            Self::Share => &[SHARE_SIZE.0],
        }
    }

    /// The fewest pixels the source must have upright: the first width of its ladder, and
    /// for a share picture the height it is cropped to (it is never scaled up). A body picture
    /// is laid out no wider than it is.
    pub fn min_size(self) -> (u32, u32) {
        match self {
            Self::Share => SHARE_SIZE,
            Self::Body => (1, 0),
            _ => (self.widths()[0], 0),
        }
    }
}

/// The widths a picture is encoded at when it has these uses: every rung of their ladders
/// that the source's `width` reaches, and the source's own width when it is narrower than a
/// rung it cannot reach (so the largest screens get every pixel there is).
pub fn ladder(uses: &[ImageUse], width: u32) -> Vec<u32> {
    let mut widths: Vec<u32> = uses
        .iter()
        .flat_map(|u| u.widths().iter().copied())
        .map(|w| w.min(width))
        .collect();
    widths.sort_unstable();
    widths.dedup();
    widths
}

/// A picture named by a content field, with where it is named, for the images stage's errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef {
    /// As written: `/images/team/anna.jpg`.
    pub src: String,
    /// Where the source is read from.
    pub path: PathBuf,
    /// How it is shown.
    pub usage: ImageUse,
    /// The content file, as the user named the content directory.
    pub file: PathBuf,
    /// 1-based line and column of the field, when known.
    pub line: Option<usize>,
    /// See `line`.
    pub column: Option<usize>,
}

/// Whether `src` names an AVIF (by its extension), which sitegen cannot read as a source.
pub fn is_avif(src: &str) -> bool {
    Path::new(src)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(UNREADABLE_EXTENSION))
}

/// Whether `src` names a raster source (by its extension) rather than a file of `site/public`.
pub fn is_raster(src: &str) -> bool {
    Path::new(src)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RASTER_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// The file a raster `src` (`/images/team/anna.jpg`) is read from, when it is written as a
/// path under `/images/` without `..`.
pub fn source_path(content_dir: &Path, src: &str) -> Option<PathBuf> {
    let rel = src.strip_prefix('/')?;
    let inner = rel.strip_prefix(SOURCE_DIR)?.strip_prefix('/')?;
    if inner.split('/').any(|part| part == ".." || part.is_empty()) {
        return None;
    }
    Some(content_dir.join(rel))
}

/// The width and height of the image at `path` as it is shown (after its EXIF orientation),
/// read from its header alone.
pub fn shown_size(path: &Path) -> Result<(u32, u32), String> {
    // Reading a JPEG's size parses its headers; a process that loads the content again and
    // again (`sitegen dev`) does it once per version of the file.
    type Sizes = Mutex<HashMap<PathBuf, (Stamp, (u32, u32))>>;
    static SIZES: OnceLock<Sizes> = OnceLock::new();
    let sizes = SIZES.get_or_init(Sizes::default);
    let stamp = Stamp::of(path);
    if let (Some(stamp), Ok(known)) = (stamp, sizes.lock())
        && let Some((was, size)) = known.get(path)
        && *was == stamp
    {
        return Ok(*size);
    }
    let size = read_shown_size(path)?;
    if let (Some(stamp), Ok(mut known)) = (stamp, sizes.lock()) {
        known.insert(path.to_owned(), (stamp, size));
    }
    Ok(size)
}

fn read_shown_size(path: &Path) -> Result<(u32, u32), String> {
    use image::ImageDecoder as _;
    let reader = image::ImageReader::open(path)
        .and_then(image::ImageReader::with_guessed_format)
        .map_err(|err| err.to_string())?;
    let mut decoder = reader.into_decoder().map_err(|err| err.to_string())?;
    let (width, height) = decoder.dimensions();
    let turned = decoder.orientation().is_ok_and(|o| {
        use image::metadata::Orientation::*;
        matches!(o, Rotate90 | Rotate270 | Rotate90FlipH | Rotate270FlipH)
    });
    Ok(if turned {
        (height, width)
    } else {
        (width, height)
    })
}

/// The width and height an SVG is drawn at (its `width` and `height`, else its `viewBox`),
/// when it can be read.
pub fn svg_size(path: &Path) -> Option<(u32, u32)> {
    use resvg::usvg;
    let data = std::fs::read(path).ok()?;
    let tree = usvg::Tree::from_data(&data, &usvg::Options::default()).ok()?;
    let size = tree.size();
    // Whole pixels: an SVG's size is in CSS pixels, and `width`/`height` attributes are integers.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some((size.width().round() as u32, size.height().round() as u32))
}

/// What a page receives of an encoded picture: enough for a `<picture>` that takes no layout
/// shift and picks the smallest file the screen needs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, TS)]
pub struct Picture {
    /// Width of the picture as shown, in pixels (after its orientation).
    pub width: u32,
    /// Height of the picture as shown, in pixels.
    pub height: u32,
    /// A tiny blurred preview (a `data:` URI), shown while the picture loads; empty for a
    /// picture with transparency, through which it would show.
    pub placeholder: String,
    /// One `<source>` per modern format, best first.
    pub sources: Vec<PictureSource>,
    /// The `<img>`'s own `srcset`: the fallback format (JPEG, or PNG for a picture with
    /// transparency), which every browser shows.
    pub srcset: String,
    /// The `<img>`'s `src`: the fallback at its largest width.
    pub src: String,
}

/// The size of every page's picture for link previews: what every service shows in full
/// (`summary_large_image`).
pub const SHARE_SIZE: (u32, u32) = (1200, 630);

/// The picture a page names for its link previews (`share_image` in its meta or front matter).
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct ShareImage {
    /// As written: `/images/insights/launch.jpg`.
    pub src: String,
    /// Its alternative text.
    pub alt: String,
}

/// A page's picture for link previews (`og:image`): its social card, or the picture it names.
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct SocialCard {
    /// Where it is published (`/img/card-about.1a2b3c4d5e6f.png`).
    pub src: String,
    /// Its MIME type (`image/png`; `image/jpeg` for a photo a page names).
    #[serde(rename = "type")]
    pub mime: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Its alternative text: the words it shows.
    pub alt: String,
}

/// The files of one format of a [`Picture`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, TS)]
pub struct PictureSource {
    /// The MIME type (`image/avif`).
    #[serde(rename = "type")]
    pub mime: String,
    /// `url width`w pairs (`/img/anna-480.1a2b3c4d5e6f.avif 480w, ...`).
    pub srcset: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_never_upscales_and_keeps_the_source_width() {
        assert_eq!(
            ladder(&[ImageUse::Illustration], 4000),
            vec![480, 768, 1024, 1536]
        );
        assert_eq!(ladder(&[ImageUse::Illustration], 900), vec![480, 768, 900]);
        assert_eq!(
            ladder(&[ImageUse::Byline, ImageUse::Portrait], 500),
            vec![48, 96, 144, 320, 500]
        );
    }

    #[test]
    fn raster_sources_live_under_content_images() {
        let dir = Path::new("content");
        assert!(is_raster("/images/a/b.JPG"));
        assert!(!is_raster("/images/a/b.svg"));
        assert_eq!(
            source_path(dir, "/images/team/anna.jpg"),
            Some(dir.join("images/team/anna.jpg"))
        );
        assert_eq!(source_path(dir, "/images/../site.yaml"), None);
        assert_eq!(source_path(dir, "/pictures/a.jpg"), None);
    }
}
