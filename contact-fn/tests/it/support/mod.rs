//! Shared pieces of the integration tests: a real SMTP server, the service started
//! in-process or as the real binary, and request bodies.
#![allow(dead_code, clippy::unwrap_used)]

pub mod pg;
pub mod smtp;

/// The store a test that runs on both is given.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// The data folder (the embedded default).
    Files,
    /// A database of the shared throwaway PostgreSQL cluster.
    Postgres,
}

/// Runs each named `async fn(Kind)` of the test file against both stores, as
/// `files::NAME` and `postgres::NAME` (the file imports [`Kind`]).
#[allow(unused_macros)]
macro_rules! on_both_stores {
    ($($test:ident),* $(,)?) => {
        mod files {
            $(#[tokio::test] async fn $test() { super::$test(super::Kind::Files).await; })*
        }
        mod postgres {
            $(#[tokio::test] async fn $test() { super::$test(super::Kind::Postgres).await; })*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both_stores;

use std::io::{BufRead as _, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;

use serde_json::{Value, json};

/// Longest any test waits for something to happen before failing.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub use smtp::{Mode, Received, SmtpServer};

impl SmtpServer {
    /// Waits until at least `count` messages arrived, and returns all of them.
    pub async fn wait_for(&self, count: usize) -> Vec<Received> {
        eventually(&format!("{count} message(s) at the SMTP server"), || {
            self.count() >= count
        })
        .await;
        self.received()
    }
}

/// A loopback port nobody listens on right now (and a listener to claim it later).
pub fn free_port() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// Waits (bounded) until `condition` holds; fails the test with `what` otherwise.
pub async fn eventually(what: &str, condition: impl FnMut() -> bool) {
    eventually_showing(what, condition, String::new).await;
}

/// [`eventually`], and when it gives up, says what `state` shows then: what was there
/// instead tells a slow outcome from a lost one.
pub async fn eventually_showing(
    what: &str,
    mut condition: impl FnMut() -> bool,
    state: impl FnOnce() -> String,
) {
    let start = Instant::now();
    while !condition() {
        if start.elapsed() >= PATIENCE {
            panic!("gave up waiting for {what}\n{}", state());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Flags that make the service quick and permissive enough for tests.
pub fn test_args(data_dir: &Path) -> Vec<String> {
    [
        "contact-fn",
        "--bind",
        "127.0.0.1:0",
        "--data-dir",
        data_dir.to_str().unwrap(),
        "--retry-initial",
        "100ms",
        "--retry-max",
        "300ms",
        "--rate-burst",
        "1000",
        "--smtp-timeout",
        "5s",
        "--shutdown-grace",
        "5s",
        // Most tests post as a script without the proof of work would, and check the email as
        // the company reads it; tests of the proof of work ask for it again (the last flag wins).
        "--proof-of-work=false",
    ]
    .map(String::from)
    .to_vec()
}

/// The service running in this test process.
#[derive(Debug)]
pub struct Service {
    /// Base URL, e.g. `http://127.0.0.1:41234`.
    pub base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl Service {
    /// Starts the service with the test flags plus `extra`.
    pub async fn start(data_dir: &Path, extra: &[&str]) -> Self {
        Self::start_with(data_dir, extra, |_| {}).await
    }

    /// Starts the service with the test flags plus `extra`, and what `adjust` sets beyond
    /// flags (the settings read from the environment only).
    pub async fn start_with(
        data_dir: &Path,
        extra: &[&str],
        adjust: impl FnOnce(&mut contact_fn::Config),
    ) -> Self {
        let mut args = test_args(data_dir);
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut config = contact_fn::Config::from_args(args).unwrap();
        adjust(&mut config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(contact_fn::run(config, listener, async {
            let _ = stopped.await;
        }));
        Self {
            base,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Stops gracefully and waits until everything finished.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.unwrap().unwrap();
        }
    }
}

/// The service as the real binary, in a child process.
#[derive(Debug)]
pub struct Process {
    child: Child,
    /// Base URL.
    pub base: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Process {
    /// Starts the binary with the test flags plus `extra`, and waits until it listens.
    pub fn start(data_dir: &Path, extra: &[&str]) -> Self {
        let mut args: Vec<String> = test_args(data_dir).split_off(1);
        args.extend(extra.iter().map(|s| s.to_string()));
        Self::spawn(None, &args)
    }

    /// Starts the binary in `cwd` with only `args` (no test flags) and waits until it listens.
    pub fn start_in(cwd: &Path, args: &[&str]) -> Self {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Self::spawn(Some(cwd), &args)
    }

    /// Starts the binary with the test flags plus `extra`, in the control group whose
    /// `cgroup.procs` is `procs` from its first instruction on (a shell joins it, then becomes
    /// the binary), and waits until it listens.
    pub fn start_in_cgroup(procs: &Path, data_dir: &Path, extra: &[&str]) -> Self {
        let mut args: Vec<String> = test_args(data_dir).split_off(1);
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut command = Command::new("sh");
        command.args(["-c", "echo $$ > \"$0\" && exec \"$@\""]);
        command.arg(procs).arg(env!("CARGO_BIN_EXE_contact-fn"));
        Self::spawn_command(command, &args)
    }

    /// Whether the process still runs.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Peak resident memory of the process so far, in bytes (`VmHWM`).
    pub fn peak_rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kib * 1024
    }

    fn spawn(cwd: Option<&Path>, args: &[String]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_contact-fn"));
        if let Some(cwd) = cwd {
            command.current_dir(cwd);
        }
        Self::spawn_command(command, args)
    }

    fn spawn_command(mut command: Command, args: &[String]) -> Self {
        let mut child = command
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (found_address, found) = std::sync::mpsc::channel();
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[contact-fn] {line}");
                // In text and JSON lines alike: the address ends at a quote or a space.
                if let Some((_, rest)) = line.split_once("listening on ") {
                    let address = rest.split(['"', ' ']).next().unwrap_or_default();
                    let _ = found_address.send(address.to_owned());
                }
                lines.lock().unwrap().push(line);
            }
        });
        let base = found
            .recv_timeout(PATIENCE)
            .expect("the service logs the address it listens on");
        Self { child, base, log }
    }

    /// Everything the process logged so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Kills the process outright (SIGKILL), as a crash or power loss would.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Asks the process to stop (SIGTERM) and waits for it; returns whether it exited cleanly.
    pub fn terminate(mut self) -> bool {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -TERM failed");
        self.child.wait().unwrap().success()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The names the contact form's fields are sent under, from the form contract.
pub fn contact_field_names() -> Vec<&'static str> {
    let fields = contact_fn::contract::CONTACT.all();
    fields.iter().map(|field| field.name).collect()
}

/// Asserts that `text` (an email body) holds the value of every contact field of `body`.
pub fn assert_holds_every_contact_field(text: &str, body: &Value) {
    for field in contact_field_names() {
        let value = body[field].as_str().unwrap();
        assert!(text.contains(value), "{field} missing: {text}");
    }
}

/// A valid contact page submission.
pub fn contact_body() -> Value {
    json!({
        "name": "Ada Lovelace",
        "email": "ada@example.org",
        "company": "Analytical Engines Ltd",
        "countryCode": "+44",
        "phone": "20 7946 0958",
        "subject": "A new engine",
        "message": "Hello,\nwe would like to discuss a project.\nBest, Ada"
    })
}

/// A valid home page enquiry.
pub fn enquiry_body() -> Value {
    json!({
        "firstName": "Grace",
        "lastName": "Hopper",
        "email": "grace@example.org",
        "jobTitle": "Rear Admiral",
        "company": "Navy Computing",
        "phone": "+1 555 0100",
        "topic": "Compilers\nand debugging",
        "source": "event",
        "role": "cto",
        "newsletter": true,
        "privacy": true
    })
}

/// The files in `dir` with extension `ext`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// Posts a JSON body and returns status and parsed answer.
pub async fn post_json(client: &reqwest::Client, url: &str, body: &Value) -> (u16, Value) {
    let response = client.post(url).json(body).send().await.unwrap();
    let status = response.status().as_u16();
    let answer = response.json::<Value>().await.unwrap_or(Value::Null);
    (status, answer)
}

/// An SMTP server in `mode` and the service delivering to it, in a fresh data folder.
pub struct Delivering {
    pub smtp: SmtpServer,
    pub dir: tempfile::TempDir,
    pub service: Service,
    pub client: reqwest::Client,
}

impl Delivering {
    /// Starts both; `extra` are more command-line arguments of the service.
    pub async fn start(mode: Mode, extra: &[&str]) -> Self {
        let smtp = SmtpServer::start(mode);
        let dir = tempfile::tempdir().unwrap();
        let url = smtp.url();
        let mut args = vec!["--smtp-url", url.as_str()];
        args.extend_from_slice(extra);
        let service = Service::start(dir.path(), &args).await;
        Self {
            smtp,
            dir,
            service,
            client: reqwest::Client::new(),
        }
    }

    /// Posts `body` as JSON to `path`; asserts it was accepted and returns the message id.
    pub async fn submit(&self, path: &str, body: &Value) -> String {
        let (status, answer) = post_json(&self.client, &self.service.url(path), body).await;
        assert_eq!(status, 200, "{answer}");
        answer["id"].as_str().unwrap().to_owned()
    }

    /// The messages waiting in the outbox.
    pub fn outbox(&self) -> Vec<PathBuf> {
        files(&self.dir.path().join("outbox"), "json")
    }
}

/// Follows the confirmation link of the newsletter email `mail` without following the
/// redirect; returns the status (303 for a genuine link).
pub async fn confirm(mail: &Received) -> u16 {
    let text = mail.parsed().body_text(0).unwrap().into_owned();
    let link = text
        .split_whitespace()
        .find(|word| word.starts_with("http") && word.contains(contact_fn::contract::CONFIRM_PATH))
        .unwrap_or_else(|| panic!("no confirmation link in {text}"))
        .to_owned();
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    no_redirects
        .get(&link)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Fetches a challenge from `service` and solves it as ALTCHA's widget does: the `altcha` field's value.
pub async fn solve_challenge(service: &Service) -> String {
    let challenge: Value = reqwest::get(service.url(contact_fn::contract::CHALLENGE_PATH))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(challenge["algorithm"], "SHA-256");
    let salt = challenge["salt"].as_str().unwrap();
    let target = challenge["challenge"].as_str().unwrap();
    let number = (0..=challenge["maxnumber"].as_u64().unwrap())
        .find(|n| {
            let hashed =
                ring::digest::digest(&ring::digest::SHA256, format!("{salt}{n}").as_bytes());
            hashed
                .as_ref()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
                == target
        })
        .unwrap();
    let solution = json!({
        "algorithm": challenge["algorithm"], "challenge": target, "number": number,
        "salt": salt, "signature": challenge["signature"],
    });
    base64::engine::general_purpose::STANDARD.encode(solution.to_string())
}

/// A client that shows redirects instead of following them.
pub fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// A response's status and where it leads (its `Location`, empty without one).
pub fn status_and_location(response: &reqwest::Response) -> (u16, String) {
    let location = response
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (response.status().as_u16(), location)
}
