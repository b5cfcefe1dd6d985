//! Bounded loopback load test of the contact-fn binary, run by `make bench`.
//!
//! Starts the service once per scenario (fresh data folder, embedded .eml delivery; see
//! [`Scratch`] for where their files go), sends a fixed number of requests from a fixed number
//! of concurrent clients (or stops at the time limit), and reports answers per second, p50/p99
//! latency and the server's peak RSS.
//! Scenarios: valid submissions, a flood of invalid ones (422), and a flood from one client
//! under the default rate limit (429), against the file store; then the valid submissions
//! again with the PostgreSQL store, on a throwaway cluster (as the tests start one, but with
//! fsync and synchronous commits, as in production) that is removed afterwards. Each scenario
//! runs `--rounds` times (5) with the operations features off and on, in turn first (`/metrics`
//! on its own address, scraped at the end, and a signed webhook per accepted message to a
//! receiver in this process), and a last line compares the medians: what they cost.
//! Last, the attachments: `--uploads` (20) concurrent contact messages each carrying one
//! 10 MB file (`multipart/form-data`, file store), with the server's resident memory before
//! and at its peak, then single uploads one after another against a message without a file,
//! against `dd` writing the same 10 MB (fsynced) into the same data folder (its own figure,
//! without starting the process), and against sending the body to a sink that discards it.
//! Then the burst with delivery running ([`burst`]): the same uploads under every default
//! limit, delivered as they arrive, each file checked, and the peak RSS of the whole process.
//! `--only submissions`, `--only attachments` or `--only burst` runs one part alone.

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::Parser;
use serde_json::json;

#[path = "../tests/it/support/pg.rs"]
mod pg;
#[path = "../tests/it/support/smtp.rs"]
mod smtp;

/// Load-tests a contact-fn binary on the loopback interface.
#[derive(Debug, Parser)]
struct Args {
    /// The contact-fn binary to test (a release build gives meaningful numbers).
    #[arg(long, default_value = "target/release/contact-fn")]
    server: PathBuf,
    /// Valid submissions to send.
    #[arg(long, default_value_t = 2000)]
    valid: usize,
    /// Rejected submissions to send, per rejection scenario.
    #[arg(long, default_value_t = 20_000)]
    rejected: usize,
    /// Concurrent clients.
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    /// Upper bound of each scenario.
    #[arg(long, default_value = "20s", value_parser = humantime::parse_duration)]
    time_limit: Duration,
    /// Leave out the PostgreSQL run.
    #[arg(long)]
    no_postgres: bool,
    /// Rounds of each scenario, each with the operations features off and on (in turn
    /// first, so a machine that speeds up or slows down favours neither); the comparison
    /// is of the medians.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Concurrent uploads of a 10 MB file in the attachments scenario (0 leaves it out).
    #[arg(long, default_value_t = 20)]
    uploads: usize,
    /// Single uploads in the attachments scenario, each with its comparisons; the figures
    /// are their medians.
    #[arg(long, default_value_t = 15)]
    upload_rounds: usize,
    /// Run only this part: the messages without files (`submissions`), `attachments`, or
    /// the `burst` of uploads with their delivery.
    #[arg(long, value_enum)]
    only: Option<Part>,
}

/// A part of the benchmark that runs on its own with `--only`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Part {
    /// The scenarios of messages without files, with the file store and PostgreSQL.
    Submissions,
    /// The attachments scenario.
    Attachments,
    /// The burst of uploads delivered as they arrive ([`burst`]).
    Burst,
}

/// Whether the operations features run: metrics and webhooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ops {
    Off,
    On,
}

