//! Hands queued messages to the mail server, retrying with back-off until it takes them.
//!
//! Transient failures (server down, timeouts, 4xx replies) are retried with exponential
//! back-off; permanent ones (5xx replies) and messages older than the give-up age go to the
//! dead letters. Without an SMTP server, the embedded default writes `.eml` files instead.
//! A message's files are read from the store, checked to be the ones received, passed through
//! the virus scanner when one is configured, and attached ([`crate::mixed`]) at each attempt,
//! a chunk at a time. Each delivery first holds its message's [`weight`] of the delivery memory
//! budget ([`crate::budget`]), so that the messages in flight together stay within it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use lettre::address::Envelope;
use lettre::transport::smtp::PoolConfig;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport as _, Tokio1Executor};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::attachment::{self, Attachment};
use crate::budget::Budget;
use crate::config::Config;
use crate::durable::{self, now_ms};
use crate::mixed::{self, Mixed};
use crate::outbox::Outbox;
use crate::scan::{Scanner, ToScan, Verdict};
use crate::store::{CHUNK_BYTES, DeliveryError, Notifications, Record, Taken};
use crate::{telemetry, webhook};

/// Where messages go.
#[derive(Clone)]
pub enum Mailer {
    /// A real SMTP server.
    Smtp {
        /// Pooled async transport.
        transport: AsyncSmtpTransport<Tokio1Executor>,
        /// The server, for logs (no credentials).
        server: String,
        /// Upper bound of one delivery, beyond the transport's own timeouts.
        deadline: Duration,
    },
    /// The embedded default: one `.eml` file per message in a folder.
    Files(PathBuf),
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Mailer {
    /// Builds the mailer the configuration asks for.
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let Some(url) = &config.smtp_url else {
            let dir = config.mail_dir();
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("creating the mail folder {}", dir.display()))?;
            return Ok(Mailer::Files(dir));
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .context("reading the SMTP URL (expected smtp://host:port or smtps://host)")?
            .timeout(Some(config.smtp_timeout))
            .pool_config(PoolConfig::new().max_size(config.smtp_concurrency));
        if let Some(user) = &config.smtp_username {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                config.smtp_password.clone().unwrap_or_default(),
            ));
        }
        let server = describe_url(url);
        Ok(Mailer::Smtp {
            transport: builder.build(),
            server,
            deadline: config.delivery_deadline(),
        })
    }

    /// Where mail goes, for the start-up log.
    pub fn describe(&self) -> String {
        match self {
            Mailer::Smtp { server, .. } => format!("through the SMTP server {server}"),
            Mailer::Files(dir) => format!(
                "as .eml files into {}/ (no SMTP URL configured)",
                dir.display()
            ),
        }
    }

    /// Copies of a message held while it is sent: the SMTP client dot-stuffs the whole message
    /// into a buffer of its own before writing it (lettre's `send_raw`); the `.eml` writer
    /// writes the message it is given.
    pub fn copies(&self) -> u64 {
        match self {
            Mailer::Smtp { .. } => 2,
            Mailer::Files(_) => 1,
        }
    }

    /// Delivers one message: `message`, the email of `record` as it is sent.
    pub async fn send(&self, record: &Record, message: String) -> Result<(), DeliveryError> {
        match self {
            Mailer::Smtp {
                transport,
                deadline,
                ..
            } => {
                let envelope = envelope(record).map_err(DeliveryError::Permanent)?;
                let started = Instant::now();
                let sent = tokio::time::timeout(
                    *deadline,
                    transport.send_raw(&envelope, message.as_bytes()),
                )
                .await;
                let result = match &sent {
                    Ok(Ok(_)) => "ok",
                    Ok(Err(e)) if e.is_permanent() => "permanent",
                    _ => "transient",
                };
                telemetry::smtp(result, started.elapsed());
                match sent {
                    Ok(Ok(_)) => Ok(()),
                    Ok(Err(e)) if e.is_permanent() => Err(DeliveryError::Permanent(e.to_string())),
                    Ok(Err(e)) => Err(DeliveryError::Transient(e.to_string())),
                    Err(_) => Err(DeliveryError::Transient(format!(
                        "no answer from the SMTP server within {}",
                        humantime::format_duration(*deadline)
                    ))),
                }
            }
            Mailer::Files(dir) => {
                let dir = dir.clone();
                let name = format!("{}.eml", record.id);
                tokio::task::spawn_blocking(move || durable::write(&dir, &name, message.as_bytes()))
                    .await
                    .map_err(|e| DeliveryError::Transient(e.to_string()))?
                    .map_err(|e| DeliveryError::Transient(format!("writing the .eml file: {e}")))
            }
        }
    }

    /// Checks that the mail server answers; always fine for the embedded default.
    pub async fn check(&self) -> anyhow::Result<()> {
        match self {
            Mailer::Smtp {
                transport,
                deadline,
                ..
            } => {
                let ok = tokio::time::timeout(*deadline, transport.test_connection())
                    .await
                    .context("the SMTP server did not answer in time")?
                    .context("connecting to the SMTP server")?;
                anyhow::ensure!(ok, "the SMTP server did not answer NOOP");
                Ok(())
            }
            Mailer::Files(_) => Ok(()),
        }
    }

    /// Whether a real SMTP server is configured.
    pub fn is_smtp(&self) -> bool {
        matches!(self, Mailer::Smtp { .. })
    }
}

