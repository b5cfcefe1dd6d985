//! Every setting of the service, read from flags and the environment.
//!
//! The defaults are what `make run` needs on a developer machine: data under
//! `var/contact-fn/`, mail delivered as `.eml` files, the local site as the only origin.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, bail};
use axum::http::HeaderValue;
use clap::{Parser, Subcommand};
use ipnet::IpNet;
use lettre::message::Mailbox;

use crate::language::Language;

/// Validates contact form submissions, stores them durably and delivers them by email.

#[derive(Debug, Clone, Parser)]
#[command(name = "contact-fn", version, about, args_override_self = true)]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "CONTACT_BIND", default_value = "127.0.0.1:8787")]
    pub bind: SocketAddr,

    /// Folder for the outbox, dead letters, idempotency records, subscribers, the newsletter's
    /// secret and (without SMTP) the mail.
    #[arg(
        long,
        env = "CONTACT_DATA_DIR",
        default_value = "var/contact-fn",
        global = true
    )]
    pub data_dir: PathBuf,

    /// PostgreSQL holding the outbox, dead letters, idempotency records and subscribers instead
    /// of the data folder, shared by every replica, e.g.
    /// `postgres://user:password@host:5432/contact`.
    #[arg(
        long,
        env = "CONTACT_DATABASE_URL",
        hide_env_values = true,
        global = true
    )]
    pub database_url: Option<String>,

    /// Connections to the database at most, per replica (delivery keeps up to
    /// --smtp-concurrency + 1 more, for its bookkeeping).
    #[arg(long, env = "CONTACT_DATABASE_POOL_SIZE", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub database_pool_size: u32,

    /// Time to get a database connection (connect or wait for a free one); beyond it a
    /// submission is answered 503.
    #[arg(long, env = "CONTACT_DATABASE_CONNECT_TIMEOUT", default_value = "5s", value_parser = duration)]
    pub database_connect_timeout: Duration,

    /// Longest a database statement may run.
    #[arg(long, env = "CONTACT_DATABASE_STATEMENT_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub database_statement_timeout: Duration,

    /// How often a replica looks for messages other replicas stored or left behind.
    #[arg(long, env = "CONTACT_DATABASE_POLL_INTERVAL", default_value = "1s", value_parser = duration)]
    pub database_poll_interval: Duration,

    /// How long a replica holds a message it delivers; if it dies, another replica takes the
    /// message over after this. Must exceed the delivery deadline (four SMTP timeouts).
    #[arg(long, env = "CONTACT_DELIVERY_LEASE", default_value = "5m", value_parser = duration)]
    pub delivery_lease: Duration,

    /// SMTP server, e.g. `smtp://mail.example.com:587?tls=required`, `smtps://host`, or plain
    /// `smtp://127.0.0.1:2525` for a local relay. Without it, mail is written as `.eml` files.
    #[arg(long, env = "CONTACT_SMTP_URL")]
    pub smtp_url: Option<String>,

    /// SMTP user name; the password is read from CONTACT_SMTP_PASSWORD only.
    #[arg(long, env = "CONTACT_SMTP_USERNAME")]
    pub smtp_username: Option<String>,

    /// SMTP password (environment only, never a flag).
    #[arg(skip)]
    pub smtp_password: Option<String>,

    /// Timeout of each SMTP connection and command.
    #[arg(long, env = "CONTACT_SMTP_TIMEOUT", default_value = "30s", value_parser = duration)]
    pub smtp_timeout: Duration,

    /// Messages delivered at the same time (and pooled SMTP connections).
    #[arg(long, env = "CONTACT_SMTP_CONCURRENCY", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub smtp_concurrency: u32,

    /// Bytes of messages being delivered at once, at most: each message is weighed by what
    /// delivering it holds in memory (`delivery::weight`) and waits until it fits; one heavier
    /// than the whole budget is delivered alone. The default keeps the worst burst the other
    /// defaults let in within a 128 MB container (contact-fn/README.md, "Memory").
    #[arg(long, env = "CONTACT_DELIVERY_MEMORY", default_value_t = 32 * 1024 * 1024,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub delivery_memory: u64,

    /// Folder the embedded default delivers `.eml` files into [default: <data-dir>/mail].
    #[arg(long, env = "CONTACT_MAIL_DIR")]
    pub mail_dir: Option<PathBuf>,

    /// The company inbox every message goes to.
    #[arg(
        long,
        env = "CONTACT_MAIL_TO",
        default_value = "Contact inbox <contact@example.com>"
    )]
    pub mail_to: Mailbox,

    /// The site's own sender address.
    #[arg(
        long,
        env = "CONTACT_MAIL_FROM",
        default_value = "Website <website@example.com>"
    )]
    pub mail_from: Mailbox,

    /// Subject prefix of contact page messages, so the inbox can filter them.
    #[arg(
        long,
        env = "CONTACT_CONTACT_SUBJECT_PREFIX",
        default_value = "[Website contact]"
    )]
    pub contact_subject_prefix: String,

    /// Subject prefix of home page enquiries.
    #[arg(
        long,
        env = "CONTACT_ENQUIRY_SUBJECT_PREFIX",
        default_value = "[Website enquiry]"
    )]
    pub enquiry_subject_prefix: String,

    /// Site origins allowed to call the service from a browser (comma-separated).
    #[arg(
        long,
        env = "CONTACT_ALLOWED_ORIGINS",
        value_delimiter = ',',
        default_value = "http://127.0.0.1:8080,http://localhost:8080"
    )]
    pub allowed_origins: Vec<HeaderValue>,

    /// Page a plain HTML form post is redirected to after success
    /// [default: the site's /contact/sent/].
    #[arg(long, env = "CONTACT_SUCCESS_URL")]
    pub success_url: Option<HeaderValue>,

    /// Page a plain HTML form post is redirected to after any failure
    /// [default: the site's /contact/error/].
    #[arg(long, env = "CONTACT_FAILURE_URL")]
    pub failure_url: Option<HeaderValue>,

    /// The site's address: plain form posts end on its /contact/sent/ or /contact/error/ page,
    /// and the newsletter's links lead to its pages under /newsletter/.
    #[arg(
        long,
        env = "CONTACT_SITE_URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub site_url: HeaderValue,

    /// This service's public address, for the links in the newsletter's emails
    /// [default: http://<the address it listens on>].
    #[arg(long, env = "CONTACT_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Key of the newsletter's signed links (environment only, never a flag; at least 32
    /// characters). Without it, one is generated into <data-dir>/newsletter-secret.
    #[arg(skip)]
    pub newsletter_secret: Option<String>,

    /// How long a newsletter confirmation link works.
    #[arg(long, env = "CONTACT_NEWSLETTER_CONFIRM_TTL", default_value = "48h", value_parser = duration)]
    pub newsletter_confirm_ttl: Duration,

    /// Least time between two confirmation emails to one address, whoever asks.
    #[arg(long, env = "CONTACT_NEWSLETTER_RESEND_AFTER", default_value = "1h", value_parser = duration)]
    pub newsletter_resend_after: Duration,

    /// Most confirmation emails to one address in 24 hours, whoever asks.
    #[arg(long, env = "CONTACT_NEWSLETTER_DAILY_MAX", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub newsletter_daily_max: u32,

    /// Most addresses kept (pending, subscribed or unsubscribed); beyond it new addresses are
    /// answered 503.
    #[arg(long, env = "CONTACT_SUBSCRIBERS_MAX", default_value_t = 100_000)]
    pub subscribers_max: u64,

    /// Most messages waiting in the outbox; beyond it submissions are answered 503.
    #[arg(long, env = "CONTACT_OUTBOX_MAX_MESSAGES", default_value_t = 10_000)]
    pub outbox_max_messages: u64,

    /// Most bytes waiting in the outbox; beyond it submissions are answered 503.
    #[arg(long, env = "CONTACT_OUTBOX_MAX_BYTES", default_value_t = 100 * 1024 * 1024)]
    pub outbox_max_bytes: u64,

    /// Wait before the first retry of a failed delivery; it doubles on each failure.
    #[arg(long, env = "CONTACT_RETRY_INITIAL", default_value = "5m", value_parser = duration)]
    pub retry_initial: Duration,

    /// Longest wait between two delivery attempts.
    #[arg(long, env = "CONTACT_RETRY_MAX", default_value = "4000s", value_parser = duration)]
    pub retry_max: Duration,

    /// Age after which an undeliverable message is moved to the dead letters.
    #[arg(long, env = "CONTACT_RETRY_GIVE_UP", default_value = "5d", value_parser = duration)]
    pub retry_give_up: Duration,

    /// Submissions a client may make at once before being rate limited.
    #[arg(long, env = "CONTACT_RATE_BURST", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_burst: u32,

    /// Time after which a rate-limited client may submit once more.
    #[arg(long, env = "CONTACT_RATE_REFILL", default_value = "20s", value_parser = duration)]
    pub rate_refill: Duration,

    /// Proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For is believed.
    #[arg(long, env = "CONTACT_TRUSTED_PROXIES", value_delimiter = ',', value_parser = ip_net)]
    pub trusted_proxies: Vec<IpNet>,

    /// Submissions processed at the same time; more wait for a turn.
    #[arg(long, env = "CONTACT_MAX_CONCURRENCY", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_concurrency: u32,

    /// Longest a received submission waits for a processing turn (--max-concurrency); beyond
    /// it the answer is 503 with Retry-After, rather than a visitor waiting in a queue.
    #[arg(long, env = "CONTACT_BUSY_TIMEOUT", default_value = "2s", value_parser = duration)]
    pub busy_timeout: Duration,

    /// Request bodies one client may be sending at the same time; more are answered 429, so
    /// that a few addresses trickling bodies cannot hold the connections of everyone else.
    #[arg(long, env = "CONTACT_MAX_BODIES_PER_CLIENT", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_bodies_per_client: u32,

    /// Open client connections; more wait to be accepted.
    #[arg(long, env = "CONTACT_MAX_CONNECTIONS", default_value_t = 1024,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,

    /// Largest accepted request body in bytes.
    #[arg(long, env = "CONTACT_MAX_BODY_BYTES", default_value_t = 64 * 1024)]
    pub max_body_bytes: usize,

    /// Time a client has to send the request headers (also the idle keep-alive limit).
    #[arg(long, env = "CONTACT_HEADER_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub header_timeout: Duration,

    /// Time a client has to send the request body.
    #[arg(long, env = "CONTACT_BODY_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub body_timeout: Duration,

    /// Time limit of a whole request, from headers to answer.
    #[arg(long, env = "CONTACT_REQUEST_TIMEOUT", default_value = "30s", value_parser = duration)]
    pub request_timeout: Duration,

    /// Time a client has to send a multipart/form-data body (a contact message with files);
    /// such a request may take this much longer than the request timeout.
    #[arg(long, env = "CONTACT_UPLOAD_TIMEOUT", default_value = "5m", value_parser = duration)]
    pub upload_timeout: Duration,

    /// A virus scanner run on each attached file before its message is delivered, the file's
    /// path appended: exit 0 clean, 1 infected (left out, with a line saying why), anything
    /// else retried. E.g. `clamdscan --no-summary --fdpass`. Unset: no scanner.
    #[arg(long, env = "CONTACT_SCAN_COMMAND")]
    pub scan_command: Option<String>,

    /// Time the scanner has for one file before the delivery is retried.
    #[arg(long, env = "CONTACT_SCAN_TIMEOUT", default_value = "60s", value_parser = duration)]
    pub scan_timeout: Duration,

    /// How long a retried submission with the same Idempotency-Key gets the first answer.
    #[arg(long, env = "CONTACT_IDEMPOTENCY_TTL", default_value = "24h", value_parser = duration)]
    pub idempotency_ttl: Duration,

    /// Time given to requests and deliveries in flight when the service is asked to stop.
    #[arg(long, env = "CONTACT_SHUTDOWN_GRACE", default_value = "20s", value_parser = duration)]
    pub shutdown_grace: Duration,

    /// URLs notified of every accepted message (repeat the flag, or separate with commas),
    /// through the outbox with retries of their own; signed per Standard Webhooks with
    /// CONTACT_WEBHOOK_SECRET.
    #[arg(
        long = "webhook-url",
        env = "CONTACT_WEBHOOK_URL",
        value_delimiter = ','
    )]
    pub webhook_urls: Vec<String>,

    /// The webhooks' body: `standard` (a JSON event) or `slack` (an incoming-webhook message).
    #[arg(long, env = "CONTACT_WEBHOOK_FORMAT", value_enum, default_value_t = crate::webhook::Format::Standard)]
    pub webhook_format: crate::webhook::Format,

    /// Also notify the webhooks when an address confirms its newsletter subscription.
    #[arg(long, env = "CONTACT_WEBHOOK_NEWSLETTER")]
    pub webhook_newsletter: bool,

    /// Time a webhook receiver has to answer one request.
    #[arg(long, env = "CONTACT_WEBHOOK_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub webhook_timeout: Duration,

    /// Key signing the webhooks, `whsec_<base64>` (environment only, never a flag; needed by
    /// the standard format).
    #[arg(skip)]
    pub webhook_secret: Option<String>,

    /// Ask both forms for a proof of work (`GET /challenge`, the `altcha` field): a submission
    /// without a valid, unspent solution is still delivered, labelled [Unverified]. On by
    /// default, as the site's forms solve it; `--proof-of-work=false` turns it off.
    #[arg(long, env = "CONTACT_PROOF_OF_WORK", default_value_t = true,
          num_args = 0..=1, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub proof_of_work: bool,

    /// Email each sender whose message passed the spam checks (with the proof of work on) one
    /// short acknowledgement, `auto_reply` in content/forms.yaml, at most one an address a day.
    #[arg(long, env = "CONTACT_AUTO_REPLY")]
    pub auto_reply: bool,

    /// The largest number a challenge hides (the work: about half of it in SHA-256 hashes).
    #[arg(long, env = "CONTACT_PROOF_OF_WORK_MAX_NUMBER", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub proof_of_work_max_number: u64,

    /// How long a challenge may be solved and sent.
    #[arg(long, env = "CONTACT_PROOF_OF_WORK_EXPIRY", default_value = "20m", value_parser = duration)]
    pub proof_of_work_expiry: Duration,

    /// Address and port of `GET /metrics` (Prometheus text format), e.g. `127.0.0.1:9187`;
    /// keep it off the public port. Unset: no metrics are kept.
    #[arg(long, env = "CONTACT_METRICS_BIND")]
    pub metrics_bind: Option<SocketAddr>,

    /// Log lines as `text` (for people) or `json` (one object a line, for log collectors); each
    /// line written while a request is served carries its request id.
    #[arg(long, env = "CONTACT_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,

    /// What to do; without a command, the service runs.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line.
    Json,
}

