//! The HTTP handlers: the form endpoints, the newsletter's links and the health checks.
//!
//! A submission passes, in order: rate limit, content type, size, body read (with a time
//! limit, at most a few per client at once), a processing turn (waited for briefly), decoding,
//! validation, then the [`intake`] (idempotency check, durable storage).
//! Only then is it answered 200 (JSON) or 303 to the success page (plain form post).
//! A `multipart/form-data` body (the contact form with files) is read as a stream by
//! [`upload`]: its fields into memory, its files into the spool, each limit checked as it
//! arrives, before the processing turn is taken.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Extension, FromRequestParts, RawQuery, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use http_body_util::{BodyExt as _, LengthLimitError, Limited};
use serde_json::json;
use tokio::sync::{Semaphore, SemaphorePermit};
use tracing::Instrument as _;
use uuid::Uuid;

use crate::config::Config;
use crate::durable::now_ms;
use crate::error::AppError;
use crate::idempotency;
use crate::intake;
use crate::language::Language;
use crate::limits::client_ip;
use crate::newsletter;
use crate::state::AppState;
use crate::store::subscribers::Confirmed;
use crate::submission::{
    self, Encoding, FieldErrors, FormKind, RawFields, RawValue, Submission, Verdict,
};
use crate::telemetry::{self, RequestId};
use crate::upload::{self, Spooled, UploadError};
use form_contract::NewsletterPage;

/// `POST` to a form's paths ([`FormKind::path`], [`FormKind::functions_path`]): every form,
/// the newsletter block included, goes through the same [`submit`].
pub fn form(kind: FormKind) -> MethodRouter<AppState> {
    post(
        move |State(state): State<AppState>,
              client: Client,
              Extension(request): Extension<RequestId>,
              RawQuery(query): RawQuery,
              headers: HeaderMap,
              body: Body| {
            let sent = Sent {
                kind,
                client,
                request,
                query,
            };
            submit(state, sent, headers, body)
        },
    )
}

/// Who sent a submission, to which form, from a page in which language.
struct Sent {
    kind: FormKind,
    client: Client,
    request: RequestId,
    /// The endpoint's query: the page's language ([`form_contract::LANGUAGE_PARAM`]).
    query: Option<String>,
}

/// Where the metrics listener (`--metrics-bind`) answers.
pub const METRICS_PATH: &str = "/metrics";

/// `GET /metrics` on the metrics listener: the outbox gauges read from the store now, then
/// everything recorded, in Prometheus's text format.
pub async fn metrics(State(state): State<AppState>) -> Response {
    match state.shared.outbox.depth().await {
        Ok(depth) => telemetry::outbox(depth, now_ms()),
        Err(error) => tracing::warn!("the outbox gauges are stale: {error:#}"),
    }
    let Some(recorder) = telemetry::recorder() else {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    recorder.run_upkeep();
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        recorder.render(),
    )
        .into_response()
}

/// `GET` of a confirmation link: records the subscription and sends the visitor to the
/// confirmed page, or to the page that offers to subscribe again.
pub async fn confirm(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    let shared = &state.shared;
    let checked = shared
        .newsletter
        .check_confirm(query.as_deref().unwrap_or(""), now_ms());
    let language = shared
        .newsletter
        .link_language(query.as_deref().unwrap_or(""));
    let Some((address, confirmation)) = checked else {
        tracing::info!("a confirmation link that is expired or not genuine");
        return see_other(&shared.newsletter.page(NewsletterPage::Invalid, language));
    };
    let source = confirmation.source;
    let confirmed_address = address.clone();
    let page = match shared.subscribers.confirm(address, confirmation).await {
        Ok(Confirmed::Subscribed) => {
            tracing::info!(source = source.as_str(), "subscription confirmed");
            let config = &shared.config;
            if config.webhook_newsletter {
                let webhooks = (&config.webhook_urls[..], config.webhook_format);
                newsletter::notify_confirmed(&shared.outbox, webhooks, &confirmed_address, source)
                    .await;
            }
            NewsletterPage::Confirmed
        }
        Ok(Confirmed::Already) => NewsletterPage::Confirmed,
        Ok(Confirmed::Outdated) => {
            tracing::info!("a confirmation link older than the address's unsubscription");
            NewsletterPage::Invalid
        }
        Err(error) => {
            AppError::Unavailable(anyhow::Error::new(error)).log();
            NewsletterPage::Failed
        }
    };
    see_other(&shared.newsletter.page(page, language))
}