fn envelope(record: &Record) -> Result<Envelope, String> {
    let from: Address = record
        .envelope_from
        .parse()
        .map_err(|e| format!("bad envelope sender: {e}"))?;
    let to = record
        .envelope_to
        .iter()
        .map(|a| a.parse::<Address>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("bad envelope recipient: {e}"))?;
    Envelope::new(Some(from), to).map_err(|e| format!("bad envelope: {e}"))
}

/// Shows scheme, host and port of an SMTP URL, never its credentials.
fn describe_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "(unparseable URL)".to_owned();
    };
    let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    format!("{scheme}://{host}")
}

/// When to try again after failures.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Wait after the first failure.
    pub initial: Duration,
    /// Longest wait.
    pub max: Duration,
    /// Age at which a message is given up.
    pub give_up: Duration,
}

impl RetryPolicy {
    /// The policy the configuration asks for.
    pub fn from_config(config: &Config) -> Self {
        Self {
            initial: config.retry_initial,
            max: config.retry_max,
            give_up: config.retry_give_up,
        }
    }

    /// When to try again after `failures` failed attempts, the last at `now_ms`: the wait, and
    /// the time it ends in ms since the Unix epoch.
    pub fn next_attempt(&self, failures: u32, now_ms: u64) -> (Duration, u64) {
        let delay = self.delay(failures);
        let at = now_ms.saturating_add(u64::try_from(delay.as_millis()).unwrap_or(u64::MAX));
        (delay, at)
    }

    /// Wait after `failures` failed attempts (at least one): doubling from `initial`, capped.
    pub fn delay(&self, failures: u32) -> Duration {
        let doublings = failures.saturating_sub(1).min(31);
        self.initial
            .checked_mul(1_u32 << doublings)
            .map_or(self.max, |d| d.min(self.max))
    }
}

/// What delivery does with a message's files before attaching them.
#[derive(Debug, Clone)]
pub struct FileCheck {
    /// The virus scanner, when one is configured.
    pub scanner: Option<Scanner>,
    /// Where a file is written for the scanner.
    pub dir: PathBuf,
    /// What the messages being delivered may hold in memory together (`--delivery-memory`).
    pub budget: Budget,
}

/// What delivering `record` through `mailer` holds in memory at most, in bytes: the email as it
/// is put together with its files ([`mixed::composed_len`]) times the copies the mailer makes,
/// a chunk of a file being read, and the webhook notifications posted beside it; for a webhook,
/// its body twice (the record's and the request's).
pub fn weight(record: &Record, mailer: &Mailer) -> u64 {
    let body = |text: &str| text.len() as u64 * 2;
    if record.webhook.is_some() {
        return body(&record.message);
    }
    let notifications = record.notifications.as_ref().map_or(0, |n| body(&n.body));
    let email = match record.attachments.len() {
        0 => record.message.len() as u64 * mailer.copies(),
        files => {
            mixed::composed_len(record.message.len(), files, record.attachment_bytes())
                * mailer.copies()
                + CHUNK_BYTES as u64
        }
    };
    email + notifications
}

/// The background task that empties the outbox.
#[derive(Debug)]
pub struct Worker {
    outbox: Arc<Outbox>,
    mailer: Mailer,
    files: FileCheck,
    webhooks: webhook::Sender,
    retry: RetryPolicy,
    concurrency: usize,
    grace: Duration,
}

