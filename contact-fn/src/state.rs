//! The service's state: every part the handlers share, opened from the configuration (the
//! data folder's stores, or PostgreSQL's), and the periodic clean-up.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use tokio::sync::Semaphore;

use crate::altcha::Altcha;
use crate::auto_reply::{AutoReplier, AutoReplies};
use crate::budget::Budget;
use crate::config::Config;
use crate::delivery::{FileCheck, Mailer, RetryPolicy, Worker};
use crate::idempotency::IdempotencyStore;
use crate::intake::Intake;
use crate::newsletter::{Newsletter, Optin};
use crate::outbox::Outbox;
use crate::scan::Scanner;
use crate::store::files::{FileMarks, FileStore, OutboxPaths};
use crate::store::postgres::Database;
use crate::store::subscribers::DAY_MS;
use crate::store::subscribers::SubscriberStore;
use crate::store::{AutoReplyStore, ChallengeStore};
use crate::{durable, email, limits, webhook};

/// What the proof of work's key is derived for, from the newsletter's secret.
const ALTCHA_KEY_PURPOSE: &str = "contact-fn proof-of-work challenges";

/// Everything the handlers share.
#[derive(Debug, Clone)]
pub struct AppState {
    pub(crate) shared: Arc<Shared>,
}

/// The service's parts, for the handlers.
#[derive(Debug)]
pub(crate) struct Shared {
    pub config: Config,
    pub composer: email::Composer,
    pub outbox: Arc<Outbox>,
    pub idempotency: IdempotencyStore,
    pub subscribers: Arc<dyn SubscriberStore>,
    pub newsletter: Newsletter,
    pub limiter: limits::RateLimiter,
    pub bodies: limits::BodiesInFlight,
    pub mailer: Mailer,
    pub permits: Semaphore,
    pub database: Option<Database>,
    /// The proof of work, when asked for (`--proof-of-work`).
    pub altcha: Option<Altcha>,
    /// The spent proof-of-work challenges.
    pub challenges: Box<dyn ChallengeStore>,
    /// The auto-replies sent (one an address a day).
    pub auto_replies: Box<dyn AutoReplyStore>,
    /// Writes the auto-reply, when asked for with the proof of work on.
    pub auto_replier: Option<AutoReplier>,
}

impl Shared {
    /// What storing a submission works with.
    pub fn intake(&self) -> Intake<'_> {
        Intake {
            composer: &self.composer,
            outbox: &self.outbox,
            idempotency: &self.idempotency,
            optin: self.optin(),
            webhooks: (&self.config.webhook_urls, self.config.webhook_format),
            auto_replies: self.auto_replier.as_ref().map(|replier| AutoReplies {
                replier,
                store: self.auto_replies.as_ref(),
                outbox: &self.outbox,
            }),
        }
    }

    /// What starting the newsletter's opt-in works with.
    pub fn optin(&self) -> Optin<'_> {
        Optin {
            newsletter: &self.newsletter,
            subscribers: self.subscribers.as_ref(),
            outbox: &self.outbox,
        }
    }
}

impl AppState {
    /// Prepares the store (the data folder, or a pool for the database that connects when
    /// first used) and returns the state together with the worker that will deliver the outbox
    /// (not yet running). With a database, [`AppState::migrate`] must run before serving.
    pub fn open(config: Config) -> anyhow::Result<(AppState, Worker)> {
        config.check()?;
        let data = &config.data_dir;
        let database = config
            .database_url
            .as_deref()
            .map(|url| Database::connect_lazy(&config, url))
            .transpose()?;
        let outbox = Arc::new(open_outbox(&config, database.as_ref())?);
        let idempotency = match &database {
            Some(db) => IdempotencyStore::postgres(db.keys(), config.idempotency_ttl),
            None => IdempotencyStore::open(data.join("idempotency"), config.idempotency_ttl)
                .context("opening the idempotency records")?,
        };
        let challenges: Box<dyn ChallengeStore> = match &database {
            Some(db) => Box::new(db.challenges()),
            None => Box::new(
                FileMarks::open(data.join("challenges")).context("opening the spent challenges")?,
            ),
        };
        let auto_replies: Box<dyn AutoReplyStore> = match &database {
            Some(db) => Box::new(db.auto_replies()),
            None => Box::new(
                FileMarks::open(data.join("auto-replies"))
                    .context("opening the auto-replies sent")?,
            ),
        };
        let subscribers = open_subscribers(&config, database.as_ref())?;
        let public_url = config
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", config.bind));
        let newsletter =
            Newsletter::new(&config, &public_url).context("preparing the newsletter")?;
        let mailer = Mailer::from_config(&config)?;
        let webhook_key = config
            .webhook_secret
            .as_deref()
            .map(webhook::parse_secret)
            .transpose()?;
        let spool = config.spool_dir();
        std::fs::create_dir_all(&spool)
            .with_context(|| format!("creating the upload spool {}", spool.display()))?;
        durable::remove_leftovers(&spool)
            .with_context(|| format!("cleaning up {}", spool.display()))?;
        let files = FileCheck {
            scanner: config
                .scan_command
                .as_deref()
                .and_then(|command| Scanner::new(command, config.scan_timeout)),
            dir: spool,
            budget: Budget::new(config.delivery_memory),
        };
        let worker = Worker::new(
            outbox.clone(),
            (mailer.clone(), files),
            webhook::Sender::new(webhook_key.as_deref(), config.webhook_timeout)?,
            RetryPolicy::from_config(&config),
            config.smtp_concurrency as usize,
            config.shutdown_grace,
        );
        let altcha = config.proof_of_work.then(|| {
            Altcha::new(
                newsletter.derived_key(ALTCHA_KEY_PURPOSE),
                config.proof_of_work_max_number,
                config.proof_of_work_expiry,
            )
        });
        if config.auto_reply && altcha.is_none() {
            tracing::warn!("no auto-reply: without the proof of work no sender is verified");
        }
        let auto_replier = (config.auto_reply && altcha.is_some())
            .then(|| AutoReplier::new(&config))
            .transpose()?;
        let shared = Shared {
            auto_replier,
            altcha,
            challenges,
            auto_replies,
            composer: email::Composer::new(&config)?,
            limiter: limits::RateLimiter::new(config.rate_burst, config.rate_refill),
            bodies: limits::BodiesInFlight::new(config.max_bodies_per_client),
            permits: Semaphore::new(config.max_concurrency as usize),
            outbox,
            idempotency,
            subscribers,
            newsletter,
            mailer,
            database,
            config,
        };
        Ok((
            AppState {
                shared: Arc::new(shared),
            },
            worker,
        ))
    }