/// `GET` of an unsubscribe link: a page with one button that unsubscribes (so that a link
/// scanner following it changes nothing).
pub async fn unsubscribe_page(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    let newsletter = &state.shared.newsletter;
    let query = query.as_deref().unwrap_or("");
    let language = newsletter.link_language(query);
    let Some(address) = newsletter.check_unsubscribe(query) else {
        return see_other(&newsletter.page(NewsletterPage::Invalid, language));
    };
    match newsletter.unsubscribe_page(&address, language) {
        Ok(html) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            html,
        )
            .into_response(),
        Err(error) => AppError::Internal(error).into_response(),
    }
}

/// The body of a one-click unsubscribe (RFC 8058), from a mail client or the button.
const ONE_CLICK: (&str, &str) = ("List-Unsubscribe", "One-Click");

/// `POST` of an unsubscribe link with `List-Unsubscribe=One-Click`: unsubscribes the address.
/// A browser (the button) is sent to the unsubscribed page; a mail client gets 200.
pub async fn unsubscribe(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let shared = &state.shared;
    let browser = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"));
    let one_click = is_one_click(&headers, body).await;
    let query = query.as_deref().unwrap_or("");
    let language = shared.newsletter.link_language(query);
    let address = shared.newsletter.check_unsubscribe(query);
    let result = match (address, one_click) {
        (Some(address), true) => shared
            .subscribers
            .unsubscribe(address, now_ms())
            .await
            .map(|_| ())
            .map_err(|error| AppError::Unavailable(anyhow::Error::new(error))),
        (None, _) => Err(AppError::BadRequest(
            "This unsubscribe link is not valid.".to_owned(),
        )),
        (Some(_), false) => Err(AppError::BadRequest(format!(
            "Unsubscribe with the body {}={}.",
            ONE_CLICK.0, ONE_CLICK.1
        ))),
    };
    if let Err(error) = &result {
        error.log();
    } else {
        tracing::info!("unsubscribed");
    }
    let newsletter = &shared.newsletter;
    match (browser, result) {
        (true, Ok(())) => see_other(&newsletter.page(NewsletterPage::Unsubscribed, language)),
        (true, Err(AppError::BadRequest(_))) => {
            see_other(&newsletter.page(NewsletterPage::Invalid, language))
        }
        (true, Err(_)) => see_other(&newsletter.page(NewsletterPage::Failed, language)),
        (false, Ok(())) => Json(json!({ "ok": true })).into_response(),
        (false, Err(error)) => error.into_response(),
    }
}

/// Whether `body` is the one-click unsubscribe: `multipart/form-data`, as RFC 8058 asks of
/// mail clients, or `application/x-www-form-urlencoded`, as the page's button sends it.
async fn is_one_click(headers: &HeaderMap, body: Bytes) -> bool {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let Ok(boundary) = multer::parse_boundary(content_type) else {
        return form_urlencoded::parse(&body)
            .any(|(key, value)| key == ONE_CLICK.0 && value == ONE_CLICK.1);
    };
    let mut parts = multer::Multipart::new(Body::from(body).into_data_stream(), boundary);
    while let Ok(Some(part)) = parts.next_field().await {
        if part.name() == Some(ONE_CLICK.0) {
            return part.text().await.is_ok_and(|value| value == ONE_CLICK.1);
        }
    }
    false
}

/// The address of the client that sent the request: the peer, or what a trusted proxy in
/// front of the service says it is.
#[derive(Debug, Clone, Copy)]
pub struct Client(pub IpAddr);

impl FromRequestParts<AppState> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        Ok(Client(client_ip(
            peer,
            &parts.headers,
            &state.shared.config.trusted_proxies,
        )))
    }
}

/// `GET /healthz`: the process answers.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "ok": true }))
}