/// The commands beside running the service.
#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// The newsletter's subscribers, in the data folder or the database.
    #[command(subcommand)]
    Subscribers(SubscribersCommand),
    /// Apply the database migrations (`--database-url`) and exit.
    Migrate,
    /// The messages waiting for delivery, in the data folder or the database.
    #[command(subcommand)]
    Outbox(OutboxCommand),
    /// The messages given up on, in the data folder or the database.
    #[command(subcommand)]
    DeadLetters(DeadLettersCommand),
}

/// What `contact-fn outbox` does.
#[derive(Debug, Clone, Subcommand)]
pub enum OutboxCommand {
    /// One line per waiting message, oldest first: id, form, accepted at, failed attempts,
    /// next attempt, recipient (or webhook URL), last error.
    List,
    /// One waiting message as JSON, the email (or webhook body) included.
    Show {
        /// The message id.
        id: String,
    },
}

/// What `contact-fn dead-letters` does.
#[derive(Debug, Clone, Subcommand)]
pub enum DeadLettersCommand {
    /// One line per dead letter, oldest first, as `outbox list` shows them.
    List,
    /// One dead letter as JSON, its last error and the email (or webhook body) included.
    Show {
        /// The message id.
        id: String,
    },
    /// Moves dead letters back into the outbox for another round of attempts (after an SMTP
    /// outage is fixed); the file store's service reads them at its next start.
    Retry {
        /// The message ids.
        ids: Vec<String>,
        /// Every dead letter.
        #[arg(long, conflicts_with = "ids")]
        all: bool,
    },
    /// Deletes dead letters for good, after confirmation.
    Purge {
        /// The message ids.
        ids: Vec<String>,
        /// Every dead letter.
        #[arg(long, conflicts_with = "ids")]
        all: bool,
        /// Confirms without asking (needed when standard input is not a terminal).
        #[arg(long)]
        yes: bool,
    },
}

