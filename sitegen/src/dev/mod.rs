//! `sitegen dev`: one command for working on the site.
//!
//! It validates content/, encodes its photos (through the build cache, so what a build made is
//! not made again) and names its social cards, writes the model as JSON into a private
//! directory with the list of those files, and starts two
//! children it owns: the Vite dev server with Vike (`vike dev` in site/, pointed at that JSON) and
//! contact-fn (on a free port, which the exported model names as the contact endpoint, so both
//! forms work). Then it watches content/ and site/public: every save is validated again; valid
//! content is exported again and the site's dev plugin (`site/lib/devContent.ts`) reloads the
//! open pages and serves the pictures under `/img/`; mistakes are printed as
//! `file:line:col: message` and written to the status file the plugin shows as Vite's error
//! overlay, while the last good content keeps rendering. The cards are drawn (or found in the
//! build cache) on a thread of their own at the lowest priority, after the content is handed
//! over: the first page does not wait for a long archive's cards.
//! Ctrl-C or SIGTERM stops both children's process groups before it exits.

mod cards;
mod children;
mod elements;
mod parts;
mod watch;

use std::io::Write as _;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context as _, bail};
use serde::Serialize;
use tokio::process::Command;
use tokio::signal::unix::{SignalKind, signal};

use crate::cache::Cache;
use crate::cards::{CardBase, CardMemo, PendingCard};
use crate::content::articles::ArticleMemo;
use crate::content::{ArticleBodies, Content, ContentErrors};
use crate::images::ImagesError;
use children::Owned;
use elements::Elements;

pub use crate::bundle::DEV_DIR;

/// Where `sitegen export` writes the content JSON by default: where the site's dev server
/// (`npm run dev`) reads it when `SITEGEN_CONTENT` is not set (`site/lib/contentFile.ts`).
pub fn default_content_json(site_dir: &Path) -> PathBuf {
    site_dir.join(DEV_DIR).join("content.json")
}

/// The content as the dev server's pages receive it, and the files they name.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The model, its photos and cards filled in.
    pub content: Content,
    /// Each encoded photo's and known card's URL path (`/img/anna-480.1a2b3c4d5e6f.avif`) and
    /// the file in the build cache that holds it.
    pub files: Vec<(String, PathBuf)>,
    /// The cards the pages name that are still to be drawn or found in the cache.
    pub pending: Vec<PendingCard>,
}

/// What one `sitegen dev` remembers from one save to the next, so that a save costs what it
/// changed: the articles parsed, and the cards found or drawn.
#[derive(Debug)]
pub struct Memo {
    /// The article files parsed, by name and stamp.
    pub articles: ArticleMemo,
    /// The cards' drawings, by their words; the thread drawing cards tells it too.
    pub cards: Arc<CardMemo>,
}

impl Default for Memo {
    fn default() -> Self {
        Self {
            // No page reads an article's search text, and the dev server builds no index.
            articles: ArticleMemo::for_pages(),
            cards: Arc::default(),
        }
    }
}

/// Loads and validates `content_dir`, encodes its photos with `settings` through `cache` as a
/// build does, and names its cards ([`crate::cards::name_for_dev`]): those `memo` does not know
/// are [`Prepared::pending`], for [`draw_cards`]. A content mistake (a picture that cannot be
/// decoded included) is `Ok(Err(_))`; failing to read or write the cache is `Err(_)`. The
/// articles whose files did not change since `memo`'s last load are not parsed again.
pub fn prepare(
    content_dir: &Path,
    public_dir: &Path,
    cache: &Cache,
    settings: &crate::images::Settings,
    memo: &mut Memo,
) -> anyhow::Result<Result<Prepared, ContentErrors>> {
    // Drafts and what is not yet due are shown, each with its banner, as a preview build does.
    let shown = crate::content::Publishing::preview();
    let mut content =
        match Content::load_with(content_dir, public_dir, Some(&mut memo.articles), &shown) {
            Ok(content) => content,
            Err(errors) => return Ok(Err(errors)),
        };
    let pictures = crate::images::process(cache, &mut content, settings).and_then(|pictures| {
        Ok((
            pictures,
            crate::cards::name_for_dev(cache, &mut content, &memo.cards)?,
        ))
    });
    let (pictures, cards) = match pictures {
        Ok(made) => made,
        Err(ImagesError::Content(errors)) => return Ok(Err(errors)),
        Err(ImagesError::Files(err)) => return Err(err),
    };
    let store = cache.files();
    let files = pictures
        .files
        .iter()
        .chain(&cards.files)
        .map(|(name, stored)| (format!("/{name}"), store.path(&stored.hash)))
        .collect();
    Ok(Ok(Prepared {
        content,
        files,
        pending: cards.pending,
    }))
}

