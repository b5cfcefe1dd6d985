//! The newsletter's subscribers: who asked, who confirmed, who left, and how many
//! confirmation emails each address was sent.
//!
//! [`SubscriberStore`] is what the service needs of a store; [`FileStore`] keeps one file per
//! address in the data folder, [`PgSubscriberStore`] a row per address in PostgreSQL. Every
//! store runs through the same behaviour suite (`suite.rs`).

#[doc(hidden)]
pub mod suite;

use std::fmt::Debug;
use std::time::Duration;

use form_contract::FormKind;
use serde::{Deserialize, Serialize};

pub use super::BoxFuture;

/// One address and what the store knows of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Entry {
    /// The address, normalised ([`normalise`]).
    pub address: String,
    /// Where it stands.
    pub status: Status,
    /// When confirmation emails were sent to it in the last 24 hours, in ms since the epoch.
    #[serde(default)]
    pub sends_ms: Vec<u64>,
}

/// Where an address stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "state"
)]
pub enum Status {
    /// Asked to subscribe, not confirmed yet.
    Pending {
        /// The latest request.
        requested_ms: u64,
    },
    /// Confirmed by the address owner.
    Confirmed(Subscriber),
    /// Left (or never confirmed after leaving): kept so that nothing adds it again by mistake;
    /// only a confirmation link sent after this time subscribes it again.
    Unsubscribed {
        /// When it left.
        unsubscribed_ms: u64,
    },
}

/// A confirmed subscription, as recorded and exported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscriber {
    /// The address (in an entry's status, the same as the entry's).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub address: String,
    /// When the owner followed the confirmation link, in ms since the epoch.
    pub confirmed_ms: u64,
    /// The form the subscription started from.
    pub source: FormKind,
    /// The version of the consent text the subscriber was shown.
    pub consent_version: String,
    /// The consent text itself.
    pub consent_text: String,
}

/// The per-address limit of confirmation emails, whoever asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SendLimits {
    /// Least time between two emails.
    pub resend_after: Duration,
    /// Most emails in 24 hours.
    pub per_day: u32,
}

/// What to do about a request to subscribe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requested {
    /// Send a confirmation email now (already counted against the limit).
    Send,
    /// Nothing: the address is subscribed already.
    AlreadySubscribed,
    /// Nothing: the address had its share of confirmation emails.
    Limited,
}

/// A followed confirmation link, with what it records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmation {
    /// The form the subscription started from.
    pub source: FormKind,
    /// The consent in force.
    pub consent_version: String,
    /// Its text.
    pub consent_text: String,
    /// When the link was sent, in ms since the epoch.
    pub issued_ms: u64,
    /// Now, in ms since the epoch.
    pub now_ms: u64,
}

/// What following a confirmation link did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmed {
    /// The address is now subscribed.
    Subscribed,
    /// It was already; nothing changed.
    Already,
    /// Nothing: the address left or was removed after the link was sent, or never asked.
    Outdated,
}

/// Why a store could not do its work.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store holds as many addresses as it may.
    #[error("the subscriber store is full ({0} addresses)")]
    Full(u64),
    /// Reading or writing failed.
    #[error("the subscriber store failed")]
    Failed(#[source] anyhow::Error),
}

/// What the service needs of a place that keeps subscribers. Every change is durable when its
/// future resolves; concurrent calls for one address behave as if one came after the other.
pub trait SubscriberStore: Send + Sync + Debug {
    /// Records a request to subscribe `address` and decides, within `limits`, whether a
    /// confirmation email goes out now (counting it when it does).
    fn request(
        &self,
        address: String,
        limits: SendLimits,
        now_ms: u64,
    ) -> BoxFuture<'_, Result<Requested, StoreError>>;

    /// Records that the owner of `address` followed a valid confirmation link.
    fn confirm(
        &self,
        address: String,
        confirmation: Confirmation,
    ) -> BoxFuture<'_, Result<Confirmed, StoreError>>;

    /// Unsubscribes `address`, keeping it as suppressed; returns whether it was known.
    fn unsubscribe(&self, address: String, now_ms: u64) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Forgets `address` entirely; returns whether it was known.
    fn remove(&self, address: String) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// What is known of `address`.
    fn get(&self, address: String) -> BoxFuture<'_, Result<Option<Entry>, StoreError>>;

