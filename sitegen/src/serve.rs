//! `sitegen serve`: a preview of the output directory that answers the way the CDN will, so
//! what passes here passes in production.
//!
//! - `/about` and `/about/` both serve `about/index.html` with status 200, no redirect.
//! - Unknown paths get status 404 with the body of the nearest `404.html` up their folders
//!   (`et/404.html` for `/et/missing`, each language's own), as Cloudflare Pages answers.
//! - The rules of `_redirects` come first, as Cloudflare Pages applies them: an old path is
//!   answered 301 with its `Location`, a path that is gone 410 with the not-found page's body.
//! - The rules of `_headers` (Netlify / Cloudflare Pages format) are applied. A page is matched
//!   under its request path and its canonical paths (`/about/`, `/about/index.html`), so both
//!   spellings of a URL get the same headers; the not-found page also gets `/404.html`'s rules.
//! - A file with precompressed variants (`sitegen build` writes `file.br` and `file.gz`) is
//!   sent as brotli, else gzip, else as it is, by the request's `Accept-Encoding` (a coding
//!   with `q=0` is refused), with `Vary: Accept-Encoding`. Nothing is compressed on the fly.
//! - With `--previews` ([`router_with_previews`]), `NAME.localhost` is answered from
//!   `previews/NAME/` as the CloudFront Function answers `NAME.<preview domain>`: its pages, the
//!   redirects of its own `_redirects` (as the function reads them from the KeyValueStore), an
//!   unknown NAME with the site's not-found page; every answer with `X-Robots-Tag: noindex`. The
//!   site's own host answers `/previews/...` with 404. One difference, on purpose: a missing
//!   page of a preview gets the preview's own not-found page, where CloudFront, whose custom
//!   error responses belong to the distribution, sends the site's `/404.html` (with its 404).
//! - Nothing outside the directory can be reached: `..`, encoded or not, is refused, and
//!   symbolic links leading out are treated as missing.

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, ensure};
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT_ENCODING, ALLOW, CONTENT_ENCODING, CONTENT_TYPE, LOCATION, VARY};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tower_http::services::ServeFile;

use crate::compress::Encoding;
use crate::headers::{HeaderRules, with_charset};
use crate::output_dir::{CONFIG_FILES, NOT_FOUND_FILE, candidate_files, header_paths};
use crate::redirects::{self, Rule, Rules};

/// The app serving `dir`. Fails when `dir` is not a directory or its `_headers` or
/// `_redirects` is malformed (every bad line of `_headers` is listed). Both are read once, here.
pub fn router(dir: PathBuf) -> Result<Router> {
    let site = Arc::new(Site::open(&dir)?);
    Ok(Router::new().fallback(handle).with_state(site))
}

/// [`router`], answering also the previews `sitegen deploy --preview NAME` would upload under
/// `previews/NAME/`: a request for `NAME.localhost` is served from there (its `_headers` and
/// `_redirects` read on each request, so a preview written meanwhile is served), each answer
/// with `X-Robots-Tag: noindex`, an unknown NAME with the site's not-found page; the site's own
/// host answers `/previews/...` with 404, as the CloudFront Function does.
pub fn router_with_previews(dir: PathBuf) -> Result<Router> {
    let site = Arc::new(Site::open(&dir)?);
    Ok(Router::new().fallback(by_host).with_state(site))
}

/// The folder of the previews under an output directory.
pub const PREVIEWS_DIR: &str = "previews";

/// Whether `name` may name a preview (a branch or `pr-42`): letters, digits and `-`.
pub fn is_preview_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

