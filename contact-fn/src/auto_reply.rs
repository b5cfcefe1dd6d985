//! The acknowledgement a sender may get (`--auto-reply`): one short plain-text email whose
//! words are `auto_reply` in `content/forms.yaml` (or its translation into the language of the
//! form the visitor used), through the outbox like every email, and only
//! for a message that passed the spam checks with the proof of work on. Anyone can type someone
//! else's address, so it repeats nothing the visitor typed, and an address gets at most one a
//! day, recorded in the store so that every replica agrees.

use anyhow::Context as _;
use form_contract::{AutoReply, FormKind};
use lettre::Message;
use lettre::message::Mailbox;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use uuid::Uuid;

use crate::config::Config;
use crate::language::{Language, Languages};
use crate::outbox::Outbox;
use crate::store::subscribers::DAY_MS;
use crate::store::{AutoReplyStore, Record, auto_reply_key};

/// Writes the auto-reply.
#[derive(Debug)]
pub struct AutoReplier {
    from: Mailbox,
}

/// The auto-reply's words contact-fn was built with, in the site's default language.
pub fn words() -> anyhow::Result<AutoReply> {
    Ok(Languages::built_in()?.default().auto_reply.clone())
}

impl AutoReplier {
    /// The auto-reply from the configured sender.
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        Ok(Self {
            from: config.mail_from.clone(),
        })
    }

    /// The outbox record of the auto-reply to `address` in `language`, due at `now_ms`.
    fn record(
        &self,
        address: &str,
        kind: FormKind,
        now_ms: u64,
        language: &Language,
    ) -> anyhow::Result<Record> {
        let words = &language.auto_reply;
        let id = Uuid::now_v7().to_string();
        let to: lettre::Address = address.parse().context("the address does not parse")?;
        let mut text = words.body.join("\n\n");
        text.push_str("\n\n");
        text.push_str(&words.signature);
        text.push('\n');
        let message = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, to.clone()))
            .subject(words.subject.clone())
            .message_id(Some(format!("<{id}@{}>", self.from.email.domain())))
            // RFC 3282: mail clients may offer to translate it.
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Content-Language"),
                language.tag.clone(),
            ))
            // RFC 3834: other automatic responders do not answer it.
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Auto-Submitted"),
                "auto-replied".to_owned(),
            ))
            .header(ContentType::TEXT_PLAIN)
            .body(text)
            .context("assembling the auto-reply")?;
        Record::email(
            id,
            kind,
            now_ms,
            (self.from.email.to_string(), vec![to.to_string()]),
            message.formatted(),
        )
    }
}

/// What sending auto-replies works with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AutoReplies<'a> {
    pub replier: &'a AutoReplier,
    pub store: &'a dyn AutoReplyStore,
    pub outbox: &'a Outbox,
}

impl AutoReplies<'_> {
    /// Stores the auto-reply to `address`, in `language`, unless it had one today; whether it
    /// was stored.
    pub(crate) async fn send(
        &self,
        address: &str,
        kind: FormKind,
        now_ms: u64,
        language: &Language,
    ) -> anyhow::Result<bool> {
        let record = self.replier.record(address, kind, now_ms, language)?;
        if !self
            .store
            .claim(&auto_reply_key(address), now_ms / DAY_MS)
            .await?
        {
            return Ok(false);
        }
        self.outbox
            .enqueue(record)
            .await
            .map_err(|e| anyhow::anyhow!(e))
            .context("storing the auto-reply")?;
        Ok(true)
    }
}
