//! What the contact service (`contact-fn`), `sitegen` and the site agree on about the two forms:
//! the endpoint paths, the fields with their names on the wire and their limits, the options of
//! the dropdowns, the honeypot's name and the codes of validation errors.
//!
//! Every one of these facts is written here once. contact-fn validates against it; sitegen checks
//! that `content/forms.yaml` has words for every option and error code, and `sitegen schema`
//! exports it to the site: the types through ts-rs, the values as `site/schema/contract.ts`
//! ([`typescript`]), from which the form components read names, limits and paths.

pub mod translation;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Hidden field that people leave empty and form-filling bots do not.
pub const HONEYPOT: &str = "_gotcha";

/// The field of a proof-of-work solution (ALTCHA's own name for it), on both forms.
pub const ALTCHA: &str = "altcha";

/// Where a proof-of-work challenge is fetched (`GET`, on contact-fn).
pub const CHALLENGE_PATH: &str = "/challenge";

/// The prefix under which each endpoint is served again, for clients written against a
/// Supabase Edge Function (`/functions/v1/<name>`).
pub const FUNCTIONS_PREFIX: &str = "/functions/v1";

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
/// Fewest digits in a phone number.
pub const MIN_PHONE_DIGITS: usize = 4;
/// Most digits in a phone number.
pub const MAX_PHONE_DIGITS: usize = 20;
/// Dialling code used when the client sends none.
pub const DEFAULT_COUNTRY_CODE: &str = "+49";

/// Defines an enum whose variants travel as fixed strings, with the list of all of them. A
/// variant may carry a label for the company's inbox (`Variant = "wire" => "Label"`); without
/// one the label is the wire value.
macro_rules! wire_enum {
    (@label $wire:tt) => { $wire };
    (@label $wire:tt $label:tt) => { $label };
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:tt $(=> $label:tt)?, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $wire)] $variant, )*
        }

        impl $name {
            /// Every variant, in declaration (and display) order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
            /// The wire value of every variant, in declaration order.
            pub const VALUES: &'static [&'static str] = &[$($wire,)*];

            /// The value on the wire.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire,)* }
            }

            /// The variant sent as `value`.
            pub fn parse(value: &str) -> Option<$name> {
                match value { $($wire => Some($name::$variant),)* _ => None }
            }

            /// How the company's inbox names it (the visitor's words live in content/).
            pub fn inbox_label(self) -> &'static str {
                match self { $($name::$variant => wire_enum!(@label $wire $($label)?),)* }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum! {
    /// How the visitor heard of the company: the enquiry form's `source` dropdown.
    pub enum Source {
        Search = "search" => "Search Engine",
        Social = "social" => "Social Media",
        Referral = "referral" => "Referral",
        Event = "event" => "Event/Conference",
        Other = "other" => "Other",
    }
}

wire_enum! {
    /// The visitor's role: the enquiry form's `role` dropdown.
    pub enum Role {
        Cto = "cto" => "CTO",
        Ceo = "ceo" => "CEO",
        Developer = "developer" => "Developer",
        Manager = "manager" => "Manager",
        Other = "other" => "Other",
    }
}

wire_enum! {
    /// Why the service rejected a field's value. The site shows the words `content/forms.yaml`
    /// gives each code; API callers get a readable message beside it.
    pub enum ErrorCode {
        /// A required field is absent or blank.
        Required = "required",
        /// The value is longer than the field's limit.
        TooLong = "too_long",
        /// Text was expected (a number, a list, true or false came).
        NotText = "not_text",
        /// The field was given more than once.
        Repeated = "repeated",
        /// Not an email address.
        InvalidEmail = "invalid_email",
        /// Not a dialling code like +49.
        InvalidCountryCode = "invalid_country_code",
        /// A phone number with characters other than digits, spaces and `( ) + - .`.
        InvalidPhone = "invalid_phone",
        /// A phone number with too few or too many digits.
        PhoneDigits = "phone_digits",
        /// Not one of the dropdown's options.
        NotAnOption = "not_an_option",
        /// A checkbox value that is not true or false.
        NotBoolean = "not_boolean",
        /// The form has no field of this name.
        UnknownField = "unknown_field",
        /// More files than [`Attachments::max_files`].
        TooManyFiles = "too_many_files",
        /// A file larger than [`Attachments::max_file_bytes`].
        FileTooLarge = "file_too_large",
        /// Files larger together than [`Attachments::max_total_bytes`].
        FilesTooLarge = "files_too_large",
        /// A file whose content is not one of [`Attachments::types`], or does not match its
        /// name or its declared type.
        FileType = "file_type",
    }
}

