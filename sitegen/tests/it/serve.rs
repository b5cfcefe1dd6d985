//! `sitegen serve` answers like the CDN: tested through the router without a socket, and
//! once over a real socket.

use std::io::Read;
use std::path::{Path, PathBuf};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, Response, StatusCode};
use sitegen::serve::{router, serve_until};
use tower::ServiceExt;

fn dist_basic() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dist-basic")
}

fn app() -> Router {
    router(dist_basic()).expect("the fixture is servable")
}

async fn get(path: &str, headers: &[(&str, &str)]) -> Response<Body> {
    let mut req = Request::get(path);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    app()
        .oneshot(req.body(Body::empty()).expect("request"))
        .await
        .expect("infallible")
}

async fn body(res: Response<Body>) -> Vec<u8> {
    to_bytes(res.into_body(), usize::MAX)
        .await
        .expect("body")
        .to_vec()
}

fn header<'a>(res: &'a Response<Body>, name: &str) -> Option<&'a str> {
    res.headers().get(name).and_then(|v| v.to_str().ok())
}

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(dist_basic().join(path)).expect("fixture file")
}

#[tokio::test]
async fn a_page_is_served_with_and_without_its_trailing_slash() {
    let without = get("/about", &[]).await;
    let with = get("/about/", &[]).await;
    assert_eq!(without.status(), StatusCode::OK);
    assert_eq!(with.status(), StatusCode::OK);
    assert_eq!(header(&without, "location"), None);
    assert_eq!(
        header(&without, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(body(without).await, fixture("about/index.html"));
    assert_eq!(body(with).await, fixture("about/index.html"));
}

#[tokio::test]
async fn the_home_page_is_index_html() {
    let res = get("/", &[]).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(body(res).await, fixture("index.html"));
}

#[tokio::test]
async fn an_unknown_path_is_404_with_the_not_found_page() {
    for path in [
        "/no-such-page",
        "/no/such/page/",
        "/assets/",
        "/about/missing.png",
    ] {
        let res = get(path, &[]).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            header(&res, "content-type"),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(body(res).await, fixture("404.html"), "{path}");
    }
}

#[tokio::test]
async fn headers_file_rules_apply_to_pages_assets_and_the_not_found_page() {
    let about = get("/about", &[]).await;
    assert_eq!(header(&about, "x-frame-options"), Some("DENY"));
    assert_eq!(
        header(&about, "cache-control"),
        Some("public, max-age=0, must-revalidate"),
        "/about gets the rule written for /about/"
    );
    assert_eq!(
        header(&about, "content-security-policy"),
        Some("default-src 'self'; connect-src 'self' https://contact.example.com")
    );

    let asset = get("/assets/app-abc123.js", &[]).await;
    assert_eq!(asset.status(), StatusCode::OK);
    assert_eq!(
        header(&asset, "cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(header(&asset, "x-content-type-options"), Some("nosniff"));
    assert_eq!(
        header(&asset, "content-type"),
        Some("text/javascript; charset=utf-8")
    );

    let missing = get("/nowhere", &[]).await;
    assert_eq!(header(&missing, "x-frame-options"), Some("DENY"));
    assert_eq!(
        header(&missing, "cache-control"),
        Some("public, max-age=0, must-revalidate")
    );
}

#[tokio::test]
async fn the_headers_file_itself_is_not_served() {
    let res = get("/_headers", &[]).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(body(res).await, fixture("404.html"));
}

#[tokio::test]
async fn gzip_is_sent_to_clients_that_accept_it() {
    let res = get("/about/", &[("accept-encoding", "gzip")]).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "content-encoding"), Some("gzip"));
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(&body(res).await[..])
        .read_to_end(&mut plain)
        .expect("valid gzip");
    assert_eq!(plain, fixture("about/index.html"));
}

#[tokio::test]
async fn brotli_is_preferred_when_accepted() {
    let res = get("/", &[("accept-encoding", "gzip, br")]).await;
    assert_eq!(header(&res, "content-encoding"), Some("br"));
    let compressed = body(res).await;
    let mut plain = Vec::new();
    brotli::Decompressor::new(&compressed[..], 4096)
        .read_to_end(&mut plain)
        .expect("valid brotli");
    assert_eq!(plain, fixture("index.html"));
}

#[tokio::test]
async fn nothing_is_compressed_for_clients_that_do_not_ask() {
    let res = get("/", &[]).await;
    assert_eq!(header(&res, "content-encoding"), None);
    assert_eq!(body(res).await, fixture("index.html"));
}

#[tokio::test]
async fn paths_leaving_the_directory_are_refused() {
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/%2e%2e/Cargo.toml",
        "/..%5c..%5cCargo.toml",
    ] {
        let res = get(path, &[]).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{path}");
        let text = String::from_utf8(body(res).await).expect("utf-8");
        assert!(!text.contains("[package]"), "{path} leaked {text}");
    }
}

#[tokio::test]
async fn an_unknown_path_under_a_language_gets_that_languages_not_found_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("index.html"), "home").expect("write");
    std::fs::write(dir.path().join("404.html"), "not found").expect("write");
    std::fs::create_dir(dir.path().join("et")).expect("mkdir");
    std::fs::write(dir.path().join("et/404.html"), "ei leitud").expect("write");
    for (path, page) in [
        ("/et/puudub", &b"ei leitud"[..]),
        ("/et/a/b/", b"ei leitud"),
        ("/et", b"ei leitud"),
        ("/etc/passwd", b"not found"),
        ("/missing", b"not found"),
    ] {
        let res = router(dir.path().to_path_buf())
            .expect("servable")
            .oneshot(Request::get(path).body(Body::empty()).expect("request"))
            .await
            .expect("infallible");
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(body(res).await, page, "{path}");
    }
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_leading_out_of_the_directory_is_not_followed() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("index.html"), "home").expect("write");
    std::fs::write(dir.path().join("404.html"), "not found").expect("write");
    let outside = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    std::os::unix::fs::symlink(outside, dir.path().join("secret.txt")).expect("symlink");

    let res = router(dir.path().to_path_buf())
        .expect("servable")
        .oneshot(
            Request::get("/secret.txt")
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(body(res).await, b"not found");
}

