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

mod zero_runs;

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
            // The fallback of pictures without alpha, with chroma averaged over 2x2 pixels
            // (4:2:0) as libjpeg does. Not with Huffman tables fitted to the picture: image's
            // decoder (zune-jpeg 0.5) reads this encoder's fitted tables wrongly, though libjpeg
            // reads them right.
            let converted;
            let rgb = match image.as_rgb8() {
                Some(rgb) => rgb,
                None => {
                    converted = image.to_rgb8();
                    &converted
                }
            };
            let (width, height) = (
                u16::try_from(width).context("too wide for a JPEG")?,
                u16::try_from(height).context("too tall for a JPEG")?,
            );
            let mut encoder = jpeg_encoder::Encoder::new(&mut out, settings.jpeg_quality);
            encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::R_4_2_0);
            encoder.set_chroma_subsampling_method(jpeg_encoder::ChromaSubsamplingMethod::Average);
            encoder
                .encode(rgb.as_raw(), width, height, jpeg_encoder::ColorType::Rgb)
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

/// Blends `rgb` at `alpha` (out of 255) over `pixels` (RGB) as much as `coverage` says, pixel
/// by pixel (a glyph's coverage over a card). Eight pixels at a time: skipped where none is
/// covered, inked where all are fully, and otherwise blended all 24 bytes alike, without a
/// branch, which the compiler turns into vector instructions.
pub fn blend(pixels: &mut [u8], coverage: &[u8], rgb: [u8; 3], alpha: u8) {
    let ink: [u16; 24] = std::array::from_fn(|i| u16::from(rgb[i % 3]));
    let mut eights = coverage.chunks_exact(8);
    let mut at = 0;
    for eight in eights.by_ref() {
        let eight: &[u8; 8] = eight.try_into().expect("eight bytes");
        let bytes: &mut [u8; 24] = (&mut pixels[at * 3..(at + 8) * 3])
            .try_into()
            .expect("eight pixels");
        match u64::from_le_bytes(*eight) {
            0 => {}
            u64::MAX if alpha == 255 => {
                for pixel in bytes.chunks_exact_mut(3) {
                    pixel.copy_from_slice(&rgb);
                }
            }
            _ => blend_eight(bytes, eight, &ink, alpha),
        }
        at += 8;
    }
    for &covered in eights.remainder() {
        let covered = if alpha == 255 {
            covered
        } else {
            div255(u16::from(covered) * u16::from(alpha)) as u8
        };
        over(&mut pixels[at * 3..at * 3 + 3], rgb, covered);
        at += 1;
    }
}

/// `v / 255` rounded to the nearest, for `v` up to 255 x 255 (what a blend of two bytes
/// sums to): `(v + 127) / 255` with two shifts instead of a division, the same for every such
/// `v` (checked in the tests), and in 16-bit lanes the compiler makes vector instructions of.
#[inline(always)]
fn div255(v: u16) -> u16 {
    let t = v + 128;
    (t + (t >> 8)) >> 8
}

/// [`over`] of eight pixels, each at its coverage times `alpha`, in 16-bit lanes (a product of
/// two bytes and the sum `over` makes of two fit in 16 bits).
#[inline(always)]
fn blend_eight(pixels: &mut [u8; 24], coverage: &[u8; 8], ink: &[u16; 24], alpha: u8) {
    let mut weight: [u16; 24] = std::array::from_fn(|i| u16::from(coverage[i / 3]));
    if alpha != 255 {
        for weight in &mut weight {
            *weight = div255(*weight * u16::from(alpha));
        }
    }
    for ((pixel, &weight), &ink) in pixels.iter_mut().zip(&weight).zip(ink) {
        *pixel = div255(u16::from(*pixel) * (255 - weight) + ink * weight) as u8;
    }
}

/// Blends `rgb` at `alpha` (out of 255) over every pixel of `pixels` (RGB).
pub fn blend_all(pixels: &mut [u8], rgb: [u8; 3], alpha: u8) {
    for pixel in pixels.chunks_exact_mut(3) {
        over(pixel, rgb, alpha);
    }
}

/// `ink` over `pixel` at `alpha` out of 255.
#[inline]
fn over(pixel: &mut [u8], ink: [u8; 3], alpha: u8) {
    match alpha {
        0 => {}
        255 => pixel.copy_from_slice(&ink),
        _ => {
            let alpha = u16::from(alpha);
            for (channel, &ink) in pixel.iter_mut().zip(&ink) {
                *channel =
                    div255(u16::from(*channel) * (255 - alpha) + u16::from(ink) * alpha) as u8;
            }
        }
    }
}