impl Worker {
    /// A worker for `outbox`.
    pub fn new(
        outbox: Arc<Outbox>,
        (mailer, files): (Mailer, FileCheck),
        webhooks: webhook::Sender,
        retry: RetryPolicy,
        concurrency: usize,
        grace: Duration,
    ) -> Self {
        Self {
            outbox,
            mailer,
            files,
            webhooks,
            retry,
            concurrency: concurrency.max(1),
            grace,
        }
    }

    /// Delivers messages as they fall due until `stop` turns true, then lets the deliveries in
    /// flight finish (within the grace time; anything unfinished stays in the outbox).
    pub async fn run(self, mut stop: watch::Receiver<bool>) {
        let mut in_flight = JoinSet::new();
        let mut store = StoreHealth::default();
        loop {
            let mut wait = None;
            while in_flight.len() < self.concurrency {
                match self.outbox.take_due(now_ms()).await {
                    Ok(Some(taken)) => {
                        store.ok();
                        let (outbox, retry) = (self.outbox.clone(), self.retry);
                        let (mailer, webhooks) = (self.mailer.clone(), self.webhooks.clone());
                        let files = self.files.clone();
                        in_flight.spawn(async move {
                            let email = Email {
                                outbox: &outbox,
                                mailer: &mailer,
                                files: &files,
                            };
                            deliver(email, &webhooks, retry, taken).await;
                        });
                    }
                    Ok(None) => {
                        store.ok();
                        break;
                    }
                    Err(error) => {
                        wait = Some(store.failed(&error));
                        break;
                    }
                }
            }
            if wait.is_none() && in_flight.len() < self.concurrency {
                wait = match self.outbox.next_due().await {
                    Ok(next) => next.map(|at| Duration::from_millis(at.saturating_sub(now_ms()))),
                    Err(error) => Some(store.failed(&error)),
                };
            }
            tokio::select! {
                _ = stop.wait_for(|stop| *stop) => break,
                Some(joined) = in_flight.join_next(), if !in_flight.is_empty() => {
                    if let Err(e) = joined {
                        tracing::error!("a delivery task failed: {e}");
                    }
                }
                () = self.outbox.added() => {}
                () = tokio::time::sleep(wait.unwrap_or(Duration::from_secs(3600))), if wait.is_some() => {}
            }
        }
        let drained = tokio::time::timeout(self.grace, async {
            while in_flight.join_next().await.is_some() {}
        })
        .await;
        if drained.is_err() {
            tracing::warn!(
                "stopped with deliveries in flight; they stay in the outbox and are retried on the next start"
            );
            in_flight.shutdown().await;
        }
        if let Err(error) = self.outbox.release_claims().await {
            tracing::warn!("{error:#}; other replicas take the messages over after the lease");
        }
    }
}

/// Whether the outbox's store answered the worker's last question; a failure is logged once
/// per outage, and so is the recovery.
#[derive(Debug, Default)]
struct StoreHealth {
    failing: bool,
}

impl StoreHealth {
    /// Wait before asking a failing store again.
    const RETRY: Duration = Duration::from_secs(1);

    fn failed(&mut self, error: &anyhow::Error) -> Duration {
        if !self.failing {
            tracing::error!(
                "cannot read the outbox; trying again every {}: {error:#}",
                humantime::format_duration(Self::RETRY)
            );
            self.failing = true;
        }
        Self::RETRY
    }

    fn ok(&mut self) {
        if self.failing {
            tracing::info!("the outbox answers again; delivery resumes");
            self.failing = false;
        }
    }
}

/// What sending an email works with.
#[derive(Clone, Copy)]
struct Email<'a> {
    outbox: &'a Outbox,
    mailer: &'a Mailer,
    files: &'a FileCheck,
}

