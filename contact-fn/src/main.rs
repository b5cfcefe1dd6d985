//! Reads the configuration, binds the socket and runs the service until SIGTERM or Ctrl-C; or
//! runs one of the commands beside it (`contact-fn subscribers export`, `contact-fn migrate`,
//! `contact-fn outbox list`, `contact-fn dead-letters retry --all`, ...).

use std::io::IsTerminal as _;
use std::process::ExitCode;

use anyhow::Context as _;
use contact_fn::config::{Command, LogFormat, SubscribersCommand};
use contact_fn::{Config, Database};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let mut config = Config::from_env_and_args();
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr);
    match config.log_format {
        LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).init(),
        // The request's span (its id) on each line; the list of outer spans adds nothing.
        LogFormat::Json => logs
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
    let done = match config.command.take() {
        None => serve(config).await,
        Some(Command::Subscribers(command)) => subscribers(&config, command).await,
        Some(Command::Migrate) => migrate(config).await,
        Some(Command::Outbox(command)) => {
            contact_fn::operator::outbox_command(&config, command, &mut std::io::stdout()).await
        }
        Some(Command::DeadLetters(command)) => {
            let mut out = std::io::stdout();
            contact_fn::operator::dead_letters_command(&config, command, &mut out, confirm).await
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn migrate(config: Config) -> anyhow::Result<()> {
    config.check()?;
    let Some(url) = &config.database_url else {
        anyhow::bail!(
            "contact-fn migrate needs --database-url (CONTACT_DATABASE_URL); the data folder needs no migrations"
        );
    };
    let database = Database::connect_lazy(&config, url)?;
    database.migrate().await?;
    tracing::info!(
        "{} is at schema version {}",
        database.describe(),
        Database::schema_version()
    );
    Ok(())
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("listening on {}", config.bind))?;
    contact_fn::run(config, listener, shutdown_signal()).await
}

/// `contact-fn subscribers ...`: works on the store (the data folder, or the database once
/// migrated) while the service runs or not.
async fn subscribers(config: &Config, command: SubscribersCommand) -> anyhow::Result<()> {
    let database = contact_fn::operator::migrated_database(config).await?;
    let store = contact_fn::open_subscribers(config, database.as_ref())?;
    match command {
        SubscribersCommand::Export => {
            let subscribers = store.export().await?;
            let mut out = std::io::stdout().lock();
            contact_fn::subscribers::write_csv(&mut out, &subscribers)
                .context("writing the CSV to stdout")?;
        }
        SubscribersCommand::Remove { address } => {
            if store.remove(address.clone()).await? {
                tracing::info!("removed {address}");
            } else {
                anyhow::bail!("{address} is not known");
            }
        }
    }
    Ok(())
}

/// Asks `question` at the terminal; only `yes` confirms. Not at a terminal, nothing does.
fn confirm(question: &str) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        return Ok(false);
    }
    eprint!("{question}");
    let mut answer = String::new();
    std::io::stdin()
        .read_line(&mut answer)
        .context("reading the answer")?;
    Ok(answer.trim() == "yes")
}

/// Resolves on SIGTERM (how service managers stop us) or Ctrl-C.
async fn shutdown_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
}
