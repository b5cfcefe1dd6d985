//! The service in a 128 MB container under the worst burst its default limits let in (issue
//! 66): 20 visitors each send a 10 MB file at once while the messages accepted are delivered to
//! a real SMTP server. Nothing is killed and nothing is lost: every upload is answered 200 or
//! 503 (the outbox's quota), and every message accepted arrives with its file intact.
//!
//! The limit is a memory control group made for the test (cgroup v2 directly under
//! /sys/fs/cgroup, else the v1 memory hierarchy), which the binary joins before its first
//! instruction; it counts the page cache of the files written too, as a container's does.
//! Where no control group can be made (not root, or a read-only /sys/fs/cgroup), the test
//! checks the process's peak resident memory against the limit instead and says so:
//! `prlimit --as` would limit address space, not memory, and glibc reserves 64 MiB of it for
//! each malloc arena, so a process using 40 MB would be refused memory under `--as 128M`.
//! One test, of about 20 s in a debug build: the burst is the point, so it runs in full.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::support::{self, Mode, Process, SmtpServer};

/// The container's memory.
const LIMIT: u64 = 128 * 1024 * 1024;

/// Visitors in the burst, each with a file of the contract's largest size.
const UPLOADS: usize = 20;

/// Longest the burst and its delivery may take.
const PATIENCE: Duration = Duration::from_secs(180);

const BOUNDARY: &str = "----memory-test-boundary";

#[tokio::test]
async fn twenty_ten_megabyte_uploads_in_a_128_mb_container_are_delivered_intact_and_nothing_is_killed()
 {
    let smtp = SmtpServer::start(Mode::Accept);
    // On the disk of target/, not on a tmpfs, whose files would be memory of the group.
    let data = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let smtp_url = smtp.url();
    // Every default limit, but for those per client: one loopback client stands for 20.
    let flags = [
        "--smtp-url",
        smtp_url.as_str(),
        "--smtp-timeout",
        "60s",
        "--max-bodies-per-client",
        "1000",
    ];
    let group = Cgroup::create(LIMIT);
    let mut service = match &group {
        Ok(group) => Process::start_in_cgroup(&group.procs(), data.path(), &flags),
        Err(why) => {
            eprintln!("no memory control group ({why}): checking the peak RSS instead");
            Process::start(data.path(), &flags)
        }
    };
    let file = padded(
        b"%PDF-1.7\n",
        contact_fn::contract::ATTACHMENTS.max_file_bytes as usize,
    );
    let body = axum::body::Bytes::from(multipart(&file));
    let client = reqwest::Client::new();
    let url = service.url("/send-contact-email");
    let mut uploads = tokio::task::JoinSet::new();
    for _ in 0..UPLOADS {
        let (client, url, body) = (client.clone(), url.clone(), body.clone());
        uploads.spawn(async move {
            client
                .post(&url)
                .header(
                    "content-type",
                    format!("multipart/form-data; boundary={BOUNDARY}"),
                )
                .body(body)
                .send()
                .await
                .map(|r| r.status().as_u16())
        });
    }
    let mut answers = Vec::new();
    while let Some(answer) = uploads.join_next().await {
        answers.push(answer.unwrap().expect("every upload is answered"));
    }
    let accepted = answers.iter().filter(|&&s| s == 200).count();
    assert!(
        answers.iter().all(|&s| s == 200 || s == 503),
        "accepted, or refused by the outbox's quota: {answers:?}"
    );
    assert!(accepted > 0, "{answers:?}");

    let started = Instant::now();
    while smtp.count() < accepted && started.elapsed() < PATIENCE && service.is_running() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        service.is_running(),
        "the service was killed: {:?}",
        service.log()
    );
    if let Ok(group) = &group {
        assert_eq!(group.oom_kills(), 0, "the OOM killer ran in the group");
        eprintln!(
            "the group's peak memory (page cache included): {:.1} MiB; the process's peak RSS {:.1} MiB",
            group.peak().unwrap_or(0) as f64 / 1048576.0,
            service.peak_rss() as f64 / 1048576.0
        );
    } else {
        assert!(
            service.peak_rss() <= LIMIT,
            "peak RSS {}",
            service.peak_rss()
        );
    }
    let mail = smtp.received();
    assert_eq!(mail.len(), accepted, "one email per accepted upload");
    for message in &mail {
        let parsed = message.parsed();
        let files: Vec<_> = parsed.attachments().map(|a| a.contents()).collect();
        assert!(
            files == [file.as_slice()],
            "the file arrives intact ({} files)",
            files.len()
        );
    }
    support::eventually("the outbox to empty", || {
        support::files(&data.path().join("outbox"), "json").is_empty()
    })
    .await;
}

