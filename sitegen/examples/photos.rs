//! The photo scenario of `make bench-site`: a copy of `content/` with `BENCH_PHOTOS` (200)
//! generated articles, each illustrated by a photo of its own of 4000 x 3000 pixels (a
//! generated JPEG of soft noise over gradients, about as hard to encode as a photograph), built
//! twice into one new cache: the first build's encode time (every photo encoded) and the
//! rebuild's (none), with the bytes of the sources against what a wide screen fetches.
//!
//! With `--sharp DIR` (a folder where sharp is installed, as `make bench-site` does from
//! `sitegen/bench/peers/sharp/`), sharp then encodes the same sources to the same widths and
//! formats (`sitegen/bench/peers/sharp/photos.mjs`): its wall time and the bytes of each format
//! beside sitegen's. Its AVIF quality is [`SHARP_AVIF_QUALITY`], matched to sitegen's by SSIM.
//!
//! ```sh
//! cargo run --release -p sitegen --example photos -- target/release/sitegen [--sharp DIR] [PHOTOS]
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, ensure};
use image::{ImageEncoder, Rgb, RgbImage};
use rayon::prelude::*;

mod common;
use common::articles::add_articles;
use common::copy_dir;

const WIDTH: u32 = 4000;
const HEIGHT: u32 = 3000;

/// sharp's AVIF quality (libaom at effort 4) whose SSIM on these photos is sitegen's at its own
/// (`Settings::default()`: 60, rav1e at speed 7): 0.907 against 0.904, the mean over the four widths of two
/// photos, by scikit-image's SSIM of each file against its encoder's own scaled picture. The two
/// scales differ: sharp's 60 gives 0.956, with 60% more bytes than at 49.
const SHARP_AVIF_QUALITY: u32 = 49;

/// The formats compared with sharp: their extensions in sitegen's output and sharp's names.
const FORMATS: [(&str, &str); 3] = [("avif", "avif"), ("webp", "webp"), ("jpg", "jpeg")];

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: photos SITEGEN [--sharp DIR] [PHOTOS]";
    let sitegen = PathBuf::from(args.next().context(usage)?);
    let sitegen = std::path::absolute(&sitegen)?;
    let mut sharp = None;
    let mut photos = 200;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--sharp" => sharp = Some(std::path::absolute(args.next().context(usage)?)?),
            n => {
                photos = n
                    .parse()
                    .with_context(|| format!("{n:?} is not a count; {usage}"))?
            }
        }
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let work = tempfile::tempdir()?;
    let content = work.path().join("content");
    copy_dir(&repo.join("content"), &content)?;
    let articles = add_articles(&content, photos)?;
    std::fs::create_dir_all(content.join("images/bench"))?;
    eprintln!("writing {photos} photos of {WIDTH}x{HEIGHT}...");
    articles
        .par_iter()
        .enumerate()
        .map(|(n, article)| {
            std::fs::write(
                content.join(format!("images/bench/photo-{n}.jpg")),
                photo(n as u64),
            )?;
            let text = std::fs::read_to_string(article)?;
            let text: Vec<String> = text
                .lines()
                .map(|line| {
                    if line.starts_with("image:") {
                        format!("image: /images/bench/photo-{n}.jpg")
                    } else {
                        line.to_owned()
                    }
                })
                .collect();
            std::fs::write(article, text.join("\n") + "\n")?;
            Ok(())
        })
        .collect::<Result<()>>()?;

    let cache = work.path().join("cache");
    let mut first_images_ms = 0.0;
    for run in ["first build", "rebuild"] {
        let report = work.path().join("report.json");
        let status = Command::new(&sitegen)
            .current_dir(&repo)
            .args(["build", "--quiet", "--content"])
            .arg(&content)
            .arg("--out")
            .arg(work.path().join("dist"))
            .arg("--cache-dir")
            .arg(&cache)
            .arg("--report-json")
            .arg(&report)
            .status()?;
        ensure!(status.success(), "the {run} failed");
        let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&report)?)?;
        let images = &report["images"];
        let stage = report["stages"]
            .as_array()
            .and_then(|stages| stages.iter().find(|s| s["stage"] == "images"))
            .map(|s| s["elapsed"].clone())
            .unwrap_or_default();
        if run == "first build" {
            first_images_ms = stage.as_f64().unwrap_or_default();
        }
        println!(
            "{run}: {} photos encoded in {} ms ({} from the cache; images stage {stage} ms), {} files; sources {:.1} MB, largest AVIFs {:.1} MB",
            images["encoded"],
            images["encode_ms"],
            images["reused"],
            images["files"],
            images["source_bytes"].as_f64().unwrap_or_default() / 1e6,
            images["largest_avif_bytes"].as_f64().unwrap_or_default() / 1e6,
        );
    }
    if let Some(sharp) = sharp {
        compare_with_sharp(
            &sharp,
            &repo,
            &content.join("images/bench"),
            &work.path().join("dist"),
            photos,
            first_images_ms,
        )?;
    }
    Ok(())
}

