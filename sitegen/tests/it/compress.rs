//! Precompressed output: which files get `.br` and `.gz` variants, and that each variant
//! decompresses byte for byte to its original.

use std::io::Read;
use std::path::Path;

use sitegen::compress::{Encoding, MIN_BYTES, compress_dir};

fn write(dir: &Path, file: &str, bytes: &[u8]) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

fn decompress(encoding: Encoding, bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    match encoding {
        Encoding::Brotli => brotli::Decompressor::new(bytes, 4096).read_to_end(&mut plain),
        Encoding::Gzip => flate2::read::GzDecoder::new(bytes).read_to_end(&mut plain),
    }
    .expect("a valid stream");
    plain
}

/// Text that does not compress to nothing: every line differs.
fn text(lines: usize) -> Vec<u8> {
    (0..lines)
        .map(|i| {
            format!(
                "<p data-i=\"{i}\">line {} of the page</p>\n",
                i * 7919 % 1013
            )
        })
        .collect::<String>()
        .into_bytes()
}

#[test]
fn every_text_file_over_a_kilobyte_gets_variants_that_decompress_to_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let big = text(200);
    assert!(big.len() as u64 > MIN_BYTES);
    let compressible = [
        "index.html",
        "about/index.html",
        "assets/app.js",
        "assets/style.css",
        "img/logo.svg",
        "sitemap.xml",
        "data.json",
        "robots.txt",
        "site.webmanifest",
    ];
    for file in compressible {
        write(dir.path(), file, &big);
    }
    write(dir.path(), "small.html", &text(5));
    write(dir.path(), "img/photo.webp", &big);
    write(dir.path(), "_headers", &big);

    let sizes = compress_dir(dir.path()).expect("compressed");

    for file in compressible {
        for encoding in Encoding::PREFERRED {
            let variant = dir.path().join(format!("{file}{}", encoding.suffix()));
            let bytes = std::fs::read(&variant).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(bytes.len() < big.len(), "{file} {encoding:?} is smaller");
            assert_eq!(decompress(encoding, &bytes), big, "{file} {encoding:?}");
        }
        let gz = std::fs::metadata(dir.path().join(format!("{file}.gz"))).expect("gz");
        assert_eq!(sizes.get(file), Some(&gz.len()), "{file}");
    }
    for file in ["small.html", "img/photo.webp", "_headers"] {
        for encoding in Encoding::PREFERRED {
            let variant = dir.path().join(format!("{file}{}", encoding.suffix()));
            assert!(!variant.exists(), "{} was written", variant.display());
        }
    }
    assert_eq!(sizes.len(), compressible.len());
}

#[test]
fn compressing_twice_writes_the_same_variants() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "index.html", &text(300));
    compress_dir(dir.path()).expect("compressed");
    let first = std::fs::read(dir.path().join("index.html.br")).expect("br");
    compress_dir(dir.path()).expect("compressed again");
    assert_eq!(
        std::fs::read(dir.path().join("index.html.br")).expect("br"),
        first
    );
    assert!(!dir.path().join("index.html.br.gz").exists());
}

#[test]
fn unchanged_files_reuse_the_variants_of_the_previous_build() {
    // A build stores every file with its variants once, by the hash of its bytes: the next
    // build of the same bytes reuses them, changed bytes get variants of their own, and what the
    // previous build stored is left as it was.
    let dir = tempfile::tempdir().expect("temp dir");
    let store = sitegen::cache::Cache::open(Some(dir.path()))
        .expect("cache")
        .files();
    let (same, changed) = (text(300), text(301));
    let previous_same = store.put("same.html", &same).expect("stored");
    let previous_changed = store.put("changed.html", &same).expect("stored");
    let variant = |hash: &str, encoding: Encoding| {
        sitegen::compress::variant_path(&store.path(hash), encoding)
    };
    let written = |hash: &str| {
        std::fs::metadata(variant(hash, Encoding::Brotli))
            .and_then(|m| m.modified())
            .expect("variant")
    };
    let before = written(&previous_same.hash);

    let next_same = store.put("same.html", &same).expect("stored");
    let next_changed = store.put("changed.html", &changed).expect("stored");
    assert_eq!(next_same, previous_same);
    assert_eq!(
        written(&next_same.hash),
        before,
        "the same bytes are not compressed again"
    );
    for encoding in Encoding::PREFERRED {
        let read = |hash: &str| std::fs::read(variant(hash, encoding)).expect("variant");
        assert_eq!(decompress(encoding, &read(&next_changed.hash)), changed);
        // The previous build's file is left as it was.
        assert_eq!(decompress(encoding, &read(&previous_changed.hash)), same);
    }
    let gz = std::fs::metadata(variant(&next_same.hash, Encoding::Gzip)).expect("gz");
    assert_eq!(next_same.gzip_len, Some(gz.len()));
}

#[test]
fn the_served_fixture_variants_match_their_originals() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dist-basic");
    for (file, encoding) in [
        ("index.html", Encoding::Brotli),
        ("index.html", Encoding::Gzip),
        ("about/index.html", Encoding::Gzip),
        ("404.html", Encoding::Brotli),
        ("404.html", Encoding::Gzip),
    ] {
        let original = std::fs::read(dir.join(file)).expect("original");
        let variant =
            std::fs::read(dir.join(format!("{file}{}", encoding.suffix()))).expect("variant");
        assert_eq!(
            decompress(encoding, &variant),
            original,
            "{file} {encoding:?}"
        );
    }
}
