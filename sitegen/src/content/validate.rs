//! Checks that need the whole model: links lead to pages, images exist, slugs are unique.
//!
//! Most checks walk the JSON form of each file's model, so a new page or section is covered
//! without code here as long as it names its fields `href` for links and `image`, `logo` or
//! `avatar` for pictures, and a picture's alternative text `<field>_alt` beside a
//! `decorative` flag.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::Content;
use super::articles::{ARTICLES_DIR, AUTHORS_FILE, Article, BodyLink, parse_date};
use super::images::{self, ImageRef, ImageUse};
use super::loader::Loader;
use super::locate::join;
use super::pages::FixedPage;
use super::redirects::{REDIRECTS_FILE, Target};
use super::routes::closest;

/// Keys whose string value is a link (internal path or absolute URL).
const LINK_KEYS: &[&str] = &["href"];
/// Keys whose string value is a picture under the site's public directory.
const IMAGE_KEYS: &[&str] = &["image", "logo", "avatar", "share_image"];
/// Keys of pictures whose entry says what they show: `<key>_alt`, or `decorative: true`. (A
/// logo's alternative text is the brand's `name`.)
const DESCRIBED_IMAGE_KEYS: &[&str] = &["image", "avatar"];
/// Keys whose value may legitimately be an empty string (alternative text is checked with its
/// picture).
const MAY_BE_EMPTY: &[&str] = &["value", "image_alt", "avatar_alt"];

/// Checks the model; returns every raster picture it names, with where.
pub(crate) fn validate(loader: &mut Loader, content: &Content, public_dir: &Path) -> Vec<ImageRef> {
    let routes = Paths::of(content);
    let mut pictures = Vec::new();
    let mut checks = ImageChecks::new(public_dir);
    for (file, value) in files(content) {
        let mut walker = Walker {
            loader,
            file: &file,
            routes: &routes,
            checks: &mut checks,
            pictures: &mut pictures,
        };
        walker.walk(&value, "", None);
    }
    check_slugs(loader, content);
    check_preview_redirects_store(loader, content);
    check_cms(loader, content);
    check_hours_card(loader, content, &FixedPage::Contact.file());
    content.forms.check(loader);
    pictures
}

/// `site.yaml`'s `preview_redirects_store` is a KeyValueStore's ARN, read on preview hosts: the
/// build writes a function that needs it associated, so a mistake is found here, not at the
/// first preview's deploy.
fn check_preview_redirects_store(loader: &mut Loader, content: &Content) {
    let settings = &content.settings;
    let Some(arn) = &settings.preview_redirects_store else {
        return;
    };
    let problem = match arn.parse::<crate::deploy::kvs::KeyValueStore>() {
        Err(problem) => problem,
        Ok(_) if settings.preview_domain.is_none() => "the store holds the previews' own \
            redirects, read on preview hosts: name their domain too (`preview_domain: \
            preview.example.com`)"
            .to_owned(),
        Ok(_) => return,
    };
    loader.error(super::SITE_FILE, Some("preview_redirects_store"), problem);
}

/// `site.yaml`'s `cms`: what the editor of the live site is built with, where a mistake would
/// only show as an editor that cannot sign in or save.
fn check_cms(loader: &mut Loader, content: &Content) {
    let Some(cms) = &content.settings.cms else {
        return;
    };
    // GitHub's names: letters, digits, `-` (owners), also `.` and `_` (repositories).
    let name = |part: &str, extra: &[char]| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || extra.contains(&c))
    };
    if !matches!(cms.repo.split_once('/'), Some((owner, repo)) if name(owner, &[]) && name(repo, &['.', '_']))
    {
        let problem = format!(
            "`{}` is not a GitHub repository: write it as `owner/name` (`acme/website`)",
            cms.repo
        );
        loader.error(super::SITE_FILE, Some("cms.repo"), problem);
    }
    if cms.branch.trim().is_empty() || cms.branch.contains(char::is_whitespace) {
        let problem = format!("`{}` is not a branch name (`main`)", cms.branch);
        loader.error(super::SITE_FILE, Some("cms.branch"), problem);
    }
    if let Some(url) = &cms.base_url {
        let https = url::Url::parse(url)
            .is_ok_and(|u| u.scheme() == "https" && u.path() == "/" && !url.ends_with('/'));
        if !https {
            let problem = format!(
                "`{url}` is not the address of an OAuth proxy: write its https origin without \
                 a path (`https://cms-auth.example.com`)"
            );
            loader.error(super::SITE_FILE, Some("cms.base_url"), problem);
        }
    }
}

