//! The two forms that post to the contact service, from `content/forms.yaml`: the contact page's
//! form and the home page's Get in Touch enquiry, with their labels, states and messages, and the
//! two pages a plain (script-less) form post ends on.

use std::collections::BTreeMap;

use form_contract::{
    AutoReply, ConfirmationEmail, Consent, ErrorCode, NewsletterPage, Role, Source,
    UnsubscribePrompt,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Hero, Link, Meta};
use crate::content::loader::Loader;

/// Both forms and the pages a plain form post is redirected to.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Forms {
    /// The contact page's form.
    pub contact: ContactForm,
    /// The home page's Get in Touch form.
    pub enquiry: EnquiryForm,
    /// `/contact/sent`: shown after a form was sent without JavaScript.
    pub sent: ResultPage,
    /// `/contact/error`: shown when a form sent without JavaScript could not be delivered.
    pub error: ResultPage,
    /// The newsletter's double opt-in: consent, form messages, email and pages.
    pub newsletter: NewsletterForm,
    /// The acknowledgement emailed to a verified sender (read by contact-fn when it is built).
    pub auto_reply: AutoReply,
}

/// The newsletter: the Insights page's block and the home form's checkbox start a
/// subscription, which the address owner confirms through a link in an email.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsletterForm {
    /// What a subscriber agrees to; recorded with each confirmed subscription.
    pub consent: Consent,
    /// The Insights block's button label, notices and toasts.
    pub messages: FormMessages,
    /// The email asking to confirm (read by contact-fn when it is built).
    pub email: ConfirmationEmail,
    /// The one-button page of the unsubscribe link (read by contact-fn when it is built).
    pub unsubscribe: UnsubscribePrompt,
    /// The pages contact-fn sends visitors to, one for each of the contract's newsletter pages
    /// (`pending`, `confirmed`, ...), published at `/newsletter/<name>/`.
    #[schemars(schema_with = "keyed_by::<NewsletterPage, ResultPage>")]
    pub pages: BTreeMap<NewsletterPage, ResultPage>,
}

/// The contact page's "Send us a Message" form.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactForm {
    /// The form's heading.
    pub title: String,
    /// A sentence under the heading.
    #[serde(default)]
    pub lead: Option<String>,
    /// Labels and hints of the fields.
    pub fields: ContactFields,
    /// Button labels, notices and toasts.
    pub messages: FormMessages,
}

/// The words of the contact page form's fields, in display order; the field names, limits and
/// rules are those of the same members of [`form_contract::CONTACT`].
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactFields {
    /// Full name (required).
    pub name: TextField,
    /// Email address (required).
    pub email: TextField,
    /// Company name (optional).
    pub company: TextField,
    /// The dialling-code dropdown; its options are the countries of `countries.yaml`.
    pub country_code: TextField,
    /// Phone number without the dialling code (required).
    pub phone: TextField,
    /// Subject (required).
    pub subject: TextField,
    /// The message (required).
    pub message: TextField,
    /// The optional files.
    pub attachments: AttachmentsField,
}

/// The words of the contact form's optional file field; how many files, how large and of which
/// kinds are the contract's ([`form_contract::ATTACHMENTS`]).
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttachmentsField {
    /// The visible label, which is also the accessible name.
    pub label: String,
    /// What may be attached, under the label: `{files}`, `{file_size}` and `{total_size}` are
    /// replaced by the contract's limits (`3`, `10 MB`, `20 MB`).
    pub hint: String,
    /// The heading of the list of chosen files.
    pub chosen: String,
    /// The label of the button that takes a chosen file off the list; `{name}` is replaced by
    /// the file's name.
    pub remove: String,
    /// The name of the progress bar shown while the files are sent.
    pub progress: String,
    /// The words of the button that opens the file chooser (`Choose files`): the page's
    /// language, where the browser's own button would speak the browser's.
    pub choose: String,
    /// What the field says while no file is chosen (`No files chosen`).
    pub none_chosen: String,
}

/// The home page's "Get in Touch" form.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnquiryForm {
    /// The form's heading.
    pub title: String,
    /// A sentence under the heading.
    #[serde(default)]
    pub lead: Option<String>,
    /// Labels and hints of the fields.
    pub fields: EnquiryFields,
    /// Button labels, notices and toasts.
    pub messages: FormMessages,
}

/// The words of the home page form's fields, in display order; the field names, limits and
/// rules are those of the same members of [`form_contract::ENQUIRY`].
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnquiryFields {
    /// First name (required).
    pub first_name: TextField,
    /// Last name (required).
    pub last_name: TextField,
    /// Email address (required).
    pub email: TextField,
    /// Job title (optional).
    pub job_title: TextField,
    /// Company (required).
    pub company: TextField,
    /// Phone number (optional), shown after a fixed dialling code.
    pub phone: PhoneField,
    /// What the visitor wants to discuss (required, three rows).
    pub topic: TextField,
    /// How the visitor heard of the company.
    pub source: ChoiceField<Source>,
    /// The visitor's role.
    pub role: ChoiceField<Role>,
    /// Newsletter consent (optional).
    pub newsletter: CheckboxField,
    /// Privacy agreement (optional).
    pub privacy: CheckboxField,
}

/// A labelled text input or text area.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextField {
    /// The visible label, which is also the accessible name.
    pub label: String,
    /// Example input shown while the field is empty (a hint only, never the label).
    #[serde(default)]
    pub placeholder: Option<String>,
}

