//! Files sent with a contact message (`multipart/form-data`): every limit at and just past its
//! edge, types decided from the bytes, hostile names and bodies, storage and removal, on both
//! stores (the data folder, and PostgreSQL through a fresh database of the run's cluster),
//! through the real HTTP server and a real SMTP server.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::path::Path;

use contact_fn::contract::ATTACHMENTS;
use mail_parser::MimeHeaders as _;
use serde_json::Value;
use support::Kind;
use support::pg::Cluster;
use support::{Mode, Service, SmtpServer};

const BOUNDARY: &str = "----attachments-test-7MA4YWxkTrZu0gW";

/// The service on a store, delivering to a real SMTP server.
struct Env {
    smtp: SmtpServer,
    dir: tempfile::TempDir,
    service: Service,
    client: reqwest::Client,
    database: Option<String>,
}

impl Env {
    async fn start(kind: Kind, extra: &[&str]) -> Self {
        Self::start_in(kind, Mode::Accept, extra).await
    }

    async fn start_in(kind: Kind, mode: Mode, extra: &[&str]) -> Self {
        let smtp = SmtpServer::start(mode);
        let dir = tempfile::tempdir().unwrap();
        let database = match kind {
            Kind::Files => None,
            Kind::Postgres => Some(Cluster::shared().database().await),
        };
        let url = smtp.url();
        let mut args = vec!["--smtp-url", url.as_str()];
        if let Some(database) = &database {
            args.extend(["--database-url", database.as_str()]);
        }
        args.extend_from_slice(extra);
        let service = Service::start(dir.path(), &args).await;
        Env {
            smtp,
            dir,
            service,
            client: reqwest::Client::new(),
            database,
        }
    }

    /// Posts `body` (multipart with [`BOUNDARY`], unless `content_type` says otherwise).
    async fn post(&self, body: Vec<u8>, headers: &[(&str, &str)]) -> (u16, Value) {
        let mut request = self
            .client
            .post(self.service.url("/send-contact-email"))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            );
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.body(body).send().await.unwrap();
        let status = response.status().as_u16();
        let answer = response.json::<Value>().await.unwrap_or(Value::Null);
        (status, answer)
    }

    /// Files kept for messages: in the data folder, or rows in the database.
    async fn stored_files(&self) -> usize {
        match &self.database {
            None => walk(&self.dir.path().join("attachments")),
            Some(url) => {
                use sqlx::Connection as _;
                let mut db = sqlx::PgConnection::connect(url).await.unwrap();
                let parts: i64 = sqlx::query_scalar(
                    "SELECT count(DISTINCT (message_id, part)) FROM attachment_chunks",
                )
                .fetch_one(&mut db)
                .await
                .unwrap();
                usize::try_from(parts).unwrap()
            }
        }
    }

    /// Changes the first byte of the first file stored with message `id`.
    async fn change_first_byte(&self, id: &str) {
        match &self.database {
            None => {
                let path = self.dir.path().join("attachments").join(id).join("0");
                let mut bytes = std::fs::read(&path).unwrap();
                bytes[0] ^= 1;
                std::fs::write(&path, bytes).unwrap();
            }
            Some(url) => {
                use sqlx::Connection as _;
                let mut db = sqlx::PgConnection::connect(url).await.unwrap();
                let changed = sqlx::query(
                    "UPDATE attachment_chunks SET data = overlay(data PLACING '\\x00'::bytea FROM 1 FOR 1) \
                     WHERE message_id = $1 AND part = 0 AND seq = 0",
                )
                .bind(id)
                .execute(&mut db)
                .await
                .unwrap();
                assert_eq!(changed.rows_affected(), 1);
            }
        }
    }

    /// Files left in the upload spool.
    fn spooled(&self) -> usize {
        walk(&self.dir.path().join("spool"))
    }
}

/// Files under `dir`, in every folder.
fn walk(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .map(|e| e.unwrap().path())
        .map(|p| if p.is_dir() { walk(&p) } else { 1 })
        .sum()
}

/// One file part.
struct File<'a> {
    name: &'a str,
    content_type: &'a str,
    bytes: Vec<u8>,
}

