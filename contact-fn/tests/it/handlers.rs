//! The HTTP interface, driven with `oneshot` (no socket, no delivery worker): answers,
//! redirects, CORS, limits, idempotency and hostile input.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::net::SocketAddr;
use std::path::Path;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use contact_fn::contract::FormKind;
use contact_fn::{AppState, Config, Record, app};
use serde_json::{Value, json};
use tempfile::TempDir;
use tower::ServiceExt as _;

struct Harness {
    dir: TempDir,
    state: AppState,
    router: Router,
}

impl Harness {
    fn new(extra: &[&str]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut args = support::test_args(dir.path());
        args.extend(extra.iter().map(|s| s.to_string()));
        let (state, _worker) = AppState::open(Config::from_args(args).unwrap()).unwrap();
        let router = app(state.clone());
        Self { dir, state, router }
    }

    /// The messages for the company inbox waiting in the outbox.
    fn outbox(&self) -> Vec<std::path::PathBuf> {
        self.outbox_of(false)
    }

    /// The newsletter confirmations waiting in the outbox (a ticked newsletter box adds one).
    fn confirmations(&self) -> Vec<std::path::PathBuf> {
        self.outbox_of(true)
    }

    fn outbox_of(&self, confirmations: bool) -> Vec<std::path::PathBuf> {
        let mut files = support::files(&self.dir.path().join("outbox"), "json");
        files.retain(|path| (read_record(path).kind == FormKind::Newsletter) == confirmations);
        files
    }

    async fn send(&self, request: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, headers, body.to_vec())
    }

    /// Sends `body` as JSON to `path`, asserts it was stored and returns the stored email.
    async fn stored_email(&self, path: &str, body: &Value) -> String {
        let (status, answer) = self.json(path, body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let outbox = self.outbox();
        assert_eq!(outbox.len(), 1);
        read_record(&outbox[0]).message
    }

    /// Sends a plain HTML form post; returns the status and where it redirects to.
    async fn form(&self, path: &str, body: &'static str) -> (StatusCode, String) {
        let request = post(path, "application/x-www-form-urlencoded", body);
        let (status, headers, _) = self.send(request).await;
        let location = headers
            .get(header::LOCATION)
            .map(|l| l.to_str().unwrap().to_owned());
        (status, location.unwrap_or_default())
    }

    async fn json(&self, path: &str, body: impl Into<Body>) -> (StatusCode, Value) {
        let (status, _, body) = self.send(post(path, "application/json", body)).await;
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }
}

fn post(path: &str, content_type: &str, body: impl Into<Body>) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, content_type)
        .body(body.into())
        .unwrap()
}

fn from_peer(mut request: Request<Body>, peer: &str) -> Request<Body> {
    let addr: SocketAddr = format!("{peer}:40000").parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    request
}

