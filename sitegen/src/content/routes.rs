//! Every published page, derived from the model: the only place a route is made.
//!
//! Each route carries its page kind and the kind's parameters, so the site finds the page's
//! content and links to it from the route instead of rebuilding paths:
//! `{"path": "/services/cloud-services/devops", "kind": "sub-service",
//! "params": {"category": "cloud-services", "service": "devops"}, ...}`.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use form_contract::{CONTACT_ERROR_PATH, CONTACT_SENT_PATH, NEWSLETTER_PAGES_PATH, NewsletterPage};

use super::Content;
use super::common::Meta;
use super::pages::FixedPage;

/// One published page.
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct RouteInfo {
    /// Path without trailing slash (`/`, `/about`, `/services/cloud-services/devops`).
    pub path: String,
    /// Which page this is, and what it shows.
    #[serde(flatten)]
    pub kind: RouteKind,
    /// The page's `<title>`.
    pub title: String,
    /// The page's meta description.
    pub description: String,
    /// Whether the page is listed in `sitemap.xml`.
    pub in_sitemap: bool,
    /// Where the page stands in a listing split into pages; only on such pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pager: Option<PageOf>,
    /// The picture the page names for link previews instead of its generated card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub share_image: Option<super::images::ShareImage>,
    /// The page in every language of the site, from the one table of them
    /// ([`super::i18n`]); only on a site of more than one language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub versions: Option<Versions>,
    /// The banner of a page shown though not published (`Draft`, `Scheduled for 9 December
    /// 2026, 09:00`), in the page's language; only in a build that shows such pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub banner: Option<String>,
}

/// A page in every language of the site: its row of the one table of versions
/// ([`super::i18n`] computes it).
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct Versions {
    /// The page's canonical URL: its own when it is a translation (or in the default
    /// language), the default language's when it only stands in for a missing translation.
    pub canonical: String,
    /// `<link rel="alternate" hreflang>`: every translated version, this one included, then
    /// `x-default` (the default language's URL); the same list on every version.
    pub hreflang: Vec<HrefLang>,
    /// The language switcher: every language of the site, in order, with this page in it.
    pub languages: Vec<Version>,
}

/// One `hreflang` alternate: a language (or `x-default`) and the absolute URL of its version.
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct HrefLang {
    /// A BCP 47 tag, or `x-default`.
    pub hreflang: String,
    /// The version's absolute URL.
    pub href: String,
}

/// A page in one language, as the language switcher shows it.
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct Version {
    /// The language's BCP 47 tag.
    pub tag: String,
    /// The language's name in itself (`Eesti`).
    pub name: String,
    /// The page's path in that language; `None` where it is not published in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub path: Option<String>,
    /// Whether this is the version being shown.
    pub current: bool,
}

/// Where a page stands in a listing split into pages: computed once, by sitegen, for the page's
/// title and for its pager.
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct PageOf {
    /// How many pages the listing has (at least one).
    pub pages: u32,
    /// Where the visitor is (`Page 2 of 3`), from the listing's `page_label`.
    pub label: String,
}

/// The kind of a page and its parameters: `{"kind": "about"}`,
/// `{"kind": "service-category", "params": {"category": "cloud-services"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, Serialize, TS)]
#[serde(tag = "kind", content = "params", rename_all = "kebab-case")]
pub enum RouteKind {
    /// Where a form sent without JavaScript ends when the message was accepted.
    ContactSent,
    /// Where a form sent without JavaScript ends when the message could not be accepted.
    ContactError,
    /// A page of the newsletter's double opt-in, where contact-fn sends the visitor.
    Newsletter {
        /// Which one (`confirmed`).
        page: NewsletterPage,
    },
    /// A service category's page.
    ServiceCategory {
        /// The category's slug (`cloud-services`).
        category: String,
    },
    /// A sub-service's page.
    SubService {
        /// The category's slug (`cloud-services`).
        category: String,
        /// The sub-service's slug within its category (`devops`).
        service: String,
    },
    /// An article's page.
    Article {
        /// The article's slug (`generative-ai-enterprise`).
        slug: String,
    },
    /// One page of the articles of one service category, newest first.
    InsightsCategory {
        /// The category's slug (`cloud-services`).
        category: String,
        /// Which page, from 1 (the Insights page's `pagination` says how many articles a page lists).
        page: u32,
    },
    /// A fixed page of `content/pages/`; its kind is the page's name.
    #[serde(untagged)]
    Fixed(FixedPage),
}