fn file<'a>(name: &'a str, content_type: &'a str, bytes: Vec<u8>) -> File<'a> {
    File {
        name,
        content_type,
        bytes,
    }
}

/// A multipart body of the contact form's valid fields and `files`.
fn body(files: &[File<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    let fields = support::contact_body();
    for (name, value) in fields.as_object().unwrap() {
        out.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{}\r\n",
                value.as_str().unwrap()
            )
            .as_bytes(),
        );
    }
    for f in files {
        out.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"attachments\"; filename=\"{}\"\r\nContent-Type: {}\r\n\r\n",
                f.name, f.content_type
            )
            .as_bytes(),
        );
        out.extend_from_slice(&f.bytes);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    out
}

/// `size` bytes starting with `magic`, the rest a pattern (so a shifted byte shows).
/// Writes the shell script `text` as the executable `name` in `dir`; its path.
fn script(dir: &Path, name: &str, text: &str) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The first message waiting in the file store's outbox, as stored (null when there is none).
fn first_waiting(env: &Env) -> Value {
    support::files(&env.dir.path().join("outbox"), "json")
        .first()
        .and_then(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).ok())
        .unwrap_or(Value::Null)
}

fn padded(magic: &[u8], size: usize) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    bytes.extend((0..size.saturating_sub(magic.len())).map(|i| (i % 251) as u8));
    bytes.truncate(size);
    bytes
}

fn pdf(size: usize) -> Vec<u8> {
    padded(b"%PDF-1.7\n", size)
}

fn png(size: usize) -> Vec<u8> {
    padded(b"\x89PNG\r\n\x1a\n", size)
}