fn read_record(path: &Path) -> Record {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[tokio::test]
async fn a_valid_message_is_stored_before_the_answer_on_every_path() {
    let h = Harness::new(&[]);
    for (n, path) in ["/send-contact-email", "/functions/v1/send-contact-email"]
        .iter()
        .enumerate()
    {
        let (status, answer) = h.json(path, support::contact_body().to_string()).await;
        assert_eq!(status, StatusCode::OK, "{path}: {answer}");
        assert_eq!(answer["ok"], json!(true));
        let id = answer["id"].as_str().unwrap();
        let stored = h.dir.path().join("outbox").join(format!("{id}.json"));
        let record = read_record(&stored);
        assert_eq!(record.id, id);
        assert_eq!(record.attempts, 0);
        assert_eq!(record.envelope_to, ["contact@example.com"]);
        assert_eq!(h.outbox().len(), n + 1);
    }
    for path in ["/send-enquiry", "/functions/v1/send-enquiry"] {
        let (status, answer) = h.json(path, support::enquiry_body().to_string()).await;
        assert_eq!(status, StatusCode::OK, "{path}: {answer}");
    }
    assert_eq!(h.outbox().len(), 4);
    // Both enquiries tick the newsletter box for one address: one confirmation an hour.
    assert_eq!(h.confirmations().len(), 1);
    assert_eq!(h.state.outbox().len().await.unwrap(), 4 + 1);
}

#[tokio::test]
async fn field_errors_come_back_keyed_by_the_request_field_names_with_a_code() {
    let h = Harness::new(&[]);
    let mut body = support::contact_body();
    body["countryCode"] = json!("49");
    body["email"] = json!("nope");
    let (status, answer) = h.json("/send-contact-email", body.to_string()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer,
        json!({
            "error": "Some fields need attention.",
            "fields": {
                "countryCode": {
                    "code": "invalid_country_code",
                    "message": "Country code must be a dialling code like +49."
                },
                "email": {
                    "code": "invalid_email",
                    "message": "Please enter a valid email address, like name@example.com."
                }
            }
        })
    );
    assert!(h.outbox().is_empty());
}

#[tokio::test]
async fn only_json_form_and_multipart_posts_are_read() {
    let h = Harness::new(&[]);
    for content_type in [
        "text/plain",
        "multipart/mixed; boundary=x",
        "application/xml",
    ] {
        let (status, _, body) = h
            .send(post(
                "/send-contact-email",
                content_type,
                support::contact_body().to_string(),
            ))
            .await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type}");
        let answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            answer["error"],
            "Send the form as application/json, application/x-www-form-urlencoded or multipart/form-data."
        );
    }
    let request = Request::post("/send-contact-email")
        .body(Body::from(support::contact_body().to_string()))
        .unwrap();
    assert_eq!(h.send(request).await.0, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Parameters and case of the media type do not matter.
    let (status, _, _) = h
        .send(post(
            "/send-contact-email",
            "Application/JSON; charset=utf-8",
            support::contact_body().to_string(),
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_megabyte_body_is_refused_whether_announced_or_not() {
    let h = Harness::new(&[]);
    let huge = format!(r#"{{"name":"{}"}}"#, "x".repeat(1024 * 1024));
    let announced = Request::post("/send-contact-email")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, huge.len())
        .body(Body::from(huge.clone()))
        .unwrap();
    let (status, _, body) = h.send(announced).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let answer: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        answer["error"],
        "The request body is larger than 65536 bytes."
    );

    let unannounced = post("/send-contact-email", "application/json", huge);
    assert_eq!(h.send(unannounced).await.0, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(h.outbox().is_empty());
}

#[tokio::test]
async fn clients_are_rate_limited_with_a_retry_after() {
    let h = Harness::new(&["--rate-burst", "2", "--rate-refill", "1h"]);
    let body = support::contact_body().to_string();
    for _ in 0..2 {
        let request = from_peer(
            post("/send-contact-email", "application/json", body.clone()),
            "192.0.2.7",
        );
        assert_eq!(h.send(request).await.0, StatusCode::OK);
    }
    let request = from_peer(
        post("/send-contact-email", "application/json", body.clone()),
        "192.0.2.7",
    );
    let (status, headers, answer) = h.send(request).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=3600).contains(&retry_after), "{retry_after}");
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("Too many submissions"),
        "{answer}"
    );

    // Invalid submissions count too, so a flood of garbage is limited as well.
    let request = from_peer(
        post("/send-contact-email", "application/json", "{}"),
        "192.0.2.7",
    );
    assert_eq!(h.send(request).await.0, StatusCode::TOO_MANY_REQUESTS);

    // A forged X-Forwarded-For from an untrusted peer changes nothing.
    let mut request = from_peer(
        post("/send-contact-email", "application/json", body.clone()),
        "192.0.2.7",
    );
    request
        .headers_mut()
        .insert("x-forwarded-for", "198.51.100.1".parse().unwrap());
    assert_eq!(h.send(request).await.0, StatusCode::TOO_MANY_REQUESTS);

    // Another client has its own allowance.
    let request = from_peer(
        post("/send-contact-email", "application/json", body),
        "192.0.2.8",
    );
    assert_eq!(h.send(request).await.0, StatusCode::OK);
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_client_is_limited() {
    let h = Harness::new(&[
        "--rate-burst",
        "1",
        "--rate-refill",
        "1h",
        "--trusted-proxies",
        "10.0.0.0/8",
    ]);
    let body = support::contact_body().to_string();
    let via_proxy = |client: &str| {
        let mut request = from_peer(
            post("/send-contact-email", "application/json", body.clone()),
            "10.0.0.1",
        );
        request
            .headers_mut()
            .insert("x-forwarded-for", client.parse().unwrap());
        request
    };
    assert_eq!(h.send(via_proxy("198.51.100.1")).await.0, StatusCode::OK);
    assert_eq!(
        h.send(via_proxy("198.51.100.1")).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(h.send(via_proxy("198.51.100.2")).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_full_outbox_answers_503_and_stores_nothing_more() {
    let h = Harness::new(&["--outbox-max-messages", "1"]);
    let body = support::contact_body().to_string();
    assert_eq!(
        h.json("/send-contact-email", body.clone()).await.0,
        StatusCode::OK
    );
    let (status, answer) = h.json("/send-contact-email", body).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        answer,
        json!({ "error": "The message could not be stored right now; please try again later." })
    );
    assert_eq!(h.outbox().len(), 1);

    let h = Harness::new(&["--outbox-max-bytes", "2000"]);
    let (status, _) = h
        .json("/send-contact-email", support::contact_body().to_string())
        .await;
    assert_eq!(
        status,
        StatusCode::SERVICE_UNAVAILABLE,
        "a message is larger than 2000 bytes"
    );
}

#[tokio::test]
async fn an_unwritable_outbox_answers_503_and_is_not_ready() {
    let h = Harness::new(&[]);
    std::fs::remove_dir_all(h.dir.path().join("outbox")).unwrap();
    let (status, answer) = h
        .json("/send-contact-email", support::contact_body().to_string())
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    let (status, _, body) = h
        .send(Request::get("/readyz").body(Body::empty()).unwrap())
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let answer: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(answer["outbox"], "not writable");
}

#[tokio::test]
async fn health_and_readiness() {
    let h = Harness::new(&[]);
    let (status, _, body) = h
        .send(Request::get("/healthz").body(Body::empty()).unwrap())
        .await;
    assert_eq!(
        (status, serde_json::from_slice::<Value>(&body).unwrap()),
        (StatusCode::OK, json!({"ok": true}))
    );
    let (status, _, body) = h
        .send(Request::get("/readyz").body(Body::empty()).unwrap())
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap(),
        json!({
            "ready": true,
            "outbox": "writable",
            "database": "not configured",
            "smtp": "not configured",
            "queued": 0
        })
    );
}

#[tokio::test]
async fn readiness_fails_while_the_configured_smtp_server_is_down() {
    let down = support::free_port();
    let h = Harness::new(&["--smtp-url", &format!("smtp://{down}")]);
    let (status, _, body) = h
        .send(Request::get("/readyz").body(Body::empty()).unwrap())
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap()["smtp"],
        "unreachable"
    );

    let smtp = support::SmtpServer::start(support::Mode::Accept);
    let h = Harness::new(&["--smtp-url", &smtp.url()]);
    let (status, _, body) = h
        .send(Request::get("/readyz").body(Body::empty()).unwrap())
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap()["smtp"],
        "reachable"
    );
}

