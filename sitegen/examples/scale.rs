//! The scale scenario of `make bench`: builds a temporary copy of `content/` as it is and
//! with extra generated sub-service pages (or, with `--articles`, extra generated articles),
//! and prints the wall time of each build step and the cost of each extra page. With
//! `--articles` it also prints the search index's size and what a one-word search fetches
//! (the search code and the index, gzipped).
//!
//! ```sh
//! cargo run --release -p sitegen --example scale -- target/release/sitegen 1000 5000
//! cargo run --release -p sitegen --example scale -- target/release/sitegen --articles 1000 5000
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail, ensure};
use serde_yaml::Value;

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let sitegen = PathBuf::from(
        args.next()
            .context("usage: scale SITEGEN [EXTRA_PAGES...]")?,
    );
    let mut args = args.peekable();
    let articles = args.next_if(|a| a == "--articles").is_some();
    let extras: Vec<usize> = args
        .map(|a| {
            a.parse()
                .with_context(|| format!("{a:?} is not a page count"))
        })
        .collect::<Result<_>>()?;
    let work = tempfile::Builder::new()
        .prefix("sitegen-scale-")
        .tempdir()?;

    let mut runs = Vec::new();
    let mut search_sizes = Vec::new();
    for extra in std::iter::once(0).chain(extras) {
        let dir = work.path().join(format!("extra-{extra}"));
        let content = dir.join("content");
        copy_dir(Path::new("content"), &content)?;
        if articles {
            add_articles(&content, extra)?;
        } else {
            add_sub_services(&content, extra)?;
        }
        // A first build into an empty directory, then a rebuild of the same content over it.
        for kind in ["first", "rebuild"] {
            let (pages, wall, stages) = build(&sitegen, &content, &dir)?;
            runs.push((extra, kind, pages, wall, stages));
        }
        if articles {
            search_sizes.push((extra, search_weight(&dir.join("dist"))?));
        }
        std::fs::remove_dir_all(&dir)?;
    }

    let names: Vec<String> = runs[0].4.iter().map(|(n, _)| n.clone()).collect();
    print!(
        "{:>6} {:>7} {:>6} {:>9}",
        "extra", "build", "pages", "wall ms"
    );
    for name in &names {
        print!(" {:>10}", name);
    }
    println!(" {:>13} {:>14}", "sitegen share", "ms/extra page");
    for (extra, kind, pages, wall, stages) in &runs {
        let base_wall = runs
            .iter()
            .find(|r| r.0 == 0 && r.1 == *kind)
            .map_or(0.0, |r| r.3);
        print!("{extra:>6} {kind:>7} {pages:>6} {wall:>9.0}");
        for (_, ms) in stages {
            print!(" {ms:>10.0}");
        }
        let own: f64 = stages
            .iter()
            .filter(|(n, _)| n != "prerender")
            .map(|(_, ms)| ms)
            .sum();
        let per_page = if *extra > 0 {
            format!("{:.2}", (wall - base_wall) / *extra as f64)
        } else {
            "-".to_owned()
        };
        println!(" {:>12.1}% {per_page:>14}", own / wall * 100.0);
    }
    println!(
        "(stage columns in ms; the sitegen share counts every stage but the prerender; \
         ms/extra page compares with the build of the same kind without extra pages)"
    );
    if articles {
        println!(
            "{:>6} {:>15} {:>14} {:>26}",
            "extra", "index raw kB", "index gz kB", "one-word search gz kB"
        );
        for (extra, (raw, gz, code_gz)) in &search_sizes {
            println!(
                "{extra:>6} {:>15.1} {:>14.1} {:>26.1}",
                *raw as f64 / 1e3,
                *gz as f64 / 1e3,
                (*gz + *code_gz) as f64 / 1e3
            );
        }
        println!(
            "(a search fetches the search code and the whole index once, on the box's first focus)"
        );
    }
    Ok(())
}

