//! The store layer: what the service keeps, and the two backends that keep it.
//!
//! This module holds what every store keeps and answers: the outbox's records and what taking
//! or storing one can end in, what an idempotency key has seen, how deep the outbox is, and
//! what the newsletter needs of a store ([`subscribers`], with its behaviour suite). Each
//! backend implements all of it in its own folder: [`files`] (the data folder, the embedded
//! default) and [`postgres`] (tables shared by every replica). The domain modules above
//! (`outbox`, `idempotency`, `newsletter`) use them; nothing here imports them back.

pub mod files;
pub mod postgres;
pub mod subscribers;

use std::future::Future;
use std::pin::Pin;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::attachment::Attachment;
use crate::submission::FormKind;

/// What a store's methods return: a future that may be held across threads.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

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
    /// The webhooks to notify of a new email: posted when the email is taken for delivery,
    /// beside it, and stored as records of their own only when they fail (so a message costs
    /// one write however many receivers there are). `None` once they were posted or split off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notifications: Option<Notifications>,
    /// The files sent with the message, in order. The store keeps their bytes under the
    /// message's id ([`OutboxStore::attachment`]) until it is delivered or purged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    /// Where the bytes of [`Record::attachments`] wait (the upload spool) until
    /// [`OutboxStore::enqueue`] stores them with the record; never serialised.
    #[serde(skip)]
    pub spooled: Vec<PathBuf>,
}

impl Record {
    /// A new email with id `id`, due at `now_ms`: `message` as formatted for sending, and its
    /// envelope.
    pub fn email(
        id: String,
        kind: FormKind,
        now_ms: u64,
        (from, to): (String, Vec<String>),
        message: Vec<u8>,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            id,
            kind,
            created_ms: now_ms,
            attempts: 0,
            next_attempt_ms: now_ms,
            last_error: None,
            envelope_from: from,
            envelope_to: to,
            message: String::from_utf8(message)
                .map_err(|_| anyhow::anyhow!("the formatted email is not UTF-8"))?,
            webhook: None,
            notifications: None,
            attachments: Vec::new(),
            spooled: Vec::new(),
        })
    }

    /// The bytes of the message's files together.
    pub fn attachment_bytes(&self) -> u64 {
        self.attachments.iter().map(|a| a.size).sum()
    }
}

/// The webhook notifications an email carries until it is taken for delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Notifications {
    /// The URLs posted to, each with the email's id as its `webhook-id`.
    pub urls: Vec<String>,
    /// The request body, the same for every URL.
    pub body: String,
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

/// The piece of a message's file that is stored (a row of PostgreSQL's `attachment_chunks`)
/// and read back at a time.
pub const CHUNK_BYTES: usize = 256 * 1024;