/// A phone input with a fixed dialling code in front of it.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhoneField {
    /// The visible label, which is also the accessible name.
    pub label: String,
    /// Example input shown while the field is empty.
    #[serde(default)]
    pub placeholder: Option<String>,
    /// The dialling code shown in front of the input (`+1`).
    pub prefix: String,
}

/// A dropdown of fixed answers, led by an empty choice. The answers and their order are the
/// contract's (`T`, such as [`Source`]); content gives each its words.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
// Inlined wherever used: its schema depends on `T`, which has no schema name of its own.
#[schemars(inline, rename = "ChoiceField", bound = "T: ContractValues")]
pub struct ChoiceField<T: Ord + TS> {
    /// The visible label, which is also the accessible name.
    pub label: String,
    /// Text of the first, empty choice (selected until the visitor picks one).
    pub placeholder: String,
    /// What the visitor reads for each answer, keyed by the value sent (`search: Search Engine`).
    #[ts(type = "Record<T & string, string>")]
    #[schemars(schema_with = "words_for::<T>")]
    pub options: BTreeMap<T, String>,
}

/// A labelled checkbox.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckboxField {
    /// The visible label, which is also the accessible name.
    pub label: String,
    /// A link after the label, such as the privacy policy.
    #[serde(default)]
    pub link: Option<Link>,
}

/// The words a form shows around sending.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormMessages {
    /// The submit button's label.
    pub submit: String,
    /// The submit button's label while sending.
    pub sending: String,
    /// Marker after the label of an optional field.
    pub optional: String,
    /// Label of the hidden field people leave empty and bots fill in.
    pub honeypot: String,
    /// Announced when the service rejects some fields; each field shows its own message.
    pub invalid: String,
    /// What a rejected field says under it, for each error code of the contact service.
    #[schemars(schema_with = "words_for::<ErrorCode>")]
    pub errors: BTreeMap<ErrorCode, String>,
    /// The toast after the message was sent.
    pub success: Toast,
    /// The destructive toast when the message could not be sent.
    pub failure: Toast,
}

/// A short notice shown over the page.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Toast {
    /// The toast's first line.
    pub title: String,
    /// The sentence under it.
    pub description: String,
}

/// A page a plain form post ends on.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultPage {
    /// Title and description for the browser tab.
    pub meta: Meta,
    /// The page's content: the outcome and where to go next.
    pub hero: Hero,
}

impl Forms {
    /// Reports every answer and error code of the contract that has no words here.
    pub(crate) fn check(&self, loader: &mut Loader) {
        let mut missing = |path: &str, what: &str, keys: Vec<String>| {
            if !keys.is_empty() {
                let message = format!(
                    "{path}: no words for {what} {}; each needs a line here",
                    keys.join(", ")
                );
                loader.error(FILE, Some(path), message);
            }
        };
        for (form, messages) in [
            ("contact", &self.contact.messages),
            ("enquiry", &self.enquiry.messages),
            ("newsletter", &self.newsletter.messages),
        ] {
            let path = format!("{form}.messages.errors");
            missing(
                &path,
                "the error codes",
                lacking(ErrorCode::ALL, &messages.errors),
            );
        }
        let fields = &self.enquiry.fields;
        let sources = lacking(Source::ALL, &fields.source.options);
        missing("enquiry.fields.source.options", "the options", sources);
        let roles = lacking(Role::ALL, &fields.role.options);
        missing("enquiry.fields.role.options", "the options", roles);
        let pages = lacking(NewsletterPage::ALL, &self.newsletter.pages);
        missing("newsletter.pages", "the pages", pages);
    }
}

/// The members of `all` that `words` has nothing for, quoted for a message.
fn lacking<T: Ord + std::fmt::Display, W>(all: &[T], words: &BTreeMap<T, W>) -> Vec<String> {
    all.iter()
        .filter(|key| !words.contains_key(key))
        .map(|key| format!("`{key}`"))
        .collect()
}

/// The file this model is read from.
const FILE: &str = super::FORMS_FILE;

/// The wire values of one of the contract's lists of answers or codes.
pub trait ContractValues {
    /// Every value, in the contract's order.
    const VALUES: &'static [&'static str];
}

impl ContractValues for Source {
    const VALUES: &'static [&'static str] = Source::VALUES;
}

impl ContractValues for Role {
    const VALUES: &'static [&'static str] = Role::VALUES;
}

impl ContractValues for ErrorCode {
    const VALUES: &'static [&'static str] = ErrorCode::VALUES;
}

impl ContractValues for NewsletterPage {
    const VALUES: &'static [&'static str] = NewsletterPage::VALUES;
}

/// The schema of words keyed by the contract's values: one string for each value, no other key
/// (what [`Forms::check`] requires of the content).
fn words_for<T: ContractValues>(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    keyed_by::<T, String>(generator)
}

/// The schema of a `V` for each of the contract's values `T`, and no other key.
fn keyed_by<T: ContractValues, V: JsonSchema>(
    generator: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    let value = generator.subschema_for::<V>().to_value();
    let properties: serde_json::Map<String, serde_json::Value> = T::VALUES
        .iter()
        .map(|key| ((*key).to_owned(), value.clone()))
        .collect();
    schemars::json_schema!({
        "type": "object",
        "properties": properties,
        "required": T::VALUES,
        "additionalProperties": false,
    })
}
