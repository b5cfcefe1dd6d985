//! `contact-fn`: the service behind the website's contact forms.
//!
//! It validates a form submission, stores it durably in an outbox (files in the data folder,
//! or PostgreSQL shared by several replicas), answers the visitor, and delivers the email in
//! the background, retrying until the mail server takes it. [`app`] is the HTTP interface
//! (testable without a socket), [`run`] the whole service.

pub mod config;
mod delivery;
mod durable;
mod email;
mod error;
mod idempotency;
mod intake;
mod limits;
pub mod newsletter;
mod outbox;
mod postgres;
mod routes;
mod server;
pub mod submission;
pub mod subscribers;
pub mod telemetry;
pub mod webhook;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use axum::Router;
use axum::http::{HeaderName, Method, StatusCode, header};
use axum::response::{IntoResponse as _, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use config::Config;
pub use delivery::{Mailer, RetryPolicy, Worker};
/// What the service, sitegen and the site agree on: fields, limits, options, paths, codes.
pub use form_contract as contract;
use form_contract::FormKind;
pub use idempotency::{IdempotencyStore, Seen};
pub use newsletter::Newsletter;
pub use outbox::{EnqueueError, Outbox, Record, Taken, WebhookTarget};
pub use postgres::Database;
pub use server::ServerLimits;
pub use subscribers::{FileStore, PgSubscriberStore, SubscriberStore};

/// Everything the handlers share.
#[derive(Debug, Clone)]
pub struct AppState {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    config: Config,
    composer: email::Composer,
    outbox: Arc<Outbox>,
    idempotency: idempotency::IdempotencyStore,
    subscribers: Arc<dyn SubscriberStore>,
    newsletter: Newsletter,
    limiter: limits::RateLimiter,
    bodies: limits::BodiesInFlight,
    mailer: Mailer,
    permits: Semaphore,
    database: Option<Database>,
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
        let (outbox, idempotency) = match &database {
            Some(db) => (
                Outbox::postgres(db.outbox(config.outbox_max_messages, config.outbox_max_bytes)),
                idempotency::IdempotencyStore::postgres(db.keys(), config.idempotency_ttl),
            ),
            None => (
                Outbox::open(
                    outbox::OutboxPaths {
                        outbox: data.join("outbox"),
                        dead: data.join("dead"),
                    },
                    config.outbox_max_messages,
                    config.outbox_max_bytes,
                )
                .context("opening the outbox")?,
                idempotency::IdempotencyStore::open(
                    data.join("idempotency"),
                    config.idempotency_ttl,
                )
                .context("opening the idempotency records")?,
            ),
        };
        let outbox = Arc::new(outbox);
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
        let worker = Worker::new(
            outbox.clone(),
            mailer.clone(),
            webhook::Sender::new(webhook_key.as_deref(), config.webhook_timeout),
            RetryPolicy::from_config(&config),
            config.smtp_concurrency as usize,
            config.shutdown_grace,
        );
        let shared = Shared {
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

/// The request headers a browser may send cross-origin: those of the site's own fetch and
/// of supabase-js `functions.invoke`.
const ALLOWED_HEADERS: [&str; 5] = [
    "authorization",
    "apikey",
    "x-client-info",
    "content-type",
    "idempotency-key",
];

/// The HTTP interface.
pub fn app(state: AppState) -> Router {
    let config = state.config();
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::list(config.allowed_origins.clone()))
        .allow_methods([Method::POST])
        .allow_headers(ALLOWED_HEADERS.map(HeaderName::from_static))
        .expose_headers([header::RETRY_AFTER])
        .max_age(Duration::from_secs(3600));
    let timeout =
        TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout);
    let forms = FormKind::ALL.iter().fold(Router::new(), |router, &kind| {
        router
            .route(kind.path(), routes::form(kind))
            .route(&kind.functions_path(), routes::form(kind))
    });
    forms
        .route(contract::CONFIRM_PATH, get(routes::confirm))
        .route(
            contract::UNSUBSCRIBE_PATH,
            get(routes::unsubscribe_page).post(routes::unsubscribe),
        )
        .route("/healthz", get(routes::healthz))
        .route("/readyz", get(routes::readyz))
        .layer(cors)
        .layer(timeout)
        .layer(CatchPanicLayer::custom(|_| panic_response()))
        .layer(TraceLayer::new_for_http().make_span_with(telemetry::request_span))
        .layer(axum::middleware::from_fn(telemetry::observe))
        .with_state(state)
}

fn panic_response() -> Response {
    let error = error::AppError::Internal(anyhow::anyhow!("a request handler panicked"));
    error.log();
    error.into_response()
}

/// Runs the whole service on `listener` until `shutdown` resolves: the HTTP server, the
/// delivery worker and the periodic clean-up. Returns once everything stopped.
pub async fn run(
    mut config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let limits = ServerLimits {
        max_connections: config.max_connections as usize,
        header_timeout: config.header_timeout,
        shutdown_grace: config.shutdown_grace,
    };
    if config.public_url.is_none()
        && let Ok(address) = listener.local_addr()
    {
        config.public_url = Some(format!("http://{address}"));
    }
    // Installed before anything is recorded; without it every recording is a no-op.
    let metrics = match config.metrics_bind {
        Some(bind) => {
            let listener = TcpListener::bind(bind)
                .await
                .with_context(|| format!("listening on {bind} for the metrics"))?;
            telemetry::recorder();
            Some(listener)
        }
        None => None,
    };
    let (state, worker) = AppState::open(config)?;
    state.migrate().await?;
    tracing::info!("messages are stored {}", state.store_description());
    tracing::info!(
        "mail to {} is delivered {}",
        state.config().mail_to,
        state.mail_destination()
    );
    let queued = state.outbox().len().await?;
    if queued > 0 {
        tracing::info!(queued, "resuming the outbox");
    }
    if let Ok(address) = listener.local_addr() {
        tracing::info!("listening on http://{address}");
    }

    let (stop, stopped) = watch::channel(false);
    let metrics = metrics.map(|listener| {
        if let Ok(address) = listener.local_addr() {
            tracing::info!("metrics on http://{address}{}", routes::METRICS_PATH);
        }
        let router = Router::new()
            .route(routes::METRICS_PATH, get(routes::metrics))
            .with_state(state.clone());
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move {
                    let _ = stopped.wait_for(|stop| *stop).await;
                })
                .await
        })
    });
    let worker = tokio::spawn(worker.run(stopped.clone()));
    let housekeeping = tokio::spawn({
        let state = state.clone();
        let mut stopped = stopped;
        async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            let mut ticks = 0_u64;
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        state.housekeeping(ticks).await;
                        ticks += 1;
                    }
                    _ = stopped.changed() => break,
                }
            }
        }
    });

    server::serve(listener, app(state), limits, shutdown).await;
    // The HTTP side is done; let the worker finish what it delivers right now.
    stop.send_replace(true);
    worker.await.context("the delivery worker failed")?;
    housekeeping.await.context("the housekeeping task failed")?;
    if let Some(metrics) = metrics {
        metrics
            .await
            .context("the metrics server failed")?
            .context("serving the metrics")?;
    }
    tracing::info!("stopped");
    Ok(())
}
