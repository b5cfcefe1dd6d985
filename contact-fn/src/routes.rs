//! The HTTP handlers: the two form endpoints and the health checks.
//!
//! A submission passes, in order: rate limit, content type, size, body read (with a time
//! limit), decoding, validation, idempotency check, durable storage. Only then is it
//! answered 200 (JSON) or 303 to the success page (plain form post).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use anyhow::{Context as _, anyhow};
use axum::Json;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt as _, LengthLimitError, Limited};
use serde_json::json;
use uuid::Uuid;

use crate::AppState;
use crate::durable::now_ms;
use crate::error::AppError;
use crate::idempotency::{self, Seen};
use crate::limits::client_ip;
use crate::outbox::{EnqueueError, Record};
use crate::submission::{self, Encoding, FormKind, Submission, Verdict};

/// `POST /send-contact-email`: the contact page form.
pub async fn send_contact_email(State(state): State<AppState>, request: Request) -> Response {
    submit(state, FormKind::Contact, request).await
}

/// `POST /send-enquiry`: the home page "Get in Touch" form.
pub async fn send_enquiry(State(state): State<AppState>, request: Request) -> Response {
    submit(state, FormKind::Enquiry, request).await
}

/// `GET /healthz`: the process answers.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "ok": true }))
}

/// `GET /readyz`: the outbox can be written and, when configured, the SMTP server answers.
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
    let body = json!({
        "ready": ready,
        "outbox": if outbox.is_ok() { "writable" } else { "not writable" },
        "smtp": match smtp {
            None => "not configured",
            Some(Ok(())) => "reachable",
            Some(Err(_)) => "unreachable",
        },
        "queued": state.shared.outbox.len(),
    });
    (status, Json(body)).into_response()
}

async fn submit(state: AppState, kind: FormKind, request: Request) -> Response {
    let encoding = Encoding::of(request.headers());
    let result = accept(&state, kind, encoding, request).await;
    let config = &state.shared.config;
    match (encoding, result) {
        (Some(Encoding::Form), Ok(_)) => see_other(&config.success_url),
        (Some(Encoding::Form), Err(error)) => {
            error.log();
            see_other(&config.failure_url)
        }
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

async fn accept(
    state: &AppState,
    kind: FormKind,
    encoding: Option<Encoding>,
    request: Request,
) -> Result<String, AppError> {
    let shared = &state.shared;
    let config = &shared.config;
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    let client = client_ip(peer, request.headers(), &config.trusted_proxies);
    shared
        .limiter
        .check(client)
        .map_err(AppError::RateLimited)?;

    let encoding = encoding.ok_or(AppError::UnsupportedMediaType)?;
    let key = idempotency::key(request.headers()).map_err(AppError::BadRequest)?;
    let declared_length = request
        .headers()
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
    let body = read_body(
        request.into_body(),
        config.max_body_bytes,
        config.body_timeout,
    )
    .await?;

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
    tokio::spawn(store(state.clone(), submission, key))
        .await
        .map_err(|e| AppError::Internal(e.into()))?
}

async fn read_body(
    body: Body,
    limit: usize,
    timeout: std::time::Duration,
) -> Result<axum::body::Bytes, AppError> {
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

async fn store(
    state: AppState,
    submission: Submission,
    key: Option<String>,
) -> Result<String, AppError> {
    let shared = &state.shared;
    let kind = submission.kind();
    let mut remembered = None;
    let mut _guard = None;
    let id = match key {
        Some(key) => {
            let id = idempotency::message_id(kind, &key);
            _guard = Some(shared.idempotency.lock(&id).await);
            let fingerprint = idempotency::fingerprint(&submission).map_err(AppError::Internal)?;
            match shared.idempotency.seen(&id, &fingerprint) {
                Seen::Same => {
                    tracing::info!(id, "repeated submission answered from its Idempotency-Key");
                    return Ok(id);
                }
                Seen::Different => return Err(AppError::IdempotencyConflict),
                Seen::New => remembered = Some(fingerprint),
            }
            id
        }
        None => Uuid::now_v7().to_string(),
    };

    let composer = &shared.composer;
    let message = composer
        .compose(&id, &submission)
        .map_err(AppError::Internal)?;
    let now = now_ms();
    let record = Record {
        id: id.clone(),
        kind,
        created_ms: now,
        attempts: 0,
        next_attempt_ms: now,
        last_error: None,
        envelope_from: composer.from().email.to_string(),
        envelope_to: vec![composer.to().email.to_string()],
        message: String::from_utf8(message.formatted())
            .context("the formatted email is not UTF-8")
            .map_err(AppError::Internal)?,
    };
    shared.outbox.enqueue(record).await.map_err(|e| match e {
        EnqueueError::Full { .. } => AppError::Unavailable(anyhow!(e)),
        EnqueueError::Io(cause) => AppError::Unavailable(cause),
    })?;
    if let Some(fingerprint) = remembered
        && let Err(error) = shared.idempotency.remember(&id, fingerprint).await
    {
        // The message is stored; only a retry of it could now produce a second email.
        tracing::warn!(
            id,
            "message stored, but its Idempotency-Key was not: {error:#}"
        );
    }
    tracing::info!(id, kind = kind.as_str(), "accepted");
    Ok(id)
}
