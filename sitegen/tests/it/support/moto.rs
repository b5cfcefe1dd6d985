//! A real S3-compatible store for the deploy tests: moto's server (`make moto` installs it
//! into target/moto), started on a free loopback port, with IAM on so that a wrong key or
//! secret is refused as AWS refuses it. Killed when dropped.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use rusty_s3::{Bucket, S3Action, UrlStyle};
use sitegen::deploy::credentials::Credentials;
use sitegen::deploy::sigv4::{self, Service};

/// rusty-s3 builds the URLs; the requests are signed in the header, which moto checks.
const UNSIGNED: Duration = Duration::from_secs(0);

/// A running moto server and the credentials of a user allowed everything.
#[derive(Debug)]
pub struct Moto {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub endpoint: String,
    /// An access key moto's IAM knows.
    pub credentials: Credentials,
    agent: ureq::Agent,
}

/// An object as the store sends it back.
#[derive(Debug)]
pub struct Fetched {
    pub content_type: Option<String>,
    pub content_encoding: Option<String>,
    pub cache_control: Option<String>,
    /// Where an S3 website endpoint redirects the object's URL.
    pub website_redirect_location: Option<String>,
    pub body: Vec<u8>,
}

fn moto_server() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/moto/bin/moto_server");
    assert!(
        path.is_file(),
        "moto's S3 server is not installed at {}: run `make moto` (or `make test`)",
        path.display()
    );
    path
}

/// Where moto's log goes, under target/ for a failing test to be read.
fn log_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/moto-logs")
}

/// What moto prints once its socket listens, before the port it was given.
const LISTENING: &str = "Running on http://127.0.0.1:";

/// Copies moto's stderr into `target/moto-logs/moto-PID.log` and sends the port it printed.
///
/// moto is asked for port 0 and takes a free one itself: a port picked here and handed over
/// could be taken by another test's moto in between, and this test would then talk to a server
/// whose unsigned calls are used up (`403 InvalidClientTokenId` on the first call).
fn port_from(stderr: ChildStderr, pid: u32) -> mpsc::Receiver<u16> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = std::fs::create_dir_all(log_dir());
        let mut log = std::fs::File::create(log_dir().join(format!("moto-{pid}.log"))).ok();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Some(log) = log.as_mut() {
                let _ = writeln!(log, "{line}");
            }
            if let Some(port) = line
                .split_once(LISTENING)
                .and_then(|(_, rest)| rest.trim_end().parse().ok())
            {
                let _ = tx.send(port);
            }
        }
    });
    rx
}

