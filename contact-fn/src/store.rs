//! What every store keeps and answers, below the domain and the backends alike: the outbox's
//! records and what taking or storing one can end in, what an idempotency key has seen, and
//! how deep the outbox is. The files and PostgreSQL backends and the domain modules above them
//! all speak in these types; none of them is imported back here.

use serde::{Deserialize, Serialize};

use crate::submission::FormKind;

/// One queued email and its delivery state, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Record {
    /// Message id: the file name, the Message-ID's left part and the id answered to the client.
    pub id: String,
    /// Form the message came from.
    pub kind: FormKind,
    /// When it was accepted, in ms since the Unix epoch.
    pub created_ms: u64,
    /// Failed delivery attempts so far.
    pub attempts: u32,
    /// Earliest time of the next attempt, in ms since the Unix epoch.
    pub next_attempt_ms: u64,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// SMTP envelope sender.
    pub envelope_from: String,
    /// SMTP envelope recipients.
    pub envelope_to: Vec<String>,
    /// The complete RFC 5322 message (ASCII: headers and bodies are transfer-encoded); for a
    /// webhook, the request body.
    pub message: String,
    /// Where a webhook notification goes; `None` for an email.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookTarget>,
}

/// The receiver of a webhook notification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WebhookTarget {
    /// The URL posted to.
    pub url: String,
    /// The `webhook-id`: the id of the message it notifies of.
    pub event_id: String,
}

/// Why a delivery (an email or a webhook) failed.
#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    /// Worth trying again later.
    #[error("{0}")]
    Transient(String),
    /// Will never succeed.
    #[error("{0}")]
    Permanent(String),
}

/// Why a message was not stored.
#[derive(Debug, thiserror::Error)]
pub enum EnqueueError {
    /// The quota of messages or bytes is used up.
    #[error("the outbox is full ({count} messages, {bytes} bytes)")]
    Full {
        /// Messages waiting.
        count: u64,
        /// Bytes waiting.
        bytes: u64,
    },
    /// The disk or the database refused the write.
    #[error("writing to the outbox")]
    Io(#[source] anyhow::Error),
}

/// A message the worker took for delivery.
#[derive(Debug)]
pub enum Taken {
    /// A message to deliver.
    Message(Box<Record>),
    /// Something stored under `id` that cannot be read as a message.
    Unreadable {
        /// Its id.
        id: String,
        /// Why it cannot be read.
        error: anyhow::Error,
    },
}

/// What a key has seen before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Nothing: process the submission.
    New,
    /// The same submission: answer as before.
    Same,
    /// A different submission under the same key.
    Different,
}

impl Seen {
    /// What a remembered `fingerprint` (if any, and not expired) says of `fingerprint`.
    pub fn of(remembered: Option<&str>, fingerprint: &str) -> Self {
        match remembered {
            None => Seen::New,
            Some(remembered) if remembered == fingerprint => Seen::Same,
            Some(_) => Seen::Different,
        }
    }
}

/// What the store says of the outbox, for the gauges.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Depth {
    /// Messages waiting.
    pub queued: u64,
    /// When the oldest waiting message was accepted, in ms since the Unix epoch.
    pub oldest_created_ms: Option<u64>,
    /// Dead letters kept.
    pub dead: u64,
}