    /// Every confirmed subscriber, oldest first.
    fn export(&self) -> BoxFuture<'_, Result<Vec<Subscriber>, StoreError>>;

    /// Forgets pending addresses whose latest request is older than `pending_for` and send
    /// counts older than a day; returns how many addresses were forgotten.
    fn prune(&self, now_ms: u64, pending_for: Duration)
    -> BoxFuture<'_, Result<usize, StoreError>>;
}

/// Writes `subscribers` as CSV (RFC 4180) with a header line: address, confirmed_at (RFC 3339,
/// UTC), source (the form it came from).
pub fn write_csv(out: &mut impl std::io::Write, subscribers: &[Subscriber]) -> std::io::Result<()> {
    writeln!(out, "address,confirmed_at,source\r")?;
    for subscriber in subscribers {
        let confirmed = std::time::UNIX_EPOCH + Duration::from_millis(subscriber.confirmed_ms);
        writeln!(
            out,
            "{},{},{}\r",
            csv_field(&subscriber.address),
            humantime::format_rfc3339_seconds(confirmed),
            subscriber.source
        )?;
    }
    out.flush()
}

/// A CSV field, quoted when it holds a comma, a quote or a line break; a leading `=`, `+`,
/// `-` or `@` is defused so that spreadsheets do not run it as a formula.
fn csv_field(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

/// One day in ms, the window of [`SendLimits::per_day`].
pub const DAY_MS: u64 = 24 * 3600 * 1000;

/// The one spelling of an address the store knows it by: trimmed and in lower case.
pub fn normalise(address: &str) -> String {
    address.trim().to_lowercase()
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Entry {
    /// A new entry for a first request.
    pub fn new(address: String, now_ms: u64) -> Self {
        Self {
            address,
            status: Status::Pending {
                requested_ms: now_ms,
            },
            sends_ms: Vec::new(),
        }
    }

    /// Applies a request to subscribe: the decision every store makes the same way.
    pub fn request(&mut self, limits: SendLimits, now_ms: u64) -> Requested {
        // A send later than `now_ms` stays and counts as recent: a request whose time was taken
        // before another's email was counted (waiting for the address, or on a replica whose
        // clock lags) is decided after it, as the trait promises.
        self.sends_ms
            .retain(|at| now_ms.saturating_sub(*at) < DAY_MS);
        match &mut self.status {
            Status::Confirmed(_) => return Requested::AlreadySubscribed,
            Status::Pending { requested_ms } => *requested_ms = now_ms,
            // Stays suppressed until a link sent from now on is followed.
            Status::Unsubscribed { .. } => {}
        }
        let recent = self
            .sends_ms
            .iter()
            .any(|at| now_ms.saturating_sub(*at) < millis(limits.resend_after));
        if recent || self.sends_ms.len() >= limits.per_day as usize {
            return Requested::Limited;
        }
        self.sends_ms.push(now_ms);
        Requested::Send
    }

    /// Applies a followed confirmation link: the decision every store makes the same way.
    pub fn confirm(&mut self, confirmation: Confirmation) -> Confirmed {
        match &self.status {
            Status::Confirmed(_) => return Confirmed::Already,
            Status::Unsubscribed { unsubscribed_ms }
                if confirmation.issued_ms <= *unsubscribed_ms =>
            {
                return Confirmed::Outdated;
            }
            Status::Pending { .. } | Status::Unsubscribed { .. } => {}
        }
        self.status = Status::Confirmed(Subscriber {
            address: String::new(),
            confirmed_ms: confirmation.now_ms,
            source: confirmation.source,
            consent_version: confirmation.consent_version,
            consent_text: confirmation.consent_text,
        });
        Confirmed::Subscribed
    }

    /// The subscription, when confirmed, with its address.
    pub fn subscriber(&self) -> Option<Subscriber> {
        match &self.status {
            Status::Confirmed(subscriber) => Some(Subscriber {
                address: self.address.clone(),
                ..subscriber.clone()
            }),
            _ => None,
        }
    }

    /// Whether [`SubscriberStore::prune`] forgets it.
    pub fn is_stale(&self, now_ms: u64, pending_for: Duration) -> bool {
        matches!(self.status, Status::Pending { requested_ms }
            if now_ms.saturating_sub(requested_ms) > millis(pending_for))
            && self
                .sends_ms
                .iter()
                .all(|at| now_ms.saturating_sub(*at) >= DAY_MS)
    }
}
