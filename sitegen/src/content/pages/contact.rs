//! The Contact page (`/contact`), from `content/pages/contact.yaml`.
//!
//! The form's own words are in `content/forms.yaml` and the email address, phone number and
//! office address in `content/site.yaml`; this file holds the words around them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::content::common::{Faq, Hero, Icon, Meta};

/// The Contact page (`/contact`), from `content/pages/contact.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactPage {
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The cards beside the form.
    pub cards: ContactCards,
    /// The frequently asked questions.
    pub faq: Faq,
}

/// The contact cards: how to reach the company besides the form.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactCards {
    /// Heading above the cards.
    pub title: String,
    /// The card with the general email address.
    pub email: ContactCard,
    /// The card with the phone number. Its description says when to call with `{hours}`,
    /// which the page replaces with `site.yaml`'s `contact.opening_hours` written in the
    /// language's words (`dates.hours`): `{hours} (EET)`.
    pub phone: ContactCard,
    /// The card with the office address.
    pub office: ContactCard,
}

/// One contact card; its address, number or link comes from the site's contact details.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactCard {
    /// The card's icon.
    pub icon: Icon,
    /// The card's heading.
    pub title: String,
    /// A short line under the heading (`We reply within 24 hours`).
    pub description: String,
}
