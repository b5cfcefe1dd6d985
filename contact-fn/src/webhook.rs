//! Notifies webhooks of every accepted message, through the outbox.
//!
//! The request body is rendered when a message is accepted and travels in its email's outbox
//! record (one write per message, however many receivers). When the email is taken for
//! delivery each `--webhook-url` is posted beside it; one that fails becomes a record of its
//! own, with the outbox's retries, back-off and dead letters, so a receiver that is down loses
//! nothing and delays no email. Requests are signed per the Standard Webhooks specification:
//! `webhook-id` (the message id, the same on every retry and for every URL, for receivers to
//! de-duplicate on), `webhook-timestamp` (of the attempt) and `webhook-signature: v1,<base64
//! HMAC-SHA256 of id.timestamp.body>`, keyed with the secret given as `whsec_<base64>`.
//! `--webhook-format slack` posts a Slack incoming-webhook message instead of the JSON event.

use std::time::Duration;

use anyhow::{Context as _, bail};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::{Body as _, Bytes};
use hyper::header::CONTENT_TYPE;
use hyper::{Request, Uri};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use ring::hmac;
use serde_json::json;
use uuid::Uuid;

use crate::attachment::Attachment;
use crate::spam;
use crate::store::{DeliveryError, Notifications, Record, WebhookTarget};
use crate::submission::{FormKind, Submission};

/// Prefix of a Standard Webhooks secret; the rest is the key in base64.
pub const SECRET_PREFIX: &str = "whsec_";
/// Header of the event's id.
pub const ID_HEADER: &str = "webhook-id";
/// Header of the attempt's time, in seconds since the Unix epoch.
pub const TIMESTAMP_HEADER: &str = "webhook-timestamp";
/// Header of the signatures.
pub const SIGNATURE_HEADER: &str = "webhook-signature";
/// The event type of an accepted message.
pub const EVENT_TYPE: &str = "message.accepted";
/// The event type of a confirmed newsletter subscription.
pub const SUBSCRIPTION_EVENT_TYPE: &str = "subscription.confirmed";
/// Lines of the visitor's message shown in a Slack notification.
const SLACK_LINES: usize = 5;

/// What a webhook request's body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The JSON event `{type, timestamp, data}` of Standard Webhooks.
    Standard,
    /// A Slack incoming-webhook message: who, company, subject, first lines.
    Slack,
}

/// The key of `whsec_<base64>`.
pub fn parse_secret(secret: &str) -> anyhow::Result<Vec<u8>> {
    let Some(encoded) = secret.trim().strip_prefix(SECRET_PREFIX) else {
        bail!("CONTACT_WEBHOOK_SECRET must look like {SECRET_PREFIX}<base64>");
    };
    let key = BASE64
        .decode(encoded)
        .context("CONTACT_WEBHOOK_SECRET: the part after whsec_ is not base64")?;
    if key.len() < 24 {
        bail!("CONTACT_WEBHOOK_SECRET must hold at least 24 bytes of key");
    }
    Ok(key)
}

/// The `webhook-signature` value of `body` sent as event `id` at `timestamp`.
pub fn signature(key: &hmac::Key, id: &str, timestamp: u64, body: &[u8]) -> String {
    let mut signed = format!("{id}.{timestamp}.").into_bytes();
    signed.extend_from_slice(body);
    format!("v1,{}", BASE64.encode(hmac::sign(key, &signed).as_ref()))
}

/// The notifications of the message `id` to each of `urls`, carried by its email's record;
/// `None` without URLs.
pub fn notifications(
    urls: &[String],
    format: Format,
    id: &str,
    submission: &Submission,
    flags: &[spam::Reason],
    now_ms: u64,
) -> anyhow::Result<Option<Notifications>> {
    if urls.is_empty() {
        return Ok(None);
    }
    let body = match format {
        Format::Standard => standard_body(id, submission, flags, now_ms)?,
        Format::Slack => slack_body(id, submission, flags),
    };
    Ok(Some(Notifications {
        urls: urls.to_vec(),
        body,
    }))
}

/// `body`, a notification of an email, with the email's files listed as the record has them
/// now, with their SHA-256 ([`Attachment::sha256`] is taken at delivery, after the body was
/// written) and without the CRC-32 the service keeps for itself. A body that lists no files
/// (Slack's names none) is returned as it is.
pub fn with_files(body: &str, attachments: &[Attachment]) -> String {
    let Ok(mut event) = serde_json::from_str::<serde_json::Value>(body) else {
        return body.to_owned();
    };
    let Some(listed) = event.pointer_mut("/data/fields/attachments") else {
        return body.to_owned();
    };
    *listed = attachments
        .iter()
        .map(|file| {
            let mut shown = json!(file);
            if let Some(fields) = shown.as_object_mut() {
                fields.remove(Attachment::CRC32_FIELD);
            }
            shown
        })
        .collect();
    event.to_string()
}