wire_enum! {
    /// Which form a submission comes from.
    pub enum FormKind {
        /// The contact page's "Send us a Message" form.
        Contact = "contact",
        /// The home page's "Get in Touch" form.
        Enquiry = "enquiry",
        /// The Insights page's newsletter block (a subscription, not a message).
        Newsletter = "newsletter",
    }
}

wire_enum! {
    /// The pages of the newsletter's double opt-in, each published at
    /// `NEWSLETTER_PAGES_PATH/<value>/`; contact-fn redirects to them.
    pub enum NewsletterPage {
        /// "Check your inbox": after a subscription was asked for.
        Pending = "pending",
        /// After a confirmation link was followed.
        Confirmed = "confirmed",
        /// After an expired, tampered or outdated link: offers to subscribe again.
        Invalid = "invalid",
        /// After the one-click unsubscribe.
        Unsubscribed = "unsubscribed",
        /// After a subscription sent without JavaScript could not be started.
        Failed = "failed",
    }
}

/// Where the newsletter's pages are published on the site.
pub const NEWSLETTER_PAGES_PATH: &str = "/newsletter";

/// Where a form sent without JavaScript ends when the message was accepted.
pub const CONTACT_SENT_PATH: &str = "/contact/sent";

/// Where a form sent without JavaScript ends when the message could not be accepted.
pub const CONTACT_ERROR_PATH: &str = "/contact/error";

/// The path of the link in the confirmation email (`GET`, on contact-fn).
pub const CONFIRM_PATH: &str = "/subscribe/confirm";

/// The path of the unsubscribe link (`GET` shows a one-click button, `POST` with
/// `List-Unsubscribe=One-Click` removes the address, RFC 8058), on contact-fn.
pub const UNSUBSCRIBE_PATH: &str = "/unsubscribe";

/// The query parameter of a form's endpoint that names the language of the page the form is
/// on (`/send-contact-email?lang=et`): the service redirects to that language's pages and
/// writes the visitor's emails in it. Without it, the site's default language. It is a
/// parameter of the address, not a field of the body, so that even a body the service cannot
/// read is answered in the visitor's language.
pub const LANGUAGE_PARAM: &str = "lang";

/// The folder of a language's pages on the site: none for the site's default language
/// (`/about`), `/<tag>` for every other (`/et/about`).
pub fn language_prefix(default_tag: &str, tag: &str) -> String {
    if tag == default_tag {
        String::new()
    } else {
        format!("/{tag}")
    }
}

/// The query parameters of the signed links in the newsletter's emails.
pub mod link_params {
    /// The subscriber's address.
    pub const EMAIL: &str = "email";
    /// The form the subscription came from (a [`super::FormKind`] value).
    pub const SOURCE: &str = "source";
    /// When the link expires, in milliseconds since the Unix epoch.
    pub const EXPIRES: &str = "expires";
    /// The link's signature.
    pub const SIGNATURE: &str = "sig";
    /// The language of the pages the link leads to (unsigned: it chooses words, nothing
    /// else); absent for the site's default language.
    pub const LANGUAGE: &str = super::LANGUAGE_PARAM;
}

impl FormKind {
    /// The path the form posts to.
    pub fn path(self) -> &'static str {
        match self {
            FormKind::Contact => "/send-contact-email",
            FormKind::Enquiry => "/send-enquiry",
            FormKind::Newsletter => "/subscribe",
        }
    }

    /// The same endpoint below [`FUNCTIONS_PREFIX`].
    pub fn functions_path(self) -> String {
        format!("{FUNCTIONS_PREFIX}{}", self.path())
    }
}

/// How a field's value is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// One line of text; line breaks become spaces.
    Line,
    /// Several lines of text.
    Text,
    /// An email address.
    Email,
    /// A dialling code like `+49` or `+1-684`.
    CountryCode,
    /// A phone number.
    Phone,
    /// One of the [`Field::options`].
    Choice,
    /// A checkbox: true or false.
    Boolean,
}