/// What the service needs of a store for its outbox and dead letters. Each method is one step
/// of a message's life; every backend passes the same behaviour suite (`tests/it/store.rs`).
pub trait OutboxStore: std::fmt::Debug + Send + Sync {
    /// Messages waiting (including those being delivered right now).
    fn len(&self) -> BoxFuture<'_, anyhow::Result<usize>>;
    /// Whether a message with this id waits.
    fn contains<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<bool>>;
    /// Stores a new message durably, with the bytes of its files from [`Record::spooled`]; one
    /// whose id already waits is not written again (nor are its files).
    fn enqueue(&self, record: Record) -> BoxFuture<'_, Result<(), EnqueueError>>;
    /// Stores a message and remembers its Idempotency-Key in one transaction, when the backend
    /// can (a key already remembered stores nothing and says whether the submission is the
    /// same); `None` when it cannot, and then the caller stores one after the other.
    fn enqueue_keyed<'a>(
        &'a self,
        record: Record,
        fingerprint: &'a str,
        oldest_ms: u64,
    ) -> BoxFuture<'a, Result<Option<Seen>, EnqueueError>>;
    /// Takes a message whose time has come, for this worker alone, until it is delivered,
    /// retried later or buried.
    fn take_due(&self, now_ms: u64) -> BoxFuture<'_, anyhow::Result<Option<Taken>>>;
    /// Time of the next attempt due, in ms since the Unix epoch.
    fn next_due(&self) -> BoxFuture<'_, anyhow::Result<Option<u64>>>;
    /// The chunk `n` (its bytes from `n * CHUNK_BYTES`, at most [`CHUNK_BYTES`]) of the file
    /// `index` (of [`Record::attachments`]) of message `id`, waiting or dead; `None` past its
    /// end. Chunk 0 of an empty file is empty. Delivery reads a file a chunk at a time, so that
    /// what it holds of a file is one chunk, whatever the file's size.
    fn attachment_chunk<'a>(
        &'a self,
        id: &'a str,
        index: usize,
        n: u32,
    ) -> BoxFuture<'a, anyhow::Result<Option<Vec<u8>>>>;
    /// Forgets a delivered message, and its files.
    fn delivered<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<()>>;
    /// Stores the new state of a message that failed for now.
    fn retry_later(&self, record: Record) -> BoxFuture<'_, anyhow::Result<()>>;
    /// Gives up this process's claims (leases) after its deliveries ended.
    fn release_claims(&self) -> BoxFuture<'_, anyhow::Result<()>>;
    /// Moves a message to the dead letters, with its reason.
    fn bury(&self, record: Record) -> BoxFuture<'_, anyhow::Result<()>>;
    /// Moves what cannot be read as a message to the dead letters, unchanged.
    fn bury_unreadable<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<()>>;
    /// The dead letter stored under `id`, if any.
    fn dead_letter<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<Option<Record>>>;
    /// Messages waiting, the oldest one's acceptance time, dead letters kept.
    fn depth(&self) -> BoxFuture<'_, anyhow::Result<Depth>>;
    /// Checks that a message could be stored now.
    fn check_writable(&self) -> BoxFuture<'_, anyhow::Result<()>>;
    /// Where dead letters are kept, for the logs.
    fn dead_letters_place(&self) -> String;
    /// Every message waiting (unreadable ones left out), oldest first.
    fn waiting(&self) -> BoxFuture<'_, anyhow::Result<Vec<Record>>>;
    /// Every dead letter (unreadable ones left out), oldest first.
    fn dead(&self) -> BoxFuture<'_, anyhow::Result<Vec<Record>>>;
    /// Moves the dead letter `id` back into the outbox, due at `now_ms` with no failed attempt
    /// and a fresh give-up age; `false` when there is none.
    fn revive<'a>(&'a self, id: &'a str, now_ms: u64) -> BoxFuture<'a, anyhow::Result<bool>>;
    /// Deletes the dead letter `id` and its files for good; `false` when there is none.
    fn purge<'a>(&'a self, id: &'a str) -> BoxFuture<'a, anyhow::Result<bool>>;
}

/// `record`, moved back from the dead letters: due at `now_ms`, no failed attempt, and the
/// give-up age counted from now (its email keeps its Date and Message-ID).
pub fn revived(mut record: Record, now_ms: u64) -> Record {
    record.attempts = 0;
    record.created_ms = now_ms;
    record.next_attempt_ms = now_ms;
    record
}

/// What the service needs of a store for its Idempotency-Key records.
pub trait KeyStore: std::fmt::Debug + Send + Sync {
    /// The fingerprint remembered under `id`, unless created before `oldest_ms`.
    fn fingerprint<'a>(
        &'a self,
        id: &'a str,
        oldest_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<Option<String>>>;
    /// Remembers `fingerprint` under `id` durably (replacing one older than `oldest_ms`).
    fn remember<'a>(
        &'a self,
        id: &'a str,
        fingerprint: String,
        oldest_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<()>>;
    /// Forgets the records created before `oldest_ms`.
    fn prune(&self, oldest_ms: u64) -> BoxFuture<'_, anyhow::Result<()>>;
}

/// What the service needs of a store for proof-of-work challenges: to spend each once.
pub trait ChallengeStore: std::fmt::Debug + Send + Sync {
    /// Records `challenge` as solved until `expires_ms`; `false` when it was solved before.
    fn spend<'a>(
        &'a self,
        challenge: &'a str,
        expires_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<bool>>;
    /// Forgets the challenges expired by `now_ms`.
    fn prune(&self, now_ms: u64) -> BoxFuture<'_, anyhow::Result<()>>;
}

/// What the service needs of a store for its auto-replies: at most one to an address a day,
/// whichever replica answers.
pub trait AutoReplyStore: std::fmt::Debug + Send + Sync {
    /// Records a reply to the address whose key is `address_key` (hex, as
    /// [`auto_reply_key`] makes it) on `day` (days since the Unix epoch, UTC); `false` when
    /// one was recorded for that address and day before.
    fn claim<'a>(&'a self, address_key: &'a str, day: u64) -> BoxFuture<'a, anyhow::Result<bool>>;
    /// Forgets the days before `day`.
    fn prune(&self, day: u64) -> BoxFuture<'_, anyhow::Result<()>>;
}

/// The key an address is recorded under for its auto-replies: the hex SHA-256 of the address
/// in lower case, so the store keeps no address and a file name is safe.
pub fn auto_reply_key(address: &str) -> String {
    crate::hex::hex(
        ring::digest::digest(&ring::digest::SHA256, address.to_lowercase().as_bytes()).as_ref(),
    )
}