/// Draws (or finds in `cache`) every card of `pending`, in turn, and tells `memo`: the URL
/// path and stored file of each. [`prepare`]'s next load names them among its files.
pub fn draw_cards(
    cache: &Cache,
    pending: &[PendingCard],
    memo: &CardMemo,
) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let base = CardBase::default();
    pending
        .iter()
        .map(|card| draw_card(cache, &base, card, memo))
        .collect()
}

/// Draws (or finds) `card` over `base`, tells `memo`: its URL path and stored file.
fn draw_card(
    cache: &Cache,
    base: &CardBase,
    card: &PendingCard,
    memo: &CardMemo,
) -> anyhow::Result<(String, PathBuf)> {
    let hash = card.draw(cache, base, memo)?;
    Ok((format!("/{}", card.file), cache.files().path(&hash)))
}

/// What `sitegen dev` serves and where.
#[derive(Debug, Clone)]
pub struct DevOptions {
    /// The YAML content directory.
    pub content_dir: PathBuf,
    /// The Vike project (its `public/` is watched too).
    pub site_dir: PathBuf,
    /// Address of the dev server.
    pub host: IpAddr,
    /// Port of the dev server; 0 picks a free one.
    pub port: u16,
    /// Open the site in the default browser once it is up.
    pub open: bool,
}

/// Runs the dev server until Ctrl-C or SIGTERM.
pub fn run(options: &DevOptions) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?
        .block_on(serve(options))
}

/// The files the site's dev plugin reads, in a directory removed on exit.
///
/// The directory is `site/.sitegen/dev-PORT/`: one per running dev server, and the same path on
/// every start, so Vite's dependency cache (keyed on the config, which names the content file)
/// stays valid between runs.
#[derive(Debug)]
struct Exported {
    dir: PathBuf,
    contact_endpoint: Option<String>,
    bodies: Bodies,
    /// The files of the parts of the content JSON last written.
    parts: std::collections::BTreeSet<String>,
    /// The pictures the newest content names, by URL path: the file that holds each, or none
    /// for a card still to be drawn.
    files: std::collections::BTreeMap<String, Option<PathBuf>>,
    /// The content JSON of the last publish less its large fields, whose memory the next one
    /// writes into: a new buffer each time cost more in page faults (the kernel zeroing fresh
    /// pages) than the serialising itself.
    json: Vec<u8>,
    /// The large fields as the last publish wrote them.
    large: Large,
}

/// One field of the model as [`Exported::write_parts`] writes it: cut, and each piece's file
/// name (one for a part written whole).
struct NamedPart<'a> {
    field: &'a str,
    part: parts::Part<'a>,
    names: Vec<String>,
}

/// The fields of the model that grow with the archive (at 5,000 articles, 4 of the 10 MB of its
/// JSON are the routes, 3 the articles and 1 the cards), each written from what the last
/// publish wrote of it ([`elements`]), on a thread of its own.
#[derive(Debug)]
struct Large {
    routes: Elements<crate::content::RouteInfo>,
    articles: Elements<crate::content::articles::Article>,
    cards: Elements<crate::content::images::SocialCard>,
}

impl Default for Large {
    fn default() -> Self {
        Self {
            routes: Elements::array(),
            articles: Elements::array(),
            cards: Elements::object(),
        }
    }
}

impl Large {
    /// Takes the fields out of `content` and writes them, each by the key of its elements.
    fn write(&mut self, content: &mut Content) -> serde_json::Result<()> {
        let routes = std::mem::take(&mut content.routes);
        let articles = std::mem::take(&mut content.articles);
        let cards = std::mem::take(&mut content.cards);
        let (routes_written, (articles_written, cards_written)) = rayon::join(
            || (self.routes).write(routes.into_iter().map(|r| (r.path.clone(), r))),
            || {
                rayon::join(
                    || (self.articles).write(articles.into_iter().map(|a| (a.slug.clone(), a))),
                    || self.cards.write(cards),
                )
            },
        );
        routes_written.and(articles_written).and(cards_written)
    }

    /// Each field's name in the model's JSON, and what was written of it.
    fn fields(&self) -> [(&'static str, Known<'_>); 3] {
        [
            ("routes", Known::of(&self.routes)),
            ("articles", Known::of(&self.articles)),
            ("cards", Known::of(&self.cards)),
        ]
    }
}

/// A large field's JSON, and each element's bytes in it ([`parts::cut_known`]).
struct Known<'a> {
    json: &'a [u8],
    elements: Vec<&'a [u8]>,
    object: bool,
}

