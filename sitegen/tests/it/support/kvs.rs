//! A CloudFront KeyValueStore's data plane, just the part `sitegen deploy` calls:
//! `DescribeKeyValueStore`, `ListKeys` (a page of [`PAGE`] at a time) and `UpdateKeys` with its
//! ETag check, for one store. moto mocks the CloudFront control plane (creating a store) but
//! not this data plane, and the real one is reachable only with an AWS account; so the tests
//! run against this server, which also refuses a request not signed with SigV4A.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};

/// The ARN of the store the server holds.
pub const ARN: &str =
    "arn:aws:cloudfront::123456789012:key-value-store/3a1f4b2c-0d9e-4f6a-8b7c-5e4d3c2b1a09";

/// Keys a `ListKeys` answer holds at most, so that a listing takes pages.
pub const PAGE: usize = 7;

/// What the server holds and saw.
#[derive(Debug, Default)]
pub struct Store {
    /// The keys and their values.
    pub keys: BTreeMap<String, String>,
    /// The version: the ETag is `E{version}`.
    pub version: u64,
    /// How many keys each accepted `UpdateKeys` changed.
    pub batches: Vec<usize>,
    /// How many `UpdateKeys` were refused for a stale ETag.
    pub conflicts: usize,
    /// Another writer changes the store just before the next `UpdateKeys` arrives.
    pub race_next_update: bool,
}

/// A running server; it stops with the test process.
pub struct FakeKvs {
    /// Its address: `http://127.0.0.1:PORT`.
    pub endpoint: String,
    store: Arc<Mutex<Store>>,
}

impl FakeKvs {
    /// Starts the server on a port of its own.
    pub fn start() -> Self {
        let store = Arc::new(Mutex::new(Store::default()));
        let app = Router::new().fallback(handle).with_state(store.clone());
        let listener =
            std::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).expect("a port");
        let addr = listener.local_addr().expect("an address");
        listener.set_nonblocking(true).expect("non-blocking");
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
                axum::serve(listener, app).await.expect("serving");
            });
        });
        Self {
            endpoint: format!("http://{addr}"),
            store,
        }
    }

    /// The store, to read or to set up.
    pub fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().expect("not poisoned")
    }
}

fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        axum::Json(serde_json::json!({ "Message": message })),
    )
        .into_response()
}

async fn handle(State(store): State<Arc<Mutex<Store>>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(body) = axum::body::to_bytes(body, 1 << 20).await else {
        return error(StatusCode::BAD_REQUEST, "unreadable body");
    };
    answer(&store, &parts.method, &parts.uri, &parts.headers, &body)
}

fn answer(
    store: &Mutex<Store>,
    method: &Method,
    uri: &axum::http::Uri,
    headers: &HeaderMap,
    body: &Bytes,
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let signed = header("authorization").is_some_and(|a| {
        a.starts_with("AWS4-ECDSA-P256-SHA256 Credential=")
            && a.contains("/cloudfront-keyvaluestore/aws4_request")
    }) && header("x-amz-region-set") == Some("*");
    if !signed {
        return error(
            StatusCode::FORBIDDEN,
            "not signed with SigV4A for cloudfront-keyvaluestore",
        );
    }
    let Some(rest) = uri.path().strip_prefix("/key-value-stores/") else {
        return error(StatusCode::NOT_FOUND, "no such operation");
    };
    let (arn, keys) = match rest.strip_suffix("/keys") {
        Some(arn) => (arn, true),
        None => (rest, false),
    };
    let arn: String = url::form_urlencoded::parse(format!("a={arn}").as_bytes())
        .map(|(_, v)| v.into_owned())
        .collect();
    if arn != ARN {
        return error(StatusCode::NOT_FOUND, &format!("no store {arn}"));
    }
    let mut store = store.lock().expect("not poisoned");
    let etag = |store: &Store| format!("E{}", store.version);
    match (method.as_str(), keys) {
        ("GET", false) => {
            let size: usize = store.keys.iter().map(|(k, v)| k.len() + v.len()).sum();
            let mut res = axum::Json(serde_json::json!({
                "KvsARN": ARN,
                "ItemCount": store.keys.len(),
                "TotalSizeInBytes": size,
            }))
            .into_response();
            res.headers_mut()
                .insert("etag", etag(&store).parse().expect("a header"));
            res
        }
        ("GET", true) => {
            let query: BTreeMap<String, String> =
                url::form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
                    .into_owned()
                    .collect();
            let max: usize = query
                .get("MaxResults")
                .and_then(|m| m.parse().ok())
                .unwrap_or(PAGE)
                .min(PAGE);
            let from: usize = query
                .get("NextToken")
                .and_then(|t| t.strip_prefix("after-"))
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            let items: Vec<serde_json::Value> = store
                .keys
                .iter()
                .skip(from)
                .take(max)
                .map(|(k, v)| serde_json::json!({ "Key": k, "Value": v }))
                .collect();
            let next = (from + items.len() < store.keys.len())
                .then(|| format!("after-{}", from + items.len()));
            axum::Json(serde_json::json!({ "Items": items, "NextToken": next })).into_response()
        }
        ("POST", true) => {
            if std::mem::take(&mut store.race_next_update) {
                store.version += 1;
            }
            if header("if-match") != Some(etag(&store).as_str()) {
                store.conflicts += 1;
                return error(
                    StatusCode::CONFLICT,
                    "the store changed since its ETag was read",
                );
            }
            let Ok(update) = serde_json::from_slice::<serde_json::Value>(body) else {
                return error(StatusCode::BAD_REQUEST, "not JSON");
            };
            let list = |name: &str| update[name].as_array().cloned().unwrap_or_default();
            let (puts, deletes) = (list("Puts"), list("Deletes"));
            // The service's limit, written as the service's and not as sitegen's `BATCH`, so
            // that a batch above it fails here.
            if puts.len() + deletes.len() > 50 {
                return error(StatusCode::BAD_REQUEST, "more than 50 keys in one request");
            }
            for put in &puts {
                let (Some(key), Some(value)) = (put["Key"].as_str(), put["Value"].as_str()) else {
                    return error(StatusCode::BAD_REQUEST, "a put without Key or Value");
                };
                store.keys.insert(key.to_owned(), value.to_owned());
            }
            for delete in &deletes {
                if let Some(key) = delete["Key"].as_str() {
                    store.keys.remove(key);
                }
            }
            store.version += 1;
            store.batches.push(puts.len() + deletes.len());
            let mut res = axum::Json(serde_json::json!({
                "ItemCount": store.keys.len(),
                "TotalSizeInBytes": 0,
            }))
            .into_response();
            res.headers_mut()
                .insert("etag", etag(&store).parse().expect("a header"));
            res
        }
        _ => error(StatusCode::METHOD_NOT_ALLOWED, "no such operation"),
    }
}
