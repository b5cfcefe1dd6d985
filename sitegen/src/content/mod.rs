//! The typed content model of the website and the code that reads it from `content/`.
//!
//! `load` reads every file, collects every mistake (syntax, unknown or missing fields, links to
//! no page, missing images, duplicate slugs) and only then fails, so one run shows them all.

pub mod articles;
pub mod common;
pub mod countries;
pub mod error;
pub mod forms;
pub mod i18n;
pub mod images;
pub(crate) mod loader;
mod locate;
pub mod pages;
pub mod publishing;
pub mod redirects;
mod routes;
pub mod services;
pub mod settings;
pub mod status;
mod validate;
pub mod yaml;

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use error::{ContentError, ContentErrors};
/// How a translation is laid over its source, shared with contact-fn (the form contract).
pub use form_contract::translation as translate;
pub use i18n::{is_language_tag, page_url};
use loader::Loader;
pub use pages::FixedPage;
pub use publishing::Publishing;
pub use routes::Versions;
pub use routes::{RouteInfo, RouteKind};
pub(crate) use validate::is_slug;

/// The whole website, as the site's pages receive it.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[ts(rename = "SiteContent")]
pub struct Content {
    /// Site-wide settings.
    pub settings: settings::Settings,
    /// Every published page, derived from the rest of the model.
    pub routes: Vec<RouteInfo>,
    /// The fixed pages.
    pub pages: pages::Pages,
    /// Service categories in display order, each with its sub-services.
    pub services: Vec<services::ServiceCategory>,
    /// Dialling codes for the contact form.
    pub countries: Vec<countries::Country>,
    /// The forms that post to the contact service.
    pub forms: forms::Forms,
    /// Who writes the articles, by slug.
    pub authors: BTreeMap<String, articles::Author>,
    /// Every article, newest first.
    pub articles: Vec<articles::Article>,
    /// Where the Atom feed of the articles is published (`/feed.xml`).
    pub feed_path: String,
    /// Where the entry file of the articles' search index is published
    /// (`/search/entry.<hash>.json`); set when the search index is built, empty until then.
    pub search_index_path: String,
    /// The encoded raster pictures, by the path the content names them with
    /// (`/images/team/anna.jpg`); filled by the images stage, empty until then.
    pub images: BTreeMap<String, images::Picture>,
    /// Each route's social card, by its path; filled by the cards stage, empty until then.
    pub cards: BTreeMap<String, images::SocialCard>,
    /// Every raster picture the content names, with where: what the images stage encodes.
    #[serde(skip)]
    #[ts(skip)]
    pub image_refs: Vec<images::ImageRef>,
    /// Every old path and what answers it (aliases and `redirects.yaml`), sorted by path:
    /// the one table every host's redirect rules are written from.
    #[serde(skip)]
    #[ts(skip)]
    pub redirects: Vec<redirects::Redirect>,
    /// What validation found worth fixing that builds as it is, each at its `file:line:col`.
    #[serde(skip)]
    #[ts(skip)]
    pub warnings: Vec<ContentError>,
    /// The same site in each other language of `settings.languages`, in their order: the
    /// translations laid over this content, with their own routes (`/et/...`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<Content>>", optional)]
    pub translations: Vec<Content>,
    /// The source files that have a translation into this content's language
    /// (`pages/about.yaml`): the routes they make are translations, the others fallbacks.
    #[serde(skip)]
    #[ts(skip)]
    pub translated: std::collections::BTreeSet<String>,
    /// Set only in the JSON `sitegen build` hands its render workers: the articles' `html` is
    /// empty there and read from this file when a page needs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub article_bodies: Option<ArticleBodies>,
    /// The pieces this build leaves out (drafts, what is not yet due, what expired), with
    /// where they are written: a link to one is an error naming both files.
    #[serde(skip)]
    #[ts(skip)]
    pub unpublished: Vec<publishing::Unpublished>,
    /// When the next piece of any language falls due or expires, after the build's time: when
    /// a build would next publish something else (`next_change_at` of the build's report).
    #[serde(skip)]
    #[ts(skip)]
    pub next_change_at: Option<jiff::Timestamp>,
}