impl<'a> Known<'a> {
    fn of<T: std::hash::Hash + Serialize>(elements: &'a Elements<T>) -> Self {
        Self {
            json: elements.json(),
            elements: elements.elements(),
            object: elements.is_object(),
        }
    }
}

impl Drop for Exported {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The articles' bodies as the dev server's pages read them (`article_bodies`, as in a build):
/// one file that only grows, each version of a body appended once, so a save writes the bodies
/// it changed and the content JSON stays small whatever the archive's size. Offsets already
/// handed out stay valid for a page still rendering with the content before.
#[derive(Debug)]
struct Bodies {
    path: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    len: u64,
    /// Where each body written so far is, by its digest: `(offset, toc length, html length)`.
    spans: std::collections::HashMap<String, (u64, u64, u64)>,
    /// Each article's body at the last publish, by slug, with its digest: a body the memo
    /// handed over again (the same allocation) is not hashed again.
    last: std::collections::HashMap<String, (std::sync::Arc<str>, String)>,
}

impl Bodies {
    fn create(path: PathBuf) -> anyhow::Result<Self> {
        let file =
            std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
        Ok(Self {
            path,
            file: std::io::BufWriter::new(file),
            len: 0,
            spans: std::collections::HashMap::new(),
            last: std::collections::HashMap::new(),
        })
    }

    /// Takes the bodies out of `content`'s articles and names where the file has each.
    fn take(&mut self, content: &mut Content) -> anyhow::Result<ArticleBodies> {
        let mut spans = Vec::with_capacity(content.articles.len());
        let mut digests = Vec::with_capacity(content.articles.len());
        let mut last = std::collections::HashMap::with_capacity(content.articles.len());
        for article in &mut content.articles {
            let html = std::mem::take(&mut article.html);
            let toc = std::mem::take(&mut article.toc);
            // The search index's words: no page reads them.
            article.text = std::sync::Arc::default();
            // The same parse of the same file: the same table of contents, already written.
            let known = self
                .last
                .remove(&article.slug)
                .filter(|(was, _)| std::sync::Arc::ptr_eq(was, &html))
                .and_then(|(_, digest)| self.spans.get(&digest).map(|span| (digest, *span)));
            let (digest, span) = match known {
                Some(known) => known,
                None => self.append(&toc, &html)?,
            };
            spans.push(span);
            last.insert(article.slug.clone(), (html, digest.clone()));
            digests.push(digest);
        }
        self.last = last;
        self.file
            .flush()
            .with_context(|| format!("writing {}", self.path.display()))?;
        Ok(ArticleBodies {
            file: self.path.to_string_lossy().into_owned(),
            spans,
            digests,
        })
    }

    /// The digest of a body and where the file has it: appended unless a body with the same
    /// digest was.
    fn append(
        &mut self,
        toc: &[crate::content::articles::TocEntry],
        html: &str,
    ) -> anyhow::Result<(String, (u64, u64, u64))> {
        let toc = serde_json::to_vec(toc)?;
        let digest = crate::render::body_digest(&toc, html);
        if let Some(span) = self.spans.get(&digest) {
            return Ok((digest, *span));
        }
        self.file
            .write_all(&toc)
            .and_then(|()| self.file.write_all(html.as_bytes()))
            .with_context(|| format!("writing {}", self.path.display()))?;
        let span = (self.len, toc.len() as u64, html.len() as u64);
        self.len += span.1 + span.2;
        self.spans.insert(digest.clone(), span);
        Ok((digest, span))
    }
}

/// The status file's shape: `{"errors": [...]}` (see `site/lib/devContent.ts`).
#[derive(Debug, Serialize)]
struct Status<'a> {
    errors: Vec<Mistake<'a>>,
}

#[derive(Debug, Serialize)]
struct Mistake<'a> {
    text: String,
    file: &'a Path,
    line: Option<usize>,
    column: Option<usize>,
}

impl Exported {
    fn create(dir: PathBuf, contact_endpoint: Option<String>) -> anyhow::Result<Self> {
        // A directory left by a killed run on this port holds nothing worth keeping.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let bodies = Bodies::create(dir.join("bodies"))?;
        Ok(Self {
            dir,
            contact_endpoint,
            bodies,
            parts: std::collections::BTreeSet::new(),
            files: std::collections::BTreeMap::new(),
            json: Vec::new(),
            large: Large::default(),
        })
    }