/// What `contact-fn subscribers` does.
#[derive(Debug, Clone, Subcommand)]
pub enum SubscribersCommand {
    /// Writes the confirmed subscribers as CSV to stdout: address, confirmed_at, source.
    Export,
    /// Forgets an address entirely (a GDPR erasure request).
    Remove {
        /// The address to forget.
        address: String,
    },
}

impl Config {
    /// Where a plain form post from a page in `language` goes after success:
    /// `--success-url`, else the site's page in that language.
    pub fn success_page(&self, language: &Language) -> HeaderValue {
        let path = form_contract::CONTACT_SENT_PATH;
        self.site_page(self.success_url.as_ref(), path, language)
    }

    /// Where a plain form post from a page in `language` goes after a failure:
    /// `--failure-url`, else the site's page in that language.
    pub fn failure_page(&self, language: &Language) -> HeaderValue {
        let path = form_contract::CONTACT_ERROR_PATH;
        self.site_page(self.failure_url.as_ref(), path, language)
    }

    fn site_page(
        &self,
        given: Option<&HeaderValue>,
        path: &str,
        language: &Language,
    ) -> HeaderValue {
        given.cloned().unwrap_or_else(|| {
            let site = String::from_utf8_lossy(self.site_url.as_bytes());
            let site = site.trim_end_matches('/');
            // `check` proved the site URL is visible ASCII, so this only falls back in theory.
            HeaderValue::try_from(language.page(site, path))
                .unwrap_or_else(|_| self.site_url.clone())
        })
    }