    /// The settings in force.
    pub fn config(&self) -> &Config {
        &self.shared.config
    }

    /// The outbox, to inspect what waits.
    pub fn outbox(&self) -> &Outbox {
        &self.shared.outbox
    }

    /// The newsletter's subscribers.
    pub fn auto_replies(&self) -> &dyn AutoReplyStore {
        self.shared.auto_replies.as_ref()
    }

    /// The subscribers.
    pub fn subscribers(&self) -> &dyn SubscriberStore {
        self.shared.subscribers.as_ref()
    }

    /// The newsletter's links, emails and pages.
    pub fn newsletter(&self) -> &Newsletter {
        &self.shared.newsletter
    }

    /// The idempotency records.
    pub fn idempotency(&self) -> &IdempotencyStore {
        &self.shared.idempotency
    }

    /// Applies the database migrations, if a database is configured.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        match &self.shared.database {
            Some(db) => db.migrate().await,
            None => Ok(()),
        }
    }

    /// Where messages are stored, in words.
    pub fn store_description(&self) -> String {
        match &self.shared.database {
            Some(db) => format!("{} as replica {}", db.describe(), db.replica()),
            None => format!("in {}", self.shared.config.data_dir.display()),
        }
    }

    /// Where mail goes, in words.
    pub fn mail_destination(&self) -> String {
        self.shared.mailer.describe()
    }

    /// Periodic clean-up: idle rate-limit buckets, expired idempotency records and, once an
    /// hour, addresses that never confirmed.
    pub async fn housekeeping(&self, tick: u64) {
        self.shared.limiter.forget_idle();
        self.shared.idempotency.prune().await;
        if let Err(error) = self.shared.challenges.prune(durable::now_ms()).await {
            tracing::warn!("could not forget expired challenges: {error:#}");
        }
        let today = durable::now_ms() / DAY_MS;
        if let Err(error) = self.shared.auto_replies.prune(today).await {
            tracing::warn!("could not forget past auto-replies: {error:#}");
        }
        if tick.is_multiple_of(60) {
            // A link works for the TTL; a day more keeps the per-address count meaningful.
            let pending_for =
                self.shared.config.newsletter_confirm_ttl + Duration::from_secs(86_400);
            match self
                .shared
                .subscribers
                .prune(durable::now_ms(), pending_for)
                .await
            {
                Ok(0) => {}
                Ok(forgotten) => tracing::info!(forgotten, "forgot unconfirmed addresses"),
                Err(error) => tracing::warn!(
                    "pruning the subscribers failed: {:#}",
                    anyhow::anyhow!(error)
                ),
            }
        }
    }
}

/// The outbox the configuration asks for: the tables of `database` when the configuration
/// names one (`--database-url`), else the folders in the data folder.
pub fn open_outbox(config: &Config, database: Option<&Database>) -> anyhow::Result<Outbox> {
    let (max_messages, max_bytes) = (config.outbox_max_messages, config.outbox_max_bytes);
    if config.database_url.is_some() {
        let database = database.context("the database is configured but not connected")?;
        return Ok(Outbox::postgres(database.outbox(max_messages, max_bytes)));
    }
    let data = &config.data_dir;
    let paths = OutboxPaths {
        outbox: data.join("outbox"),
        dead: data.join("dead"),
        attachments: data.join("attachments"),
    };
    Outbox::open(paths, max_messages, max_bytes).context("opening the outbox")
}

/// The subscriber store the configuration asks for: the tables of `database` when the
/// configuration names one (`--database-url`), else the files in the data folder.
pub fn open_subscribers(
    config: &Config,
    database: Option<&Database>,
) -> anyhow::Result<Arc<dyn SubscriberStore>> {
    if config.database_url.is_some() {
        let database = database.context("the database is configured but not connected")?;
        return Ok(Arc::new(database.subscribers(config.subscribers_max)));
    }
    let store = FileStore::open(config.data_dir.join("subscribers"), config.subscribers_max)
        .context("opening the subscribers")?;
    Ok(Arc::new(store))
}
