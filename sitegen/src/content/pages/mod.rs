//! The fixed pages, one YAML file each under `content/pages/`.
//!
//! Each page has its own typed struct; adding a section to a page means adding a field here
//! and the component that renders it in `site/`.

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

/// The file of each fixed page under `content/pages/`.
pub const PAGE_FILES: &[&str] = &[
    "home.yaml",
    "about.yaml",
    "services.yaml",
    "industries.yaml",
    "solutions.yaml",
    "insights.yaml",
    "case-studies.yaml",
    "blog.yaml",
    "contact.yaml",
    "privacy.yaml",
    "terms.yaml",
];

/// Every fixed page of the site.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Pages {
    /// `/`
    pub home: home::HomePage,
    /// `/about`
    pub about: about::AboutPage,
    /// `/services`
    pub services: services::ServicesPage,
    /// `/industries`
    pub industries: industries::IndustriesPage,
    /// `/solutions`
    pub solutions: solutions::SolutionsPage,
    /// `/insights`
    pub insights: insights::InsightsPage,
    /// `/case-studies`
    pub case_studies: case_studies::CaseStudiesPage,
    /// `/blog`
    pub blog: blog::BlogPage,
    /// `/contact`
    pub contact: contact::ContactPage,
    /// `/privacy`
    pub privacy: legal::LegalPage,
    /// `/terms`
    pub terms: legal::LegalPage,
}

impl Pages {
    /// Reads every page file, reporting each missing or malformed one to `loader`.
    pub(crate) fn load(loader: &mut Loader) -> Option<Self> {
        let home = loader.file("pages/home.yaml");
        let about = loader.file("pages/about.yaml");
        let services = loader.file("pages/services.yaml");
        let industries = loader.file("pages/industries.yaml");
        let solutions = loader.file("pages/solutions.yaml");
        let insights = loader.file("pages/insights.yaml");
        let case_studies = loader.file("pages/case-studies.yaml");
        let blog = loader.file("pages/blog.yaml");
        let contact = loader.file("pages/contact.yaml");
        let privacy = loader.file("pages/privacy.yaml");
        let terms = loader.file("pages/terms.yaml");
        Some(Self {
            home: home?,
            about: about?,
            services: services?,
            industries: industries?,
            solutions: solutions?,
            insights: insights?,
            case_studies: case_studies?,
            blog: blog?,
            contact: contact?,
            privacy: privacy?,
            terms: terms?,
        })
    }

    /// Route path, source file and metadata of every fixed page, in navigation order.
    pub fn routes(&self) -> [(&'static str, &'static str, &Meta); 11] {
        [
            ("/", "pages/home.yaml", &self.home.meta),
            ("/about", "pages/about.yaml", &self.about.meta),
            ("/services", "pages/services.yaml", &self.services.meta),
            (
                "/industries",
                "pages/industries.yaml",
                &self.industries.meta,
            ),
            ("/solutions", "pages/solutions.yaml", &self.solutions.meta),
            ("/insights", "pages/insights.yaml", &self.insights.meta),
            (
                "/case-studies",
                "pages/case-studies.yaml",
                &self.case_studies.meta,
            ),
            ("/blog", "pages/blog.yaml", &self.blog.meta),
            ("/contact", "pages/contact.yaml", &self.contact.meta),
            ("/privacy", "pages/privacy.yaml", &self.privacy.meta),
            ("/terms", "pages/terms.yaml", &self.terms.meta),
        ]
    }
}