/// `GET /readyz`: the outbox can be written (the folder, or the database answers) and, when
/// configured, the SMTP server answers.
pub async fn readyz(State(state): State<AppState>) -> Response {
    let outbox = state.shared.outbox.check_writable().await;
    let smtp = if state.shared.mailer.is_smtp() {
        Some(state.shared.mailer.check().await)
    } else {
        None
    };
    if let Err(error) = &outbox {
        tracing::warn!("not ready: {error:#}");
    }
    if let Some(Err(error)) = &smtp {
        tracing::warn!("not ready: {error:#}");
    }
    let ready = outbox.is_ok() && smtp.as_ref().is_none_or(Result::is_ok);
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    // An unreachable database would make the count wait as long again.
    let queued = if outbox.is_ok() || state.shared.database.is_none() {
        state.shared.outbox.len().await.ok()
    } else {
        None
    };
    let body = json!({
        "ready": ready,
        "outbox": if outbox.is_ok() { "writable" } else { "not writable" },
        "database": match (&state.shared.database, &outbox) {
            (None, _) => "not configured",
            (Some(_), Ok(())) => "reachable",
            (Some(_), Err(_)) => "unreachable",
        },
        "smtp": match smtp {
            None => "not configured",
            Some(Ok(())) => "reachable",
            Some(Err(_)) => "unreachable",
        },
        "queued": queued,
    });
    (status, Json(body)).into_response()
}

/// Answers a submission: JSON for scripts, a redirect for plain form posts. This is where an
/// error becomes an answer, so this is where it is logged.
async fn submit(state: AppState, sent: Sent, headers: HeaderMap, body: Body) -> Response {
    let kind = sent.kind;
    let posted = Posted::of(&headers);
    let newsletter = &state.shared.newsletter;
    // A language the site does not have is refused, but the refusal is still a page: the
    // default language's.
    let named = newsletter.languages().of_query(sent.query.as_deref());
    let language = named
        .as_ref()
        .map_or(newsletter.languages().default(), |l| *l);
    let result = match named {
        Ok(language) => accept(&state, &sent, language, posted, &headers, body).await,
        Err(fields) => Err(AppError::Invalid(fields)),
    };
    match &result {
        Ok(Accepted::Stored(_)) => telemetry::accepted(kind),
        Ok(Accepted::Dropped(_)) => telemetry::rejected(kind, "honeypot"),
        Err(error) => {
            error.log();
            telemetry::rejected(kind, error.reason());
        }
    }
    let result = result.map(Accepted::id);
    let config = &state.shared.config;
    let redirect = posted.is_some_and(|posted| posted.answered_by_redirect(&headers));
    match (redirect, result) {
        (true, Ok(_)) if kind == FormKind::Newsletter => {
            see_other(&newsletter.page(NewsletterPage::Pending, language))
        }
        (true, Err(_)) if kind == FormKind::Newsletter => {
            see_other(&newsletter.page(NewsletterPage::Failed, language))
        }
        (true, Ok(_)) => see_other(&config.success_page(language)),
        (true, Err(_)) => see_other(&config.failure_page(language)),
        (false, Ok(id)) => Json(json!({ "ok": true, "id": id })).into_response(),
        (false, Err(error)) => error.into_response(),
    }
}

/// How a submission's body is sent.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Posted {
    /// Read whole, then decoded.
    Whole(Encoding),
    /// `multipart/form-data`, read as a stream.
    Multipart,
}

impl Posted {
    /// The kind of body the request's `Content-Type` names, if it is one the service reads.
    pub(crate) fn of(headers: &HeaderMap) -> Option<Posted> {
        if let Some(encoding) = Encoding::of(headers) {
            return Some(Posted::Whole(encoding));
        }
        let essence = content_type(headers).split(';').next()?.trim();
        essence
            .eq_ignore_ascii_case("multipart/form-data")
            .then_some(Posted::Multipart)
    }

    /// Whether the answer is a redirect to the site's pages (a form a browser sent without
    /// JavaScript) rather than JSON: always for a url-encoded form, and for a multipart one
    /// when the client asks for HTML, as a browser's navigation does (a script's request
    /// does not, so it gets JSON).
    fn answered_by_redirect(self, headers: &HeaderMap) -> bool {
        match self {
            Posted::Whole(encoding) => encoding == Encoding::Form,
            Posted::Multipart => headers
                .get(header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|accept| accept.contains("text/html")),
        }
    }
}

