//! Each preview's own redirects, in the CloudFront KeyValueStore the CloudFront Function reads
//! on preview hosts ([`crate::redirects::Rules::cloudfront_function`]).
//!
//! The function's inline table is the site's build's; a preview is another build, deployed
//! later, and a function's code is one per distribution and at most 10 KB. So `sitegen deploy
//! --preview NAME` writes the rules of that build's `_redirects` to the store, one key per
//! request path (`NAME/old`, value `301 /about/` or `410`), and deletes the keys of NAME the
//! build no longer has; `--remove-preview NAME` deletes every key of NAME. Keys of other
//! previews are never touched, and the site's hosts never read the store.
//!
//! The store's data plane (`https://ACCOUNT.cloudfront-kvs.global.api.aws`, or
//! `AWS_ENDPOINT_URL_CLOUDFRONT_KEYVALUESTORE`) is a small JSON API signed with SigV4A:
//! `DescribeKeyValueStore` gives the store's ETag, `ListKeys` its keys a page at a time, and
//! `UpdateKeys` changes up to [`BATCH`] keys at once if the ETag is still the one given
//! (`If-Match`), answering the new one. Two previews deploying at once change the ETag under
//! each other: a batch refused for it (409, 412) is sent again with the current ETag.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::time::SystemTime;

use anyhow::{Result, anyhow, bail, ensure};
use serde::{Deserialize, Serialize};

use super::credentials::Credentials;
use super::sigv4::{self, Service};
use crate::redirects::{GONE, Rules};

/// The most keys one `UpdateKeys` request changes (puts and deletes together).
pub const BATCH: usize = 50;
/// The longest key a store takes, in bytes.
pub const MAX_KEY_BYTES: usize = 512;
/// The longest value a store takes, in bytes.
pub const MAX_VALUE_BYTES: usize = 1024;
/// How many times a batch refused for a changed ETag is sent again.
const ATTEMPTS: usize = 5;

/// A CloudFront KeyValueStore, from its ARN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyValueStore {
    /// `arn:aws:cloudfront::123456789012:key-value-store/ID`.
    pub arn: String,
    /// The data plane's address.
    pub endpoint: String,
}

impl FromStr for KeyValueStore {
    type Err = String;

    /// The store named by `arn`, at its account's endpoint, or
    /// `AWS_ENDPOINT_URL_CLOUDFRONT_KEYVALUESTORE` when set.
    fn from_str(arn: &str) -> Result<Self, String> {
        let account = arn
            .strip_prefix("arn:aws:cloudfront::")
            .and_then(|rest| rest.split_once(":key-value-store/"))
            .filter(|(account, id)| {
                account.len() == 12
                    && account.bytes().all(|b| b.is_ascii_digit())
                    && !id.is_empty()
                    && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
            .map(|(account, _)| account)
            .ok_or_else(|| {
                format!(
                    "{arn:?} is not the ARN of a CloudFront KeyValueStore \
                     (arn:aws:cloudfront::123456789012:key-value-store/ID)"
                )
            })?;
        let endpoint = std::env::var("AWS_ENDPOINT_URL_CLOUDFRONT_KEYVALUESTORE")
            .ok()
            .filter(|e| !e.is_empty())
            .unwrap_or_else(|| format!("https://{account}.cloudfront-kvs.global.api.aws"));
        Ok(Self::at(arn, &endpoint))
    }
}

/// The keys of a store, or of one preview in it, by key.
pub type Entries = BTreeMap<String, String>;

/// What a change of one preview's keys did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changed {
    /// Keys written (new or with a new value).
    pub put: usize,
    /// Keys deleted.
    pub deleted: usize,
}

/// The keys of the preview `name` for `rules`: `NAME/old` -> `301 /about/` or `410`, the first
/// rule of each path, as hosts read `_redirects`. A key or value too long for a store is an
/// error naming the path.
pub fn entries(name: &str, rules: &Rules) -> Result<Entries> {
    let name = name.to_ascii_lowercase();
    let mut entries = Entries::new();
    for rule in rules.iter() {
        let key = format!("{name}{}", rule.from);
        if entries.contains_key(&key) {
            continue;
        }
        let value = if rule.status == GONE {
            GONE.to_string()
        } else {
            format!("{} {}", rule.status, rule.to)
        };
        ensure!(
            key.len() <= MAX_KEY_BYTES && value.len() <= MAX_VALUE_BYTES,
            "_redirects: the redirect of {} does not fit a KeyValueStore (a key of at most \
             {MAX_KEY_BYTES} bytes, `{name}` and the path, and a value of at most \
             {MAX_VALUE_BYTES}, the status and target): shorten the path or its target",
            rule.from
        );
        entries.insert(key, value);
    }
    Ok(entries)
}

/// The keys of the preview `name` among `all`.
fn of_preview<'a>(all: &'a Entries, name: &str) -> impl Iterator<Item = (&'a String, &'a String)> {
    let prefix = format!("{}/", name.to_ascii_lowercase());
    all.iter().filter(move |(key, _)| key.starts_with(&prefix))
}

