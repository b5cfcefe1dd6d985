//! The languages the site is published in, as contact-fn was built with them: where each
//! one's pages are on the site, and the words of the emails and pages the service writes in
//! it.
//!
//! The list is `languages` in `content/site.yaml` (the default first). A language's words are
//! `content/forms.yaml` with its translation (`content/forms.et.yaml`) laid over it, the way
//! sitegen lays it ([`form_contract::translation`]); a language without a translation file
//! keeps the source's words (sitegen reports the missing file). A form names its page's
//! language in its address ([`form_contract::LANGUAGE_PARAM`]).

use std::sync::OnceLock;

use anyhow::{Context as _, anyhow, bail};
use form_contract::{
    AutoReply, ConfirmationEmail, Consent, ErrorCode, FieldError, LANGUAGE_PARAM,
    UnsubscribePrompt, translation,
};
use serde::Deserialize;

use crate::submission::FieldErrors;

// `SITE_YAML` and `FORMS_TRANSLATIONS`, written by build.rs from `content/`.
include!(concat!(env!("OUT_DIR"), "/languages.rs"));

/// `content/forms.yaml`, as contact-fn was built with it: the words of its emails and pages.
pub const FORMS_YAML: &str = include_str!("../../content/forms.yaml");

/// One language of the site, with the service's words in it.
#[derive(Debug)]
pub struct Language {
    /// Its BCP 47 tag (`et`), as the site's `<html lang>` says it.
    pub tag: String,
    /// The folder of its pages on the site: empty for the default language, else `/et`.
    pub prefix: String,
    /// The auto-reply.
    pub auto_reply: AutoReply,
    /// The newsletter's email and unsubscribe page.
    pub newsletter: NewsletterWords,
}

/// The newsletter's words contact-fn uses: a part of `newsletter` in `content/forms.yaml`
/// (the rest is the site's).
#[derive(Debug, Clone, Deserialize)]
pub struct NewsletterWords {
    /// What subscribers agree to; recorded with each subscription.
    pub consent: Consent,
    /// The confirmation email.
    pub email: ConfirmationEmail,
    /// The page of the unsubscribe link.
    pub unsubscribe: UnsubscribePrompt,
}

impl NewsletterWords {
    /// The words contact-fn was built with, in the site's default language.
    pub fn built_in() -> anyhow::Result<Self> {
        Ok(Languages::built_in()?.default().newsletter.clone())
    }
}

/// Every language of the site, the default first.
#[derive(Debug)]
pub struct Languages(Vec<Language>);

#[derive(Deserialize)]
struct SiteFile {
    languages: Vec<Tag>,
}

#[derive(Deserialize)]
struct Tag {
    tag: String,
}

/// The parts of `forms.yaml` the service writes with.
#[derive(Deserialize)]
struct FormsFile {
    auto_reply: AutoReply,
    newsletter: NewsletterWords,
}

impl Languages {
    /// The languages contact-fn was built with; read once, an error (a content mistake the
    /// build of the site would report too) every time after.
    pub fn built_in() -> anyhow::Result<&'static Languages> {
        static BUILT_IN: OnceLock<Result<Languages, String>> = OnceLock::new();
        BUILT_IN
            .get_or_init(|| {
                Languages::read(SITE_YAML, FORMS_YAML, FORMS_TRANSLATIONS)
                    .map_err(|e| format!("{e:#}"))
            })
            .as_ref()
            .map_err(|message| anyhow!("{message}"))
    }

    /// The languages of `site_yaml`, with the words of `forms_yaml` and, per tag, of its
    /// translation.
    pub fn read(
        site_yaml: &str,
        forms_yaml: &str,
        translations: &[(&str, &str)],
    ) -> anyhow::Result<Languages> {
        let site: SiteFile =
            serde_yaml::from_str(site_yaml).context("reading content/site.yaml's languages")?;
        let Some(default) = site.languages.first() else {
            bail!("content/site.yaml names no language");
        };
        let source: serde_yaml::Value =
            serde_yaml::from_str(forms_yaml).context("reading content/forms.yaml")?;
        let mut languages = Vec::with_capacity(site.languages.len());
        for Tag { tag } in &site.languages {
            let file = translation::translation_file("forms.yaml", tag);
            let words = match translations.iter().find(|(t, _)| t == tag) {
                Some((_, text)) if tag != &default.tag => {
                    let over: serde_yaml::Value = serde_yaml::from_str(text)
                        .with_context(|| format!("reading content/{file}"))?;
                    let (merged, mismatches) = translation::overlay(source.clone(), over);
                    if let Some(mismatch) = mismatches.first() {
                        bail!("content/{file}: {}: {}", mismatch.field, mismatch.message);
                    }
                    merged
                }
                _ => source.clone(),
            };
            let words: FormsFile = serde_yaml::from_value(words)
                .with_context(|| format!("reading the service's words in content/{file}"))?;
            languages.push(Language {
                prefix: form_contract::language_prefix(&default.tag, tag),
                tag: tag.clone(),
                auto_reply: words.auto_reply,
                newsletter: words.newsletter,
            });
        }
        Ok(Languages(languages))
    }

    /// The site's default language.
    pub fn default(&self) -> &Language {
        // `read` refuses a site without languages.
        &self.0[0]
    }

    /// Every language, the default first.
    pub fn all(&self) -> &[Language] {
        &self.0
    }

    /// The language tagged `tag`.
    pub fn get(&self, tag: &str) -> Option<&Language> {
        self.0.iter().find(|l| l.tag == tag)
    }

    /// The language a query names ([`LANGUAGE_PARAM`]), the default when it names none; an
    /// error naming the parameter for a language the site does not have.
    pub fn of_query(&self, query: Option<&str>) -> Result<&Language, FieldErrors> {
        let named = form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .find(|(key, _)| key == LANGUAGE_PARAM)
            .map(|(_, value)| value);
        let Some(tag) = named else {
            return Ok(self.default());
        };
        self.get(&tag).ok_or_else(|| {
            let tags: Vec<&str> = self.0.iter().map(|l| l.tag.as_str()).collect();
            let error = FieldError {
                code: ErrorCode::NotAnOption,
                message: format!("The language must be one of {}.", tags.join(", ")),
            };
            FieldErrors([(LANGUAGE_PARAM.to_owned(), error)].into())
        })
    }

    /// The language a query names, the default for none or one the site does not have: for
    /// the newsletter's links, where the language only chooses words.
    pub fn of_link(&self, query: &str) -> &Language {
        self.of_query(Some(query))
            .unwrap_or_else(|_| self.default())
    }
}