/// An opaque RGB picture many PNGs are made from, each with a few of its pixels changed (a
/// social card's words over the background every card shares).
///
/// The picture's rows are filtered and compressed once, in chunks. A PNG compresses again only
/// the chunks with changed rows, and copies the others as they are: a deflate stream may be cut
/// into pieces compressed apart, each ending on a byte (a full flush), and the zlib checksum of
/// the whole is combined from the pieces'. Within those chunks, only the bytes the changed
/// pixels reach are filtered again ([`zero_runs`]); the rest are the picture's, and where its
/// row repeats the row above they are zeros, which are told as runs without being looked at.
#[derive(Debug)]
pub struct PngBase {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
    /// Every row Paeth-filtered, its filter's byte first.
    filtered: Vec<u8>,
    /// Whether each filtered row is zeros after its filter's byte.
    zero_rows: Vec<bool>,
    /// Each chunk of [`CHUNK_ROWS`] rows, compressed.
    chunks: Vec<Piece>,
}

/// Rows per chunk of a [`PngBase`]: a change is compressed in whole chunks.
const CHUNK_ROWS: usize = 16;

/// PNG's filter type of Paeth's predictor (PNG, section 9.2).
const PAETH: u8 = 4;

/// A piece of the deflate stream: compressed bytes, and the Adler-32 and length of the
/// filtered rows they hold.
#[derive(Debug)]
struct Piece {
    deflated: Vec<u8>,
    adler: u32,
    len: usize,
}

/// The pixel columns of one row that may differ from the picture's: sorted, apart.
pub type Spans = Vec<std::ops::Range<u32>>;

/// A row of the picture drawn over: its pixels (RGB), and the columns that may differ from the
/// picture's. A row without such columns is the picture's, and its pixels are not read.
#[derive(Debug, Clone, Copy)]
pub struct Changed<'a> {
    pub pixels: &'a [u8],
    pub spans: &'a [std::ops::Range<u32>],
}

impl PngBase {
    /// The picture `rgb`, `width` x `height` pixels of three bytes.
    pub fn new(rgb: Vec<u8>, width: u32, height: u32) -> Result<Self> {
        let row = width as usize * 3;
        anyhow::ensure!(
            row > 0 && rgb.len() == row * height as usize,
            "{width} x {height} pixels do not fill the buffer"
        );
        let mut filtered = Vec::with_capacity((row + 1) * height as usize);
        for y in 0..height as usize {
            let above = if y == 0 {
                &[][..]
            } else {
                &rgb[(y - 1) * row..y * row]
            };
            filtered.push(PAETH);
            paeth(&rgb[y * row..(y + 1) * row], above, &mut filtered);
        }
        let zero_rows = filtered
            .chunks_exact(row + 1)
            .map(|filtered| filtered[1..].iter().all(|&byte| byte == 0))
            .collect();
        let chunks = filtered
            .chunks(CHUNK_ROWS * (row + 1))
            .map(Piece::compressed)
            .collect::<Result<_>>()?;
        Ok(Self {
            width,
            height,
            rgb,
            filtered,
            zero_rows,
            chunks,
        })
    }