impl Email<'_> {
    /// Sends the email of `record`, with its files attached (those the scanner passed).
    async fn send(self, record: &Record) -> Result<(), DeliveryError> {
        if record.attachments.is_empty() {
            return self.mailer.send(record, record.message.clone()).await;
        }
        let message = self.with_attachments(record).await?;
        self.mailer.send(record, message).await
    }

    /// A reader of the file `index` of `record`, a chunk at a time.
    fn read<'a>(self, record: &'a Record, index: usize, file: &'a Attachment) -> Chunks<'a>
    where
        Self: 'a,
    {
        Chunks {
            outbox: self.outbox,
            id: &record.id,
            index,
            file,
            next: Some(0),
            reading: Some(file.reading()),
        }
    }

    /// Takes the SHA-256 of each file of `record` that has none yet (a message taken for the
    /// first time), from the stored file once it is checked to be the one received, and lists
    /// them in the webhook notifications it carries. The upload left it to here: hashing 10 MB
    /// took longer than writing them.
    async fn seal(self, record: &mut Record) -> Result<(), DeliveryError> {
        if record.attachments.iter().all(|a| a.sha256.is_some()) {
            return Ok(());
        }
        let mut hashes = Vec::with_capacity(record.attachments.len());
        for (index, file) in record.attachments.iter().enumerate() {
            if file.sha256.is_some() {
                hashes.push(None);
                continue;
            }
            let mut sha256 = ring::digest::Context::new(&ring::digest::SHA256);
            let mut chunks = self.read(record, index, file);
            while let Some(chunk) = chunks.next().await? {
                sha256.update(&chunk);
            }
            hashes.push(Some(crate::hex::hex(sha256.finish().as_ref())));
        }
        for (file, hash) in record.attachments.iter_mut().zip(hashes) {
            if hash.is_some() {
                file.sha256 = hash;
            }
        }
        if let Some(notifications) = &mut record.notifications {
            notifications.body = webhook::with_files(&notifications.body, &record.attachments);
        }
        Ok(())
    }

    /// The email of `record` as `multipart/mixed` with its files: each read from the store,
    /// checked to be the one received, and scanned when a scanner is configured (an infected one
    /// is left out, with a line saying so). A chunk of a file is held at a time besides the
    /// email; a file to scan is written for the scanner, then read again to be attached.
    async fn with_attachments(self, record: &Record) -> Result<String, DeliveryError> {
        // "=_" occurs in no base64 and no quoted-printable text, so never in a part.
        let boundary = format!("=_{}", uuid::Uuid::now_v7().simple());
        let permanent =
            |e: anyhow::Error| DeliveryError::Permanent(format!("attaching the files: {e:#}"));
        let mut mixed = Mixed::start(
            &record.message,
            record.attachments.len(),
            record.attachment_bytes(),
            &boundary,
        )
        .map_err(permanent)?;
        for (index, attachment) in record.attachments.iter().enumerate() {
            let name = &attachment.name;
            if let Some(scanner) = &self.files.scanner {
                let scanning = |e: anyhow::Error| {
                    DeliveryError::Transient(format!("scanning the file \"{name}\": {e:#}"))
                };
                let mut to_scan = ToScan::create(&self.files.dir).map_err(scanning)?;
                let mut chunks = self.read(record, index, attachment);
                while let Some(chunk) = chunks.next().await? {
                    to_scan.write(&chunk).await.map_err(scanning)?;
                }
                match scanner.scan(to_scan).await {
                    Ok(Verdict::Clean) => {}
                    Ok(Verdict::Infected(finding)) => {
                        telemetry::attachment_refused("infected");
                        tracing::warn!(
                            id = record.id,
                            file = name,
                            finding,
                            "infected file left out"
                        );
                        mixed.note(format!(
                            "The attached file \"{name}\" was left out: the virus scanner found it infected ({finding})."
                        ));
                        continue;
                    }
                    Err(error) => {
                        return Err(DeliveryError::Transient(format!(
                            "scanning the file \"{name}\": {error:#}"
                        )));
                    }
                }
            }
            mixed.begin_file(attachment).map_err(permanent)?;
            let mut chunks = self.read(record, index, attachment);
            while let Some(chunk) = chunks.next().await? {
                mixed.push(&chunk);
            }
            mixed.end_file();
        }
        Ok(mixed.finish())
    }
}

/// A file of a message read back from the store a chunk at a time, checked to be the one
/// received as it is read: a file changed in the store will not change back, so the message
/// becomes a dead letter. The check ends with the last chunk, so what was read is only used
/// once [`Chunks::next`] answered `None`.
struct Chunks<'a> {
    outbox: &'a Outbox,
    id: &'a str,
    index: usize,
    file: &'a Attachment,
    /// The chunk to read next; `None` once the last was read.
    next: Option<u32>,
    /// The check of what was read; `None` once it passed.
    reading: Option<attachment::Reading>,
}