/// A zip of `entries` (name, method, declared uncompressed size, data) with its central
/// directory; nothing in it is really compressed.
fn zip(entries: &[(&str, u16, u32, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, method, size, data) in entries {
        let offset = out.len() as u32;
        let mut header = Vec::new();
        header.extend_from_slice(b"PK\x03\x04");
        header.extend_from_slice(&20_u16.to_le_bytes());
        header.extend_from_slice(&0_u16.to_le_bytes());
        header.extend_from_slice(&method.to_le_bytes());
        header.extend_from_slice(&[0; 4]); // time, date
        header.extend_from_slice(&0_u32.to_le_bytes()); // crc
        header.extend_from_slice(&(data.len() as u32).to_le_bytes());
        header.extend_from_slice(&size.to_le_bytes());
        header.extend_from_slice(&(name.len() as u16).to_le_bytes());
        header.extend_from_slice(&0_u16.to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&20_u16.to_le_bytes());
        central.extend_from_slice(&header[4..]);
        central.extend_from_slice(&[0; 4]); // comment length, disk
        central.extend_from_slice(&[0; 6]); // attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let start = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0_u16.to_le_bytes());
    out
}

/// A .docx whose document claims to inflate to 4 GB: a zip bomb, if anything inflated it.
fn docx_bomb() -> Vec<u8> {
    let deflated = vec![0_u8; 64 * 1024];
    zip(&[
        ("[Content_Types].xml", 0, 10, b"<Types/>\0\0"),
        ("word/document.xml", 8, u32::MAX, &deflated),
    ])
}

/// The attachments of the `index`th email received: (name, content type, bytes).
fn attachments_of(mail: &support::Received) -> Vec<(String, String, Vec<u8>)> {
    let parsed = mail.parsed();
    parsed
        .attachments()
        .map(|part| {
            let content_type = part
                .content_type()
                .map(|ct| format!("{}/{}", ct.ctype(), ct.subtype().unwrap_or_default()))
                .unwrap_or_default();
            (
                part.attachment_name().unwrap_or_default().to_owned(),
                content_type,
                part.contents().to_vec(),
            )
        })
        .collect()
}

support::on_both_stores![
    files_at_every_limit_are_delivered_intact_and_then_removed,
    one_byte_or_one_file_past_a_limit_is_refused_and_nothing_is_kept,
    an_idempotent_retry_stores_the_files_once,
    a_zip_bomb_named_docx_is_typed_without_being_inflated,
    a_dead_letters_files_are_listed_and_purged_with_it,
    a_file_changed_in_the_store_is_not_sent,
    part_counts_header_sizes_and_field_sizes_are_bounded,
    a_body_with_no_repeated_or_missing_boundary_is_refused,
];

async fn files_at_every_limit_are_delivered_intact_and_then_removed(kind: Kind) {
    let env = Env::start(kind, &[]).await;
    let max = ATTACHMENTS.max_file_bytes as usize;
    let total = ATTACHMENTS.max_total_bytes as usize;
    let files = [
        file("brief.pdf", "application/pdf", pdf(max)),
        file("diagram.png", "image/png", png(total - max - 10)),
        file("notes.txt", "text/plain", b"ten bytes\n".to_vec()),
    ];
    assert_eq!(files.len(), ATTACHMENTS.max_files);
    let (status, answer) = env.post(body(&files), &[]).await;
    assert_eq!(status, 200, "{answer}");
    let mail = env.smtp.wait_for(1).await;
    let attached = attachments_of(&mail[0]);
    assert_eq!(attached.len(), 3);
    for (sent, (name, content_type, bytes)) in files.iter().zip(&attached) {
        assert_eq!(name, sent.name);
        assert_eq!(content_type, sent.content_type);
        assert!(bytes == &sent.bytes, "{name} arrived changed");
    }
    let text = mail[0].parsed().body_text(0).unwrap().into_owned();
    assert!(
        text.contains("brief.pdf (application/pdf, 10485760 bytes"),
        "{text}"
    );
    // Removed once the delivery is recorded, a moment after the mail server has the mail: on
    // PostgreSQL by a query that may still be on its way when the test gets here.
    let started = std::time::Instant::now();
    while env.stored_files().await > 0 {
        assert!(
            started.elapsed() < support::PATIENCE,
            "the files were not removed after delivery"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(env.spooled(), 0);
}

async fn one_byte_or_one_file_past_a_limit_is_refused_and_nothing_is_kept(kind: Kind) {
    let env = Env::start(kind, &[]).await;
    let max = ATTACHMENTS.max_file_bytes as usize;
    let total = ATTACHMENTS.max_total_bytes as usize;
    let cases = [
        (
            vec![file("big.pdf", "application/pdf", pdf(max + 1))],
            "file_too_large",
            "\"big.pdf\" is larger than 10 MB",
        ),
        (
            vec![
                file("a.pdf", "application/pdf", pdf(max)),
                file("b.pdf", "application/pdf", pdf(max)),
                file("c.txt", "text/plain", b"x".to_vec()),
            ],
            "files_too_large",
            "larger than 20 MB together",
        ),
        (
            (0..=ATTACHMENTS.max_files)
                .map(|_| file("a.txt", "text/plain", b"x".to_vec()))
                .collect(),
            "too_many_files",
            "At most 3 files",
        ),
    ];
    assert_eq!(2 * max + 1, total + 1);
    for (files, code, words) in cases {
        let (status, answer) = env.post(body(&files), &[]).await;
        assert_eq!(status, 413, "{code}: {answer}");
        assert_eq!(answer["fields"]["attachments"]["code"], code, "{answer}");
        let message = answer["error"].as_str().unwrap();
        assert!(message.contains(words), "{message}");
    }
    assert_eq!(env.stored_files().await, 0);
    assert_eq!(env.spooled(), 0, "no upload is left in the spool");
    assert!(env.smtp.received().is_empty());
}

async fn an_idempotent_retry_stores_the_files_once(kind: Kind) {
    let env = Env::start(kind, &[]).await;
    let files = [file("brief.pdf", "application/pdf", pdf(300_000))];
    let key = [("idempotency-key", "retry-with-files-1")];
    let (first, a) = env.post(body(&files), &key).await;
    let (second, b) = env.post(body(&files), &key).await;
    assert_eq!((first, second), (200, 200), "{a} {b}");
    assert_eq!(a["id"], b["id"]);
    let other = [file("other.pdf", "application/pdf", pdf(1000))];
    let (conflict, _) = env.post(body(&other), &key).await;
    assert_eq!(conflict, 409, "other files under the same key");
    let mail = env.smtp.wait_for(1).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(env.smtp.received().len(), 1, "one email");
    assert_eq!(attachments_of(&mail[0]).len(), 1);
    assert_eq!(env.spooled(), 0);
}

async fn a_zip_bomb_named_docx_is_typed_without_being_inflated(kind: Kind) {
    let env = Env::start(kind, &[]).await;
    let bomb = docx_bomb();
    let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    let (status, answer) = env
        .post(body(&[file("proposal.docx", docx, bomb.clone())]), &[])
        .await;
    assert_eq!(status, 200, "{answer}");
    let mail = env.smtp.wait_for(1).await;
    let attached = attachments_of(&mail[0]);
    assert_eq!(attached[0].1, docx);
    assert!(attached[0].2 == bomb, "delivered as sent, never inflated");
    // The same bomb without the container's declaration is no office document.
    let bare = zip(&[("word/document.xml", 8, u32::MAX, &[0; 1024])]);
    let (status, answer) = env
        .post(body(&[file("proposal.docx", docx, bare)]), &[])
        .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(answer["fields"]["attachments"]["code"], "file_type");
}

#[tokio::test]
async fn a_file_whose_bytes_lie_about_its_type_is_refused_either_way() {
    let env = Env::start(Kind::Files, &[]).await;
    let executable = padded(b"MZ\x90\x00\x03\x00\x00\x00\x04\x00", 4096);
    let cases = [
        file("invoice.pdf", "application/pdf", executable),
        file("scan.png", "image/png", pdf(4096)),
        file("scan.pdf", "image/png", pdf(4096)),
        file("notes.txt", "text/plain", png(100)),
    ];
    for case in cases {
        let name = case.name;
        let (status, answer) = env.post(body(&[case]), &[]).await;
        assert_eq!(status, 422, "{name}: {answer}");
        let error = &answer["fields"]["attachments"];
        assert_eq!(error["code"], "file_type", "{answer}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(&format!("\"{name}\"")), "{message}");
    }
    // The right bytes under the right name and type pass.
    let (status, _) = env
        .post(body(&[file("scan.pdf", "application/pdf", pdf(4096))]), &[])
        .await;
    assert_eq!(status, 200);
    assert_eq!(env.spooled(), 0);
}

#[tokio::test]
async fn a_hostile_name_arrives_safe_and_rfc2231_encoded() {
    let env = Env::start(Kind::Files, &[]).await;
    let long = "é".repeat(300);
    // A header cannot carry a line break (a browser sends one as %0D%0A), but a tab, bidi
    // overrides and a path can come through.
    let hostile = format!("../../etc/\u{202e}fdp.exe\tBcc: victim@example.org {long}.pdf");
    let (status, answer) = env
        .post(body(&[file(&hostile, "application/pdf", pdf(2048))]), &[])
        .await;
    assert_eq!(status, 200, "{answer}");
    let mail = env.smtp.wait_for(1).await;
    let raw = String::from_utf8_lossy(&mail[0].data).into_owned();
    assert!(!raw.contains("\r\nBcc:"), "no header was added");
    assert!(raw.contains("filename*0*=utf-8''"), "RFC 2231");
    let (name, _, _) = &attachments_of(&mail[0])[0];
    assert!(
        !name.contains(['/', '\\', '\r', '\n', '\u{202e}']),
        "{name:?}"
    );
    assert!(
        name.starts_with("fdp.exeBcc: victim@example.org éé"),
        "{name:?}"
    );
    assert!(name.ends_with(".pdf"), "{name:?}");
    assert_eq!(name.chars().count(), ATTACHMENTS.max_name_chars);
    // Nothing was written where the name pointed.
    assert!(!env.dir.path().join("etc").exists());
}

async fn part_counts_header_sizes_and_field_sizes_are_bounded(kind: Kind) {
    let env = Env::start(kind, &[]).await;
    let part = |name: &str| {
        format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\nx\r\n")
    };
    let end = format!("--{BOUNDARY}--\r\n");
    // 32 parts are read (and answered for their fields); the 33rd is one too many.
    for (parts, expected) in [(32, 422), (33, 413), (10_000, 413)] {
        let mut text: String = (0..parts).map(|i| part(&format!("f{i}"))).collect();
        text.push_str(&end);
        let (status, answer) = env.post(text.into_bytes(), &[]).await;
        assert_eq!(status, expected, "{parts} parts: {answer}");
        if expected == 413 {
            assert!(
                answer["error"]
                    .as_str()
                    .unwrap()
                    .contains("more than 32 parts")
            );
        }
    }
    // A part's headers at 8 KiB are read; past it, or without an end, they are refused.
    let header = |len: usize| {
        let mut text =
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"company\"\r\nX-Pad: ");
        let before = text.len() - format!("--{BOUNDARY}").len();
        text.push_str(&"p".repeat(len - before - 4));
        text.push_str("\r\n\r\nAcme\r\n");
        text.push_str(&end);
        text.into_bytes()
    };
    let (status, answer) = env.post(header(8 * 1024), &[]).await;
    assert_eq!(status, 422, "headers at the limit are read: {answer}");
    let (status, answer) = env.post(header(8 * 1024 + 1), &[]).await;
    assert_eq!(status, 413, "{answer}");
    let endless = format!("--{BOUNDARY}\r\nX-Pad: {}", "p".repeat(100_000));
    let (status, _) = env.post(endless.into_bytes(), &[]).await;
    assert_eq!(status, 413, "headers that never end");
    // The fields together may be as large as a whole url-encoded body.
    let field_bytes = |len: usize| {
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\n{}\r\n{end}",
            "m".repeat(len)
        )
        .into_bytes()
    };
    let (status, answer) = env.post(field_bytes(64 * 1024), &[]).await;
    assert_eq!(
        status, 422,
        "at the limit, then too long for the message: {answer}"
    );
    let (status, answer) = env.post(field_bytes(64 * 1024 + 1), &[]).await;
    assert_eq!(status, 413, "{answer}");
    assert_eq!(env.stored_files().await, 0, "nothing refused is kept");
    assert_eq!(env.spooled(), 0);
}

