//! The acknowledgement a sender may get (`--auto-reply`): one short plain-text email whose
//! words are `auto_reply` in `content/forms.yaml`, through the outbox like every email, and only
//! for a message that passed the spam checks with the proof of work on. Anyone can type someone
//! else's address, so it repeats nothing the visitor typed, and an address gets at most one a
//! day, recorded in the store so that every replica agrees.

use anyhow::Context as _;
use form_contract::{AutoReply, FormKind};
use lettre::Message;
use lettre::message::Mailbox;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use serde::Deserialize;
use uuid::Uuid;

use crate::config::{Config, FORMS_YAML};
use crate::outbox::Outbox;
use crate::store::subscribers::DAY_MS;
use crate::store::{AutoReplyStore, Record, auto_reply_key};

#[derive(Deserialize)]
struct FormsFile {
    auto_reply: AutoReply,
}

/// Writes the auto-reply.
#[derive(Debug)]
pub struct AutoReplier {
    words: AutoReply,
    from: Mailbox,
}

/// The auto-reply's words contact-fn was built with.
pub fn words() -> anyhow::Result<AutoReply> {
    let file: FormsFile =
        serde_yaml::from_str(FORMS_YAML).context("reading content/forms.yaml's auto_reply")?;
    Ok(file.auto_reply)
}

impl AutoReplier {
    /// The auto-reply with the words contact-fn was built with, from the configured sender.
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        Ok(Self {
            words: words()?,
            from: config.mail_from.clone(),
        })
    }

    /// The outbox record of the auto-reply to `address`, due at `now_ms`.
    fn record(&self, address: &str, kind: FormKind, now_ms: u64) -> anyhow::Result<Record> {
        let id = Uuid::now_v7().to_string();
        let to: lettre::Address = address.parse().context("the address does not parse")?;
        let mut text = self.words.body.join("\n\n");
        text.push_str("\n\n");
        text.push_str(&self.words.signature);
        text.push('\n');
        let message = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, to.clone()))
            .subject(self.words.subject.clone())
            .message_id(Some(format!("<{id}@{}>", self.from.email.domain())))
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
    /// Stores the auto-reply to `address` unless it had one today; whether it was stored.
    pub(crate) async fn send(
        &self,
        address: &str,
        kind: FormKind,
        now_ms: u64,
    ) -> anyhow::Result<bool> {
        let record = self.replier.record(address, kind, now_ms)?;
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