/// The outbox records notifying each of `urls` that `address` confirmed its subscription
/// from the form `source`, as event `id`.
pub fn subscription_records(
    urls: &[String],
    format: Format,
    id: &str,
    address: &str,
    source: FormKind,
    now_ms: u64,
) -> Vec<Record> {
    let body = match format {
        Format::Standard => json!({
            "type": SUBSCRIPTION_EVENT_TYPE,
            "timestamp": rfc3339(now_ms),
            "data": { "id": id, "address": address, "source": source },
        }),
        Format::Slack => json!({
            "text": format!("New newsletter subscriber: {} (from the {source} form)", escape(address)),
        }),
    };
    let body = body.to_string();
    urls.iter()
        .map(|url| record(url, id, FormKind::Newsletter, &body, now_ms))
        .collect()
}

/// The record of a notification to `url` carrying `body` as event `id`, due at `now_ms`: its
/// own id is the same however often it is made, so storing it twice stores it once.
pub fn record(url: &str, id: &str, kind: FormKind, body: &str, now_ms: u64) -> Record {
    Record {
        id: Uuid::new_v5(&Uuid::NAMESPACE_URL, format!("{url}#{id}").as_bytes()).to_string(),
        kind,
        created_ms: now_ms,
        attempts: 0,
        next_attempt_ms: now_ms,
        last_error: None,
        envelope_from: String::new(),
        envelope_to: Vec::new(),
        message: body.to_owned(),
        webhook: Some(WebhookTarget {
            url: url.to_owned(),
            event_id: id.to_owned(),
        }),
        notifications: None,
        attachments: Vec::new(),
        spooled: Vec::new(),
    }
}

fn rfc3339(now_ms: u64) -> String {
    humantime::format_rfc3339_millis(std::time::UNIX_EPOCH + Duration::from_millis(now_ms))
        .to_string()
}

fn standard_body(
    id: &str,
    submission: &Submission,
    flags: &[spam::Reason],
    now_ms: u64,
) -> anyhow::Result<String> {
    let body = json!({
        "type": EVENT_TYPE,
        "timestamp": rfc3339(now_ms),
        "data": { "id": id, "form": submission.kind(), "spam": flags, "fields": submission },
    });
    serde_json::to_string(&body).context("serialising the webhook event")
}

/// A Slack message; the visitor's text is escaped so it cannot mention or link (`<!channel>`).
fn slack_body(id: &str, submission: &Submission, flags: &[spam::Reason]) -> String {
    let (who, company, subject, text) = match submission {
        Submission::Contact(m) => (
            m.name.clone(),
            m.company.clone(),
            m.subject.clone(),
            m.message.as_str(),
        ),
        Submission::Enquiry(e) => (
            format!("{} {}", e.first_name, e.last_name),
            Some(e.company.clone()),
            "Enquiry".to_owned(),
            e.topic.as_str(),
        ),
        Submission::Newsletter(s) => (s.email.clone(), None, "Newsletter".to_owned(), ""),
    };
    let company = company
        .map(|c| format!(" ({})", escape(&c)))
        .unwrap_or_default();
    let quoted: String = text
        .lines()
        .take(SLACK_LINES)
        .map(|line| format!("\n> {}", escape(line)))
        .collect();
    let label = if flags.is_empty() {
        String::new()
    } else {
        format!("{} ", spam::SUBJECT_LABEL)
    };
    let text = format!(
        "{label}New {} message from *{}*{company} <{}>: *{}*{quoted}\n_{id}_",
        submission.kind(),
        escape(&who),
        escape(submission.email()),
        escape(&subject),
    );
    json!({ "text": text }).to_string()
}

/// Slack's three control characters, as its message formatting asks.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Posts webhook records: signs each attempt and tells a refusal from a passing failure.
///
/// hyper's pooled client, on the service's own runtime: a post is a write and a read on a
/// kept-alive connection, with no thread to hand it to and back.
#[derive(Clone)]
pub struct Sender {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    key: Option<hmac::Key>,
    timeout: Duration,
}

impl std::fmt::Debug for Sender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("webhook sender")
    }
}

impl Sender {
    /// A sender signing with `key` (none: unsigned, for Slack), each request within `timeout`.
    pub fn new(key: Option<&[u8]>, timeout: Duration) -> anyhow::Result<Self> {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_connect_timeout(Some(timeout));
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .context("setting up TLS for webhooks")?
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(IDLE)
            .build(https);
        Ok(Self {
            client,
            key: key.map(|key| hmac::Key::new(hmac::HMAC_SHA256, key)),
            timeout,
        })
    }

    /// Posts `record`'s body to its URL. A 2xx answer delivers it; 410 Gone and other
    /// client errors (except 408 and 429) refuse it for good; anything else is retried.
    pub async fn send(&self, record: &Record) -> Result<(), DeliveryError> {
        let Some(target) = &record.webhook else {
            return Err(DeliveryError::Permanent("not a webhook".to_owned()));
        };
        self.post(&target.url, &target.event_id, &record.message)
            .await
    }