/// Adds `extra` articles, copies of the existing ones under new slugs and titles.
fn add_articles(content: &Path, extra: usize) -> Result<()> {
    let dir = content.join("articles");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    sources.retain(|p| p.extension().is_some_and(|e| e == "md"));
    sources.sort();
    ensure!(!sources.is_empty(), "no articles in {}", dir.display());
    let texts: Vec<String> = sources
        .iter()
        .map(std::fs::read_to_string)
        .collect::<Result<_, _>>()?;
    for n in 0..extra {
        let text = &texts[n % texts.len()];
        let copy: Vec<String> = text
            .lines()
            .map(|line| {
                if line.starts_with("title:") {
                    format!("title: Generated article {n}")
                } else if line.starts_with("featured:") {
                    "featured: false".to_owned()
                } else {
                    line.to_owned()
                }
            })
            .collect();
        let copy = copy.join("\n") + "\n";
        std::fs::write(dir.join(format!("generated-{n}.md")), copy)?;
    }
    Ok(())
}

/// The search index's raw and gzipped sizes and the gzipped size of the search code.
fn search_weight(dist: &Path) -> Result<(u64, u64, u64)> {
    let index = dist.join(sitegen::search::INDEX_FILE);
    let raw = std::fs::metadata(&index)?.len();
    let gz = gzip_len(&std::fs::read(&index)?)?;
    let mut code = 0;
    for entry in walkdir::WalkDir::new(dist.join("assets")) {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy();
        if (name.starts_with("SearchBox") || name.starts_with("ArticleSearch"))
            && name.ends_with(".js")
        {
            code += gzip_len(&std::fs::read(entry.path())?)?;
        }
    }
    Ok((raw, gz, code))
}

fn gzip_len(bytes: &[u8]) -> Result<u64> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len() as u64)
}

type Stages = Vec<(String, f64)>;

/// Builds `content` into `dir/dist`: the number of pages, the wall time and each step's time.
fn build(sitegen: &Path, content: &Path, dir: &Path) -> Result<(usize, f64, Stages)> {
    let report = dir.join("report.json");
    let started = Instant::now();
    let status = Command::new(sitegen)
        .args(["build", "--quiet", "--content"])
        .arg(content)
        .arg("--out")
        .arg(dir.join("dist"))
        .arg("--report-json")
        .arg(&report)
        .status()
        .with_context(|| format!("running {}", sitegen.display()))?;
    let wall = started.elapsed().as_secs_f64() * 1e3;
    ensure!(
        status.success(),
        "the build of {} failed",
        content.display()
    );
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report)?)?;
    let pages = json["pages"].as_array().map_or(0, Vec::len);
    let stages = json["stages"]
        .as_array()
        .context("stages in the report")?
        .iter()
        .map(|s| {
            (
                s["stage"].as_str().unwrap_or_default().to_owned(),
                s["elapsed"].as_f64().unwrap_or_default(),
            )
        })
        .collect();
    Ok((pages, wall, stages))
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry?;
        let target = to.join(entry.path().strip_prefix(from)?);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Adds `extra` sub-service pages, spread over the service categories, each a copy of the
/// category's first sub-service under a new slug and name.
fn add_sub_services(content: &Path, extra: usize) -> Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(content.join("services"))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    files.sort();
    if files.is_empty() {
        bail!("no service categories in {}", content.display());
    }
    for (index, file) in files.iter().enumerate() {
        let share = extra / files.len() + usize::from(index < extra % files.len());
        if share == 0 {
            continue;
        }
        let mut category: Value = serde_yaml::from_str(&std::fs::read_to_string(file)?)?;
        let subs = category
            .get_mut("sub_services")
            .and_then(Value::as_sequence_mut)
            .with_context(|| format!("sub_services in {}", file.display()))?;
        let template = subs.first().cloned().context("a sub-service to copy")?;
        for n in 0..share {
            let mut page = template.clone();
            let name = format!("Generated Service {index}-{n}");
            page["slug"] = Value::from(format!("generated-{index}-{n}"));
            page["name"] = Value::from(name.clone());
            page["meta"]["title"] = Value::from(format!("{name} | Nordvale"));
            subs.push(page);
        }
        std::fs::write(file, serde_yaml::to_string(&category)?)?;
    }
    Ok(())
}