/// The contact page's phone card states the opening hours through `{hours}`, written from
/// `site.yaml`'s `contact.opening_hours`, never in its own words: the hours are stated once.
/// `file` is the contact page's file in the content's language (`pages/contact.et.yaml`).
pub(crate) fn check_hours_card(loader: &mut Loader, content: &Content, file: &str) {
    let description = &content.pages.contact.cards.phone.description;
    let stated = !content.settings.contact.opening_hours.is_empty();
    let message = match (stated, description.contains(HOURS)) {
        (true, false) => format!(
            "`{description}` does not say when to call: write `{HOURS}` where the opening hours \
             of site.yaml's `contact.opening_hours` go (`{HOURS} (EET)`)"
        ),
        (false, true) => format!(
            "`{HOURS}` stands for site.yaml's `contact.opening_hours`, which names none: state \
             them there or leave `{HOURS}` out"
        ),
        _ => return,
    };
    loader.error(file, Some("cards.phone.description"), message);
}

/// Where the phone card's description has the opening hours written in (see [`check_hours_card`]).
const HOURS: &str = "{hours}";

/// Each content file with the JSON form of the model read from it.
fn files(content: &Content) -> Vec<(String, Value)> {
    let mut files = vec![
        ("site.yaml".to_owned(), to_value(&content.settings)),
        ("countries.yaml".to_owned(), to_value(&content.countries)),
        ("forms.yaml".to_owned(), to_value(&content.forms)),
    ];
    for page in FixedPage::ALL {
        files.push((page.file(), content.pages.to_json(*page)));
    }
    if !content.authors.is_empty() {
        files.push((AUTHORS_FILE.to_owned(), to_value(&content.authors)));
    }
    for category in &content.services {
        files.push((
            format!("services/{}.yaml", category.slug),
            to_value(category),
        ));
    }
    files
}

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    // The model is plain data (strings, numbers, lists, structs): serialising cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The paths a link may name: the routes, and the old paths, which it should not.
struct Paths<'a> {
    routes: BTreeSet<&'a str>,
    redirects: HashMap<&'a str, &'a Target>,
    /// The pages this build leaves out (drafts, not yet due, expired), by path.
    unpublished: HashMap<&'a str, &'a super::publishing::Unpublished>,
}

impl<'a> Paths<'a> {
    fn of(content: &'a Content) -> Self {
        Self {
            routes: content.routes.iter().map(|r| r.path.as_str()).collect(),
            redirects: content
                .redirects
                .iter()
                .map(|r| (r.from.as_str(), &r.to))
                .collect(),
            unpublished: content
                .unpublished
                .iter()
                .map(|u| (u.path.as_str(), u))
                .collect(),
        }
    }
}

struct Walker<'a, 'p> {
    loader: &'a mut Loader,
    file: &'a str,
    routes: &'a Paths<'a>,
    checks: &'a mut ImageChecks<'p>,
    pictures: &'a mut Vec<ImageRef>,
}

/// The pictures one load has checked, by what was asked: [`check_image`] looks at the file
/// system (a stat, and a raster's header read), and the articles of an archive often share a
/// picture, which is then looked at once per load rather than once per article.
struct ImageChecks<'a> {
    public_dir: &'a Path,
    checked: HashMap<(String, String, Option<ImageUse>), Result<Checked, String>>,
}

impl<'a> ImageChecks<'a> {
    fn new(public_dir: &'a Path) -> Self {
        Self {
            public_dir,
            checked: HashMap::new(),
        }
    }

