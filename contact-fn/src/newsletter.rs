//! The newsletter's double opt-in: the confirmation email with its signed links, checking
//! those links, and the words and pages around them.
//!
//! A confirmation link carries the address, the form it came from and its expiry, signed with
//! HMAC-SHA-256; an unsubscribe link carries the address, signed. The key comes from
//! `CONTACT_NEWSLETTER_SECRET`, else it is generated once into `<data dir>/newsletter-secret`.
//! The words are `newsletter` in `content/forms.yaml` and its translations, read when
//! contact-fn is built: each email and page is in the language of the form it came from, which
//! a confirmation link carries on (unsigned: it chooses words, nothing else).

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, anyhow};
use axum::http::HeaderValue;
use form_contract::{
    CONFIRM_PATH, FormKind, NEWSLETTER_PAGES_PATH, NewsletterPage, UNSUBSCRIBE_PATH, link_params,
};
use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue as MailHeaderValue};
use lettre::message::{Mailbox, MultiPart};
use minijinja::{Environment, UndefinedBehavior, context};
use ring::hmac;
use ring::rand::{SecureRandom as _, SystemRandom};
use uuid::Uuid;

use crate::config::Config;
use crate::durable::{self, now_ms};
use crate::hex::{hex, unhex};
use crate::language::{Language, Languages};
use crate::outbox::Outbox;
use crate::outcome::IntakeError;
use crate::store::Record;
use crate::store::subscribers::{Confirmation, Requested, SendLimits, SubscriberStore, normalise};
use crate::webhook;

/// The file the generated key is kept in, under the data folder.
pub const SECRET_FILE: &str = "newsletter-secret";

/// The words contact-fn uses: a part of `newsletter` in `content/forms.yaml`.
pub use crate::language::NewsletterWords as Words;

/// Signs and checks the newsletter's links and writes its emails and pages.
#[derive(Debug)]
pub struct Newsletter {
    key: hmac::Key,
    languages: &'static Languages,
    templates: Environment<'static>,
    from: Mailbox,
    public_url: String,
    site_url: String,
    ttl: Duration,
    limits: SendLimits,
}

impl Newsletter {
    /// Reads the words and the key (generating the key when there is none); links point at
    /// `public_url`, this service's address.
    pub fn new(config: &Config, public_url: &str) -> anyhow::Result<Self> {
        let secret = match &config.newsletter_secret {
            Some(secret) => secret.clone().into_bytes(),
            None => {
                if config.database_url.is_some() {
                    // Replicas on one database each keep a data folder of their own.
                    tracing::warn!(
                        "CONTACT_NEWSLETTER_SECRET is not set: this replica signs the newsletter's \
                         links with its own key, which other replicas will not accept"
                    );
                }
                stored_secret(&config.data_dir)?
            }
        };
        let mut templates = Environment::new();
        templates.set_undefined_behavior(UndefinedBehavior::Strict);
        for (name, source) in [
            (
                "newsletter.txt",
                include_str!("../templates/newsletter.txt"),
            ),
            (
                "newsletter.html",
                include_str!("../templates/newsletter.html"),
            ),
            (
                "unsubscribe.html",
                include_str!("../templates/unsubscribe.html"),
            ),
        ] {
            templates
                .add_template(name, source)
                .with_context(|| format!("parsing the template {name}"))?;
        }
        Ok(Self {
            key: hmac::Key::new(hmac::HMAC_SHA256, &secret),
            languages: Languages::built_in()?,
            templates,
            from: config.mail_from.clone(),
            public_url: public_url.trim_end_matches('/').to_owned(),
            site_url: String::from_utf8_lossy(config.site_url.as_bytes())
                .trim_end_matches('/')
                .to_owned(),
            ttl: config.newsletter_confirm_ttl,
            limits: SendLimits {
                resend_after: config.newsletter_resend_after,
                per_day: config.newsletter_daily_max,
            },
        })
    }