impl Moto {
    /// Starts moto and creates a user with an access key; IAM checks every request after.
    pub fn start() -> Self {
        let mut child = Command::new(moto_server())
            .args(["-H", "127.0.0.1", "-p", "0"])
            // The three IAM calls below are let through unsigned; then IAM is enforced.
            .env("INITIAL_NO_AUTH_ACTION_COUNT", "3")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("moto_server starts");
        let stderr = child.stderr.take().expect("moto's stderr is piped");
        let port = match port_from(stderr, child.id()).recv_timeout(Duration::from_secs(30)) {
            Ok(port) => port,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "moto_server did not say where it listens within 30 s (log in {})",
                    log_dir().display()
                );
            }
        };
        let endpoint = format!("http://127.0.0.1:{port}");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut moto = Self {
            child,
            endpoint,
            credentials: Credentials {
                key: String::new(),
                secret: String::new(),
                token: None,
            },
            agent,
        };
        let policy = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#;
        moto.iam(&[("Action", "CreateUser"), ("UserName", "deploy")]);
        moto.iam(&[
            ("Action", "PutUserPolicy"),
            ("UserName", "deploy"),
            ("PolicyName", "all"),
            ("PolicyDocument", policy),
        ]);
        let key = moto.iam(&[("Action", "CreateAccessKey"), ("UserName", "deploy")]);
        moto.credentials = Credentials {
            key: between(&key, "AccessKeyId"),
            secret: between(&key, "SecretAccessKey"),
            token: None,
        };
        moto
    }

    fn iam(&self, params: &[(&str, &str)]) -> String {
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        form.extend_pairs(params)
            .append_pair("Version", "2010-05-08");
        let response = self
            .agent
            .post(&self.endpoint)
            .header(
                "authorization",
                "AWS4-HMAC-SHA256 Credential=setup/20250101/us-east-1/iam/aws4_request, \
                 SignedHeaders=host, Signature=0",
            )
            .header("content-type", "application/x-www-form-urlencoded")
            .send(form.finish().as_bytes())
            .expect("moto answers");
        let status = response.status();
        let body = response.into_body().read_to_string().expect("a body");
        assert!(status.is_success(), "IAM {params:?}: {status} {body}");
        body
    }

    fn bucket(&self, name: &str) -> Bucket {
        Bucket::new(
            self.endpoint.parse().expect("a URL"),
            UrlStyle::Path,
            name.to_owned(),
            "us-east-1",
        )
        .expect("a bucket")
    }

    /// Sends a request signed with the user's credentials.
    fn signed(&self, method: &str, url: &url::Url) -> ureq::http::Response<ureq::Body> {
        let request = sigv4::Request {
            method,
            url: url.as_str(),
            headers: &[],
            body: b"",
        };
        let signature = sigv4::headers(
            Service::S3,
            "us-east-1",
            &self.credentials,
            request,
            std::time::SystemTime::now(),
        )
        .expect("signed");
        let mut builder = ureq::http::Request::builder()
            .method(method)
            .uri(url.as_str());
        for (name, value) in &signature {
            builder = builder.header(name, value);
        }
        self.agent
            .run(builder.body(Vec::new()).expect("a request"))
            .expect("moto answers")
    }

    /// Sends a signed request to moto's CloudFront API (`/2020-05-31/...`); the answer's body.
    pub fn cloudfront(&self, method: &str, path: &str, body: &str) -> String {
        let url = format!("{}{path}", self.endpoint);
        let headers: &[(&str, &str)] = if body.is_empty() {
            &[]
        } else {
            &[("content-type", "application/xml")]
        };
        let request = sigv4::Request {
            method,
            url: &url,
            headers,
            body: body.as_bytes(),
        };
        let signature = sigv4::headers(
            Service::CloudFront,
            "us-east-1",
            &self.credentials,
            request,
            std::time::SystemTime::now(),
        )
        .expect("signed");
        let mut builder = ureq::http::Request::builder().method(method).uri(&url);
        for (name, value) in headers.iter().copied() {
            builder = builder.header(name, value);
        }
        for (name, value) in &signature {
            builder = builder.header(name, value);
        }
        let response = self
            .agent
            .run(builder.body(body.as_bytes().to_vec()).expect("a request"))
            .expect("moto answers");
        let status = response.status();
        let text = response.into_body().read_to_string().expect("a body");
        assert!(
            status.is_success(),
            "CloudFront {method} {path}: {status} {text}"
        );
        text
    }

    /// moto's whole state, as its own API dumps it.
    pub fn state(&self) -> serde_json::Value {
        let text = self
            .agent
            .get(&format!("{}/moto-api/data.json", self.endpoint))
            .call()
            .expect("moto answers")
            .into_body()
            .with_config()
            .limit(100 * 1024 * 1024)
            .read_to_string()
            .expect("a body");
        serde_json::from_str(&text).expect("JSON")
    }

    /// Creates the bucket `name`.
    pub fn create_bucket(&self, name: &str) {
        let mut url = self.bucket(name).object_url("");
        url.set_path(&format!("/{name}"));
        let response = self.signed("PUT", &url);
        let status = response.status();
        let body = response.into_body().read_to_string().unwrap_or_default();
        assert!(
            status.is_success(),
            "creating bucket {name}: {status} {body}"
        );
    }

    /// Every key of the bucket with its ETag.
    pub fn list(&self, name: &str) -> BTreeMap<String, String> {
        let bucket = self.bucket(name);
        let url = bucket.list_objects_v2(None).sign(UNSIGNED);
        let body = self
            .signed("GET", &url)
            .into_body()
            .read_to_string()
            .expect("a listing");
        let page = rusty_s3::actions::ListObjectsV2::parse_response(&body)
            .unwrap_or_else(|e| panic!("{e}: {body}"));
        assert!(
            page.next_continuation_token.is_none(),
            "test buckets hold < 1000 keys"
        );
        page.contents
            .into_iter()
            .map(|o| (o.key, o.etag.unwrap_or_default()))
            .collect()
    }

    /// Fetches one object as a visitor's CDN would.
    pub fn get(&self, name: &str, key: &str) -> Fetched {
        let url = self.bucket(name).object_url(key);
        let response = self.signed("GET", &url);
        assert!(
            response.status().is_success(),
            "GET {key}: {}",
            response.status()
        );
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let (content_type, content_encoding, cache_control, website_redirect_location) = (
            header("content-type"),
            header("content-encoding"),
            header("cache-control"),
            header("x-amz-website-redirect-location"),
        );
        let body = response
            .into_body()
            .with_config()
            .limit(100 * 1024 * 1024)
            .read_to_vec()
            .expect("a body");
        Fetched {
            content_type,
            content_encoding,
            cache_control,
            website_redirect_location,
            body,
        }
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text of the first `<tag>` in `xml`.
pub fn between(xml: &str, tag: &str) -> String {
    let start = xml.find(&format!("<{tag}>")).expect("tag present") + tag.len() + 2;
    let end = start + xml[start..].find(&format!("</{tag}>")).expect("tag closed");
    xml[start..end].to_owned()
}
