//! Turns a validated submission into the email the company inbox receives.
//!
//! The recipient and sender come from configuration only; the visitor's address is used
//! solely as Reply-To. Bodies come from minijinja templates, the HTML one autoescaped.

use anyhow::Context as _;
use email_encoding::headers::{rfc2047, writer::EmailWriter};
use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use minijinja::{Environment, UndefinedBehavior};

use crate::config::Config;
use crate::spam;
use crate::submission::Submission;
use crate::telemetry::REQUEST_ID_HEADER;

/// Builds the emails; holds the parsed templates and the fixed addresses.
#[derive(Debug)]
pub struct Composer {
    templates: Environment<'static>,
    from: Mailbox,
    to: Mailbox,
    contact_prefix: String,
    enquiry_prefix: String,
}

impl Composer {
    /// Parses the templates; fails only if a template is broken.
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let mut templates = Environment::new();
        templates.set_undefined_behavior(UndefinedBehavior::Strict);
        // The `.html` names turn on HTML autoescaping; `.txt` ones stay verbatim.
        for (name, source) in [
            ("contact.txt", include_str!("../templates/contact.txt")),
            ("contact.html", include_str!("../templates/contact.html")),
            ("enquiry.txt", include_str!("../templates/enquiry.txt")),
            ("enquiry.html", include_str!("../templates/enquiry.html")),
        ] {
            templates
                .add_template(name, source)
                .with_context(|| format!("parsing the email template {name}"))?;
        }
        Ok(Self {
            templates,
            from: config.mail_from.clone(),
            to: config.mail_to.clone(),
            contact_prefix: config.contact_subject_prefix.clone(),
            enquiry_prefix: config.enquiry_subject_prefix.clone(),
        })
    }

    /// The envelope sender.
    pub fn from(&self) -> &Mailbox {
        &self.from
    }

    /// The company inbox.
    pub fn to(&self) -> &Mailbox {
        &self.to
    }

    /// Renders both bodies and assembles the message with id `id`, from the request
    /// `request_id` (a header, so the inbox can find the request's log lines), labelled as
    /// likely spam when `flags` holds a reason ([`spam`]).
    pub fn compose(
        &self,
        id: &str,
        submission: &Submission,
        request_id: &str,
        flags: &[spam::Reason],
    ) -> anyhow::Result<Message> {
        let mut context = serde_json::to_value(submission).context("serialising the submission")?;
        let (stem, subject, visitor_name) = match submission {
            Submission::Contact(m) => (
                "contact",
                format!("{} {}", self.contact_prefix, m.subject),
                m.name.clone(),
            ),
            Submission::Enquiry(e) => {
                if let Some(fields) = context.as_object_mut() {
                    let source = e.source.map(|s| s.inbox_label());
                    let role = e.role.map(|r| r.inbox_label());
                    fields.insert("source_label".into(), source.into());
                    fields.insert("role_label".into(), role.into());
                }
                (
                    "enquiry",
                    format!(
                        "{} {} {} ({})",
                        self.enquiry_prefix, e.first_name, e.last_name, e.company
                    ),
                    format!("{} {}", e.first_name, e.last_name),
                )
            }
            Submission::Newsletter(_) => {
                anyhow::bail!("a subscription is not a message for the inbox")
            }
        };
        if let Some(fields) = context.as_object_mut() {
            fields.insert("id".into(), id.into());
        }
        let subject = if flags.is_empty() {
            subject
        } else {
            format!("{} {subject}", spam::SUBJECT_LABEL)
        };
        let render = |kind: &str| -> anyhow::Result<String> {
            let name = format!("{stem}.{kind}");
            self.templates
                .get_template(&name)
                .and_then(|t| t.render(minijinja::value::Serde(&context)))
                .with_context(|| format!("rendering the email template {name}"))
        };
        let text = render("txt")?;
        let html = render("html")?;

        let visitor = Mailbox::new(
            Some(visitor_name),
            submission
                .email()
                .parse()
                .context("the validated email address no longer parses")?,
        );
        let mut message = Message::builder()
            .from(self.from.clone())
            .reply_to(visitor)
            .to(self.to.clone())
            .raw_header(subject_header(subject))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str(REQUEST_ID_HEADER),
                request_id.to_owned(),
            ));
        if !flags.is_empty() {
            let reasons: Vec<&str> = flags.iter().map(|r| r.as_str()).collect();
            message = message
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str(spam::HEADER),
                    spam::HEADER_VALUE.to_owned(),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str(spam::REASONS_HEADER),
                    reasons.join(", "),
                ));
        }
        message
            .message_id(Some(format!("<{id}@{}>", self.from.email.domain())))
            .multipart(MultiPart::alternative_plain_html(text, html))
            .context("assembling the email")
    }
}

/// The Subject header of `subject`, reading back as exactly that text in every mail client. A
/// value holding `=?` would be written verbatim and decoded by clients as an encoded-word
/// (RFC 2047), into any text, line breaks and headers included; and a value beyond ASCII
/// would be written by lettre as encoded-words mixed with plain words, where decoders differ
/// on the spaces between the two (mail-parser reads two spaces after an encoded-word as one:
/// found by the fuzz target `header_names`). So such a value is encoded whole, and decodes
/// back to what the visitor typed. (Display names need nothing: lettre encodes any name
/// holding `=`, `?` or more than ASCII whole.)
fn subject_header(subject: String) -> HeaderValue {
    let name = HeaderName::new_from_ascii_str("Subject");
    if subject.is_ascii() && !subject.contains("=?") {
        return HeaderValue::new(name, subject);
    }
    let mut encoded = String::with_capacity(subject.len() * 2);
    {
        let mut writer = EmailWriter::new(&mut encoded, "Subject: ".len(), 0, false);
        // Writing into a String cannot fail.
        let _ = rfc2047::encode(&subject, &mut writer);
    }
    HeaderValue::dangerous_new_pre_encoded(name, subject, encoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Subject line of `subject` as the email carries it, read back by mail-parser.
    fn read_back(subject: &str) -> Option<String> {
        let mut headers = lettre::message::header::Headers::new();
        headers.insert_raw(subject_header(subject.to_owned()));
        let email = format!("{headers}\r\nbody");
        let parsed = mail_parser::MessageParser::default().parse(email.as_bytes())?;
        parsed.subject().map(str::to_owned)
    }

    #[test]
    fn a_subject_reads_back_as_typed_spaces_and_encoded_words_included() {
        for subject in [
            "A new engine",
            "=?utf-8?q?not_a_word?= at all",
            "Grüße aus Tallinn",
            // found by the fuzz target header_names: two spaces after a word beyond ASCII,
            // which lettre wrote as an encoded-word, were read back as one
            "[Website contact] 名前.pdf  aaaaaa",
            "Ünïcödé    with runs of  spaces and a long tail of words to fold over the line",
        ] {
            assert_eq!(read_back(subject).as_deref(), Some(subject), "{subject}");
        }
    }
}