/// What turns the store's keys `all` into `wanted` for the preview `name`: the keys to put
/// (new or changed) and the keys of `name` to delete. Other previews' keys are left alone.
pub fn plan(name: &str, wanted: &Entries, all: &Entries) -> (Vec<(String, String)>, Vec<String>) {
    let puts = wanted
        .iter()
        .filter(|(key, value)| all.get(*key) != Some(value))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let deletes = of_preview(all, name)
        .filter(|(key, _)| !wanted.contains_key(*key))
        .map(|(key, _)| key.clone())
        .collect();
    (puts, deletes)
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Put<'a> {
    key: &'a str,
    value: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Delete<'a> {
    key: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Update<'a> {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    puts: Vec<Put<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    deletes: Vec<Delete<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Listed {
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    next_token: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Item {
    key: String,
    value: String,
}

/// An answer of the data plane.
struct Answer {
    etag: Option<String>,
    body: String,
}

impl KeyValueStore {
    /// The store `arn` at `endpoint` (a test's server, or a proxy).
    pub fn at(arn: &str, endpoint: &str) -> Self {
        Self {
            arn: arn.to_owned(),
            endpoint: endpoint.trim_end_matches('/').to_owned(),
        }
    }

    /// Writes `rules` as the redirects of the preview `name`, and deletes those of its keys
    /// the rules no longer have.
    pub fn publish(&self, name: &str, rules: &Rules, credentials: &Credentials) -> Result<Changed> {
        let wanted = entries(name, rules)?;
        let all = self.list(credentials)?;
        let (puts, deletes) = plan(name, &wanted, &all);
        self.update(&puts, &deletes, credentials)?;
        Ok(Changed {
            put: puts.len(),
            deleted: deletes.len(),
        })
    }

    /// Deletes every key of the preview `name`; answers how many.
    pub fn remove(&self, name: &str, credentials: &Credentials) -> Result<usize> {
        let all = self.list(credentials)?;
        let deletes: Vec<String> = of_preview(&all, name).map(|(k, _)| k.clone()).collect();
        self.update(&[], &deletes, credentials)?;
        Ok(deletes.len())
    }

    /// Every key of the store, with its value (`ListKeys`, page after page).
    pub fn list(&self, credentials: &Credentials) -> Result<Entries> {
        let mut all = Entries::new();
        let mut token: Option<String> = None;
        loop {
            let mut query = format!("?MaxResults={BATCH}");
            if let Some(token) = &token {
                query.push_str("&NextToken=");
                query.push_str(
                    &url::form_urlencoded::byte_serialize(token.as_bytes()).collect::<String>(),
                );
            }
            let answer = self.send("GET", &format!("/keys{query}"), b"", None, credentials)?;
            let listed: Listed = serde_json::from_str(&answer.body)
                .map_err(|e| anyhow!("listing the keys of {}: unreadable answer: {e}", self.arn))?;
            all.extend(listed.items.into_iter().map(|item| (item.key, item.value)));
            match listed.next_token.filter(|t| !t.is_empty()) {
                Some(next) => token = Some(next),
                None => return Ok(all),
            }
        }
    }

    /// The store's current ETag (`DescribeKeyValueStore`).
    fn etag(&self, credentials: &Credentials) -> Result<String> {
        self.send("GET", "", b"", None, credentials)?
            .etag
            .ok_or_else(|| anyhow!("describing {}: the answer has no ETag", self.arn))
    }

    /// Puts `puts` and deletes `deletes`, [`BATCH`] keys a request, each against the store's
    /// current ETag.
    fn update(
        &self,
        puts: &[(String, String)],
        deletes: &[String],
        credentials: &Credentials,
    ) -> Result<()> {
        if puts.is_empty() && deletes.is_empty() {
            return Ok(());
        }
        let changes: Vec<(&str, Option<&str>)> = puts
            .iter()
            .map(|(k, v)| (k.as_str(), Some(v.as_str())))
            .chain(deletes.iter().map(|k| (k.as_str(), None)))
            .collect();
        let mut etag = self.etag(credentials)?;
        for batch in changes.chunks(BATCH) {
            let update = Update {
                puts: batch
                    .iter()
                    .filter_map(|(key, value)| value.map(|value| Put { key, value }))
                    .collect(),
                deletes: batch
                    .iter()
                    .filter(|(_, value)| value.is_none())
                    .map(|(key, _)| Delete { key })
                    .collect(),
            };
            let body = serde_json::to_vec(&update)?;
            let mut attempt = 1;
            loop {
                match self.send("POST", "/keys", &body, Some(&etag), credentials) {
                    Ok(answer) => {
                        etag = answer.etag.ok_or_else(|| {
                            anyhow!("updating the keys of {}: the answer has no ETag", self.arn)
                        })?;
                        break;
                    }
                    Err(err) if attempt < ATTEMPTS && is_stale(&err) => {
                        attempt += 1;
                        etag = self.etag(credentials)?;
                    }
                    Err(err) => return Err(err),
                }
            }
        }
        Ok(())
    }

    /// Sends a signed request for `/key-value-stores/ARN{path}`; an answer other than 2xx is
    /// an error with the store's message.
    fn send(
        &self,
        method: &str,
        path: &str,
        body: &[u8],
        if_match: Option<&str>,
        credentials: &Credentials,
    ) -> Result<Answer> {
        let arn: String = url::form_urlencoded::byte_serialize(self.arn.as_bytes()).collect();
        let url = format!("{}/key-value-stores/{arn}{path}", self.endpoint);
        let mut headers = vec![("content-type", "application/json")];
        if let Some(etag) = if_match {
            headers.push(("if-match", etag));
        }
        let request = sigv4::Request {
            method,
            url: &url,
            headers: &headers,
            body,
        };
        let signature = sigv4::headers(
            Service::KeyValueStore,
            "",
            credentials,
            request,
            SystemTime::now(),
        )
        .map_err(|e| anyhow!("{method} {url}: {e}"))?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut builder = ureq::http::Request::builder().method(method).uri(&url);
        for (name, value) in headers.iter().copied().chain(
            signature
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str())),
        ) {
            builder = builder.header(name, value);
        }
        let response = if body.is_empty() {
            builder.body(()).map(|request| agent.run(request))
        } else {
            builder.body(body).map(|request| agent.run(request))
        }
        .map_err(|e| anyhow!("{method} {url}: {e}"))?
        .map_err(|e| anyhow!("{method} {url}: no answer: {e}"))?;
        let status = response.status().as_u16();
        let etag = response
            .headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response.into_body().read_to_string().unwrap_or_default();
        if !(200..300).contains(&status) {
            let message = serde_json::from_str::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| {
                    v.get("Message")
                        .or_else(|| v.get("message"))
                        .and_then(|m| m.as_str())
                        .map(str::to_owned)
                })
                .unwrap_or_else(|| body.trim().to_owned());
            bail!(StoreRefused {
                status,
                what: format!("{method} {url}"),
                message,
            });
        }
        Ok(Answer { etag, body })
    }
}