/// A webhook receiver in this process: reads each post's body, as a receiver checking its
/// signature would (hyper closes a connection whose request body is left unread), counts it and
/// answers 204.
async fn webhook_receiver() -> anyhow::Result<(String, Arc<AtomicUsize>)> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/hook", listener.local_addr()?);
    let posts = Arc::new(AtomicUsize::new(0));
    let counted = posts.clone();
    let router = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |_body: axum::body::Bytes| {
            let counted = counted.clone();
            async move {
                counted.fetch_add(1, Ordering::Relaxed);
                axum::http::StatusCode::NO_CONTENT
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok((url, posts))
}

/// The flags and environment that turn the operations features on, webhooks to `url`.
fn ops_flags(url: &str) -> (Vec<String>, Vec<(&'static str, String)>) {
    let flags = ["--metrics-bind", "127.0.0.1:0", "--webhook-url", url]
        .map(String::from)
        .to_vec();
    let secret = format!("whsec_{}", "YmVuY2htYXJrIHdlYmhvb2sgc2VjcmV0IDMyIGJ5dGVz");
    (flags, vec![("CONTACT_WEBHOOK_SECRET", secret)])
}

/// Where the server keeps its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Store {
    Files,
    Postgres,
}

#[derive(Debug, Clone, Copy)]
enum Scenario {
    Valid,
    Invalid,
    RateLimited,
}

impl Scenario {
    fn label(self, store: Store) -> String {
        let what = match self {
            Scenario::Valid => "valid submissions",
            Scenario::Invalid => "invalid flood",
            Scenario::RateLimited => "rate-limited flood",
        };
        match store {
            Store::Files => what.to_owned(),
            Store::Postgres => format!("{what}, PostgreSQL"),
        }
    }

    fn expected_status(self) -> u16 {
        match self {
            Scenario::Valid => 200,
            Scenario::Invalid => 422,
            Scenario::RateLimited => 429,
        }
    }

    fn server_flags(self) -> Vec<String> {
        match self {
            // One loopback client stands for many visitors: lift the per-client limit.
            Scenario::Valid | Scenario::Invalid => {
                ["--rate-burst", "1000000", "--rate-refill", "1ms"]
                    .map(String::from)
                    .to_vec()
            }
            Scenario::RateLimited => vec![],
        }
    }

    fn body(self, n: usize) -> serde_json::Value {
        match self {
            Scenario::Valid | Scenario::RateLimited => {
                let fields = &contact_fn::contract::CONTACT;
                let mut body = serde_json::Map::new();
                for (field, value) in [
                    (fields.name, format!("Load Test {n}")),
                    (fields.email, "load@example.org".to_owned()),
                    (fields.company, "Bench Ltd".to_owned()),
                    (fields.country_code, "+49".to_owned()),
                    (fields.phone, "030 1234567".to_owned()),
                    (fields.subject, format!("Load test message {n}")),
                    (
                        fields.message,
                        "Hello,\nthis is a load test message with a few lines of text.\nRegards"
                            .to_owned(),
                    ),
                ] {
                    body.insert(field.name.to_owned(), value.into());
                }
                body.into()
            }
            Scenario::Invalid => json!({ "name": "", "email": "not-an-address", "phone": "x" }),
        }
    }
}

/// contact-fn started with `flags` and `env`, the contact form's URL on it, and a client with
/// `uploads` idle connections, once the service has accepted one plain message.
async fn started_with_one_message(
    binary: &PathBuf,
    flags: &[String],
    env: &[(&'static str, String)],
    scratch: &Scratch,
    uploads: usize,
) -> anyhow::Result<(Server, String, reqwest::Client)> {
    let server = Server::start(binary, flags, env, scratch)?;
    let url = format!(
        "{}{}",
        server.base,
        contact_fn::contract::FormKind::Contact.path()
    );
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(uploads)
        .build()
        .unwrap_or_default();
    let plain = client
        .post(&url)
        .json(&Scenario::Valid.body(0))
        .send()
        .await?;
    anyhow::ensure!(plain.status().is_success(), "a plain message was refused");
    Ok((server, url, client))
}

struct Server {
    child: Child,
    base: String,
    /// Where `/metrics` answers, when it is on.
    metrics: Option<String>,
    /// The `.eml` folder, on tmpfs where the machine has one (see [`Scratch`]).
    mail: tempfile::TempDir,
}

/// Where the runs keep their files.
///
/// ext4 without a journal (as on this project's build machines) will not hand out an inode it
/// freed in the last seconds (minutes, while its table block is dirty), and every file created
/// in that block group scans past them (perf: `recently_deleted` under `ext4_create`, up to 40%
/// of the service's CPU). A run of the file store deletes its 2,000 delivered records, so the
/// next run paid for them: whichever of "off" and "on" came second, and more with every round.
/// The data folders are therefore kept until the benchmark ends, under a folder marked as a
/// top of a directory hierarchy (`chattr +T`), for which ext4 spreads each run's folder to a
/// block group of its own; a run still pays for its own deletions, "off" and "on" alike. The
/// `.eml` folder of the embedded mailer, which stands in for a mail server running elsewhere,
/// goes to `/dev/shm` where it exists, so its file creation does not weigh on the service.
struct Scratch {
    data: tempfile::TempDir,
    mail_root: PathBuf,
}

impl Scratch {
    fn new() -> anyhow::Result<Self> {
        let shm = std::path::Path::new("/dev/shm");
        let data = tempfile::tempdir()?;
        // Best effort: other file systems keep their own placement.
        let _ = Command::new("chattr")
            .arg("+T")
            .arg(data.path())
            .stderr(Stdio::null())
            .status();
        Ok(Self {
            data,
            mail_root: if shm.is_dir() {
                shm.to_owned()
            } else {
                std::env::temp_dir()
            },
        })
    }
}

impl Server {
    fn start(
        binary: &PathBuf,
        flags: &[String],
        env: &[(&'static str, String)],
        scratch: &Scratch,
    ) -> anyhow::Result<Self> {
        let data = tempfile::tempdir_in(scratch.data.path())?.keep();
        let mail = tempfile::tempdir_in(&scratch.mail_root)?;
        let mut child = Command::new(binary)
            .args(["--bind", "127.0.0.1:0", "--data-dir"])
            .arg(&data)
            .arg("--mail-dir")
            .arg(mail.path())
            .args(flags)
            .env("RUST_LOG", "warn,contact_fn=info")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| {
                format!(
                    "starting {} (build it with cargo build --release)",
                    binary.display()
                )
            })?;
        let stderr = child.stderr.take().context("no stderr")?;
        let (found, address) = std::sync::mpsc::channel();
        let (found_metrics, metrics) = std::sync::mpsc::channel();
        let wants_metrics = flags.iter().any(|f| f == "--metrics-bind");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some((_, addr)) = line.split_once("listening on ") {
                    let _ = found.send(addr.trim().to_owned());
                } else if let Some((_, url)) = line.split_once("metrics on ") {
                    let _ = found_metrics.send(url.trim().to_owned());
                } else if !line.contains(" INFO ") {
                    eprintln!("[contact-fn] {line}");
                }
            }
        });
        let Ok(base) = address.recv_timeout(Duration::from_secs(10)) else {
            let status = child.wait()?;
            bail!("the server did not start ({status}); run it by hand to see why");
        };
        let metrics = wants_metrics
            .then(|| metrics.recv_timeout(Duration::from_secs(10)).ok())
            .flatten();
        Ok(Self {
            child,
            base,
            metrics,
            mail,
        })
    }

    fn peak_rss_kib(&self) -> Option<u64> {
        self.status_kib("VmHWM:")
    }

    fn rss_kib(&self) -> Option<u64> {
        self.status_kib("VmRSS:")
    }

    /// A figure in kB of `/proc/<pid>/status`.
    fn status_kib(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(field))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// CPU time the server's threads have run so far, in nanoseconds (the first figure of each
    /// thread's `/proc/<pid>/task/<tid>/schedstat`): finer than [`Server::cpu_time`]'s ticks,
    /// for the time of a single request. Threads that ended are not counted, so it is read
    /// just before and after one request, while the blocking pool's threads idle.
    fn thread_cpu_ns(&self) -> Option<u64> {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", self.child.id())).ok()?;
        let mut total = 0;
        for task in tasks.filter_map(Result::ok) {
            let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
        }
        Some(total)
    }

    /// Waits (at most 2 s) until the server's threads have used no CPU for 20 ms, so that
    /// nothing an answer left to do in the background is counted in what is timed next.
    async fn settle(&self) {
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut last = self.thread_cpu_ns();
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let now = self.thread_cpu_ns();
            if now == last {
                return;
            }
            last = now;
        }
    }

    /// CPU time the server has used so far (user and system), from `/proc/<pid>/stat`: a
    /// figure that other work on the machine does not inflate, unlike answers per second.
    fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // The fields after the command name, which is in parentheses and may hold spaces;
        // utime and stime are the 14th and 15th fields, in ticks of USER_HZ (100 on Linux).
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: u64 =
            fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some(Duration::from_millis(ticks * 10))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Outcome {
    sent: usize,
    expected: usize,
    other: usize,
    errors: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

async fn drive(
    base: &str,
    scenario: Scenario,
    total: usize,
    concurrency: usize,
    limit: Duration,
) -> Outcome {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency)
        .build()
        .unwrap_or_default();
    let next = Arc::new(AtomicUsize::new(0));
    let url = format!("{base}{}", contact_fn::contract::FormKind::Contact.path());
    let start = Instant::now();
    let deadline = start + limit;
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (client, next, url) = (client.clone(), next.clone(), url.clone());
        workers.spawn(async move {
            let mut seen = (0, 0, 0, Vec::new());
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= total || Instant::now() >= deadline {
                    return seen;
                }
                let sent = Instant::now();
                let answer = client.post(&url).json(&scenario.body(n)).send().await;
                let status = match answer {
                    Ok(response) => {
                        let status = response.status().as_u16();
                        let _ = response.bytes().await;
                        Some(status)
                    }
                    Err(_) => None,
                };
                seen.3.push(sent.elapsed());
                match status {
                    Some(s) if s == scenario.expected_status() => seen.0 += 1,
                    Some(_) => seen.1 += 1,
                    None => seen.2 += 1,
                }
            }
        });
    }
    let mut outcome = Outcome {
        sent: 0,
        expected: 0,
        other: 0,
        errors: 0,
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
    };
    while let Some(Ok((expected, other, errors, latencies))) = workers.join_next().await {
        outcome.expected += expected;
        outcome.other += other;
        outcome.errors += errors;
        outcome.sent += latencies.len();
        outcome.latencies.extend(latencies);
    }
    outcome.elapsed = start.elapsed();
    outcome.latencies.sort();
    outcome
}

