//! What the service tells the people running it: metrics in Prometheus's text format (served
//! on `--metrics-bind`, away from the public port) and the request id that ties a request's
//! log lines to the message it stored.
//!
//! The code records through the `metrics` facade; without `--metrics-bind` no recorder is
//! installed and every recording is a no-op. Each metric's name is written once, here; the alert
//! rules in `prometheus/` use the same names (a test checks them against [`ALL`]).

use std::sync::{LazyLock, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use uuid::Uuid;

use crate::spam::Reason;
use crate::store::Depth;
use crate::submission::FormKind;

/// Header carrying the request id: on every answer, and in the email the request stored.
pub const REQUEST_ID_HEADER: &str = "X-Request-Id";

/// HTTP requests answered, by route and status.
pub const HTTP_REQUESTS: &str = "contact_http_requests_total";
/// Submissions stored for delivery, by form.
pub const SUBMISSIONS_ACCEPTED: &str = "contact_submissions_accepted_total";
/// Submissions not stored, by form and reason (`AppError::reason`, or `honeypot`); a
/// `rate_limited` reason is a rate-limit hit.
pub const SUBMISSIONS_REJECTED: &str = "contact_submissions_rejected_total";
/// Submissions stored but labelled as likely spam, by form and reason.
pub const SUBMISSIONS_FLAGGED: &str = "contact_submissions_flagged_total";
/// Messages waiting in the outbox (all replicas' with PostgreSQL).
pub const OUTBOX_MESSAGES: &str = "contact_outbox_messages";
/// Age of the oldest message waiting in the outbox; 0 when none waits.
pub const OUTBOX_OLDEST_AGE: &str = "contact_outbox_oldest_age_seconds";
/// Dead letters kept in the store.
pub const DEAD_LETTERS: &str = "contact_dead_letters";
/// Delivery attempts, by channel (`email`, `webhook`), result (`delivered`, `retry`, `dead`) and
/// attempt number (`5+` beyond).
pub const DELIVERIES: &str = "contact_deliveries_total";
/// Time the SMTP server took to take (or refuse) one message, by result.
pub const SMTP_SECONDS: &str = "contact_smtp_send_duration_seconds";
/// Time a webhook receiver took to answer one request, by result (`ok`, `failed`).
pub const WEBHOOK_SECONDS: &str = "contact_webhook_send_duration_seconds";

/// Files accepted with a stored message.
pub const ATTACHMENTS_ACCEPTED: &str = "contact_attachments_accepted_total";
/// Files refused, by reason: the error code of a refused upload (`too_many_files`,
/// `file_too_large`, `files_too_large`, `file_type`), or `infected` (left out at delivery).
pub const ATTACHMENTS_REFUSED: &str = "contact_attachments_refused_total";

/// Every metric the service exports.
pub const ALL: &[&str] = &[
    ATTACHMENTS_ACCEPTED,
    ATTACHMENTS_REFUSED,
    HTTP_REQUESTS,
    SUBMISSIONS_ACCEPTED,
    SUBMISSIONS_REJECTED,
    SUBMISSIONS_FLAGGED,
    OUTBOX_MESSAGES,
    OUTBOX_OLDEST_AGE,
    DEAD_LETTERS,
    DELIVERIES,
    SMTP_SECONDS,
    WEBHOOK_SECONDS,
];

/// Buckets of the latency histograms, in seconds: from a local relay to a slow remote server.
const LATENCY_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

static RECORDER: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process-wide recorder on first use and returns its handle; `None` when
/// another recorder was installed in this process first.
pub fn recorder() -> Option<&'static PrometheusHandle> {
    RECORDER
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), LATENCY_BUCKETS)
                .unwrap_or_else(|_| PrometheusBuilder::new());
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("another metrics recorder is installed; /metrics stays empty");
                return None;
            }
            describe();
            Some(handle)
        })
        .as_ref()
}

fn describe() {
    describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by route and status."
    );
    describe_counter!(
        SUBMISSIONS_ACCEPTED,
        "Submissions stored for delivery, by form."
    );
    describe_counter!(
        SUBMISSIONS_REJECTED,
        "Submissions not stored, by form and reason (rate_limited: a rate-limit hit)."
    );
    describe_counter!(
        SUBMISSIONS_FLAGGED,
        "Submissions stored but labelled as likely spam, by form and reason."
    );
    describe_gauge!(OUTBOX_MESSAGES, "Messages waiting in the outbox.");
    describe_counter!(
        ATTACHMENTS_ACCEPTED,
        "Files accepted with a stored message."
    );
    describe_counter!(
        ATTACHMENTS_REFUSED,
        "Files refused, by reason (a refused upload's error code, or infected)."
    );
    describe_gauge!(
        OUTBOX_OLDEST_AGE,
        metrics::Unit::Seconds,
        "Age of the oldest message waiting in the outbox (0 when empty)."
    );
    describe_gauge!(DEAD_LETTERS, "Dead letters kept in the store.");
    describe_counter!(
        DELIVERIES,
        "Delivery attempts, by channel (email, webhook), result (delivered, retry, dead) and attempt number."
    );
    describe_histogram!(
        SMTP_SECONDS,
        metrics::Unit::Seconds,
        "Time the SMTP server took to take or refuse one message, by result."
    );
    describe_histogram!(
        WEBHOOK_SECONDS,
        metrics::Unit::Seconds,
        "Time a webhook receiver took to answer one request, by result."
    );
}