    /// The per-address limit of confirmation emails.
    pub fn limits(&self) -> SendLimits {
        self.limits
    }

    /// The site's languages, with the words of each.
    pub fn languages(&self) -> &'static Languages {
        self.languages
    }

    /// The URL of one of the site's newsletter pages, in `language`.
    pub fn page(&self, page: NewsletterPage, language: &Language) -> HeaderValue {
        let url = language.page(&self.site_url, &format!("{NEWSLETTER_PAGES_PATH}/{page}"));
        HeaderValue::from_str(&url).unwrap_or_else(|_| HeaderValue::from_static("/"))
    }

    fn sign(&self, message: &str) -> String {
        hex(hmac::sign(&self.key, message.as_bytes()).as_ref())
    }

    /// A key for `purpose` derived from the newsletter's, so that one secret shared by the
    /// replicas serves every signature of the service.
    pub fn derived_key(&self, purpose: &str) -> hmac::Key {
        hmac::Key::new(
            hmac::HMAC_SHA256,
            hmac::sign(&self.key, purpose.as_bytes()).as_ref(),
        )
    }

    /// Whether `signature` (hex) is the signature of `message`, compared in constant time.
    fn verify(&self, message: &str, signature: &str) -> bool {
        unhex(signature)
            .is_some_and(|tag| hmac::verify(&self.key, message.as_bytes(), &tag).is_ok())
    }

    /// The confirmation link for `address`, from the form `source` in `language`, expiring at
    /// `expires_ms`.
    pub fn confirm_link(
        &self,
        address: &str,
        source: FormKind,
        expires_ms: u64,
        language: &Language,
    ) -> String {
        let expires = expires_ms.to_string();
        let signature = self.sign(&confirm_message(address, source, &expires));
        let mut query = form_urlencoded::Serializer::new(String::new());
        query
            .append_pair(link_params::EMAIL, address)
            .append_pair(link_params::SOURCE, source.as_str())
            .append_pair(link_params::EXPIRES, &expires)
            .append_pair(link_params::SIGNATURE, &signature);
        with_language(&mut query, language);
        format!("{}{CONFIRM_PATH}?{}", self.public_url, query.finish())
    }

    /// The unsubscribe link for `address` (it does not expire), to a page in `language`.
    pub fn unsubscribe_link(&self, address: &str, language: &Language) -> String {
        format!(
            "{}{UNSUBSCRIBE_PATH}?{}",
            self.public_url,
            self.unsubscribe_query(address, language)
        )
    }

    fn unsubscribe_query(&self, address: &str, language: &Language) -> String {
        let signature = self.sign(&unsubscribe_message(address));
        let mut query = form_urlencoded::Serializer::new(String::new());
        query
            .append_pair(link_params::EMAIL, address)
            .append_pair(link_params::SIGNATURE, &signature);
        with_language(&mut query, language);
        query.finish()
    }

    /// The language a link's query names, the default for none (or one the site no longer
    /// has).
    pub fn link_language(&self, query: &str) -> &'static Language {
        self.languages.of_link(query)
    }

    /// Checks a confirmation link's query at `now_ms`: the address and what to record, when
    /// the link is genuine and has not expired.
    pub fn check_confirm(&self, query: &str, now_ms: u64) -> Option<(String, Confirmation)> {
        let params = params(query);
        let address = params.get(link_params::EMAIL)?;
        let source = FormKind::parse(params.get(link_params::SOURCE)?)?;
        let expires = params.get(link_params::EXPIRES)?;
        let signature = params.get(link_params::SIGNATURE)?;
        if !self.verify(&confirm_message(address, source, expires), signature) {
            return None;
        }
        let expires_ms: u64 = expires.parse().ok()?;
        if expires_ms <= now_ms {
            return None;
        }
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        // What the visitor agreed to is what the form showed, in its language.
        let consent = &self.link_language(query).newsletter.consent;
        Some((
            address.clone(),
            Confirmation {
                source,
                consent_version: consent.version.clone(),
                consent_text: consent.text.clone(),
                issued_ms: expires_ms.saturating_sub(ttl),
                now_ms,
            },
        ))
    }

    /// Checks an unsubscribe link's query: the address, when the link is genuine.
    pub fn check_unsubscribe(&self, query: &str) -> Option<String> {
        let params = params(query);
        let address = params.get(link_params::EMAIL)?;
        let signature = params.get(link_params::SIGNATURE)?;
        self.verify(&unsubscribe_message(address), signature)
            .then(|| address.clone())
    }

    /// The page of a genuine unsubscribe link, in `language`: one button posting the one-click
    /// unsubscribe.
    pub fn unsubscribe_page(&self, address: &str, language: &Language) -> anyhow::Result<String> {
        let words = &language.newsletter.unsubscribe;
        let lead = self
            .templates
            .render_str(&words.lead, context! { address })
            .context("rendering the unsubscribe words")?;
        let action = format!(
            "{UNSUBSCRIBE_PATH}?{}",
            self.unsubscribe_query(address, language)
        );
        let lang = &language.tag;
        self.templates
            .get_template("unsubscribe.html")
            .and_then(|t| t.render(context! { words => minijinja::Value::from(minijinja::value::Serde(words)), lead, action, lang }))
            .context("rendering the unsubscribe page")
    }

    /// The outbox record of a confirmation email to `address`, from the form `source` in
    /// `language`.
    pub fn confirmation_email(
        &self,
        address: &str,
        source: FormKind,
        now_ms: u64,
        language: &Language,
    ) -> anyhow::Result<Record> {
        let id = Uuid::now_v7().to_string();
        let ttl = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let confirm_url = self.confirm_link(address, source, now_ms.saturating_add(ttl), language);
        let unsubscribe_url = self.unsubscribe_link(address, language);
        let words = &language.newsletter.email;
        let hours = self.ttl.as_secs().div_ceil(3600);
        let fill = |text: &str| {
            self.templates
                .render_str(text, context! { address, hours })
                .context("filling in the email's words")
        };
        let values = context! {
            words => minijinja::Value::from(minijinja::value::Serde(words)),
            intro => fill(&words.intro)?,
            expiry => fill(&words.expiry)?,
            confirm_url,
            unsubscribe_url => &unsubscribe_url,
            lang => &language.tag,
        };
        let render = |name: &str| {
            self.templates
                .get_template(name)
                .and_then(|t| t.render(&values))
                .with_context(|| format!("rendering {name}"))
        };
        let (text, html) = (render("newsletter.txt")?, render("newsletter.html")?);
        let to: lettre::Address = address.parse().context("the address no longer parses")?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, to.clone()))
            .subject(words.subject.clone())
            .message_id(Some(format!("<{id}@{}>", self.from.email.domain())))
            .raw_header(MailHeaderValue::new(
                HeaderName::new_from_ascii_str("Content-Language"),
                language.tag.clone(),
            ))
            // RFC 2369 and RFC 8058: mail clients offer a one-click unsubscribe.
            .raw_header(MailHeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{unsubscribe_url}>"),
            ))
            .raw_header(MailHeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".to_owned(),
            ))
            .multipart(MultiPart::alternative_plain_html(text, html))
            .context("assembling the confirmation email")?;
        Record::email(
            id,
            FormKind::Newsletter,
            now_ms,
            (self.from.email.to_string(), vec![to.to_string()]),
            message.formatted(),
        )
    }
}