impl Language {
    /// Whether this is the site's default language (its links carry no language).
    pub fn is_default(&self) -> bool {
        self.prefix.is_empty()
    }

    /// The address of the site's page at `path` (`/contact/sent`) in this language, with the
    /// trailing slash the site's pages have.
    pub fn page(&self, site_url: &str, path: &str) -> String {
        format!("{site_url}{}{path}/", self.prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "languages:\n  - { tag: en, name: English }\n  - { tag: et, name: Eesti }\n";

    #[test]
    fn every_language_of_the_built_site_has_its_words() {
        let languages = Languages::built_in().expect("the content's languages");
        let default = languages.default();
        assert!(default.is_default());
        for language in &languages.0[1..] {
            assert_eq!(language.prefix, format!("/{}", language.tag));
            assert_ne!(
                language.auto_reply.subject, default.auto_reply.subject,
                "{} has its own auto-reply",
                language.tag
            );
            assert_ne!(
                language.newsletter.email.subject, default.newsletter.email.subject,
                "{} has its own confirmation email",
                language.tag
            );
        }
    }

    #[test]
    fn a_translation_overrides_words_and_keeps_the_rest() {
        let forms = Languages::read(
            SITE,
            FORMS_YAML,
            &[("et", "auto_reply:\n  subject: Käes\n")],
        )
        .expect("reads");
        let et = forms.get("et").expect("Estonian");
        assert_eq!(et.auto_reply.subject, "Käes");
        assert_eq!(et.auto_reply.body, forms.default().auto_reply.body);
        assert_eq!(
            et.page("https://x.example", "/contact/sent"),
            "https://x.example/et/contact/sent/"
        );
        assert_eq!(
            forms.default().page("https://x.example", "/contact/sent"),
            "https://x.example/contact/sent/"
        );
    }

    #[test]
    fn a_field_the_source_lacks_is_an_error_naming_it() {
        let error = Languages::read(
            SITE,
            FORMS_YAML,
            &[("et", "auto_reply:\n  subjekt: Käes\n")],
        )
        .expect_err("refused");
        assert!(
            format!("{error:#}").contains("forms.et.yaml: auto_reply.subjekt"),
            "{error:#}"
        );
    }

    #[test]
    fn the_query_names_the_language_or_leaves_the_default() {
        let forms = Languages::read(SITE, FORMS_YAML, &[]).expect("reads");
        assert_eq!(
            forms.of_query(None).ok().map(|l| l.tag.as_str()),
            Some("en")
        );
        assert_eq!(
            forms.of_query(Some("lang=et")).ok().map(|l| l.tag.as_str()),
            Some("et")
        );
        let refused = forms
            .of_query(Some("lang=fr"))
            .expect_err("not a language of the site");
        assert!(refused.0.contains_key(LANGUAGE_PARAM));
        assert_eq!(forms.of_link("lang=fr&email=a").tag, "en");
    }
}