#[tokio::test]
async fn only_get_and_head_are_allowed() {
    let res = app()
        .oneshot(
            Request::post("/about/")
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(header(&res, "allow"), Some("GET, HEAD"));
}

#[test]
fn a_missing_directory_is_a_clear_error() {
    let err = router(dist_basic().join("nope")).expect_err("nothing to serve");
    assert!(
        err.to_string()
            .ends_with("nope is not a directory; run `sitegen build` first"),
        "{err}"
    );
}

#[tokio::test]
async fn serves_over_a_real_socket_until_shut_down() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve_until(listener, app(), async {
        let _ = stopped.await;
    }));

    let client = reqwest::Client::new();
    let res = client
        .get(format!("http://{addr}/about"))
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    assert_eq!(
        res.headers().get("x-frame-options").map(|v| v.as_bytes()),
        Some(&b"DENY"[..])
    );
    assert_eq!(
        res.bytes().await.expect("body"),
        fixture("about/index.html")
    );

    let missing = client
        .get(format!("http://{addr}/missing"))
        .send()
        .await
        .expect("request");
    assert_eq!(missing.status(), reqwest::StatusCode::NOT_FOUND);

    stop.send(()).expect("server is running");
    server
        .await
        .expect("server task")
        .expect("server shuts down cleanly");
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut plain)
        .expect("valid gzip");
    plain
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut plain)
        .expect("valid brotli");
    plain
}

#[tokio::test]
async fn the_precompressed_variant_is_picked_br_then_gzip_then_identity() {
    // index.html has .br and .gz; about/index.html only .gz; the script neither.
    for (path, accept, expected, original) in [
        ("/", "gzip, deflate, br, zstd", Some("br"), "index.html"),
        ("/", "br;q=0.1, gzip;q=1", Some("br"), "index.html"),
        ("/", "gzip", Some("gzip"), "index.html"),
        ("/", "br;q=0, gzip", Some("gzip"), "index.html"),
        ("/", "*", Some("br"), "index.html"),
        ("/", "*;q=0", None, "index.html"),
        ("/", "br;q=0, gzip;q=0", None, "index.html"),
        ("/", "identity", None, "index.html"),
        ("/about", "br", None, "about/index.html"),
        ("/about", "br, gzip", Some("gzip"), "about/index.html"),
        ("/about", "*, gzip;q=0", None, "about/index.html"),
    ] {
        let res = get(path, &[("accept-encoding", accept)]).await;
        assert_eq!(res.status(), StatusCode::OK, "{path} {accept}");
        assert_eq!(
            header(&res, "content-encoding"),
            expected,
            "{path} {accept}"
        );
        assert_eq!(
            header(&res, "vary"),
            Some("accept-encoding"),
            "{path} {accept}"
        );
        assert_eq!(
            header(&res, "content-type"),
            Some("text/html; charset=utf-8"),
            "{path} {accept}"
        );
        let bytes = body(res).await;
        let plain = match expected {
            Some("br") => unbrotli(&bytes),
            Some("gzip") => gunzip(&bytes),
            _ => bytes,
        };
        assert_eq!(plain, fixture(original), "{path} {accept}");
    }
}

