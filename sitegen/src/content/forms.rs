//! The two forms that post to the contact service, from `content/forms.yaml`: the contact page's
//! form and the home page's Get in Touch enquiry, with their labels, states and messages.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Both forms.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Forms {
    /// The contact page's form.
    pub contact: ContactForm,
    /// The home page's Get in Touch form.
    pub enquiry: EnquiryForm,
}

/// The contact page's form.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ContactForm {
    /// The form's heading.
    pub title: String,
}

/// The home page's Get in Touch form.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct EnquiryForm {
    /// The form's heading.
    pub title: String,
}
