//! The `sitegen` command line: parses arguments, calls the library, reports.

use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use sitegen::build::{BuildError, BuildOptions};
use sitegen::content::Content;

/// The stages allocate and free millions of small strings, vectors and maps (the Markdown, the
/// search index, the records of the cache), which mimalloc serves faster than the system's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Turns the YAML under content/ into a CDN-ready static website.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Validate the content, prerender every page and publish the output directory.
    Build {
        /// Output directory, replaced as a whole only when the build succeeds.
        #[arg(long, default_value = "dist")]
        out: PathBuf,
        #[command(flatten)]
        dirs: Dirs,
        /// URL of the contact service the forms post to, instead of the one in site.yaml.
        #[arg(long, env = "SITEGEN_CONTACT_ENDPOINT")]
        contact_endpoint: Option<String>,
        /// Print only errors.
        #[arg(long, short)]
        quiet: bool,
        /// Also write the full report (every route's sizes, the time of each step) as JSON.
        #[arg(long, value_name = "FILE")]
        report_json: Option<PathBuf>,
        /// The build cache folder [default: $XDG_CACHE_HOME/sitegen, else ~/.cache/sitegen].
        #[arg(long, env = sitegen::cache::CACHE_ENV, value_name = "DIR")]
        cache_dir: Option<PathBuf>,
        /// Ignore the build cache: bundle and render everything afresh.
        #[arg(long)]
        no_cache: bool,
        /// How many render workers at most; fewer start when there are few pages to render
        /// [default: one per core].
        #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        /// Seconds one page may take to render before its worker is stopped.
        #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
        page_timeout: u64,
        #[command(flatten)]
        shown: Shown,
    },
    /// Verify an output directory: every page exists and every internal link resolves.
    Check {
        /// The output directory to verify.
        #[arg(default_value = "dist")]
        dir: PathBuf,
        #[command(flatten)]
        dirs: Dirs,
    },
    /// Preview an output directory exactly as a CDN serves it.
    Serve {
        /// The output directory to serve.
        #[arg(default_value = "dist")]
        dir: PathBuf,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: IpAddr,
        /// Port to listen on.
        #[arg(long, short, default_value_t = 8080)]
        port: u16,
        /// Also answer `NAME.localhost` from `DIR/previews/NAME/` (with `X-Robots-Tag:
        /// noindex`), as the CloudFront Function answers `NAME.<preview_domain>`.
        #[arg(long)]
        previews: bool,
    },
    /// Validate the content only, reporting every mistake.
    Validate {
        #[command(flatten)]
        dirs: Dirs,
    },
    /// Write the content as JSON for the site's development server (`npm run dev`).
    Export {
        /// Where to write the JSON [default: where the site's dev server reads it, in its
        /// scratch directory].
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        dirs: Dirs,
    },
    /// Serve the site for editing: reload open pages on every content save, show mistakes.
    Dev {
        /// Port of the dev server (0: any free port).
        #[arg(long, short, default_value_t = 5173)]
        port: u16,
        /// Open the site in the default browser.
        #[arg(long)]
        open: bool,
        #[command(flatten)]
        dirs: Dirs,
    },
    /// Start a new piece of content from a skeleton that validates and builds.
    New {
        #[command(subcommand)]
        what: New,
    },
    /// Publish a build to a bucket of an S3-compatible store: only changed objects, with
    /// their encoding and caching, pages after their assets, deletions last.
    ///
    /// Credentials and region come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
    /// AWS_SESSION_TOKEN and AWS_REGION, or from the profile AWS_PROFILE (else `default`) of
    /// ~/.aws/credentials and ~/.aws/config.
    Deploy(DeployArgs),
    /// Show the build cache: where it is, its size, and what the last builds used of it.
    ///
    /// Every build records what it used, and every fifth build trims the cache to the entries
    /// of the last builds, as many as `cache prune` keeps by default (unless another sitegen
    /// is using the cache at that moment).
    Cache {
        #[command(subcommand)]
        action: Option<CacheAction>,
        /// The build cache folder [default: $XDG_CACHE_HOME/sitegen, else ~/.cache/sitegen].
        #[arg(long, env = sitegen::cache::CACHE_ENV, value_name = "DIR", global = true)]
        cache_dir: Option<PathBuf>,
    },
    /// The translations: how far each language has come, and marking one up to date.
    I18n {
        #[command(subcommand)]
        action: I18nAction,
    },
    /// Regenerate the site's TypeScript types and the content files' JSON Schemas.
    Schema {
        /// Directory of the generated `.ts` files; the schemas go into its `json/`.
        #[arg(long, default_value = "site/schema")]
        out: PathBuf,
    },
    /// The browser editor of the content (`/admin/` of `sitegen dev`).
    Cms {
        #[command(subcommand)]
        action: CmsAction,
    },
}