#[tokio::test]
async fn a_file_without_variants_is_sent_as_it_is_without_vary() {
    let res = get("/assets/app-abc123.js", &[("accept-encoding", "br, gzip")]).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, "content-encoding"), None);
    assert_eq!(header(&res, "vary"), None);
    assert_eq!(body(res).await, fixture("assets/app-abc123.js"));
}

#[tokio::test]
async fn the_not_found_page_is_precompressed_too() {
    let res = get("/nowhere", &[("accept-encoding", "gzip")]).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&res, "content-encoding"), Some("gzip"));
    assert_eq!(header(&res, "vary"), Some("accept-encoding"));
    assert_eq!(gunzip(&body(res).await), fixture("404.html"));
    let res = get("/nowhere", &[("accept-encoding", "br")]).await;
    assert_eq!(header(&res, "content-encoding"), Some("br"));
    assert_eq!(unbrotli(&body(res).await), fixture("404.html"));
}

/// `sitegen serve --previews`: `pr-7.localhost` is the preview under `previews/pr-7/`, with
/// its own redirects and not-found page, never indexed; an unknown preview meets the site's
/// not-found page, as on CloudFront; the site's own host keeps its pages and redirects and
/// does not reach the previews.
#[tokio::test]
async fn a_preview_is_served_at_its_name_on_localhost_with_noindex() {
    let dir = tempfile::tempdir().expect("tempdir");
    crate::common::copy_tree(&dist_basic(), dir.path(), &[]).expect("a copy of the output");
    let preview = dir.path().join("previews/pr-7");
    crate::common::copy_tree(&dist_basic(), &preview, &[]).expect("a preview");
    std::fs::write(preview.join("about/index.html"), "the preview's about page").expect("write");
    std::fs::write(preview.join("404.html"), "the preview's not-found page").expect("write");
    for variant in ["404.html.br", "404.html.gz"] {
        std::fs::remove_file(preview.join(variant)).expect("remove");
    }
    std::fs::write(
        preview.join("_redirects"),
        "/old-pricing /about/ 301\n/offers/2023 /404.html 410\n",
    )
    .expect("write");
    let app = sitegen::serve::router_with_previews(dir.path().to_owned()).expect("servable");
    let get = |host: &str, path: &str| {
        let req = Request::get(path)
            .header("host", host)
            .body(Body::empty())
            .expect("request");
        app.clone().oneshot(req)
    };

    let page = get("pr-7.localhost:4424", "/about/")
        .await
        .expect("infallible");
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(header(&page, "x-robots-tag"), Some("noindex"));
    assert_eq!(body(page).await, b"the preview's about page");
    let missing = get("pr-7.localhost", "/nowhere").await.expect("infallible");
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&missing, "x-robots-tag"), Some("noindex"));
    assert_eq!(body(missing).await, b"the preview's not-found page");
    let moved = get("pr-7.localhost", "/old-pricing")
        .await
        .expect("infallible");
    assert_eq!(moved.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(header(&moved, "location"), Some("/about/"));
    assert_eq!(header(&moved, "x-robots-tag"), Some("noindex"));
    let gone = get("pr-7.localhost", "/offers/2023")
        .await
        .expect("infallible");
    assert_eq!(gone.status(), StatusCode::GONE);
    assert_eq!(header(&gone, "x-robots-tag"), Some("noindex"));
    let unknown = get("pr-8.localhost", "/").await.expect("infallible");
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&unknown, "x-robots-tag"), Some("noindex"));
    assert_eq!(
        body(unknown).await,
        fixture("404.html"),
        "the site's not-found page"
    );
    let not_the_site_s = get("127.0.0.1:4424", "/old-pricing")
        .await
        .expect("infallible");
    assert_eq!(not_the_site_s.status(), StatusCode::NOT_FOUND);

    let site = get("127.0.0.1:4424", "/about/").await.expect("infallible");
    assert_eq!(site.status(), StatusCode::OK);
    assert_eq!(header(&site, "x-robots-tag"), None);
    assert_eq!(body(site).await, fixture("about/index.html"));
    let leak = get("127.0.0.1:4424", "/previews/pr-7/about/")
        .await
        .expect("infallible");
    assert_eq!(leak.status(), StatusCode::NOT_FOUND);
}