    /// Reads flags and environment, including the password that only the environment holds.
    pub fn from_env_and_args() -> Self {
        let mut config = Self::parse();
        config.smtp_password = std::env::var("CONTACT_SMTP_PASSWORD")
            .ok()
            .filter(|p| !p.is_empty());
        config.newsletter_secret = std::env::var("CONTACT_NEWSLETTER_SECRET")
            .ok()
            .filter(|p| !p.is_empty());
        config.webhook_secret = std::env::var("CONTACT_WEBHOOK_SECRET")
            .ok()
            .filter(|p| !p.is_empty());
        config
    }

    /// Parses flags only, ignoring the environment; for tests and tools.
    pub fn from_args<I, T>(args: I) -> anyhow::Result<Self>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        Self::try_parse_from(args).context("parsing the contact-fn flags")
    }

    /// Upper bound of one delivery, beyond the SMTP transport's own timeouts.
    pub fn delivery_deadline(&self) -> Duration {
        self.smtp_timeout * 4
    }

    /// The folder uploads are written into as they arrive (on the data folder's disk, so
    /// that the file store takes them by a rename), and files are written for the scanner.
    pub fn spool_dir(&self) -> PathBuf {
        self.data_dir.join("spool")
    }

    /// The folder `.eml` files go to when no SMTP server is configured.
    pub fn mail_dir(&self) -> PathBuf {
        self.mail_dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("mail"))
    }

    /// Checks relations between settings that clap cannot express.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.retry_initial.is_zero() || self.retry_max < self.retry_initial {
            bail!("--retry-max must be at least --retry-initial, and both above zero");
        }
        if self.rate_refill.is_zero() {
            bail!("--rate-refill must be above zero");
        }
        // The rate limiter counts in nanoseconds; a full bucket must fit in that count.
        let full_bucket = self.rate_refill.as_nanos() * u128::from(self.rate_burst);
        if full_bucket > u128::from(u64::MAX / 2) {
            bail!("--rate-burst times --rate-refill must stay below 290 years");
        }
        if self.max_body_bytes < 1024 {
            bail!("--max-body-bytes must be at least 1024");
        }
        for origin in &self.allowed_origins {
            let text = origin.to_str().unwrap_or_default();
            if !(text.starts_with("http://") || text.starts_with("https://")) || text.ends_with('/')
            {
                bail!(
                    "allowed origin `{}` must look like https://www.example.com (scheme, host, optional port, no path)",
                    String::from_utf8_lossy(origin.as_bytes())
                );
            }
        }
        if self
            .newsletter_secret
            .as_ref()
            .is_some_and(|secret| secret.len() < 32)
        {
            bail!("CONTACT_NEWSLETTER_SECRET must be at least 32 characters");
        }
        let urls = [
            ("--site-url", self.site_url.to_str().ok()),
            ("--public-url", self.public_url.as_deref()),
        ];
        for (name, url) in urls.into_iter().filter_map(|(n, u)| u.map(|u| (n, u))) {
            if !(url.starts_with("http://") || url.starts_with("https://")) || url.ends_with('/') {
                bail!("{name} `{url}` must look like https://www.example.com (no trailing slash)");
            }
        }
        if self.database_url.is_some() && self.delivery_lease <= self.delivery_deadline() {
            bail!(
                "--delivery-lease must be longer than the delivery deadline (four times --smtp-timeout, {})",
                humantime::format_duration(self.delivery_deadline())
            );
        }
        if self.database_poll_interval.is_zero() || self.database_connect_timeout.is_zero() {
            bail!("--database-poll-interval and --database-connect-timeout must be above zero");
        }
        for url in &self.webhook_urls {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                bail!("--webhook-url `{url}` must be an http:// or https:// URL");
            }
        }
        match (&self.webhook_secret, self.webhook_format) {
            (Some(secret), _) => {
                crate::webhook::parse_secret(secret)?;
            }
            (None, crate::webhook::Format::Standard) if !self.webhook_urls.is_empty() => {
                bail!("--webhook-url needs CONTACT_WEBHOOK_SECRET (whsec_<base64>) to sign with");
            }
            (None, _) => {}
        }
        if self.smtp_password.is_some() && self.smtp_username.is_none() {
            bail!("CONTACT_SMTP_PASSWORD is set but CONTACT_SMTP_USERNAME is not");
        }
        Ok(())
    }
}

