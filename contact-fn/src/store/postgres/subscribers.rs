//! The subscribers in PostgreSQL (`--database-url`): one `subscribers` row per address and its
//! recent confirmation emails in `subscriber_sends`, shared by every replica.
//!
//! Each change runs in one transaction holding the address row's lock (`SELECT ... FOR
//! UPDATE`, the row inserted first when new), so the decisions of [`Entry`] hold across
//! replicas: concurrent requests for one address are decided one after the other.

use std::time::Duration;

use anyhow::Context as _;
use form_contract::FormKind;
use serde_json::Value;
use sqlx::postgres::{PgPool, PgRow};
use sqlx::{PgConnection, Row as _};

use super::{Database, from_db, to_db};
use crate::store::subscribers::{
    BoxFuture, Confirmation, Confirmed, Entry, Requested, SendLimits, Status, StoreError,
    Subscriber, SubscriberStore, normalise,
};

/// Subscribers in the database, at most `max` addresses.
#[derive(Debug)]
pub struct PgSubscriberStore {
    pool: PgPool,
    max: u64,
}

type Tx = sqlx::Transaction<'static, sqlx::Postgres>;

fn failed(what: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |error| StoreError::Failed(anyhow::Error::new(error).context(what))
}

const COLUMNS: &str = "address, status, requested_ms, confirmed_ms, unsubscribed_ms, source, \
                       consent_version, consent_text";

impl Database {
    /// The newsletter's subscribers in this database, at most `max` addresses.
    pub fn subscribers(&self, max: u64) -> PgSubscriberStore {
        PgSubscriberStore::new(self.pool.clone(), max)
    }
}

impl PgSubscriberStore {
    fn new(pool: PgPool, max: u64) -> Self {
        Self { pool, max }
    }

    async fn begin(&self) -> Result<Tx, StoreError> {
        self.pool
            .begin()
            .await
            .map_err(failed("connecting to the database"))
    }

