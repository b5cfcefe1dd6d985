//! The benchmark of `sitegen deploy` (`make bench-deploy`): for each content directory, a
//! release build, then against moto's S3 server on loopback (a fresh bucket each): the
//! first deploy, a deploy of the same build (no change), and a deploy after one article's
//! body was edited and the site rebuilt. Prints time, requests, objects and bytes of each.
//! The target is a no-change deploy of 5,000 articles in under 3 s, in a few list requests.
//!
//! ```sh
//! deploy_bench SITEGEN NAME=CONTENT_DIR...
//! ```

#[allow(dead_code)]
#[path = "../tests/it/support/moto.rs"]
mod moto;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use sitegen::deploy::credentials::Found;
use sitegen::deploy::{DeployOptions, Summary, deploy, human_bytes};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let sitegen = PathBuf::from(
        args.next()
            .context("usage: deploy_bench SITEGEN NAME=CONTENT...")?,
    );
    let sites: Vec<(String, PathBuf)> = args
        .map(|a| {
            let (name, dir) = a.split_once('=').context("NAME=CONTENT_DIR")?;
            Ok((name.to_owned(), PathBuf::from(dir)))
        })
        .collect::<Result<_>>()?;
    println!(
        "{:<14} {:<10} {:>7} {:>8} {:>9} {:>9} {:>9} {:>11}",
        "site", "deploy", "objects", "uploaded", "deleted", "requests", "bytes", "seconds"
    );
    for (name, content) in &sites {
        let moto = moto::Moto::start();
        let bucket = "bench";
        moto.create_bucket(bucket);
        let dist = content.with_extension("dist");
        let build_time = build(&sitegen, content, &dist)?;
        let options = DeployOptions {
            endpoint: Some(moto.endpoint.clone()),
            ..DeployOptions::new(
                dist.clone(),
                format!("s3://{bucket}")
                    .parse()
                    .map_err(anyhow::Error::msg)?,
            )
        };
        let found = Found {
            credentials: moto.credentials.clone(),
            region: "us-east-1".into(),
        };
        let first = deploy(&options, &found)?;
        row(name, "first", &first);
        let same = deploy(&options, &found)?;
        row(name, "no change", &same);
        edit_one_article(content)?;
        build(&sitegen, content, &dist)?;
        let one = deploy(&options, &found)?;
        row(name, "1 article", &one);
        println!(
            "{:<14} (release build of the site: {:.1} s)",
            "",
            build_time.as_secs_f64()
        );
    }
    println!(
        "(moto's S3 server on loopback; requests include the listing, 1,000 keys a request; \
         bytes are the bodies uploaded, gzip for compressed files)"
    );
    Ok(())
}

fn row(site: &str, kind: &str, s: &Summary) {
    println!(
        "{site:<14} {kind:<10} {:>7} {:>8} {:>9} {:>9} {:>9} {:>11.2}",
        s.uploaded + s.unchanged,
        s.uploaded,
        s.deleted,
        s.requests,
        human_bytes(s.bytes),
        s.elapsed.as_secs_f64()
    );
}

fn build(sitegen: &Path, content: &Path, out: &Path) -> Result<Duration> {
    let started = Instant::now();
    let status = Command::new(sitegen)
        .args(["build", "--quiet", "--content"])
        .arg(content)
        .arg("--out")
        .arg(out)
        .status()
        .with_context(|| format!("running {}", sitegen.display()))?;
    ensure!(
        status.success(),
        "the build of {} failed",
        content.display()
    );
    Ok(started.elapsed())
}

/// Appends a sentence to the body of the first article (by file name).
fn edit_one_article(content: &Path) -> Result<()> {
    let mut articles: Vec<PathBuf> = std::fs::read_dir(content.join("articles"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    articles.sort();
    let first = articles.first().context("no article to edit")?;
    let mut text = std::fs::read_to_string(first)?;
    text.push_str("\nOne more sentence, added by the deploy benchmark.\n");
    std::fs::write(first, text)?;
    Ok(())
}
