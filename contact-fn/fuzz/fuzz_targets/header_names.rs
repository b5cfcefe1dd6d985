//! The names that reach an email's headers, written as delivery writes them: the subject (RFC
//! 2047 encoded-words where it holds `=?`, lettre's encoding where it is not ASCII), the
//! visitor's display name, and each attachment's file name (RFC 2231). Whatever a visitor
//! types, mail-parser (an implementation apart from the encoders) reads back exactly what was
//! meant.
#![no_main]

use std::sync::OnceLock;

use arbitrary::Arbitrary;
use contact_fn::attachment::{self, Attachment};
use contact_fn::contract::{ATTACHMENTS, FormKind};
use contact_fn::submission::{self, RawFields, RawValue, Submission, Verdict};
use libfuzzer_sys::fuzz_target;
use mail_parser::{MessageParser, MimeHeaders as _};

#[derive(Debug, Arbitrary)]
struct Input {
    name: String,
    subject: String,
    files: Vec<String>,
}

fn subject_prefix() -> &'static str {
    static PREFIX: OnceLock<String> = OnceLock::new();
    PREFIX.get_or_init(|| {
        contact_fn::Config::from_args(["contact-fn"])
            .expect("defaults")
            .contact_subject_prefix
    })
}

fuzz_target!(|input: Input| {
    let mut raw = RawFields::new();
    for (field, value) in [
        ("name", input.name.as_str()),
        ("email", "ada@example.org"),
        ("countryCode", "+44"),
        ("phone", "20 7946 0958"),
        ("subject", input.subject.as_str()),
        ("message", "Hello"),
    ] {
        raw.insert(field.to_owned(), RawValue::Text(value.to_owned()));
    }
    let Ok(Verdict::Accepted(mut submission)) = submission::validate(FormKind::Contact, raw) else {
        return;
    };
    let Submission::Contact(message) = submission.as_mut() else {
        unreachable!("a contact form makes a contact message");
    };
    let pdf = ATTACHMENTS
        .by_mime("application/pdf")
        .expect("PDF is taken");
    message.attachments = input
        .files
        .iter()
        .take(ATTACHMENTS.max_files)
        .map(|given| Attachment {
            name: attachment::display_name(given, pdf),
            content_type: pdf.mime.to_owned(),
            size: 4,
            crc32: None,
            sha256: None,
        })
        .collect();
    let (name, subject) = (message.name.clone(), message.subject.clone());
    let sent = message.attachments.clone();
    let email = contact_fn::fuzzing::email(&submission, b"%PDF").expect("an email");

    let parsed = MessageParser::default()
        .parse(email.as_bytes())
        .expect("the email parses");
    assert_eq!(
        parsed.subject(),
        Some(format!("{} {subject}", subject_prefix()).as_str()),
        "{email}"
    );
    let reply_to = parsed
        .reply_to()
        .and_then(|a| a.first())
        .expect("a Reply-To");
    assert_eq!(reply_to.name(), Some(name.as_str()), "{email}");
    let names: Vec<_> = parsed
        .attachments()
        .map(|part| part.attachment_name().map(str::to_owned))
        .collect();
    let expected: Vec<_> = sent.iter().map(|a| Some(a.name.clone())).collect();
    assert_eq!(names, expected, "{email}");
});
