//! The one error type of the request handlers and the answer each kind gets.
//!
//! Client mistakes are answered precisely; internal failures are answered with a generic
//! message. Turning an error into an answer logs nothing: the code that produces or decides an
//! error logs it ([`AppError::log`]).

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use form_contract::ErrorBody;

use crate::outcome::IntakeError;
use crate::submission::FieldErrors;

/// Everything a submission can end in, other than success.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The body or a header cannot be read (400).
    #[error("{0}")]
    BadRequest(String),
    /// The client took too long to send the body (408).
    #[error("The request took too long to arrive.")]
    Timeout,
    /// The Idempotency-Key was used for another submission (409).
    #[error("This Idempotency-Key was already used for a different submission.")]
    IdempotencyConflict,
    /// The body is larger than allowed (413).
    #[error("The request body is larger than {0} bytes.")]
    TooLarge(usize),
    /// A limit of a multipart body was passed (413): the message names it; with a file limit,
    /// the field's code for the form to show.
    #[error("{message}")]
    LimitPassed {
        /// Which limit, in words.
        message: String,
        /// With a file limit: the error of the file field.
        fields: Option<FieldErrors>,
    },
    /// Neither JSON nor a form post (415).
    #[error(
        "Send the form as application/json, application/x-www-form-urlencoded or multipart/form-data."
    )]
    UnsupportedMediaType,
    /// Fields need correcting (422).
    #[error("Some fields need attention.")]
    Invalid(FieldErrors),
    /// Too many submissions from this client; try again after the wait (429).
    #[error("Too many submissions; please try again in {} seconds.", retry_after_secs(*.0))]
    RateLimited(Duration),
    /// Every processing turn stayed taken for the busy timeout; try again shortly (503).
    #[error("The service is busy; please try again in a moment.")]
    Busy,
    /// The message could not be stored (503).
    #[error("The message could not be stored right now; please try again later.")]
    Unavailable(#[source] anyhow::Error),
    /// Anything else (500).
    #[error("Something went wrong on our side; please try again later.")]
    Internal(#[source] anyhow::Error),
}

fn retry_after_secs(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

impl AppError {
    /// The HTTP status of this answer.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Timeout => StatusCode::REQUEST_TIMEOUT,
            AppError::IdempotencyConflict => StatusCode::CONFLICT,
            AppError::TooLarge(_) | AppError::LimitPassed { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Busy | AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The reason in the metrics: short, stable, one per kind.
    pub fn reason(&self) -> &'static str {
        match self {
            AppError::BadRequest(_) => "bad_request",
            AppError::Timeout => "timeout",
            AppError::IdempotencyConflict => "idempotency_conflict",
            AppError::TooLarge(_) | AppError::LimitPassed { .. } => "too_large",
            AppError::UnsupportedMediaType => "unsupported_media_type",
            AppError::Invalid(_) => "invalid",
            AppError::RateLimited(_) => "rate_limited",
            AppError::Busy => "busy",
            AppError::Unavailable(_) => "unavailable",
            AppError::Internal(_) => "internal",
        }
    }

    /// Logs what the client is not told.
    pub fn log(&self) {
        match self {
            AppError::Unavailable(cause) => tracing::error!("answered 503: {cause:#}"),
            AppError::Internal(cause) => tracing::error!("answered 500: {cause:#}"),
            other => tracing::debug!("answered {}: {other}", other.status()),
        }
    }
}

impl From<IntakeError> for AppError {
    fn from(error: IntakeError) -> Self {
        match error {
            IntakeError::IdempotencyConflict => AppError::IdempotencyConflict,
            IntakeError::Unavailable(cause) => AppError::Unavailable(cause),
            IntakeError::Internal(cause) => AppError::Internal(cause),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let error = self.to_string();
        let retry_after = match &self {
            AppError::RateLimited(wait) => Some(retry_after_secs(*wait)),
            AppError::Busy => Some(1),
            _ => None,
        };
        let fields = match self {
            AppError::Invalid(fields) => Some(fields.0),
            AppError::LimitPassed {
                fields: Some(fields),
                ..
            } => Some(fields.0),
            _ => None,
        };
        let mut response = (status, Json(ErrorBody { error, fields })).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}
