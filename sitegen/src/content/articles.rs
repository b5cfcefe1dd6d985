//! Articles, one Markdown file each under `content/articles/<slug>.md`, and their authors
//! (`content/authors.yaml`).
//!
//! A file starts with YAML front matter between `---` lines, parsed by the same YAML function
//! as every other content file; its errors point at lines of the Markdown file. The body is
//! rendered to HTML here, at build time: GitHub tables, footnotes, heading ids, and fenced code
//! highlighted into `<span class="hl-…">` classes (the CSP allows no inline styles; the theme
//! is in the site's stylesheet).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;
use ts_rs::TS;

use super::images::Picture;
pub use super::loader::{ARTICLES_DIR, AUTHORS_FILE};
use super::loader::{Loader, Stamp};
/// The Atom feed of the articles, relative to the site root.
pub const FEED_FILE: &str = "feed.xml";
/// How many of the newest articles the feed carries, each with its full body: enough for any
/// reader that polls, without a feed that grows with the archive (a site of 5,000 articles
/// would otherwise publish 35 MB).
pub const FEED_ENTRIES: usize = 50;
/// Reading speed for the computed read time, in words per minute.
pub const WORDS_PER_MINUTE: usize = 200;
/// An article with at least this many `##`/`###` headings shows a table of contents.
pub const TOC_MIN_HEADINGS: usize = 3;
/// The prefix of the highlighting classes (`hl-keyword`, `hl-string`, ...).
pub const HIGHLIGHT_CLASS_PREFIX: &str = "hl-";
/// The `sizes` of a photo in an article body: the width of the article's column.
pub const BODY_PICTURE_SIZES: &str = "(min-width: 48rem) 44rem, 100vw";

/// Someone who writes articles, keyed by a slug in `content/authors.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize, TS, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Author {
    /// Full name.
    pub name: String,
    /// Role at the firm.
    pub role: String,
    /// Portrait: an SVG under `site/public` or a photo under `content/images`.
    pub avatar: String,
    /// The portrait's alternative text; leave it out with `decorative: true` (the name is
    /// shown beside it).
    #[serde(default)]
    pub avatar_alt: String,
    /// Whether the picture adds nothing the words beside it do not say: then it is shown
    /// with empty alternative text, and `avatar_alt` is left out.
    #[serde(default)]
    pub decorative: bool,
}

/// What kind of piece an article is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, TS, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ArticleType {
    /// An opinion or how-to article.
    Article,
    /// A client story.
    CaseStudy,
    /// A technical deep dive.
    Technical,
    /// A long-form research paper.
    Whitepaper,
}

impl ArticleType {
    /// Every type, in the order the filter offers them.
    pub const ALL: &'static [ArticleType] = &[
        ArticleType::Article,
        ArticleType::CaseStudy,
        ArticleType::Technical,
        ArticleType::Whitepaper,
    ];
}

/// The front matter as written: what an author fills in at the top of `articles/SLUG.md`.
///
/// Its JSON Schema is what the browser editor's article form is generated from
/// ([`front_matter_schema`], `sitegen cms config`).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    /// The article's heading.
    title: String,
    /// Two or three sentences: cards, meta description, feed summary.
    excerpt: String,
    /// Who wrote it: a key of `authors.yaml`.
    #[schemars(extend("x-sitegen-choices" = "authors"))]
    author: String,
    /// ISO date (`2024-03-14`).
    date: String,
    /// The service category it belongs to: a file name of `services/` without `.yaml`.
    #[schemars(extend("x-sitegen-choices" = "services"))]
    category: String,
    /// What kind of piece it is.
    #[serde(rename = "type")]
    kind: ArticleType,
    /// The illustration: an SVG under `site/public` or a photo under `content/images`.
    #[schemars(extend("x-sitegen-picture" = "image_alt"))]
    image: String,
    /// The illustration's alternative text; leave it out with `decorative: true`.
    #[serde(default)]
    image_alt: String,
    /// Whether the illustration adds nothing the title does not say: then it is shown with
    /// empty alternative text.
    #[serde(default)]
    decorative: bool,
    /// The picture link previews show instead of the article's card: a JPEG, PNG or WebP under
    /// `content/images` of at least 1200 x 630 pixels.
    #[serde(default)]
    share_image: Option<String>,
    /// What `share_image` shows; required with it.
    #[serde(default)]
    share_image_alt: Option<String>,
    /// Whether the Insights page shows it among the featured articles.
    #[serde(default)]
    featured: bool,
    /// Minutes of reading, when the one computed from the body is not right.
    #[serde(default)]
    read_time: Option<u32>,
    /// Old paths of the article (`/insights/old-slug`), each answered with a permanent
    /// redirect to it.
    #[serde(default)]
    aliases: Vec<String>,
    /// Whether it is a draft: left out of a production build, shown with a banner by
    /// `sitegen dev` and a preview build.
    #[serde(default)]
    draft: bool,
    /// When it is published: an RFC 3339 time with its offset (`2026-12-09T09:00:00+02:00`)
    /// or a date (`2026-12-09`, 00:00 in `site.yaml`'s `time_zone`).
    #[serde(default)]
    publish_at: Option<String>,
    /// When it is withdrawn, written as `publish_at`: from then on its path answers 410 Gone.
    #[serde(default)]
    expires_at: Option<String>,
}