impl RouteKind {
    /// The path this page is published at.
    pub fn path(&self) -> String {
        let services = FixedPage::Services.path();
        let insights = FixedPage::Insights.path();
        match self {
            Self::Fixed(page) => page.path().to_owned(),
            Self::ContactSent => CONTACT_SENT_PATH.to_owned(),
            Self::ContactError => CONTACT_ERROR_PATH.to_owned(),
            Self::Newsletter { page } => format!("{NEWSLETTER_PAGES_PATH}/{page}"),
            Self::ServiceCategory { category } => format!("{services}/{category}"),
            Self::SubService { category, service } => format!("{services}/{category}/{service}"),
            Self::Article { slug } => format!("{insights}/{slug}"),
            Self::InsightsCategory { category, page, .. } => match page {
                0 | 1 => format!("{insights}/category/{category}"),
                _ => format!("{insights}/category/{category}/page/{page}"),
            },
        }
    }

    /// The content file the page's own words come from, relative to the content directory
    /// (`articles/edge-ai.md`), for a message about the page.
    pub fn source_file(&self) -> String {
        match self {
            Self::Fixed(page) => page.file(),
            Self::ContactSent | Self::ContactError | Self::Newsletter { .. } => {
                super::FORMS_FILE.to_owned()
            }
            Self::ServiceCategory { category }
            | Self::SubService { category, .. }
            | Self::InsightsCategory { category, .. } => {
                format!("{}/{category}.yaml", super::SERVICES_DIR)
            }
            Self::Article { slug } => format!("{}/{slug}.md", super::articles::ARTICLES_DIR),
        }
    }

    /// Whether search engines should find the page: the pages a form post ends on are
    /// reachable by anyone but are not pages for search results.
    fn in_sitemap(&self) -> bool {
        !matches!(
            self,
            Self::ContactSent | Self::ContactError | Self::Newsletter { .. }
        )
    }
}

