//! `sitegen serve`: a preview of the output directory that answers the way the CDN will, so
//! what passes here passes in production.
//!
//! - `/about` and `/about/` both serve `about/index.html` with status 200, no redirect.
//! - Unknown paths get status 404 with the body of `404.html`.
//! - The rules of `_headers` (Netlify / Cloudflare Pages format) are applied. A page is matched
//!   under its request path and its canonical paths (`/about/`, `/about/index.html`), so both
//!   spellings of a URL get the same headers; the not-found page also gets `/404.html`'s rules.
//! - A file with precompressed variants (`sitegen build` writes `file.br` and `file.gz`) is
//!   sent as brotli, else gzip, else as it is, by the request's `Accept-Encoding` (a coding
//!   with `q=0` is refused), with `Vary: Accept-Encoding`. Nothing is compressed on the fly.
//! - Nothing outside the directory can be reached: `..`, encoded or not, is refused, and
//!   symbolic links leading out are treated as missing.

use std::future::Future;
use std::io::ErrorKind;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail, ensure};
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT_ENCODING, ALLOW, CONTENT_ENCODING, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tower_http::services::ServeFile;

use crate::compress::Encoding;
use crate::output_dir::{CONFIG_FILES, NOT_FOUND_FILE, candidate_files, header_paths};

/// The app serving `dir`. Fails when `dir` is not a directory or its `_headers` is malformed
/// (every bad line is listed). `_headers` is read once, here.
pub fn router(dir: PathBuf) -> Result<Router> {
    ensure!(
        dir.is_dir(),
        "{} is not a directory; run `sitegen build` first",
        dir.display()
    );
    let root = dir
        .canonicalize()
        .with_context(|| format!("resolving {}", dir.display()))?;
    let rules = HeaderRules::load(&root.join("_headers"))?;
    let site = Arc::new(Site { root, rules });
    Ok(Router::new().fallback(handle).with_state(site))
}

