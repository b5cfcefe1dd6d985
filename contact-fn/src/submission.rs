//! Turns a request body into a validated submission of one of the two forms.
//!
//! Decoding and validation are separate steps so that JSON and plain HTML form posts share
//! every rule, and so that all problems of a submission are reported at once, keyed by the
//! field names the client used.

use std::collections::BTreeMap;

use axum::http::{HeaderMap, header};
use lettre::Address;
use serde::{Deserialize, Serialize};

/// Hidden field that people leave empty and form-filling bots do not.
pub const HONEYPOT: &str = "_gotcha";

/// Longest single-line field, in characters.
pub const MAX_LINE: usize = 200;
/// Longest name part (first or last name), in characters.
pub const MAX_NAME_PART: usize = 100;
/// Longest email address, in characters (RFC 5321 path limit).
pub const MAX_EMAIL: usize = 254;
/// Longest multi-line field, in characters.
pub const MAX_TEXT: usize = 10_000;
/// Longest phone number, in characters.
pub const MAX_PHONE: usize = 32;
/// Fewest and most digits in a phone number.
pub const PHONE_DIGITS: std::ops::RangeInclusive<usize> = 4..=20;
/// Country code used when the client sends none.
pub const DEFAULT_COUNTRY_CODE: &str = "+49";

/// The accepted answers of the home form's "how did you hear of us" list.
pub const SOURCES: [&str; 5] = ["search", "social", "referral", "event", "other"];
/// The accepted answers of the home form's role list.
pub const ROLES: [&str; 5] = ["cto", "ceo", "developer", "manager", "other"];

/// Which form a submission comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormKind {
    /// The contact page's "Send us a Message" form.
    Contact,
    /// The home page's "Get in Touch" form.
    Enquiry,
}

impl FormKind {
    /// Short name used in logs and file names.
    pub fn as_str(self) -> &'static str {
        match self {
            FormKind::Contact => "contact",
            FormKind::Enquiry => "enquiry",
        }
    }
}

/// How the request body is encoded, from its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `application/json`, sent by scripts; answered with JSON.
    Json,
    /// `application/x-www-form-urlencoded`, sent by a plain HTML form; answered with a redirect.
    Form,
}

impl Encoding {
    /// The encoding named by the request's `Content-Type`, if it is one the service reads.
    pub fn of(headers: &HeaderMap) -> Option<Encoding> {
        let value = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
        let essence = value.split(';').next()?.trim();
        if essence.eq_ignore_ascii_case("application/json") {
            Some(Encoding::Json)
        } else if essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
            Some(Encoding::Form)
        } else {
            None
        }
    }
}

/// A field's value as the client sent it.
#[derive(Debug, Clone, PartialEq)]
pub enum RawValue {
    /// A string (every form value is one).
    Text(String),
    /// A JSON boolean.
    Bool(bool),
    /// JSON `null`, treated as absent.
    Null,
    /// A field given more than once in a form post.
    Repeated,
    /// Any other JSON value; holds its kind for the message.
    Other(&'static str),
}

/// The fields of a body, by the name the client used.
pub type RawFields = BTreeMap<String, RawValue>;

/// Why a body could not be read as fields at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not parseable JSON (syntax, invalid UTF-8, nesting too deep).
    #[error("the body is not valid JSON: {0}")]
    Json(String),
    /// Valid JSON, but not an object of fields.
    #[error("the body must be a JSON object of form fields")]
    NotAnObject,
}

