//! Notifies webhooks of every accepted message, through the outbox.
//!
//! Each accepted message becomes one outbox record per `--webhook-url`, beside its email: the
//! request body is rendered when the message is accepted, and delivery has the outbox's
//! retries, back-off and dead letters of its own, so a receiver that is down loses nothing and
//! delays no email. Requests are signed per the Standard Webhooks specification: `webhook-id`
//! (the message id, the same on every retry and for every URL, for receivers to de-duplicate
//! on), `webhook-timestamp` (of the attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of
//! id.timestamp.body>`, keyed with the secret given as `whsec_<base64>`. `--webhook-format
//! slack` posts a Slack incoming-webhook message instead of the JSON event.

use std::time::Duration;

use anyhow::{Context as _, bail};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use ring::hmac;
use serde_json::json;
use uuid::Uuid;

use crate::spam;
use crate::store::{DeliveryError, Record, WebhookTarget};
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

/// The outbox records notifying each of `urls` of the message `id`.
pub fn records(
    urls: &[String],
    format: Format,
    id: &str,
    submission: &Submission,
    flags: &[spam::Reason],
    now_ms: u64,
) -> anyhow::Result<Vec<Record>> {
    if urls.is_empty() {
        return Ok(Vec::new());
    }
    let body = match format {
        Format::Standard => standard_body(id, submission, flags, now_ms)?,
        Format::Slack => slack_body(id, submission, flags),
    };
    Ok(for_each_url(urls, id, submission.kind(), &body, now_ms))
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
    for_each_url(urls, id, FormKind::Newsletter, &body.to_string(), now_ms)
}

/// One record per URL carrying `body` as event `id`, the same however often it is stored.
fn for_each_url(urls: &[String], id: &str, kind: FormKind, body: &str, now_ms: u64) -> Vec<Record> {
    urls.iter()
        .map(|url| Record {
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
                url: url.clone(),
                event_id: id.to_owned(),
            }),
        })
        .collect()
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
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .build()
            .into();
        Self {
            agent,
            key: key.map(|key| hmac::Key::new(hmac::HMAC_SHA256, key)),
        }
    }

    /// Posts `record`'s body to its URL. A 2xx answer delivers it; 410 Gone and other
    /// client errors (except 408 and 429) refuse it for good; anything else is retried.
    pub async fn send(&self, record: &Record) -> Result<(), DeliveryError> {
        let Some(target) = record.webhook.clone() else {
            return Err(DeliveryError::Permanent("not a webhook".to_owned()));
        };
        let timestamp = crate::durable::now_ms() / 1000;
        let body = record.message.clone().into_bytes();
        let signature = self
            .key
            .as_ref()
            .map(|key| signature(key, &target.event_id, timestamp, &body));
        let agent = self.agent.clone();
        let answered = tokio::task::spawn_blocking(move || {
            let post = || {
                let mut request = agent
                    .post(&target.url)
                    .header("content-type", "application/json")
                    .header(ID_HEADER, &target.event_id)
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