/// Stores a notification of the confirmed subscription of `address` for each webhook, when
/// they are to hear of subscriptions; a failure is logged, the subscription stands.
pub(crate) async fn notify_confirmed(
    outbox: &Outbox,
    (urls, format): (&[String], webhook::Format),
    address: &str,
    source: FormKind,
) {
    let id = Uuid::now_v7().to_string();
    for record in webhook::subscription_records(urls, format, &id, address, source, now_ms()) {
        if let Err(error) = outbox.enqueue(record).await {
            tracing::error!(
                id,
                "a webhook notification was not stored: {:#}",
                anyhow!(error)
            );
        }
    }
}

/// What starting the double opt-in works with.
#[derive(Clone, Copy)]
pub(crate) struct Optin<'a> {
    /// The links and the email.
    pub newsletter: &'a Newsletter,
    /// Who asked and when.
    pub subscribers: &'a dyn SubscriberStore,
    /// Where the confirmation email waits.
    pub outbox: &'a Outbox,
}

/// Starts the double opt-in for `address` from the form `source`: records the request and,
/// within the per-address limit, stores the confirmation email in the outbox. Whether the
/// address was new, pending or subscribed is not told: the caller answers the same.
pub(crate) async fn subscribe(
    optin: Optin<'_>,
    address: &str,
    source: FormKind,
    language: &Language,
) -> Result<(), IntakeError> {
    let newsletter = optin.newsletter;
    let address = normalise(address);
    let now = now_ms();
    // Built before the send is recorded: an address the email cannot be written for must not
    // count as sent (a retry would then send nothing).
    let record = newsletter
        .confirmation_email(&address, source, now, language)
        .map_err(IntakeError::Internal)?;
    let requested = optin
        .subscribers
        .request(address.clone(), newsletter.limits(), now)
        .await?;
    if requested != Requested::Send {
        tracing::info!(
            source = source.as_str(),
            ?requested,
            "subscription asked; no email"
        );
        return Ok(());
    }
    let id = record.id.clone();
    optin.outbox.enqueue(record).await?;
    tracing::info!(id, source = source.as_str(), "confirmation email accepted");
    Ok(())
}