/// The JSON Schema of an article's front matter, for the browser editor (`sitegen cms config`).
pub fn front_matter_schema() -> schemars::Schema {
    super::json_schema_of::<FrontMatter>()
}

/// The keys of an article's front matter in the model's order, a translation's own (`slug`)
/// last: the order a new article file is written in.
pub fn front_matter_keys() -> Vec<&'static str> {
    let mut keys = super::declared_keys::<FrontMatter>().to_vec();
    keys.extend(super::declared_keys::<TranslatedFrontMatter>());
    keys
}

/// The JSON Schema of what a translation's front matter adds to its source's words.
pub fn translated_front_matter_schema() -> schemars::Schema {
    super::json_schema_of::<TranslatedFrontMatter>()
}

/// One entry of an article's table of contents.
#[derive(Debug, Clone, PartialEq, Hash, Eq, Deserialize, Serialize, TS)]
pub struct TocEntry {
    /// The heading's `id`.
    pub id: String,
    /// The heading's text.
    pub text: String,
    /// 2 for `##`, 3 for `###`.
    pub level: u8,
}

/// An article, with its body rendered.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, Serialize, TS)]
pub struct Article {
    /// From the file name (`generative-ai-enterprise`).
    pub slug: String,
    /// The article's heading.
    pub title: String,
    /// Two or three sentences: cards, meta description, feed summary.
    pub excerpt: String,
    /// A key of the authors.
    pub author: String,
    /// ISO date (`2024-03-14`).
    pub date: String,
    /// The date as the site shows it in its language (`March 14, 2024`, `14. märts 2024`):
    /// `dates` of `site.yaml`.
    pub date_display: String,
    /// A service category's slug.
    pub category: String,
    /// What kind of piece it is.
    #[serde(rename = "type")]
    pub kind: ArticleType,
    /// The illustration: an SVG under `site/public` or a photo under `content/images`.
    pub image: String,
    /// The illustration's alternative text; empty when it is decorative.
    pub image_alt: String,
    /// Whether the illustration adds nothing the title does not say (`decorative: true`):
    /// then it is shown with empty alternative text.
    pub decorative: bool,
    /// The picture link previews show instead of the article's card (see
    /// [`super::common::Meta::share_image`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub share_image: Option<String>,
    /// What `share_image` shows; required with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub share_image_alt: Option<String>,
    /// Whether the Insights page shows it among the featured articles.
    pub featured: bool,
    /// Old paths of the article (`/insights/old-slug`), each answered with a permanent
    /// redirect to it (see [`super::common::Meta::aliases`]).
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub aliases: Vec<String>,
    /// Whether the article is a draft (see [`super::common::Meta::draft`]).
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub draft: bool,
    /// When it is published (see [`super::common::Meta::publish_at`]).
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub publish_at: Option<String>,
    /// When it is withdrawn (see [`super::common::Meta::expires_at`]).
    #[serde(default, skip_serializing)]
    #[ts(skip)]
    pub expires_at: Option<String>,
    /// Minutes, as written or computed from the body at [`WORDS_PER_MINUTE`].
    pub read_time: u32,
    /// The body as HTML. Its photos are placed by the images stage: until then each raster
    /// picture of [`Article::body_images`] is a [`BodyImage::marker`]. Shared, not copied,
    /// with a memo of parsed articles (`sitegen dev`).
    pub html: Arc<str>,
    /// The body as plain text, for the search index.
    pub text: Arc<str>,
    /// The `##`/`###` headings, when there are at least [`TOC_MIN_HEADINGS`]; else empty.
    pub toc: Vec<TocEntry>,
    /// A translation's own slug (`slug:` in `SLUG.et.md`), the last part of its path in that
    /// language; `slug` stays the source's, which names the article in every language.
    #[serde(skip)]
    #[ts(skip)]
    pub local_slug: Option<String>,
    /// The pictures of the body (`![alt](/images/chart.png)`), in order, with where they are
    /// written.
    #[serde(skip)]
    #[ts(skip)]
    pub body_images: Vec<BodyImage>,
}