#[tokio::test]
async fn messages_heavier_than_the_whole_delivery_budget_are_still_delivered_intact() {
    // 1 KiB: every message with a file outweighs it, and so waits for all of it.
    let env = support::Delivering::start(Mode::Accept, &["--delivery-memory", "1024"]).await;
    let files: Vec<Vec<u8>> = (0..3_u8)
        .map(|n| {
            padded(
                &[b'%', b'P', b'D', b'F', b'-', b'1', b'.', b'0' + n],
                700_000,
            )
        })
        .collect();
    for file in &files {
        let answer = env
            .client
            .post(env.service.url("/send-contact-email"))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(multipart(file))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
    }
    let mail = env.smtp.wait_for(files.len()).await;
    let mut arrived: Vec<Vec<u8>> = mail
        .iter()
        .flat_map(|m| {
            m.parsed()
                .attachments()
                .map(|a| a.contents().to_vec())
                .collect::<Vec<_>>()
        })
        .collect();
    arrived.sort();
    let mut sent = files.clone();
    sent.sort();
    assert!(arrived == sent, "each file arrives once, intact");
}

/// The contact form's valid fields and `file`, as `multipart/form-data`.
fn multipart(file: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(file.len() + 4096);
    for (name, value) in support::contact_body().as_object().unwrap() {
        out.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{}\r\n",
                value.as_str().unwrap()
            )
            .as_bytes(),
        );
    }
    out.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"attachments\"; filename=\"brief.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"
        )
        .as_bytes(),
    );
    out.extend_from_slice(file);
    out.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    out
}

/// `size` bytes starting with `magic`, the rest a pattern (so a shifted byte shows).
fn padded(magic: &[u8], size: usize) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    bytes.extend((bytes.len()..size).map(|i| (i % 251) as u8));
    bytes
}

/// A memory control group made for the test, removed when dropped (after the process in it).
struct Cgroup {
    dir: PathBuf,
    v2: bool,
}

impl Cgroup {
    /// A group limited to `limit` bytes: v2 under /sys/fs/cgroup when its memory controller
    /// can be enabled there, else v1's memory hierarchy; why not, when neither can be made.
    fn create(limit: u64) -> Result<Self, String> {
        let name = format!("contact-fn-memory-test-{}", std::process::id());
        let v2 = Path::new("/sys/fs/cgroup");
        let v2_ready = std::fs::read_to_string(v2.join("cgroup.controllers"))
            .is_ok_and(|c| c.split_whitespace().any(|c| c == "memory"))
            && (std::fs::read_to_string(v2.join("cgroup.subtree_control"))
                .is_ok_and(|c| c.split_whitespace().any(|c| c == "memory"))
                || std::fs::write(v2.join("cgroup.subtree_control"), "+memory").is_ok());
        let (dir, limit_file, is_v2) = if v2_ready {
            (v2.join(&name), "memory.max", true)
        } else {
            let v1 = v2.join("memory");
            if !v1.join("memory.limit_in_bytes").exists() {
                return Err("no cgroup v2 memory controller and no v1 memory hierarchy".to_owned());
            }
            (v1.join(&name), "memory.limit_in_bytes", false)
        };
        std::fs::create_dir(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let group = Cgroup { dir, v2: is_v2 };
        std::fs::write(group.dir.join(limit_file), limit.to_string())
            .map_err(|e| format!("setting {limit_file}: {e}"))?;
        if !is_v2 {
            // Without swap the limit is the group's memory and swap together.
            let _ = std::fs::write(
                group.dir.join("memory.memsw.limit_in_bytes"),
                limit.to_string(),
            );
        }
        Ok(group)
    }

    fn procs(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// Processes the OOM killer killed in the group.
    fn oom_kills(&self) -> u64 {
        let file = if self.v2 {
            "memory.events"
        } else {
            "memory.oom_control"
        };
        std::fs::read_to_string(self.dir.join(file))
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("oom_kill "))
            .map_or(0, |n| n.trim().parse().unwrap())
    }

    /// The group's peak memory, page cache included, where the kernel reports it.
    fn peak(&self) -> Option<u64> {
        let file = if self.v2 {
            "memory.peak"
        } else {
            "memory.max_usage_in_bytes"
        };
        std::fs::read_to_string(self.dir.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // The process was killed first; its exit may take a moment to leave the group.
        for _ in 0..50 {
            if std::fs::remove_dir(&self.dir).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
