//! The fixed pages, one YAML file each under `content/pages/`.
//!
//! The table at the end of this file is the only list of them: the [`Pages`] struct, its loader,
//! the file names and the routes all come from it. Adding a page is one row there, its struct in
//! a module here, its YAML file, and its folder with a component under `site/pages/`.

pub mod about;
pub mod blog;
pub mod case_studies;
pub mod contact;
pub mod home;
pub mod industries;
pub mod insights;
pub mod legal;
pub mod services;
pub mod solutions;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::common::Meta;
use super::loader::Loader;

/// The folder of the fixed pages' files, under the content directory.
pub const PAGES_DIR: &str = "pages";

/// Declares the fixed pages from one table. Each row is
/// `field: Type => Kind, "name", "/route";` where `field` is the key in [`Pages`], `Kind` the
/// [`FixedPage`] variant, `name` both the file stem under `content/pages/` and the route's
/// `kind` in the content JSON, and `/route` the published path.
macro_rules! fixed_pages {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $ty:ty => $kind:ident, $name:literal, $path:literal;
    )+) => {
        /// One fixed page; serialized as its route's `kind` (`{"kind": "case-studies"}`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, TS)]
        #[serde(tag = "kind")]
        pub enum FixedPage {
            $(
                $(#[doc = $doc])*
                #[serde(rename = $name)]
                $kind,
            )+
        }

        impl FixedPage {
            /// Every fixed page, in navigation order.
            pub const ALL: &'static [FixedPage] = &[$(FixedPage::$kind),+];

            /// The page's file name in `content/pages/` (`case-studies.yaml`).
            pub fn file_name(self) -> &'static str {
                match self {
                    $(FixedPage::$kind => concat!($name, ".yaml"),)+
                }
            }

            /// The published path (`/case-studies`).
            pub fn path(self) -> &'static str {
                match self {
                    $(FixedPage::$kind => $path,)+
                }
            }

            /// The JSON Schema of the page's file, for editors and the schema test.
            pub fn json_schema(self) -> schemars::Schema {
                match self {
                    $(FixedPage::$kind => crate::content::json_schema_of::<$ty>(),)+
                }
            }
        }

        /// Every fixed page of the site.
        #[derive(Debug, Clone, Deserialize, Serialize, TS)]
        #[serde(deny_unknown_fields)]
        pub struct Pages {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )+
        }

        impl Pages {
            /// Reads every page file, reporting each missing or malformed one to `loader`.
            pub(crate) fn load(loader: &mut Loader) -> Option<Self> {
                $(let $field = loader.file::<$ty>(&FixedPage::$kind.file());)+
                Some(Self { $($field: $field?,)+ })
            }

            /// The title and description of `page`.
            pub fn meta(&self, page: FixedPage) -> &Meta {
                match page {
                    $(FixedPage::$kind => &self.$field.meta,)+
                }
            }

            /// The JSON form of `page`, as the site receives it.
            pub fn to_json(&self, page: FixedPage) -> serde_json::Value {
                // The model is plain data (strings, numbers, lists, structs): serialising
                // cannot fail.
                match page {
                    $(FixedPage::$kind => serde_json::to_value(&self.$field),)+
                }
                .unwrap_or(serde_json::Value::Null)
            }
        }
    };
}

impl FixedPage {
    /// The page's file relative to the content directory (`pages/case-studies.yaml`).
    pub fn file(self) -> String {
        format!("{PAGES_DIR}/{}", self.file_name())
    }
}

fixed_pages! {
    /// The home page.
    home: home::HomePage => Home, "home", "/";
    /// Who the firm is: story, team, leadership.
    about: about::AboutPage => About, "about", "/about";
    /// The overview of every service category.
    services: services::ServicesPage => Services, "services", "/services";
    /// The industries the firm serves.
    industries: industries::IndustriesPage => Industries, "industries", "/industries";
    /// Platforms and solutions.
    solutions: solutions::SolutionsPage => Solutions, "solutions", "/solutions";
    /// Articles, resources and the newsletter.
    insights: insights::InsightsPage => Insights, "insights", "/insights";
    /// Client stories.
    case_studies: case_studies::CaseStudiesPage => CaseStudies, "case-studies", "/case-studies";
    /// The blog's article list.
    blog: blog::BlogPage => Blog, "blog", "/blog";
    /// Contact details, questions and answers, and the contact form.
    contact: contact::ContactPage => Contact, "contact", "/contact";
    /// The privacy policy.
    privacy: legal::LegalPage => Privacy, "privacy", "/privacy";
    /// The terms of service.
    terms: legal::LegalPage => Terms, "terms", "/terms";
}