    /// [`check_image`] of `src`, or what it said when this load asked the same before.
    fn check(
        &mut self,
        content_dir: &Path,
        src: &str,
        what: &str,
        usage: Option<ImageUse>,
    ) -> Result<Checked, String> {
        self.checked
            .entry((src.to_owned(), what.to_owned(), usage))
            .or_insert_with(|| check_image(content_dir, self.public_dir, src, what, usage))
            .clone()
    }
}

impl Walker<'_, '_> {
    fn walk(&mut self, value: &Value, path: &str, key: Option<&str>) {
        match value {
            Value::Object(map) => {
                if let (Some(Value::String(title)), Some(Value::String(highlight))) =
                    (map.get("title"), map.get("highlight"))
                    && !title.contains(highlight.as_str())
                {
                    self.error(
                        &join(path, "highlight"),
                        format!("highlight `{highlight}` does not occur in the title `{title}`"),
                    );
                }
                self.alt_text(map, path);
                for (k, v) in map {
                    self.walk(v, &join(path, k), Some(k));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.walk(item, &format!("{path}[{i}]"), key);
                }
            }
            Value::String(text) => self.string(text, path, key.unwrap_or_default()),
            _ => {}
        }
    }

    fn string(&mut self, text: &str, path: &str, key: &str) {
        if text.trim().is_empty() {
            if !MAY_BE_EMPTY.contains(&key) {
                self.error(path, format!("`{key}` must not be empty"));
            }
        } else if LINK_KEYS.contains(&key) {
            self.link(text, path);
        } else if IMAGE_KEYS.contains(&key) {
            self.image(text, path, key);
        }
    }

    /// An entry with a picture says what it shows in `<key>_alt`, or says `decorative: true`
    /// (shown with empty alternative text), never both.
    fn alt_text(&mut self, map: &serde_json::Map<String, Value>, path: &str) {
        for key in DESCRIBED_IMAGE_KEYS {
            let Some(Value::String(src)) = map.get(*key) else {
                continue;
            };
            let alt_key = format!("{key}_alt");
            let alt = map
                .get(&alt_key)
                .and_then(Value::as_str)
                .unwrap_or_default();
            let decorative = map.get("decorative").and_then(Value::as_bool) == Some(true);
            match (alt.trim().is_empty(), decorative) {
                (true, false) => self.error(
                    &join(path, key),
                    format!(
                        "`{key}` `{src}` has no alternative text: add `{alt_key}` saying what it shows, or `decorative: true` when the words beside it say it all"
                    ),
                ),
                (false, true) => self.error(
                    &join(path, "decorative"),
                    format!(
                        "a decorative picture is shown with empty alternative text: remove `{alt_key}` or `decorative: true`"
                    ),
                ),
                _ => {}
            }
        }
        // Link previews read a page's own picture out: it always says what it shows.
        if let Some(Value::String(src)) = map.get("share_image") {
            let alt = map.get("share_image_alt").and_then(Value::as_str);
            if alt.is_none_or(|alt| alt.trim().is_empty()) {
                self.error(
                    &join(path, "share_image"),
                    format!(
                        "`share_image` `{src}` has no alternative text: add `share_image_alt` saying what it shows"
                    ),
                );
            }
        }
    }

    fn link(&mut self, href: &str, path: &str) {
        if let Some(problem) = link_problem(href, self.routes) {
            self.error(path, problem);
        }
    }

    fn image(&mut self, src: &str, path: &str, key: &str) {
        let usage = ImageUse::of_field(self.file, key);
        if usage == Some(ImageUse::Share) && !images::is_raster(src) {
            return self.error(
                path,
                format!(
                    "`{key}` `{src}` must be a JPEG, PNG or WebP under `/{}/`: link previews show no SVG",
                    images::SOURCE_DIR
                ),
            );
        }
        let what = format!("`{key}`");
        match self.checks.check(self.loader.root(), src, &what, usage) {
            Err(message) => self.error(path, message),
            Ok(Checked::Public(_)) => {}
            Ok(Checked::Raster(source, usage)) => {
                let position = self.loader.position(self.file, path);
                self.pictures.push(ImageRef {
                    src: src.to_owned(),
                    path: source,
                    usage,
                    file: self.loader.root().join(self.file),
                    line: position.map(|p| p.0),
                    column: position.map(|p| p.1),
                });
            }
        }
    }