/// A picture of an article body, with where it is written in the article file.
#[derive(Debug, Clone, PartialEq, Hash, Eq)]
pub struct BodyImage {
    /// As written: `/images/insights/chart.png` (a photo) or an SVG under `site/public`.
    pub src: String,
    /// Its alternative text: what the brackets hold.
    pub alt: String,
    /// 1-based line in the article file.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl BodyImage {
    /// What stands in the rendered body for the `n`th picture until its markup is known. An
    /// HTML comment cannot come from the Markdown: raw HTML there is escaped.
    pub fn marker(n: usize) -> String {
        format!("<!--sitegen-image-{n}-->")
    }
}

impl Article {
    /// Puts `html` in place of the marker of the `n`th picture of the body.
    pub fn place_body_image(&mut self, n: usize, html: &str) {
        self.html = self.html.replacen(&BodyImage::marker(n), html, 1).into();
    }
}

/// `<img>` markup of a picture of the body published as it is (an SVG), with its size when
/// known so it takes no layout shift.
pub fn plain_image_html(src: &str, alt: &str, size: Option<(u32, u32)>) -> String {
    let size = size
        .map(|(w, h)| format!(" width=\"{w}\" height=\"{h}\""))
        .unwrap_or_default();
    format!(
        "<img src=\"{}\" alt=\"{}\"{size} loading=\"lazy\" decoding=\"async\">",
        escape_html(src),
        escape_html(alt)
    )
}

/// `<picture>` markup of a photo of the body, as `site/components/ui/Picture.tsx` draws one
/// below the fold: AVIF and WebP sources, the fallback's `srcset`, its own size (no layout
/// shift), lazy loading, and its blurred preview behind it (styled by `.article-body`).
pub fn picture_html(picture: &Picture, alt: &str) -> String {
    let sizes = BODY_PICTURE_SIZES;
    let mut html = String::from("<span class=\"body-picture\">");
    if !picture.placeholder.is_empty() {
        html.push_str(&format!(
            "{PREVIEW_START}src=\"{}\" alt=\"\" aria-hidden=\"true\">",
            escape_html(&picture.placeholder)
        ));
    }
    html.push_str("<picture>");
    for source in &picture.sources {
        html.push_str(&format!(
            "<source type=\"{}\" srcset=\"{}\" sizes=\"{sizes}\">",
            escape_html(&source.mime),
            escape_html(&source.srcset)
        ));
    }
    html.push_str(&format!(
        "<img src=\"{}\" srcset=\"{}\" sizes=\"{sizes}\" alt=\"{}\" width=\"{}\" height=\"{}\" loading=\"lazy\" decoding=\"async\"></picture></span>",
        escape_html(&picture.src),
        escape_html(&picture.srcset),
        escape_html(alt),
        picture.width,
        picture.height
    ));
    html
}

/// The opening of a photo's blurred preview in [`picture_html`].
const PREVIEW_START: &str = "<img class=\"body-picture-preview\" ";

/// `html` (a body) without its photos' blurred previews: outside the site's stylesheet, in a
/// feed reader, a preview would show as a small blurred copy above its photo.
pub fn without_previews(html: &str) -> std::borrow::Cow<'_, str> {
    if !html.contains(PREVIEW_START) {
        return html.into();
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find(PREVIEW_START) {
        out.push_str(&rest[..start]);
        // Attribute values are escaped: the tag ends at the first `>`.
        let end = rest[start..]
            .find('>')
            .map_or(rest.len(), |i| start + i + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.into()
}

/// A link in an article body, with where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BodyLink {
    pub href: String,
    pub line: usize,
    pub column: usize,
}

/// The articles and, per article file, the links of its body (checked once routes exist).
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    pub articles: Vec<Article>,
    pub links: Vec<(String, Vec<BodyLink>)>,
}

/// What reading one article file gave: its loader's findings (and the text they point into)
/// and, when it parsed, the article with the links of its body.
#[derive(Debug, Clone)]
struct ParsedFile {
    own: Loader,
    parsed: Option<(Article, Vec<BodyLink>)>,
}

/// The article files an earlier load parsed, by file name, each with the [`Stamp`] of the
/// version it read: a reader that loads the content again and again (`sitegen dev`) parses
/// only the files written since, instead of every article on every save.
#[derive(Debug, Default)]
pub struct ArticleMemo {
    files: HashMap<String, (Stamp, ParsedFile)>,
    /// Whether the articles go without their [`Article::text`] (see [`ArticleMemo::for_pages`]).
    without_text: bool,
}

impl ArticleMemo {
    /// A memo for a reader that renders pages and builds no search index (`sitegen dev`): the
    /// articles it hands out have an empty [`Article::text`], which it does not hold either.
    pub fn for_pages() -> Self {
        Self {
            without_text: true,
            ..Self::default()
        }
    }