/// One field of a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Field {
    /// The name the field is sent under (the HTML `name`, the JSON key).
    pub name: &'static str,
    /// How the field is named in the service's default messages, for API callers.
    #[serde(skip)]
    pub label: &'static str,
    /// How the value is checked.
    pub rule: Rule,
    /// Whether the form is refused without it.
    pub required: bool,
    /// Most characters accepted (0 for a checkbox).
    pub max_length: usize,
    /// The accepted values of a [`Rule::Choice`], in display order.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub options: &'static [&'static str],
}

impl Field {
    const fn new(name: &'static str, label: &'static str, rule: Rule, max_length: usize) -> Self {
        Field {
            name,
            label,
            rule,
            required: false,
            max_length,
            options: &[],
        }
    }

    const fn required(mut self) -> Self {
        self.required = true;
        self
    }

    const fn choice(
        name: &'static str,
        label: &'static str,
        options: &'static [&'static str],
    ) -> Self {
        let mut field = Field::new(name, label, Rule::Choice, MAX_LINE);
        field.options = options;
        field
    }
}

/// Defines a form's field set: one [`Field`] per member, and the list of them all.
macro_rules! form_fields {
    ($(#[$meta:meta])* pub struct $name:ident { $($field:ident,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Serialize)]
        #[allow(missing_docs)]
        pub struct $name {
            $(pub $field: Field,)*
        }

        impl $name {
            /// Every field, in display order.
            pub fn all(&self) -> Vec<Field> {
                vec![$(self.$field,)*]
            }
        }
    };
}

form_fields! {
    /// The contact page form's fields, in display order. The member names are the keys of their
    /// words in `content/forms.yaml` and of the fields in the site's code.
    pub struct ContactFields {
        name,
        email,
        company,
        country_code,
        phone,
        subject,
        message,
    }
}

form_fields! {
    /// The home page enquiry form's fields, in display order; member names as in
    /// [`ContactFields`].
    pub struct EnquiryFields {
        first_name,
        last_name,
        email,
        job_title,
        company,
        phone,
        topic,
        source,
        role,
        newsletter,
        privacy,
    }
}

form_fields! {
    /// The newsletter block's fields; member names as in [`ContactFields`].
    pub struct NewsletterFields {
        email,
    }
}

/// The contact page form.
pub const CONTACT: ContactFields = ContactFields {
    name: Field::new("name", "Name", Rule::Line, MAX_LINE).required(),
    email: Field::new("email", "Email address", Rule::Email, MAX_EMAIL).required(),
    company: Field::new("company", "Company name", Rule::Line, MAX_LINE),
    country_code: Field::new("countryCode", "Country code", Rule::CountryCode, MAX_LINE),
    phone: Field::new("phone", "Phone number", Rule::Phone, MAX_PHONE).required(),
    subject: Field::new("subject", "Subject", Rule::Line, MAX_LINE).required(),
    message: Field::new("message", "Message", Rule::Text, MAX_TEXT).required(),
};

/// The home page "Get in Touch" form.
pub const ENQUIRY: EnquiryFields = EnquiryFields {
    first_name: Field::new("firstName", "First name", Rule::Line, MAX_NAME_PART).required(),
    last_name: Field::new("lastName", "Last name", Rule::Line, MAX_NAME_PART).required(),
    email: Field::new("email", "Email address", Rule::Email, MAX_EMAIL).required(),
    job_title: Field::new("jobTitle", "Job title", Rule::Line, MAX_LINE),
    company: Field::new("company", "Company", Rule::Line, MAX_LINE).required(),
    phone: Field::new("phone", "Phone number", Rule::Phone, MAX_PHONE),
    topic: Field::new("topic", "Discussion topic", Rule::Text, MAX_TEXT).required(),
    source: Field::choice("source", "How you heard of us", Source::VALUES),
    role: Field::choice("role", "Role", Role::VALUES),
    newsletter: Field::new("newsletter", "Newsletter consent", Rule::Boolean, 0),
    privacy: Field::new("privacy", "Privacy agreement", Rule::Boolean, 0),
};

/// The Insights page's newsletter block (and, by its checkbox, the home page form).
pub const NEWSLETTER: NewsletterFields = NewsletterFields {
    email: Field::new("email", "Email address", Rule::Email, MAX_EMAIL).required(),
};

/// A kind of file the contact form takes, recognised by its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileType {
    /// The media type the service decides from the file's bytes, and sends it under.
    pub mime: &'static str,
    /// How the visitor is told of it.
    pub label: &'static str,
    /// The name endings (lower case, without the dot) a file of this type may have; the
    /// first is added to a name that has none.
    pub extensions: &'static [&'static str],
    /// Other media types a browser may declare for such a file, besides [`FileType::mime`].
    #[serde(skip)]
    pub aliases: &'static [&'static str],
}