    fn error(&mut self, path: &str, message: String) {
        self.loader.error(self.file, Some(path), message);
    }
}

/// A picture the content names, once checked.
#[derive(Debug, Clone)]
pub(crate) enum Checked {
    /// A file of `site/public`, published as it is.
    Public(PathBuf),
    /// A JPEG, PNG or WebP under `content/images/`, and where it is shown.
    Raster(PathBuf, ImageUse),
}

/// Checks the picture `src`, named by `what` (for the messages), shown as `usage` (`None`
/// where only an SVG fits). A file of `site/public` must exist; a raster source must be under
/// `content/images/`, readable, and wide enough for the narrowest width it is shown at. Its
/// pixels are decoded by the images stage, which reports a truncated file at the same place.
pub(crate) fn check_image(
    content_dir: &Path,
    public_dir: &Path,
    src: &str,
    what: &str,
    usage: Option<ImageUse>,
) -> Result<Checked, String> {
    if images::is_avif(src) {
        return Err(format!(
            "{what} `{src}` is an AVIF, which sitegen cannot read (its decoders need libdav1d 1.3, newer than Debian 12 has): name the JPEG, PNG or WebP it was made from; sitegen publishes an AVIF of it itself"
        ));
    }
    if !images::is_raster(src) {
        let Some(rel) = src.strip_prefix('/') else {
            return Err(format!(
                "{what} `{src}` must be a path under site/public starting with `/`"
            ));
        };
        let file = public_dir.join(rel);
        if rel.split('/').any(|part| part == "..") || !file.is_file() {
            return Err(format!(
                "{what} `{src}` does not exist: expected the file {}",
                file.display()
            ));
        }
        return Ok(Checked::Public(file));
    }
    let Some(usage) = usage else {
        return Err(format!(
            "{what} takes an SVG under site/public; `{src}` is a raster picture"
        ));
    };
    let Some(source) = images::source_path(content_dir, src) else {
        return Err(format!(
            "{what} `{src}` must be a path under `/{}/`, the folder content/{}",
            images::SOURCE_DIR,
            images::SOURCE_DIR
        ));
    };
    if !source.is_file() {
        return Err(format!(
            "{what} `{src}` does not exist: expected the file {}",
            source.display()
        ));
    }
    let (min_width, min_height) = usage.min_size();
    match images::shown_size(&source) {
        Err(err) => Err(format!("{what} `{src}` cannot be read as a picture: {err}")),
        Ok((width, _)) if width < min_width && min_height == 0 => Err(format!(
            "{what} `{src}` is {width} px wide; where it is shown it needs at least {min_width} px"
        )),
        Ok((width, height)) if width < min_width || height < min_height => Err(format!(
            "{what} `{src}` is {width} x {height} px; where it is shown it needs at least {min_width} x {min_height} px"
        )),
        Ok(_) => Ok(Checked::Raster(source, usage)),
    }
}

/// Checks the pictures of one article's body (`file`): each has alternative text and a file
/// as [`check_image`] wants it. Returns the photos to encode and the size of each SVG, by its
/// index in [`Article::body_images`].
fn check_body_images(
    loader: &mut Loader,
    file: &str,
    article: &Article,
    checks: &mut ImageChecks<'_>,
) -> (Vec<ImageRef>, Vec<(usize, PathBuf)>) {
    let mut photos = Vec::new();
    let mut public = Vec::new();
    for (n, image) in article.body_images.iter().enumerate() {
        if image.alt.is_empty() {
            loader.error_at(
                file,
                image.line,
                image.column,
                format!(
                    "image `{}` has no alternative text: say what it shows between the brackets, `![What it shows]({})`",
                    image.src, image.src
                ),
            );
        }
        let usage = Some(ImageUse::Body);
        match checks.check(loader.root(), &image.src, "image", usage) {
            Err(message) => loader.error_at(file, image.line, image.column, message),
            Ok(Checked::Public(path)) => public.push((n, path)),
            Ok(Checked::Raster(path, usage)) => photos.push(ImageRef {
                src: image.src.clone(),
                path,
                usage,
                file: loader.root().join(file),
                line: Some(image.line),
                column: Some(image.column),
            }),
        }
    }
    (photos, public)
}

