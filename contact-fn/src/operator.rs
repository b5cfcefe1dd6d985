//! The operator's commands on the outbox and the dead letters (`contact-fn outbox ...`,
//! `contact-fn dead-letters ...`), on either store, whether the service runs or not.

use std::io::Write;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::{Context as _, bail};

use crate::config::{Config, DeadLettersCommand, OutboxCommand};
use crate::durable::now_ms;
use crate::outbox::Outbox;
use crate::state::open_outbox;
use crate::store::Record;
use crate::store::postgres::Database;

/// The database the configuration names, for a command beside the service: it must have this
/// binary's schema (`contact-fn migrate`).
pub async fn migrated_database(config: &Config) -> anyhow::Result<Option<Database>> {
    let Some(url) = &config.database_url else {
        return Ok(None);
    };
    let database = Database::connect_lazy(config, url)?;
    database.require_schema().await?;
    Ok(Some(database))
}

/// Opens the outbox as the service would.
async fn outbox(config: &Config) -> anyhow::Result<Outbox> {
    open_outbox(config, migrated_database(config).await?.as_ref())
}

/// `contact-fn outbox ...`, writing to `out`.
pub async fn outbox_command(
    config: &Config,
    command: OutboxCommand,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let outbox = outbox(config).await?;
    match command {
        OutboxCommand::List => list(&outbox.waiting().await?, out),
        OutboxCommand::Show { id } => {
            let record = outbox.waiting().await?.into_iter().find(|r| r.id == id);
            show(record, &id, "waiting in the outbox", out)
        }
    }
}

/// `contact-fn dead-letters ...`, writing to `out`; `confirm` asks the operator before a purge.
pub async fn dead_letters_command(
    config: &Config,
    command: DeadLettersCommand,
    out: &mut dyn Write,
    confirm: impl FnOnce(&str) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    let outbox = outbox(config).await?;
    match command {
        DeadLettersCommand::List => list(&outbox.dead().await?, out),
        DeadLettersCommand::Show { id } => {
            show(outbox.dead_letter(&id).await?, &id, "a dead letter", out)
        }
        DeadLettersCommand::Retry { ids, all } => {
            let ids = chosen(&outbox, ids, all).await?;
            let now = now_ms();
            for id in &ids {
                if !outbox.revive(id, now).await? {
                    bail!("{id} is not a dead letter");
                }
                writeln!(out, "{id}\tmoved back to the outbox")?;
            }
            if config.database_url.is_none() && !ids.is_empty() {
                writeln!(
                    out,
                    "A running service reads them at its next start (restart it); with \
                     PostgreSQL, replicas take them within their poll interval."
                )?;
            }
            Ok(())
        }
        DeadLettersCommand::Purge { ids, all, yes } => {
            let ids = chosen(&outbox, ids, all).await?;
            if ids.is_empty() {
                return Ok(());
            }
            let question = format!(
                "Delete {} dead letter(s) for good? Type yes to confirm: ",
                ids.len()
            );
            if !yes && !confirm(&question)? {
                bail!("nothing deleted: not confirmed (pass --yes when not at a terminal)");
            }
            for id in &ids {
                if !outbox.purge(id).await? {
                    bail!("{id} is not a dead letter");
                }
                writeln!(out, "{id}\tdeleted")?;
            }
            Ok(())
        }
    }
}

/// The ids given, or every dead letter's with `all`; one of the two is needed.
async fn chosen(outbox: &Outbox, ids: Vec<String>, all: bool) -> anyhow::Result<Vec<String>> {
    if all {
        return Ok(outbox.dead().await?.into_iter().map(|r| r.id).collect());
    }
    if ids.is_empty() {
        bail!("name the dead letters' ids, or pass --all");
    }
    Ok(ids)
}

fn list(records: &[Record], out: &mut dyn Write) -> anyhow::Result<()> {
    for r in records {
        let target = match &r.webhook {
            Some(webhook) => webhook.url.clone(),
            None => r.envelope_to.join(","),
        };
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            r.id,
            r.kind,
            time(r.created_ms),
            r.attempts,
            time(r.next_attempt_ms),
            target,
            files(r),
            r.last_error
                .as_deref()
                .unwrap_or("-")
                .replace(['\t', '\n'], " "),
        )?;
    }
    Ok(())
}

fn show(record: Option<Record>, id: &str, what: &str, out: &mut dyn Write) -> anyhow::Result<()> {
    let Some(record) = record else {
        bail!("{id} is not {what}");
    };
    serde_json::to_writer_pretty(&mut *out, &record).context("writing the message")?;
    writeln!(out)?;
    Ok(())
}

/// The message's files in a word: `-`, or how many and their bytes together.
fn files(record: &Record) -> String {
    match record.attachments.len() {
        0 => "-".to_owned(),
        n => format!("{n} file(s), {} bytes", record.attachment_bytes()),
    }
}

fn time(ms: u64) -> String {
    humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
}
