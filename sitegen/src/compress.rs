//! Precompressed output: a `.br` and a `.gz` beside every text file over
//! [`MIN_BYTES`], so the CDN and `sitegen serve` send compressed bytes without compressing
//! on each request. Files are compressed in parallel; each variant decompresses byte for byte
//! to its original.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::output_dir::Files;

/// Files at or below this size are sent as they are: compressing them saves too little.
pub const MIN_BYTES: u64 = 1024;

/// The extensions of the text files that get compressed variants.
pub const TEXT_EXTENSIONS: [&str; 8] = [
    "html",
    "css",
    "js",
    "svg",
    "xml",
    "json",
    "txt",
    "webmanifest",
];

/// A compressed variant of a file: its content coding and file suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Brotli, `file.br`.
    Brotli,
    /// Gzip, `file.gz`.
    Gzip,
}

impl Encoding {
    /// Every variant, in the order a client that accepts several is served them.
    pub const PREFERRED: [Encoding; 2] = [Encoding::Brotli, Encoding::Gzip];

    /// The `Content-Encoding` token (`br`, `gzip`).
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        }
    }

    /// The suffix of the variant file, with its dot (`.br`, `.gz`).
    pub fn suffix(self) -> &'static str {
        match self {
            Encoding::Brotli => ".br",
            Encoding::Gzip => ".gz",
        }
    }

    /// `bytes` compressed with this coding.
    pub fn compress(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Encoding::Brotli => brotli_bytes(bytes),
            Encoding::Gzip => gzip_bytes(bytes),
        }
    }
}

/// Brotli quality. Measured on this site's output (2 MB of HTML, JS, CSS and SVG): 5 comes
/// within 1% of 9 in a ninth of the time (70 ms against 650 ms), and 11 saves 9% more at 55
/// times the cost; a site of thousands of pages compresses every new page on every build.
const BROTLI_QUALITY: u8 = 5;

/// The Brotli window for `len` bytes, in bits: as large as the input within 16 to 22 bits, as
/// the `brotli` command picks it. The encoder allocates and clears its tables by the window: on
/// this site's 36 kB article pages, a window of 16 bits takes 0.56 ms a page against 0.58 ms at
/// 18 (and 0.67 ms at 22), for 0.2% fewer bytes.
fn brotli_window(len: usize) -> u8 {
    let bits = usize::BITS - len.saturating_sub(1).leading_zeros();
    bits.clamp(16, 22) as u8
}

/// Gzip level, of libdeflate's 1 to 12. Measured on 400 of this site's article pages (36 kB):
/// 0.21 ms a page and 25.1% of the bytes, where zlib's default level 6 took 0.26 ms for 25.4%.
const GZIP_LEVEL: i32 = 5;

thread_local! {
    /// A compressor per thread: libdeflate allocates its match finder's tables with it.
    static GZIP: RefCell<libdeflater::Compressor> = RefCell::new(libdeflater::Compressor::new(
        libdeflater::CompressionLvl::new(GZIP_LEVEL)
            .expect("GZIP_LEVEL is one of libdeflate's levels"),
    ));
}

/// Gzip as the size report measures it and `.gz` files are written.
pub fn gzip_bytes(bytes: &[u8]) -> Vec<u8> {
    GZIP.with_borrow_mut(|gzip| {
        let mut out = vec![0; gzip.gzip_compress_bound(bytes.len())];
        let len = gzip
            .gzip_compress(bytes, &mut out)
            .expect("the output fits in libdeflate's bound");
        out.truncate(len);
        out
    })
}

fn brotli_bytes(bytes: &[u8]) -> Vec<u8> {
    let quality =
        brotlic::Quality::new(BROTLI_QUALITY).expect("BROTLI_QUALITY is one of brotli's qualities");
    let window = brotlic::WindowSize::new(brotli_window(bytes.len()))
        .expect("brotli_window is within brotli's windows");
    // The format's bound for qualities from 2: the encoder's output always fits in it.
    let bound =
        brotlic::compress_bound(bytes.len(), quality).expect("BROTLI_QUALITY, from 2, has a bound");
    let mut out = vec![0; bound];
    let len = brotlic::compress(
        bytes,
        &mut out,
        quality,
        window,
        brotlic::CompressionMode::Text,
    )
    .expect("the output fits in the format's bound");
    out.truncate(len);
    out
}

/// Whether `file` (a path relative to the output directory) gets compressed variants.
pub fn is_compressible(file: &str, len: u64) -> bool {
    len > MIN_BYTES
        && file
            .rsplit_once('.')
            .is_some_and(|(_, ext)| TEXT_EXTENSIONS.contains(&ext))
}

/// The gzipped size of each file that got variants, by file, for the size report.
pub type GzipSizes = HashMap<String, u64>;

/// Writes `file.br` and `file.gz` beside every compressible file of `dir`, in parallel.
pub fn compress_dir(dir: &Path) -> Result<GzipSizes> {
    let files = Files::list(dir)?;
    let todo: Vec<&String> = files
        .iter()
        .filter(|f| !f.ends_with(".br") && !f.ends_with(".gz"))
        .collect();
    let done: Vec<Option<(String, u64)>> = todo
        .into_par_iter()
        .map(|file| compress_file(dir, file))
        .collect::<Result<_>>()?;
    Ok(done.into_iter().flatten().collect())
}

/// `path` plus the variant's suffix (`about/index.html.br`).
pub fn variant_path(path: &Path, encoding: Encoding) -> std::path::PathBuf {
    let mut variant = path.as_os_str().to_owned();
    variant.push(encoding.suffix());
    variant.into()
}

fn compress_file(dir: &Path, file: &str) -> Result<Option<(String, u64)>> {
    let path = dir.join(file);
    let len = std::fs::metadata(&path)
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    if !is_compressible(file, len) {
        return Ok(None);
    }
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut gzip_len = 0;
    for encoding in Encoding::PREFERRED {
        let compressed = encoding.compress(&bytes);
        if encoding == Encoding::Gzip {
            gzip_len = compressed.len() as u64;
        }
        let variant = variant_path(&path, encoding);
        std::fs::write(&variant, compressed)
            .with_context(|| format!("writing {}", variant.display()))?;
    }
    Ok(Some((file.to_owned(), gzip_len)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_text_files_over_the_threshold_are_compressed() {
        assert!(is_compressible("about/index.html", 2000));
        assert!(is_compressible("site.webmanifest", 2000));
        assert!(!is_compressible("about/index.html", MIN_BYTES));
        assert!(!is_compressible("img/photo.webp", 50_000));
        assert!(!is_compressible("_headers", 50_000));
    }

    #[test]
    fn the_brotli_window_fits_the_input_and_every_size_round_trips() {
        assert_eq!(brotli_window(0), 16);
        assert_eq!(brotli_window(35_000), 16);
        assert_eq!(brotli_window((1 << 16) + 1), 17);
        assert_eq!(brotli_window((1 << 18) + 1), 19);
        assert_eq!(brotli_window(1 << 20), 20);
        assert_eq!(brotli_window(50 << 20), 22);
        for len in [0, 1, 35_000, (1 << 16) + 3, (1 << 18) + 7, 3 << 20] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let mut back = Vec::new();
            brotli::BrotliDecompress(&mut &Encoding::Brotli.compress(&bytes)[..], &mut back)
                .expect("decompresses");
            assert_eq!(back, bytes, "{len} bytes");
        }
    }
}