/// What is wrong with a link, if anything: an internal path must be a route, not an old path
/// that redirects to one.
fn link_problem(href: &str, paths: &Paths<'_>) -> Option<String> {
    let routes = &paths.routes;
    if let Some(internal) = href.strip_prefix('/') {
        let route = internal.split(['#', '?']).next().unwrap_or_default();
        let route = format!("/{}", route.trim_end_matches('/'));
        if let Some(piece) = paths.unpublished.get(route.as_str()) {
            return Some(piece.link_problem(href));
        }
        if let Some(to) = paths.redirects.get(route.as_str()) {
            return Some(match to {
                Target::Page(target) | Target::Url(target) => format!(
                    "link `{href}` leads to an old path that redirects to `{target}`: link to `{target}` instead"
                ),
                Target::Gone => format!(
                    "link `{href}` leads to a page removed on purpose (`gone` in {REDIRECTS_FILE}): remove the link"
                ),
            });
        }
        if !routes.contains(route.as_str()) {
            let hint = closest(&route, routes)
                .map(|r| format!("; did you mean `{r}`?"))
                .unwrap_or_default();
            return Some(format!("link `{href}` leads to no page{hint}"));
        }
    } else if !(href.starts_with('#')
        || href.starts_with("https://")
        || href.starts_with("http://")
        || href.starts_with("mailto:")
        || href.starts_with("tel:"))
    {
        return Some(format!(
            "link `{href}` is neither a site path starting with `/` nor an absolute URL"
        ));
    }
    None
}

/// Checks the links a translator wrote in the bodies of `translation`'s articles (`links`, by
/// translation file): each leads to a page of some language, and not to a page of `source`'s
/// language that has a version in the translation's (`/contact` from an Estonian article,
/// where `/et/contact` exists), which would drop the reader out of their language.
pub(crate) fn check_translated_links(
    loader: &mut Loader,
    source: &Content,
    translation: &Content,
    links: &[(String, Vec<BodyLink>)],
) {
    let mut paths = Paths::of(source);
    paths
        .routes
        .extend(translation.routes.iter().map(|r| r.path.as_str()));
    paths
        .unpublished
        .extend((translation.unpublished.iter()).map(|u| (u.path.as_str(), u)));
    let local: HashMap<&super::routes::RouteKind, &str> = translation
        .routes
        .iter()
        .map(|r| (&r.kind, r.path.as_str()))
        .collect();
    // Each page's path in the source's language -> its path in the translation's.
    let versions: HashMap<String, String> = source
        .routes
        .iter()
        .filter_map(|r| Some((r.path.clone(), (*local.get(&r.kind)?).to_owned())))
        .collect();
    let (from, to) = (&source.settings.language, &translation.settings.language);
    for (file, body_links) in links {
        for link in body_links {
            let problem = link_problem(&link.href, &paths).or_else(|| {
                let version = super::i18n::local_href(&link.href, &versions)?;
                Some(format!(
                    "link `{}` leads to the `{from}` page, which has a version in `{to}`: link \
                     to `{version}`",
                    link.href
                ))
            });
            if let Some(problem) = problem {
                loader.error_at(file, link.line, link.column, problem);
            }
        }
    }
}

/// The pictures the articles name, once checked.
#[derive(Debug, Default)]
pub(crate) struct ArticleImages {
    /// The photos to encode: each article's image and those of its body.
    pub photos: Vec<ImageRef>,
    /// The files of `site/public` the bodies show: the article's index, the picture's index
    /// in its `body_images`, and the file.
    pub public: Vec<(usize, usize, PathBuf)>,
}