async fn a_body_with_no_repeated_or_missing_boundary_is_refused(kind: Kind) {
    let env = Env::start(kind, &[]).await;
    let url = env.service.url("/send-contact-email");
    let valid = body(&[file("a.pdf", "application/pdf", pdf(100))]);
    for content_type in [
        "multipart/form-data".to_owned(),
        format!("multipart/form-data; boundary={BOUNDARY}; boundary=other"),
        "multipart/form-data; boundary=not-the-one-used".to_owned(),
    ] {
        let response = env
            .client
            .post(&url)
            .header("content-type", &content_type)
            .body(valid.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{content_type}");
    }
    // Boundaries one after another: parts without headers or names.
    let repeated = format!("--{BOUNDARY}\r\n--{BOUNDARY}\r\n--{BOUNDARY}--\r\n");
    let (status, _) = env.post(repeated.into_bytes(), &[]).await;
    assert_eq!(status, 400);
    // A part whose headers never end before the body does.
    let cut = format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"name\"\r\n");
    let (status, _) = env.post(cut.into_bytes(), &[]).await;
    assert_eq!(status, 400);
    assert_eq!(env.spooled(), 0);
    assert_eq!(env.stored_files().await, 0, "nothing refused is kept");
}

#[tokio::test]
async fn a_browser_post_without_javascript_is_redirected() {
    let env = Env::start(Kind::Files, &[]).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let send = |files: Vec<File<'static>>| {
        client
            .post(env.service.url("/send-contact-email"))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .header("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
            .body(body(&files))
            .send()
    };
    let sent = send(vec![file("a.pdf", "application/pdf", pdf(100))])
        .await
        .unwrap();
    assert_eq!(sent.status().as_u16(), 303);
    let location = sent.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.ends_with("/contact/sent/"), "{location}");
    // An empty file input sends an empty part with no name: no file, not an error.
    let none = send(vec![file("", "application/octet-stream", Vec::new())])
        .await
        .unwrap();
    assert_eq!(none.status().as_u16(), 303);
    assert!(
        none.headers()["location"]
            .to_str()
            .unwrap()
            .ends_with("/contact/sent/")
    );
    let refused = send(vec![file("a.pdf", "application/pdf", png(100))])
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 303);
    let location = refused.headers()["location"].to_str().unwrap();
    assert!(location.ends_with("/contact/error/"), "{location}");
    let mail = env.smtp.wait_for(2).await;
    let counts: Vec<usize> = mail.iter().map(|m| attachments_of(m).len()).collect();
    assert_eq!(counts.iter().sum::<usize>(), 1, "{counts:?}");
}