    /// Forgets what was parsed from `name` (`SLUG.md`), whatever its stamp says: for a file the
    /// file watcher saw written.
    pub fn forget(&mut self, name: &str) {
        self.files.remove(name);
    }

    /// How many article files it remembers.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether it remembers no article file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Reads every `articles/*.md`, newest first (then by slug). With a memo, a file whose stamp
/// has not changed since the memo's load is taken from it rather than parsed again, and the
/// memo is brought up to date.
pub(crate) fn load(loader: &mut Loader, memo: Option<&mut ArticleMemo>) -> Loaded {
    let dir = loader.root().join(ARTICLES_DIR);
    let (translations, mut names): (Vec<String>, Vec<String>) = loader
        .files()
        .iter()
        .filter_map(|rel| rel.strip_prefix(ARTICLES_DIR)?.strip_prefix('/'))
        .filter(|name| !name.contains('/') && name.ends_with(".md"))
        .map(str::to_owned)
        .partition(|name| super::translate::is_translation(name));
    names.sort();
    // An article exists in another language only where it is translated: an untranslated
    // article shown under `/et/` would be a copy of the English page that search engines treat
    // as a thin duplicate (and readers as a broken promise), so it is not published there.
    if let Some(tag) = loader.language() {
        let translations: HashSet<String> = translations.into_iter().collect();
        names.retain(|name| translations.contains(&super::translate::translation_file(name, tag)));
    }
    let remembered = memo.as_deref();
    let without_text = remembered.is_some_and(|memo| memo.without_text);
    // Each article is read, parsed and highlighted on its own thread, with a loader of its own
    // whose findings join the main one's in file order.
    let parsed: Vec<(String, Option<Stamp>, ParsedFile, bool)> = names
        .par_iter()
        .map(|name| {
            let path = dir.join(name);
            // Stamped before it is read: a write after this is seen at the next load.
            let stamp = remembered.and_then(|_| Stamp::of(&path));
            if let Some((_, known)) = remembered
                .and_then(|memo| memo.files.get(name))
                .filter(|(was, _)| Some(*was) == stamp)
            {
                return (name.clone(), stamp, known.clone(), false);
            }
            let mut own = loader.fork();
            let rel = format!("{ARTICLES_DIR}/{name}");
            let mut parsed = match std::fs::read_to_string(&path) {
                Ok(text) => {
                    let slug = name.trim_end_matches(".md").to_owned();
                    match own.language().map(str::to_owned) {
                        None => parse_file(&mut own, &rel, slug, &text, None),
                        Some(tag) => {
                            let translation = super::translate::translation_file(&rel, &tag);
                            match std::fs::read_to_string(
                                dir.join(super::translate::translation_file(name, &tag)),
                            ) {
                                Ok(words) => parse_file(
                                    &mut own,
                                    &rel,
                                    slug,
                                    &text,
                                    Some((translation.as_str(), words.as_str())),
                                ),
                                Err(err) => {
                                    own.error(&translation, None, format!("cannot be read: {err}"));
                                    None
                                }
                            }
                        }
                    }
                }
                Err(err) => {
                    own.error(&rel, None, format!("cannot be read: {err}"));
                    None
                }
            };
            if let (Some((article, _)), true) = (&mut parsed, without_text) {
                article.text = Arc::default();
            }
            (name.clone(), stamp, ParsedFile { own, parsed }, true)
        })
        .collect();
    if let Some(memo) = memo {
        memo.files
            .retain(|name, _| names.binary_search(name).is_ok());
        for (name, stamp, file, new) in &parsed {
            if let (Some(stamp), true) = (stamp, new) {
                memo.files.insert(name.clone(), (*stamp, file.clone()));
            }
        }
    }
    let mut loaded = Loaded::default();
    for (name, _, ParsedFile { own, parsed }, _) in parsed {
        loader.absorb(own);
        if let Some((article, links)) = parsed {
            // The file the links were written in: a translation's own.
            let rel = format!("{ARTICLES_DIR}/{name}");
            let rel = match loader.language() {
                Some(tag) => super::translate::translation_file(&rel, tag),
                None => rel,
            };
            loaded.links.push((rel, links));
            loaded.articles.push(article);
        }
    }
    loaded
        .articles
        .sort_by(|a, b| b.date.cmp(&a.date).then_with(|| a.slug.cmp(&b.slug)));
    loaded
}

/// Splits `---\n<yaml>---\n<body>`: the YAML, the line it starts on (1-based) and the body
/// with the line it starts on.
fn split_front_matter(text: &str) -> Option<(&str, usize, &str, usize)> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let yaml = &rest[..offset];
            let body = &rest[offset + line.len()..];
            let yaml_lines = yaml.matches('\n').count();
            return Some((yaml, 2, body, 2 + yaml_lines + 1));
        }
        offset += line.len();
    }
    None
}