async fn by_host(State(site): State<Arc<Site>>, req: Request) -> Response {
    let host = req
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(|h| {
            h.rsplit_once(':')
                .map_or(h, |(name, _)| name)
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let Some(name) = host.strip_suffix(".localhost") else {
        let path = req.uri().path();
        if path == "/previews" || path.starts_with("/previews/") {
            return site.not_found(path, req.headers()).await;
        }
        return handle(State(site), req).await;
    };
    let dir = site.root.join(PREVIEWS_DIR).join(name);
    let mut res = if is_preview_name(name) && dir.is_dir() {
        match Site::open(&dir) {
            Ok(preview) => handle(State(Arc::new(preview)), req).await,
            Err(err) => {
                eprintln!("error: the preview `{name}`: {err:#}");
                (StatusCode::INTERNAL_SERVER_ERROR, format!("500: {err:#}\n")).into_response()
            }
        }
    } else {
        // As on CloudFront: the bucket has no such object, and the distribution's not-found
        // page, the site's, answers.
        site.not_found(req.uri().path(), req.headers()).await
    };
    res.headers_mut()
        .insert("x-robots-tag", HeaderValue::from_static("noindex"));
    res
}

/// Serves `dir` on `addr` until Ctrl-C (or SIGTERM), printing the URL to open.
pub async fn run(dir: PathBuf, addr: SocketAddr, previews: bool) -> Result<()> {
    let app = match previews {
        true => router_with_previews(dir.clone())?,
        false => router(dir.clone())?,
    };
    let listener = TcpListener::bind(addr).await.with_context(|| {
        format!("listening on {addr}; is another server using the port? choose one with --port")
    })?;
    let local = listener.local_addr().context("reading the bound address")?;
    println!(
        "Serving {} at http://{local}/ (press Ctrl-C to stop)",
        dir.display()
    );
    serve_until(listener, app, shutdown_signal()).await
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish.
pub async fn serve_until(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .context("serving HTTP")
}

async fn shutdown_signal() {
    let ctrl_c = async {
        // If the handler cannot be installed, the default (terminate) still applies.
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    () = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => ctrl_c.await,
        }
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}

#[derive(Debug)]
struct Site {
    /// The output directory, canonicalised.
    root: PathBuf,
    rules: HeaderRules,
    redirects: Rules,
}

async fn handle(State(site): State<Arc<Site>>, req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut res = (StatusCode::METHOD_NOT_ALLOWED, "405 Method Not Allowed\n").into_response();
        res.headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return res;
    }
    let request_path = req.uri().path().to_owned();
    let headers = req.headers().clone();
    if let Some(rule) = site.redirects.get(&request_path) {
        return site.redirect(rule, &request_path, &headers).await;
    }
    let Some(candidates) = candidate_files(&request_path) else {
        let mut res = (StatusCode::BAD_REQUEST, "400 Bad Request: invalid path\n").into_response();
        site.rules.apply(&[&request_path], res.headers_mut());
        return res;
    };
    let Some(file) = site.find(&candidates).await else {
        return site.not_found(&request_path, &headers).await;
    };

    let path = site.root.join(&file);
    let variants = site.variants(&file).await;
    let chosen = negotiate(req.headers(), &variants);
    let (mut parts, body) = req.into_parts();
    // The file service picks the variant named here, and sets Content-Encoding and the
    // original's Content-Type.
    parts.headers.insert(
        ACCEPT_ENCODING,
        HeaderValue::from_static(chosen.map_or("identity", Encoding::token)),
    );
    let req = Request::from_parts(parts, body);
    let mut service = ServeFile::new(&path)
        .precompressed_br()
        .precompressed_gzip();
    let mut res = match service.try_call(req).await {
        Ok(res) if res.status() == StatusCode::NOT_FOUND => {
            // Removed between the lookup and the read, e.g. by a rebuild.
            return site.not_found(&request_path, &headers).await;
        }
        Ok(res) => res.map(Body::new),
        Err(err) => {
            eprintln!("error: reading {}: {err}", path.display());
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                "500 Internal Server Error\n",
            )
                .into_response();
        }
    };
    add_utf8_charset(&mut res);
    // The file service says Vary whenever precompression is configured; only a file with
    // variants varies.
    if variants.is_empty() {
        res.headers_mut().remove(VARY);
    } else {
        res.headers_mut()
            .insert(VARY, HeaderValue::from_static("accept-encoding"));
    }

    let file_path = format!("/{file}");
    site.rules
        .apply(&header_paths(&request_path, &file_path), res.headers_mut());
    res
}

/// The coding to send a file in: the first of [`Encoding::PREFERRED`] that has a variant
/// and that `Accept-Encoding` accepts (by name or `*`, with a q-value above 0); `None`
/// means the file as it is.
pub fn negotiate(headers: &HeaderMap, variants: &[Encoding]) -> Option<Encoding> {
    let mut accepted: Vec<(String, bool)> = Vec::new();
    for value in headers.get_all(ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            if coding.is_empty() {
                continue;
            }
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            accepted.push((coding, q > 0.0));
        }
    }
    let accepts = |token: &str| {
        let named = accepted.iter().find(|(c, _)| c == token);
        let any = accepted.iter().find(|(c, _)| c == "*");
        named.or(any).is_some_and(|(_, ok)| *ok)
    };
    Encoding::PREFERRED
        .into_iter()
        .find(|e| variants.contains(e) && accepts(e.token()))
}

impl Site {
    /// The output directory `dir`, with its `_headers` and `_redirects`.
    fn open(dir: &std::path::Path) -> Result<Self> {
        ensure!(
            dir.is_dir(),
            "{} is not a directory; run `sitegen build` first",
            dir.display()
        );
        let root = dir
            .canonicalize()
            .with_context(|| format!("resolving {}", dir.display()))?;
        let rules = HeaderRules::load(&root.join("_headers"))?;
        let redirects = Rules::load(&root)?;
        Ok(Self {
            root,
            rules,
            redirects,
        })
    }