/// Reads the body's fields; says nothing yet about whether they are right.
pub fn decode(encoding: Encoding, body: &[u8]) -> Result<RawFields, DecodeError> {
    match encoding {
        Encoding::Json => {
            // serde_json limits nesting depth, so hostile nesting is an error, not a crash.
            let value: serde_json::Value =
                serde_json::from_slice(body).map_err(|e| DecodeError::Json(e.to_string()))?;
            let serde_json::Value::Object(map) = value else {
                return Err(DecodeError::NotAnObject);
            };
            Ok(map
                .into_iter()
                .map(|(key, value)| {
                    let raw = match value {
                        serde_json::Value::String(s) => RawValue::Text(s),
                        serde_json::Value::Bool(b) => RawValue::Bool(b),
                        serde_json::Value::Null => RawValue::Null,
                        serde_json::Value::Number(_) => RawValue::Other("a number"),
                        serde_json::Value::Array(_) => RawValue::Other("a list"),
                        serde_json::Value::Object(_) => RawValue::Other("an object"),
                    };
                    (key, raw)
                })
                .collect())
        }
        Encoding::Form => {
            // Invalid UTF-8 in a form post is replaced by U+FFFD, as browsers do.
            let mut fields = RawFields::new();
            for (key, value) in form_urlencoded::parse(body) {
                fields
                    .entry(key.into_owned())
                    .and_modify(|v| *v = RawValue::Repeated)
                    .or_insert_with(|| RawValue::Text(value.into_owned()));
            }
            Ok(fields)
        }
    }
}

/// A message from the contact page form, cleaned and checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessage {
    /// Visitor's full name.
    pub name: String,
    /// Visitor's email address; the Reply-To of the email.
    pub email: String,
    /// Visitor's company, when given.
    pub company: Option<String>,
    /// Dialling code such as `+49`.
    pub country_code: String,
    /// Phone number without the dialling code.
    pub phone: String,
    /// Subject line the visitor chose.
    pub subject: String,
    /// The message itself, line breaks kept.
    pub message: String,
}

/// An enquiry from the home page "Get in Touch" form, cleaned and checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enquiry {
    /// Visitor's first name.
    pub first_name: String,
    /// Visitor's last name.
    pub last_name: String,
    /// Visitor's email address; the Reply-To of the email.
    pub email: String,
    /// Job title, when given.
    pub job_title: Option<String>,
    /// Visitor's company.
    pub company: String,
    /// Phone number, when given.
    pub phone: Option<String>,
    /// What the visitor wants to discuss, line breaks kept.
    pub topic: String,
    /// How the visitor heard of the company: one of [`SOURCES`], when given.
    pub source: Option<String>,
    /// Visitor's role: one of [`ROLES`], when given.
    pub role: Option<String>,
    /// Whether the visitor wants the newsletter.
    pub newsletter: bool,
    /// Whether the visitor ticked the privacy agreement.
    pub privacy: bool,
}

/// A valid submission of either form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Submission {
    /// From the contact page.
    Contact(ContactMessage),
    /// From the home page.
    Enquiry(Enquiry),
}

impl Submission {
    /// Which form it came from.
    pub fn kind(&self) -> FormKind {
        match self {
            Submission::Contact(_) => FormKind::Contact,
            Submission::Enquiry(_) => FormKind::Enquiry,
        }
    }

    /// The visitor's email address.
    pub fn email(&self) -> &str {
        match self {
            Submission::Contact(m) => &m.email,
            Submission::Enquiry(e) => &e.email,
        }
    }
}

/// What validation concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A real submission to deliver.
    Accepted(Box<Submission>),
    /// The honeypot was filled: answer as if accepted, deliver nothing.
    Spam,
}

/// Human messages for the fields that need correcting, keyed by the client's field name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FieldErrors(pub BTreeMap<String, String>);