/// One run of a scenario against a fresh server.
struct Run<'a> {
    args: &'a Args,
    scenario: Scenario,
    store: Store,
    ops: Ops,
    /// The receiver's URL and its count of posts.
    webhook: (&'a str, &'a AtomicUsize),
    scratch: &'a Scratch,
}

impl Run<'_> {
    /// Runs it and prints its line: answers per second, p99 in ms, and whether any expected
    /// answer came. The PostgreSQL cluster is started on first use and kept in `cluster`.
    async fn once(&self, cluster: &mut Option<pg::Cluster>) -> anyhow::Result<(f64, f64, bool)> {
        let (args, scenario, store, ops) = (self.args, self.scenario, self.store, self.ops);
        let (webhook_url, webhook_posts) = self.webhook;
        let total = match scenario {
            Scenario::Valid => args.valid,
            _ => args.rejected,
        };
        let mut flags = scenario.server_flags();
        if let Store::Postgres = store {
            let cluster = cluster.get_or_insert_with(pg::Cluster::durable);
            flags.extend(["--database-url".to_owned(), cluster.database().await]);
        }
        let mut env = Vec::new();
        if ops == Ops::On {
            let (more, secrets) = ops_flags(webhook_url);
            flags.extend(more);
            env = secrets;
        }
        let posts_before = webhook_posts.load(Ordering::Relaxed);
        let server = Server::start(&args.server, &flags, &env, self.scratch)?;
        let outcome = drive(
            &server.base,
            scenario,
            total,
            args.concurrency,
            args.time_limit,
        )
        .await;
        let rss = server
            .peak_rss_kib()
            .map_or("?".to_owned(), |k| format!("{:.1}", k as f64 / 1024.0));
        let rate = outcome.expected as f64 / outcome.elapsed.as_secs_f64();
        let p99 = percentile(&outcome.latencies, 99.0);
        println!(
            "{:<32} {:>4} {:>8} {:>15} {:>10.0} {:>9.2} {:>9.2} {:>13}",
            scenario.label(store),
            if ops == Ops::On { "on" } else { "off" },
            outcome.sent,
            format!("{} x{}", outcome.expected, scenario.expected_status()),
            rate,
            percentile(&outcome.latencies, 50.0),
            p99,
            rss,
        );
        if outcome.other + outcome.errors > 0 {
            println!(
                "  note: {} other answers, {} transport errors",
                outcome.other, outcome.errors
            );
        }
        if let Scenario::Valid = scenario {
            // Delivery runs behind the answers; report how long the outbox takes to drain.
            let drain_start = Instant::now();
            let drained = loop {
                let delivered = std::fs::read_dir(server.mail.path()).map_or(0, |d| d.count());
                if delivered >= outcome.expected {
                    break true;
                }
                if drain_start.elapsed() > args.time_limit {
                    break false;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            println!(
                "  delivery: {} .eml files written {} after the last answer",
                outcome.expected,
                if drained {
                    format!("{:.2}s", drain_start.elapsed().as_secs_f64())
                } else {
                    "not all".to_owned()
                }
            );
            if ops == Ops::On {
                let notified = loop {
                    let posts = webhook_posts.load(Ordering::Relaxed) - posts_before;
                    if posts >= outcome.expected || drain_start.elapsed() > args.time_limit {
                        break posts;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                };
                println!("  webhooks: {notified} of {} posted", outcome.expected);
            }
        }
        if let Some(cpu) = server.cpu_time() {
            println!(
                "  server CPU: {:.2}s, {:.0} µs per expected answer (its delivery included)",
                cpu.as_secs_f64(),
                cpu.as_secs_f64() * 1e6 / outcome.expected.max(1) as f64
            );
        }
        if let Some(url) = &server.metrics {
            let text = reqwest::get(url).await?.text().await?;
            let series = text.lines().filter(|l| !l.starts_with('#')).count();
            println!("  /metrics: {series} series");
        }
        Ok((rate, p99, outcome.expected > 0))
    }
}

/// The median of `values` (sorted in place); 0 when there are none.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    println!(
        "contact-fn loopback load: {} concurrent clients, at most {} per scenario",
        args.concurrency,
        humantime::format_duration(args.time_limit)
    );
    let (webhook_url, webhook_posts) = webhook_receiver().await?;
    let mut scenarios = vec![
        (Scenario::Valid, Store::Files),
        (Scenario::Invalid, Store::Files),
        (Scenario::RateLimited, Store::Files),
    ];
    if matches!(args.only, Some(Part::Attachments | Part::Burst)) {
        scenarios.clear();
    } else if !args.no_postgres {
        scenarios.push((Scenario::Valid, Store::Postgres));
    }
    if !scenarios.is_empty() {
        println!(
            "{:<32} {:>4} {:>8} {:>15} {:>10} {:>9} {:>9} {:>13}",
            "scenario", "ops", "sent", "expected", "answers/s", "p50 ms", "p99 ms", "peak RSS MiB"
        );
    }
    let scratch = Scratch::new()?;
    let mut cluster = None;
    let mut failed = false;
    let rounds = args.rounds.max(1);
    for (scenario, store) in scenarios {
        let mut measured: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
        for round in 0..rounds {
            let order = if round % 2 == 0 {
                [Ops::Off, Ops::On]
            } else {
                [Ops::On, Ops::Off]
            };
            for ops in order {
                let run = Run {
                    args: &args,
                    scenario,
                    store,
                    ops,
                    webhook: (&webhook_url, &webhook_posts),
                    scratch: &scratch,
                };
                let (rate, p99, got) = run.once(&mut cluster).await?;
                failed |= !got;
                measured[usize::from(ops == Ops::On)].push((rate, p99));
            }
        }
        let [off, on] = measured.map(|runs| {
            let (mut rates, mut p99s): (Vec<f64>, Vec<f64>) = runs.into_iter().unzip();
            (median(&mut rates), median(&mut p99s))
        });
        println!(
            "  {}, median of {rounds} rounds: off {:.0}/s p99 {:.2} ms, on {:.0}/s p99 {:.2} ms: \
             metrics and webhooks on: answers/s {:+.1}%, p99 {:+.1}% against off",
            scenario.label(store),
            off.0,
            off.1,
            on.0,
            on.1,
            (on.0 / off.0 - 1.0) * 100.0,
            (on.1 / off.1 - 1.0) * 100.0
        );
    }
    if args.uploads > 0 && args.only.is_none_or(|only| only == Part::Attachments) {
        attachments(&args, &scratch).await?;
    }
    if args.uploads > 0 && args.only.is_none_or(|only| only == Part::Burst) {
        failed |= !burst(&args, &scratch, &mut cluster).await?;
    }
    if failed {
        bail!("a scenario got none of its expected answers");
    }
    Ok(())
}