    /// The picture's pixels.
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The PNG of the picture with its rows from `top` on replaced by `band` (whole rows of
    /// RGB pixels): what the tests hold [`PngBase::png_with_changes`] to.
    #[cfg(test)]
    fn png_with_band(&self, top: u32, band: &[u8]) -> Result<Vec<u8>> {
        let row = self.width as usize * 3;
        anyhow::ensure!(
            band.len().is_multiple_of(row),
            "the band does not fit the picture"
        );
        let every_column = 0..self.width;
        let whole = std::slice::from_ref(&every_column);
        let rows: Vec<Changed<'_>> = band
            .chunks_exact(row)
            .map(|pixels| Changed {
                pixels,
                spans: whole,
            })
            .collect();
        self.png_with_changes(top, &rows)
    }

    /// The PNG of the picture with its rows from `top` on changed as `rows` say.
    pub fn png_with_changes(&self, top: u32, rows: &[Changed<'_>]) -> Result<Vec<u8>> {
        let (width, row) = (self.width, self.width as usize * 3);
        let top = top as usize;
        anyhow::ensure!(
            top + rows.len() <= self.height as usize,
            "the band does not fit the picture"
        );
        anyhow::ensure!(
            rows.iter().all(|changed| {
                (changed.spans.is_empty() || changed.pixels.len() == row)
                    && changed
                        .spans
                        .iter()
                        .all(|span| span.start < span.end && span.end <= width)
                    && changed
                        .spans
                        .windows(2)
                        .all(|pair| pair[0].end < pair[1].start)
            }),
            "the changed columns are not sorted spans within the picture"
        );
        let mut changed_rows = rows
            .iter()
            .enumerate()
            .filter(|(_, row)| !row.spans.is_empty());
        let (Some(first_changed), Some(last_changed)) = (
            changed_rows.clone().next().map(|(y, _)| top + y),
            changed_rows.next_back().map(|(y, _)| top + y),
        ) else {
            return Ok(self.png_of(None));
        };
        // The chunks of the changed rows, and of the row after the last: a row is filtered
        // against the row above it.
        let first = first_changed / CHUNK_ROWS;
        let end = (last_changed + 2)
            .min(self.height as usize)
            .div_ceil(CHUNK_ROWS);
        let changed_row = |y: usize| y.checked_sub(top).and_then(|y| rows.get(y));
        let spans_of = |y: usize| changed_row(y).map_or(&[][..], |row| row.spans);
        let pixels = |y: usize| match changed_row(y) {
            Some(changed) if !changed.spans.is_empty() => changed.pixels,
            _ => &self.rgb[y * row..(y + 1) * row],
        };

        let mut runs = zero_runs::Runs::new();
        let mut residuals = Vec::with_capacity(row);
        let mut refiltered = Vec::new();
        for y in first * CHUNK_ROWS..(end * CHUNK_ROWS).min(self.height as usize) {
            runs.bytes(&[PAETH]);
            // A pixel's residual is of it, the pixel to its left, and the two above them: a
            // changed pixel reaches its own and the next to the right, in its row and the next.
            refiltered.clear();
            let above = y.checked_sub(1).map_or(&[][..], spans_of);
            refiltered.extend(
                spans_of(y)
                    .iter()
                    .chain(above)
                    .map(|span| span.start as usize * 3..(span.end + 1).min(width) as usize * 3),
            );
            refiltered.sort_unstable_by_key(|span| span.start);
            let base = &self.filtered[y * (row + 1) + 1..(y + 1) * (row + 1)];
            let mut at = 0;
            let mut spans = refiltered.iter().peekable();
            while let Some(span) = spans.next() {
                let mut span = span.clone();
                while let Some(next) = spans.next_if(|next| next.start <= span.end) {
                    span.end = span.end.max(next.end);
                }
                let span = span.start.max(at)..span.end;
                if span.is_empty() {
                    continue;
                }
                self.base_part(&mut runs, y, base, at..span.start);
                residuals.clear();
                let above = if y == 0 { &[][..] } else { pixels(y - 1) };
                paeth_span(pixels(y), above, span.clone(), &mut residuals);
                runs.bytes(&residuals);
                at = span.end;
            }
            self.base_part(&mut runs, y, base, at..row);
        }
        let (adler, len) = runs.checksum();
        let mut deflated = Vec::new();
        runs.deflate(&mut deflated);
        Ok(self.png_of(Some((
            first..end,
            Piece {
                deflated,
                adler,
                len,
            },
        ))))
    }

    /// The bytes `bytes` of the picture's filtered row `y` (`base`), told to `runs`.
    fn base_part(
        &self,
        runs: &mut zero_runs::Runs,
        y: usize,
        base: &[u8],
        bytes: std::ops::Range<usize>,
    ) {
        if self.zero_rows[y] {
            runs.zeros(bytes.len());
        } else {
            runs.bytes(&base[bytes]);
        }
    }

    /// The PNG of the picture's chunks, with `fresh` in place of those in its range.
    fn png_of(&self, fresh: Option<(std::ops::Range<usize>, Piece)>) -> Vec<u8> {
        let pieces: Vec<&Piece> = match &fresh {
            Some((chunks, fresh)) => self.chunks[..chunks.start]
                .iter()
                .chain([fresh])
                .chain(&self.chunks[chunks.end..])
                .collect(),
            None => self.chunks.iter().collect(),
        };
        let mut zlib =
            Vec::with_capacity(pieces.iter().map(|p| p.deflated.len()).sum::<usize>() + 8);
        zlib.extend_from_slice(&[0x78, 0x01]);
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
        out
    }
}

impl Piece {
    /// `filtered` rows compressed into a piece that ends on a byte.
    fn compressed(filtered: &[u8]) -> Result<Self> {
        // Level 2, zlib-rs's fast matcher with codes fitted to the data: done once for the
        // picture, where a few more bytes of every card's would count.
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
            adler: simd_adler32::adler32(&filtered),
            len: filtered.len(),
            deflated,
        })
    }
}