impl Chunks<'_> {
    /// The next chunk; `None` at the end, once the whole file was found to be the one received.
    async fn next(&mut self) -> Result<Option<Vec<u8>>, DeliveryError> {
        let Some(n) = self.next else {
            return Ok(None);
        };
        let name = &self.file.name;
        let chunk = self
            .outbox
            .attachment_chunk(self.id, self.index, n)
            .await
            .map_err(|e| DeliveryError::Transient(format!("reading the file \"{name}\": {e:#}")))?;
        self.next = chunk
            .as_ref()
            .filter(|c| c.len() == CHUNK_BYTES)
            .and_then(|_| n.checked_add(1));
        let differs = |differs| {
            DeliveryError::Permanent(format!(
                "the stored file \"{name}\" is not the one received: {differs}"
            ))
        };
        if let (Some(reading), Some(chunk)) = (&mut self.reading, &chunk) {
            reading.update(chunk).map_err(differs)?;
        }
        if self.next.is_none()
            && let Some(reading) = self.reading.take()
        {
            reading.finish().map_err(differs)?;
        }
        Ok(chunk.filter(|c| !c.is_empty()))
    }
}

async fn deliver(email: Email<'_>, webhooks: &webhook::Sender, retry: RetryPolicy, taken: Taken) {
    let outbox = email.outbox;
    let mut record = match taken {
        Taken::Message(record) => *record,
        Taken::Unreadable { id, error } => {
            tracing::error!(
                id,
                "unreadable outbox message moved to the dead letters: {error:#}"
            );
            if let Err(error) = outbox.bury_unreadable(&id).await {
                tracing::error!(id, "{error:#}");
            }
            return;
        }
    };
    // Held until the message is done with: what it holds in memory is within the budget.
    let _memory = email.files.budget.hold(weight(&record, email.mailer)).await;
    let id = record.id.clone();
    let attempt = record.attempts + 1;
    let channel = if record.webhook.is_some() {
        "webhook"
    } else {
        "email"
    };
    // Unsealed, nothing is sent: the notifications stay on the record, tried again with it.
    let sent = match email.seal(&mut record).await {
        Err(error) => Err(error),
        Ok(()) => match (&record.webhook, record.notifications.take()) {
            (Some(_), _) => timed(webhooks.send(&record)).await,
            (None, None) => email.send(&record).await,
            // The webhooks are posted beside the email, so a slow receiver delays no email.
            (None, Some(notifications)) => {
                let (sent, failed) = tokio::join!(
                    email.send(&record),
                    notify(webhooks, &record.id, &notifications)
                );
                record.notifications =
                    keep_apart(outbox, retry, &record, &notifications, failed).await;
                sent
            }
        },
    };
    // Notifications that could not be stored apart stay on the email's record; so does the
    // email, then, and it may be sent again (at least once, never lost).
    let sent = match (sent, &record.notifications) {
        (Ok(()), Some(_)) => Err(DeliveryError::Transient(
            "sent, but its webhook notifications could not be stored apart".to_owned(),
        )),
        (sent, _) => sent,
    };
    match sent {
        Ok(()) => {
            telemetry::delivery(channel, "delivered", attempt);
            tracing::info!(
                id,
                kind = record.kind.as_str(),
                attempts = record.attempts + 1,
                "delivered"
            );
            if let Err(error) = outbox.delivered(&id).await {
                tracing::error!(
                    id,
                    "delivered, but the message stays in the outbox and may be sent again: {error:#}"
                );
            }
        }
        Err(DeliveryError::Permanent(reason)) => {
            telemetry::delivery(channel, "dead", attempt);
            tracing::error!(
                id,
                dead_letters = %outbox.dead_letters(),
                "the mail server refused the message for good; moved to the dead letters: {reason}"
            );
            record.attempts += 1;
            record.last_error = Some(reason);
            if let Err(error) = outbox.bury(record).await {
                tracing::error!(id, "{error:#}");
            }
        }
        Err(DeliveryError::Transient(reason)) => {
            record.attempts += 1;
            record.last_error = Some(reason.clone());
            let now = now_ms();
            let age = Duration::from_millis(now.saturating_sub(record.created_ms));
            if age >= retry.give_up {
                telemetry::delivery(channel, "dead", attempt);
                tracing::error!(
                    id,
                    attempts = record.attempts,
                    dead_letters = %outbox.dead_letters(),
                    "giving up after {}; moved to the dead letters: {reason}",
                    humantime::format_duration(Duration::from_secs(age.as_secs()))
                );
                if let Err(error) = outbox.bury(record).await {
                    tracing::error!(id, "{error:#}");
                }
                return;
            }
            telemetry::delivery(channel, "retry", attempt);
            let delay;
            (delay, record.next_attempt_ms) = retry.next_attempt(record.attempts, now);
            tracing::warn!(
                id,
                attempts = record.attempts,
                "delivery failed, next attempt in {}: {reason}",
                humantime::format_duration(delay)
            );
            if let Err(error) = outbox.retry_later(record).await {
                tracing::error!(id, "{error:#}");
            }
        }
    }
}