fn content_type(headers: &HeaderMap) -> &str {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// The limits of a multipart body besides the contract's file limits: its text fields
/// together as large as a whole url-encoded body may be.
fn upload_limits(max_field_bytes: usize) -> upload::Limits {
    upload::Limits {
        max_parts: upload::MAX_PARTS,
        max_header_bytes: upload::MAX_HEADER_BYTES,
        max_field_bytes,
    }
}

/// The answer to an upload that was not read, counted when it refused a file.
fn upload_error(error: UploadError) -> AppError {
    if let Some(reason) = error.attachment_reason() {
        telemetry::attachment_refused(reason);
    }
    match error {
        UploadError::TooLarge { message, code, .. } => {
            let fields = code.map(|code| {
                let error = form_contract::FieldError {
                    code,
                    message: message.clone(),
                };
                FieldErrors([(form_contract::ATTACHMENTS.name.to_owned(), error)].into())
            });
            AppError::LimitPassed { message, fields }
        }
        UploadError::Refused { field, error } => {
            AppError::Invalid(FieldErrors([(field, error)].into()))
        }
        UploadError::Malformed(message) => {
            AppError::BadRequest(format!("The multipart body could not be read: {message}"))
        }
        UploadError::Io(cause) => AppError::Unavailable(cause),
    }
}

/// Reads a submission's body, sent as `posted` with the content type `content_type`, into
/// its fields and (a multipart body's) files, within `config`'s limits and times: what every
/// form route runs once the request's headers are accepted, and what the fuzz targets run.
pub(crate) async fn read_submission(
    config: &Config,
    kind: FormKind,
    posted: Posted,
    content_type: &str,
    body: Body,
) -> Result<(RawFields, Vec<Spooled>), AppError> {
    match posted {
        Posted::Whole(encoding) => {
            let body = read_body(body, config.max_body_bytes, config.body_timeout).await?;
            let raw = submission::decode(encoding, &body)
                .map_err(|e| AppError::BadRequest(e.to_string()))?;
            Ok((raw, Vec::new()))
        }
        Posted::Multipart => {
            let boundary = upload::boundary(content_type).map_err(upload_error)?;
            let files_allowed = kind == FormKind::Contact;
            let spool = config.spool_dir();
            let read = upload::read(
                body.into_data_stream(),
                boundary,
                upload_limits(config.max_body_bytes),
                &spool,
                files_allowed,
            );
            let upload = tokio::time::timeout(config.upload_timeout, read)
                .await
                .map_err(|_| AppError::Timeout)?
                .map_err(upload_error)?;
            Ok((upload.fields, upload.files))
        }
    }
}

fn see_other(location: &HeaderValue) -> Response {
    (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, location.clone())],
    )
        .into_response()
}

/// What became of a submission that is answered as a success.
enum Accepted {
    /// Stored under this id (or, for the newsletter, its opt-in started).
    Stored(String),
    /// The honeypot was filled: answered with this fresh id, nothing stored.
    Dropped(String),
}

impl Accepted {
    fn id(self) -> String {
        match self {
            Accepted::Stored(id) | Accepted::Dropped(id) => id,
        }
    }
}

