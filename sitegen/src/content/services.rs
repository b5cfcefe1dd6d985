//! Service categories and their sub-services, one YAML file per category under
//! `content/services/`. The file name is the category's slug, so
//! `content/services/cloud-services.yaml` publishes `/services/cloud-services` and one page per
//! entry of its `sub_services` list.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::common::{Hero, Icon, Meta};

/// A service category such as Cloud Services.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ServiceCategory {
    /// URL segment, taken from the file name (`cloud-services`); the file must not set it.
    #[serde(default)]
    pub slug: String,
    /// Position among the categories, lowest first.
    pub order: u32,
    /// Short name used on cards and in menus.
    pub name: String,
    /// One-sentence summary used on cards.
    pub summary: String,
    /// The category's icon.
    pub icon: Icon,
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
    /// The category's sub-service pages, in menu order.
    pub sub_services: Vec<SubService>,
}

/// A sub-service page such as `/services/cloud-services/devops`.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct SubService {
    /// URL segment under the category (`devops`).
    pub slug: String,
    /// Short name used in link lists.
    pub name: String,
    /// Title and description for search engines.
    pub meta: Meta,
    /// The opening block.
    pub hero: Hero,
}

impl ServiceCategory {
    /// The category page's path.
    pub fn path(&self) -> String {
        format!("/services/{}", self.slug)
    }
}
