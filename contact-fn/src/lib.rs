//! `contact-fn`: the service behind the website's contact forms.
//!
//! It validates a form submission, stores it durably in an outbox (files in the data folder,
//! or PostgreSQL shared by several replicas), answers the visitor, and delivers the email in
//! the background, retrying until the mail server takes it. [`app`] is the HTTP interface
//! (testable without a socket), [`run`] the whole service.

mod altcha;
pub mod attachment;
mod auto_reply;
mod budget;
pub mod config;
mod delivery;
mod durable;
mod email;
mod error;
/// The fuzz targets' entry points (`contact-fn/fuzz/`); not an interface.
#[doc(hidden)]
pub mod fuzzing;
mod hex;
mod idempotency;
mod intake;
pub mod language;
mod limits;
mod mixed;
pub mod newsletter;
pub mod operator;
mod outbox;
mod outcome;
mod routes;
mod scan;
mod server;
pub mod spam;
mod spool;
mod state;
mod store;
pub mod submission;
pub mod telemetry;
mod upload;
pub mod webhook;

use std::future::Future;
use std::time::Duration;

use anyhow::Context as _;
use axum::Router;
use axum::http::{HeaderName, Method, StatusCode, header};
use axum::response::{IntoResponse as _, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use auto_reply::words as auto_reply_words;
pub use config::Config;
pub use delivery::{Mailer, RetryPolicy, Worker};
/// What the service, sitegen and the site agree on: fields, limits, options, paths, codes.
pub use form_contract as contract;
use form_contract::FormKind;
pub use idempotency::IdempotencyStore;
pub use newsletter::Newsletter;
pub use outbox::Outbox;
pub use server::ServerLimits;
pub use state::{AppState, open_outbox, open_subscribers};
pub use store::files::FileStore;
pub use store::postgres::Database;
pub use store::postgres::PgSubscriberStore;
/// The newsletter's subscribers: what a store keeps of them, and the stores' behaviour suite.
pub use store::subscribers;
pub use store::subscribers::SubscriberStore;
pub use store::{AutoReplyStore, auto_reply_key};
pub use store::{Depth, EnqueueError, Notifications, Record, Seen, Taken, WebhookTarget};

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
    // The contact form takes files: its requests may take the upload's time on top.
    let upload_timeout = TimeoutLayer::with_status_code(
        StatusCode::REQUEST_TIMEOUT,
        config.request_timeout + config.upload_timeout,
    );
    let forms = FormKind::ALL.iter().fold(Router::new(), |router, &kind| {
        let timeout = match kind {
            FormKind::Contact => upload_timeout,
            _ => timeout,
        };
        router
            .route(kind.path(), routes::form(kind).layer(timeout))
            .route(&kind.functions_path(), routes::form(kind).layer(timeout))
    });
    let others = Router::new()
        .route(contract::CONFIRM_PATH, get(routes::confirm))
        .route(
            contract::UNSUBSCRIBE_PATH,
            get(routes::unsubscribe_page).post(routes::unsubscribe),
        )
        .route(contract::CHALLENGE_PATH, get(routes::challenge))
        .route("/healthz", get(routes::healthz))
        .route("/readyz", get(routes::readyz))
        .layer(timeout);
    forms
        .merge(others)
        .layer(cors)
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The modules from the bottom up: each may import only modules of the levels below its
    /// own (and its own submodules). The store's interface (types, traits, the subscribers'
    /// rules) is near the bottom, its backends above it, the domain above those, the HTTP
    /// handlers and the wiring on top.
    const LAYERS: &[&[&str]] = &[
        &["hex"],
        &["durable", "limits", "server", "attachment", "budget"],
        &["submission", "mixed", "spool"],
        &["store", "spam", "upload", "language"],
        &["telemetry", "webhook", "altcha", "scan"],
        &["config"],
        &["store/files", "store/postgres"],
        &["outbox"],
        &["idempotency", "outcome"],
        &["email", "newsletter", "delivery", "auto_reply"],
        &["intake", "error"],
        &["state"],
        &["routes", "operator"],
        &["fuzzing"],
        &["lib", "main"],
    ];

    fn level(module: &str) -> Option<usize> {
        LAYERS.iter().position(|level| level.contains(&module))
    }

    /// Every `.rs` file under `src/`, by its path below it, with its text.
    fn sources(dir: &Path, prefix: &str, found: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                sources(&path, &format!("{prefix}{name}/"), found);
            } else if name.ends_with(".rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                found.push((format!("{prefix}{name}"), text));
            }
        }
    }

    /// `store/files` or `store/postgres` when `name` is `store` and `rest` goes on into one
    /// of the backends, which are a layer of their own above the store's interface.
    fn backend(name: &str, rest: &str) -> Option<String> {
        let backend = ["files", "postgres"]
            .into_iter()
            .find(|b| name == "store" && rest.starts_with(&format!("::{b}")))?;
        Some(format!("store/{backend}"))
    }

    /// The crate-level names `source` reaches for: `crate::a`, and each of `crate::{a, b::c}`.
    fn imports(source: &str) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        for (at, _) in source.match_indices("crate::") {
            let rest = &source[at + "crate::".len()..];
            let words = match rest.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or_default(),
                None => rest,
            };
            for word in words.split(',') {
                let name: String = word
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    names.insert(backend(&name, &rest[name.len()..]).unwrap_or(name));
                }
                if !rest.starts_with('{') {
                    break;
                }
            }
        }
        names
    }

    #[test]
    fn modules_import_only_from_lower_layers() {
        let mut files = Vec::new();
        sources(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            "",
            &mut files,
        );
        assert!(files.len() > 20, "the sources were not found");
        // The root wires everything together; nothing imports it.
        for (file, source) in files
            .iter()
            .filter(|(f, _)| f != "lib.rs" && f != "main.rs")
        {
            let first = file.split(['/', '.']).next().unwrap_or_default();
            let after = file
                .get(first.len()..)
                .unwrap_or_default()
                .replace('/', "::");
            let module = backend(first, &after).unwrap_or_else(|| first.to_owned());
            let module = module.as_str();
            let own = level(module).unwrap_or_else(|| panic!("{file}: give {module} a layer"));
            for name in imports(source) {
                if name == module {
                    continue;
                }
                let Some(theirs) = level(&name) else {
                    panic!("{file} imports crate::{name} from the crate's root");
                };
                assert!(
                    theirs < own,
                    "{file} imports crate::{name}, which is not below it"
                );
            }
        }
    }
}
