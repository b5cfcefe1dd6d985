//! The form routes' reading of a body, limits included, for each content type the service
//! reads: the first byte picks the content type (JSON, url-encoded, multipart with the boundary
//! `fuzz`) and the form; the rest is the body. Whatever arrives, the answer is a verdict or an
//! error, never a panic, and what is accepted keeps the contract's limits.
#![no_main]

use std::sync::OnceLock;

use contact_fn::attachment;
use contact_fn::contract::{ATTACHMENTS, FormKind};
use contact_fn::submission::{Submission, Verdict, clean_line};
use libfuzzer_sys::fuzz_target;

/// The content types, by the first byte's two low bits.
const CONTENT_TYPES: [&str; 4] = [
    "application/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=fuzz",
    "multipart/form-data; boundary=\"fuzz\"",
];

/// The forms, by the first byte's next two bits.
const KINDS: [FormKind; 4] = [
    FormKind::Contact,
    FormKind::Enquiry,
    FormKind::Newsletter,
    FormKind::Contact,
];

struct World {
    runtime: tokio::runtime::Runtime,
    config: contact_fn::Config,
    _data: tempfile::TempDir,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        // A spool in memory where there is one: the files are written and removed per input.
        let data = tempfile::Builder::new()
            .prefix("contact-fn-fuzz")
            .tempdir_in(if std::path::Path::new("/dev/shm").is_dir() {
                "/dev/shm"
            } else {
                "/tmp"
            })
            .expect("a temporary data folder");
        let dir = data.path().to_str().expect("a UTF-8 path").to_owned();
        let config =
            contact_fn::Config::from_args(["contact-fn", "--data-dir", &dir]).expect("defaults");
        std::fs::create_dir_all(config.spool_dir()).expect("the spool folder");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime");
        World {
            runtime,
            config,
            _data: data,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let content_type = CONTENT_TYPES[usize::from(selector & 3)];
    let kind = KINDS[usize::from((selector >> 2) & 3)];
    let world = world();
    let read = world.runtime.block_on(contact_fn::fuzzing::read_form(
        &world.config,
        kind,
        content_type,
        body.to_vec(),
    ));
    let Ok((verdict, files)) = read else {
        return;
    };
    assert!(files.len() <= ATTACHMENTS.max_files, "{files:?}");
    assert!(kind == FormKind::Contact || files.is_empty(), "{files:?}");
    for file in &files {
        assert!(file.size <= ATTACHMENTS.max_file_bytes, "{file:?}");
        assert!(
            ATTACHMENTS
                .types
                .iter()
                .any(|t| t.mime == file.content_type),
            "{file:?}"
        );
        assert!(!file.name.is_empty(), "{file:?}");
        assert_eq!(attachment::clean_name(&file.name), file.name, "{file:?}");
        assert!(
            file.name.chars().count() <= ATTACHMENTS.max_name_chars,
            "{file:?}"
        );
    }
    if let Verdict::Accepted(submission) = verdict {
        // A single-line field reaches the email's headers as it was cleaned.
        let lines: Vec<&str> = match submission.as_ref() {
            Submission::Contact(m) => vec![&m.name, &m.subject, &m.email],
            Submission::Enquiry(e) => vec![&e.first_name, &e.last_name, &e.company, &e.email],
            Submission::Newsletter(n) => vec![&n.email],
        };
        for line in lines {
            assert_eq!(clean_line(line), *line);
        }
    }
});