    /// Writes the content JSON in parts, one file per field of the model and several for a
    /// large one ([`parts`]), each written only when its bytes changed, and then the content
    /// file naming them (`{"$parts": {"pages": "parts/pages.<hash>.json", "routes":
    /// ["parts/routes.<hash>.json", ...], ...}}`): the dev server parses again only the files a
    /// save changed (`pages` for a page's YAML, a 40 kB part, and for a new article one piece
    /// each of the routes, the articles and the cards, rather than the 8 MB of those parts at
    /// 5,000 articles), and keeps its indexes of the parts that did not change.
    fn write_content(&mut self, content: &mut Content) -> anyhow::Result<()> {
        let mut large = std::mem::take(&mut self.large);
        let mut json = std::mem::take(&mut self.json);
        json.clear();
        let written = large
            .write(content)
            .and_then(|()| serde_json::to_writer(&mut json, &*content))
            .map_err(anyhow::Error::from)
            .and_then(|()| self.write_parts(&json, &large.fields()));
        self.json = json;
        self.large = large;
        written
    }

    /// Splits `json` (the model, less the fields `large` holds the JSON of) into its fields'
    /// parts and writes the files that changed.
    fn write_parts(&mut self, json: &[u8], large: &[(&str, Known<'_>)]) -> anyhow::Result<()> {
        use rayon::prelude::*;
        let fields: std::collections::BTreeMap<&str, &serde_json::value::RawValue> =
            serde_json::from_slice(json).context("splitting the content JSON")?;
        for (field, _) in large {
            // Taken out, the field was written empty: it is one of the model's.
            if !fields.contains_key(field) {
                bail!("the content JSON has no field `{field}`");
            }
        }
        let known: std::collections::BTreeMap<&str, &Known<'_>> =
            large.iter().map(|(field, known)| (*field, known)).collect();
        // Each field cut and each piece named for its bytes, on every core.
        let fields: Vec<NamedPart<'_>> = fields
            .into_par_iter()
            .map(|(field, value)| {
                let part = match known.get(field) {
                    Some(known) => parts::cut_known(known.json, &known.elements, known.object),
                    None => parts::cut(value)
                        .with_context(|| format!("cutting the content's {field}"))?,
                };
                let name = |bytes: &[u8]| {
                    let hash = crate::cache::hash_hex(&[bytes]);
                    format!("{field}.{}.json", crate::cache::name_hash(&hash))
                };
                let names = match &part {
                    parts::Part::Whole(bytes) => vec![name(bytes)],
                    parts::Part::Pieces(pieces) => pieces.iter().map(|p| name(p)).collect(),
                };
                Ok(NamedPart { field, part, names })
            })
            .collect::<anyhow::Result<_>>()?;
        let dir = self.dir.join("parts");
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut named = serde_json::Map::new();
        let mut files = std::collections::BTreeSet::new();
        for NamedPart { field, part, names } in fields {
            let bytes: Vec<&[u8]> = match &part {
                parts::Part::Whole(bytes) => vec![bytes],
                parts::Part::Pieces(pieces) => pieces.iter().map(Vec::as_slice).collect(),
            };
            let mut written = Vec::with_capacity(names.len());
            for (name, bytes) in names.into_iter().zip(bytes) {
                // Written once, and only when the last content did not have it.
                if files.insert(name.clone()) && !self.parts.contains(&name) {
                    replace(&dir.join(&name), bytes)?;
                }
                written.push(serde_json::Value::String(format!("parts/{name}")));
            }
            let value = match (part, written.pop()) {
                (parts::Part::Whole(_), Some(file)) => file,
                (_, last) => serde_json::Value::Array(written.into_iter().chain(last).collect()),
            };
            named.insert(field.to_owned(), value);
        }
        let manifest = serde_json::json!({ "$parts": named });
        replace(&self.content_file(), &serde_json::to_vec(&manifest)?)?;
        // Files no longer named go; the dev server reads only the files the newest content names.
        for name in std::mem::replace(&mut self.parts, files) {
            if !self.parts.contains(&name) {
                let _ = std::fs::remove_file(dir.join(name));
            }
        }
        Ok(())
    }

    fn content_file(&self) -> PathBuf {
        self.dir.join("content.json")
    }

    /// `{"/img/...": "/abs/path/in/the/cache", ...}`: the pictures the dev server serves; a
    /// card still being drawn is `null`, and the dev server waits for it.
    fn files_file(&self) -> PathBuf {
        self.dir.join("files.json")
    }

    fn status_file(&self) -> PathBuf {
        self.dir.join("status.json")
    }

    /// The browser editor's configuration, which `/admin/` hands the editor
    /// ([`crate::cms::write_local_config`]).
    fn cms_config_file(&self) -> PathBuf {
        self.dir.join("cms-config.json")
    }

    /// Writes the editor's configuration again: a new author or service category is a new
    /// choice. A mistake leaves the last one and is printed; the site keeps working.
    fn write_cms_config(&self, content_dir: &Path) {
        if let Err(err) = crate::cms::write_local_config(content_dir, &self.cms_config_file()) {
            eprintln!("warning: the editor's configuration (/admin/): {err:#}");
        }
    }

    /// The content's redirects as a build writes them into `_redirects` (aliases,
    /// `redirects.yaml`, expired pages): the dev server answers them as `sitegen serve` does.
    fn redirects_file(&self) -> PathBuf {
        self.dir.join("_redirects")
    }

    /// Publishes a new state: the status first, then (when valid) the content JSON, whose change
    /// reloads the pages. Both are replaced by rename, so the plugin never reads half a file.
    /// The cards the content names still to be drawn are handed back.
    fn publish(
        &mut self,
        loaded: Result<Prepared, ContentErrors>,
    ) -> anyhow::Result<Option<Vec<PendingCard>>> {
        let status = serde_json::to_vec(&Status {
            errors: match &loaded {
                Ok(_) => Vec::new(),
                Err(errors) => errors
                    .0
                    .iter()
                    .map(|e| Mistake {
                        text: e.to_string(),
                        file: &e.file,
                        line: e.line,
                        column: e.column,
                    })
                    .collect(),
            },
        })?;
        replace(&self.status_file(), &status)?;
        let Ok(Prepared {
            mut content,
            files,
            pending,
        }) = loaded
        else {
            return Ok(None);
        };
        // The pictures first: the new content's reload asks for them.
        self.files = files
            .into_iter()
            .map(|(url, path)| (url, Some(path)))
            .chain(pending.iter().map(|card| (format!("/{}", card.file), None)))
            .collect();
        self.write_files()?;
        let rules = crate::redirects::Rules::of(&content.redirects);
        replace(&self.redirects_file(), rules.to_text().as_bytes())?;
        if let Some(endpoint) = &self.contact_endpoint {
            content.settings.contact_endpoint.clone_from(endpoint);
        }
        content.article_bodies = Some(self.bodies.take(&mut content)?);
        self.write_content(&mut content)?;
        Ok(Some(pending))
    }

    /// Lists the cards drawn since the content was published, those it still names.
    fn drawn(&mut self, drawn: Vec<(String, PathBuf)>) -> anyhow::Result<()> {
        for (url, path) in drawn {
            if let Some(file) = self.files.get_mut(&url) {
                *file = Some(path);
            }
        }
        self.write_files()
    }

    fn write_files(&self) -> anyhow::Result<()> {
        replace(&self.files_file(), &serde_json::to_vec(&self.files)?)
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename.
fn replace(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))
}

/// Binds `host:port` to learn whether it is free (and which port 0 means), then lets it go for
/// the child that will listen there.
fn free_port(host: IpAddr, port: u16, what: &str) -> anyhow::Result<u16> {
    match TcpListener::bind(SocketAddr::new(host, port)) {
        Ok(listener) => Ok(listener.local_addr()?.port()),
        Err(err) if err.kind() == std::io::ErrorKind::AddrInUse => bail!(
            "port {port} on {host} is already in use: stop what uses it, or start {what} with --port N"
        ),
        Err(err) => Err(err).with_context(|| format!("listening on {host}:{port}")),
    }
}

async fn serve(options: &DevOptions) -> anyhow::Result<()> {
    let public = options.site_dir.join("public");
    let port = free_port(options.host, options.port, "`sitegen dev`")?;
    let url = format!("http://{}:{port}/", options.host);
    let vike = std::path::absolute(options.site_dir.join("node_modules/vike/bin.js"))?;
    if !vike.is_file() {
        bail!(
            "{} is missing: install the site's packages with `make deps`",
            vike.display()
        );
    }

    let cache = Arc::new(Cache::open(None)?);
    // The build's settings: a build after this one reuses every picture.
    let settings = crate::images::Settings::default();
    let contact_fn = contact_fn_binary();
    let contact_port = match &contact_fn {
        Some(_) => Some(free_port(options.host, 0, "contact-fn")?),
        None => None,
    };
    let dir = std::path::absolute(options.site_dir.join(DEV_DIR).join(format!("dev-{port}")))?;
    let mut exported = Exported::create(
        dir,
        contact_port.map(|p| format!("http://{}:{p}", options.host)),
    )?;

    let mut contact = match (&contact_fn, contact_port) {
        (Some(binary), Some(contact_port)) => {
            let origin = format!("http://{}:{port}", options.host);
            let mut command = Command::new(binary);
            command
                .arg("--bind")
                .arg(format!("{}:{contact_port}", options.host))
                .arg("--allowed-origins")
                .arg(format!("{origin},http://localhost:{port}"))
                .arg("--site-url")
                .arg(&origin)
                .env(
                    "RUST_LOG",
                    std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
                );
            Some(Owned::spawn("contact-fn", command, |_| true)?)
        }
        _ => {
            eprintln!(
                "warning: contact-fn was not found beside sitegen (`cargo build -p contact-fn`): the forms will not send"
            );
            None
        }
    };

    exported.write_cms_config(&options.content_dir);
    // The editor of /admin/ saves through this: the dev server forwards its requests here.
    let cms_listener = tokio::net::TcpListener::bind(SocketAddr::new(options.host, 0))
        .await
        .context("listening for the editor's saves")?;
    let cms_api = format!(
        "http://{}{}",
        cms_listener.local_addr()?,
        crate::cms::LOCAL_PROXY_URL
    );
    let cms_router = crate::cms::local::router(options.content_dir.clone(), public.clone()).merge(
        crate::cms::preview::router(options.content_dir.clone(), public.clone()),
    );
    tokio::spawn(async move {
        if let Err(err) = axum::serve(cms_listener, cms_router).await {
            eprintln!("warning: the editor's saves stopped: {err}");
        }
    });
    let mut command = Command::new("node");
    command
        // Each save replaces the content the dev server holds, and V8 let the garbage of the
        // replaced ones grow its heap. The dev plugin collects it once the reloaded pages have
        // rendered (`site/lib/devContent.ts`), with the collector this exposes.
        .arg("--expose-gc")
        // V8's young generation grows to three 16 MB semi-spaces; 2 MB ones kept the dev
        // server's Node 30-80 MB smaller at 5,000 articles, and its start no slower.
        .arg("--max-semi-space-size=2")
        .arg(&vike)
        .arg("dev")
        .current_dir(&options.site_dir)
        .env("SITEGEN_CONTENT", exported.content_file())
        .env("SITEGEN_DEV_STATUS", exported.status_file())
        .env("SITEGEN_DEV_FILES", exported.files_file())
        .env("SITEGEN_DEV_REDIRECTS", exported.redirects_file())
        .env("SITEGEN_DEV_CMS_CONFIG", exported.cms_config_file())
        .env("SITEGEN_DEV_CMS_API", &cms_api)
        .env(
            "VITE_CONFIG",
            serde_json::json!({
                "server": { "host": options.host.to_string(), "port": port, "strictPort": true }
            })
            .to_string(),
        );
    let mut vite = match Owned::spawn("the Vite dev server", command, keep_vite_line) {
        Ok(vite) => vite,
        Err(err) => {
            if let Some(contact) = contact {
                contact.stop().await;
            }
            return Err(err.context("is Node.js 20+ installed and on PATH?"));
        }
    };

    // The children start while the content is read: Node and Vite take about as long as
    // reading thousands of articles, and the dev server holds the first requests until the
    // content arrives. Watching starts first, so no save made meanwhile is missed.
    let mut watch = watch::Watch::start(&options.content_dir, &public)?;
    let mut memo = Memo::default();
    let mut drawer = cards::Drawer::start(Arc::clone(&cache), Arc::clone(&memo.cards))?;
    let started = Instant::now();
    // The first load runs on threads of the lowest priority: on two cores, Node starting Vite is
    // the first page's critical path, and with the processor time Node leaves the content is
    // still written before Vite listens (at 5,000 articles, Vite listened 0.3 s sooner and the
    // first page came 0.2 s sooner).
    let first = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("sitegen-first-load-{i}"))
        .start_handler(|_| lower_priority())
        .build()
        .context("starting the first load's threads")
        .and_then(|pool| {
            pool.install(|| {
                let loaded = prepare(&options.content_dir, &public, &cache, &settings, &mut memo)??;
                let pages = loaded.content.routes.len();
                let pending = exported.publish(Ok(loaded))?.unwrap_or_default();
                Ok((pages, pending))
            })
        })
        .map(|(pages, pending)| {
            drawer.draw(pending);
            pages
        });
    match first {
        Ok(pages) => println!(
            "sitegen dev: content valid ({pages} pages, {} ms)",
            started.elapsed().as_millis()
        ),
        Err(err) => {
            vite.stop().await;
            if let Some(contact) = contact {
                contact.stop().await;
            }
            return Err(err);
        }
    }
    let mut terminate = signal(SignalKind::terminate()).context("listening for SIGTERM")?;
    let mut ready = Box::pin(wait_for_port(options.host, port));
    let mut shown_url = false;

    let outcome: anyhow::Result<()> = loop {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => break Ok(()),
            _ = terminate.recv() => break Ok(()),
            err = vite.exited() => break Err(err),
            err = async { match contact.as_mut() { Some(c) => c.exited().await, None => std::future::pending().await } } => break Err(err),
            () = &mut ready, if !shown_url => {
                shown_url = true;
                println!("sitegen dev: {url}  (forms deliver to contact-fn; Ctrl-C stops)");
                if options.open {
                    open_browser(&url);
                }
            }
            save = watch.next_save() => {
                let Some(changed) = save else { break Err(anyhow::anyhow!("the file watcher stopped")) };
                let started = Instant::now();
                for path in &changed {
                    // Whatever its stamp says, a file the watcher saw written is read again.
                    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
                        memo.articles.forget(name);
                    }
                }
                let loaded = match prepare(&options.content_dir, &public, &cache, &settings, &mut memo) {
                    Ok(loaded) => loaded,
                    Err(err) => break Err(err),
                };
                let prepared = started.elapsed();
                let pages = match &loaded {
                    Ok(Prepared { content, .. }) => Some(content.routes.len()),
                    Err(errors) => {
                        eprintln!(
                            "{errors}\n{} problem{} in the content; the browser keeps the last good content",
                            errors.0.len(),
                            if errors.0.len() == 1 { "" } else { "s" }
                        );
                        None
                    }
                };
                match exported.publish(loaded) {
                    Ok(Some(pending)) => drawer.draw(pending),
                    Ok(None) => {}
                    Err(err) => break Err(err),
                }
                if pages.is_some() {
                    exported.write_cms_config(&options.content_dir);
                }
                if let Some(pages) = pages {
                    // The two figures `make bench-dev` reports of each save beside its time to
                    // the browser: site/bench/dev-reload.bench.ts reads them in these words.
                    println!(
                        "{} changed: content valid ({pages} pages), reloading (read in {} ms, handed over in {} ms)",
                        describe_changes(&changed),
                        prepared.as_millis(),
                        (started.elapsed() - prepared).as_millis()
                    );
                }
            }
            drawn = drawer.next() => match drawn {
                cards::Drawn::Files(files) => {
                    if let Err(err) = exported.drawn(files) {
                        break Err(err);
                    }
                }
                cards::Drawn::Finished { cards, took } => println!(
                    "sitegen dev: {cards} social card{} ready ({} ms)",
                    if cards == 1 { "" } else { "s" },
                    took.as_millis()
                ),
                cards::Drawn::Failed(err) => eprintln!(
                    "warning: drawing the social cards: {err}; the rest are drawn after the next save"
                ),
            },
        }
    };

    vite.stop().await;
    if let Some(contact) = contact {
        contact.stop().await;
    }
    drop(exported);
    outcome
}