    /// The first candidate that is a regular file inside the root.
    async fn find(&self, candidates: &[String]) -> Option<String> {
        for candidate in candidates {
            if CONFIG_FILES.contains(&candidate.as_str()) {
                return None;
            }
            let path = self.root.join(candidate);
            let Ok(real) = tokio::fs::canonicalize(&path).await else {
                continue;
            };
            if !real.starts_with(&self.root) {
                continue;
            }
            if tokio::fs::metadata(&real).await.is_ok_and(|m| m.is_file()) {
                return Some(candidate.clone());
            }
        }
        None
    }

    /// The precompressed variants of `file` present in the directory.
    async fn variants(&self, file: &str) -> Vec<Encoding> {
        let mut found = Vec::new();
        for encoding in Encoding::PREFERRED {
            let variant = format!("{file}{}", encoding.suffix());
            if self.find(std::slice::from_ref(&variant)).await.is_some() {
                found.push(encoding);
            }
        }
        found
    }

    /// The answer of a `_redirects` rule: a 301 to its target, or a 410 with the not-found
    /// page's body.
    async fn redirect(&self, rule: &Rule, request_path: &str, headers: &HeaderMap) -> Response {
        if rule.status == redirects::GONE {
            let mut res = self.not_found(request_path, headers).await;
            *res.status_mut() = StatusCode::GONE;
            return res;
        }
        let mut res = StatusCode::MOVED_PERMANENTLY.into_response();
        match HeaderValue::from_str(&rule.to) {
            Ok(location) => {
                res.headers_mut().insert(LOCATION, location);
            }
            Err(_) => {
                eprintln!("error: _redirects: {:?} is not a valid Location", rule.to);
                return StatusCode::INTERNAL_SERVER_ERROR.into_response();
            }
        }
        self.rules.apply(&[request_path], res.headers_mut());
        res
    }

    /// The not-found page `_redirects` gives for `request_path` (`/et/* /et/404.html 404`, as
    /// Netlify reads it), else the one nearest it up its folders (`et/404.html` for
    /// `/et/missing`), else `404.html`: what Cloudflare Pages serves. A build writes both, so
    /// they agree.
    async fn not_found_file(&self, request_path: &str) -> String {
        let ruled = self
            .redirects
            .not_found()
            .iter()
            .find(|rule| request_path.starts_with(&format!("{}/", rule.prefix)))
            .map(|rule| rule.page.trim_start_matches('/').to_owned());
        if let Some(page) = ruled.filter(|page| self.root.join(page).is_file()) {
            return page;
        }
        let folders: Vec<&str> = request_path
            .split('/')
            .filter(|s| !s.is_empty() && *s != "." && *s != "..")
            .collect();
        let candidates: Vec<String> = (1..=folders.len())
            .rev()
            .map(|n| format!("{}/{NOT_FOUND_FILE}", folders[..n].join("/")))
            .collect();
        self.find(&candidates)
            .await
            .unwrap_or_else(|| NOT_FOUND_FILE.to_owned())
    }

    async fn not_found(&self, request_path: &str, headers: &HeaderMap) -> Response {
        let page = self.not_found_file(request_path).await;
        let variants = self.variants(&page).await;
        let chosen = negotiate(headers, &variants);
        let file = format!("{page}{}", chosen.map_or("", Encoding::suffix));
        let mut res = match tokio::fs::read(self.root.join(file)).await {
            Ok(body) => {
                let mut res = (
                    StatusCode::NOT_FOUND,
                    [(CONTENT_TYPE, "text/html; charset=utf-8")],
                    body,
                )
                    .into_response();
                let headers = res.headers_mut();
                if let Some(encoding) = chosen {
                    headers.insert(CONTENT_ENCODING, HeaderValue::from_static(encoding.token()));
                }
                if !variants.is_empty() {
                    headers.insert(VARY, HeaderValue::from_static("accept-encoding"));
                }
                res
            }
            Err(_) => (StatusCode::NOT_FOUND, "404 Not Found\n").into_response(),
        };
        let not_found_path = format!("/{page}");
        self.rules
            .apply(&[request_path, &not_found_path], res.headers_mut());
        res
    }
}

/// The static file service names text types without a charset; the CDN sends UTF-8.
fn add_utf8_charset(res: &mut Response) {
    let Some(mime) = res
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return;
    };
    let typed = with_charset(mime);
    if typed != mime
        && let Ok(value) = HeaderValue::from_str(&typed)
    {
        res.headers_mut().insert(CONTENT_TYPE, value);
    }
}
