//! Why the domain did not store a submission: the one error of the intake and the newsletter's
//! opt-in, which the HTTP layer turns into answers (`AppError`).

use anyhow::anyhow;

use crate::store::EnqueueError;
use crate::store::subscribers::StoreError;

/// Why a submission was not stored.
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    /// The Idempotency-Key was used for another submission.
    #[error("the Idempotency-Key was already used for a different submission")]
    IdempotencyConflict,
    /// The outbox is full or cannot be written, or the idempotency records cannot be read.
    #[error("the message could not be stored")]
    Unavailable(#[source] anyhow::Error),
    /// Anything else.
    #[error("the message could not be prepared")]
    Internal(#[source] anyhow::Error),
}

impl From<EnqueueError> for IntakeError {
    fn from(error: EnqueueError) -> Self {
        match error {
            EnqueueError::Full { .. } => IntakeError::Unavailable(anyhow!(error)),
            EnqueueError::Io(cause) => IntakeError::Unavailable(cause),
        }
    }
}

impl From<StoreError> for IntakeError {
    fn from(error: StoreError) -> Self {
        IntakeError::Unavailable(anyhow!(error))
    }
}
