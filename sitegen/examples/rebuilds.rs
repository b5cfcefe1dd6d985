//! The rebuild scenarios of `make bench-site`: for a copy of `content/` with 0 and more
//! generated articles, the wall time and the peak memory (sitegen and its render workers
//! together) of
//!
//! - a cold build (`--no-cache`, into an empty output),
//! - a rebuild with nothing changed,
//! - a rebuild after one article's body changed,
//! - a rebuild after `site.yaml` changed (every page's frame changes, so every page renders),
//! - a rebuild after a new article was added, the newest of all (the listings of its category
//!   shift by one, and the articles of its category show it among their latest),
//!
//! each the median of `REBUILDS_RUNS` runs (default 3), and the cold build's cost per extra
//! article against the build without extra articles. The content keeps its languages (the
//! generated articles are in the default one only); `--one-language N` adds a row for the copy
//! with N extra articles in its default language alone, which shows what the others cost.
//!
//! ```sh
//! cargo run --release -p sitegen --example rebuilds -- target/release/sitegen \
//!     --one-language 5000 1000 5000 20000
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};

mod common;
use common::articles::add_articles;
use common::copy_dir;
use common::languages::one_language;

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let sitegen = PathBuf::from(
        args.next()
            .context("usage: rebuilds SITEGEN [EXTRA_ARTICLES...]")?,
    );
    let sitegen = std::path::absolute(&sitegen)?;
    let count =
        |a: &str| -> Result<usize> { a.parse().with_context(|| format!("{a:?} is not a count")) };
    let (mut extras, mut one_language_at) = (Vec::new(), None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--one-language" => {
                one_language_at = Some(count(&args.next().context("--one-language N")?)?);
            }
            _ => extras.push(count(&arg)?),
        }
    }
    let runs: usize = std::env::var("REBUILDS_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    // On tmpfs when there is one, as the peers are measured; REBUILDS_DIR picks another place.
    let parent = std::env::var_os("REBUILDS_DIR")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/dev/shm")).filter(|p| p.is_dir()))
        .unwrap_or_else(std::env::temp_dir);
    let work = tempfile::Builder::new()
        .prefix("sitegen-rebuilds-")
        .tempdir_in(&parent)?;
    println!(
        "{} run(s) each, median; work in {}; load average {}",
        runs,
        parent.display(),
        common::load_average()
    );
    println!(
        "{:>7} {:>6} {:>5} {:>22} {:>22} {:>22} {:>22} {:>22} {:>11}",
        "extra",
        "pages",
        "langs",
        "cold ms / peak MB",
        "unchanged ms / MB",
        "one article ms / MB",
        "site.yaml ms / MB",
        "new article ms / MB",
        "cold ms/art"
    );
    let mut cold_base = None;
    let variants = std::iter::once(0).chain(extras).flat_map(|extra| {
        let alone = (one_language_at == Some(extra)).then_some((extra, true));
        std::iter::once((extra, false)).chain(alone)
    });
    for (extra, alone) in variants {
        let dir = work.path().join(format!("extra-{extra}"));
        let content = dir.join("content");
        copy_dir(Path::new("content"), &content)?;
        if alone {
            one_language(&content)?;
        }
        let languages = std::fs::read_to_string(content.join("site.yaml"))?
            .lines()
            .skip_while(|line| !line.starts_with("languages:"))
            .skip(1)
            .take_while(|line| line.starts_with("  "))
            .filter(|line| line.starts_with("  - "))
            .count();
        let added = add_articles(&content, extra)?;
        let cache = dir.join("cache");
        let out = dir.join("dist");
        let build = |extra_args: &[&str]| -> Result<Measured> {
            let mut command = Command::new(&sitegen);
            command
                .args(["build", "--quiet", "--content"])
                .arg(&content)
                .arg("--out")
                .arg(&out)
                .arg("--cache-dir")
                .arg(&cache)
                .args(extra_args);
            measure(command)
        };
        // A warm-up: the bundle is built once into this cache (a cold build rebuilds it).
        build(&[])?;
        let mut samples: HashMap<&str, Vec<Measured>> = HashMap::new();
        let site_yaml = content.join("site.yaml");
        let original_site = std::fs::read_to_string(&site_yaml)?;
        let article = added
            .first()
            .cloned()
            .unwrap_or(content.join("articles").join(first_article(&content)?));
        for run in 0..runs {
            std::fs::remove_dir_all(&out).ok();
            samples
                .entry("cold")
                .or_default()
                .push(build(&["--no-cache"])?);
            // The cold build used a cache of its own: this one fills the shared one.
            build(&[])?;
            samples.entry("unchanged").or_default().push(build(&[])?);
            let mut text = std::fs::read_to_string(&article)?;
            text.push_str(&format!("\nOne more sentence, edit {run}.\n"));
            std::fs::write(&article, text)?;
            samples.entry("article").or_default().push(build(&[])?);
            std::fs::write(
                &site_yaml,
                original_site.replacen("  name: Nordvale", &format!("  name: Nordvale {run}"), 1),
            )?;
            samples.entry("site").or_default().push(build(&[])?);
            std::fs::write(&site_yaml, &original_site)?;
            // Unmeasured: the new article's build then renders what the article changes alone.
            build(&[])?;
            let new_article = content.join("articles").join("a-new-article.md");
            std::fs::write(&new_article, newest_copy(&article, run)?)?;
            samples.entry("new").or_default().push(build(&[])?);
            std::fs::remove_file(&new_article)?;
        }
        let median = |name: &str| -> Measured {
            let mut all = samples.get(name).cloned().unwrap_or_default();
            all.sort_by_key(|m| m.wall);
            all.get(all.len() / 2).copied().unwrap_or_default()
        };
        let cold = median("cold");
        let per_article = match cold_base {
            Some(base) if extra > 0 && !alone => {
                let extra_ms = (cold.wall.as_secs_f64() - base) * 1000.0;
                format!("{:.2}", extra_ms / extra as f64)
            }
            _ => "-".into(),
        };
        if extra == 0 {
            cold_base = Some(cold.wall.as_secs_f64());
        }
        let pages = std::fs::read_dir(content.join("articles"))?
            .filter_map(Result::ok)
            .filter(|e| {
                let name = e.file_name();
                !sitegen::content::translate::is_translation(&name.to_string_lossy())
            })
            .count();
        println!(
            "{extra:>7} {pages:>6} {languages:>5} {:>22} {:>22} {:>22} {:>22} {:>22} {:>11}",
            median("cold"),
            median("unchanged"),
            median("article"),
            median("site"),
            median("new"),
            per_article
        );
        std::fs::remove_dir_all(&dir)?;
    }
    println!(
        "(pages: articles in the copy, each in the default language, a few translated too; the \
         site's other pages come on top, in every language. langs: the languages built. cold \
         ms/art: the cold build's time beyond the build without extra articles, per extra article)"
    );
    Ok(())
}