/// Appends `pixels` (RGB) Paeth-filtered against `above` (PNG, section 9.4), the row above
/// (empty for the first row).
fn paeth(pixels: &[u8], above: &[u8], out: &mut Vec<u8>) {
    paeth_span(pixels, above, 0..pixels.len(), out);
}

/// Appends the bytes `span` of the row `pixels` (RGB) Paeth-filtered against `above`, the row
/// above (empty for the first row). Written over whole slices, with the predictor chosen
/// without branches, so that the compiler can use vector instructions.
fn paeth_span(pixels: &[u8], above: &[u8], span: std::ops::Range<usize>, out: &mut Vec<u8>) {
    let zeros;
    let above = if above.is_empty() {
        zeros = vec![0; pixels.len()];
        &zeros
    } else {
        above
    };
    let start = out.len();
    out.resize(start + span.len(), 0);
    let out = &mut out[start..];
    // The first pixel has no left neighbour: the predictor of a = c = 0 is b.
    let first = span.start.max(3).min(span.end);
    for (i, out) in (span.start..first).zip(out.iter_mut()) {
        *out = pixels[i].wrapping_sub(above[i]);
    }
    if first == span.end {
        return;
    }
    let out = &mut out[first - span.start..];
    let (x, b) = (&pixels[first..span.end], &above[first..span.end]);
    let (a, c) = (
        &pixels[first - 3..span.end - 3],
        &above[first - 3..span.end - 3],
    );
    for i in 0..out.len() {
        out[i] = x[i].wrapping_sub(paeth_predictor(a[i], b[i], c[i]));
    }
}

