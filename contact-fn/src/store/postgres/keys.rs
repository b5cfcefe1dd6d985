//! The idempotency records in PostgreSQL: a row per key, shared by every replica.

use anyhow::Context as _;

use super::{Database, to_db};
use crate::durable::now_ms;
use crate::store::{BoxFuture, KeyStore};

/// The idempotency records in PostgreSQL.
#[derive(Debug)]
pub struct PgKeys {
    pub(super) db: Database,
}

impl PgKeys {
    /// The fingerprint remembered under `id`, if created from `oldest` on.
    pub async fn fingerprint(&self, id: &str, oldest: u64) -> anyhow::Result<Option<String>> {
        sqlx::query_scalar(
            "SELECT fingerprint FROM idempotency_keys WHERE id = $1 AND created_ms >= $2",
        )
        .bind(id)
        .bind(to_db(oldest))
        .fetch_optional(&self.db.pool)
        .await
        .context("reading the idempotency record")
    }

    /// Records a key, replacing an expired record of it.
    pub async fn remember(&self, id: &str, fingerprint: &str, oldest: u64) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO idempotency_keys (id, fingerprint, created_ms) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
                                            created_ms = EXCLUDED.created_ms
             WHERE idempotency_keys.created_ms < $4",
        )
        .bind(id)
        .bind(fingerprint)
        .bind(to_db(now_ms()))
        .bind(to_db(oldest))
        .execute(&self.db.pool)
        .await?;
        Ok(())
    }

    /// Forgets the keys created before `oldest`.
    pub async fn prune(&self, oldest: u64) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM idempotency_keys WHERE created_ms < $1")
            .bind(to_db(oldest))
            .execute(&self.db.pool)
            .await
            .context("removing expired idempotency records")?;
        Ok(())
    }
}

impl KeyStore for PgKeys {
    fn fingerprint<'a>(
        &'a self,
        id: &'a str,
        oldest_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<Option<String>>> {
        Box::pin(PgKeys::fingerprint(self, id, oldest_ms))
    }
    fn remember<'a>(
        &'a self,
        id: &'a str,
        fingerprint: String,
        oldest_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<()>> {
        Box::pin(async move { PgKeys::remember(self, id, &fingerprint, oldest_ms).await })
    }
    fn prune(&self, oldest_ms: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(PgKeys::prune(self, oldest_ms))
    }
}
