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
pub fn rgb_of_rgba(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>> {
    let pixels = width as usize * height as usize;
    anyhow::ensure!(
        rgba.len() == pixels * 4,
        "{width} x {height} pixels do not fill the buffer"
    );
    let mut rgb = Vec::with_capacity(pixels * 3);
    for pixel in rgba.chunks_exact(4) {
        rgb.extend_from_slice(&pixel[..3]);
    }
    Ok(rgb)
}

/// An opaque RGB picture many PNGs are made from, each with its own band of rows in place of
/// the picture's (a social card's words over the background every card shares). The picture's
/// rows are filtered and compressed once, in chunks; a PNG then compresses only the chunks its
/// band touches and copies the others as they are: a deflate stream may be cut into pieces
/// compressed apart, each ending on a byte (a full flush), and the zlib checksum of the whole
/// is combined from the pieces'.
#[derive(Debug)]
pub struct PngBase {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
    /// Each chunk of [`CHUNK_ROWS`] rows, filtered and compressed.
    chunks: Vec<Piece>,
}

/// Rows per chunk of a [`PngBase`]: a band is widened to whole chunks.
const CHUNK_ROWS: usize = 16;

/// A piece of the deflate stream: compressed bytes, and the Adler-32 and length of the
/// filtered rows they hold.
#[derive(Debug)]
struct Piece {
    deflated: Vec<u8>,
    adler: u32,
    len: usize,
}

impl PngBase {
    /// The picture `rgb`, `width` x `height` pixels of three bytes.
    pub fn new(rgb: Vec<u8>, width: u32, height: u32) -> Result<Self> {
        let row = width as usize * 3;
        anyhow::ensure!(
            row > 0 && rgb.len() == row * height as usize,
            "{width} x {height} pixels do not fill the buffer"
        );
        let chunks = (0..height as usize)
            .step_by(CHUNK_ROWS)
            .map(|first| {
                let last = (first + CHUNK_ROWS).min(height as usize);
                Piece::of_rows(&rgb, row, first..last, |_| None)
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            width,
            height,
            rgb,
            chunks,
        })
    }

    /// The picture's pixels.
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The PNG of the picture with its rows from `top` on replaced by `band` (whole rows of
    /// RGB pixels).
    pub fn png_with_band(&self, top: u32, band: &[u8]) -> Result<Vec<u8>> {
        let row = self.width as usize * 3;
        let (top, rows) = (top as usize, band.len() / row);
        anyhow::ensure!(
            band.len().is_multiple_of(row) && top + rows <= self.height as usize,
            "the band does not fit the picture"
        );
        // The chunks the band's rows are in, and the one after if the band ends at its first
        // row: a row is filtered against the row above it.
        let first = top / CHUNK_ROWS;
        let end = (top + rows + 1)
            .min(self.height as usize)
            .div_ceil(CHUNK_ROWS);
        let pixels = |y: usize| -> Option<&[u8]> {
            (top..top + rows)
                .contains(&y)
                .then(|| &band[(y - top) * row..(y - top + 1) * row])
        };
        let fresh = if rows == 0 {
            None
        } else {
            let last = (end * CHUNK_ROWS).min(self.height as usize);
            Some(Piece::of_rows(
                &self.rgb,
                row,
                first * CHUNK_ROWS..last,
                pixels,
            )?)
        };
        let pieces: Vec<&Piece> = match &fresh {
            Some(fresh) => self.chunks[..first]
                .iter()
                .chain([fresh])
                .chain(&self.chunks[end..])
                .collect(),
            None => self.chunks.iter().collect(),
        };

        let mut zlib = vec![0x78, 0x01];
        let mut adler = 1;
        for piece in &pieces {
            zlib.extend_from_slice(&piece.deflated);
            adler = adler32_combine(adler, piece.adler, piece.len);
        }
        // An empty final block of fixed codes ends the stream.
        zlib.extend_from_slice(&[0x03, 0x00]);
        zlib.extend_from_slice(&adler.to_be_bytes());

        let mut out = Vec::with_capacity(zlib.len() + 64);
        out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
        let mut header = Vec::with_capacity(13);
        header.extend_from_slice(&self.width.to_be_bytes());
        header.extend_from_slice(&self.height.to_be_bytes());
        // 8 bits a channel, RGB, deflate, adaptive filtering, not interlaced.
        header.extend_from_slice(&[8, 2, 0, 0, 0]);
        png_chunk(&mut out, b"IHDR", &header);
        png_chunk(&mut out, b"IDAT", &zlib);
        png_chunk(&mut out, b"IEND", &[]);
        Ok(out)
    }
}

impl Piece {
    /// The rows `rows` of `rgb` (rows of `row` bytes), each taken from `replaced` when it
    /// gives one, Paeth-filtered and compressed into a piece that ends on a byte.
    fn of_rows<'a>(
        rgb: &'a [u8],
        row: usize,
        rows: std::ops::Range<usize>,
        replaced: impl Fn(usize) -> Option<&'a [u8]>,
    ) -> Result<Self> {
        let pixels = |y: usize| replaced(y).unwrap_or(&rgb[y * row..(y + 1) * row]);
        let zeros = vec![0; row];
        let mut filtered = Vec::with_capacity(rows.len() * (row + 1));
        for y in rows {
            let above = y.checked_sub(1).map_or(zeros.as_slice(), pixels);
            filtered.push(4); // Paeth
            paeth(pixels(y), above, &mut filtered);
        }
        // Level 2, zlib-rs's fast matcher with codes fitted to the data: an article's card is
        // 45 kB, against 65 kB at level 1 (fixed codes) for about the same time, and 43 kB at
        // level 6 for several times as long.
        let mut deflate = flate2::Compress::new(flate2::Compression::new(2), false);
        let mut deflated = Vec::with_capacity(filtered.len() / 4 + 64);
        loop {
            let before = deflate.total_in() as usize;
            deflated.reserve(filtered.len() / 8 + 64);
            deflate
                .compress_vec(
                    &filtered[before..],
                    &mut deflated,
                    flate2::FlushCompress::Full,
                )
                .context("compressing a PNG")?;
            if deflate.total_in() as usize == filtered.len() && deflated.len() < deflated.capacity()
            {
                break;
            }
        }
        Ok(Self {
            adler: simd_adler32::adler32(&filtered.as_slice()),
            len: filtered.len(),
            deflated,
        })
    }
}

/// Appends `pixels` (RGB) Paeth-filtered against `above` (PNG, section 9.4), the row above
/// (zeros for the first row). Written over whole slices, with the predictor chosen without
/// branches, so that the compiler can use vector instructions.
fn paeth(pixels: &[u8], above: &[u8], out: &mut Vec<u8>) {
    // The first pixel has no left neighbour: the predictor of a = c = 0 is b.
    out.extend(
        pixels
            .iter()
            .zip(above)
            .take(3)
            .map(|(x, b)| x.wrapping_sub(*b)),
    );
    let left = pixels.iter().zip(above);
    out.extend(
        pixels[3..]
            .iter()
            .zip(&above[3..])
            .zip(left)
            .map(|((x, b), (a, c))| x.wrapping_sub(paeth_predictor(*a, *b, *c))),
    );
}

/// The Paeth predictor of a pixel byte from its left (`a`), upper (`b`) and upper-left (`c`)
/// neighbours.
#[inline]
fn paeth_predictor(a: u8, b: u8, c: u8) -> u8 {
    let (a16, b16, c16) = (i16::from(a), i16::from(b), i16::from(c));
    let pa = (b16 - c16).abs();
    let pb = (a16 - c16).abs();
    let pc = (a16 + b16 - 2 * c16).abs();
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

/// The Adler-32 of two pieces of data from the checksums of each and the second's length
/// (zlib's `adler32_combine`).
fn adler32_combine(first: u32, second: u32, second_len: usize) -> u32 {
    const BASE: u64 = 65_521;
    let rem = second_len as u64 % BASE;
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    let a = (a1 + a2 + BASE - 1) % BASE;
    let b = (rem * a1 % BASE + b1 + b2 + BASE - rem) % BASE;
    ((b << 16) | a) as u32
}

/// Appends a PNG chunk: its length, type, data and CRC.
fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture whose every row differs, so a misplaced row shows.
    fn picture(width: u32, height: u32, seed: u8) -> Vec<u8> {
        (0..width * height * 3)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 ^ seed)
            .collect()
    }

    #[test]
    fn a_band_anywhere_gives_the_png_of_the_picture_with_that_band() {
        let (width, height) = (37, 70);
        let row = width as usize * 3;
        let base = PngBase::new(picture(width, height, 0), width, height).expect("the base");
        for (top, rows) in [
            (0, 0),
            (0, 5),
            (3, 1),
            (15, 1),
            (16, 16),
            (20, 33),
            (60, 10),
            (69, 1),
        ] {
            let band = picture(width, rows, 0x5a);
            let png = base.png_with_band(top, &band).expect("a PNG");
            let decoded = image::load_from_memory(&png).expect("decodes").to_rgb8();
            let mut expected = base.rgb().to_vec();
            expected[top as usize * row..(top + rows) as usize * row].copy_from_slice(&band);
            assert_eq!(decoded.dimensions(), (width, height));
            assert!(
                decoded.as_raw() == &expected,
                "rows {top} to {} differ",
                top + rows
            );
        }
    }

    #[test]
    fn a_band_that_does_not_fit_is_refused() {
        let base = PngBase::new(picture(4, 4, 0), 4, 4).expect("the base");
        assert!(base.png_with_band(3, &picture(4, 2, 1)).is_err());
        assert!(base.png_with_band(0, &[0; 5]).is_err());
        assert!(PngBase::new(vec![0; 10], 4, 4).is_err());
    }

    #[test]
    fn adler32_of_two_pieces_combines_into_that_of_the_whole() {
        let data = picture(50, 9, 3);
        for cut in [0, 1, 700, data.len()] {
            let (first, second) = data.split_at(cut);
            assert_eq!(
                adler32_combine(
                    simd_adler32::adler32(&first),
                    simd_adler32::adler32(&second),
                    second.len()
                ),
                simd_adler32::adler32(&data.as_slice())
            );
        }
    }
}