/// Bytes of the file each upload carries: the contract's largest.
const UPLOAD_BYTES: usize = contact_fn::contract::ATTACHMENTS.max_file_bytes as usize;

/// A contact message with one file of [`UPLOAD_BYTES`], as `multipart/form-data`: the content
/// type and the body.
fn upload_body(n: usize) -> (String, axum::body::Bytes) {
    let boundary = "----bench-upload-boundary";
    let mut body = Vec::with_capacity(UPLOAD_BYTES + 4096);
    if let Some(fields) = Scenario::Valid.body(n).as_object() {
        for (name, value) in fields {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{}\r\n",
                    value.as_str().unwrap_or_default()
                )
                .as_bytes(),
            );
        }
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"attachments\"; filename=\"brief.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend(upload_file());
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (
        format!("multipart/form-data; boundary={boundary}"),
        body.into(),
    )
}

/// The file each upload carries: a PDF's magic number, then a pattern.
fn upload_file() -> Vec<u8> {
    let mut file = b"%PDF-1.7\n".to_vec();
    file.extend((file.len()..UPLOAD_BYTES).map(|i| (i % 251) as u8));
    file
}

/// Sends `body` once; the time to the answer, and whether it was 200.
async fn upload(
    client: &reqwest::Client,
    url: &str,
    body: &(String, axum::body::Bytes),
) -> (Duration, bool) {
    let sent = Instant::now();
    let answer = client
        .post(url)
        .header("content-type", &body.0)
        .body(body.1.clone())
        .send()
        .await;
    let ok = match answer {
        Ok(response) => {
            let ok = response.status().as_u16() == 200;
            let _ = response.bytes().await;
            ok
        }
        Err(_) => false,
    };
    (sent.elapsed(), ok)
}