/// Checks every field of a decoded body; collects all problems before answering.
pub fn validate(kind: FormKind, mut raw: RawFields) -> Result<Verdict, FieldErrors> {
    if let Some(honeypot) = raw.remove(HONEYPOT) {
        let filled = match honeypot {
            RawValue::Text(text) => !text.trim().is_empty(),
            RawValue::Null | RawValue::Bool(false) => false,
            RawValue::Bool(true) | RawValue::Repeated | RawValue::Other(_) => true,
        };
        if filled {
            return Ok(Verdict::Spam);
        }
    }
    let mut fields = Fields {
        raw,
        errors: BTreeMap::new(),
    };
    let submission = match kind {
        FormKind::Contact => Submission::Contact(ContactMessage {
            name: fields.required_line("name", "Name", MAX_LINE),
            email: fields.email("email"),
            company: fields.optional_line("company", "Company name", MAX_LINE),
            country_code: fields.country_code("countryCode"),
            phone: fields.phone("phone", true).unwrap_or_default(),
            subject: fields.required_line("subject", "Subject", MAX_LINE),
            message: fields.required_text("message", "Message"),
        }),
        FormKind::Enquiry => Submission::Enquiry(Enquiry {
            first_name: fields.required_line("firstName", "First name", MAX_NAME_PART),
            last_name: fields.required_line("lastName", "Last name", MAX_NAME_PART),
            email: fields.email("email"),
            job_title: fields.optional_line("jobTitle", "Job title", MAX_LINE),
            company: fields.required_line("company", "Company", MAX_LINE),
            phone: fields.phone("phone", false),
            topic: fields.required_text("topic", "Discussion topic"),
            source: fields.choice("source", "How you heard of us", &SOURCES),
            role: fields.choice("role", "Role", &ROLES),
            newsletter: fields.boolean("newsletter", "Newsletter consent"),
            privacy: fields.boolean("privacy", "Privacy agreement"),
        }),
    };
    let mut errors = fields.errors;
    for key in fields.raw.into_keys() {
        errors.insert(key, "This form has no such field.".to_owned());
    }
    if errors.is_empty() {
        Ok(Verdict::Accepted(Box::new(submission)))
    } else {
        Err(FieldErrors(errors))
    }
}

/// Makes a value safe for a single-line field and an email header: line breaks and tabs
/// become spaces, every other control character is removed, outer whitespace is trimmed.
pub fn clean_line(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\t' | '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                Some(' ')
            }
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_owned()
}

