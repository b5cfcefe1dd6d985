//! The entry points of the fuzz targets (`contact-fn/fuzz/`): the functions the form routes and
//! the delivery run, reachable from outside the crate, so that the fuzzers exercise the code
//! that faces strangers and not a copy of it. Not an interface for anything else.

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, header};
use form_contract::FormKind;

use crate::attachment::Attachment;
use crate::config::Config;
use crate::email::Composer;
use crate::mixed::Mixed;
use crate::routes::{self, Posted};
use crate::submission::{self, Submission, Verdict};

/// Reads `body`, sent to the form `kind` with the `Content-Type` `content_type`, as the form
/// routes do ([`routes::read_submission`], then [`submission::validate`]), within `config`'s
/// limits: the verdict and what the files read were taken as (their spool files are removed
/// before this returns). The error is the answer's, in words.
pub async fn read_form(
    config: &Config,
    kind: FormKind,
    content_type: &str,
    body: Vec<u8>,
) -> Result<(Verdict, Vec<Attachment>), String> {
    let mut headers = HeaderMap::new();
    let value = HeaderValue::from_str(content_type).map_err(|e| e.to_string())?;
    headers.insert(header::CONTENT_TYPE, value);
    let posted = Posted::of(&headers).ok_or("unsupported media type")?;
    let (mut raw, files) =
        routes::read_submission(config, kind, posted, content_type, Body::from(body))
            .await
            .map_err(|e| format!("{e:?}"))?;
    raw.remove(form_contract::ALTCHA);
    let verdict = submission::validate(kind, raw).map_err(|e| format!("{e:?}"))?;
    Ok((verdict, files.into_iter().map(|f| f.attachment).collect()))
}

/// The email of `submission` as delivery sends it: composed as the intake stores it (its
/// subject encoded by RFC 2047 where needed), then put together with its attachments (named
/// by RFC 2231), each holding `file` as its bytes.
pub fn email(submission: &Submission, file: &[u8]) -> anyhow::Result<String> {
    static COMPOSER: OnceLock<Composer> = OnceLock::new();
    let composer = match COMPOSER.get() {
        Some(composer) => composer,
        None => {
            let composer = Composer::new(&Config::from_args(["contact-fn"])?)?;
            COMPOSER.get_or_init(|| composer)
        }
    };
    let message = composer
        .compose("fuzz", submission, "fuzz", &[])?
        .formatted();
    let message = String::from_utf8(message)?;
    let attachments = match submission {
        Submission::Contact(contact) => contact.attachments.as_slice(),
        _ => &[],
    };
    let bytes = file.len() as u64 * attachments.len() as u64;
    let mut mixed = Mixed::start(&message, attachments.len(), bytes, "=_fuzz")?;
    for attachment in attachments {
        mixed.begin_file(attachment)?;
        mixed.push(file);
        mixed.end_file();
    }
    Ok(mixed.finish())
}
