//! The embedded default store: everything in the data folder, one JSON file per message, key
//! and address, each written durably ([`crate::durable`]) before it counts.

mod keys;
mod marks;
mod outbox;
mod subscribers;

pub use keys::FileKeys;
pub use marks::FileMarks;
pub use outbox::{FileOutbox, OutboxPaths};
pub use subscribers::FileStore;
