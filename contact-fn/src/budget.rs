//! The delivery memory budget (`--delivery-memory`): the bytes that the messages being
//! delivered may hold at once. A delivery weighs its message first
//! (`delivery::weight`) and waits until that much of the budget is free; a message
//! heavier than the whole budget waits for all of it, and so is delivered alone. Waiters are
//! served in turn (tokio's semaphore is fair), so a heavy message is not passed over for ever
//! by light ones.

use std::sync::Arc;

use tokio::sync::{Semaphore, SemaphorePermit};

/// The unit the budget counts in: a semaphore holds fewer permits than a `u64` counts bytes.
const UNIT: u64 = 1024;

/// What the deliveries in flight may hold in memory together.
#[derive(Debug, Clone)]
pub struct Budget {
    units: Arc<Semaphore>,
    /// All of it, in [`UNIT`]s.
    total: u32,
}

impl Budget {
    /// A budget of `bytes` (at least one unit).
    pub fn new(bytes: u64) -> Self {
        let max = u64::try_from(Semaphore::MAX_PERMITS)
            .unwrap_or(u64::MAX)
            .min(u64::from(u32::MAX));
        let total = u32::try_from(bytes.div_ceil(UNIT).clamp(1, max)).unwrap_or(u32::MAX);
        Self {
            units: Arc::new(Semaphore::new(total as usize)),
            total,
        }
    }

    /// Waits until `bytes` of the budget (all of it at most) are free, and holds them until
    /// the answer is dropped.
    pub async fn hold(&self, bytes: u64) -> Option<SemaphorePermit<'_>> {
        let units = u32::try_from(bytes.div_ceil(UNIT))
            .unwrap_or(u32::MAX)
            .clamp(1, self.total);
        // The semaphore is never closed: an error cannot happen, and would hold nothing.
        self.units.acquire_many(units).await.ok()
    }

    /// Bytes free now.
    pub fn free(&self) -> u64 {
        self.units.available_permits() as u64 * UNIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_message_heavier_than_the_budget_waits_for_all_of_it_then_goes_alone() {
        let budget = Budget::new(10 * 1024);
        let light = budget.hold(4 * 1024).await.expect("held");
        assert_eq!(budget.free(), 6 * 1024);
        // Heavier than the whole budget: it waits for the light one to end.
        let heavy = budget.hold(1 << 40);
        tokio::pin!(heavy);
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(20), &mut heavy)
                .await
                .is_err(),
            "the heavy message waits while another holds part of the budget"
        );
        drop(light);
        let heavy = heavy.await.expect("held");
        assert_eq!(budget.free(), 0, "alone: it holds the whole budget");
        drop(heavy);
        assert_eq!(budget.free(), 10 * 1024);
    }
}