/// Awaits a webhook post, recording how long it took.
async fn timed(
    post: impl std::future::Future<Output = Result<(), DeliveryError>>,
) -> Result<(), DeliveryError> {
    let started = Instant::now();
    let posted = post.await;
    telemetry::webhook(
        if posted.is_ok() { "ok" } else { "failed" },
        started.elapsed(),
    );
    posted
}

/// Posts `notifications` of the message `id` to each URL in turn; the URLs that failed, with
/// why.
async fn notify(
    webhooks: &webhook::Sender,
    id: &str,
    notifications: &Notifications,
) -> Vec<(String, DeliveryError)> {
    let mut failed = Vec::new();
    for url in &notifications.urls {
        match timed(webhooks.post(url, id, &notifications.body)).await {
            Ok(()) => telemetry::delivery("webhook", "delivered", 1),
            Err(error) => failed.push((url.clone(), error)),
        }
    }
    failed
}

/// Stores each notification of `email` that `failed` as a record of its own: due again after
/// the first back-off, or a dead letter when the receiver refused it for good. Returns the
/// notifications that could not be stored, for the email's record to keep.
async fn keep_apart(
    outbox: &Outbox,
    retry: RetryPolicy,
    email: &Record,
    notifications: &Notifications,
    failed: Vec<(String, DeliveryError)>,
) -> Option<Notifications> {
    let mut unstored = Vec::new();
    for (url, error) in failed {
        let mut record = webhook::record(
            &url,
            &email.id,
            email.kind,
            &notifications.body,
            email.created_ms,
        );
        record.attempts = 1;
        record.last_error = Some(error.to_string());
        let stored = match error {
            DeliveryError::Transient(reason) => {
                telemetry::delivery("webhook", "retry", 1);
                let delay;
                (delay, record.next_attempt_ms) = retry.next_attempt(1, now_ms());
                tracing::warn!(
                    id = email.id,
                    url,
                    "webhook failed, next attempt in {}: {reason}",
                    humantime::format_duration(delay)
                );
                outbox.enqueue(record).await.map_err(anyhow::Error::new)
            }
            DeliveryError::Permanent(reason) => {
                telemetry::delivery("webhook", "dead", 1);
                tracing::error!(
                    id = email.id,
                    url,
                    dead_letters = %outbox.dead_letters(),
                    "the webhook refused the notification for good; moved to the dead letters: {reason}"
                );
                outbox.bury(record).await
            }
        };
        if let Err(error) = stored {
            tracing::error!(id = email.id, url, "{error:#}");
            unstored.push(url);
        }
    }
    (!unstored.is_empty()).then(|| Notifications {
        urls: unstored,
        body: notifications.body.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_off_doubles_from_the_start_and_stops_at_the_cap() {
        let policy = RetryPolicy {
            initial: Duration::from_secs(300),
            max: Duration::from_secs(4000),
            give_up: Duration::from_secs(5 * 86_400),
        };
        let delays: Vec<u64> = (1..=7).map(|n| policy.delay(n).as_secs()).collect();
        assert_eq!(delays, [300, 600, 1200, 2400, 4000, 4000, 4000]);
        assert_eq!(policy.delay(u32::MAX).as_secs(), 4000);
    }

    #[test]
    fn smtp_urls_are_logged_without_credentials() {
        assert_eq!(
            describe_url("smtps://user:secret@mail.example.com:465"),
            "smtps://mail.example.com:465"
        );
        assert_eq!(
            describe_url("smtp://127.0.0.1:2525"),
            "smtp://127.0.0.1:2525"
        );
    }
}