/// sharp encoding the sources in `photos_dir` as sitegen did into `dist`, and the two side by
/// side: wall time (sitegen's: the first build's images stage, `sitegen_ms`) and bytes per format.
fn compare_with_sharp(
    sharp: &Path,
    repo: &Path,
    photos_dir: &Path,
    dist: &Path,
    photos: usize,
    sitegen_ms: f64,
) -> Result<()> {
    let widths: Vec<String> = sitegen::content::images::ImageUse::Illustration
        .widths()
        .iter()
        .map(u32::to_string)
        .collect();
    // sitegen's own settings; sharp's WebP and JPEG take the same qualities.
    let settings = sitegen::images::Settings::default();
    eprintln!("sharp: encoding the same {photos} photos...");
    let out = Command::new("node")
        .current_dir(sharp)
        .arg(std::path::absolute(
            repo.join("sitegen/bench/peers/sharp/photos.mjs"),
        )?)
        .arg(photos_dir)
        .arg(widths.join(","))
        .arg(SHARP_AVIF_QUALITY.to_string())
        .arg(settings.webp_quality.to_string())
        .arg(settings.jpeg_quality.to_string())
        .output()
        .context("running sharp's photos.mjs with node")?;
    ensure!(
        out.status.success(),
        "sharp failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let peer: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    // sitegen's files of the bench photos: `img/photo-N-WIDTH.HASH.EXT`.
    let mut ours = [0u64; FORMATS.len()];
    for entry in std::fs::read_dir(dist.join(sitegen::images::DIR))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let format = FORMATS
            .iter()
            .position(|(ext, _)| name.ends_with(&format!(".{ext}")));
        if let (true, Some(i)) = (name.starts_with("photo-"), format) {
            ours[i] += entry.metadata()?.len();
        }
    }
    let sharp_s = peer["seconds"].as_f64().unwrap_or_default();
    let sitegen_s = sitegen_ms / 1000.0;
    println!(
        "photos against sharp {} (libvips {}): {photos} sources of {WIDTH}x{HEIGHT} at widths {}, AVIF + WebP + JPEG each",
        peer["sharp"].as_str().unwrap_or("?"),
        peer["vips"].as_str().unwrap_or("?"),
        widths.join(" "),
    );
    println!(
        "  settings: sitegen AVIF {} (rav1e speed {}), WebP {webp}, JPEG {jpeg}; sharp AVIF {SHARP_AVIF_QUALITY} (effort 4: the same SSIM), WebP {webp}, JPEG {jpeg}",
        settings.avif_quality,
        settings.avif_speed,
        webp = settings.webp_quality,
        jpeg = settings.jpeg_quality,
    );
    println!(
        "  time: sitegen {sitegen_s:.1} s ({:.2} s a photo, the first build's images stage), sharp {sharp_s:.1} s ({:.2} s a photo): sitegen/sharp {:.2}",
        sitegen_s / photos as f64,
        sharp_s / photos as f64,
        sitegen_s / sharp_s
    );
    for (i, (_, name)) in FORMATS.iter().enumerate() {
        let theirs = peer["bytes"][name].as_f64().unwrap_or_default();
        println!(
            "  {name}: sitegen {:.2} MB, sharp {:.2} MB: sitegen/sharp {:.2}",
            ours[i] as f64 / 1e6,
            theirs / 1e6,
            ours[i] as f64 / theirs
        );
    }
    Ok(())
}

/// A 4000 x 3000 JPEG of its own: coloured noise over gradients, drawn at an eighth of the
/// size and scaled up (soft detail at every scale, as in a photograph), so neither encoder
/// finds it trivial.
fn photo(seed: u64) -> Vec<u8> {
    let (w, h) = (WIDTH / 8, HEIGHT / 8);
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let small = RgbImage::from_fn(w, h, |x, y| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let noise = (state % 64) as u32;
        let r = (x * 160 / w + noise) as u8;
        let g = (y * 150 / h + noise) as u8;
        let b = ((x + y + seed as u32 * 97) % 160) as u8 + noise as u8;
        Rgb([r, g, b])
    });
    let image =
        image::imageops::resize(&small, WIDTH, HEIGHT, image::imageops::FilterType::Triangle);
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .write_image(
            image.as_raw(),
            WIDTH,
            HEIGHT,
            image::ExtendedColorType::Rgb8,
        )
        .map(|()| out)
        .unwrap_or_default()
}
