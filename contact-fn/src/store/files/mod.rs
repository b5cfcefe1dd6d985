//! The embedded default store: everything in the data folder, one JSON file per message, key
//! and address, each written durably ([`crate::durable`]) before it counts.

mod challenges;
mod keys;
mod outbox;
mod subscribers;

pub use challenges::FileChallenges;
pub use keys::FileKeys;
pub use outbox::{FileOutbox, OutboxPaths};
pub use subscribers::FileStore;