/// A request the store answered with an error.
#[derive(Debug)]
struct StoreRefused {
    status: u16,
    what: String,
    message: String,
}

impl std::fmt::Display for StoreRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: the KeyValueStore answered {}: {}",
            self.what, self.status, self.message
        )
    }
}

impl std::error::Error for StoreRefused {}

/// Whether `err` is a write refused because the store changed since its ETag was read.
fn is_stale(err: &anyhow::Error) -> bool {
    err.downcast_ref::<StoreRefused>()
        .is_some_and(|e| e.status == 409 || e.status == 412)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_is_named_by_its_arn_and_reached_at_its_account() {
        let store: KeyValueStore =
            "arn:aws:cloudfront::123456789012:key-value-store/327284aa-bcd5-499f-a3ff-26b9a9d31b58"
                .parse()
                .expect("an ARN");
        if std::env::var_os("AWS_ENDPOINT_URL_CLOUDFRONT_KEYVALUESTORE").is_none() {
            assert_eq!(
                store.endpoint,
                "https://123456789012.cloudfront-kvs.global.api.aws"
            );
        }
        let err = "arn:aws:s3:::bucket"
            .parse::<KeyValueStore>()
            .expect_err("not a store");
        assert!(
            err.contains("is not the ARN of a CloudFront KeyValueStore"),
            "{err}"
        );
    }

    #[test]
    fn a_preview_s_keys_are_its_rules_and_only_its_own_are_deleted() {
        let rules = Rules::parse(
            "/old /about/ 301\n/old/ /about/ 301\n/gone /404.html 410\n/old /x/ 301\n",
        )
        .expect("rules");
        let wanted = entries("PR-7", &rules).expect("they fit");
        assert_eq!(
            wanted,
            Entries::from([
                ("pr-7/gone".into(), "410".into()),
                ("pr-7/old".into(), "301 /about/".into()),
                ("pr-7/old/".into(), "301 /about/".into()),
            ])
        );
        let all = Entries::from([
            ("pr-7/old".into(), "301 /about/".into()),
            ("pr-7/old/".into(), "301 /elsewhere/".into()),
            ("pr-7/dropped".into(), "410".into()),
            ("pr-70/dropped".into(), "410".into()),
            ("pr-8/old".into(), "301 /about/".into()),
        ]);
        let (puts, deletes) = plan("pr-7", &wanted, &all);
        assert_eq!(
            puts,
            [
                ("pr-7/gone".to_owned(), "410".to_owned()),
                ("pr-7/old/".to_owned(), "301 /about/".to_owned()),
            ]
        );
        assert_eq!(deletes, ["pr-7/dropped"]);
    }

    #[test]
    fn a_redirect_too_long_for_a_store_is_refused_with_its_path() {
        let long = format!("/{}", "a".repeat(MAX_KEY_BYTES));
        let rules = Rules::parse(&format!("{long} /about/ 301\n")).expect("rules");
        let err = entries("pr-7", &rules).expect_err("too long");
        assert!(
            err.to_string()
                .starts_with(&format!("_redirects: the redirect of {long} does not fit")),
            "{err}"
        );
    }
}