    /// The entry of `address`, its row locked until the transaction ends.
    async fn lock(conn: &mut PgConnection, address: &str) -> Result<Option<Entry>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM subscribers WHERE address = $1 FOR UPDATE"
        ))
        .bind(address)
        .fetch_optional(&mut *conn)
        .await
        .map_err(failed("reading a subscriber"))?;
        match row {
            Some(row) => Self::entry(conn, &row).await.map(Some),
            None => Ok(None),
        }
    }

    /// The entry of a row, with its sends.
    async fn entry(conn: &mut PgConnection, row: &PgRow) -> Result<Entry, StoreError> {
        let entry = entry_of(row).map_err(StoreError::Failed)?;
        let sends: Vec<i64> = sqlx::query_scalar(
            "SELECT sent_ms FROM subscriber_sends WHERE address = $1 ORDER BY sent_ms",
        )
        .bind(&entry.address)
        .fetch_all(&mut *conn)
        .await
        .map_err(failed("reading a subscriber's emails"))?;
        Ok(Entry {
            sends_ms: sends.into_iter().map(from_db).collect(),
            ..entry
        })
    }

    /// Writes `entry` back over its (locked) row and its sends.
    async fn write(conn: &mut PgConnection, entry: &Entry) -> Result<(), StoreError> {
        let (status, requested, confirmed, unsubscribed, subscriber) = match &entry.status {
            Status::Pending { requested_ms } => ("pending", Some(*requested_ms), None, None, None),
            Status::Confirmed(s) => ("confirmed", None, Some(s.confirmed_ms), None, Some(s)),
            Status::Unsubscribed { unsubscribed_ms } => {
                ("suppressed", None, None, Some(*unsubscribed_ms), None)
            }
        };
        let source = subscriber
            .map(|s| source_text(s.source))
            .transpose()
            .map_err(StoreError::Failed)?;
        sqlx::query(
            "UPDATE subscribers SET status = $2, requested_ms = $3, confirmed_ms = $4,
                    unsubscribed_ms = $5, source = $6, consent_version = $7, consent_text = $8,
                    updated_at = now()
             WHERE address = $1",
        )
        .bind(&entry.address)
        .bind(status)
        .bind(requested.map(to_db))
        .bind(confirmed.map(to_db))
        .bind(unsubscribed.map(to_db))
        .bind(source)
        .bind(subscriber.map(|s| &s.consent_version))
        .bind(subscriber.map(|s| &s.consent_text))
        .execute(&mut *conn)
        .await
        .map_err(failed("writing a subscriber"))?;
        sqlx::query("DELETE FROM subscriber_sends WHERE address = $1")
            .bind(&entry.address)
            .execute(&mut *conn)
            .await
            .map_err(failed("writing a subscriber's emails"))?;
        let sends: Vec<i64> = entry.sends_ms.iter().copied().map(to_db).collect();
        sqlx::query(
            "INSERT INTO subscriber_sends (address, sent_ms) SELECT $1, unnest($2::bigint[])",
        )
        .bind(&entry.address)
        .bind(sends)
        .execute(&mut *conn)
        .await
        .map_err(failed("writing a subscriber's emails"))?;
        Ok(())
    }

    /// Inserts a pending row for a new address unless the store is full; a row already there
    /// is left as it is. Returns whether the store is full (and the address new).
    async fn insert_new(
        &self,
        conn: &mut PgConnection,
        address: &str,
        now_ms: u64,
    ) -> Result<Option<u64>, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO subscribers (address, status, requested_ms)
             SELECT $1, 'pending', $2 WHERE (SELECT count(*) FROM subscribers) < $3
             ON CONFLICT (address) DO NOTHING",
        )
        .bind(address)
        .bind(to_db(now_ms))
        .bind(to_db(self.max))
        .execute(&mut *conn)
        .await
        .map_err(failed("adding a subscriber"))?;
        if inserted.rows_affected() == 1 {
            return Ok(None);
        }
        let row = sqlx::query(
            "SELECT EXISTS (SELECT 1 FROM subscribers WHERE address = $1) AS present,
                    count(*) AS n FROM subscribers",
        )
        .bind(address)
        .fetch_one(&mut *conn)
        .await
        .map_err(failed("counting the subscribers"))?;
        let present: bool = row.try_get("present").map_err(failed("counting"))?;
        let count: i64 = row.try_get("n").map_err(failed("counting"))?;
        Ok((!present).then_some(from_db(count)))
    }

    async fn commit(tx: Tx) -> Result<(), StoreError> {
        tx.commit().await.map_err(failed("committing a subscriber"))
    }

    /// Locks the row of `address` in `tx` and applies `apply` to its entry, writing the entry
    /// back and committing when `apply` says it changed it; `absent` when the address is not
    /// known.
    async fn change<T>(
        mut tx: Tx,
        address: &str,
        absent: impl FnOnce() -> Result<T, StoreError>,
        apply: impl FnOnce(&mut Entry) -> (T, bool),
    ) -> Result<T, StoreError> {
        let Some(mut entry) = Self::lock(&mut tx, address).await? else {
            return absent();
        };
        let (outcome, changed) = apply(&mut entry);
        if changed {
            Self::write(&mut tx, &entry).await?;
            Self::commit(tx).await?;
        }
        Ok(outcome)
    }
}

/// The form's name as serde writes it, as in the outbox's `kind`.
fn source_text(source: FormKind) -> anyhow::Result<String> {
    match serde_json::to_value(source).context("serialising the source")? {
        Value::String(text) => Ok(text),
        other => anyhow::bail!("the source serialises as {other}, not as text"),
    }
}

/// An entry of a `subscribers` row, without its sends.
fn entry_of(row: &PgRow) -> anyhow::Result<Entry> {
    let address: String = row.try_get("address")?;
    let status: String = row.try_get("status")?;
    let ms = |column: &str| -> anyhow::Result<u64> {
        let value: Option<i64> = row.try_get(column)?;
        Ok(from_db(value.unwrap_or(0)))
    };
    let status = match status.as_str() {
        "pending" => Status::Pending {
            requested_ms: ms("requested_ms")?,
        },
        "suppressed" => Status::Unsubscribed {
            unsubscribed_ms: ms("unsubscribed_ms")?,
        },
        "confirmed" => {
            let source: Option<String> = row.try_get("source")?;
            let source = source.unwrap_or_default();
            Status::Confirmed(Subscriber {
                address: String::new(),
                confirmed_ms: ms("confirmed_ms")?,
                source: serde_json::from_value(Value::String(source.clone()))
                    .with_context(|| format!("unknown source {source:?}"))?,
                consent_version: row
                    .try_get::<Option<String>, _>("consent_version")?
                    .unwrap_or_default(),
                consent_text: row
                    .try_get::<Option<String>, _>("consent_text")?
                    .unwrap_or_default(),
            })
        }
        other => anyhow::bail!("unknown subscriber status {other:?}"),
    };
    Ok(Entry {
        address,
        status,
        sends_ms: Vec::new(),
    })
}