/// Translates the request into an intake: checks what HTTP carries (rate, type, size, key),
/// reads and validates the body, then stores the submission.
async fn accept(
    state: &AppState,
    sent: &Sent,
    language: &'static Language,
    posted: Option<Posted>,
    headers: &HeaderMap,
    body: Body,
) -> Result<Accepted, AppError> {
    let Sent {
        kind,
        client: Client(client),
        ref request,
        ..
    } = *sent;
    let shared = &state.shared;
    let config = &shared.config;
    shared
        .limiter
        .check(client)
        .map_err(AppError::RateLimited)?;

    let posted = posted.ok_or(AppError::UnsupportedMediaType)?;
    let key = idempotency::key(headers).map_err(AppError::BadRequest)?;
    let max_body = match posted {
        Posted::Whole(_) => config.max_body_bytes as u64,
        Posted::Multipart => upload_limits(config.max_body_bytes).max_body_bytes(),
    };
    let declared_length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared_length.is_some_and(|n| n > max_body) {
        return Err(AppError::TooLarge(
            usize::try_from(max_body).unwrap_or(usize::MAX),
        ));
    }

    // The body arrives before a processing turn is taken, so slow senders hold only their
    // own connections; how many bodies one client may be sending at once is bounded.
    let (mut raw, files) = {
        let _turn = shared
            .bodies
            .enter(client)
            .ok_or(AppError::RateLimited(config.body_timeout))?;
        read_submission(config, kind, posted, content_type(headers), body).await?
    };
    let _permit = turn(&shared.permits, config.busy_timeout).await?;

    let solution = raw.remove(form_contract::ALTCHA);
    let mut submission = match submission::validate(kind, raw).map_err(AppError::Invalid)? {
        Verdict::Accepted(submission) => *submission,
        Verdict::Spam => {
            tracing::info!(kind = kind.as_str(), %client, "honeypot filled; submission dropped");
            return Ok(Accepted::Dropped(Uuid::now_v7().to_string()));
        }
    };
    if let Submission::Contact(message) = &mut submission {
        message.attachments = files.iter().map(|f| f.attachment.clone()).collect();
    }
    // Storing runs as its own task, so a client that goes away mid-way cannot leave a
    // message half-registered: once started, it is stored and scheduled completely.
    let state = state.clone();
    let request = request.0.clone();
    let stored = tokio::spawn(
        async move {
            match submission {
                // The same answer whatever the address's state: a fresh id, never a stored one.
                Submission::Newsletter(subscription) => {
                    let optin = state.shared.optin();
                    newsletter::subscribe(optin, &subscription.email, kind, language)
                        .await
                        .map(|()| Uuid::now_v7().to_string())
                }
                submission => {
                    let verified = proof_of_work(&state, solution).await;
                    let files: Vec<Spooled> = files;
                    intake::store(
                        state.shared.intake(),
                        submission,
                        key,
                        &request,
                        verified,
                        files,
                        language,
                    )
                    .await
                }
            }
        }
        // The request's span (its id) goes along into the task's log lines.
        .instrument(tracing::Span::current()),
    )
    .await
    .map_err(|e| AppError::Internal(e.into()))?;
    Ok(Accepted::Stored(stored?))
}

/// Whether the submission passes the proof of work: always when none is asked for; else when
/// its `altcha` field is a valid solution not spent before (spending it now). A store that
/// cannot tell counts as not verified: the message is labelled, not lost.
async fn proof_of_work(state: &AppState, solution: Option<RawValue>) -> bool {
    let Some(altcha) = &state.shared.altcha else {
        return true;
    };
    let Some(RawValue::Text(solution)) = solution else {
        return false;
    };
    let challenges = state.shared.challenges.as_ref();
    match altcha.verify(&solution, challenges, now_ms()).await {
        Ok(verified) => verified,
        Err(error) => {
            tracing::warn!("the proof of work could not be checked: {error:#}");
            false
        }
    }
}

/// `GET /challenge`: a proof-of-work challenge for the form to solve (404 when none is
/// asked for).
pub async fn challenge(State(state): State<AppState>) -> Response {
    let Some(altcha) = &state.shared.altcha else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match altcha.challenge(now_ms()) {
        Ok(challenge) => ([(header::CACHE_CONTROL, "no-store")], Json(challenge)).into_response(),
        Err(error) => AppError::Internal(error).into_response(),
    }
}

/// A processing turn, waited for at most `wait`: a full service answers quickly.
async fn turn(
    permits: &Semaphore,
    wait: std::time::Duration,
) -> Result<SemaphorePermit<'_>, AppError> {
    match tokio::time::timeout(wait, permits.acquire()).await {
        Ok(permit) => permit.map_err(|e| AppError::Internal(e.into())),
        Err(_) => Err(AppError::Busy),
    }
}

async fn read_body(
    body: Body,
    limit: usize,
    timeout: std::time::Duration,
) -> Result<Bytes, AppError> {
    let collected = tokio::time::timeout(timeout, Limited::new(body, limit).collect())
        .await
        .map_err(|_| AppError::Timeout)?;
    match collected {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
            Err(AppError::TooLarge(limit))
        }
        Err(error) => Err(AppError::BadRequest(format!(
            "The request body could not be read: {error}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_service_answers_busy_instead_of_queueing_for_ever() {
        let permits = Semaphore::new(1);
        let held = turn(&permits, std::time::Duration::from_millis(1))
            .await
            .expect("a free turn");
        let waited = turn(&permits, std::time::Duration::from_millis(1)).await;
        assert!(matches!(waited, Err(AppError::Busy)), "{waited:?}");
        drop(held);
        assert!(
            turn(&permits, std::time::Duration::from_millis(1))
                .await
                .is_ok()
        );
    }
}
