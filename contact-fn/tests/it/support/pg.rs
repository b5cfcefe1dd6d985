//! Throwaway PostgreSQL clusters: initdb + pg_ctl in a temporary folder, on a free loopback
//! port, as the `postgres` user when run as root. Tests never touch a database they did not
//! create.
//!
//! [`Cluster::shared`] is one cluster for the whole test run: the first test process starts it
//! (under a file lock), the others of the same runner (`cargo test`, or nextest with its
//! process per test) reuse it, and each test takes a fresh database of it. A watchdog process
//! stops and removes it as soon as the runner exits, however it ends. [`Cluster::private`] is
//! one for a single test that stops and starts it; it goes on drop, on panic, and with the
//! test process.
#![allow(dead_code, clippy::unwrap_used)]

use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use sqlx::Connection as _;

/// The message that says how to install PostgreSQL.
const INSTALL: &str = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): \
                       run `make postgres`";

/// The folder of initdb, pg_ctl and postgres: the newest of `/usr/lib/postgresql/*/bin`, or
/// `PG_BIN_DIR`.
pub fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PG_BIN_DIR") {
        return PathBuf::from(dir);
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let version = e.file_name().to_str()?.parse::<u32>().ok()?;
                    let bin = e.path().join("bin");
                    bin.join("initdb").exists().then_some((version, bin))
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.pop().map(|(_, bin)| bin).expect(INSTALL)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A PostgreSQL tool as a command, run as `postgres` when we are root (PostgreSQL refuses root).
fn tool(name: &str) -> Command {
    let path = bin_dir().join(name);
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(path);
        command
    } else {
        Command::new(path)
    }
}

fn run(mut command: Command, what: &str) {
    let output = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what}: {e}; {INSTALL}"));
    assert!(
        output.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Hands `dir` to the `postgres` user when we are root.
fn give_to_postgres(dir: &Path) {
    if is_root() {
        let mut command = Command::new("chown");
        command.args(["-R", "postgres:"]).arg(dir);
        run(command, "chown to postgres");
    }
}

/// A running cluster.
#[derive(Debug)]
pub struct Cluster {
    /// Folder of everything: data, socket, log.
    root: PathBuf,
    /// Its loopback port.
    pub port: u16,
    /// Whether dropping it removes it (a private cluster).
    owned: bool,
    /// Whether commits wait for the disk, as in production (the benchmark); tests do not.
    durable: bool,
}

impl Cluster {
    /// The cluster of this test run, started by whichever test needs it first.
    pub fn shared() -> &'static Cluster {
        static SHARED: OnceLock<Cluster> = OnceLock::new();
        SHARED.get_or_init(|| {
            // Every test process of one runner has the same parent: the runner.
            let runner = std::os::unix::process::parent_id();
            let root = std::env::temp_dir().join(format!("contact-fn-pg-{runner}"));
            let lock = File::create(root.with_extension("lock")).unwrap();
            lock.lock().unwrap();
            let port_file = root.join("port");
            if let Some(port) = std::fs::read_to_string(&port_file)
                .ok()
                .and_then(|p| p.trim().parse().ok())
            {
                return Cluster {
                    root,
                    port,
                    owned: false,
                    durable: false,
                };
            }
            let _ = std::fs::remove_dir_all(&root);
            let cluster = Cluster::create(root, runner, false, false);
            std::fs::write(&port_file, cluster.port.to_string()).unwrap();
            cluster
        })
    }

    /// A cluster of its own, for a test that stops and starts it; removed when dropped.
    pub fn private() -> Cluster {
        Cluster::own(false)
    }

    /// A cluster of its own whose commits wait for the disk (fsync, synchronous commit), as a
    /// production database's do; removed when dropped.
    pub fn durable() -> Cluster {
        Cluster::own(true)
    }

    fn own(durable: bool) -> Cluster {
        let root = std::env::temp_dir().join(format!(
            "contact-fn-pg-own-{}-{}",
            std::process::id(),
            uuid::Uuid::now_v7().simple()
        ));
        Cluster::create(root, std::process::id(), true, durable)
    }

    /// initdb, start, and a watchdog that removes the cluster once process `watched` is gone.
    #[allow(
        clippy::zombie_processes,
        reason = "the watchdog outlives this process by design"
    )]
    fn create(root: PathBuf, watched: u32, owned: bool, durable: bool) -> Cluster {
        let bin = bin_dir();
        std::fs::create_dir_all(&root).unwrap();
        give_to_postgres(&root);
        let mut initdb = tool("initdb");
        initdb
            .args([
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
                "-D",
            ])
            .arg(root.join("data"));
        run(initdb, "initdb");
        let cluster = Cluster {
            port: TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port(),
            root,
            owned,
            durable,
        };
        // The watchdog outlives this process in a session of its own, and stops the cluster
        // (and removes its folder) when the watched process ended, whichever way it ended.
        let run_as = if is_root() {
            "runuser -u postgres -- "
        } else {
            ""
        };
        let script = format!(
            "while kill -0 {watched} 2>/dev/null; do sleep 1; done; \
             {run_as}'{pg_ctl}' stop -D '{data}' -m immediate >/dev/null 2>&1; \
             rm -rf '{root}' '{root}.lock'",
            pg_ctl = bin.join("pg_ctl").display(),
            data = cluster.root.join("data").display(),
            root = cluster.root.display(),
        );
        Command::new("setsid")
            .args(["sh", "-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        cluster.start();
        cluster
    }

    /// Starts the (stopped) cluster and waits until it accepts connections.
    pub fn start(&self) {
        let speed = if self.durable {
            ""
        } else {
            " -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        };
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c max_connections=300{speed}",
            self.port,
            self.root.display()
        );
        let mut pg_ctl = tool("pg_ctl");
        pg_ctl
            .args(["start", "-w", "-t", "30", "-D"])
            .arg(self.root.join("data"))
            .arg("-l")
            .arg(self.root.join("log"))
            .args(["-o", &options])
            .stdout(Stdio::null());
        run(pg_ctl, "pg_ctl start");
    }

    /// Stops the cluster (fast: connections are cut, as in an outage).
    pub fn stop(&self) {
        let mut pg_ctl = tool("pg_ctl");
        pg_ctl
            .args(["stop", "-w", "-m", "fast", "-D"])
            .arg(self.root.join("data"))
            .stdout(Stdio::null());
        run(pg_ctl, "pg_ctl stop");
    }

    /// The URL of database `name`.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// A new, empty database of its own; returns its URL.
    pub async fn database(&self) -> String {
        let name = format!("test_{}", uuid::Uuid::now_v7().simple());
        let mut admin = sqlx::PgConnection::connect(&self.url("postgres"))
            .await
            .unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap();
        admin.close().await.unwrap();
        self.url(&name)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.owned {
            let mut pg_ctl = tool("pg_ctl");
            pg_ctl
                .args(["stop", "-m", "immediate", "-D"])
                .arg(self.root.join("data"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            let _ = pg_ctl.status();
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}