/// The contact form's optional file field: its name on the wire, its limits and the kinds of
/// file it takes. Sizes are in bytes (1 MB = 1,048,576 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachments {
    /// The name of every file part (`multipart/form-data`), the HTML `name`.
    pub name: &'static str,
    /// Most files a message may carry.
    pub max_files: usize,
    /// Largest file.
    pub max_file_bytes: u64,
    /// Largest total of a message's files.
    pub max_total_bytes: u64,
    /// Longest file name kept, in characters (a longer one is shortened, its ending kept).
    pub max_name_chars: usize,
    /// The kinds of file taken, decided from the content.
    pub types: &'static [FileType],
}

const MB: u64 = 1024 * 1024;

/// The contact form's files.
pub const ATTACHMENTS: Attachments = Attachments {
    name: "attachments",
    max_files: 3,
    max_file_bytes: 10 * MB,
    max_total_bytes: 20 * MB,
    max_name_chars: 100,
    types: &[
        FileType {
            mime: "application/pdf",
            label: "PDF",
            extensions: &["pdf"],
            aliases: &["application/x-pdf"],
        },
        FileType {
            mime: "image/png",
            label: "PNG",
            extensions: &["png"],
            aliases: &[],
        },
        FileType {
            mime: "image/jpeg",
            label: "JPEG",
            extensions: &["jpg", "jpeg"],
            aliases: &["image/pjpeg"],
        },
        FileType {
            mime: "image/webp",
            label: "WebP",
            extensions: &["webp"],
            aliases: &[],
        },
        FileType {
            mime: "text/plain",
            label: "plain text",
            extensions: &["txt", "text", "csv", "md", "log"],
            aliases: &["text/csv", "text/markdown", "text/x-markdown", "text/x-log"],
        },
        FileType {
            mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            label: "Word (.docx)",
            extensions: &["docx"],
            aliases: &[],
        },
        FileType {
            mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            label: "Excel (.xlsx)",
            extensions: &["xlsx"],
            aliases: &[],
        },
        FileType {
            mime: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            label: "PowerPoint (.pptx)",
            extensions: &["pptx"],
            aliases: &[],
        },
        FileType {
            mime: "application/vnd.oasis.opendocument.text",
            label: "OpenDocument text (.odt)",
            extensions: &["odt"],
            aliases: &[],
        },
        FileType {
            mime: "application/vnd.oasis.opendocument.spreadsheet",
            label: "OpenDocument spreadsheet (.ods)",
            extensions: &["ods"],
            aliases: &[],
        },
        FileType {
            mime: "application/vnd.oasis.opendocument.presentation",
            label: "OpenDocument presentation (.odp)",
            extensions: &["odp"],
            aliases: &[],
        },
    ],
};

impl Attachments {
    /// The type whose media type is `mime`.
    pub fn by_mime(&self, mime: &str) -> Option<&'static FileType> {
        self.types.iter().find(|t| t.mime == mime)
    }

    /// The HTML `accept` of the file input: every name ending and media type taken.
    pub fn accept(&self) -> String {
        let endings = self
            .types
            .iter()
            .flat_map(|t| t.extensions.iter().map(|e| format!(".{e}")));
        let mimes = self.types.iter().map(|t| t.mime.to_owned());
        endings.chain(mimes).collect::<Vec<_>>().join(",")
    }
}

/// What the service says about one rejected field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FieldError {
    /// Why, for programs: the site shows the words `content/forms.yaml` gives this code.
    pub code: ErrorCode,
    /// Why, in English, for people calling the API directly.
    pub message: String,
}

/// The JSON body of every answer that is not a success.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ErrorBody {
    /// A readable summary.
    pub error: String,
    /// With 422, and with 413 for a file limit: what is wrong with each field, keyed by the
    /// name it was sent under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fields: Option<BTreeMap<String, FieldError>>,
}

/// What a subscriber agrees to: shown under the newsletter form and recorded with every
/// confirmed subscription. A new text needs a new version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Consent {
    /// Names this text in the records (a date such as `2026-11-23` reads well).
    pub version: String,
    /// The text the visitor is shown when subscribing.
    pub text: String,
}