fn duration(text: &str) -> Result<Duration, String> {
    humantime::parse_duration(text).map_err(|e| format!("{e} (examples: 500ms, 30s, 5m, 5d)"))
}

fn ip_net(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(IpNet::from))
        .map_err(|_| format!("`{text}` is neither an IP address nor a CIDR range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_need_no_configuration() {
        let config = Config::from_args(["contact-fn"]).expect("defaults parse");
        assert_eq!(config.bind, "127.0.0.1:8787".parse().expect("address"));
        assert_eq!(config.mail_dir(), PathBuf::from("var/contact-fn/mail"));
        assert_eq!(config.retry_initial, Duration::from_secs(300));
        assert_eq!(config.retry_max, Duration::from_secs(4000));
        assert_eq!(config.retry_give_up, Duration::from_secs(5 * 24 * 3600));
        assert_eq!(config.allowed_origins.len(), 2);
        assert!(config.smtp_url.is_none());
        assert!(config.proof_of_work, "the site's forms solve it");
        config.check().expect("defaults are consistent");
        let off = Config::from_args(["contact-fn", "--proof-of-work=false"]).expect("parses");
        assert!(!off.proof_of_work);
    }

    /// `.env.example` names every variable and shows each default as it is.
    #[test]
    fn env_example_documents_every_setting_with_its_default() {
        use clap::CommandFactory as _;
        let example = include_str!("../.env.example");
        let documented: std::collections::BTreeMap<&str, &str> = example
            .lines()
            .filter_map(|l| l.trim_start_matches('#').split_once('='))
            .filter(|(name, _)| name.starts_with("CONTACT_"))
            .collect();
        let command = Config::command();
        let mut expected = vec![
            ("CONTACT_SMTP_PASSWORD".to_owned(), String::new()),
            ("CONTACT_NEWSLETTER_SECRET".to_owned(), String::new()),
            ("CONTACT_WEBHOOK_SECRET".to_owned(), String::new()),
        ];
        for arg in command.get_arguments() {
            let Some(env) = arg.get_env() else { continue };
            let default: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            expected.push((env.to_string_lossy().into_owned(), default.join(",")));
        }
        for (name, default) in &expected {
            let Some(shown) = documented.get(name.as_str()) else {
                panic!("{name} is missing from .env.example");
            };
            if name == "CONTACT_MAIL_DIR" {
                assert_eq!(*shown, "var/contact-fn/mail");
            } else {
                assert_eq!(shown, default, "default of {name} in .env.example");
            }
        }
        assert_eq!(
            documented.len(),
            expected.len(),
            "no stale names in .env.example"
        );
    }

    #[test]
    fn trusted_proxies_accept_addresses_and_ranges() {
        let config = Config::from_args(["contact-fn", "--trusted-proxies", "10.0.0.0/8,::1"])
            .expect("parses");
        assert_eq!(config.trusted_proxies.len(), 2);
        let err = Config::from_args(["contact-fn", "--trusted-proxies", "nope"])
            .expect_err("rejects")
            .root_cause()
            .to_string();
        assert!(
            err.contains("`nope` is neither an IP address nor a CIDR range"),
            "{err}"
        );
    }

    #[test]
    fn a_huge_rate_bucket_is_refused_not_a_crash() {
        let config =
            Config::from_args(["contact-fn", "--rate-burst", "1000000000"]).expect("parses");
        assert_eq!(
            config.check().expect_err("too large").to_string(),
            "--rate-burst times --rate-refill must stay below 290 years"
        );
        let config = Config::from_args([
            "contact-fn",
            "--rate-burst",
            "1000000000",
            "--rate-refill",
            "1ms",
        ])
        .expect("parses");
        config
            .check()
            .expect("a large burst with a fast refill is fine");
    }

    #[test]
    fn a_lease_shorter_than_a_delivery_is_refused_with_a_database() {
        let config = Config::from_args([
            "contact-fn",
            "--database-url",
            "postgres://db/contact",
            "--smtp-timeout",
            "2m",
        ])
        .expect("parses");
        assert_eq!(
            config.check().expect_err("lease too short").to_string(),
            "--delivery-lease must be longer than the delivery deadline (four times --smtp-timeout, 8m)"
        );
        let config = Config::from_args(["contact-fn", "--smtp-timeout", "2m"]).expect("parses");
        config.check().expect("the file store takes no lease");
    }

    #[test]
    fn retry_bounds_are_checked() {
        let config =
            Config::from_args(["contact-fn", "--retry-initial", "10m", "--retry-max", "1m"])
                .expect("parses");
        assert_eq!(
            config.check().expect_err("inconsistent").to_string(),
            "--retry-max must be at least --retry-initial, and both above zero"
        );
    }
}
