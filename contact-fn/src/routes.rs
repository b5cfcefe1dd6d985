//! The HTTP handlers: the two form endpoints and the health checks.
//!
//! A submission passes, in order: rate limit, content type, size, body read (with a time
//! limit), decoding, validation, then the [`intake`] (idempotency check, durable storage).
//! Only then is it answered 200 (JSON) or 303 to the success page (plain form post).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt as _, LengthLimitError, Limited};
use serde_json::json;
use uuid::Uuid;

use crate::AppState;
use crate::error::AppError;
use crate::idempotency;
use crate::intake;
use crate::limits::client_ip;
use crate::submission::{self, Encoding, FormKind, Verdict};

/// `POST` to the contact page form's path ([`FormKind::path`]).
pub async fn send_contact_email(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: Body,
) -> Response {
    submit(state, FormKind::Contact, client, headers, body).await
}

/// `POST` to the home page "Get in Touch" form's path ([`FormKind::path`]).
pub async fn send_enquiry(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: Body,
) -> Response {
    submit(state, FormKind::Enquiry, client, headers, body).await
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
async fn submit(
    state: AppState,
    kind: FormKind,
    client: Client,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let encoding = Encoding::of(&headers);
    let result = accept(&state, kind, client, encoding, &headers, body).await;
    if let Err(error) = &result {
        error.log();
    }
    let config = &state.shared.config;
    match (encoding, result) {
        (Some(Encoding::Form), Ok(_)) => see_other(&config.success_url),
        (Some(Encoding::Form), Err(_)) => see_other(&config.failure_url),
        (_, Ok(id)) => Json(json!({ "ok": true, "id": id })).into_response(),
        (_, Err(error)) => error.into_response(),
    }
}

fn see_other(location: &HeaderValue) -> Response {
    (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, location.clone())],
    )
        .into_response()
}

/// Translates the request into an intake: checks what HTTP carries (rate, type, size, key),
/// reads and validates the body, then stores the submission. Returns the message id.
async fn accept(
    state: &AppState,
    kind: FormKind,
    Client(client): Client,
    encoding: Option<Encoding>,
    headers: &HeaderMap,
    body: Body,
) -> Result<String, AppError> {
    let shared = &state.shared;
    let config = &shared.config;
    shared
        .limiter
        .check(client)
        .map_err(AppError::RateLimited)?;

    let encoding = encoding.ok_or(AppError::UnsupportedMediaType)?;
    let key = idempotency::key(headers).map_err(AppError::BadRequest)?;
    let declared_length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared_length.is_some_and(|n| n > config.max_body_bytes as u64) {
        return Err(AppError::TooLarge(config.max_body_bytes));
    }

    let _permit = shared
        .permits
        .acquire()
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let body = read_body(body, config.max_body_bytes, config.body_timeout).await?;

    let raw =
        submission::decode(encoding, &body).map_err(|e| AppError::BadRequest(e.to_string()))?;
    let submission = match submission::validate(kind, raw).map_err(AppError::Invalid)? {
        Verdict::Accepted(submission) => *submission,
        Verdict::Spam => {
            tracing::info!(kind = kind.as_str(), %client, "honeypot filled; submission dropped");
            return Ok(Uuid::now_v7().to_string());
        }
    };
    // Storing runs as its own task, so a client that goes away mid-way cannot leave a
    // message half-registered: once started, it is stored and scheduled completely.
    let state = state.clone();
    let stored = tokio::spawn(async move { intake::store(&state.shared, submission, key).await })
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(stored?)
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
