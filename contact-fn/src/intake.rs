//! Takes a validated submission to a stored outbox message: the idempotency check, the email,
//! the outbox record. Knows nothing of HTTP; the routes translate requests to it and back.

use anyhow::anyhow;
use uuid::Uuid;

use crate::auto_reply::AutoReplies;
use crate::durable::now_ms;
use crate::email::Composer;
use crate::idempotency::{self, IdempotencyStore};
use crate::language::Language;
use crate::newsletter::{self, Optin};
use crate::outbox::Outbox;
use crate::outcome::IntakeError;
use crate::store::{Notifications, Record, Seen};
use crate::submission::Submission;
use crate::upload::Spooled;
use crate::{spam, telemetry, webhook};

/// What storing a submission works with.
#[derive(Clone, Copy)]
pub(crate) struct Intake<'a> {
    /// Writes the email.
    pub composer: &'a Composer,
    /// Where the email and the notifications wait.
    pub outbox: &'a Outbox,
    /// The Idempotency-Key records.
    pub idempotency: &'a IdempotencyStore,
    /// The opt-in a ticked newsletter box starts.
    pub optin: Optin<'a>,
    /// The webhooks notified of each message, and their format.
    pub webhooks: (&'a [String], webhook::Format),
    /// The auto-reply to a verified sender, when asked for (`--auto-reply` with the proof of
    /// work: without it nothing is verified).
    pub auto_replies: Option<AutoReplies<'a>>,
}

/// Stores `submission` for delivery, with the bytes of its `files` (in the spool; those of
/// its attachments, in order), and returns its message id. With an idempotency `key`, a
/// repeat of a stored submission returns the first one's id and stores nothing, files
/// included (the spool files are removed when `files` is dropped). The visitor's emails (the
/// auto-reply, the newsletter's confirmation) are written in `language`, their form's.
pub(crate) async fn store(
    intake: Intake<'_>,
    submission: Submission,
    key: Option<String>,
    request_id: &str,
    verified: bool,
    files: Vec<Spooled>,
    language: &Language,
) -> Result<String, IntakeError> {
    let kind = submission.kind();
    let mut remembered = None;
    let mut _guard = None;
    let id = match key {
        Some(key) => {
            let id = idempotency::message_id(kind, &key);
            _guard = Some(intake.idempotency.lock(&id).await);
            let fingerprint =
                idempotency::fingerprint(&submission).map_err(IntakeError::Internal)?;
            let seen = intake.idempotency.seen(&id, &fingerprint).await;
            match seen.map_err(IntakeError::Unavailable)? {
                Seen::Same => {
                    tracing::info!(id, "repeated submission answered from its Idempotency-Key");
                    return Ok(id);
                }
                Seen::Different => return Err(IntakeError::IdempotencyConflict),
                Seen::New => remembered = Some(fingerprint),
            }
            id
        }
        None => Uuid::now_v7().to_string(),
    };

    let before = if verified {
        Vec::new()
    } else {
        vec![spam::Reason::NoProofOfWork]
    };
    let flags = spam::content_signals(&submission, before);
    let mut record = record(intake.composer, &id, &submission, request_id, &flags)
        .map_err(IntakeError::Internal)?;
    // The notifications travel with the email: one write stores both.
    record.notifications = notifications(intake, &id, &submission, &flags);
    if let Submission::Contact(message) = &submission {
        record.attachments = message.attachments.clone();
    }
    record.spooled = files.iter().map(|f| f.path.to_path_buf()).collect();
    match remembered {
        None => intake.outbox.enqueue(record).await?,
        Some(fingerprint) => {
            let stored = intake
                .idempotency
                .enqueue_remembering(intake.outbox, record, fingerprint)
                .await;
            // Another replica may have stored the same key in the meantime.
            match stored? {
                Seen::New => {}
                Seen::Same => {
                    tracing::info!(id, "repeated submission answered from its Idempotency-Key");
                    return Ok(id);
                }
                Seen::Different => return Err(IntakeError::IdempotencyConflict),
            }
        }
    }
    if !files.is_empty() {
        telemetry::attachments_accepted(files.len());
    }
    drop(files);
    if flags.is_empty() {
        tracing::info!(id, kind = kind.as_str(), "accepted");
    } else {
        let reasons: Vec<&str> = flags.iter().map(|r| r.as_str()).collect();
        tracing::info!(
            id,
            kind = kind.as_str(),
            ?reasons,
            "accepted, labelled as likely spam"
        );
        telemetry::flagged(kind, &flags);
    }
    if flags.is_empty()
        && let Some(auto_replies) = intake.auto_replies
    {
        match auto_replies
            .send(submission.email(), kind, now_ms(), language)
            .await
        {
            Ok(true) => tracing::info!(id, "auto-reply stored"),
            Ok(false) => tracing::info!(id, "no auto-reply: the address had one today"),
            Err(error) => tracing::warn!(id, "message stored, but no auto-reply: {error:#}"),
        }
    }
    // A ticked newsletter box starts the double opt-in for the visitor's address; the
    // enquiry is stored whatever comes of it.
    if let Submission::Enquiry(enquiry) = &submission
        && enquiry.newsletter
        && let Err(error) =
            newsletter::subscribe(intake.optin, &enquiry.email, kind, language).await
    {
        tracing::warn!(
            id,
            "enquiry stored, but its newsletter subscription was not started: {:#}",
            anyhow!(error)
        );
    }
    Ok(id)
}

/// The webhook notifications of message `id`; none (logged) if they cannot be made.
fn notifications(
    intake: Intake<'_>,
    id: &str,
    submission: &Submission,
    flags: &[spam::Reason],
) -> Option<Notifications> {
    let (urls, format) = intake.webhooks;
    webhook::notifications(urls, format, id, submission, flags, now_ms()).unwrap_or_else(|error| {
        tracing::error!(id, "no webhook notification: {error:#}");
        None
    })
}

/// The outbox record of a new message: the composed email and its envelope, due now.
fn record(
    composer: &Composer,
    id: &str,
    submission: &Submission,
    request_id: &str,
    flags: &[spam::Reason],
) -> anyhow::Result<Record> {
    let message = composer.compose(id, submission, request_id, flags)?;
    Record::email(
        id.to_owned(),
        submission.kind(),
        now_ms(),
        (
            composer.from().email.to_string(),
            vec![composer.to().email.to_string()],
        ),
        message.formatted(),
    )
}