/// `article` as a new article of run `run`: another title, dated the first of January after
/// the newest article of its folder, so that it is the newest of all.
fn newest_copy(article: &Path, run: usize) -> Result<String> {
    let dir = article.parent().context("an article's folder")?;
    let mut newest_year = 0;
    for entry in std::fs::read_dir(dir)? {
        let text = std::fs::read_to_string(entry?.path())?;
        let year = text
            .lines()
            .find_map(|line| line.strip_prefix("date: "))
            .and_then(|date| date.get(..4)?.parse::<u32>().ok());
        newest_year = newest_year.max(year.unwrap_or(0));
    }
    let text = std::fs::read_to_string(article)?;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if line.starts_with("title: ") {
                format!("title: A new article, run {run}")
            } else if line.starts_with("date: ") {
                format!("date: {}-01-01", newest_year + 1)
            } else {
                line.to_owned()
            }
        })
        .collect();
    Ok(lines.join("\n") + "\n")
}

fn first_article(content: &Path) -> Result<String> {
    let mut names: Vec<String> = std::fs::read_dir(content.join("articles"))?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .next()
        .context("the content has no article")
}

/// One build: its wall time and the peak of the summed resident memory of sitegen and every
/// process under it.
#[derive(Debug, Default, Clone, Copy)]
struct Measured {
    wall: Duration,
    peak_kb: u64,
}

impl std::fmt::Display for Measured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = format!(
            "{:.0} / {:.0}",
            self.wall.as_secs_f64() * 1000.0,
            self.peak_kb as f64 / 1024.0
        );
        f.pad(&text)
    }
}

fn measure(mut command: Command) -> Result<Measured> {
    let started = Instant::now();
    let mut child = command.stdout(Stdio::null()).spawn()?;
    let mut peak_kb = 0;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        peak_kb = peak_kb.max(common::tree_rss_kb(child.id()).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(10));
    };
    let wall = started.elapsed();
    ensure!(status.success(), "the build failed ({status})");
    Ok(Measured { wall, peak_kb })
}
