//! The scale scenario of `make bench`: builds a temporary copy of `content/` as it is and
//! with extra generated sub-service pages (or, with `--articles`, extra generated articles),
//! and prints the wall time of each build step and the cost of each extra page. With
//! `--articles` it also prints the search index's size and what a one-word search fetches
//! (the search code, the index's entry, word shards and result fragments, gzipped).
//!
//! ```sh
//! cargo run --release -p sitegen --example scale -- target/release/sitegen 1000 5000
//! cargo run --release -p sitegen --example scale -- target/release/sitegen --articles 1000 5000
//! ```
//!
//! With `--write-content DIR --articles N` it only writes the copy of `content/` with `N`
//! generated articles into `DIR`, for `make bench-deploy`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail, ensure};
use serde_yaml::Value;

mod common;
use common::articles::add_articles;
use common::copy_dir;

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let sitegen = PathBuf::from(
        args.next()
            .context("usage: scale SITEGEN [EXTRA_PAGES...]")?,
    );
    let mut args = args.peekable();
    if args.next_if(|a| a == "--write-content").is_some() {
        let out = PathBuf::from(args.next().context("--write-content DIR")?);
        ensure!(
            args.next().as_deref() == Some("--articles"),
            "--write-content DIR --articles N"
        );
        let extra = args.next().context("--articles N")?.parse()?;
        copy_dir(Path::new("content"), &out)?;
        add_articles(&out, extra)?;
        return Ok(());
    }
    let articles = args.next_if(|a| a == "--articles").is_some();
    let extras: Vec<usize> = args
        .map(|a| {
            a.parse()
                .with_context(|| format!("{a:?} is not a page count"))
        })
        .collect::<Result<_>>()?;
    // SCALE_KEEP=1 keeps the generated content and builds (the directory is printed).
    let work = tempfile::Builder::new()
        .prefix("sitegen-scale-")
        .disable_cleanup(std::env::var_os("SCALE_KEEP").is_some())
        .tempdir()?;
    if std::env::var_os("SCALE_KEEP").is_some() {
        println!("keeping {}", work.path().display());
    }

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
        if std::env::var_os("SCALE_KEEP").is_none() {
            std::fs::remove_dir_all(&dir)?;
        }
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
            "\n{:>6} {:>7} {:>13} {:>12}   one-word search: word, shards, results, gz kB fetched",
            "extra", "files", "index raw kB", "index gz kB"
        );
        for (extra, w) in &search_sizes {
            print!(
                "{extra:>6} {:>7} {:>13.1} {:>12.1}  ",
                w.files,
                w.raw as f64 / 1e3,
                w.gz as f64 / 1e3
            );
            for (word, shards, results, bytes) in &w.queries {
                print!(" | {word} {shards} {results} {:.1}", *bytes as f64 / 1e3);
            }
            println!();
        }
        println!(
            "(the index is every file under /{}/; gz is what a gzip-accepting visitor receives: \
             the .gz the build wrote, or the file itself when too small to compress; a search \
             fetches the search code, the entry, the shards of the typed word's \
             prefix and the fragments of the first {FIRST_PAGE} results)",
            sitegen::search::DIR
        );
    }
    Ok(())
}

/// What the search index weighs: every file's raw bytes and the bytes a gzip-accepting
/// visitor receives (the `.gz` variant where the build wrote one, the file itself otherwise),
/// and per query word of [`QUERY_WORDS`] what typing it alone fetches, as received: the search
/// code, the entry, the word shards of its prefix and the fragments of the first page of results.
struct SearchWeight {
    raw: u64,
    gz: u64,
    files: usize,
    queries: Vec<(&'static str, usize, usize, u64)>,
}

/// One rare topical word, one common one, and the most common word of all (the worst case).
const QUERY_WORDS: [&str; 3] = ["kubernetes", "data", "the"];
/// The results on the first page (`MAX_RESULTS` of site/enhance/SearchBox.ts).
const FIRST_PAGE: usize = 8;

fn search_weight(dist: &Path) -> Result<SearchWeight> {
    let dir = dist.join(sitegen::search::DIR);
    let (mut raw, mut gz, mut files) = (0, 0, 0);
    let mut entry_file = None;
    for entry in walkdir::WalkDir::new(&dir) {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy();
        if !entry.file_type().is_file() || name.ends_with(".gz") || name.ends_with(".br") {
            continue;
        }
        if name.starts_with("entry.") {
            entry_file = Some(entry.path().to_owned());
        }
        raw += entry.metadata()?.len();
        gz += served(entry.path())?;
        files += 1;
    }
    let entry_file = entry_file.context("no search entry file")?;
    let entry: sitegen::search::Entry = serde_json::from_slice(&std::fs::read(&entry_file)?)?;
    let code = search_code_gz(dist)?;
    let mut queries = Vec::new();
    for word in QUERY_WORDS {
        let shards = entry.shards_for(word, true);
        let mut fetched = code + served(&entry_file)?;
        let mut scores: std::collections::BTreeMap<u32, u32> = Default::default();
        for &i in &shards {
            let path = dir.join(&entry.shards[i].1);
            fetched += served(&path)?;
            let shard: sitegen::search::Shard = serde_json::from_slice(&std::fs::read(&path)?)?;
            for (w, postings) in shard.iter().filter(|(w, _)| w.starts_with(word)) {
                let mut doc = 0;
                for pair in postings.chunks(2) {
                    doc += pair[0];
                    *scores.entry(doc).or_default() +=
                        if w == word { pair[1] * 2 } else { pair[1] };
                }
            }
        }
        let mut ranked: Vec<(u32, u32)> = scores.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
        for (doc, _) in ranked.iter().take(FIRST_PAGE) {
            let fragment = entry
                .fragment(*doc as usize)
                .context("a result past the last article")?;
            fetched += served(&dir.join(fragment))?;
        }
        queries.push((word, shards.len(), ranked.len(), fetched));
    }
    Ok(SearchWeight {
        raw,
        gz,
        files,
        queries,
    })
}

/// The bytes a gzip-accepting visitor receives for `path`: its `.gz` where the build wrote
/// one, the file itself otherwise.
fn served(path: &Path) -> Result<u64> {
    let gz = PathBuf::from(format!("{}.gz", path.display()));
    Ok(std::fs::metadata(if gz.exists() { &gz } else { path })?.len())
}

/// What a visitor receives (see [`served`]) of the search engine's script (the one chunk naming the index's
/// [`sitegen::search::DOC_PLACEHOLDER`], which the box imports on its first focus) and of the
/// scripts it imports.
fn search_code_gz(dist: &Path) -> Result<u64> {
    let marker = sitegen::search::DOC_PLACEHOLDER;
    let mut engine = Vec::new();
    for file in walkdir::WalkDir::new(dist.join("assets")) {
        let file = file?;
        if file.path().extension().is_some_and(|e| e == "js")
            && std::fs::read_to_string(file.path())?.contains(marker)
        {
            engine.push(file.path().to_owned());
        }
    }
    ensure!(
        engine.len() == 1,
        "expected one script naming {marker}, found {engine:?}"
    );
    let mut seen = std::collections::BTreeSet::new();
    let mut total = 0;
    while let Some(path) = engine.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        total += served(&path)?;
        // Static imports of sibling chunks: `from"./chunk-….js"`.
        for import in text.split("from\"./").skip(1) {
            if let Some((name, _)) = import.split_once('"') {
                let imported = path.with_file_name(name);
                if imported.is_file() {
                    engine.push(imported);
                }
            }
        }
    }
    Ok(total)
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
