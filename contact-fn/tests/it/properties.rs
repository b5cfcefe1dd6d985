//! Property tests of the request decoder and the validator: no input crashes them, whatever
//! they accept is clean, and JSON and form posts are judged alike.
#![allow(clippy::unwrap_used)]

use contact_fn::contract::{CONTACT, MAX_EMAIL, MAX_LINE, MAX_PHONE, MAX_TEXT};
use contact_fn::submission::{
    Encoding, FormKind, Submission, Verdict, clean_line, clean_text, decode, validate,
};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// The names the contact form's fields are sent under.
fn contact_field_names() -> Vec<&'static str> {
    CONTACT.all().iter().map(|field| field.name).collect()
}

fn kinds() -> impl Strategy<Value = FormKind> {
    prop_oneof![Just(FormKind::Contact), Just(FormKind::Enquiry)]
}

fn encodings() -> impl Strategy<Value = Encoding> {
    prop_oneof![Just(Encoding::Json), Just(Encoding::Form)]
}

/// Text mixing plain letters, controls, line breaks, non-Latin scripts and emoji.
fn field_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => any::<String>(),
        2 => "[ a-zA-Z0-9@.+()\\-]{0,40}",
        1 => "[\r\n\t\u{0}\u{7f}\u{2028} a-z]{0,20}",
        1 => "[\u{0590}-\u{06ff}\u{1f300}-\u{1f5ff} ]{0,20}",
    ]
}

fn contact_fields() -> impl Strategy<Value = Vec<Option<String>>> {
    proptest::collection::vec(
        proptest::option::of(field_text()),
        contact_field_names().len(),
    )
}

fn to_json(values: &[Option<String>]) -> Vec<u8> {
    let map: Map<String, Value> = contact_field_names()
        .iter()
        .zip(values)
        .filter_map(|(k, v)| Some((k.to_string(), Value::String(v.clone()?))))
        .collect();
    serde_json::to_vec(&map).unwrap()
}

fn to_form(values: &[Option<String>]) -> Vec<u8> {
    let mut form = form_urlencoded::Serializer::new(String::new());
    for (key, value) in contact_field_names().iter().zip(values) {
        if let Some(value) = value {
            form.append_pair(key, value);
        }
    }
    form.finish().into_bytes()
}

fn is_clean_line(text: &str, max: usize) -> bool {
    !text.chars().any(char::is_control)
        && !text.contains(['\u{2028}', '\u{2029}'])
        && text.trim() == text
        && text.chars().count() <= max
}

proptest! {
    #[test]
    fn any_bytes_are_decoded_and_judged_without_panicking(
        body in proptest::collection::vec(any::<u8>(), 0..2048),
        encoding in encodings(),
        kind in kinds(),
    ) {
        if let Ok(raw) = decode(encoding, &body) {
            let _ = validate(kind, raw);
        }
    }

    #[test]
    fn any_json_object_is_judged_without_panicking(
        map in proptest::collection::btree_map(
            prop_oneof![
                Just("name".to_owned()), Just("email".to_owned()), Just("firstName".to_owned()),
                Just("newsletter".to_owned()), Just("_gotcha".to_owned()), "[a-z]{1,8}",
            ],
            prop_oneof![
                field_text().prop_map(Value::String),
                any::<bool>().prop_map(Value::Bool),
                any::<f64>().prop_map(|n| serde_json::json!(n)),
                Just(Value::Null),
                Just(serde_json::json!([[], {}])),
            ],
            0..10,
        ),
        kind in kinds(),
    ) {
        let body = serde_json::to_vec(&map).unwrap();
        let raw = decode(Encoding::Json, &body).unwrap();
        let _ = validate(kind, raw);
    }

    #[test]
    fn whatever_is_accepted_is_clean_and_within_limits(values in contact_fields()) {
        let raw = decode(Encoding::Json, &to_json(&values)).unwrap();
        match validate(FormKind::Contact, raw) {
            Ok(Verdict::Accepted(submission)) => {
                let Submission::Contact(m) = *submission else { panic!("a contact message") };
                prop_assert!(is_clean_line(&m.name, MAX_LINE) && !m.name.is_empty());
                prop_assert!(is_clean_line(&m.email, MAX_EMAIL));
                prop_assert!(m.email.parse::<lettre::Address>().is_ok());
                prop_assert!(m.company.as_deref().is_none_or(|c| is_clean_line(c, MAX_LINE) && !c.is_empty()));
                prop_assert!(m.country_code.starts_with('+'));
                prop_assert!(is_clean_line(&m.phone, MAX_PHONE));
                prop_assert!(m.phone.chars().all(|c| c.is_ascii_digit() || " ()+-.".contains(c)));
                prop_assert!(is_clean_line(&m.subject, MAX_LINE));
                prop_assert!(!m.message.is_empty() && m.message.chars().count() <= MAX_TEXT);
                prop_assert!(!m.message.chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
            }
            Ok(Verdict::Spam) => prop_assert!(false, "no honeypot was sent"),
            Err(errors) => {
                prop_assert!(!errors.0.is_empty());
                for key in errors.0.keys() {
                    prop_assert!(contact_field_names().contains(&key.as_str()), "unexpected key {key}");
                }
            }
        }
    }

    #[test]
    fn json_and_form_posts_are_judged_alike(values in contact_fields()) {
        let from_json = validate(FormKind::Contact, decode(Encoding::Json, &to_json(&values)).unwrap());
        let from_form = validate(FormKind::Contact, decode(Encoding::Form, &to_form(&values)).unwrap());
        prop_assert_eq!(from_json, from_form);
    }

    #[test]
    fn cleaning_twice_changes_nothing_more(text in field_text()) {
        let line = clean_line(&text);
        prop_assert_eq!(clean_line(&line), line.clone());
        prop_assert!(is_clean_line(&line, usize::MAX));
        let block = clean_text(&text);
        prop_assert_eq!(clean_text(&block), block);
    }

    #[test]
    fn ordinary_submissions_are_accepted_unchanged(
        // One space at a time: a single-line field keeps one of a run.
        name in "[A-Za-zÀ-ÿ]([A-Za-zÀ-ÿ'\\-]{1,8} ?){0,6}[a-z]",
        user in "[a-z0-9_]{1,10}(\\.[a-z0-9_]{1,10})?",
        domain in "[a-z]{2,20}\\.(com|org|de|ee)",
        code in "\\+[1-9][0-9]{0,2}",
        phone in "[0-9]{3,5}( [0-9]{3,5}){1,2}",
        subject in "[A-Za-z]([A-Za-z0-9,.!?]{1,12} ?){0,8}[a-z]",
        message in "[A-Za-z][A-Za-z0-9 ,.!?\n]{0,500}[a-z]",
    ) {
        let body = serde_json::json!({
            "name": name, "email": format!("{user}@{domain}"), "countryCode": code,
            "phone": phone, "subject": subject, "message": message,
        });
        let raw = decode(Encoding::Json, body.to_string().as_bytes()).unwrap();
        let verdict = validate(FormKind::Contact, raw);
        let Ok(Verdict::Accepted(submission)) = verdict else {
            return Err(TestCaseError::fail(format!("refused {body}: {verdict:?}")));
        };
        let Submission::Contact(m) = *submission else { panic!("a contact message") };
        prop_assert_eq!(m.name, name);
        prop_assert_eq!(m.message, message);
        prop_assert_eq!(m.phone, phone);
    }
}
