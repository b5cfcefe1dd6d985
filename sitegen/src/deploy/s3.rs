//! The S3 API as a deploy uses it: list a prefix (ETags included, 1,000 keys a request),
//! put an object with its metadata, delete keys 1,000 a request. rusty-s3 builds each
//! request's URL and body and parses the XML answers, [`sigv4`] signs it, ureq sends it.
//! Throttling (429, 503 SlowDown), server errors and dropped connections are retried with
//! exponential backoff.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rusty_s3::actions::{ListObjectsV2, ObjectIdentifier};
use rusty_s3::{Bucket, S3Action, UrlStyle};
use url::Url;

use super::credentials::Credentials;
use super::sigv4::{self, Service};

/// rusty-s3 asks how long a presigned URL lasts; unsigned ones (signed here in the header)
/// ignore it.
const UNSIGNED: Duration = Duration::from_secs(0);

/// The keys one DeleteObjects request may name.
const DELETE_BATCH: usize = 1000;

/// A failed request, named the way the store named it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store answered with an error status.
    #[error("the store answered {status}{}: {message}", code.as_deref().map(|c| format!(" {c}")).unwrap_or_default())]
    Status {
        /// HTTP status.
        status: u16,
        /// The S3 error code (`NoSuchBucket`, `InvalidAccessKeyId`, `SignatureDoesNotMatch`).
        code: Option<String>,
        /// The store's message, or the start of its body.
        message: String,
    },
    /// The request did not get an answer.
    #[error("no answer from the store at {endpoint}: {reason}")]
    Transport {
        /// The store's address.
        endpoint: String,
        /// Why, as the HTTP client says it.
        reason: String,
    },
    /// The answer was not what the S3 API sends.
    #[error("the store's answer could not be read: {0}")]
    Malformed(String),
}

impl StoreError {
    fn is_retryable(&self) -> bool {
        match self {
            StoreError::Status { status, code, .. } => {
                matches!(status, 429 | 500 | 502 | 503 | 504)
                    || matches!(code.as_deref(), Some("SlowDown" | "RequestTimeout"))
            }
            StoreError::Transport { .. } => true,
            StoreError::Malformed(_) => false,
        }
    }
}

/// An object in the bucket as a listing shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteObject {
    /// The ETag without quotes: the hex MD5 of the bytes for a single-part upload.
    pub etag: Option<String>,
    /// Length in bytes.
    pub size: u64,
    /// When it was last written, as the listing says (ISO 8601, `2026-12-07T04:00:00.000Z`).
    pub last_modified: Option<String>,
}

/// Counts of what was sent, for the summary and the benchmark.
#[derive(Debug, Default)]
pub struct Counters {
    /// HTTP requests sent, retries included.
    pub requests: AtomicU64,
    /// Body bytes uploaded.
    pub bytes_up: AtomicU64,
}

/// A bucket of an S3-compatible store.
#[derive(Debug)]
pub struct S3Store {
    agent: ureq::Agent,
    bucket: Bucket,
    credentials: Credentials,
    region: String,
    endpoint: String,
    retry: Retry,
    /// What was sent so far.
    pub counters: Counters,
}

/// How often and how patiently failed requests are retried.
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    /// Tries per request, the first included.
    pub attempts: u32,
    /// The wait before the second try; doubled before each further one.
    pub first_wait: Duration,
}

impl Default for Retry {
    fn default() -> Self {
        Self {
            attempts: 5,
            first_wait: Duration::from_millis(200),
        }
    }
}

