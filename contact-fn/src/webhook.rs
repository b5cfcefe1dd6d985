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

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context as _, bail};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ring::hmac;
use serde_json::json;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};
use uuid::Uuid;

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
#[derive(Clone)]
pub struct Sender {
    agent: ureq::Agent,
    key: Option<hmac::Key>,
}

impl std::fmt::Debug for Sender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("webhook sender")
    }
}

impl Sender {
    /// A sender signing with `key` (none: unsigned, for Slack), each request within `timeout`.
    pub fn new(key: Option<&[u8]>, timeout: Duration) -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .build();
        let agent = ureq::Agent::with_parts(config, DefaultConnector::default(), LiteralFirst);
        Self {
            agent,
            key: key.map(|key| hmac::Key::new(hmac::HMAC_SHA256, key)),
        }
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
        let timestamp = crate::durable::now_ms() / 1000;
        let body = body.as_bytes().to_vec();
        let signature = self
            .key
            .as_ref()
            .map(|key| signature(key, event_id, timestamp, &body));
        let (url, event_id) = (url.to_owned(), event_id.to_owned());
        let agent = self.agent.clone();
        let answered = tokio::task::spawn_blocking(move || {
            let post = || {
                let mut request = agent
                    .post(&url)
                    .header("content-type", "application/json")
                    .header(ID_HEADER, &event_id)
                    .header(TIMESTAMP_HEADER, &timestamp.to_string());
                if let Some(signature) = &signature {
                    request = request.header(SIGNATURE_HEADER, signature);
                }
                request
                    .send(&body[..])
                    .map(|response| response.status().as_u16())
            };
            // A pooled connection the receiver closed while it sat idle fails before any
            // answer; the pool drops it, and the same event goes again on a new connection
            // (receivers de-duplicate on its id) instead of waiting for the back-off.
            match post() {
                Err(error) if hung_up(&error) => post(),
                answered => answered,
            }
        })
        .await
        .map_err(|e| DeliveryError::Transient(e.to_string()))?;
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

/// ureq's resolver, but an IP address in the URL is taken as it is. ureq looks up every
/// request's host (pooled connection or not) and, under a timeout, does so on a thread of its
/// own: a thread started and ended per notification, for a lookup that has nothing to find.
#[derive(Debug)]
struct LiteralFirst;

impl Resolver for LiteralFirst {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let literal = literal_address(uri);
        match literal {
            Some(address) => {
                let mut addresses = self.empty();
                addresses.push(address);
                Ok(addresses)
            }
            None => DefaultResolver::default().resolve(uri, config, timeout),
        }
    }
}

/// The address of a URL whose host is an IP address (`[...]` for IPv6), with its port or the
/// scheme's; `None` for a host name.
fn literal_address(uri: &ureq::http::Uri) -> Option<SocketAddr> {
    let authority = uri.authority()?;
    let ip = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']');
    let port = authority.port_u16().or(match uri.scheme_str() {
        Some("https") => Some(443),
        Some("http") => Some(80),
        _ => None,
    })?;
    Some(SocketAddr::new(ip.parse().ok()?, port))
}

/// Whether `error` is the peer closing the connection: what a reused connection meets when
/// the receiver closed it while it sat in the pool.
fn hung_up(error: &ureq::Error) -> bool {
    use std::io::ErrorKind;
    matches!(error, ureq::Error::Io(e) if matches!(
        e.kind(),
        ErrorKind::UnexpectedEof
            | ErrorKind::BrokenPipe
            | ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ip_address_in_the_url_is_its_own_resolution_and_a_name_is_looked_up() {
        let address = |url: &str| {
            literal_address(&url.parse().expect("a URI")).map(|address| address.to_string())
        };
        assert_eq!(
            address("http://127.0.0.1:9000/hook").as_deref(),
            Some("127.0.0.1:9000")
        );
        assert_eq!(address("https://[::1]/hook").as_deref(), Some("[::1]:443"));
        assert_eq!(address("http://10.0.0.7/x").as_deref(), Some("10.0.0.7:80"));
        assert_eq!(address("https://hooks.example.com/x"), None);
        assert_eq!(address("http://localhost:9000/x"), None);
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