#[tokio::test]
async fn a_filled_honeypot_is_answered_ok_and_dropped() {
    let h = Harness::new(&[]);
    let mut body = support::contact_body();
    body["_gotcha"] = json!("https://spam.example");
    let (status, answer) = h.json("/send-contact-email", body.to_string()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["ok"], json!(true));
    assert!(answer["id"].is_string());
    assert!(h.outbox().is_empty());
}

#[tokio::test]
async fn plain_form_posts_are_redirected_to_the_configured_pages() {
    let h = Harness::new(&[]);
    let form = "name=Ada+Lovelace&email=ada%40example.org&company=&countryCode=%2B44\
        &phone=20+7946+0958&subject=Hi&message=Hello%0D%0Athere&_gotcha=";
    let (status, location) = h.form("/send-contact-email", form).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location, "http://127.0.0.1:8080/contact/sent/");
    assert_eq!(h.outbox().len(), 1);

    let (status, location) = h.form("/send-contact-email", "name=Ada").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location, "http://127.0.0.1:8080/contact/error/");

    let enquiry = "firstName=Grace&lastName=Hopper&email=grace%40example.org&company=Navy&topic=Hi&newsletter=on";
    let (status, location) = h.form("/send-enquiry", enquiry).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location, "http://127.0.0.1:8080/contact/sent/");
    assert_eq!(h.outbox().len(), 2);

    let h = Harness::new(&[
        "--success-url",
        "https://www.example.com/thanks/",
        "--failure-url",
        "https://www.example.com/sorry/",
        "--outbox-max-messages",
        "0",
    ]);
    let (status, location) = h.form("/send-contact-email", form).await;
    assert_eq!(
        status,
        StatusCode::SEE_OTHER,
        "a storage failure is a failure page too"
    );
    assert_eq!(location, "https://www.example.com/sorry/");

    let h = Harness::new(&["--site-url", "https://www.example.com"]);
    let (status, location) = h.form("/send-enquiry", enquiry).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location, "https://www.example.com/contact/sent/");
    let (status, location) = h.form("/send-contact-email", "name=Ada").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location, "https://www.example.com/contact/error/");
}

