//! Spent proof-of-work challenges in PostgreSQL, one row each, shared by every replica.

use anyhow::Context as _;

use super::{Database, to_db};
use crate::store::{BoxFuture, ChallengeStore};

/// The spent challenges in the `challenges_spent` table.
#[derive(Debug)]
pub struct PgChallenges {
    pub(super) db: Database,
}

impl ChallengeStore for PgChallenges {
    fn spend<'a>(
        &'a self,
        challenge: &'a str,
        expires_ms: u64,
    ) -> BoxFuture<'a, anyhow::Result<bool>> {
        Box::pin(async move {
            let inserted = sqlx::query(
                "INSERT INTO challenges_spent (challenge, expires_ms) VALUES ($1, $2)
                 ON CONFLICT (challenge) DO NOTHING",
            )
            .bind(challenge)
            .bind(to_db(expires_ms))
            .execute(&self.db.pool)
            .await
            .context("spending a challenge")?;
            Ok(inserted.rows_affected() == 1)
        })
    }

    fn prune(&self, now_ms: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(async move {
            sqlx::query("DELETE FROM challenges_spent WHERE expires_ms <= $1")
                .bind(to_db(now_ms))
                .execute(&self.db.pool)
                .await
                .context("forgetting expired challenges")?;
            Ok(())
        })
    }
}
