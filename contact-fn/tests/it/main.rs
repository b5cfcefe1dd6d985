//! contact-fn's integration tests, in one binary: each file of this folder was a test binary
//! of its own, linking the service and its dependencies again (sixteen links, 1.5 GB of
//! `target/`). cargo-nextest still runs every test in a process of its own.

mod support;

mod abuse;
mod altcha;
mod attachments;
mod delivery;
mod handlers;
mod hostile;
mod languages;
mod memory;
mod newsletter;
mod operations;
mod operator;
mod process;
mod properties;
mod replicas;
mod spam;
mod store;
mod validation;
mod webhooks;