/// The Paeth predictor of a pixel byte from its left (`a`), upper (`b`) and upper-left (`c`)
/// neighbours.
#[inline(always)]
fn paeth_predictor(a: u8, b: u8, c: u8) -> u8 {
    let (a16, b16, c16) = (i16::from(a), i16::from(b), i16::from(c));
    let (to_b, to_a) = (b16 - c16, a16 - c16);
    let (pa, pb, pc) = (to_b.abs(), to_a.abs(), (to_b + to_a).abs());
    // `|` rather than `||`, and selects rather than branches, so that the loop vectorises.
    let not_a = (pa > pb) | (pa > pc);
    let b_or_c = if pb <= pc { b } else { c };
    if not_a { b_or_c } else { a }
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
// A row's changed columns are a list of spans, often of one.
#[allow(clippy::single_range_in_vec_init)]
mod tests {
    use super::*;

    #[test]
    fn a_jpeg_keeps_the_colours_of_its_picture() {
        // Red above blue, at a width and height that are not whole 16-pixel blocks of 4:2:0.
        let (width, height) = (70, 45);
        let picture = image::RgbImage::from_fn(width, height, |_, y| {
            image::Rgb(if y < height / 2 {
                [220, 30, 20]
            } else {
                [20, 40, 210]
            })
        });
        let jpeg = encode(
            &DynamicImage::ImageRgb8(picture),
            Format::Jpeg,
            &Settings::default(),
        )
        .expect("a JPEG");
        let decoded = image::load_from_memory(&jpeg).expect("decodes").to_rgb8();
        assert_eq!(decoded.dimensions(), (width, height));
        for (x, y, want) in [
            (5, 5, [220, 30, 20]),
            (65, 40, [20, 40, 210]),
            (35, 10, [220, 30, 20]),
        ] {
            let got = decoded.get_pixel(x, y).0;
            let near = got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 12);
            assert!(near, "({x}, {y}) is {got:?}, not about {want:?}");
        }
    }

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
    fn changed_pixels_anywhere_give_the_png_of_the_picture_with_them() {
        let (width, height) = (41, 67);
        let row = width as usize * 3;
        // A picture whose rows repeat (as a card's background does) and one whose rows differ.
        let gradient: Vec<u8> = (0..height)
            .flat_map(|_| (0..row).map(|x| (x * 5 / 3) as u8))
            .collect();
        for picture in [gradient, picture(width, height, 0)] {
            let base = PngBase::new(picture.clone(), width, height).expect("the base");
            for (top, rows, spans) in [
                (0, 3, vec![0..1, 5..9]),
                (10, 20, vec![40..41]),
                (15, 2, vec![0..41]),
                (16, 16, vec![1..2, 3..4, 30..40]),
                (40, 27, vec![2..20, 21..22]),
                (66, 1, vec![7..8]),
            ] {
                let mut band = picture[top * row..(top + rows) * row].to_vec();
                // Every other row changes, in its spans: a row left alone keeps the picture's.
                let changed: Vec<Spans> = (0..rows)
                    .map(|y| {
                        if y % 2 == 0 {
                            spans.clone()
                        } else {
                            Vec::new()
                        }
                    })
                    .collect();
                for (y, spans) in changed.iter().enumerate() {
                    for x in spans
                        .iter()
                        .flat_map(|span| span.start as usize..span.end as usize)
                    {
                        for channel in 0..3 {
                            band[y * row + x * 3 + channel] ^= 0x5a + channel as u8;
                        }
                    }
                }
                // A row left alone is not read: its pixels may be anything, here none.
                let told: Vec<Changed<'_>> = band
                    .chunks_exact(row)
                    .zip(&changed)
                    .map(|(pixels, spans)| Changed {
                        pixels: if spans.is_empty() { &[] } else { pixels },
                        spans,
                    })
                    .collect();
                let png = base.png_with_changes(top as u32, &told).expect("a PNG");
                let decoded = image::load_from_memory(&png).expect("decodes").to_rgb8();
                let mut expected = picture.clone();
                expected[top * row..(top + rows) * row].copy_from_slice(&band);
                assert!(
                    decoded.as_raw() == &expected,
                    "rows {top} to {} differ",
                    top + rows
                );
            }
            let alone = Changed {
                pixels: &[],
                spans: &[],
            };
            let unchanged = base.png_with_changes(3, &[alone, alone]).expect("a PNG");
            let decoded = image::load_from_memory(&unchanged)
                .expect("decodes")
                .to_rgb8();
            assert!(decoded.as_raw() == &picture);
        }
    }

    #[test]
    fn dividing_by_255_with_shifts_is_dividing() {
        for v in 0..=255u16 * 255 {
            assert_eq!(u32::from(div255(v)), (u32::from(v) + 127) / 255, "{v}");
        }
    }

    #[test]
    fn blending_eight_pixels_at_a_time_is_blending_each() {
        // Coverage in runs of nothing and of full, as a glyph's is, with edges between.
        let coverage: Vec<u8> = (0..200u32)
            .map(|i| match i / 9 % 3 {
                0 => 0,
                1 => 255,
                _ => (i * 37 % 256) as u8,
            })
            .collect();
        let base = picture(200, 1, 7);
        for alpha in [255, 128, 0] {
            let mut blended = base.clone();
            blend(&mut blended, &coverage, [250, 10, 128], alpha);
            let mut each = base.clone();
            for (pixel, &covered) in each.chunks_exact_mut(3).zip(&coverage) {
                let a = (u32::from(covered) * u32::from(alpha) + 127) / 255;
                for (channel, ink) in pixel.iter_mut().zip([250u32, 10, 128]) {
                    *channel = ((u32::from(*channel) * (255 - a) + ink * a + 127) / 255) as u8;
                }
            }
            assert!(blended == each, "alpha {alpha}");
        }
    }

    #[test]
    fn a_band_that_does_not_fit_is_refused() {
        let base = PngBase::new(picture(4, 4, 0), 4, 4).expect("the base");
        assert!(base.png_with_band(3, &picture(4, 2, 1)).is_err());
        assert!(base.png_with_band(0, &[0; 5]).is_err());
        assert!(PngBase::new(vec![0; 10], 4, 4).is_err());
        let band = picture(4, 1, 1);
        for spans in [vec![0..5], vec![2..2], vec![2..3, 1..2], vec![0..2, 2..3]] {
            let rows = [Changed {
                pixels: &band,
                spans: &spans,
            }];
            assert!(base.png_with_changes(0, &rows).is_err());
        }
        let short = [Changed {
            pixels: &band[..3],
            spans: &[0..1],
        }];
        assert!(base.png_with_changes(0, &short).is_err());
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