/// The words of the email that asks a new subscriber to confirm. contact-fn puts them into its
/// layout (`contact-fn/templates/newsletter.*`); `{{ address }}` and `{{ hours }}` are replaced
/// by the subscriber's address and the hours the link works.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmationEmail {
    /// The subject line.
    pub subject: String,
    /// The first line.
    pub greeting: String,
    /// What is asked, above the link.
    pub intro: String,
    /// The label of the confirmation link.
    pub action: String,
    /// How long the link works.
    pub expiry: String,
    /// What to do when the visitor did not ask for it.
    pub ignore: String,
    /// The label of the unsubscribe link at the end.
    pub unsubscribe: String,
    /// The closing line.
    pub signature: String,
}

/// The one short email contact-fn may send a visitor whose message it accepted as verified
/// (`--auto-reply`): plain text, the same for everyone, repeating nothing the visitor typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AutoReply {
    /// The subject line.
    pub subject: String,
    /// The paragraphs of the body, in order.
    pub body: Vec<String>,
    /// The closing line.
    pub signature: String,
}

/// The page contact-fn shows for the unsubscribe link of an email: one button that
/// unsubscribes, so that link scanners following links change nothing. `{{ address }}` is
/// replaced by the subscriber's address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnsubscribePrompt {
    /// The page's title and heading.
    pub title: String,
    /// The sentence above the button.
    pub lead: String,
    /// The button's label.
    pub button: String,
}

/// The values the site needs at run time, as exported to `contract.ts`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Exported {
    honeypot: &'static str,
    altcha: &'static str,
    challenge_path: &'static str,
    language_param: &'static str,
    error_codes: &'static [&'static str],
    newsletter_pages_path: &'static str,
    contact: ExportedForm<ContactFields>,
    attachments: ExportedAttachments,
    enquiry: ExportedForm<EnquiryFields>,
    newsletter: ExportedForm<NewsletterFields>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedAttachments {
    #[serde(flatten)]
    limits: Attachments,
    accept: String,
}

#[derive(Debug, Serialize)]
struct ExportedForm<F> {
    path: &'static str,
    fields: F,
}

/// The text of `site/schema/contract.ts`: the contract's values as `as const` objects, so the
/// site's code is type-checked against the names, limits and options of this crate.
pub fn typescript() -> String {
    let exported = Exported {
        honeypot: HONEYPOT,
        altcha: ALTCHA,
        challenge_path: CHALLENGE_PATH,
        language_param: LANGUAGE_PARAM,
        error_codes: ErrorCode::VALUES,
        newsletter_pages_path: NEWSLETTER_PAGES_PATH,
        contact: ExportedForm {
            path: FormKind::Contact.path(),
            fields: CONTACT,
        },
        attachments: ExportedAttachments {
            limits: ATTACHMENTS,
            accept: ATTACHMENTS.accept(),
        },
        enquiry: ExportedForm {
            path: FormKind::Enquiry.path(),
            fields: ENQUIRY,
        },
        newsletter: ExportedForm {
            path: FormKind::Newsletter.path(),
            fields: NEWSLETTER,
        },
    };
    // Plain data of strings, numbers and booleans: serialising cannot fail.
    let json = serde_json::to_string_pretty(&exported).unwrap_or_default();
    format!(
        "// Generated by `sitegen schema` from contact-fn/contract (the form contract). Do not edit.\n\
         \n\
         /** What the site and the contact service agree on: paths, field names, limits, options. */\n\
         export const contract = {json} as const\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_values_round_trip() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::parse(code.as_str()), Some(*code));
            assert_eq!(
                serde_json::to_value(code).ok(),
                Some(serde_json::Value::from(code.as_str()))
            );
        }
        assert_eq!(Source::Event.inbox_label(), "Event/Conference");
        assert_eq!(ErrorCode::TooLong.inbox_label(), "too_long");
    }

    #[test]
    fn the_typescript_carries_every_field_name() {
        let ts = typescript();
        for field in [CONTACT.country_code, ENQUIRY.first_name] {
            assert!(
                ts.contains(&format!("\"name\": \"{}\"", field.name)),
                "{ts}"
            );
        }
        assert!(ts.contains(HONEYPOT));
        assert!(ts.contains("\"maxFileBytes\": 10485760"), "{ts}");
        assert!(ts.contains(".docx"), "{ts}");
        assert!(ts.contains(&format!("\"challengePath\": \"{CHALLENGE_PATH}\"")));
    }
}
