//! sitegen's pixel work. A source picture into its files: decoded with its EXIF orientation
//! applied, scaled down to each width of its ladder and encoded in every format. Only pixels
//! are written: no EXIF, GPS, ICC or XMP of the source reaches a published file. And the PNG
//! of a drawn card.
//!
//! It is a crate of its own so that the codecs' generic code is compiled here, optimised in
//! every profile (see the workspace's `Cargo.toml`).

use anyhow::{Context, Result, anyhow};
use base64::Engine as _;
use fast_image_resize::{ResizeAlg, ResizeOptions, Resizer};
use image::{DynamicImage, ImageDecoder, ImageEncoder};
use serde::Serialize;

/// A published file format of the pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Format {
    /// AV1 in HEIF: the smallest files, shown by every current browser.
    Avif,
    /// Lossy WebP: the next best, for browsers without AVIF.
    Webp,
    /// Baseline JPEG: the fallback of an opaque picture.
    Jpeg,
    /// PNG: the fallback of a picture with transparency.
    Png,
}

impl Format {
    /// The `<source>` formats, best first; the fallback ([`Format::fallback`]) follows them.
    pub const MODERN: [Format; 2] = [Format::Avif, Format::Webp];

    /// The format every browser shows: PNG where the picture has transparency, else JPEG.
    pub fn fallback(has_alpha: bool) -> Format {
        if has_alpha { Format::Png } else { Format::Jpeg }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Avif => "avif",
            Format::Webp => "webp",
            Format::Jpeg => "jpg",
            Format::Png => "png",
        }
    }

    /// The MIME type, as `<source type>` names it.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Avif => "image/avif",
            Format::Webp => "image/webp",
            Format::Jpeg => "image/jpeg",
            Format::Png => "image/png",
        }
    }
}

/// How the files are encoded; part of every cache key, so a change re-encodes everything.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Settings {
    /// AVIF quality, 0 to 100.
    pub avif_quality: f32,
    /// rav1e's speed, 1 (slowest, smallest) to 10.
    pub avif_speed: u8,
    /// WebP quality, 0 to 100.
    pub webp_quality: f32,
    /// JPEG quality, 1 to 100.
    pub jpeg_quality: u8,
    /// Width of the inline placeholder, in pixels.
    pub placeholder_width: u32,
}

impl Default for Settings {
    fn default() -> Self {
        // AVIF 60 and WebP 75 look alike on photos and are about what a JPEG of 80 shows;
        // speed 7 is within a few per cent of speed 4's size at a third of its time.
        Self {
            avif_quality: 60.0,
            avif_speed: 7,
            webp_quality: 75.0,
            jpeg_quality: 80,
            placeholder_width: 16,
        }
    }
}

/// A decoded source, turned upright.
#[derive(Debug)]
pub struct Source {
    image: DynamicImage,
    /// Whether any pixel is not fully opaque.
    pub has_alpha: bool,
}

