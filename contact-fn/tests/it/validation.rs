//! Table tests of decoding and validating both forms, with the exact messages.
#![allow(clippy::unwrap_used)]

use crate::support;

use std::collections::BTreeMap;

use contact_fn::contract::{ErrorCode, Role, Source};
use contact_fn::submission::{
    ContactMessage, DecodeError, Encoding, Enquiry, FormKind, Submission, Verdict, decode, validate,
};
use serde_json::{Value, json};

/// A table row: what is tried, the body, and the expected field messages.
type Case = (&'static str, Value, Vec<(&'static str, &'static str)>);

fn check(kind: FormKind, body: &Value) -> Result<Submission, BTreeMap<String, String>> {
    let raw = decode(Encoding::Json, body.to_string().as_bytes()).unwrap();
    match validate(kind, raw) {
        Ok(Verdict::Accepted(submission)) => Ok(*submission),
        Ok(Verdict::Spam) => panic!("unexpected honeypot verdict for {body}"),
        Err(errors) => Err(errors
            .0
            .into_iter()
            .map(|(field, error)| (field, error.message))
            .collect()),
    }
}

/// The error code of each rejected field of `body`.
fn codes(kind: FormKind, body: &Value) -> BTreeMap<String, ErrorCode> {
    let raw = decode(Encoding::Json, body.to_string().as_bytes()).unwrap();
    match validate(kind, raw) {
        Ok(_) => BTreeMap::new(),
        Err(errors) => errors
            .0
            .into_iter()
            .map(|(field, error)| (field, error.code))
            .collect(),
    }
}

fn with(mut body: Value, key: &str, value: Value) -> Value {
    body[key] = value;
    body
}

fn without(mut body: Value, key: &str) -> Value {
    body.as_object_mut().unwrap().remove(key);
    body
}

fn errors(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn a_valid_contact_message_is_cleaned_and_kept_whole() {
    let body = support::contact_body();
    assert_eq!(
        check(FormKind::Contact, &body),
        Ok(Submission::Contact(ContactMessage {
            name: "Ada Lovelace".into(),
            email: "ada@example.org".into(),
            company: Some("Analytical Engines Ltd".into()),
            country_code: "+44".into(),
            phone: "20 7946 0958".into(),
            subject: "A new engine".into(),
            message: "Hello,\nwe would like to discuss a project.\nBest, Ada".into(),
            attachments: Vec::new(),
        }))
    );
}

#[test]
fn contact_field_rules() {
    let base = support::contact_body;
    let long = |n: usize| Value::String("x".repeat(n));
    let cases: Vec<Case> = vec![
        (
            "missing name",
            without(base(), "name"),
            vec![("name", "Name is required.")],
        ),
        (
            "blank name",
            with(base(), "name", json!("  \t ")),
            vec![("name", "Name is required.")],
        ),
        (
            "null name",
            with(base(), "name", Value::Null),
            vec![("name", "Name is required.")],
        ),
        (
            "name too long",
            with(base(), "name", long(201)),
            vec![("name", "Name must be at most 200 characters.")],
        ),
        (
            "missing email",
            without(base(), "email"),
            vec![("email", "Email address is required.")],
        ),
        (
            "email without @",
            with(base(), "email", json!("ada.example.org")),
            vec![(
                "email",
                "Please enter a valid email address, like name@example.com.",
            )],
        ),
        (
            "email with two @",
            with(base(), "email", json!("a@b@example.org")),
            vec![(
                "email",
                "Please enter a valid email address, like name@example.com.",
            )],
        ),
        (
            "email too long",
            with(
                base(),
                "email",
                json!(format!("{}@example.org", "a".repeat(250))),
            ),
            vec![("email", "Email address must be at most 254 characters.")],
        ),
        (
            "company too long",
            with(base(), "company", long(201)),
            vec![("company", "Company name must be at most 200 characters.")],
        ),
        (
            "country code without plus",
            with(base(), "countryCode", json!("49")),
            vec![(
                "countryCode",
                "Country code must be a dialling code like +49.",
            )],
        ),
        (
            "country code with letters",
            with(base(), "countryCode", json!("+4a")),
            vec![(
                "countryCode",
                "Country code must be a dialling code like +49.",
            )],
        ),
        (
            "country code too long",
            with(base(), "countryCode", json!("+12345")),
            vec![(
                "countryCode",
                "Country code must be a dialling code like +49.",
            )],
        ),
        (
            "missing phone",
            without(base(), "phone"),
            vec![("phone", "Phone number is required.")],
        ),
        (
            "phone with letters",
            with(base(), "phone", json!("call me maybe")),
            vec![(
                "phone",
                "Phone number may contain only digits, spaces and ( ) + - .",
            )],
        ),
        (
            "phone too short",
            with(base(), "phone", json!("12 3")),
            vec![("phone", "Phone number must have 4 to 20 digits.")],
        ),
        (
            "phone with too many digits",
            with(base(), "phone", json!("123456789012345678901")),
            vec![("phone", "Phone number must have 4 to 20 digits.")],
        ),
        (
            "phone too long",
            with(base(), "phone", json!("1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7")),
            vec![("phone", "Phone number must be at most 32 characters.")],
        ),
        (
            "missing subject",
            without(base(), "subject"),
            vec![("subject", "Subject is required.")],
        ),
        (
            "missing message",
            without(base(), "message"),
            vec![("message", "Message is required.")],
        ),
        (
            "message of blank lines",
            with(base(), "message", json!("\n \r\n\t")),
            vec![("message", "Message is required.")],
        ),
        (
            "message too long",
            with(base(), "message", long(10_001)),
            vec![("message", "Message must be at most 10000 characters.")],
        ),
        (
            "number instead of text",
            with(base(), "name", json!(42)),
            vec![("name", "Name must be text, not a number.")],
        ),
        (
            "list instead of text",
            with(base(), "subject", json!(["a"])),
            vec![("subject", "Subject must be text, not a list.")],
        ),
        (
            "object instead of text",
            with(base(), "message", json!({"a": 1})),
            vec![("message", "Message must be text, not an object.")],
        ),
        (
            "boolean instead of text",
            with(base(), "phone", json!(true)),
            vec![("phone", "Phone number must be text, not true or false.")],
        ),
        (
            "unknown field",
            with(base(), "website", json!("x")),
            vec![("website", "This form has no such field.")],
        ),
        (
            "everything missing",
            json!({}),
            vec![
                ("email", "Email address is required."),
                ("message", "Message is required."),
                ("name", "Name is required."),
                ("phone", "Phone number is required."),
                ("subject", "Subject is required."),
            ],
        ),
    ];
    for (case, body, expected) in cases {
        assert_eq!(
            check(FormKind::Contact, &body),
            Err(errors(&expected)),
            "case: {case}"
        );
    }
}

#[test]
fn contact_optional_fields_and_defaults() {
    let body = without(without(support::contact_body(), "company"), "countryCode");
    let Ok(Submission::Contact(message)) = check(FormKind::Contact, &body) else {
        panic!("accepted")
    };
    assert_eq!(message.company, None);
    assert_eq!(message.country_code, "+49");

    let body = with(
        with(support::contact_body(), "company", json!("  ")),
        "countryCode",
        json!(""),
    );
    let Ok(Submission::Contact(message)) = check(FormKind::Contact, &body) else {
        panic!("accepted")
    };
    assert_eq!(message.company, None);
    assert_eq!(message.country_code, "+49");

    for code in ["+1", "+358", "+1-684", "+7"] {
        let body = with(support::contact_body(), "countryCode", json!(code));
        assert!(
            check(FormKind::Contact, &body).is_ok(),
            "{code} is a dialling code"
        );
    }
    for phone in ["(030) 123-456.78", "+49 170 1234567", "0170 1234567"] {
        let body = with(support::contact_body(), "phone", json!(phone));
        assert!(
            check(FormKind::Contact, &body).is_ok(),
            "{phone} is a phone number"
        );
    }
}

#[test]
fn control_characters_leave_single_line_fields_and_stay_out_of_messages() {
    let body = json!({
        "name": "Ada\r\nBcc: victim@example.com\u{0}",
        "email": " ada@example.org\u{7f} ",
        "company": "Engines\u{1b}[31m Ltd\u{2028}",
        "countryCode": "+44\n",
        "phone": "20\t7946\u{0}0958",
        "subject": "Hi\r\nX-Injected: yes",
        "message": "line one\r\nline two\rline three\u{0}\u{7}\tend"
    });
    let Ok(Submission::Contact(m)) = check(FormKind::Contact, &body) else {
        panic!("accepted")
    };
    assert_eq!(m.name, "Ada Bcc: victim@example.com");
    assert_eq!(m.email, "ada@example.org");
    assert_eq!(m.company.as_deref(), Some("Engines[31m Ltd"));
    assert_eq!(m.country_code, "+44");
    assert_eq!(m.phone, "20 79460958");
    assert_eq!(m.subject, "Hi X-Injected: yes");
    assert_eq!(m.message, "line one\nline two\nline three\tend");
}

#[test]
fn any_language_and_emoji_are_welcome() {
    let body = json!({
        "name": "زينب الحربي 👩‍💻",
        "email": "zaynab@example.org",
        "countryCode": "+966",
        "phone": "50 123 4567",
        "subject": "مرحبا \u{202e}abc",
        "message": "שלום! 你好 🚀\nこんにちは"
    });
    let Ok(Submission::Contact(m)) = check(FormKind::Contact, &body) else {
        panic!("accepted")
    };
    assert_eq!(m.name, "زينب الحربي 👩‍💻");
    assert_eq!(m.subject, "مرحبا \u{202e}abc");
    assert_eq!(m.message, "שלום! 你好 🚀\nこんにちは");
}

#[test]
fn lengths_count_characters_not_bytes() {
    let body = with(support::contact_body(), "name", json!("й".repeat(200)));
    assert!(check(FormKind::Contact, &body).is_ok());
}

#[test]
fn a_valid_enquiry_is_accepted() {
    assert_eq!(
        check(FormKind::Enquiry, &support::enquiry_body()),
        Ok(Submission::Enquiry(Enquiry {
            first_name: "Grace".into(),
            last_name: "Hopper".into(),
            email: "grace@example.org".into(),
            job_title: Some("Rear Admiral".into()),
            company: "Navy Computing".into(),
            phone: Some("+1 555 0100".into()),
            topic: "Compilers\nand debugging".into(),
            source: Some(Source::Event),
            role: Some(Role::Cto),
            newsletter: true,
            privacy: true,
        }))
    );
}

#[test]
fn enquiry_field_rules() {
    let base = support::enquiry_body;
    let cases: Vec<Case> = vec![
        (
            "missing first name",
            without(base(), "firstName"),
            vec![("firstName", "First name is required.")],
        ),
        (
            "missing last name",
            without(base(), "lastName"),
            vec![("lastName", "Last name is required.")],
        ),
        (
            "first name too long",
            with(base(), "firstName", json!("x".repeat(101))),
            vec![("firstName", "First name must be at most 100 characters.")],
        ),
        (
            "missing company",
            without(base(), "company"),
            vec![("company", "Company is required.")],
        ),
        (
            "missing topic",
            without(base(), "topic"),
            vec![("topic", "Discussion topic is required.")],
        ),
        (
            "bad email",
            with(base(), "email", json!("grace")),
            vec![(
                "email",
                "Please enter a valid email address, like name@example.com.",
            )],
        ),
        (
            "bad phone",
            with(base(), "phone", json!("ext. 12")),
            vec![(
                "phone",
                "Phone number may contain only digits, spaces and ( ) + - .",
            )],
        ),
        (
            "unknown source",
            with(base(), "source", json!("radio")),
            vec![(
                "source",
                "How you heard of us must be one of: search, social, referral, event, other.",
            )],
        ),
        (
            "unknown role",
            with(base(), "role", json!("king")),
            vec![(
                "role",
                "Role must be one of: cto, ceo, developer, manager, other.",
            )],
        ),
        (
            "newsletter as a number",
            with(base(), "newsletter", json!(1)),
            vec![("newsletter", "Newsletter consent must be true or false.")],
        ),
        (
            "privacy as a strange word",
            with(base(), "privacy", json!("maybe")),
            vec![("privacy", "Privacy agreement must be true or false.")],
        ),
        (
            "contact form fields are unknown here",
            with(base(), "subject", json!("x")),
            vec![("subject", "This form has no such field.")],
        ),
    ];
    for (case, body, expected) in cases {
        assert_eq!(
            check(FormKind::Enquiry, &body),
            Err(errors(&expected)),
            "case: {case}"
        );
    }
}

#[test]
fn enquiry_optional_fields() {
    let body = json!({
        "firstName": "Grace", "lastName": "Hopper", "email": "grace@example.org",
        "company": "Navy", "topic": "Hello", "jobTitle": "", "phone": "", "source": "", "role": ""
    });
    let Ok(Submission::Enquiry(e)) = check(FormKind::Enquiry, &body) else {
        panic!("accepted")
    };
    assert_eq!(
        (e.job_title, e.phone, e.source, e.role),
        (None, None, None, None)
    );
    assert!(!e.newsletter && !e.privacy);
}

#[test]
fn a_form_post_decodes_like_json_with_checkboxes_as_on() {
    let form = "firstName=Grace&lastName=Hopper&email=grace%40example.org&jobTitle=&company=Navy+Computing\
        &phone=%2B1+555+0100&topic=Compilers%0D%0Aand+debugging&source=event&role=cto&newsletter=on&privacy=on";
    let raw = decode(Encoding::Form, form.as_bytes()).unwrap();
    let Ok(Verdict::Accepted(submission)) = validate(FormKind::Enquiry, raw) else {
        panic!("accepted")
    };
    let Submission::Enquiry(e) = *submission else {
        panic!("enquiry")
    };
    assert_eq!(e.topic, "Compilers\nand debugging");
    assert_eq!(e.job_title, None);
    assert!(e.newsletter && e.privacy);

    // An unticked checkbox is simply absent.
    let raw = decode(
        Encoding::Form,
        b"firstName=G&lastName=H&email=g%40example.org&company=N&topic=T",
    )
    .unwrap();
    let Ok(Verdict::Accepted(submission)) = validate(FormKind::Enquiry, raw) else {
        panic!("accepted")
    };
    let Submission::Enquiry(e) = *submission else {
        panic!("enquiry")
    };
    assert!(!e.newsletter && !e.privacy);
}

#[test]
fn a_field_repeated_in_a_form_post_is_refused() {
    let raw = decode(Encoding::Form, b"name=A&name=B").unwrap();
    let Err(errors) = validate(FormKind::Contact, raw) else {
        panic!("refused")
    };
    assert_eq!(errors.0["name"].message, "Name must be given only once.");
    assert_eq!(errors.0["name"].code, ErrorCode::Repeated);
}

#[test]
fn the_honeypot_drops_the_submission_whatever_else_it_holds() {
    for honeypot in [json!("http://spam.example"), json!(true)] {
        let body = json!({ "_gotcha": honeypot, "name": 1 });
        let raw = decode(Encoding::Json, body.to_string().as_bytes()).unwrap();
        assert_eq!(validate(FormKind::Contact, raw), Ok(Verdict::Spam));
    }
    // Left empty, as people leave it, it is ignored.
    let body = with(support::contact_body(), "_gotcha", json!(""));
    let raw = decode(Encoding::Json, body.to_string().as_bytes()).unwrap();
    assert!(matches!(
        validate(FormKind::Contact, raw),
        Ok(Verdict::Accepted(_))
    ));
}

#[test]
fn bodies_that_are_not_a_json_object_are_refused_with_the_reason() {
    assert_eq!(
        decode(Encoding::Json, b"[1,2]"),
        Err(DecodeError::NotAnObject)
    );
    assert_eq!(
        decode(Encoding::Json, b"\"text\""),
        Err(DecodeError::NotAnObject)
    );
    let Err(DecodeError::Json(reason)) = decode(Encoding::Json, b"{\"name\": \"\xff\"}") else {
        panic!("invalid UTF-8 is refused")
    };
    assert!(reason.contains("invalid unicode code point"), "{reason}");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let Err(DecodeError::Json(reason)) =
        decode(Encoding::Json, format!("{{\"name\":{deep}}}").as_bytes())
    else {
        panic!("deep nesting is refused")
    };
    assert!(reason.contains("recursion limit exceeded"), "{reason}");
    let Err(DecodeError::Json(reason)) = decode(Encoding::Json, b"{\"name\": ") else {
        panic!("truncated JSON is refused")
    };
    assert!(reason.contains("EOF while parsing"), "{reason}");
}

#[test]
fn invalid_utf8_in_a_form_post_becomes_replacement_characters() {
    let raw = decode(Encoding::Form, b"name=Ada%FF%FE&subject=\xff").unwrap();
    assert_eq!(
        raw.get("name"),
        Some(&contact_fn::submission::RawValue::Text(
            "Ada\u{fffd}\u{fffd}".into()
        ))
    );
}

#[test]
fn each_rule_answers_with_its_code() {
    use ErrorCode::*;
    let contact = support::contact_body;
    let enquiry = support::enquiry_body;
    let cases: Vec<(FormKind, Value, &str, ErrorCode)> = vec![
        (
            FormKind::Contact,
            without(contact(), "name"),
            "name",
            Required,
        ),
        (
            FormKind::Contact,
            with(contact(), "name", json!("x".repeat(201))),
            "name",
            TooLong,
        ),
        (
            FormKind::Contact,
            with(contact(), "name", json!(1)),
            "name",
            NotText,
        ),
        (
            FormKind::Contact,
            with(contact(), "email", json!("ada")),
            "email",
            InvalidEmail,
        ),
        (
            FormKind::Contact,
            with(contact(), "countryCode", json!("49")),
            "countryCode",
            InvalidCountryCode,
        ),
        (
            FormKind::Contact,
            with(contact(), "phone", json!("call me")),
            "phone",
            InvalidPhone,
        ),
        (
            FormKind::Contact,
            with(contact(), "phone", json!("12")),
            "phone",
            PhoneDigits,
        ),
        (
            FormKind::Contact,
            with(contact(), "website", json!("x")),
            "website",
            UnknownField,
        ),
        (
            FormKind::Enquiry,
            with(enquiry(), "source", json!("radio")),
            "source",
            NotAnOption,
        ),
        (
            FormKind::Enquiry,
            with(enquiry(), "role", json!("king")),
            "role",
            NotAnOption,
        ),
        (
            FormKind::Enquiry,
            with(enquiry(), "privacy", json!("maybe")),
            "privacy",
            NotBoolean,
        ),
    ];
    for (kind, body, field, code) in cases {
        assert_eq!(
            codes(kind, &body),
            BTreeMap::from([(field.to_owned(), code)]),
            "{body}"
        );
    }
}