    /// Posts `body` to `url` as event `event_id`, answered as [`Sender::send`] says.
    pub async fn post(&self, url: &str, event_id: &str, body: &str) -> Result<(), DeliveryError> {
        let uri: Uri = url
            .parse()
            .map_err(|e| DeliveryError::Permanent(format!("the webhook URL {url}: {e}")))?;
        let timestamp = crate::durable::now_ms() / 1000;
        let body = Bytes::copy_from_slice(body.as_bytes());
        let signature = self
            .key
            .as_ref()
            .map(|key| signature(key, event_id, timestamp, &body));
        let request = || {
            let mut request = Request::post(uri.clone())
                .header(CONTENT_TYPE, "application/json")
                .header(ID_HEADER, event_id)
                .header(TIMESTAMP_HEADER, timestamp);
            if let Some(signature) = &signature {
                request = request.header(SIGNATURE_HEADER, signature);
            }
            request.body(Full::new(body.clone()))
        };
        let post = async {
            let first = request().map_err(|e| e.to_string())?;
            // A pooled connection the receiver closed while it sat idle fails before any
            // answer; the pool drops it, and the same event goes again on a new connection
            // (receivers de-duplicate on its id) instead of waiting for the back-off.
            let response = match self.client.request(first).await {
                Err(error) if hung_up(&error) => {
                    let again = request().map_err(|e| e.to_string())?;
                    self.client.request(again).await
                }
                answered => answered,
            }
            .map_err(|e| describe(&e))?;
            Ok::<_, String>((response.status().as_u16(), response.into_body()))
        };
        let answered = tokio::time::timeout(self.timeout, post)
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "no answer within {}",
                    humantime::format_duration(self.timeout)
                ))
            })
            .map(|(status, body)| {
                // The status is the answer. The body is read to its end (a bounded amount,
                // within the time limit, in the background) only so that the connection goes
                // back to the pool; one that is larger or slower is dropped with it.
                if !body.is_end_stream() {
                    tokio::spawn(tokio::time::timeout(
                        self.timeout,
                        Limited::new(body, ANSWER_BYTES).collect(),
                    ));
                }
                status
            });
        match answered {
            Ok(200..=299) => Ok(()),
            Ok(status @ (408 | 429)) => Err(DeliveryError::Transient(format!(
                "the webhook answered {status}"
            ))),
            Ok(status @ 400..=499) => Err(DeliveryError::Permanent(format!(
                "the webhook answered {status}"
            ))),
            Ok(status) => Err(DeliveryError::Transient(format!(
                "the webhook answered {status}"
            ))),
            Err(error) => Err(DeliveryError::Transient(format!(
                "posting to the webhook: {error}"
            ))),
        }
    }
}

/// The most of a receiver's answer body that is read (and thrown away).
const ANSWER_BYTES: usize = 64 * 1024;

/// How long a connection to a receiver may sit unused in the pool.
const IDLE: Duration = Duration::from_secs(30);

/// Whether `error` is the peer closing the connection before it answered: what a reused
/// connection meets when the receiver closed it while it sat in the pool.
fn hung_up(error: &hyper_util::client::legacy::Error) -> bool {
    use std::error::Error as _;
    let mut source = error.source();
    while let Some(cause) = source {
        if let Some(hyper) = cause.downcast_ref::<hyper::Error>() {
            return hyper.is_incomplete_message() || hyper.is_canceled() || hyper.is_closed();
        }
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind;
            return matches!(
                io.kind(),
                ErrorKind::UnexpectedEof
                    | ErrorKind::BrokenPipe
                    | ErrorKind::ConnectionReset
                    | ErrorKind::ConnectionAborted
            );
        }
        source = cause.source();
    }
    false
}

/// An error and its causes on one line: the client's own says only "client error (Connect)".
fn describe(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_listed_with_their_sha256_and_nothing_else_changes() {
        let written = r#"{"type":"message.accepted","timestamp":"t","data":{"id":"1","fields":{"name":"Ada","attachments":[{"name":"a.pdf","contentType":"application/pdf","size":3,"crc32":7}]}}}"#;
        let file = Attachment {
            name: "a.pdf".to_owned(),
            content_type: "application/pdf".to_owned(),
            size: 3,
            crc32: Some(7),
            sha256: Some("ab".repeat(32)),
        };
        let sealed: serde_json::Value =
            serde_json::from_str(&with_files(written, std::slice::from_ref(&file))).expect("JSON");
        let mut expected: serde_json::Value = serde_json::from_str(written).expect("JSON");
        expected["data"]["fields"]["attachments"] = json!([{
            "name": "a.pdf", "contentType": "application/pdf", "size": 3, "sha256": "ab".repeat(32),
        }]);
        assert_eq!(sealed, expected);
        let slack = r#"{"text":"New contact message"}"#;
        assert_eq!(with_files(slack, &[file]), slack);
    }

    /// The example of the Standard Webhooks specification's reference libraries.
    #[test]
    fn the_signature_matches_the_specification_example() {
        let key = parse_secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").expect("secret");
        let key = hmac::Key::new(hmac::HMAC_SHA256, &key);
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            signature(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn a_secret_needs_its_prefix_and_base64() {
        assert!(parse_secret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").is_err());
        assert!(parse_secret("whsec_not base64!").is_err());
        assert!(parse_secret("whsec_c2hvcnQ=").is_err(), "too short");
    }
}
