//! Likely spam is kept apart, never dropped: a submission that trips a signal is delivered
//! like any other, with a subject label and headers a mail filter can route on, so a real
//! customer who tripped it by chance still reaches the inbox.
//!
//! The content signals, on the free-text fields (a contact message's subject and message, an
//! enquiry's topic):
//! - **link-only**: the text holds a link and, besides links, fewer than
//!   [`LINK_ONLY_MAX_LETTERS`] letters;
//! - **many-links**: more than [`MAX_LINKS`] links in all (`http://`, `https://`, `www.`).

use serde::Serialize;

use crate::submission::Submission;

/// Subject label of a flagged message.
pub const SUBJECT_LABEL: &str = "[Unverified]";
/// Header on a flagged message, with [`HEADER_VALUE`].
pub const HEADER: &str = "X-Contact-Spam";
/// The value of [`HEADER`].
pub const HEADER_VALUE: &str = "unverified";
/// Header listing why a message was flagged, comma-separated [`Reason`]s.
pub const REASONS_HEADER: &str = "X-Contact-Spam-Reasons";
/// Most links a message may hold before it is flagged.
pub const MAX_LINKS: usize = 3;
/// Fewest letters besides links for a message with a link not to be link-only.
pub const LINK_ONLY_MAX_LETTERS: usize = 10;

/// Why a submission was flagged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The proof of work is asked for, and the submission has no valid, unspent solution.
    NoProofOfWork,
    /// The text is links and little else.
    LinkOnly,
    /// More than [`MAX_LINKS`] links.
    ManyLinks,
}

impl Reason {
    /// The reason as it appears in [`REASONS_HEADER`], the webhook event and the metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NoProofOfWork => "no-proof-of-work",
            Reason::LinkOnly => "link-only",
            Reason::ManyLinks => "many-links",
        }
    }
}

/// The content signals `submission` trips, in order, after `reasons` found before.
pub fn content_signals(submission: &Submission, mut reasons: Vec<Reason>) -> Vec<Reason> {
    let texts: Vec<&str> = match submission {
        Submission::Contact(m) => vec![&m.subject, &m.message],
        Submission::Enquiry(e) => vec![&e.topic],
        Submission::Newsletter(_) => Vec::new(),
    };
    let links: usize = texts.iter().map(|t| words_that_are_links(t).count()).sum();
    let body = texts.last().copied().unwrap_or_default();
    let letters_besides_links: usize = body
        .split_whitespace()
        .filter(|word| !is_link(word))
        .map(|word| word.chars().filter(|c| c.is_alphabetic()).count())
        .sum();
    if words_that_are_links(body).next().is_some() && letters_besides_links < LINK_ONLY_MAX_LETTERS
    {
        reasons.push(Reason::LinkOnly);
    }
    if links > MAX_LINKS {
        reasons.push(Reason::ManyLinks);
    }
    reasons
}

fn words_that_are_links(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace().filter(|word| is_link(word))
}

fn is_link(word: &str) -> bool {
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric());
    let lower = word.get(..8).unwrap_or(word).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("www.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::ContactMessage;

    fn contact(subject: &str, message: &str) -> Submission {
        Submission::Contact(ContactMessage {
            name: "Ada".into(),
            email: "ada@example.org".into(),
            company: None,
            country_code: "+44".into(),
            phone: "20 7946 0958".into(),
            subject: subject.into(),
            message: message.into(),
            attachments: Vec::new(),
        })
    }

    #[test]
    fn a_message_that_is_only_a_link_is_flagged() {
        let link_only = contact("Hello", "https://spam.example/offer");
        assert_eq!(content_signals(&link_only, Vec::new()), [Reason::LinkOnly]);
        let shouted = contact("Hi", "  <HTTP://spam.example>  !!! ");
        assert_eq!(content_signals(&shouted, Vec::new()), [Reason::LinkOnly]);
    }

    #[test]
    fn many_links_are_flagged_and_a_few_in_prose_are_not() {
        let prose = contact(
            "Our site",
            "Please see https://example.org/a and www.example.org/b for our project.",
        );
        assert!(content_signals(&prose, Vec::new()).is_empty());
        let many = contact(
            "Links https://a.example",
            "Look: https://b.example https://c.example www.d.example and more words here",
        );
        assert_eq!(content_signals(&many, Vec::new()), [Reason::ManyLinks]);
        assert!(content_signals(&contact("Hello", "No links at all."), Vec::new()).is_empty());
    }
}