/// Sets the outbox gauges to `depth` as of `now_ms`.
pub fn outbox(depth: Depth, now_ms: u64) {
    gauge!(OUTBOX_MESSAGES).set(depth.queued as f64);
    let age_ms = depth
        .oldest_created_ms
        .map_or(0, |created| now_ms.saturating_sub(created));
    gauge!(OUTBOX_OLDEST_AGE).set(Duration::from_millis(age_ms).as_secs_f64());
    gauge!(DEAD_LETTERS).set(depth.dead as f64);
}

/// Counts a submission stored for delivery.
pub fn accepted(kind: FormKind) {
    counter!(SUBMISSIONS_ACCEPTED, "form" => kind.as_str()).increment(1);
}

/// Counts the files of a stored message.
pub fn attachments_accepted(files: usize) {
    counter!(ATTACHMENTS_ACCEPTED).increment(files as u64);
}

/// Records a file refused for `reason`.
pub fn attachment_refused(reason: &'static str) {
    counter!(ATTACHMENTS_REFUSED, "reason" => reason).increment(1);
}

/// Counts a submission that was not stored, for `reason` (`AppError::reason`, `honeypot`).
pub fn rejected(kind: FormKind, reason: &'static str) {
    counter!(SUBMISSIONS_REJECTED, "form" => kind.as_str(), "reason" => reason).increment(1);
}

/// Counts a stored submission labelled as likely spam, once per reason.
pub fn flagged(kind: FormKind, reasons: &[Reason]) {
    for reason in reasons {
        counter!(SUBMISSIONS_FLAGGED, "form" => kind.as_str(), "reason" => reason.as_str())
            .increment(1);
    }
}

/// Counts one delivery attempt on `channel`: its `result` and which attempt it was (1 is the
/// first).
pub fn delivery(channel: &'static str, result: &'static str, attempt: u32) {
    let attempt = match attempt {
        0..=4 => attempt.to_string(),
        _ => "5+".to_owned(),
    };
    counter!(DELIVERIES, "channel" => channel, "result" => result, "attempt" => attempt)
        .increment(1);
}

/// Records how long the SMTP server took, for `result`.
pub fn smtp(result: &'static str, took: Duration) {
    histogram!(SMTP_SECONDS, "result" => result).record(took.as_secs_f64());
}

/// Records how long a webhook receiver took, for `result`.
pub fn webhook(result: &'static str, took: Duration) {
    histogram!(WEBHOOK_SECONDS, "result" => result).record(took.as_secs_f64());
}

/// The id of one request, in its extensions.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// Middleware: gives the request a fresh id (one a client sends is not believed: it would land
/// in the logs and the email), answers it in [`REQUEST_ID_HEADER`], and counts the answer by
/// route and status.
pub async fn observe(mut request: Request<Body>, next: Next) -> Response {
    let id = Uuid::now_v7().to_string();
    let header = REQUEST_ID.clone();
    request.headers_mut().remove(&header);
    request.extensions_mut().insert(RequestId(id.clone()));
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let mut response = next.run(request).await;
    counter!(
        HTTP_REQUESTS,
        "route" => route,
        "status" => response.status().as_u16().to_string()
    )
    .increment(1);
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(header, value);
    }
    response
}

/// [`REQUEST_ID_HEADER`] as an HTTP header name.
static REQUEST_ID: LazyLock<HeaderName> = LazyLock::new(|| {
    HeaderName::from_bytes(REQUEST_ID_HEADER.as_bytes()).expect("a valid header name")
});

/// The span of one request, carrying its id into every log line written while it is served.
pub fn request_span(request: &Request<Body>) -> tracing::Span {
    let id = request
        .extensions()
        .get::<RequestId>()
        .map_or("", |id| id.0.as_str());
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        request_id = %id,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_name_is_a_valid_prometheus_name_and_listed_once() {
        let mut seen = std::collections::BTreeSet::new();
        for name in ALL {
            assert!(name.starts_with("contact_"), "{name}");
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{name}"
            );
            assert!(seen.insert(name), "{name} twice");
        }
    }
}