#[tokio::test]
async fn a_scanner_that_gives_no_answer_in_time_is_stopped_and_the_delivery_retried() {
    let scripts = tempfile::tempdir().unwrap();
    let started = scripts.path().join("started");
    let finished = scripts.path().join("finished");
    let scanner = script(
        scripts.path(),
        "scan",
        &format!(
            "#!/bin/sh\ntouch '{}'\nsleep 1\ntouch '{}'\n",
            started.display(),
            finished.display()
        ),
    );
    let env = Env::start(
        Kind::Files,
        &[
            "--scan-command",
            &scanner,
            "--scan-timeout",
            "200ms",
            "--retry-initial",
            "1h",
            "--retry-max",
            "1h",
        ],
    )
    .await;
    let (status, _) = env
        .post(body(&[file("brief.pdf", "application/pdf", pdf(100))]), &[])
        .await;
    assert_eq!(status, 200);
    let mut record = Value::Null;
    support::eventually("a failed attempt recorded", || {
        record = first_waiting(&env);
        record["attempts"] == 1
    })
    .await;
    let error = record["lastError"].as_str().unwrap();
    assert!(
        error.contains("the scanner gave no answer within 200ms"),
        "{error}"
    );
    assert!(started.exists(), "the scanner ran");
    assert!(env.smtp.received().is_empty(), "not sent unscanned");
    // Stopped, not left running: it never gets to its last line.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert!(!finished.exists(), "the scanner was left running");
}