/// The front matter of a translation besides the source's words: its own slug.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct TranslatedFrontMatter {
    /// The last part of the translation's path (`/et/insights/SLUG`), in its own language;
    /// the file keeps the source's name.
    #[serde(default)]
    slug: Option<String>,
}

/// Reads the article `rel` from its `text`; with `translation` (its file and text), the
/// translation's front matter laid over the source's and the translation's body.
pub(crate) fn parse_file(
    loader: &mut Loader,
    rel: &str,
    slug: String,
    text: &str,
    translation: Option<(&str, &str)>,
) -> Option<(Article, Vec<BodyLink>)> {
    let no_front_matter = |loader: &mut Loader, rel: &str| {
        loader.error(
            rel,
            None,
            "no front matter: start the file with a `---` line, the YAML fields, and a closing `---` line"
                .into(),
        );
    };
    let Some((yaml, yaml_line, body, body_line)) = split_front_matter(text) else {
        no_front_matter(loader, rel);
        return None;
    };
    let (front, local_slug, body, body_line, rel): (FrontMatter, _, _, _, &str) = match translation
    {
        None => (
            loader.parse_at(rel, yaml.to_owned(), yaml_line - 1)?,
            None,
            body,
            body_line,
            rel,
        ),
        Some((file, words)) => {
            let Some((t_yaml, t_line, t_body, t_body_line)) = split_front_matter(words) else {
                no_front_matter(loader, file);
                return None;
            };
            let (front, own): (FrontMatter, _) = loader.parse_translated(
                rel,
                yaml.to_owned(),
                file,
                t_yaml.to_owned(),
                t_line - 1,
                &["slug"],
            )?;
            let local: TranslatedFrontMatter = match super::yaml::from_value(own) {
                Ok(local) => local,
                Err(err) => {
                    loader.error(file, Some("slug"), err.message);
                    return None;
                }
            };
            (front, local.slug, t_body, t_body_line, file)
        }
    };
    // Written in the site's language once the settings are read (`Content::load`); a bad date
    // is reported with the other field checks (validate.rs).
    let date_display = String::new();
    if front.read_time == Some(0) {
        loader.error(
            rel,
            Some("read_time"),
            "`read_time` must be at least 1 minute; remove it to compute it from the body".into(),
        );
    }
    let rendered = render_markdown(body);
    let at = |offset: usize| {
        let (line, column) = line_col(body, offset);
        (body_line + line - 1, column)
    };
    let links = rendered
        .links
        .into_iter()
        .map(|(href, offset)| {
            let (line, column) = at(offset);
            BodyLink { href, line, column }
        })
        .collect();
    let body_images = rendered
        .images
        .into_iter()
        .map(|(src, alt, offset)| {
            let (line, column) = at(offset);
            BodyImage {
                src,
                alt,
                line,
                column,
            }
        })
        .collect();
    let read_time = front
        .read_time
        .unwrap_or_else(|| read_time_minutes(rendered.words));
    let toc = if rendered.headings.len() >= TOC_MIN_HEADINGS {
        rendered.headings
    } else {
        Vec::new()
    };
    Some((
        Article {
            slug,
            title: front.title,
            excerpt: front.excerpt,
            author: front.author,
            date: front.date,
            date_display,
            category: front.category,
            kind: front.kind,
            image: front.image,
            image_alt: front.image_alt,
            decorative: front.decorative,
            share_image: front.share_image,
            share_image_alt: front.share_image_alt,
            featured: front.featured,
            aliases: front.aliases,
            draft: front.draft,
            publish_at: front.publish_at,
            expires_at: front.expires_at,
            read_time,
            html: rendered.html.into(),
            text: rendered.text.into(),
            toc,
            local_slug,
            body_images,
        },
        links,
    ))
}

/// Minutes to read `words` at [`WORDS_PER_MINUTE`], rounded up, at least one.
pub fn read_time_minutes(words: usize) -> u32 {
    u32::try_from(words.div_ceil(WORDS_PER_MINUTE).max(1)).unwrap_or(u32::MAX)
}