#[tokio::test]
async fn cors_preflight_allows_exactly_the_client_headers_for_site_origins_only() {
    let h = Harness::new(&[]);
    let preflight = |origin: &str| {
        Request::options("/functions/v1/send-contact-email")
            .header(header::ORIGIN, origin)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(
                header::ACCESS_CONTROL_REQUEST_HEADERS,
                "authorization, apikey, x-client-info, content-type, idempotency-key",
            )
            .body(Body::empty())
            .unwrap()
    };
    for origin in ["http://127.0.0.1:8080", "http://localhost:8080"] {
        let (status, headers, _) = h.send(preflight(origin)).await;
        assert!(status.is_success(), "{status}");
        assert_eq!(headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], origin);
        let mut allowed: Vec<String> = headers[header::ACCESS_CONTROL_ALLOW_HEADERS]
            .to_str()
            .unwrap()
            .split(',')
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        allowed.sort();
        assert_eq!(
            allowed,
            [
                "apikey",
                "authorization",
                "content-type",
                "idempotency-key",
                "x-client-info"
            ]
        );
        assert_eq!(headers[header::ACCESS_CONTROL_ALLOW_METHODS], "POST");
    }
    let (_, headers, _) = h.send(preflight("https://evil.example")).await;
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));

    // The answer to the POST itself names the origin, so the browser lets the page read it.
    let mut request = post(
        "/send-contact-email",
        "application/json",
        support::contact_body().to_string(),
    );
    request
        .headers_mut()
        .insert(header::ORIGIN, "http://localhost:8080".parse().unwrap());
    let (status, headers, _) = h.send(request).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "http://localhost:8080"
    );
}

#[tokio::test]
async fn supabase_js_style_requests_work_unchanged() {
    let h = Harness::new(&[]);
    let request = Request::post("/functions/v1/send-contact-email")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, "Bearer public-anon-key")
        .header("apikey", "public-anon-key")
        .header("x-client-info", "supabase-js/2.0.0")
        .body(Body::from(support::contact_body().to_string()))
        .unwrap();
    assert_eq!(h.send(request).await.0, StatusCode::OK);
}

fn keyed(path: &str, key: &str, body: &Value) -> Request<Body> {
    let mut request = post(path, "application/json", body.to_string());
    request
        .headers_mut()
        .insert("idempotency-key", key.parse().unwrap());
    request
}

