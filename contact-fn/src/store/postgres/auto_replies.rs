//! Auto-replies sent in PostgreSQL, one row per address and day, shared by every replica.

use anyhow::Context as _;

use super::{Database, to_db};
use crate::store::{AutoReplyStore, BoxFuture};

/// The auto-replies in the `auto_replies` table.
#[derive(Debug)]
pub struct PgAutoReplies {
    pub(super) db: Database,
}

impl AutoReplyStore for PgAutoReplies {
    fn claim<'a>(&'a self, address_key: &'a str, day: u64) -> BoxFuture<'a, anyhow::Result<bool>> {
        Box::pin(async move {
            let inserted = sqlx::query(
                "INSERT INTO auto_replies (address_key, day) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(address_key)
            .bind(to_db(day))
            .execute(&self.db.pool)
            .await
            .context("recording an auto-reply")?;
            Ok(inserted.rows_affected() == 1)
        })
    }

    fn prune(&self, day: u64) -> BoxFuture<'_, anyhow::Result<()>> {
        Box::pin(async move {
            sqlx::query("DELETE FROM auto_replies WHERE day < $1")
                .bind(to_db(day))
                .execute(&self.db.pool)
                .await
                .context("forgetting past auto-replies")?;
            Ok(())
        })
    }
}