/// `2024-03-14` as its year, month (1-12) and day, or why it is not an ISO date.
pub fn parse_date(iso: &str) -> Result<(u32, usize, u32), String> {
    let bad = || format!("date `{iso}` is not an ISO date such as 2024-03-14");
    let parts: Vec<&str> = iso.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return Err(bad());
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return Err(bad());
    }
    let (Ok(year), Ok(month), Ok(day)) = (y.parse::<u32>(), m.parse::<usize>(), d.parse::<u32>())
    else {
        return Err(bad());
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return Err(format!("date `{iso}` has no month {month}")),
    };
    if day == 0 || day > days {
        return Err(format!("date `{iso}` has no day {day} in that month"));
    }
    Ok((year, month, day))
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// A Markdown body rendered to HTML.
#[derive(Debug, Default)]
pub struct Rendered {
    /// The HTML.
    pub html: String,
    /// The text, without markup.
    pub text: String,
    /// How many words the text has.
    pub words: usize,
    /// The `##` and `###` headings.
    pub headings: Vec<TocEntry>,
    /// Every link destination, with its byte offset in the body.
    pub links: Vec<(String, usize)>,
    /// Every picture: its source, its alternative text and its byte offset in the body. The
    /// HTML holds the `n`th one's [`BodyImage::marker`] in its place.
    pub images: Vec<(String, String, usize)>,
}

fn syntaxes() -> &'static SyntaxSet {
    static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();
    SYNTAXES.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Renders a CommonMark body with GitHub tables, footnotes, strikethrough, heading ids and
/// highlighted fenced code.
pub fn render_markdown(body: &str) -> Rendered {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = Rendered::default();
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut heading: Option<(HeadingLevel, Option<CowStr<'_>>, Vec<Event<'_>>, String)> = None;
    let mut code: Option<(String, String)> = None;
    let mut image: Option<(String, String, usize)> = None;
    for (event, range) in Parser::new_ext(body, options).into_offset_iter() {
        // A picture's alternative text is its inner text; the picture itself becomes a
        // marker, replaced once its file is checked (and, for a photo, encoded).
        if let Some((_, alt, _)) = &mut image {
            match event {
                Event::End(TagEnd::Image) => {
                    if let Some((src, alt, offset)) = image.take() {
                        let marker = Event::Html(BodyImage::marker(out.images.len()).into());
                        out.images.push((src, alt.trim().to_owned(), offset));
                        match &mut heading {
                            Some((_, _, inner, _)) => inner.push(marker),
                            None => events.push(marker),
                        }
                    }
                }
                Event::Text(text) | Event::Code(text) => alt.push_str(&text),
                Event::SoftBreak | Event::HardBreak => alt.push(' '),
                _ => {}
            }
            continue;
        }
        if let Event::Start(Tag::Image { dest_url, .. }) = &event {
            image = Some((dest_url.to_string(), String::new(), range.start));
            continue;
        }
        if let Some((lang, source)) = &mut code {
            match event {
                Event::Text(text) => source.push_str(&text),
                Event::End(TagEnd::CodeBlock) => {
                    out.text.push_str(source);
                    out.text.push('\n');
                    events.push(Event::Html(highlight(source, lang).into()));
                    code = None;
                }
                _ => {}
            }
            continue;
        }
        if let Some((level, id, inner, text)) = &mut heading {
            if let Event::End(TagEnd::Heading(_)) = event {
                let id = id.take().map(|id| id.to_string()).unwrap_or_else(|| {
                    let base = slugify(text);
                    let n = ids.entry(base.clone()).or_insert(0);
                    *n += 1;
                    if *n == 1 { base } else { format!("{base}-{n}") }
                });
                if matches!(level, HeadingLevel::H2 | HeadingLevel::H3) {
                    out.headings.push(TocEntry {
                        id: id.clone(),
                        text: text.trim().to_owned(),
                        level: if *level == HeadingLevel::H2 { 2 } else { 3 },
                    });
                }
                events.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(id.into()),
                    classes: Vec::new(),
                    attrs: Vec::new(),
                }));
                events.append(inner);
                events.push(event);
                out.text.push_str(text);
                out.text.push('\n');
                heading = None;
            } else {
                if let Event::Text(t) | Event::Code(t) = &event {
                    text.push_str(t);
                }
                inner.push(event);
            }
            continue;
        }
        match event {
            Event::Start(Tag::Heading { level, id, .. }) => {
                heading = Some((level, id, Vec::new(), String::new()));
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((lang, String::new()));
            }
            // A wide table scrolls inside its own box; focusable so keyboards can scroll it.
            Event::Start(Tag::Table(_)) => {
                events.push(Event::Html(
                    "<div class=\"table-scroll\" tabindex=\"0\">".into(),
                ));
                events.push(event);
            }
            Event::End(TagEnd::Table) => {
                events.push(event);
                events.push(Event::Html("</div>\n".into()));
            }
            Event::Start(Tag::Link { ref dest_url, .. }) => {
                out.links.push((dest_url.to_string(), range.start));
                events.push(event);
            }
            Event::Text(ref text) | Event::Code(ref text) => {
                out.text.push_str(text);
                events.push(event);
            }
            Event::SoftBreak | Event::HardBreak => {
                out.text.push(' ');
                events.push(event);
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell) => {
                out.text.push('\n');
                events.push(event);
            }
            // Raw HTML in an article would bypass the checks and the CSP's intent: show it as text.
            Event::Html(html) | Event::InlineHtml(html) => events.push(Event::Text(html)),
            other => events.push(other),
        }
    }
    pulldown_cmark::html::push_html(&mut out.html, events.into_iter());
    // The text as the events gave it: the search index splits it into words itself.
    out.words = count_words(&out.text);
    out
}