#[tokio::test]
async fn the_same_idempotency_key_gives_the_same_answer_and_one_message() {
    let h = Harness::new(&[]);
    let body = support::contact_body();
    let (status, _, first) = h.send(keyed("/send-contact-email", "key-1", &body)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, second) = h.send(keyed("/send-contact-email", "key-1", &body)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(first, second);
    assert_eq!(h.outbox().len(), 1);

    // Sent at the same moment, still one message.
    let (a, b) = tokio::join!(
        h.send(keyed("/send-contact-email", "key-2", &body)),
        h.send(keyed("/send-contact-email", "key-2", &body)),
    );
    assert_eq!((a.0, b.0), (StatusCode::OK, StatusCode::OK));
    assert_eq!(a.2, b.2);
    assert_eq!(h.outbox().len(), 2);

    // The same key with another message is a client error, not a silent success.
    let mut other = body.clone();
    other["message"] = json!("something else");
    let (status, _, answer) = h.send(keyed("/send-contact-email", "key-1", &other)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(
        answer["error"],
        "This Idempotency-Key was already used for a different submission."
    );
    assert_eq!(h.outbox().len(), 2);
}

#[tokio::test]
async fn idempotency_keys_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let args = support::test_args(dir.path());
    let body = support::contact_body();
    let mut answers = Vec::new();
    for _ in 0..2 {
        let (state, _worker) = AppState::open(Config::from_args(args.clone()).unwrap()).unwrap();
        let response = app(state)
            .oneshot(keyed("/send-contact-email", "restart-key", &body))
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        answers.push(
            axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap(),
        );
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(support::files(&dir.path().join("outbox"), "json").len(), 1);
}

#[tokio::test]
async fn malformed_idempotency_keys_are_refused() {
    let h = Harness::new(&[]);
    let long = "k".repeat(256);
    for key in [long.as_str(), "two words", ""] {
        let (status, _, body) = h
            .send(keyed("/send-contact-email", key, &support::contact_body()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{key:?}");
        let answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            answer["error"],
            "Idempotency-Key must be one value of 1 to 255 visible ASCII characters."
        );
    }
    assert!(h.outbox().is_empty());
}

#[tokio::test]
async fn other_methods_and_paths_are_refused() {
    let h = Harness::new(&[]);
    let (status, _, _) = h
        .send(
            Request::get("/send-contact-email")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let (status, _, _) = h.send(Request::get("/").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn hostile_bodies_get_a_clear_client_error() {
    let h = Harness::new(&[]);
    let deep = format!("{{\"name\":{}{}}}", "[".repeat(20_000), "]".repeat(20_000));
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        (
            "invalid UTF-8",
            b"{\"name\":\"\xff\xfe\"}".to_vec(),
            StatusCode::BAD_REQUEST,
            "The body is not valid JSON",
        ),
        (
            "deep nesting",
            deep.into_bytes(),
            StatusCode::BAD_REQUEST,
            "recursion limit exceeded",
        ),
        (
            "not JSON",
            b"name=Ada".to_vec(),
            StatusCode::BAD_REQUEST,
            "The body is not valid JSON",
        ),
        (
            "a list",
            b"[]".to_vec(),
            StatusCode::BAD_REQUEST,
            "the body must be a JSON object",
        ),
        (
            "empty",
            Vec::new(),
            StatusCode::BAD_REQUEST,
            "EOF while parsing",
        ),
        (
            "wrong types",
            br#"{"name":1,"email":[],"phone":{},"subject":true,"message":null}"#.to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Some fields need attention.",
        ),
        (
            "missing fields",
            b"{}".to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Some fields need attention.",
        ),
    ];
    for (case, body, expected, message) in cases {
        let (status, answer) = h.json("/send-contact-email", body).await;
        assert_eq!(status, expected, "{case}: {answer}");
        let error = answer["error"].as_str().unwrap().to_lowercase();
        assert!(error.contains(&message.to_lowercase()), "{case}: {error}");
    }
    assert!(h.outbox().is_empty());
}

#[tokio::test]
async fn control_characters_in_every_field_cannot_inject_headers() {
    let h = Harness::new(&[]);
    let body = json!({
        "name": "Eve\r\nBcc: victim@example.com\r\n\u{0}",
        "email": "eve@example.org\r\nCc: victim@example.com",
        "company": "\u{0}Evil\r\nX-Injected: company",
        "countryCode": "+1\r\n",
        "phone": "555\u{0}0100\r\n",
        "subject": "Hello\r\nBcc: victim@example.com\r\nX-Injected: subject",
        "message": "Body\r\n.\r\nMAIL FROM:<x@example.com>\u{0}"
    });
    let (status, answer) = h.json("/send-contact-email", body.to_string()).await;
    // The email field's line break leaves "eve@example.org  Cc: ..." which is no address.
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(
        answer["fields"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["email"]
    );

    let mut body = body;
    body["email"] = json!("eve@example.org\u{0}");
    let email = h.stored_email("/send-contact-email", &body).await;
    let message = mail_parser::MessageParser::default()
        .parse(email.as_bytes())
        .unwrap();
    assert!(message.bcc().is_none() && message.cc().is_none());
    assert!(message.header_raw("X-Injected").is_none());
    let to: Vec<_> = message
        .to()
        .unwrap()
        .iter()
        .map(|a| a.address().unwrap())
        .collect();
    assert_eq!(to, ["contact@example.com"]);
    assert_eq!(
        message.reply_to().unwrap().first().unwrap().address(),
        Some("eve@example.org")
    );
    assert_eq!(
        message.subject(),
        Some("[Website contact] Hello Bcc: victim@example.com X-Injected: subject")
    );
    let text = message.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(
        text.contains("Body\n.\nMAIL FROM:<x@example.com>"),
        "{text}"
    );
    assert!(!text.contains('\u{0}'));
}

#[tokio::test]
async fn emoji_and_right_to_left_text_arrive_intact() {
    let h = Harness::new(&[]);
    let mut body = support::contact_body();
    body["name"] = json!("נועה כהן 🌟");
    body["message"] = json!("مرحبا بكم\n👩🏽‍🚀 launch");
    let email = h.stored_email("/send-contact-email", &body).await;
    let message = mail_parser::MessageParser::default()
        .parse(email.as_bytes())
        .unwrap();
    assert_eq!(
        message.reply_to().unwrap().first().unwrap().name(),
        Some("נועה כהן 🌟")
    );
    let text = message.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(text.contains("مرحبا بكم\n👩🏽‍🚀 launch"), "{text}");
    let html = message.body_html(0).unwrap();
    assert!(html.contains("נועה כהן 🌟"), "{html}");
}

#[tokio::test]
async fn html_in_a_field_is_escaped_in_the_html_body_and_verbatim_in_the_text() {
    let h = Harness::new(&[]);
    let mut body = support::contact_body();
    body["subject"] = json!("<script>alert('x')</script>");
    body["message"] = json!("<b>bold</b> & \"quoted\"");
    let email = h.stored_email("/send-contact-email", &body).await;
    let message = mail_parser::MessageParser::default()
        .parse(email.as_bytes())
        .unwrap();
    let html = message.body_html(0).unwrap();
    assert!(
        !html.contains("<script>") && !html.contains("<b>bold"),
        "{html}"
    );
    assert!(
        html.contains("&lt;b&gt;bold&lt;&#x2f;b&gt; &amp; &quot;quoted&quot;"),
        "{html}"
    );
    let text = message.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(text.contains("<b>bold</b> & \"quoted\""), "{text}");
}

#[tokio::test]
async fn control_characters_in_every_enquiry_field_cannot_inject_headers() {
    let h = Harness::new(&[]);
    let dirty = |text: &str| json!(format!("{text}\r\nBcc: victim@example.com\u{0}"));
    let body = json!({
        "firstName": dirty("Eve"),
        "lastName": dirty("Mallory"),
        "email": "eve@example.org\u{0}",
        "jobTitle": dirty("Boss"),
        "company": dirty("Evil Corp"),
        "phone": "555\u{0}0100\r\n",
        "topic": dirty("Talk"),
        "source": "event\r\n",
        "role": "\u{0}cto",
        "newsletter": "on",
        "privacy": true
    });
    let email = h.stored_email("/send-enquiry", &body).await;
    let message = mail_parser::MessageParser::default()
        .parse(email.as_bytes())
        .unwrap();
    assert!(message.bcc().is_none() && message.cc().is_none());
    let to: Vec<_> = message
        .to()
        .unwrap()
        .iter()
        .map(|a| a.address().unwrap())
        .collect();
    assert_eq!(to, ["contact@example.com"]);
    assert_eq!(
        message.subject(),
        Some(
            "[Website enquiry] Eve Bcc: victim@example.com Mallory Bcc: victim@example.com \
             (Evil Corp Bcc: victim@example.com)"
        )
    );
}