/// Serves `dir` on `addr` until Ctrl-C (or SIGTERM), printing the URL to open.
pub async fn run(dir: PathBuf, addr: SocketAddr) -> Result<()> {
    let app = router(dir.clone())?;
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
    let Some(candidates) = candidate_files(&request_path) else {
        let mut res = (StatusCode::BAD_REQUEST, "400 Bad Request: invalid path\n").into_response();
        site.rules.apply(&[&request_path], &mut res);
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
        .apply(&header_paths(&request_path, &file_path), &mut res);
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

    async fn not_found(&self, request_path: &str, headers: &HeaderMap) -> Response {
        let variants = self.variants(NOT_FOUND_FILE).await;
        let chosen = negotiate(headers, &variants);
        let file = format!("{NOT_FOUND_FILE}{}", chosen.map_or("", Encoding::suffix));
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
        let not_found_path = format!("/{NOT_FOUND_FILE}");
        self.rules.apply(&[request_path, &not_found_path], &mut res);
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
    let textual = mime.starts_with("text/")
        || matches!(
            mime,
            "application/javascript" | "application/json" | "application/xml" | "image/svg+xml"
        );
    if textual
        && !mime.contains("charset")
        && let Ok(value) = HeaderValue::from_str(&format!("{mime}; charset=utf-8"))
    {
        res.headers_mut().insert(CONTENT_TYPE, value);
    }
}

/// The rules of a `_headers` file.
#[derive(Debug, Default)]
struct HeaderRules {
    rules: Vec<Rule>,
}

#[derive(Debug)]
struct Rule {
    pattern: Pattern,
    set: Vec<(HeaderName, HeaderValue)>,
    /// `! Name` lines: headers removed from the response (Cloudflare Pages' "detach").
    remove: Vec<HeaderName>,
}

impl HeaderRules {
    /// Reads `path`; a missing file means no rules.
    fn load(path: &Path) -> Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text).with_context(|| format!("in {}", path.display())),
            Err(err) if err.kind() == ErrorKind::NotFound => Ok(Self::default()),
            Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// A path line starts a rule; indented `Name: value` lines below it belong to it; `#`
    /// starts a comment. Every malformed line is reported, one per line, as `line N: ...`.
    fn parse(text: &str) -> Result<Self> {
        let mut rules: Vec<Rule> = Vec::new();
        let mut errors = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let number = index + 1;
            if !raw.starts_with([' ', '\t']) {
                match Pattern::parse(line) {
                    Ok(pattern) => rules.push(Rule {
                        pattern,
                        set: Vec::new(),
                        remove: Vec::new(),
                    }),
                    Err(message) => errors.push(format!("line {number}: {message}")),
                }
                continue;
            }
            let Some(rule) = rules.last_mut() else {
                errors.push(format!(
                    "line {number}: header {line:?} comes before any path; put a path such as /* on the line above"
                ));
                continue;
            };
            if let Some(name) = line.strip_prefix('!') {
                match HeaderName::from_bytes(name.trim().as_bytes()) {
                    Ok(name) => rule.remove.push(name),
                    Err(_) => errors.push(format!("line {number}: invalid header name {name:?}")),
                }
                continue;
            }
            let Some((name, value)) = line.split_once(':') else {
                errors.push(format!(
                    "line {number}: expected `Name: value`, found {line:?}"
                ));
                continue;
            };
            let (name, value) = (name.trim(), value.trim());
            match (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                (Ok(name), Ok(value)) => rule.set.push((name, value)),
                (Err(_), _) => errors.push(format!("line {number}: invalid header name {name:?}")),
                (_, Err(_)) => {
                    errors.push(format!("line {number}: invalid value for header {name:?}"))
                }
            }
        }
        if errors.is_empty() {
            Ok(Self { rules })
        } else {
            bail!("{}", errors.join("\n"))
        }
    }

    /// Applies every rule matching any of `paths`, each rule once and in file order. A header
    /// set by several rules gets their values joined with `, `, as on the CDN; the rules'
    /// headers replace those of the file server.
    fn apply(&self, paths: &[&str], res: &mut Response) {
        let matching = self
            .rules
            .iter()
            .filter(|rule| paths.iter().any(|path| rule.pattern.matches(path)));
        let mut merged: Vec<(HeaderName, Vec<&HeaderValue>)> = Vec::new();
        let mut removed = Vec::new();
        for rule in matching {
            for (name, value) in &rule.set {
                match merged.iter_mut().find(|(n, _)| n == name) {
                    Some((_, values)) => values.push(value),
                    None => merged.push((name.clone(), vec![value])),
                }
            }
            removed.extend(rule.remove.iter().cloned());
        }
        let headers = res.headers_mut();
        for (name, values) in merged {
            let joined = values
                .iter()
                .map(|v| v.as_bytes())
                .collect::<Vec<_>>()
                .join(&b", "[..]);
            if let Ok(value) = HeaderValue::from_bytes(&joined) {
                headers.insert(name, value);
            }
        }
        for name in removed {
            headers.remove(name);
        }
    }
}

/// A `_headers` path pattern: literal text, one `*` splat matching anything (slashes too),
/// and `:name` placeholders matching one path segment.
#[derive(Debug)]
struct Pattern {
    tokens: Vec<Token>,
}

#[derive(Debug, PartialEq, Eq)]
enum Token {
    Literal(String),
    Splat,
    Placeholder,
}