impl S3Store {
    /// The bucket `name` at `endpoint` (path-style addressing), or on AWS in `region`
    /// (virtual-host style) when `endpoint` is `None`.
    pub fn new(
        endpoint: Option<&str>,
        region: &str,
        name: &str,
        credentials: &Credentials,
        retry: Retry,
    ) -> anyhow::Result<Self> {
        let (url, style) = match endpoint {
            Some(e) => (e.to_owned(), UrlStyle::Path),
            None if name.contains('.') => {
                (format!("https://s3.{region}.amazonaws.com"), UrlStyle::Path)
            }
            None => (
                format!("https://s3.{region}.amazonaws.com"),
                UrlStyle::VirtualHost,
            ),
        };
        let parsed = Url::parse(&url)
            .map_err(|e| anyhow::anyhow!("endpoint {url:?} is not a URL ({e}); write e.g. https://ACCOUNT.r2.cloudflarestorage.com"))?;
        let bucket = Bucket::new(parsed, style, name.to_owned(), region.to_owned())
            .map_err(|e| anyhow::anyhow!("endpoint {url:?}: {e}; write an http(s):// URL"))?;
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(10)))
            .timeout_global(Some(Duration::from_secs(300)))
            .max_idle_connections_per_host(64)
            .build()
            .into();
        Ok(Self {
            agent,
            bucket,
            credentials: credentials.clone(),
            region: region.to_owned(),
            endpoint: url,
            retry,
            counters: Counters::default(),
        })
    }

    /// Every object under `prefix`, by key.
    pub fn list(&self, prefix: &str) -> Result<BTreeMap<String, RemoteObject>, StoreError> {
        let mut objects = BTreeMap::new();
        let mut token: Option<String> = None;
        loop {
            let mut action = ListObjectsV2::new(&self.bucket, None);
            if !prefix.is_empty() {
                action.with_prefix(prefix);
            }
            if let Some(token) = &token {
                action.with_continuation_token(token.as_str());
            }
            let url = action.sign(UNSIGNED);
            let body = self.send("GET", &url, &[], b"")?;
            let page = ListObjectsV2::parse_response(&body)
                .map_err(|e| StoreError::Malformed(format!("listing: {e}")))?;
            for item in page.contents {
                let etag = item.etag.map(|e| e.trim_matches('"').to_ascii_lowercase());
                objects.insert(
                    item.key,
                    RemoteObject {
                        etag,
                        size: item.size.unwrap_or(0),
                        last_modified: item.last_modified,
                    },
                );
            }
            match page.next_continuation_token {
                Some(next) if !next.is_empty() => token = Some(next),
                _ => return Ok(objects),
            }
        }
    }

    /// Writes `bytes` under `key` with `headers` (`content-type`, `cache-control`, ...).
    pub fn put(&self, key: &str, bytes: &[u8], headers: &[(&str, &str)]) -> Result<(), StoreError> {
        let url = self.bucket.object_url(key);
        self.send("PUT", &url, headers, bytes)?;
        self.counters
            .bytes_up
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    /// Deletes `keys`, 1,000 a request. A key the store refuses to delete is an error.
    pub fn delete(&self, keys: &[String]) -> Result<(), StoreError> {
        for batch in keys.chunks(DELETE_BATCH) {
            let ids: Vec<ObjectIdentifier> = batch
                .iter()
                .map(|k| ObjectIdentifier::new(k.clone()))
                .collect();
            let mut action = self.bucket.delete_objects(None, ids.iter());
            action.set_quiet(true);
            let url = action.sign(UNSIGNED);
            let (body, md5) = action.body_with_md5();
            let headers = [
                ("content-md5", md5.as_str()),
                ("content-type", "application/xml"),
            ];
            let body = self.send("POST", &url, &headers, body.as_bytes())?;
            if let Some(error) = body.split("<Error>").nth(1) {
                let key = tag(error, "Key").unwrap_or_default();
                return Err(StoreError::Status {
                    status: 200,
                    code: tag(error, "Code"),
                    message: format!(
                        "deleting {key}: {}",
                        tag(error, "Message").unwrap_or_default()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Sends a request, signed afresh for each try, retrying what may pass on a second
    /// try; the body of a successful answer.
    fn send(
        &self,
        method: &str,
        url: &Url,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<String, StoreError> {
        let mut wait = self.retry.first_wait;
        let mut attempt = 1;
        loop {
            self.counters.requests.fetch_add(1, Ordering::Relaxed);
            let result = match self.send_once(method, url, headers, body) {
                Ok(response) => self.answer(response),
                Err(err) => Err(StoreError::Transport {
                    endpoint: self.endpoint.clone(),
                    reason: err.to_string(),
                }),
            };
            match result {
                Err(err) if err.is_retryable() && attempt < self.retry.attempts => {
                    std::thread::sleep(jitter(wait));
                    wait *= 2;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    fn send_once(
        &self,
        method: &str,
        url: &Url,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        let request = sigv4::Request {
            method,
            url: url.as_str(),
            headers,
            body,
        };
        let signature = sigv4::headers(
            Service::S3,
            &self.region,
            &self.credentials,
            request,
            std::time::SystemTime::now(),
        )
        .map_err(ureq::Error::BadUri)?;
        let mut builder = ureq::http::Request::builder()
            .method(method)
            .uri(url.as_str());
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        for (name, value) in &signature {
            builder = builder.header(name, value);
        }
        let request = builder
            .body(body.to_vec())
            .map_err(|e| ureq::Error::BadUri(e.to_string()))?;
        self.agent.run(request)
    }

    fn answer(&self, response: ureq::http::Response<ureq::Body>) -> Result<String, StoreError> {
        let status = response.status().as_u16();
        let body = response
            .into_body()
            .with_config()
            .limit(64 * 1024 * 1024)
            .read_to_string()
            .map_err(|e| StoreError::Transport {
                endpoint: self.endpoint.clone(),
                reason: format!("reading the answer: {e}"),
            })?;
        if (200..300).contains(&status) {
            return Ok(body);
        }
        let message = tag(&body, "Message").unwrap_or_else(|| {
            let start: String = body.chars().take(200).collect();
            if start.trim().is_empty() {
                "(no message)".to_owned()
            } else {
                start.split_whitespace().collect::<Vec<_>>().join(" ")
            }
        });
        Err(StoreError::Status {
            status,
            code: tag(&body, "Code"),
            message,
        })
    }
}

/// The text of the first `<name>...</name>` in `xml`, entities decoded.
fn tag(xml: &str, name: &str) -> Option<String> {
    let start = xml.find(&format!("<{name}>"))? + name.len() + 2;
    let end = start + xml[start..].find(&format!("</{name}>"))?;
    Some(
        xml[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&"),
    )
}

/// `wait` plus up to half of it again, so that retrying clients spread out.
fn jitter(wait: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    wait + wait.mul_f64(f64::from(nanos % 500) / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_give_code_and_message() {
        let body = "<?xml version=\"1.0\"?><Error><Code>NoSuchBucket</Code>\
                    <Message>The specified bucket does not exist</Message></Error>";
        assert_eq!(tag(body, "Code").as_deref(), Some("NoSuchBucket"));
        assert_eq!(
            tag(body, "Message").as_deref(),
            Some("The specified bucket does not exist")
        );
        assert_eq!(tag(body, "Key"), None);
        let err = StoreError::Status {
            status: 404,
            code: tag(body, "Code"),
            message: "The specified bucket does not exist".into(),
        };
        assert_eq!(
            err.to_string(),
            "the store answered 404 NoSuchBucket: The specified bucket does not exist"
        );
        assert!(!err.is_retryable());
    }

    #[test]
    fn throttling_and_server_errors_are_retried() {
        let status = |status, code: Option<&str>| StoreError::Status {
            status,
            code: code.map(str::to_owned),
            message: String::new(),
        };
        assert!(status(503, Some("SlowDown")).is_retryable());
        assert!(status(500, None).is_retryable());
        assert!(status(429, None).is_retryable());
        assert!(status(400, Some("RequestTimeout")).is_retryable());
        assert!(!status(403, Some("SignatureDoesNotMatch")).is_retryable());
        let wait = Duration::from_millis(100);
        assert!((wait..=wait * 3 / 2).contains(&jitter(wait)));
    }
}