/// Cleans a multi-line field: line breaks become `\n`, tabs stay, every other control
/// character is removed, outer whitespace is trimmed.
pub fn clean_text(text: &str) -> String {
    let normalized = text.replace("\r\n", "\n");
    let cleaned: String = normalized
        .chars()
        .filter_map(|c| match c {
            '\n' | '\t' => Some(c),
            '\r' | '\u{85}' | '\u{2028}' | '\u{2029}' => Some('\n'),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_owned()
}

/// The fields still to read, and the problems found so far.
struct Fields {
    raw: RawFields,
    errors: BTreeMap<String, String>,
}

impl Fields {
    /// Takes a text field out; `None` when absent, null or wrongly typed (then noted).
    fn text(&mut self, key: &str, label: &str) -> Option<String> {
        match self.raw.remove(key)? {
            RawValue::Text(text) => Some(text),
            RawValue::Null => None,
            RawValue::Repeated => self.fail(key, format!("{label} must be given only once.")),
            RawValue::Bool(_) => {
                self.fail(key, format!("{label} must be text, not true or false."))
            }
            RawValue::Other(kind) => self.fail(key, format!("{label} must be text, not {kind}.")),
        }
    }

    fn fail<T>(&mut self, key: &str, message: String) -> Option<T> {
        self.errors.insert(key.to_owned(), message);
        None
    }

    fn has_error(&self, key: &str) -> bool {
        self.errors.contains_key(key)
    }

    fn limit(&mut self, key: &str, label: &str, value: String, max: usize) -> Option<String> {
        if value.chars().count() > max {
            return self.fail(key, format!("{label} must be at most {max} characters."));
        }
        Some(value)
    }

    fn optional_line(&mut self, key: &str, label: &str, max: usize) -> Option<String> {
        let value = clean_line(&self.text(key, label)?);
        if value.is_empty() {
            return None;
        }
        self.limit(key, label, value, max)
    }

    fn required_line(&mut self, key: &str, label: &str, max: usize) -> String {
        match self.optional_line(key, label, max) {
            Some(value) => value,
            None => {
                if !self.has_error(key) {
                    self.errors
                        .insert(key.to_owned(), format!("{label} is required."));
                }
                String::new()
            }
        }
    }

    fn required_text(&mut self, key: &str, label: &str) -> String {
        let value = self.text(key, label).map(|t| clean_text(&t));
        match value {
            Some(value) if !value.is_empty() => {
                self.limit(key, label, value, MAX_TEXT).unwrap_or_default()
            }
            _ => {
                if !self.has_error(key) {
                    self.errors
                        .insert(key.to_owned(), format!("{label} is required."));
                }
                String::new()
            }
        }
    }

    fn email(&mut self, key: &str) -> String {
        let value = self.required_line(key, "Email address", MAX_EMAIL);
        if !value.is_empty() && value.parse::<Address>().is_err() {
            self.errors.insert(
                key.to_owned(),
                "Please enter a valid email address, like name@example.com.".to_owned(),
            );
        }
        value
    }

    fn country_code(&mut self, key: &str) -> String {
        let Some(value) = self.optional_line(key, "Country code", MAX_LINE) else {
            return DEFAULT_COUNTRY_CODE.to_owned();
        };
        let valid = value.strip_prefix('+').is_some_and(|digits| {
            let mut parts = digits.split('-');
            let first_ok = parts.next().is_some_and(is_short_number);
            let rest: Vec<&str> = parts.collect();
            first_ok && rest.len() <= 1 && rest.iter().all(|p| is_short_number(p))
        });
        if !valid {
            self.errors.insert(
                key.to_owned(),
                "Country code must be a dialling code like +49.".to_owned(),
            );
        }
        value
    }

    fn phone(&mut self, key: &str, required: bool) -> Option<String> {
        let label = "Phone number";
        let value = if required {
            Some(self.required_line(key, label, MAX_PHONE)).filter(|v| !v.is_empty())
        } else {
            self.optional_line(key, label, MAX_PHONE)
        }?;
        let allowed = |c: char| c.is_ascii_digit() || " ()+-.".contains(c);
        let digits = value.chars().filter(char::is_ascii_digit).count();
        if !value.chars().all(allowed) {
            self.fail(
                key,
                "Phone number may contain only digits, spaces and ( ) + - .".to_owned(),
            )
        } else if !PHONE_DIGITS.contains(&digits) {
            self.fail(
                key,
                format!(
                    "Phone number must have {} to {} digits.",
                    PHONE_DIGITS.start(),
                    PHONE_DIGITS.end()
                ),
            )
        } else {
            Some(value)
        }
    }

    fn choice(&mut self, key: &str, label: &str, options: &[&str]) -> Option<String> {
        let value = self.optional_line(key, label, MAX_LINE)?;
        if options.contains(&value.as_str()) {
            Some(value)
        } else {
            self.fail(
                key,
                format!("{label} must be one of: {}.", options.join(", ")),
            )
        }
    }

    fn boolean(&mut self, key: &str, label: &str) -> bool {
        let message = || format!("{label} must be true or false.");
        match self.raw.remove(key) {
            None | Some(RawValue::Null) => false,
            Some(RawValue::Bool(b)) => b,
            // A checked HTML checkbox sends "on" unless it has a value of its own.
            Some(RawValue::Text(text)) => match text.trim() {
                "on" | "true" | "yes" | "1" => true,
                "" | "off" | "false" | "no" | "0" => false,
                _ => {
                    self.errors.insert(key.to_owned(), message());
                    false
                }
            },
            Some(RawValue::Repeated | RawValue::Other(_)) => {
                self.errors.insert(key.to_owned(), message());
                false
            }
        }
    }
}

fn is_short_number(text: &str) -> bool {
    (1..=4).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit())
}