#[tokio::test]
async fn an_infected_file_is_left_out_and_a_failing_scanner_retries() {
    let scripts = tempfile::tempdir().unwrap();
    let script = |name: &str, text: &str| script(scripts.path(), name, text);
    // Infected when the file holds the word EICAR, as clamdscan answers.
    let scanner = script(
        "scan",
        "#!/bin/sh\nif grep -q EICAR \"$1\"; then echo \"$1: Eicar-Test-Signature FOUND\"; exit 1; fi\nexit 0\n",
    );
    let env = Env::start(Kind::Files, &["--scan-command", &scanner]).await;
    let files = [
        file("clean.txt", "text/plain", b"hello\n".to_vec()),
        file("eicar.txt", "text/plain", b"X5O EICAR test\n".to_vec()),
    ];
    let (status, answer) = env.post(body(&files), &[]).await;
    assert_eq!(status, 200, "{answer}");
    let mail = env.smtp.wait_for(1).await;
    let attached = attachments_of(&mail[0]);
    assert_eq!(attached.len(), 1);
    assert_eq!(attached[0].0, "clean.txt");
    let raw = String::from_utf8_lossy(&mail[0].data).into_owned();
    assert!(
        raw.contains("\"eicar.txt\" was left out: the virus scanner found it infected (Eicar-Test-Signature FOUND)"),
        "{raw}"
    );
    env.service.stop().await;

    let broken = script(
        "broken",
        "#!/bin/sh\necho 'cannot reach clamd' >&2\nexit 2\n",
    );
    let env = Env::start(
        Kind::Files,
        &[
            "--scan-command",
            &broken,
            "--retry-initial",
            "1h",
            "--retry-max",
            "1h",
        ],
    )
    .await;
    let (status, _) = env.post(body(&files[..1]), &[]).await;
    assert_eq!(status, 200);
    let mut record = Value::Null;
    support::eventually("a failed attempt recorded", || {
        record = first_waiting(&env);
        record["attempts"] == 1
    })
    .await;
    let error = record["lastError"].as_str().unwrap();
    assert!(error.contains("cannot reach clamd"), "{error}");
    assert!(env.smtp.received().is_empty(), "not sent unscanned");
}

