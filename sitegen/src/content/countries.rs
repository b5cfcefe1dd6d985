//! Dialling codes offered by the contact form, from `content/countries.yaml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One option of the country dialling-code dropdown.
#[derive(Debug, Clone, Deserialize, Serialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Country {
    /// Dialling code with its plus sign (`+49`). Several countries may share one.
    pub code: String,
    /// Country name in English.
    pub name: String,
}
