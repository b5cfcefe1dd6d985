//! The processes `sitegen dev` starts: each in a process group of its own, so stopping one stops
//! everything it started (Node's workers included), and a terminal's Ctrl-C reaches only
//! `sitegen`, which then stops them in order.

use std::process::Stdio;
use std::time::Duration;

use anyhow::Context as _;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, Command};

/// How long a child may take to exit after SIGTERM before its group is killed.
const GRACE: Duration = Duration::from_secs(5);

/// A started child process, leader of its own process group.
#[derive(Debug)]
pub struct Owned {
    /// What it is, for messages (`the Vite dev server`).
    pub name: &'static str,
    child: Child,
    group: Option<Pid>,
}

/// Which output lines of a child to pass on to the terminal.
pub type LineFilter = fn(&str) -> bool;

impl Owned {
    /// Starts `command` in a new process group. Its output goes to the terminal, less the lines
    /// `keep` rejects.
    pub fn spawn(
        name: &'static str,
        mut command: Command,
        keep: LineFilter,
    ) -> anyhow::Result<Self> {
        command
            .process_group(0)
            .kill_on_drop(true)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .with_context(|| format!("starting {name}"))?;
        let group = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .map(Pid::from_raw);
        if let Some(out) = child.stdout.take() {
            tokio::spawn(forward(BufReader::new(out), keep, false));
        }
        if let Some(err) = child.stderr.take() {
            tokio::spawn(forward(BufReader::new(err), keep, true));
        }
        Ok(Self { name, child, group })
    }

    /// Resolves when the child exits on its own, saying so.
    pub async fn exited(&mut self) -> anyhow::Error {
        match self.child.wait().await {
            Ok(status) => anyhow::anyhow!("{} stopped ({status})", self.name),
            Err(err) => anyhow::anyhow!("{} stopped ({err})", self.name),
        }
    }

    /// Stops the whole process group: SIGTERM, then SIGKILL for whatever is left after
    /// [`GRACE`] (or at once, for members that outlived their leader).
    pub async fn stop(mut self) {
        let Some(group) = self.group else { return };
        // ESRCH (the group is already gone) is the outcome we want.
        let _ = killpg(group, Signal::SIGTERM);
        let _ = tokio::time::timeout(GRACE, self.child.wait()).await;
        let _ = killpg(group, Signal::SIGKILL);
        let _ = self.child.wait().await;
    }
}

async fn forward<R: tokio::io::AsyncRead + Unpin>(
    reader: BufReader<R>,
    keep: LineFilter,
    err: bool,
) {
    let mut lines = reader.lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if keep(&line) {
            if err {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
    }
}
