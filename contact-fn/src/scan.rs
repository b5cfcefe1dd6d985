//! The virus scanner hook (`--scan-command`): a command run on each stored file before its
//! message is delivered, with the file's path as its last argument. Its exit status decides:
//! 0 clean, 1 infected (the file is left out of the email, with a line saying why), anything
//! else, or no answer within the time allowed, a failure to retry like a failed delivery.
//! `clamdscan --no-summary --fdpass` answers that way.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use anyhow::Context as _;
use tokio::io::AsyncWriteExt as _;

/// What the scanner said of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Exit status 0.
    Clean,
    /// Exit status 1; the first line the scanner printed, if any.
    Infected(String),
}

/// A private file in the spool that a file to scan is written into, a piece at a time, so that
/// delivery never holds the file whole.
#[derive(Debug)]
pub struct ToScan {
    file: tokio::fs::File,
    /// Removed when the scan ends.
    path: tempfile::TempPath,
}

impl ToScan {
    /// Creates the file in `dir`.
    pub fn create(dir: &Path) -> anyhow::Result<Self> {
        let (file, path) = tempfile::Builder::new()
            .prefix(crate::durable::TEMP_PREFIX)
            .tempfile_in(dir)
            .context("creating the file to scan")?
            .into_parts();
        Ok(Self {
            file: tokio::fs::File::from_std(file),
            path,
        })
    }

    /// Appends `bytes`.
    pub async fn write(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        self.file
            .write_all(bytes)
            .await
            .context("writing the file to scan")
    }
}

/// The configured scanner.
#[derive(Debug, Clone)]
pub struct Scanner {
    program: String,
    args: Vec<String>,
    timeout: Duration,
}

impl Scanner {
    /// The scanner `command` (a program and its arguments, split at spaces), or `None` when
    /// it is empty.
    pub fn new(command: &str, timeout: Duration) -> Option<Self> {
        let mut words = command.split_whitespace().map(str::to_owned);
        let program = words.next()?;
        Some(Scanner {
            program,
            args: words.collect(),
            timeout,
        })
    }

    /// Scans the file written into `file`. An error is a failure to retry.
    pub async fn scan(&self, file: ToScan) -> anyhow::Result<Verdict> {
        let ToScan { mut file, path } = file;
        file.flush().await.context("writing the file to scan")?;
        drop(file);
        let child = tokio::process::Command::new(&self.program)
            .args(&self.args)
            .arg(&*path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting the scanner {}", self.program))?;
        let output = tokio::time::timeout(self.timeout, child.wait_with_output())
            .await
            .map_err(|_| {
                anyhow::anyhow!(
                    "the scanner gave no answer within {}",
                    humantime::format_duration(self.timeout)
                )
            })?
            .context("running the scanner")?;
        match output.status.code() {
            Some(0) => Ok(Verdict::Clean),
            Some(1) => {
                let said = String::from_utf8_lossy(&output.stdout);
                let line = said.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                // The scanner names the file by its private path; only its finding matters.
                let finding = line.rsplit(": ").next().unwrap_or(line).trim();
                Ok(Verdict::Infected(finding.chars().take(200).collect()))
            }
            other => anyhow::bail!(
                "the scanner failed ({}): {}",
                other.map_or("killed by a signal".to_owned(), |c| format!(
                    "exit status {c}"
                )),
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        }
    }
}