/// Where the burst's messages are delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sink {
    /// The embedded default: `.eml` files (on tmpfs where there is one, see [`Scratch`]).
    Eml,
    /// A real SMTP server on loopback, in this process.
    Smtp,
}

/// The burst of the issue "contact-fn in a 128 MB container": `--uploads` (20) concurrent
/// contact messages with a 10 MB file each, against a server with every default limit (only
/// the per-client limits are lifted: one loopback client stands for 20 visitors), delivering as
/// they arrive, to `.eml` files and to an SMTP server, on the file store and PostgreSQL; then
/// once more with a 100 times larger `--outbox-max-bytes`, which takes every upload. Each line:
/// the answers, the time until every accepted message was delivered, whether each arrived with
/// its file intact, and the server's RSS idle and at its peak (`VmHWM`, the whole process).
/// Returns whether every accepted message arrived intact.
async fn burst(
    args: &Args,
    scratch: &Scratch,
    cluster: &mut Option<pg::Cluster>,
) -> anyhow::Result<bool> {
    let mut runs = vec![(Store::Files, Sink::Eml, 1), (Store::Files, Sink::Smtp, 1)];
    if !args.no_postgres {
        runs.extend([
            (Store::Postgres, Sink::Eml, 1),
            (Store::Postgres, Sink::Smtp, 1),
        ]);
    }
    runs.push((Store::Files, Sink::Smtp, 100));
    println!(
        "burst: {} concurrent uploads of {} MB delivered as they arrive, default limits",
        args.uploads,
        UPLOAD_BYTES / (1024 * 1024)
    );
    let mut all_intact = true;
    for (store, sink, outbox_factor) in runs {
        let mut flags: Vec<String> = [
            "--rate-burst",
            "1000000",
            "--rate-refill",
            "1ms",
            "--max-bodies-per-client",
            "1000",
        ]
        .map(String::from)
        .to_vec();
        if outbox_factor > 1 {
            let default_max = 100 * 1024 * 1024_u64;
            flags.extend([
                "--outbox-max-bytes".to_owned(),
                (default_max * outbox_factor).to_string(),
            ]);
        }
        if store == Store::Postgres {
            let cluster = cluster.get_or_insert_with(pg::Cluster::durable);
            flags.extend(["--database-url".to_owned(), cluster.database().await]);
        }
        let smtp = (sink == Sink::Smtp).then(|| smtp::SmtpServer::start(smtp::Mode::Accept));
        if let Some(smtp) = &smtp {
            flags.extend(["--smtp-url".to_owned(), smtp.url()]);
        }
        // The answers 503 are expected: not logged.
        let quiet = [(
            "RUST_LOG",
            "warn,contact_fn=info,contact_fn::error=off,tower_http=off".to_owned(),
        )];
        let (server, url, client) =
            started_with_one_message(&args.server, &flags, &quiet, scratch, args.uploads).await?;
        let delivered = || match &smtp {
            Some(smtp) => smtp.count(),
            None => std::fs::read_dir(server.mail.path()).map_or(0, |dir| {
                dir.filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                    .count()
            }),
        };
        while delivered() < 1 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let idle = server.rss_kib().unwrap_or(0);
        let bodies: Vec<_> = (0..args.uploads).map(upload_body).collect();
        let started = Instant::now();
        let mut uploads = tokio::task::JoinSet::new();
        for body in bodies {
            let (client, url) = (client.clone(), url.clone());
            uploads.spawn(async move { upload(&client, &url, &body).await });
        }
        let mut accepted = 0;
        while let Some(Ok((_, ok))) = uploads.join_next().await {
            accepted += usize::from(ok);
        }
        let answered = started.elapsed();
        // The plain message first, then each accepted upload.
        let expected = accepted + 1;
        let deadline = Instant::now() + args.time_limit * 6;
        while delivered() < expected && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let drained = started.elapsed();
        let peak = server.peak_rss_kib().unwrap_or(0);
        let (arrived, intact) = match &smtp {
            Some(smtp) => {
                let mail = smtp.received();
                let intact = mail.iter().filter(|m| file_intact(&m.data)).count();
                (mail.len(), intact)
            }
            None => {
                let mut intact = 0;
                let emls = std::fs::read_dir(server.mail.path())?
                    .filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                    .map(|e| e.path())
                    .collect::<Vec<_>>();
                for eml in &emls {
                    intact += usize::from(file_intact(&std::fs::read(eml)?));
                }
                (emls.len(), intact)
            }
        };
        let ok = arrived == expected && intact == accepted;
        all_intact &= ok;
        println!(
            "  {:<10} {:<5} {:>15}: {accepted} accepted, {} refused in {:.1}s; {}/{accepted} delivered with the file intact after {:.1}s; \
             server RSS {:.1} MiB idle, peak {:.1} MiB{}",
            match store {
                Store::Files => "files",
                Store::Postgres => "PostgreSQL",
            },
            match sink {
                Sink::Eml => ".eml",
                Sink::Smtp => "SMTP",
            },
            if outbox_factor > 1 {
                format!("outbox x{outbox_factor}")
            } else {
                "defaults".to_owned()
            },
            args.uploads - accepted,
            answered.as_secs_f64(),
            intact,
            drained.as_secs_f64(),
            idle as f64 / 1024.0,
            peak as f64 / 1024.0,
            if ok {
                ""
            } else {
                "  <- messages missing or damaged"
            }
        );
    }
    Ok(all_intact)
}