async fn a_file_changed_in_the_store_is_not_sent(kind: Kind) {
    let scripts = tempfile::tempdir().unwrap();
    let called = scripts.path().join("called");
    let ready = scripts.path().join("ready");
    // Fails (as a scanner that cannot reach its daemon) until `ready` exists. It decides before
    // it says it was called: a scan that looked for `ready` after the test saw `called` (and
    // wrote `ready`) passed the first attempt, which then had no failure to retry.
    let scanner = script(
        scripts.path(),
        "scan",
        &format!(
            "#!/bin/sh\n[ -e '{}' ] && exit 0\ntouch '{}'\nexit 2\n",
            ready.display(),
            called.display()
        ),
    );
    let env = Env::start(
        kind,
        &[
            "--scan-command",
            &scanner,
            "--retry-initial",
            "1s",
            "--retry-max",
            "1s",
        ],
    )
    .await;
    let (status, answer) = env
        .post(
            body(&[file("brief.pdf", "application/pdf", pdf(5000))]),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let id = answer["id"].as_str().unwrap().to_owned();
    // The first attempt read the file (and took its SHA-256) before the scanner failed.
    support::eventually("the first attempt", || called.exists()).await;
    env.change_first_byte(&id).await;
    std::fs::write(&ready, "").unwrap();

    let data_dir = env.dir.path().to_str().unwrap().to_owned();
    let mut store = vec!["--data-dir".to_owned(), data_dir];
    if let Some(url) = &env.database {
        store.extend(["--database-url".to_owned(), url.clone()]);
    }
    let show = || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
            .args(&store)
            .args(["dead-letters", "show", &id])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    support::eventually("the changed file refused", || {
        show().contains(
            "the stored file \\\"brief.pdf\\\" is not the one received: its checksum differs",
        )
    })
    .await;
    assert!(env.smtp.received().is_empty(), "nothing sent");
}

async fn a_dead_letters_files_are_listed_and_purged_with_it(kind: Kind) {
    let env = Env::start_in(kind, Mode::RejectRecipients, &[]).await;
    let files = [
        file("brief.pdf", "application/pdf", pdf(5000)),
        file("notes.txt", "text/plain", b"hello\n".to_vec()),
    ];
    let (status, answer) = env.post(body(&files), &[]).await;
    assert_eq!(status, 200, "{answer}");
    let id = answer["id"].as_str().unwrap().to_owned();
    let data_dir = env.dir.path().to_str().unwrap().to_owned();
    let mut store = vec!["--data-dir".to_owned(), data_dir];
    if let Some(url) = &env.database {
        store.extend(["--database-url".to_owned(), url.clone()]);
    }
    let cli = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_contact-fn"))
            .args(&store)
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    support::eventually("the refused message to become a dead letter", || {
        cli(&["dead-letters", "list"]).contains(&id)
    })
    .await;
    let listed = cli(&["dead-letters", "list"]);
    assert!(listed.contains("\t2 file(s), 5006 bytes\t"), "{listed}");
    let shown = cli(&["dead-letters", "show", &id]);
    let digest = ring::digest::digest(&ring::digest::SHA256, &pdf(5000));
    let sha256: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    assert!(
        shown.contains(&format!("\"sha256\": \"{sha256}\"")),
        "taken at the first attempt: {shown}"
    );
    assert_eq!(env.stored_files().await, 2, "a dead letter keeps its files");

    let purged = cli(&["dead-letters", "purge", &id, "--yes"]);
    assert!(purged.contains("deleted"), "{purged}");
    assert_eq!(env.stored_files().await, 0, "purged with its message");
}

#[tokio::test]
async fn a_slow_upload_holds_no_processing_turn_that_others_need() {
    use tokio::io::AsyncWriteExt as _;
    let env = Env::start(
        Kind::Files,
        &["--max-concurrency", "1", "--busy-timeout", "200ms"],
    )
    .await;
    let address = env.service.base.trim_start_matches("http://").to_owned();
    let mut slow = tokio::net::TcpStream::connect(&address).await.unwrap();
    let mut start = body(&[file("brief.pdf", "application/pdf", pdf(1_000_000))]);
    let length = start.len();
    start.truncate(length / 2);
    let head = format!(
        "POST /send-contact-email HTTP/1.1\r\nHost: {address}\r\nContent-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {length}\r\n\r\n"
    );
    slow.write_all(head.as_bytes()).await.unwrap();
    slow.write_all(&start).await.unwrap();
    slow.flush().await.unwrap();
    // Half a file is in the spool and the rest does not come; others are served meanwhile.
    support::eventually("the slow upload to be spooling", || env.spooled() == 1).await;
    let (status, answer) = env.post(body(&[]), &[]).await;
    assert_eq!(status, 200, "{answer}");
    let (status, _) = support::post_json(
        &env.client,
        &env.service.url("/send-contact-email"),
        &support::contact_body(),
    )
    .await;
    assert_eq!(status, 200);
    drop(slow);
    support::eventually("the abandoned upload's spool file to be removed", || {
        env.spooled() == 0
    })
    .await;
}

#[tokio::test]
async fn the_webhook_lists_the_files_and_the_metrics_count_them() {
    use std::sync::{Arc, Mutex};
    let posts: Arc<Mutex<Vec<axum::body::Bytes>>> = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hook = format!("http://{}/hook", listener.local_addr().unwrap());
    let received = posts.clone();
    let router = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |body: axum::body::Bytes| {
            let received = received.clone();
            async move {
                received.lock().unwrap().push(body);
                axum::http::StatusCode::NO_CONTENT
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, router).await });
    let smtp = SmtpServer::start(Mode::Accept);
    let dir = tempfile::tempdir().unwrap();
    let metrics = support::free_port().to_string();
    let smtp_url = smtp.url();
    let flags = [
        "--smtp-url",
        &smtp_url,
        "--webhook-url",
        &hook,
        "--metrics-bind",
        &metrics,
    ];
    let service = Service::start_with(dir.path(), &flags, |config| {
        config.webhook_secret =
            Some("whsec_YmVuY2htYXJrIHdlYmhvb2sgc2VjcmV0IDMyIGJ5dGVz".to_owned());
    })
    .await;
    let env = Env {
        smtp,
        dir,
        service,
        client: reqwest::Client::new(),
        database: None,
    };
    let bytes = pdf(4321);
    let (status, _) = env
        .post(
            body(&[file("brief.pdf", "application/pdf", bytes.clone())]),
            &[],
        )
        .await;
    assert_eq!(status, 200);
    let four: Vec<File<'_>> = (0..4)
        .map(|_| file("a.txt", "text/plain", b"x".to_vec()))
        .collect();
    assert_eq!(env.post(body(&four), &[]).await.0, 413);
    let (status, _) = env
        .post(body(&[file("a.pdf", "image/png", pdf(10))]), &[])
        .await;
    assert_eq!(status, 422);

    support::eventually("the webhook post", || !posts.lock().unwrap().is_empty()).await;
    let event: Value = serde_json::from_slice(&posts.lock().unwrap()[0]).unwrap();
    let digest = ring::digest::digest(&ring::digest::SHA256, &bytes);
    let sha256: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        event["data"]["fields"]["attachments"],
        serde_json::json!([{
            "name": "brief.pdf",
            "contentType": "application/pdf",
            "size": 4321,
            "sha256": sha256,
        }])
    );
    assert!(posts.lock().unwrap()[0].len() < 4000, "never the bytes");

    let text = reqwest::get(format!("http://{metrics}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for line in [
        "contact_attachments_accepted_total 1",
        "contact_attachments_refused_total{reason=\"too_many_files\"} 1",
        "contact_attachments_refused_total{reason=\"file_type\"} 1",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
}