#[derive(Debug, Subcommand)]
enum CmsAction {
    /// Print the editor's configuration (Decap CMS's config.yml), generated from the content
    /// model: every kind of content file a collection, every field with its widget, hint and
    /// choices.
    Config {
        /// The YAML content directory.
        #[arg(long, default_value = "content")]
        content: PathBuf,
        /// The live site's configuration, which `sitegen build` publishes at `/admin/`: editing
        /// through GitHub on the repository of `site.yaml`'s `cms`, each change a pull request.
        /// Without it, the configuration of `sitegen dev`'s editor, which saves through it.
        #[arg(long)]
        live: bool,
    },
    /// Rewrite the content files the live site's editor committed since `--base` (a pull
    /// request's) into the project's layout, as edits of their text at the base: `SLUG.en.md`
    /// becomes `SLUG.md`, a page's `{en, et}` document its `about.yaml` and `about.et.yaml`, and
    /// only the values changed are written (comments, key order and quoting kept). Refuses,
    /// writing nothing, when the content would not be valid.
    Tidy {
        /// The revision the pull request is based on (`origin/main`).
        #[arg(long)]
        base: String,
        /// The YAML content directory, `content/` of the git working tree.
        #[arg(long, default_value = "content")]
        content: PathBuf,
        /// The Vike project whose `public/` the validation reads.
        #[arg(long, default_value = "site")]
        site: PathBuf,
    },
    /// Print, as a JSON array, what `sitegen dev`'s editor backend answers each read request
    /// of Decap's proxy protocol given (`{"action":"getEntry","params":{"path":…}}`): the
    /// reference the live editor's presentation (site/admin/present.ts) is checked against.
    #[command(hide = true)]
    Present {
        /// The YAML content directory.
        #[arg(long, default_value = "content")]
        content: PathBuf,
        /// The requests, each a JSON object; only reads (`local::READ_ACTIONS`) are answered.
        #[arg(required = true)]
        requests: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
enum New {
    /// A sub-service page: an entry appended to `sub_services` in `content/services/CATEGORY.yaml`.
    SubService {
        /// The category: a file name in content/services/ without `.yaml` (`cloud-services`).
        category: String,
        /// The new page's URL segment (`finops`).
        slug: String,
        #[command(flatten)]
        dirs: Dirs,
    },
}

#[derive(Debug, Subcommand)]
enum I18nAction {
    /// Per language and kind of content: what is translated, stale (its source changed since
    /// it was marked) or missing.
    Status {
        /// Fail when a language's share of translated, up-to-date files is below this
        /// (`et=100`); repeat for several languages.
        #[arg(long, value_name = "TAG=PERCENT")]
        min: Vec<sitegen::content::status::Minimum>,
        #[command(flatten)]
        dirs: Dirs,
    },
    /// Record that translations follow their sources as they are now (after bringing them up
    /// to date), so that `status` counts them translated until a source changes again.
    Mark {
        /// The translation files (`content/pages/about.et.yaml`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
enum CacheAction {
    /// Remove what the newest builds did not use, and what interrupted builds left behind;
    /// waits for the builds using the cache to finish.
    Prune {
        /// Keep the entries of this many of the newest builds (0 empties the cache).
        #[arg(long, value_name = "N", default_value_t = sitegen::cache::usage::DEFAULT_KEEP_BUILDS)]
        keep_builds: usize,
        /// Keep at most this much (`2GB`, `500MiB`): the newest builds whose entries fit
        /// together; the newest build's entries stay whatever their size.
        #[arg(long, value_name = "SIZE")]
        max_size: Option<bytesize::ByteSize>,
    },
}

/// What `sitegen deploy` takes.
#[derive(Debug, clap::Args)]
struct DeployArgs {
    /// The build directory to publish (default `dist`), then where: s3://BUCKET or
    /// s3://BUCKET/PREFIX.
    #[arg(value_name = "[DIST] s3://BUCKET[/PREFIX]", num_args = 1..=2, required = true)]
    args: Vec<String>,
    /// The store's address (R2, MinIO, ...); AWS S3 in the region when unset.
    #[arg(long, env = "AWS_ENDPOINT_URL", value_name = "URL")]
    endpoint_url: Option<String>,
    /// Uploads in flight at once.
    #[arg(long, default_value_t = sitegen::deploy::DEFAULT_CONCURRENCY, value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,
    /// The most objects a deploy may delete; past it, nothing is changed.
    #[arg(long, default_value_t = sitegen::deploy::DEFAULT_MAX_DELETES)]
    max_deletes: usize,
    /// List every upload and deletion with its reason; change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Upload every object, changed or not (after changing the cache rules in site.yaml).
    #[arg(long)]
    force: bool,
    /// Delete pages the build no longer has even when no alias or redirects.yaml entry
    /// answers their old path (without it, such a deploy stops before any change).
    #[arg(long)]
    allow_removals: bool,
    /// Invalidate the changed paths in a CDN: cloudfront:DISTRIBUTION_ID.
    #[arg(long, value_name = "cloudfront:ID")]
    invalidate: Option<sitegen::deploy::cloudfront::Distribution>,
    /// Print only the summary and errors.
    #[arg(long, short)]
    quiet: bool,
    /// Publish the build as the preview NAME (letters, digits, `-`: a branch or `pr-42`) under
    /// `previews/NAME/` of the target, and print its URL (`preview_domain` of site.yaml).
    /// Build it with `sitegen build --preview`. It never touches the site.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["remove_preview", "list_previews"])]
    preview: Option<String>,
    /// Delete every object of the preview NAME, and nothing else (`s3://BUCKET[/PREFIX]` only).
    #[arg(long, value_name = "NAME", conflicts_with = "list_previews")]
    remove_preview: Option<String>,
    /// List the previews of the target with their age and size (`s3://BUCKET[/PREFIX]` only).
    #[arg(long)]
    list_previews: bool,
    /// The content directory whose site.yaml names the `preview_domain` and the
    /// `preview_redirects_store`.
    #[arg(long, default_value = "content")]
    content: PathBuf,
}

#[derive(Debug, clap::Args)]
struct Dirs {
    /// The YAML content directory (for `check`: whose routes must all have a page; skipped
    /// when it does not exist).
    #[arg(long, default_value = "content")]
    content: PathBuf,
    /// The Vike project that renders the pages.
    #[arg(long, default_value = "site")]
    site: PathBuf,
}

/// What a build shows besides the published pages. The time is `SITEGEN_NOW` (RFC 3339), else
/// the clock.
#[derive(Debug, clap::Args)]
struct Shown {
    /// Also publish drafts (`draft: true`), each with a "Draft" banner; no page is indexed.
    #[arg(long)]
    drafts: bool,
    /// Also publish what is not yet due (`publish_at` to come), each with a "Scheduled for"
    /// banner; no page is indexed.
    #[arg(long)]
    future: bool,
    /// A preview of what is being written: `--drafts` and `--future`.
    #[arg(long)]
    preview: bool,
    /// The address the build is published at, instead of `base_url` of site.yaml: a
    /// preview's own (`https://pr-7.preview.example.com`), for its canonical, hreflang,
    /// sitemap, feed and card URLs.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
}

impl Shown {
    fn publishing(&self) -> sitegen::content::Publishing {
        sitegen::content::Publishing {
            drafts: self.drafts || self.preview,
            future: self.future || self.preview,
            now: None,
            base_url: self.base_url.clone(),
        }
    }
}

impl Dirs {
    fn load(&self) -> Result<Content, sitegen::content::ContentErrors> {
        Content::load(&self.content, &self.site.join("public"))
    }
}

/// The pages of `content` as a report names them: `62 pages and 404.html`, or with
/// translations `115 pages in 2 languages, each with its 404.html`.
fn pages_of(content: &Content) -> String {
    let pages = content.all_routes().count();
    match content.translations.len() {
        0 => format!("{pages} pages and 404.html"),
        more => format!(
            "{pages} pages in {} languages, each with its 404.html",
            more + 1
        ),
    }
}

fn main() -> ExitCode {
    // mimalloc asks for transparent huge pages for its arenas, and the kernel then clears 2 MB
    // at a time on first touch, mostly for memory a build never writes: a tenth of a one-article
    // rebuild's samples at 5,000 articles. Turned off for this process and the render workers
    // it starts, which inherit it; where the kernel has no such switch, nothing changes.
    #[cfg(target_os = "linux")]
    let _ = nix::sys::prctl::set_thp_disable(true);
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        // Stopped by Ctrl-C or SIGTERM, whose handler has said so and cleaned up.
        Err(_) if sitegen::interrupt::interrupted().is_some() => {
            ExitCode::from(sitegen::interrupt::interrupted().unwrap_or(1))
        }
        Err(err) => {
            report(&err);
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Cmd::Build {
            out,
            dirs,
            contact_endpoint,
            quiet,
            report_json,
            cache_dir,
            no_cache,
            jobs,
            page_timeout,
            shown,
        } => {
            let mut options = BuildOptions::new(dirs.content, dirs.site, out);
            options.publishing = shown.publishing();
            options.contact_endpoint = contact_endpoint;
            options.quiet = quiet;
            options.cache_dir = cache_dir;
            options.no_cache = no_cache;
            if let Some(jobs) = jobs {
                options.jobs = jobs.into();
            }
            options.page_timeout = std::time::Duration::from_secs(page_timeout);
            options.remove_previous_in_background = true;
            let built = sitegen::build::build(&options)?;
            for path in &built.dropped_pages {
                eprintln!(
                    "warning: {path} was a page of {} and this build drops it with no \
                     redirect: add it to the `aliases` of the page that replaces it, or mark it \
                     `gone` in content/redirects.yaml (`sitegen deploy` refuses to remove it \
                     from a bucket until then)",
                    options.out_dir.display()
                );
            }
            if let Some(path) = report_json {
                built.report.write_json(&path)?;
            }
            if !quiet {
                println!("{}", built.report);
                let published = built.published;
                println!(
                    "Published {} into {}: {} pages hashed, {} rendered, \
                     the rest unchanged; bundle {}; {} files written, {} removed{}; \
                     next_change_at: {}",
                    pages_of(&built.content),
                    options.out_dir.display(),
                    built.hashed,
                    built.rendered,
                    if built.bundled {
                        "built"
                    } else {
                        "from the cache"
                    },
                    published.written,
                    published.removed_files.len(),
                    if published.replaced {
                        " (output replaced whole)"
                    } else {
                        ""
                    },
                    built.report.next_change_at.as_deref().unwrap_or("none"),
                );
            }
            Ok(())
        }
        Cmd::Check { dir, dirs } => {
            let (routes, site_url) = sitegen::check::content_routes(&dirs.content, &dirs.site)?;
            let report = sitegen::check::check_dir(&dir, &routes, site_url.as_deref())?;
            if report.is_ok() {
                println!("{}: every page present, every link resolves", dir.display());
                Ok(())
            } else {
                anyhow::bail!("{report}")
            }
        }
        Cmd::I18n {
            action: I18nAction::Status { min, dirs },
        } => {
            let status = sitegen::content::status::status(&dirs.content)?;
            let printed = write!(std::io::stdout().lock(), "{status}");
            // A reader that stops early (`| head`) is no failure.
            if let Err(error) = printed
                && error.kind() != std::io::ErrorKind::BrokenPipe
            {
                return Err(error.into());
            }
            let short = status.shortfalls(&min);
            if short.is_empty() {
                Ok(())
            } else {
                anyhow::bail!("{}", short.join("\n"))
            }
        }
        Cmd::I18n {
            action: I18nAction::Mark { files },
        } => {
            for file in files {
                let source = sitegen::content::status::mark(&file)?;
                println!("{}: follows {}", file.display(), source.display());
            }
            Ok(())
        }
        Cmd::Serve {
            dir,
            host,
            port,
            previews,
        } => {
            let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
            runtime.block_on(sitegen::serve::run(
                dir,
                SocketAddr::new(host, port),
                previews,
            ))
        }
        Cmd::Cache { action, cache_dir } => {
            let root = sitegen::cache::dir_or_default(cache_dir.as_deref())?;
            if !root.is_dir() {
                println!(
                    "No build cache at {} yet: a build makes it.",
                    root.display()
                );
                return Ok(());
            }
            match action {
                None => print!("{}", CacheInfo(sitegen::cache::usage::info(&root)?)),
                Some(CacheAction::Prune {
                    keep_builds,
                    max_size,
                }) => {
                    let keep = sitegen::cache::usage::Keep {
                        builds: keep_builds,
                        max_size: max_size.map(|size| size.as_u64()),
                    };
                    let pruned = sitegen::cache::usage::prune(&root, keep)?;
                    println!(
                        "Removed {} files ({}) from {}; kept the entries of the last {} builds ({}).",
                        pruned.removed_files,
                        size(pruned.removed_bytes),
                        root.display(),
                        pruned.kept_builds,
                        size(pruned.size),
                    );
                    if let Some(max) = max_size
                        && pruned.size > max.as_u64()
                    {
                        println!(
                            "The last build alone uses {}, more than --max-size {}: its entries stay.",
                            size(pruned.size),
                            size(max.as_u64())
                        );
                    }
                }
            }
            Ok(())
        }
        Cmd::Validate { dirs } => {
            let content = dirs.load()?;
            for warning in &content.warnings {
                eprintln!("warning: {warning}");
            }
            println!("content is valid: {}", pages_of(&content));
            Ok(())
        }
        Cmd::Export { out, dirs } => {
            let mut content = dirs.load()?;
            // The page names the entry file of the search index the build writes.
            sitegen::search::attach(&mut content)?;
            // And the encoded photos, from the build cache when the build made them.
            let cache = sitegen::cache::Cache::open(None)?;
            sitegen::images::process(&cache, &mut content, &sitegen::images::Settings::default())?;
            sitegen::cards::process(&cache, &mut content)?;
            let out = out.unwrap_or_else(|| sitegen::dev::default_content_json(&dirs.site));
            content.write_json(&out)?;
            println!("wrote {}", out.display());
            Ok(())
        }
        Cmd::Dev { port, open, dirs } => sitegen::dev::run(&sitegen::dev::DevOptions {
            content_dir: dirs.content,
            site_dir: dirs.site,
            host: IpAddr::from([127, 0, 0, 1]),
            port,
            open,
        }),
        Cmd::New {
            what:
                New::SubService {
                    category,
                    slug,
                    dirs,
                },
        } => {
            let (file, path) = sitegen::new::sub_service(
                &dirs.content,
                &dirs.site.join("public"),
                &category,
                &slug,
            )?;
            println!("added sub-service `{slug}` to {}: {path}", file.display());
            Ok(())
        }
        Cmd::Deploy(args) => {
            use sitegen::deploy::{DeployOptions, Progress};
            use std::io::IsTerminal;
            let (dir, target) = match args.args.as_slice() {
                [target] => (PathBuf::from("dist"), target),
                [dir, target] => (PathBuf::from(dir), target),
                _ => anyhow::bail!("give the build directory and s3://BUCKET[/PREFIX]"),
            };
            let target = target
                .parse::<sitegen::deploy::target::Target>()
                .map_err(|e| anyhow::anyhow!(e))?;
            let found = sitegen::deploy::credentials::find(&|name| std::env::var(name).ok())?;
            let endpoint = args.endpoint_url.clone().filter(|e| !e.is_empty());
            let retry = sitegen::deploy::s3::Retry::default();
            if args.list_previews {
                use sitegen::deploy::previews;
                let listed = previews::list(&target, endpoint.as_deref(), &found, retry)?;
                if listed.is_empty() {
                    println!("no previews under {target}previews/");
                }
                let now = jiff::Timestamp::now();
                for preview in listed {
                    let updated = match (&preview.updated, preview.age(now)) {
                        (Some(at), Some(age)) => format!("{age} ago ({at})"),
                        (Some(at), None) => at.clone(),
                        (None, _) => "at an unknown time".to_owned(),
                    };
                    println!(
                        "{}  {} objects, {}, updated {updated}",
                        preview.name,
                        preview.objects,
                        sitegen::deploy::human_bytes(preview.bytes),
                    );
                }
                return Ok(());
            }
            // Read only for a preview: a deploy of the site needs no content directory.
            let previews = || sitegen::deploy::previews::Settings::read(&args.content);
            if let Some(name) = &args.remove_preview {
                let removed = sitegen::deploy::previews::remove(
                    &target,
                    name,
                    endpoint.as_deref(),
                    previews()?.redirects_store()?.as_ref(),
                    &found,
                    retry,
                )?;
                println!(
                    "removed the preview {name}: {} objects, {} redirects",
                    removed.objects, removed.redirects
                );
                return Ok(());
            }
            let (target, allow_removals) = match &args.preview {
                // A preview drops what its build no longer has: nothing links to it for long.
                Some(name) => (sitegen::deploy::previews::target(&target, name)?, true),
                None => (target, args.allow_removals),
            };
            let options = DeployOptions {
                endpoint,
                concurrency: usize::from(args.concurrency),
                max_deletes: args.max_deletes,
                dry_run: args.dry_run,
                force: args.force,
                allow_removals,
                invalidate: args.invalidate,
                progress: if args.quiet {
                    Progress::Quiet
                } else if std::io::stderr().is_terminal() {
                    Progress::Bar
                } else {
                    Progress::Lines
                },
                ..DeployOptions::new(dir, target)
            };
            let summary = sitegen::deploy::deploy(&options, &found)?;
            println!("{summary}");
            if let Some(name) = &args.preview {
                let previews = previews()?;
                match previews.redirects_store()? {
                    Some(store) if !options.dry_run => {
                        let changed = sitegen::deploy::previews::publish_redirects(
                            &store,
                            name,
                            &options.dir,
                            &found.credentials,
                        )?;
                        println!(
                            "preview {name}: its redirects in {}: {} written, {} deleted",
                            store.arn, changed.put, changed.deleted
                        );
                    }
                    Some(store) => println!(
                        "dry run: preview {name}: its redirects would be written to {}",
                        store.arn
                    ),
                    None => println!(
                        "preview {name}: its own redirects answer only with the page left at each \
                         old path; set `preview_redirects_store` in site.yaml for their 301s and 410s"
                    ),
                }
                match previews.url(name) {
                    Some(url) => println!("preview {name}: {url}"),
                    None => println!(
                        "preview {name}: under {}; set `preview_domain` in site.yaml for its URL",
                        options.target
                    ),
                }
            }
            Ok(())
        }
        Cmd::Schema { out } => {
            sitegen::schema::write_typescript(&out)?;
            let json = out.join(sitegen::schema::JSON_DIR);
            sitegen::schema::write_json_schemas(&json)?;
            println!(
                "wrote TypeScript types into {} and JSON Schemas into {}",
                out.display(),
                json.display()
            );
            Ok(())
        }
        Cmd::Cms {
            action:
                CmsAction::Tidy {
                    base,
                    content,
                    site,
                },
        } => {
            let tidied = sitegen::cms::tidy::tidy(&content, &site.join("public"), &base)?;
            for path in &tidied.saved {
                println!("tidied {path}");
            }
            for path in &tidied.removed {
                println!("removed {path}");
            }
            if tidied.saved.is_empty() {
                println!("nothing to tidy: no file of the editor's layout changed since {base}");
            }
            Ok(())
        }
        Cmd::Cms {
            action: CmsAction::Present { content, requests },
        } => {
            let answers = sitegen::cms::local::answer_reads(&content, &requests)?;
            let printed = writeln!(
                std::io::stdout().lock(),
                "{}",
                serde_json::Value::from(answers)
            );
            // A reader that stops early (`| head`) is no failure.
            match printed {
                Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
                _ => Ok(()),
            }
        }
        Cmd::Cms {
            action: CmsAction::Config { content, live },
        } => {
            let backend = match live {
                true => sitegen::cms::live_backend(&content)?,
                false => sitegen::cms::Backend::Local {
                    proxy_url: sitegen::cms::LOCAL_PROXY_URL.into(),
                },
            };
            let config = sitegen::cms::config(&content, sitegen::cms::CONTENT_PATH, backend)?;
            let printed = write!(std::io::stdout().lock(), "{}", config.to_yaml()?);
            // A reader that stops early (`| head`) is no failure.
            match printed {
                Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
                _ => Ok(()),
            }
        }
    }
}

/// Content errors print one per line as `file:line:col: message`; others as a cause chain.
fn report(err: &anyhow::Error) {
    if let Some(errors) = err
        .downcast_ref::<sitegen::content::ContentErrors>()
        .or_else(|| match err.downcast_ref::<BuildError>() {
            Some(BuildError::Content(errors)) => Some(errors),
            _ => None,
        })
    {
        eprintln!("{errors}");
        eprintln!(
            "error: {} problem{} in the content; nothing was written",
            errors.0.len(),
            if errors.0.len() == 1 { "" } else { "s" }
        );
        return;
    }
    eprintln!("error: {err}");
    for cause in err.chain().skip(1) {
        eprintln!("  caused by: {cause}");
    }
}

/// A size in decimal units (`1.6 GB`), as `du --si` and the build report write them.
fn size(bytes: u64) -> String {
    bytesize::ByteSize(bytes).display().si().to_string()
}

/// `sitegen cache`'s report.
struct CacheInfo(sitegen::cache::usage::Info);

impl std::fmt::Display for CacheInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let info = &self.0;
        let (files, bytes) = info
            .kinds
            .iter()
            .fold((0, 0), |(n, b), (_, kn, kb)| (n + kn, b + kb));
        writeln!(f, "Build cache: {}", info.root.display())?;
        writeln!(f, "Size:        {} in {files} files", size(bytes))?;
        for (kind, n, b) in &info.kinds {
            writeln!(f, "  {kind:<13} {:>10} in {n} files", size(*b))?;
        }
        if info.builds.is_empty() {
            writeln!(f, "No build has recorded what it used yet.")?;
        } else {
            writeln!(
                f,
                "Last builds, newest first (each build keeps the entries of the last {}):",
                sitegen::cache::usage::DEFAULT_KEEP_BUILDS
            )?;
            for build in &info.builds {
                writeln!(
                    f,
                    "  {}  {:>10} in {:>6} files  {}",
                    humantime::format_rfc3339_seconds(build.time),
                    size(build.bytes),
                    build.files,
                    build.out.display()
                )?;
            }
        }
        writeln!(
            f,
            "Used by none of them: {} (`sitegen cache prune` removes it)",
            size(info.unused)
        )
    }
}