/// Checks what only the whole model can tell of each article: its author and category exist,
/// its images exist and have alternative text, the links of its body lead to pages. Errors
/// point into the article file.
pub(crate) fn validate_articles(
    loader: &mut Loader,
    content: &Content,
    links: &[(String, Vec<BodyLink>)],
    public_dir: &Path,
) -> ArticleImages {
    let mut pictures = Vec::new();
    let mut public = Vec::new();
    let routes = Paths::of(content);
    let categories: Vec<&str> = content.services.iter().map(|c| c.slug.as_str()).collect();
    let mut checks = ImageChecks::new(public_dir);
    for (index, article) in content.articles.iter().enumerate() {
        let file = format!("{ARTICLES_DIR}/{}.md", article.slug);
        if !is_slug(&article.slug) {
            loader.error(
                &file,
                None,
                format!(
                    "file name `{}` is not a valid slug: use lowercase letters, digits and single hyphens",
                    article.slug
                ),
            );
        }
        if let Err(message) = parse_date(&article.date) {
            loader.error(&file, Some("date"), message);
        }
        if !content.authors.contains_key(&article.author) {
            let known: Vec<&str> = content.authors.keys().map(String::as_str).collect();
            loader.error(
                &file,
                Some("author"),
                format!(
                    "unknown author `{}`; authors.yaml declares: {}",
                    article.author,
                    known.join(", ")
                ),
            );
        }
        if !categories.contains(&article.category.as_str()) {
            loader.error(
                &file,
                Some("category"),
                format!(
                    "unknown category `{}`; expected one of: {}",
                    article.category,
                    categories.join(", ")
                ),
            );
        }
        let fields = serde_json::json!({
            "title": article.title,
            "excerpt": article.excerpt,
            "image": article.image,
            "image_alt": article.image_alt,
            "decorative": article.decorative,
            "share_image": article.share_image,
            "share_image_alt": article.share_image_alt,
        });
        Walker {
            loader: &mut *loader,
            file: &file,
            routes: &routes,
            checks: &mut checks,
            pictures: &mut pictures,
        }
        .walk(&fields, "", None);
        let (photos, files) = check_body_images(loader, &file, article, &mut checks);
        pictures.extend(photos);
        public.extend(files.into_iter().map(|(n, path)| (index, n, path)));
    }
    for (file, body_links) in links {
        for link in body_links {
            if let Some(problem) = link_problem(&link.href, &routes) {
                loader.error_at(file, link.line, link.column, problem);
            }
        }
    }
    ArticleImages {
        photos: pictures,
        public,
    }
}

/// Whether `text` is a slug: lowercase ASCII words and digits joined by single `-`, the rule of
/// every name the content gives a file (an article, a service category, an uploaded picture).
pub(crate) fn is_slug(text: &str) -> bool {
    !text.is_empty()
        && text.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn check_slugs(loader: &mut Loader, content: &Content) {
    for category in &content.services {
        let file = format!("services/{}.yaml", category.slug);
        if !is_slug(&category.slug) {
            loader.error(
                &file,
                None,
                format!(
                    "file name `{}` is not a valid slug: use lowercase letters, digits and single hyphens",
                    category.slug
                ),
            );
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, sub) in category.sub_services.iter().enumerate() {
            let field = format!("sub_services[{i}].slug");
            if !is_slug(&sub.slug) {
                loader.error(
                    &file,
                    Some(&field),
                    format!(
                        "slug `{}` is not valid: use lowercase letters, digits and single hyphens",
                        sub.slug
                    ),
                );
            }
            if let Some(first) = seen.insert(&sub.slug, i) {
                loader.error(
                    &file,
                    Some(&field),
                    format!(
                        "duplicate slug `{}`: sub_services[{first}] already uses it",
                        sub.slug
                    ),
                );
            }
        }
    }
}