impl Source {
    /// Decodes `bytes` (JPEG, PNG or WebP) and applies its EXIF orientation. A truncated or
    /// corrupt file is an error.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
            .with_guessed_format()
            .context("reading the picture")?;
        // The JPEG decoder fills a cut-off scan with grey rather than failing: check the end.
        if reader.format() == Some(image::ImageFormat::Jpeg) && !jpeg_is_complete(bytes) {
            anyhow::bail!("the file ends before the picture does: it is truncated");
        }
        let mut decoder = reader.into_decoder()?;
        let orientation = decoder.orientation()?;
        let mut image = DynamicImage::from_decoder(decoder)?;
        image.apply_orientation(orientation);
        let has_alpha = image.color().has_alpha()
            && image.to_rgba8().pixels().any(|pixel| pixel.0[3] < u8::MAX);
        let image = if has_alpha {
            DynamicImage::ImageRgba8(image.into_rgba8())
        } else {
            DynamicImage::ImageRgb8(image.into_rgb8())
        };
        Ok(Self { image, has_alpha })
    }

    /// Width and height, upright.
    pub fn size(&self) -> (u32, u32) {
        (self.image.width(), self.image.height())
    }

    /// The picture scaled to `width` pixels wide (never wider than it is), keeping its ratio.
    pub fn scaled(&self, width: u32) -> Result<DynamicImage> {
        let (w, h) = self.size();
        if width >= w {
            return Ok(self.image.clone());
        }
        let height =
            ((u64::from(h) * u64::from(width) + u64::from(w) / 2) / u64::from(w)).max(1) as u32;
        let mut scaled = DynamicImage::new(width, height, self.image.color());
        Resizer::new()
            .resize(
                &self.image,
                &mut scaled,
                &ResizeOptions::new().resize_alg(ResizeAlg::Convolution(
                    fast_image_resize::FilterType::Lanczos3,
                )),
            )
            .map_err(|err| anyhow!("scaling to {width} px: {err}"))?;
        Ok(scaled)
    }

    /// The middle of the picture at the ratio of `width` x `height`, scaled to that size
    /// (down, or not at all: the caller checks the source is large enough).
    pub fn cover(&self, width: u32, height: u32) -> Result<DynamicImage> {
        let (w, h) = self.size();
        let (w64, h64) = (u64::from(w), u64::from(h));
        let (crop_w, crop_h) = if w64 * u64::from(height) > h64 * u64::from(width) {
            ((h64 * u64::from(width) / u64::from(height)) as u32, h)
        } else {
            (w, (w64 * u64::from(height) / u64::from(width)) as u32)
        };
        let mut scaled = DynamicImage::new(width, height, self.image.color());
        Resizer::new()
            .resize(
                &self.image,
                &mut scaled,
                &ResizeOptions::new()
                    .crop(
                        f64::from((w - crop_w) / 2),
                        f64::from((h - crop_h) / 2),
                        f64::from(crop_w),
                        f64::from(crop_h),
                    )
                    .resize_alg(ResizeAlg::Convolution(
                        fast_image_resize::FilterType::Lanczos3,
                    )),
            )
            .map_err(|err| anyhow!("cropping to {width} x {height} px: {err}"))?;
        Ok(scaled)
    }

    /// A tiny blurred preview, as a `data:` URI of a WebP a few hundred bytes long.
    pub fn placeholder(&self, settings: &Settings) -> Result<String> {
        let tiny = self.scaled(settings.placeholder_width)?;
        let bytes = encode(&tiny, Format::Webp, settings)?;
        Ok(format!(
            "data:image/webp;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        ))
    }
}

/// Whether the JPEG `bytes` has its end marker after its last scan. Inside a scan every 0xFF
/// byte is followed by 0x00 or a restart marker, so the markers found are real ones (an EXIF
/// thumbnail's end marker comes before the picture's scan).
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let last_scan = bytes.windows(2).rposition(|w| w == [0xff, 0xda]);
    let last_end = bytes.windows(2).rposition(|w| w == [0xff, 0xd9]);
    matches!((last_scan, last_end), (Some(scan), Some(end)) if end > scan)
}

/// `image` in `format`.
pub fn encode(image: &DynamicImage, format: Format, settings: &Settings) -> Result<Vec<u8>> {
    let (width, height) = (image.width(), image.height());
    let mut out = Vec::new();
    match format {
        Format::Avif => {
            image::codecs::avif::AvifEncoder::new_with_speed_quality(
                &mut out,
                settings.avif_speed,
                settings.avif_quality.round() as u8,
            )
            .write_image(image.as_bytes(), width, height, image.color().into())
            .context("encoding AVIF")?;
        }
        Format::Webp => {
            let encoder = if image.color().has_alpha() {
                webp::Encoder::from_rgba(image.as_bytes(), width, height)
            } else {
                webp::Encoder::from_rgb(image.as_bytes(), width, height)
            };
            out = encoder.encode(settings.webp_quality).to_vec();
        }
        Format::Jpeg => {
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, settings.jpeg_quality)
                .write_image(image.as_bytes(), width, height, image.color().into())
                .context("encoding JPEG")?;
        }
        Format::Png => {
            image::codecs::png::PngEncoder::new_with_quality(
                &mut out,
                image::codecs::png::CompressionType::Best,
                image::codecs::png::FilterType::Adaptive,
            )
            .write_image(image.as_bytes(), width, height, image.color().into())
            .context("encoding PNG")?;
        }
    }
    Ok(out)
}

/// The layout of the pixels handed to [`png`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pixels {
    /// Three bytes a pixel: red, green, blue.
    Rgb,
    /// Four bytes a pixel, the alpha not premultiplied.
    Rgba,
}

/// `pixels` (`width` x `height`, laid out as `layout`) as a PNG, quickly compressed: for
/// drawings, whose flat areas compress well without the best deflate.
pub fn png(pixels: &[u8], width: u32, height: u32, layout: Pixels) -> Result<Vec<u8>> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};

    let color = match layout {
        Pixels::Rgb => image::ExtendedColorType::Rgb8,
        Pixels::Rgba => image::ExtendedColorType::Rgba8,
    };
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Paeth)
        .write_image(pixels, width, height, color)
        .context("encoding a PNG")?;
    Ok(out)
}

/// `rgba` (`width` x `height`, four bytes a pixel) without its alpha: for pixels known opaque.
pub fn rgb_of_rgba(rgba: Vec<u8>, width: u32, height: u32) -> Result<Vec<u8>> {
    let image = image::RgbaImage::from_raw(width, height, rgba)
        .ok_or_else(|| anyhow!("{width} x {height} pixels do not fill the buffer"))?;
    Ok(DynamicImage::ImageRgba8(image).into_rgb8().into_raw())
}