impl SubscriberStore for PgSubscriberStore {
    fn request(
        &self,
        address: String,
        limits: SendLimits,
        now_ms: u64,
    ) -> BoxFuture<'_, Result<Requested, StoreError>> {
        Box::pin(async move {
            let address = normalise(&address);
            let mut tx = self.begin().await?;
            if let Some(count) = self.insert_new(&mut tx, &address, now_ms).await? {
                return Err(StoreError::Full(count));
            }
            let vanished = || {
                Err(StoreError::Failed(anyhow::anyhow!(
                    "a subscriber vanished while being added"
                )))
            };
            Self::change(tx, &address, vanished, |entry| {
                (entry.request(limits, now_ms), true)
            })
            .await
        })
    }

    fn confirm(
        &self,
        address: String,
        confirmation: Confirmation,
    ) -> BoxFuture<'_, Result<Confirmed, StoreError>> {
        Box::pin(async move {
            let address = normalise(&address);
            let tx = self.begin().await?;
            Self::change(
                tx,
                &address,
                || Ok(Confirmed::Outdated),
                |entry| {
                    let confirmed = entry.confirm(confirmation);
                    (confirmed, confirmed == Confirmed::Subscribed)
                },
            )
            .await
        })
    }

    fn unsubscribe(&self, address: String, now_ms: u64) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async move {
            let address = normalise(&address);
            let tx = self.begin().await?;
            Self::change(
                tx,
                &address,
                || Ok(false),
                |entry| {
                    entry.status = Status::Unsubscribed {
                        unsubscribed_ms: now_ms,
                    };
                    (true, true)
                },
            )
            .await
        })
    }

    fn remove(&self, address: String) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async move {
            // The sends go with the row (ON DELETE CASCADE).
            let removed = sqlx::query("DELETE FROM subscribers WHERE address = $1")
                .bind(normalise(&address))
                .execute(&self.pool)
                .await
                .map_err(failed("removing a subscriber"))?;
            Ok(removed.rows_affected() > 0)
        })
    }

    fn get(&self, address: String) -> BoxFuture<'_, Result<Option<Entry>, StoreError>> {
        Box::pin(async move {
            let mut conn = self
                .pool
                .acquire()
                .await
                .map_err(failed("connecting to the database"))?;
            let row = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM subscribers WHERE address = $1"
            ))
            .bind(normalise(&address))
            .fetch_optional(&mut *conn)
            .await
            .map_err(failed("reading a subscriber"))?;
            match row {
                Some(row) => Self::entry(&mut conn, &row).await.map(Some),
                None => Ok(None),
            }
        })
    }

    fn export(&self) -> BoxFuture<'_, Result<Vec<Subscriber>, StoreError>> {
        Box::pin(async move {
            let rows = sqlx::query(&format!(
                "SELECT {COLUMNS} FROM subscribers WHERE status = 'confirmed'
                 ORDER BY confirmed_ms, address"
            ))
            .fetch_all(&self.pool)
            .await
            .map_err(failed("reading the subscribers"))?;
            rows.iter()
                .map(|row| {
                    let entry = entry_of(row).map_err(StoreError::Failed)?;
                    entry.subscriber().ok_or_else(|| {
                        StoreError::Failed(anyhow::anyhow!("{} is not confirmed", entry.address))
                    })
                })
                .collect()
        })
    }

    fn prune(
        &self,
        now_ms: u64,
        pending_for: Duration,
    ) -> BoxFuture<'_, Result<usize, StoreError>> {
        Box::pin(async move {
            // Candidates only; [`Entry::is_stale`] decides under the row's lock.
            let pending_ms = u64::try_from(pending_for.as_millis()).unwrap_or(u64::MAX);
            let candidates: Vec<String> = sqlx::query_scalar(
                "SELECT address FROM subscribers
                 WHERE status = 'pending' AND requested_ms < $1",
            )
            .bind(to_db(now_ms.saturating_sub(pending_ms)))
            .fetch_all(&self.pool)
            .await
            .map_err(failed("reading the pending subscribers"))?;
            let mut forgotten = 0;
            for address in candidates {
                let mut tx = self.begin().await?;
                if let Some(entry) = Self::lock(&mut tx, &address).await?
                    && entry.is_stale(now_ms, pending_for)
                {
                    sqlx::query("DELETE FROM subscribers WHERE address = $1")
                        .bind(&address)
                        .execute(&mut *tx)
                        .await
                        .map_err(failed("forgetting a subscriber"))?;
                    Self::commit(tx).await?;
                    forgotten += 1;
                }
            }
            Ok(forgotten)
        })
    }
}