/// Every page: the fixed ones, the pages a form post ends on, each category followed by its
/// sub-services, then the articles (newest first) and the article listing of each category.
/// `prefix` is the folder of the content's language (`/et`; empty for the default language).
pub(crate) fn derive(content: &Content, prefix: &str) -> Vec<RouteInfo> {
    let mut pages: Vec<(RouteKind, Meta)> = FixedPage::ALL
        .iter()
        .map(|page| (RouteKind::Fixed(*page), content.pages.meta(*page).clone()))
        .collect();
    pages.push((RouteKind::ContactSent, content.forms.sent.meta.clone()));
    pages.push((RouteKind::ContactError, content.forms.error.meta.clone()));
    for (page, words) in &content.forms.newsletter.pages {
        pages.push((RouteKind::Newsletter { page: *page }, words.meta.clone()));
    }
    for category in &content.services {
        let slug = &category.slug;
        pages.push((
            RouteKind::ServiceCategory {
                category: slug.clone(),
            },
            category.meta.clone(),
        ));
        for sub in &category.sub_services {
            pages.push((
                RouteKind::SubService {
                    category: slug.clone(),
                    service: sub.slug.clone(),
                },
                sub.meta.clone(),
            ));
        }
    }
    let brand = &content.settings.brand.name;
    // A translation's own slug replaces the last part of the article's path.
    let mut paths: std::collections::HashMap<RouteKind, String> = std::collections::HashMap::new();
    for article in &content.articles {
        if let Some(local) = &article.local_slug {
            paths.insert(
                RouteKind::Article {
                    slug: article.slug.clone(),
                },
                format!("{}/{local}", FixedPage::Insights.path()),
            );
        }
        pages.push((
            RouteKind::Article {
                slug: article.slug.clone(),
            },
            Meta {
                title: format!("{} | {brand}", article.title),
                description: article.excerpt.clone(),
                share_image: article.share_image.clone(),
                share_image_alt: article.share_image_alt.clone(),
                ..Meta::default()
            },
        ));
    }
    let path_of = |kind: &RouteKind| {
        let path = paths.get(kind).cloned().unwrap_or_else(|| kind.path());
        match (prefix, path.as_str()) {
            (_, "/") if !prefix.is_empty() => prefix.to_owned(),
            _ => format!("{prefix}{path}"),
        }
    };
    let mut routes: Vec<RouteInfo> = pages
        .into_iter()
        .map(|(kind, meta)| RouteInfo::new(path_of(&kind), kind, meta, None))
        .collect();
    let insights = &content.pages.insights.meta.title;
    let pagination = &content.pages.insights.pagination;
    for category in &content.services {
        let articles = content
            .articles
            .iter()
            .filter(|a| a.category == category.slug)
            .count();
        let pages = pagination.pages(articles);
        for page in 1..=pages {
            let label = pagination.label(page, pages);
            let name = match page {
                1 => category.name.clone(),
                _ => format!("{} ({label})", category.name),
            };
            let kind = RouteKind::InsightsCategory {
                category: category.slug.clone(),
                page,
            };
            let meta = Meta {
                title: format!("{name} | {insights}"),
                description: category.summary.clone(),
                ..Meta::default()
            };
            routes.push(RouteInfo::new(
                path_of(&kind),
                kind,
                meta,
                Some(PageOf { pages, label }),
            ));
        }
    }
    routes
}

impl RouteInfo {
    fn new(path: String, kind: RouteKind, meta: Meta, pager: Option<PageOf>) -> Self {
        Self {
            path,
            in_sitemap: kind.in_sitemap(),
            share_image: meta.share(),
            kind,
            title: meta.title,
            description: meta.description,
            pager,
            versions: None,
            banner: None,
        }
    }
}

/// The known route most like `route`, when one is close enough to be a likely typo.
pub(super) fn closest<'a>(route: &str, routes: &BTreeSet<&'a str>) -> Option<&'a str> {
    routes
        .iter()
        .map(|r| (strsim::levenshtein(route, r), *r))
        .filter(|(distance, _)| *distance <= 3)
        .min()
        .map(|(_, r)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_serializes_as_path_kind_and_params() {
        let route = RouteInfo {
            path: "/services/cloud-services/devops".into(),
            kind: RouteKind::SubService {
                category: "cloud-services".into(),
                service: "devops".into(),
            },
            title: "DevOps".into(),
            description: "Ship often.".into(),
            in_sitemap: true,
            pager: None,
            share_image: None,
            versions: None,
            banner: None,
        };
        let json = serde_json::to_value(&route).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({
                "path": "/services/cloud-services/devops",
                "kind": "sub-service",
                "params": {"category": "cloud-services", "service": "devops"},
                "title": "DevOps",
                "description": "Ship often.",
                "in_sitemap": true,
            })
        );
        assert_eq!(
            serde_json::from_value::<RouteInfo>(json).expect("reads back"),
            route
        );
    }

    #[test]
    fn a_fixed_page_is_its_own_kind_without_params() {
        let kind = RouteKind::Fixed(FixedPage::CaseStudies);
        let json = serde_json::to_value(&kind).expect("serializes");
        assert_eq!(json, serde_json::json!({"kind": "case-studies"}));
        assert_eq!(
            serde_json::from_value::<RouteKind>(json).expect("reads back"),
            kind
        );
        assert_eq!(kind.path(), "/case-studies");
    }
}