/// The articles' bodies in a file of their own: each article's `toc` (as JSON) and `html`, one
/// article after the other, so a render worker parses the rest of the content without them and
/// reads an article's only for the page that shows it.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
pub struct ArticleBodies {
    /// The file, relative to the folder of the content JSON that names it.
    pub file: String,
    /// Where each article's `toc` and `html` are in the file, in the order of `articles`: the
    /// byte offset of the `toc`, its length, and the length of the `html` that follows it.
    #[ts(type = "Array<[number, number, number]>")]
    pub spans: Vec<(u64, u64, u64)>,
    /// A hash of each article's `toc` and `html`, in the same order: what the hash of a page's
    /// inputs reads in place of them, so that hashing every page reads no body (see
    /// `site/render/entry.server.ts`).
    pub digests: Vec<String>,
}

/// The keys of the struct `T` in the order it declares them (as renamed for the files): what
/// serde's derive hands a deserializer, asked of one that reads nothing. The JSON Schemas list
/// properties by name; a file written anew lists its keys in the model's order.
pub fn declared_keys<'de, T: serde::Deserialize<'de>>() -> &'static [&'static str] {
    use serde::de::{Error as _, Visitor, value::Error};
    struct Keys<'a>(&'a mut &'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for Keys<'_> {
        type Error = Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
            Err(Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Error> {
            *self.0 = fields;
            Err(Error::custom("only its keys are read"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    let mut keys: &'static [&'static str] = &[];
    let _ = T::deserialize(Keys(&mut keys));
    keys
}

/// The JSON Schema of `T`, as editors and validators read it: every field's `///` doc is its
/// description, and a struct that denies unknown fields allows no other properties.
pub fn json_schema_of<T: schemars::JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Site-wide settings: [`settings::Settings`].
pub const SITE_FILE: &str = "site.yaml";
/// Dialling codes: a list of [`countries::Country`].
pub const COUNTRIES_FILE: &str = "countries.yaml";
/// The contact forms: [`forms::Forms`].
pub const FORMS_FILE: &str = "forms.yaml";
/// The folder of the service categories, one [`services::ServiceCategory`] per file.
pub const SERVICES_DIR: &str = "services";

/// Files directly under the content directory, besides `pages/` and `services/`.
const TOP_LEVEL_FILES: &[&str] = &[
    SITE_FILE,
    COUNTRIES_FILE,
    FORMS_FILE,
    articles::AUTHORS_FILE,
    redirects::REDIRECTS_FILE,
];

impl Content {
    /// Writes the model as the JSON the site's pages read (`sitegen export`, the dev server).
    pub fn write_json(&self, path: &Path) -> anyhow::Result<()> {
        use anyhow::Context as _;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let json = serde_json::to_vec(self).context("serialising the content")?;
        std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))
    }

    /// Reads and validates the content directory, as a production build publishes it at the
    /// time [`publishing::NOW_ENV`] names (else now). Images are looked up under `public_dir`.
    pub fn load(content_dir: &Path, public_dir: &Path) -> Result<Self, ContentErrors> {
        Self::load_with(content_dir, public_dir, None, &Publishing::default())
    }

    /// [`Content::load`] of what `publishing` shows, taking the articles whose files have not
    /// changed since the last load with `memo` from it instead of parsing them again (see
    /// [`articles::ArticleMemo`]).
    pub fn load_with(
        content_dir: &Path,
        public_dir: &Path,
        memo: Option<&mut articles::ArticleMemo>,
        publishing: &Publishing,
    ) -> Result<Self, ContentErrors> {
        let now = publishing.time().map_err(|message| {
            ContentErrors(vec![ContentError {
                file: publishing::NOW_ENV.into(),
                line: None,
                column: None,
                message,
            }])
        })?;
        let mut loader = Loader::new(content_dir);
        let settings = loader.file::<settings::Settings>(SITE_FILE);
        let countries = loader.file::<Vec<countries::Country>>(COUNTRIES_FILE);
        let forms = loader.file::<forms::Forms>(FORMS_FILE);
        let pages = pages::Pages::load(&mut loader);
        let services = load_services(&mut loader);
        let loaded = articles::load(&mut loader, memo);
        // A site that never moved a page has no redirects file.
        let redirects_file = content_dir
            .join(redirects::REDIRECTS_FILE)
            .exists()
            .then(|| loader.file::<redirects::RedirectsFile>(redirects::REDIRECTS_FILE))
            .flatten();
        // Authors are needed once there are articles; a site without articles may omit the file.
        let authors =
            if loaded.articles.is_empty() && !content_dir.join(articles::AUTHORS_FILE).exists() {
                Some(BTreeMap::new())
            } else {
                articles::load_authors(&mut loader)
            };
        report_unexpected_files(&mut loader);

        let (Some(mut settings), Some(countries), Some(pages), Some(forms), Some(authors)) =
            (settings, countries, pages, forms, authors)
        else {
            return Err(ContentErrors(loader.errors));
        };
        if !loader.errors.is_empty() {
            return Err(ContentErrors(loader.errors));
        }
        derive_category_links(&mut loader, &mut settings, &services);
        if let Some(url) = &publishing.base_url {
            settings.base_url.clone_from(url);
        }
        let mut articles = loaded.articles;
        write_dates(&mut loader, &settings, &mut articles);
        let mut content = Self {
            settings,
            routes: Vec::new(),
            pages,
            services,
            countries,
            forms,
            authors,
            articles,
            feed_path: format!("/{}", articles::FEED_FILE),
            search_index_path: String::new(),
            images: BTreeMap::new(),
            cards: BTreeMap::new(),
            image_refs: Vec::new(),
            redirects: Vec::new(),
            warnings: Vec::new(),
            translations: Vec::new(),
            translated: std::collections::BTreeSet::new(),
            article_bodies: None,
            unpublished: Vec::new(),
            next_change_at: None,
        };
        match content.settings.languages.first() {
            Some(language) => content.settings.language = language.tag.clone(),
            None => loader.error(
                SITE_FILE,
                Some("languages"),
                "name at least one language, the default first: `languages: [{ tag: en, name: English }]`".into(),
            ),
        }
        for (i, language) in content.settings.languages.iter().enumerate() {
            let codes = [
                ("country_code", &language.country_code),
                ("phone_prefix", &language.phone_prefix),
            ];
            for (field, code) in codes {
                if let Some(code) = code
                    && !content.countries.iter().any(|c| &c.code == code)
                {
                    loader.error(
                        SITE_FILE,
                        Some(&format!("languages[{i}].{field}")),
                        format!("`{code}` is not a dialling code of {COUNTRIES_FILE}: name one it lists (`+372`)"),
                    );
                }
            }
            if language.phone_prefix.is_some() && language.phone_prefix == language.country_code {
                loader.error(
                    SITE_FILE,
                    Some(&format!("languages[{i}].phone_prefix")),
                    "is the language's `country_code` already, which the phone field shows without it: remove it".into(),
                );
            }
        }
        for (field, message) in content.settings.contact.problems() {
            loader.error(SITE_FILE, Some(&format!("contact.{field}")), message);
        }
        let before = loader.errors.len();
        i18n::check_languages(&mut loader, &content.settings);
        // Files are named by the tags: a mistyped tag would otherwise disown each of them.
        if loader.errors.len() == before {
            i18n::check_translation_files(&mut loader, &content.settings);
        }
        let decided = publishing::apply(&mut loader, &mut content, publishing, now, None);
        content.settings.noindex = publishing.shows_unpublished();
        let mut links = loaded.links;
        keep_links_of_shown(&mut links, &content.articles, None);
        content.routes = routes::derive(&content, "");
        publishing::mark_routes(&mut content, &decided);
        content.redirects = redirects::derive(&mut loader, &content, redirects_file.as_ref());
        publishing::answer_expired(&loader, &mut content.redirects, &decided.unpublished);
        content.unpublished = decided.unpublished;
        content.next_change_at = decided.next_change_at;
        // The other languages are read while this one is validated: a translation reads only
        // what is known by now (the settings, the routes, the redirects), and is dropped when
        // this language has mistakes, as if it had not been read. None is read past a mistake
        // already found (a language's tag among them).
        let others: Vec<String> = match loader.errors.is_empty() {
            true => (content.settings.languages.iter().skip(1))
                .map(|l| l.tag.clone())
                .collect(),
            false => Vec::new(),
        };
        let listing = loader.listing();
        let ((image_refs, article_images), translations) = rayon::join(
            || {
                let image_refs = validate::validate(&mut loader, &content, public_dir);
                let article_images =
                    validate::validate_articles(&mut loader, &content, &links, public_dir);
                (image_refs, article_images)
            },
            || {
                others
                    .iter()
                    .map(|tag| {
                        let loader = Loader::translating(content_dir, tag, listing.clone());
                        Self::load_translation(loader, public_dir, &content, tag, publishing, now)
                    })
                    .collect::<Vec<_>>()
            },
        );
        content.image_refs = image_refs;
        content.image_refs.extend(article_images.photos);
        if loader.errors.is_empty() {
            // The bodies' SVGs are published as they are: their markup is known now; the
            // photos' once the images stage has encoded them.
            for (article, n, path) in article_images.public {
                let article = &mut content.articles[article];
                let image = &article.body_images[n];
                let html =
                    articles::plain_image_html(&image.src, &image.alt, images::svg_size(&path));
                article.place_body_image(n, &html);
            }
            content.warnings = std::mem::take(&mut loader.warnings);
        } else {
            return Err(ContentErrors(loader.errors));
        }
        let mut errors = Vec::new();
        for translation in translations {
            match translation {
                Ok(translation) => {
                    publishing::answer_expired(
                        &loader,
                        &mut content.redirects,
                        &translation.unpublished,
                    );
                    content.next_change_at = [content.next_change_at, translation.next_change_at]
                        .into_iter()
                        .flatten()
                        .min();
                    content.translations.push(translation);
                }
                Err(more) => errors.extend(more.0),
            }
        }
        if !errors.is_empty() {
            return Err(ContentErrors(errors));
        }
        i18n::link(&mut content);
        Ok(content)
    }

    /// The site in the language `tag`, read by `loader` (translating into `tag`): every file
    /// of the content directory with its translation laid over it, and only the articles that
    /// have one. `source` is the default language's content, loaded (and being validated):
    /// whatever a translation cannot change (links, pictures, dates) is checked there.
    fn load_translation(
        mut loader: Loader,
        public_dir: &Path,
        source: &Content,
        tag: &str,
        publishing: &Publishing,
        now: jiff::Timestamp,
    ) -> Result<Self, ContentErrors> {
        let settings = loader.file::<settings::Settings>(SITE_FILE);
        let countries = loader.file::<Vec<countries::Country>>(COUNTRIES_FILE);
        let forms = loader.file::<forms::Forms>(FORMS_FILE);
        let pages = pages::Pages::load(&mut loader);
        let services = load_services(&mut loader);
        let loaded = articles::load(&mut loader, None);
        let authors = if source.authors.is_empty() {
            Some(BTreeMap::new())
        } else {
            articles::load_authors(&mut loader)
        };
        let (Some(mut settings), Some(countries), Some(pages), Some(forms), Some(authors)) =
            (settings, countries, pages, forms, authors)
        else {
            return Err(ContentErrors(loader.errors));
        };
        settings.language = tag.to_owned();
        if let Some(url) = &publishing.base_url {
            settings.base_url.clone_from(url);
        }
        let prefix = settings.language_prefix(tag);
        settings
            .contact_endpoint
            .clone_from(&source.settings.contact_endpoint);
        derive_category_links(&mut loader, &mut settings, &services);
        let mut articles = loaded.articles;
        let mut links = loaded.links;
        write_dates(&mut loader, &settings, &mut articles);
        if !loader.errors.is_empty() {
            return Err(ContentErrors(loader.errors));
        }
        let mut content = Self {
            settings,
            routes: Vec::new(),
            pages,
            services,
            countries,
            forms,
            authors,
            articles,
            feed_path: format!("{prefix}/{}", articles::FEED_FILE),
            search_index_path: String::new(),
            images: BTreeMap::new(),
            cards: BTreeMap::new(),
            image_refs: Vec::new(),
            redirects: Vec::new(),
            warnings: Vec::new(),
            translations: Vec::new(),
            translated: std::mem::take(&mut loader.translated),
            article_bodies: None,
            unpublished: Vec::new(),
            next_change_at: None,
        };
        let decided = publishing::apply(
            &mut loader,
            &mut content,
            publishing,
            now,
            Some(&source.unpublished),
        );
        content.settings.noindex = publishing.shows_unpublished();
        keep_links_of_shown(&mut links, &content.articles, Some(tag));
        content.routes = routes::derive(&content, &prefix);
        publishing::mark_routes(&mut content, &decided);
        content.next_change_at = decided.next_change_at;
        content.unpublished = decided.unpublished;
        // A translated slug may meet another page's path in the language.
        let mut paths: BTreeMap<&str, &RouteInfo> = BTreeMap::new();
        let mut clashes = Vec::new();
        for route in &content.routes {
            if let Some(first) = paths.insert(route.path.as_str(), route) {
                clashes.push((
                    route.kind.source_file(),
                    first.kind.source_file(),
                    route.path.clone(),
                ));
            }
        }
        for (file, other, path) in clashes {
            loader.error(
                &translate::translation_file(&file, tag),
                Some("slug"),
                format!("`{path}` is also the path of `{other}` in this language: give it another `slug`"),
            );
        }
        validate::check_translated_links(&mut loader, source, &content, &links);
        let contact = translate::translation_file(&FixedPage::Contact.file(), tag);
        validate::check_hours_card(&mut loader, &content, &contact);
        if !loader.errors.is_empty() {
            return Err(ContentErrors(loader.errors));
        }
        // The bodies' SVGs are published as they are (the photos are placed by the images
        // stage, as the source's are).
        for article in &mut content.articles {
            for n in 0..article.body_images.len() {
                let image = &article.body_images[n];
                let path = public_dir.join(image.src.trim_start_matches('/'));
                if image.src.ends_with(".svg") && path.is_file() {
                    let html =
                        articles::plain_image_html(&image.src, &image.alt, images::svg_size(&path));
                    article.place_body_image(n, &html);
                }
            }
        }
        Ok(content)
    }

    /// The path prefix of each other language (`/et`), in the order of `languages`.
    pub fn translation_prefixes(&self) -> Vec<String> {
        self.translations
            .iter()
            .map(|t| self.settings.language_prefix(&t.settings.language))
            .collect()
    }

    /// Every route of every language: this content's, then each translation's.
    pub fn all_routes(&self) -> impl Iterator<Item = &RouteInfo> {
        self.routes
            .iter()
            .chain(self.translations.iter().flat_map(|t| t.routes.iter()))
    }
}

/// Keeps the links of the articles shown (`articles/SLUG.md`, or its translation into `tag`):
/// what a draft links to is its own business until it is published.
fn keep_links_of_shown(
    links: &mut Vec<(String, Vec<articles::BodyLink>)>,
    shown: &[articles::Article],
    tag: Option<&str>,
) {
    let files: std::collections::HashSet<String> = shown
        .iter()
        .map(|a| {
            let file = format!("{}/{}.md", articles::ARTICLES_DIR, a.slug);
            match tag {
                Some(tag) => translate::translation_file(&file, tag),
                None => file,
            }
        })
        .collect();
    links.retain(|(file, _)| files.contains(file));
}

/// Writes each article's date as the content's language does (`dates` of `site.yaml`), and
/// checks the words the contact page writes the opening hours with. A date that is not an ISO
/// date is reported with the other checks of the article (validate.rs).
fn write_dates(
    loader: &mut Loader,
    settings: &settings::Settings,
    articles: &mut [articles::Article],
) {
    for (field, message) in settings.dates.hours.problems() {
        loader.error(SITE_FILE, Some(&format!("dates.hours.{field}")), message);
    }
    if settings.dates.months.len() != 12 {
        loader.error(
            SITE_FILE,
            Some("dates.months"),
            format!(
                "name the twelve months, January first; found {}",
                settings.dates.months.len()
            ),
        );
        return;
    }
    for article in articles {
        article.date_display = settings.dates.write(&article.date).unwrap_or_default();
    }
}

/// Fills the link lists made from the service categories: the Services menu, and each footer
/// column that says `links_from: service-categories`.
fn derive_category_links(
    loader: &mut Loader,
    settings: &mut settings::Settings,
    categories: &[services::ServiceCategory],
) {
    let links: Vec<common::Link> = categories
        .iter()
        .map(|category| common::Link {
            label: category.name.clone(),
            href: RouteKind::ServiceCategory {
                category: category.slug.clone(),
            }
            .path(),
        })
        .collect();
    if !settings.nav.services.links.is_empty() {
        loader.error(
            SITE_FILE,
            Some("nav.services.links"),
            "the Services menu lists the service categories of `services/` by itself; remove `links`"
                .into(),
        );
    }
    settings.nav.services.links.clone_from(&links);
    for (i, column) in settings.footer.columns.iter_mut().enumerate() {
        let field = |name: &str| format!("footer.columns[{i}].{name}");
        match (column.links_from, column.links.is_empty()) {
            (Some(settings::LinkSource::ServiceCategories), true) => {
                column.links.clone_from(&links);
            }
            (Some(_), false) => loader.error(
                SITE_FILE,
                Some(&field("links_from")),
                "give either `links` or `links_from`, not both".into(),
            ),
            (None, true) => loader.error(
                SITE_FILE,
                Some(&field("title")),
                "the column has no links: add `links`, or `links_from: service-categories`".into(),
            ),
            (None, false) => {}
        }
    }
}

/// Reads `services/*.yaml`, one category per file, ordered by their `order` field.
fn load_services(loader: &mut Loader) -> Vec<services::ServiceCategory> {
    let dir = loader.root().join(SERVICES_DIR);
    let mut files: Vec<String> = walkdir::WalkDir::new(&dir)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_yaml(e.path()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|name| !translate::is_translation(name))
        .collect();
    if files.is_empty() {
        loader.error(
            "services",
            None,
            "no service categories: add one YAML file per category".into(),
        );
    }
    files.sort();
    let mut categories: Vec<services::ServiceCategory> = files
        .iter()
        .filter_map(|name| {
            let rel = format!("{SERVICES_DIR}/{name}");
            let mut category: services::ServiceCategory = loader.file(&rel)?;
            if !category.slug.is_empty() {
                loader.error(
                    &rel,
                    Some("slug"),
                    "`slug` comes from the file name; remove it or rename the file".into(),
                );
            }
            category.slug = name
                .trim_end_matches(".yaml")
                .trim_end_matches(".yml")
                .to_owned();
            Some(category)
        })
        .collect();
    categories.sort_by_key(|c| c.order);
    categories
}

fn is_yaml(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

/// A YAML file the model does not read is almost always a misnamed page: say so.
fn report_unexpected_files(loader: &mut Loader) {
    let expected_pages: Vec<String> = FixedPage::ALL.iter().map(|p| p.file()).collect();
    // Sorted once found: sorting every directory as it is read would sort the thousands of
    // articles' names too, on every save of `sitegen dev`.
    let mut unexpected: Vec<String> = loader
        .files()
        .iter()
        .filter(|rel| is_yaml(Path::new(rel)))
        .filter_map(|rel| {
            // A translation (`pages/about.et.yaml`) is known when its source is.
            let source = translate::source_path(rel).unwrap_or_else(|| rel.clone());
            let known = TOP_LEVEL_FILES.contains(&source.as_str())
                || expected_pages.contains(&source)
                || (source.starts_with(&format!("{SERVICES_DIR}/"))
                    && source.matches('/').count() == 1);
            (!known).then(|| rel.clone())
        })
        .collect();
    // By path, component by component: a directory's files in the order of its name.
    unexpected.sort_by(|a, b| Path::new(a).cmp(Path::new(b)));
    for rel in unexpected {
        loader.error(
            &rel,
            None,
            format!(
                "unexpected content file; pages are {}",
                FixedPage::ALL
                    .iter()
                    .map(|p| p.file_name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}