fn confirm_message(address: &str, source: FormKind, expires: &str) -> String {
    format!("confirm\n{address}\n{source}\n{expires}")
}

/// Names `language` in a link, unless it is the site's default.
fn with_language(query: &mut form_urlencoded::Serializer<'_, String>, language: &Language) {
    if !language.is_default() {
        query.append_pair(link_params::LANGUAGE, &language.tag);
    }
}

fn unsubscribe_message(address: &str) -> String {
    format!("unsubscribe\n{address}")
}

fn params(query: &str) -> HashMap<String, String> {
    let mut params = HashMap::new();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        params
            .entry(key.into_owned())
            .or_insert_with(|| value.into_owned());
    }
    params
}

/// The key kept in the data folder, generated (32 random bytes, hex) on first use.
fn stored_secret(data_dir: &Path) -> anyhow::Result<Vec<u8>> {
    let path = data_dir.join(SECRET_FILE);
    match fs::read_to_string(&path) {
        Ok(text) if text.trim().len() >= 32 => return Ok(text.trim().as_bytes().to_vec()),
        Ok(_) => anyhow::bail!("{} is shorter than 32 characters", path.display()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => {
            return Err(anyhow::Error::new(error).context(format!("reading {}", path.display())));
        }
    }
    let mut bytes = [0_u8; 32];
    SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| anyhow!("the system has no random numbers"))?;
    let secret = hex(&bytes);
    fs::create_dir_all(data_dir).with_context(|| format!("creating {}", data_dir.display()))?;
    let created = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path);
    match created {
        Ok(mut file) => {
            file.write_all(secret.as_bytes())
                .and_then(|()| file.sync_all())
                .and_then(|()| durable::sync_dir(data_dir))
                .with_context(|| format!("writing {}", path.display()))?;
            tracing::info!("generated the newsletter's key into {}", path.display());
            Ok(secret.into_bytes())
        }
        // Another process wrote it first: use theirs.
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => stored_secret(data_dir),
        Err(error) => {
            Err(anyhow::Error::new(error).context(format!("creating {}", path.display())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn newsletter(dir: &Path) -> Newsletter {
        let config =
            Config::from_args(["contact-fn", "--data-dir", dir.to_str().unwrap_or("")]).ok();
        let config = config.expect("flags parse");
        Newsletter::new(&config, "http://127.0.0.1:8787").expect("opens")
    }

    #[test]
    fn the_words_are_read_from_content() {
        let words = Words::built_in().expect("content/forms.yaml has the newsletter's words");
        assert!(!words.consent.version.is_empty());
        assert!(words.email.intro.contains("{{ address }}"));
    }

    #[test]
    fn links_check_out_until_touched_or_expired() {
        let dir = tempfile::tempdir().expect("temp dir");
        let n = newsletter(dir.path());
        let english = n.languages().default();
        let link = n.confirm_link("ada@example.org", FormKind::Enquiry, 5_000, english);
        let query = link.split_once('?').map(|(_, q)| q).unwrap_or("");
        let (address, confirmation) = n.check_confirm(query, 4_999).expect("genuine");
        assert_eq!(address, "ada@example.org");
        assert_eq!(confirmation.source, FormKind::Enquiry);
        assert!(n.check_confirm(query, 5_000).is_none(), "expired");
        for (from, to) in [
            ("ada%40", "eve%40"),
            ("source=enquiry", "source=newsletter"),
            ("expires=5000", "expires=9000"),
        ] {
            assert!(
                n.check_confirm(&query.replace(from, to), 0).is_none(),
                "{to}"
            );
        }
        let unsubscribe = n.unsubscribe_link("ada@example.org", english);
        let query = unsubscribe.split_once('?').map(|(_, q)| q).unwrap_or("");
        assert_eq!(
            n.check_unsubscribe(query).as_deref(),
            Some("ada@example.org")
        );
        assert!(n.check_unsubscribe(&query.replace("ada", "eve")).is_none());
        assert!(
            n.check_unsubscribe("email=ada%40example.org&sig=zz")
                .is_none()
        );
    }

    #[test]
    fn a_link_keeps_the_language_of_its_form_outside_the_signature() {
        let dir = tempfile::tempdir().expect("temp dir");
        let n = newsletter(dir.path());
        let Some(other) = n.languages().get("et") else {
            return; // a site in one language has nothing to carry
        };
        let link = n.confirm_link("ada@example.org", FormKind::Newsletter, 5_000, other);
        let query = link.split_once('?').map(|(_, q)| q).unwrap_or("");
        assert!(query.ends_with("&lang=et"), "{query}");
        assert_eq!(n.link_language(query).tag, "et");
        let (_, confirmation) = n.check_confirm(query, 0).expect("genuine");
        assert_eq!(confirmation.consent_text, other.newsletter.consent.text);
        // The language chooses words only: a link without it is as genuine, in the default.
        let english = query.trim_end_matches("&lang=et");
        let (_, confirmation) = n.check_confirm(english, 0).expect("genuine");
        assert_eq!(
            confirmation.consent_text,
            n.languages().default().newsletter.consent.text
        );
        let unsubscribe = n.unsubscribe_link("ada@example.org", other);
        let query = unsubscribe.split_once('?').map(|(_, q)| q).unwrap_or("");
        assert_eq!(
            n.check_unsubscribe(query).as_deref(),
            Some("ada@example.org")
        );
        let page = n
            .unsubscribe_page("ada@example.org", other)
            .expect("renders");
        assert!(page.contains("<html lang=\"et\">"), "{page}");
        assert!(
            page.contains(&other.newsletter.unsubscribe.button),
            "{page}"
        );
    }

    #[test]
    fn the_generated_key_is_kept_private_and_reused() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("temp dir");
        let english = Languages::built_in().expect("the languages").default();
        let link = newsletter(dir.path()).unsubscribe_link("a@example.org", english);
        let mode = fs::metadata(dir.path().join(SECRET_FILE))
            .expect("the key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(
            newsletter(dir.path()).unsubscribe_link("a@example.org", english),
            link
        );
        let other = tempfile::tempdir().expect("temp dir");
        assert_ne!(
            newsletter(other.path()).unsubscribe_link("a@example.org", english),
            link
        );
    }
}