/// The path of contact-fn built beside this binary (`target/debug/contact-fn`).
fn contact_fn_binary() -> Option<PathBuf> {
    let path = std::env::current_exe()
        .ok()?
        .with_file_name(format!("contact-fn{}", std::env::consts::EXE_SUFFIX));
    path.is_file().then_some(path)
}

/// Gives this thread the lowest scheduling priority (nice 19), where the system allows it.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // On Linux a thread's id names that thread alone to setpriority(2).
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
    }
}

/// Resolves once something accepts connections on `host:port`.
async fn wait_for_port(host: IpAddr, port: u16) {
    while tokio::net::TcpStream::connect((host, port)).await.is_err() {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Vite's and Vike's own start-up banner and per-request lines repeat what `sitegen dev` says
/// (its one URL); everything else (warnings, errors, HMR updates) passes through.
fn keep_vite_line(line: &str) -> bool {
    let trimmed = line.trim();
    !(trimmed.is_empty()
        || trimmed.contains("➜")
        || trimmed.contains(" ready in ")
        || trimmed.contains("[vike][request-")
        || trimmed.ends_with("[vite] connected."))
}

fn describe_changes(changed: &[PathBuf]) -> String {
    match changed {
        [one] => one.display().to_string(),
        many => format!("{} files", many.len()),
    }
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(err) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("warning: could not open a browser ({opener}: {err}); open {url}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model of two fields: `pages`, small, and `routes`, an array of `n` routes (the newest
    /// first) large enough to be cut into pieces.
    fn model(routes: impl Iterator<Item = usize>) -> Vec<u8> {
        let routes: Vec<serde_json::Value> = routes
            .map(|i| serde_json::json!({ "path": format!("/insights/a-{i}"), "description": "x".repeat(300) }))
            .collect();
        serde_json::to_vec(&serde_json::json!({ "pages": { "title": "Home" }, "routes": routes }))
            .expect("serialises")
    }

    /// The manifest's files, and the files of `parts/`.
    fn written(exported: &Exported) -> (Vec<String>, std::collections::BTreeSet<String>) {
        let manifest: serde_json::Value = serde_json::from_slice(
            &std::fs::read(exported.content_file()).expect("the content file"),
        )
        .expect("parses");
        let named = manifest["$parts"]
            .as_object()
            .expect("parts")
            .values()
            .flat_map(|value| match value {
                serde_json::Value::String(file) => vec![file.clone()],
                files => files
                    .as_array()
                    .expect("pieces")
                    .iter()
                    .map(|file| file.as_str().expect("a file").to_owned())
                    .collect(),
            })
            .collect();
        let on_disk = std::fs::read_dir(exported.dir.join("parts"))
            .expect("parts/")
            .map(|entry| {
                format!(
                    "parts/{}",
                    entry.expect("entry").file_name().to_string_lossy()
                )
            })
            .collect();
        (named, on_disk)
    }

    #[test]
    fn a_field_written_from_its_elements_is_written_as_the_whole_model_would_be() {
        let scratch = tempfile::tempdir().expect("tempdir");
        let apart_dir = scratch.path().join("apart");
        let mut apart = Exported::create(apart_dir, None).expect("created");
        let mut routes = Elements::array();
        // Twice: the second time every route's bytes are the first time's.
        for (round, names) in [(0, 0..2_000), (1, 1..2_001)] {
            let model_bytes = model(names.clone());
            let whole_dir = scratch.path().join(format!("whole-{round}"));
            let mut whole = Exported::create(whole_dir, None).expect("created");
            whole.write_parts(&model_bytes, &[]).expect("written");
            let model: serde_json::Value = serde_json::from_slice(&model_bytes).expect("parses");
            let elements = model["routes"].as_array().expect("routes").clone();
            routes
                .write(elements.into_iter().map(|r| (r["path"].to_string(), r)))
                .expect("written");
            let rest =
                serde_json::to_vec(&serde_json::json!({ "pages": model["pages"], "routes": [] }))
                    .expect("serialises");
            apart
                .write_parts(&rest, &[("routes", Known::of(&routes))])
                .expect("written");
            assert_eq!(written(&apart), written(&whole), "round {round}");
        }
        // A field the model does not have is a mistake in sitegen, said as such.
        let rest = serde_json::to_vec(&serde_json::json!({ "pages": {} })).expect("serialises");
        let err = apart
            .write_parts(&rest, &[("routes", Known::of(&routes))])
            .expect_err("no such field");
        assert!(err.to_string().contains("no field `routes`"), "{err}");
    }

    #[test]
    fn a_new_first_route_writes_one_piece_and_the_old_one_goes() {
        let scratch = tempfile::tempdir().expect("tempdir");
        let mut exported = Exported::create(scratch.path().join("dev"), None).expect("created");
        exported
            .write_parts(&model(0..2_000), &[])
            .expect("written");
        let (before, on_disk) = written(&exported);
        assert!(before.len() > 4, "the routes are cut: {before:?}");
        assert_eq!(on_disk, before.iter().cloned().collect());
        // The pieces, read in the manifest's order, hold the routes in theirs.
        let paths: Vec<String> = before
            .iter()
            .filter(|file| file.starts_with("parts/routes."))
            .flat_map(|file| {
                let piece: Vec<serde_json::Value> = serde_json::from_slice(
                    &std::fs::read(exported.dir.join(file)).expect("a piece"),
                )
                .expect("parses");
                piece.into_iter().map(|route| route["path"].to_string())
            })
            .collect();
        let expected: Vec<String> = (0..2_000).map(|i| format!("\"/insights/a-{i}\"")).collect();
        assert_eq!(paths, expected);

        exported
            .write_parts(&model(std::iter::once(9_999).chain(0..2_000)), &[])
            .expect("written");
        let (after, on_disk) = written(&exported);
        let new: Vec<&String> = after.iter().filter(|file| !before.contains(file)).collect();
        let gone: Vec<&String> = before.iter().filter(|file| !after.contains(file)).collect();
        assert_eq!(
            (new.len(), gone.len()),
            (1, 1),
            "new {new:?}, gone {gone:?}"
        );
        assert!(new[0].starts_with("parts/routes."), "{new:?}");
        // The piece no longer named is removed; nothing else is.
        assert_eq!(on_disk, after.iter().cloned().collect());
    }
}