impl Pattern {
    fn parse(pattern: &str) -> Result<Self, String> {
        if pattern.starts_with("https://") {
            // Host-specific rules never match a local preview.
            return Ok(Self { tokens: Vec::new() });
        }
        if !pattern.starts_with('/') {
            return Err(format!(
                "path {pattern:?} must start with '/' (or be an https:// URL)"
            ));
        }
        if pattern.matches('*').count() > 1 {
            return Err(format!("path {pattern:?} has more than one '*'"));
        }
        let mut tokens = Vec::new();
        let mut literal = String::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '*' || c == ':' && literal.ends_with('/') {
                if !literal.is_empty() {
                    tokens.push(Token::Literal(std::mem::take(&mut literal)));
                }
                if c == '*' {
                    tokens.push(Token::Splat);
                } else {
                    while chars.next_if(|c| *c != '/').is_some() {}
                    tokens.push(Token::Placeholder);
                }
            } else {
                literal.push(c);
            }
        }
        if !literal.is_empty() {
            tokens.push(Token::Literal(literal));
        }
        Ok(Self { tokens })
    }

    fn matches(&self, path: &str) -> bool {
        !self.tokens.is_empty() && match_tokens(&self.tokens, path)
    }
}

fn match_tokens(tokens: &[Token], path: &str) -> bool {
    match tokens.split_first() {
        None => path.is_empty(),
        Some((Token::Literal(text), rest)) => path
            .strip_prefix(text.as_str())
            .is_some_and(|tail| match_tokens(rest, tail)),
        Some((Token::Splat, rest)) => path
            .char_indices()
            .map(|(i, _)| i)
            .chain([path.len()])
            .any(|i| match_tokens(rest, &path[i..])),
        Some((Token::Placeholder, rest)) => {
            let end = path.find('/').unwrap_or(path.len());
            end > 0 && match_tokens(rest, &path[end..])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(p: &str) -> Pattern {
        Pattern::parse(p).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn splat_matches_any_rest_including_slashes() {
        let assets = pattern("/assets/*");
        assert!(assets.matches("/assets/app-abc123.js"));
        assert!(assets.matches("/assets/fonts/x.woff2"));
        assert!(assets.matches("/assets/"));
        assert!(!assets.matches("/assets"));
        assert!(!assets.matches("/about/"));
        assert!(pattern("/*").matches("/"));
        assert!(pattern("/*.html").matches("/404.html"));
        assert!(!pattern("/*.html").matches("/about/"));
    }

    #[test]
    fn literal_paths_match_exactly_and_placeholders_one_segment() {
        assert!(pattern("/about/").matches("/about/"));
        assert!(!pattern("/about/").matches("/about"));
        let service = pattern("/services/:category/");
        assert!(service.matches("/services/cloud-services/"));
        assert!(!service.matches("/services/cloud-services/devops/"));
        assert!(!service.matches("/services//"));
        assert!(!pattern("https://www.example.com/*").matches("/"));
    }

    #[test]
    fn malformed_header_files_list_every_bad_line() {
        let err = HeaderRules::parse(
            "  X-Early: 1\n/ok\n  Good: yes\n  no colon here\n  Bad Name: 1\nrelative/*\n/a*b*\n",
        )
        .map(|_| ())
        .expect_err("rejected");
        assert_eq!(
            err.to_string(),
            "\
line 1: header \"X-Early: 1\" comes before any path; put a path such as /* on the line above
line 4: expected `Name: value`, found \"no colon here\"
line 5: invalid header name \"Bad Name\"
line 6: path \"relative/*\" must start with '/' (or be an https:// URL)
line 7: path \"/a*b*\" has more than one '*'"
        );
    }

    #[test]
    fn headers_from_several_rules_are_joined_and_can_be_detached() {
        let rules = HeaderRules::parse(
            "/*\n  X-Robots-Tag: noindex\n  X-Frame-Options: DENY\n/about/\n  X-Robots-Tag: nosnippet\n  ! X-Frame-Options\n",
        )
        .unwrap_or_default();
        let mut res = Response::new(Body::empty());
        rules.apply(&["/about", "/about/"], &mut res);
        let get = |name: &str| res.headers().get(name).map(|v| v.as_bytes().to_vec());
        assert_eq!(get("x-robots-tag"), Some(b"noindex, nosnippet".to_vec()));
        assert_eq!(get("x-frame-options"), None);
    }
}