/// How many words `text` has: the pieces `str::split_whitespace` splits it into, which decodes
/// every character and branches at both ends of every word (a fifth of loading 5,000
/// articles). ASCII text, nearly every article's, is counted as the places where a byte that
/// is not white space follows one that is, without a branch.
fn count_words(text: &str) -> usize {
    if !text.is_ascii() {
        return text.split_whitespace().count();
    }
    // White space as `split_whitespace` takes it (`u8::is_ascii_whitespace` leaves out the
    // vertical tab).
    let space = |byte: u8| char::from(byte).is_whitespace();
    let bytes = text.as_bytes();
    let starts_with_word = bytes.first().is_some_and(|&byte| !space(byte));
    usize::from(starts_with_word)
        + bytes
            .windows(2)
            .filter(|pair| space(pair[0]) && !space(pair[1]))
            .count()
}

/// A heading's text as an id: lowercase ASCII letters and digits joined by single hyphens.
fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.extend(word.chars().flat_map(char::to_lowercase));
    }
    if slug.is_empty() {
        "section".into()
    } else {
        slug
    }
}

/// `<pre class="code"><code>` with `hl-` classes for a known language, else escaped text.
fn highlight(source: &str, lang: &str) -> String {
    let set = syntaxes();
    let syntax = (!lang.is_empty())
        .then(|| set.find_syntax_by_token(lang))
        .flatten();
    let inner = match syntax {
        Some(syntax) => {
            let mut generator = ClassedHTMLGenerator::new_with_class_style(
                syntax,
                set,
                ClassStyle::SpacedPrefixed {
                    prefix: HIGHLIGHT_CLASS_PREFIX,
                },
            );
            let mut ok = true;
            for line in LinesWithEndings::from(source) {
                if generator
                    .parse_html_for_line_which_includes_newline(line)
                    .is_err()
                {
                    ok = false;
                    break;
                }
            }
            if ok {
                generator.finalize()
            } else {
                escape_html(source)
            }
        }
        None => escape_html(source),
    };
    let lang_attr = if lang.is_empty() {
        String::new()
    } else {
        format!(" data-lang=\"{}\"", escape_html(lang))
    };
    // Focusable so keyboard users can scroll a wide block (axe: scrollable-region-focusable).
    format!("<pre class=\"code\" tabindex=\"0\"{lang_attr}><code>{inner}</code></pre>\n")
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Reads `authors.yaml`.
pub(crate) fn load_authors(loader: &mut Loader) -> Option<BTreeMap<String, Author>> {
    loader.file(AUTHORS_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The article's header photo is drawn by the page, in the same column as the body's
    /// pictures: its `sizes` is this one, written there once more and held to it here.
    #[test]
    fn the_header_photo_is_sized_like_the_pictures_of_the_body() {
        let page = include_str!("../../../site/pages/insights/@slug/+Page.tsx");
        assert!(
            page.contains(&format!("sizes=\"{BODY_PICTURE_SIZES}\"")),
            "site/pages/insights/@slug/+Page.tsx sizes its photo differently from BODY_PICTURE_SIZES"
        );
    }

    #[test]
    fn tables_footnotes_and_heading_ids_render() {
        let out = render_markdown(
            "## Why it matters\n\nText[^1].\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n## Why it matters\n\n[^1]: A note.\n",
        );
        assert!(
            out.html
                .contains("<h2 id=\"why-it-matters\">Why it matters</h2>")
        );
        assert!(out.html.contains("<h2 id=\"why-it-matters-2\">"));
        assert!(
            out.html
                .contains("<div class=\"table-scroll\" tabindex=\"0\"><table>")
        );
        assert!(out.html.contains("<td>1</td>"));
        assert!(out.html.contains("class=\"footnote-definition\""));
        assert_eq!(out.headings.len(), 2);
    }

    #[test]
    fn fenced_code_is_highlighted_with_classes_not_styles() {
        let out = render_markdown("```rust\nfn main() { let x = \"hi\"; }\n```\n");
        assert!(
            out.html
                .contains("<pre class=\"code\" tabindex=\"0\" data-lang=\"rust\">")
        );
        assert!(out.html.contains("class=\"hl-"), "{}", out.html);
        assert!(out.html.contains("hl-keyword"), "{}", out.html);
        assert!(out.html.contains("hl-string"), "{}", out.html);
        assert!(!out.html.contains("style="));
    }

    #[test]
    fn unknown_languages_and_raw_html_are_escaped() {
        let out = render_markdown("```nolang\n<b>x</b>\n```\n\n<script>alert(1)</script>\n");
        assert!(out.html.contains("&lt;b&gt;x&lt;/b&gt;"));
        assert!(!out.html.contains("<script>"));
    }

    proptest::proptest! {
        /// The words counted are those `split_whitespace` finds, whatever the white space:
        /// ASCII's (the text counted a byte at a time), and Unicode's among other characters
        /// (no-break and ideographic spaces, line separators, a zero-width space that is none).
        #[test]
        fn words_are_counted_as_split_whitespace_splits_them(
            ascii in "[a-z\\t\\n\\x0b\\x0c\\r .,]{0,40}",
            unicode in "([a-zõäöü€\\t\\n\\x0b\\x0c\\r \\u{85}\\u{a0}\\u{1680}\\u{2003}\\u{2028}\\u{202f}\\u{3000}\\u{200b}]{0,12}){0,8}"
        ) {
            for text in [&ascii, &unicode] {
                proptest::prop_assert_eq!(count_words(text), text.split_whitespace().count());
            }
        }
    }

    #[test]
    fn read_time_is_words_over_two_hundred_rounded_up() {
        assert_eq!(read_time_minutes(0), 1);
        assert_eq!(read_time_minutes(200), 1);
        assert_eq!(read_time_minutes(201), 2);
        assert_eq!(read_time_minutes(1_000), 5);
        let body = "word ".repeat(450);
        assert_eq!(read_time_minutes(render_markdown(&body).words), 3);
    }

    #[test]
    fn dates_are_checked_as_iso_dates() {
        assert_eq!(parse_date("2024-03-14"), Ok((2024, 3, 14)));
        assert_eq!(parse_date("2024-02-29"), Ok((2024, 2, 29)));
        assert!(parse_date("2023-02-29").is_err());
        assert!(parse_date("14.03.2024").is_err());
        assert!(parse_date("2024-13-01").is_err());
    }

    #[test]
    fn links_carry_their_position() {
        let out = render_markdown("Intro.\n\nSee [the team](/about) now.\n");
        assert_eq!(out.links, vec![("/about".to_owned(), 12)]);
        assert_eq!(
            line_col("Intro.\n\nSee [the team](/about) now.\n", 12),
            (3, 5)
        );
    }

    #[test]
    fn pictures_become_markers_with_their_alt_text_and_position() {
        let body = "Intro.\n\n![A *chart*](/images/a.png \"title\")\n\n## See ![icon](/b.svg)\n";
        let out = render_markdown(body);
        assert_eq!(
            out.images,
            vec![
                ("/images/a.png".to_owned(), "A chart".to_owned(), 8),
                ("/b.svg".to_owned(), "icon".to_owned(), 52),
            ]
        );
        assert!(
            out.html
                .starts_with("<p>Intro.</p>\n<p><!--sitegen-image-0--></p>\n<h2 id=\"see\">See <!--sitegen-image-1--></h2>"),
            "{}",
            out.html
        );
        assert!(!out.html.contains("<img"), "{}", out.html);
        assert_eq!(line_col(body, 52), (5, 8));
    }

    #[test]
    fn a_feed_body_keeps_its_photos_without_their_previews() {
        let picture = Picture {
            width: 900,
            height: 600,
            placeholder: "data:image/webp;base64,AAAA".into(),
            sources: Vec::new(),
            srcset: "/img/a-480.1.jpg 480w".into(),
            src: "/img/a-480.1.jpg".into(),
        };
        let html = format!("<p>{}</p>", picture_html(&picture, "A chart"));
        assert!(html.contains("data:image/webp"), "{html}");
        let fed = without_previews(&html);
        assert!(!fed.contains("data:image/webp"), "{fed}");
        assert!(
            fed.starts_with(
                "<p><span class=\"body-picture\"><picture><img src=\"/img/a-480.1.jpg\""
            ),
            "{fed}"
        );
        assert!(matches!(
            without_previews("<p>x</p>"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn front_matter_is_split_with_line_numbers() {
        let (yaml, yaml_line, body, body_line) =
            split_front_matter("---\na: 1\nb: 2\n---\n\nBody\n").expect("splits");
        assert_eq!((yaml, yaml_line), ("a: 1\nb: 2\n", 2));
        assert_eq!((body, body_line), ("\nBody\n", 5));
    }
}
