//! Likely spam is delivered, labelled for a mail filter, never dropped: over real SMTP.
#![allow(clippy::unwrap_used)]

use crate::support;

use contact_fn::contract::FormKind;
use contact_fn::spam;
use serde_json::json;
use support::{Delivering, Mode};

#[tokio::test]
async fn a_link_only_or_link_stuffed_message_is_delivered_labelled_and_a_normal_one_is_not() {
    let d = Delivering::start(Mode::Accept, &[]).await;
    let path = FormKind::Contact.path();
    let cases = [
        (
            "Plain",
            "Hello, we would like to talk about a project.",
            None,
        ),
        ("Link only", "https://offer.example/now", Some("link-only")),
        (
            "Many links",
            "Please see https://a.example https://b.example https://c.example https://d.example for details",
            Some("many-links"),
        ),
    ];
    for (n, (subject, message, _)) in cases.iter().enumerate() {
        let mut body = support::contact_body();
        body["subject"] = json!(subject);
        body["message"] = json!(message);
        d.submit(path, &body).await;
        d.smtp.wait_for(n + 1).await;
    }
    let received = d.smtp.received();
    for (mail, (subject, _, reason)) in received.iter().zip(cases) {
        let parsed = mail.parsed();
        let header = |name| parsed.header_raw(name).map(str::trim);
        match reason {
            None => {
                assert_eq!(
                    parsed.subject(),
                    Some(format!("[Website contact] {subject}").as_str())
                );
                assert_eq!(header(spam::HEADER), None);
            }
            Some(reason) => {
                let labelled = format!("{} [Website contact] {subject}", spam::SUBJECT_LABEL);
                assert_eq!(parsed.subject(), Some(labelled.as_str()));
                assert_eq!(header(spam::HEADER), Some(spam::HEADER_VALUE));
                assert_eq!(header(spam::REASONS_HEADER), Some(reason));
            }
        }
    }
    d.service.stop().await;
}