/// Whether the email `raw` carries the file [`upload_body`] sends, byte for byte.
fn file_intact(raw: &[u8]) -> bool {
    let Some(message) = mail_parser::MessageParser::default().parse(raw) else {
        return false;
    };
    let expected = upload_file();
    message
        .attachments()
        .any(|part| part.contents() == expected.as_slice())
}

/// The attachments scenario: memory under concurrent 10 MB uploads, and what one upload costs
/// beyond a message without a file, against `dd` on the same disk.
async fn attachments(args: &Args, scratch: &Scratch) -> anyhow::Result<()> {
    // Delivery (which reads the files back and encodes them) is kept out of the figures: the
    // messages wait for a mail server that takes connections and never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0")?;
    let unreachable = silent.local_addr()?;
    let flags: Vec<String> = [
        "--rate-burst",
        "1000000",
        "--rate-refill",
        "1ms",
        "--max-bodies-per-client",
        "1000",
        "--outbox-max-bytes",
        "10000000000",
        "--smtp-timeout",
        "1h",
        "--smtp-url",
    ]
    .map(String::from)
    .into_iter()
    .chain([
        format!("smtp://{unreachable}"),
        "--retry-initial".to_owned(),
        "1h".to_owned(),
        "--retry-max".to_owned(),
        "1h".to_owned(),
    ])
    .collect();
    // One message first, so the idle figure includes what any first request allocates.
    let (server, url, client) =
        started_with_one_message(&args.server, &flags, &[], scratch, args.uploads).await?;
    let idle = server.rss_kib().unwrap_or(0);
    let bodies: Vec<_> = (0..args.uploads).map(upload_body).collect();
    let started = Instant::now();
    let mut uploads = tokio::task::JoinSet::new();
    for body in bodies {
        let (client, url) = (client.clone(), url.clone());
        uploads.spawn(async move { upload(&client, &url, &body).await });
    }
    let mut latencies = Vec::new();
    let mut accepted = 0;
    while let Some(Ok((took, ok))) = uploads.join_next().await {
        latencies.push(took);
        accepted += usize::from(ok);
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let peak = server.peak_rss_kib().unwrap_or(0);
    println!(
        "attachments: {} concurrent uploads of {} MB: {accepted} accepted in {:.2}s, p50 {:.0} ms, p99 {:.0} ms; \
         server RSS {:.1} MiB idle, peak {:.1} MiB: {:+.1} MiB",
        args.uploads,
        UPLOAD_BYTES / (1024 * 1024),
        elapsed.as_secs_f64(),
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
        idle as f64 / 1024.0,
        peak as f64 / 1024.0,
        (peak as f64 - idle as f64) / 1024.0
    );

    // One at a time, in turn, so that each sees the same disk and the same load on the machine:
    // an upload, a message without a file, dd writing the file's bytes into the same data
    // folder, and the body sent to a sink in this process that reads and discards it.
    let body = upload_body(0);
    let sink = sink().await?;
    let data = scratch.data.path().join("dd-test");
    let (mut with_file, mut without, mut dd, mut sent) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let rounds = args.upload_rounds.max(1);
    let mut cpu = Vec::new();
    for n in 0..rounds {
        server.settle().await;
        let before = server.thread_cpu_ns();
        with_file.push(upload(&client, &url, &body).await.0.as_secs_f64() * 1000.0);
        if let (Some(before), Some(after)) = (before, server.thread_cpu_ns()) {
            cpu.push(after.saturating_sub(before) as f64 / 1e6);
        }
        server.settle().await;
        let started = Instant::now();
        let _ = client
            .post(&url)
            .json(&Scenario::Valid.body(n))
            .send()
            .await?
            .bytes()
            .await;
        without.push(started.elapsed().as_secs_f64() * 1000.0);
        server.settle().await;
        dd.push(dd_write(&data)?);
        sent.push(upload(&client, &sink, &body).await.0.as_secs_f64() * 1000.0);
    }
    let (with_file, without, dd, sent) = (
        median(&mut with_file),
        median(&mut without),
        median(&mut dd),
        median(&mut sent),
    );
    println!(
        "attachments: one {} MB upload {with_file:.1} ms, a message without a file {without:.1} ms: \
         {:.1} ms for the file; dd writing it (fsync) to the same disk {dd:.1} ms; \
         sending it to a sink that discards it {sent:.1} ms (medians of {rounds})",
        UPLOAD_BYTES / (1024 * 1024),
        with_file - without
    );
    if !cpu.is_empty() {
        // What the machine's other work inflates least: the CPU the upload took of the server.
        println!(
            "attachments: the server's CPU time for one upload {:.1} ms (median)",
            median(&mut cpu)
        );
    }
    drop(silent);
    Ok(())
}

/// Milliseconds `dd` takes to write [`UPLOAD_BYTES`] into `path` and fsync it, as it reports
/// them itself: from its first write to the end of its fsync, without starting the process
/// (a few ms that no upload pays). `conv=fsync` is one fsync of the file at the end, as the
/// service makes each spool file durable.
fn dd_write(path: &std::path::Path) -> anyhow::Result<f64> {
    let output = Command::new("dd")
        .arg("if=/dev/zero")
        .arg(format!("of={}", path.display()))
        .args([
            "bs=1M",
            &format!("count={}", UPLOAD_BYTES / (1024 * 1024)),
            "conv=fsync",
        ])
        .env("LC_ALL", "C")
        .output()?;
    anyhow::ensure!(output.status.success(), "dd failed");
    let _ = std::fs::remove_file(path);
    // "10485760 bytes (10 MB, 10 MiB) copied, 0.0123 s, 850 MB/s"
    let report = String::from_utf8_lossy(&output.stderr);
    let seconds = report
        .lines()
        .find_map(|line| line.split(" copied, ").nth(1))
        .and_then(|rest| rest.split(" s").next())
        .and_then(|s| s.trim().parse::<f64>().ok())
        .with_context(|| format!("reading dd's report: {report}"))?;
    Ok(seconds * 1000.0)
}

/// A server in this process that reads a posted body to its end, discarding it, and answers
/// 200: what sending a body costs the client and the loopback, whatever is done with it.
async fn sink() -> anyhow::Result<String> {
    use http_body_util::BodyExt as _;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/sink", listener.local_addr()?);
    let router = axum::Router::new().route(
        "/sink",
        axum::routing::post(|mut body: axum::body::Body| async move {
            while let Some(Ok(_)) = body.frame().await {}
            axum::http::StatusCode::OK
        }),
    );
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(url)
}
