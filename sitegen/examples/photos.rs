//! The photo scenario of `make bench-site`: a copy of `content/` with `BENCH_PHOTOS` (200)
//! generated articles, each illustrated by a photo of its own of 4000 x 3000 pixels (a
//! generated JPEG of soft noise over gradients, about as hard to encode as a photograph), built
//! twice into one new cache: the first build's encode time (every photo encoded) and the
//! rebuild's (none), with the bytes of the sources against what a wide screen fetches.
//!
//! ```sh
//! cargo run --release -p sitegen --example photos -- target/release/sitegen [PHOTOS]
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

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let sitegen = PathBuf::from(args.next().context("usage: photos SITEGEN [PHOTOS]")?);
    let sitegen = std::path::absolute(&sitegen)?;
    let photos: usize = match args.next() {
        Some(n) => n.parse().with_context(|| format!("{n:?} is not a count"))?,
        None => 200,
    };
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
