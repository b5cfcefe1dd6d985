//! The editor's preview in `sitegen dev`: the content as a build would load it with the entry
//! being edited in it, for the site's own page components to render.
//!
//! The editor sends the entry as it holds it (`{collection, slug, locale, data}`: an article's
//! front matter fields and its `body`, or a page's or a service category's fields as the
//! editor shows them). The entry is written, as a save would write it, into a copy
//! of the content directory, and the copy is loaded with the same loader and validation as
//! `sitegen validate` and `sitegen dev` (drafts and scheduled pieces shown). The answer is the
//! entry's language of that content, as the content JSON of a build has it: the Markdown body
//! rendered by sitegen's renderer (heading ids, table of contents, highlighted code, rewritten
//! links), the read time, the dates in the language's words. The site turns it into the page's
//! data with the page's own `+data` code (`site/lib/devPreview.ts`), so nothing of a build is
//! done a second time in TypeScript.
//!
//! An entry that does not validate yet is answered with its mistakes (`file:line:col:
//! message`), for the pane to show over the last page it could render.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use serde_yaml::Value;

use super::local;
use crate::content::{self, Content, FixedPage, articles};

/// Where the dev server asks for a preview, beside the proxy protocol's
/// [`super::LOCAL_PROXY_URL`].
pub const PREVIEW_URL: &str = "/admin/preview";

/// One entry as the editor holds it while the author types.
#[derive(Debug, Clone, Deserialize)]
pub struct Request {
    /// The editor's collection (`articles`).
    pub collection: String,
    /// The entry's slug: for an article, its source file's name without `.md`, in every
    /// language.
    pub slug: String,
    /// The language previewed (`en`, `et`); the default language when not named.
    #[serde(default)]
    pub locale: Option<String>,
    /// The entry's fields in that language, the Markdown body as `body`.
    pub data: Json,
}

/// The answer: the content to render the entry's page from, or why there is none.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Preview {
    /// The entry's language of the content with the entry in it, without the other languages.
    Page {
        /// The kind of the entry's page (`article`, `about`, `service-category`), for the site
        /// to find its route and its page component.
        kind: String,
        /// The page's parameters.
        params: Json,
        /// The content, as `sitegen export` writes it.
        content: Box<Content>,
    },
    /// The content with the entry in it is not valid: each mistake as `file:line:col: message`.
    Mistakes {
        /// The mistakes, named by the files the author knows (`content/articles/x.md`).
        errors: Vec<String>,
    },
}

/// Why no preview could be attempted: a request this endpoint does not answer.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unsupported(String);

/// The preview of `request`'s entry, from the content under `content_dir`.
pub fn preview(
    content_dir: &Path,
    public_dir: &Path,
    request: &Request,
) -> anyhow::Result<Preview> {
    let config = super::config(
        content_dir,
        super::CONTENT_PATH,
        super::Backend::Local {
            proxy_url: super::LOCAL_PROXY_URL.into(),
        },
    )?;
    let locales = &config.i18n.locales;
    let locale = request
        .locale
        .as_ref()
        .unwrap_or(&config.i18n.default_locale);
    if !locales.contains(locale) {
        return Err(Unsupported(format!(
            "`{locale}` is not a language of the site ({})",
            locales.join(", ")
        ))
        .into());
    }
    let default = *locale == config.i18n.default_locale;
    let entry = Entry::of(&config, content_dir, request, (!default).then_some(locale))?;

    let scratch = tempfile::tempdir().context("creating a scratch directory")?;
    let copy = scratch.path().join(super::CONTENT_PATH);
    local::copy_content(content_dir, &copy)?;
    let rel = &entry.rel;
    std::fs::write(copy.join(rel), &entry.text)
        .with_context(|| format!("writing {}", rel.display()))?;
    let shown = content::Publishing::preview();
    let loaded = match Content::load_with(&copy, public_dir, None, &shown) {
        Ok(loaded) => loaded,
        Err(errors) => {
            let scratch_prefix = format!("{}/", copy.display());
            let errors = errors
                .0
                .iter()
                .map(|e| e.to_string().replace(&scratch_prefix, "content/"))
                .collect();
            return Ok(Preview::Mistakes { errors });
        }
    };
    let mut content = match default {
        true => loaded,
        false => (loaded.translations.into_iter())
            .find(|t| &t.settings.language == locale)
            .with_context(|| format!("the content has no translation into {locale}"))?,
    };
    content.translations.clear();
    if request.collection == super::ARTICLES_COLLECTION {
        place_body_pictures(&mut content, &request.slug);
    }
    Ok(Preview::Page {
        kind: entry.kind,
        params: entry.params,
        content: Box::new(content),
    })
}

/// The entry being previewed: the file it is in the language previewed, that file's text with
/// the entry in it, and the page it makes.
struct Entry {
    /// The file, relative to the content directory (`articles/x.et.md`, `pages/about.yaml`).
    rel: PathBuf,
    /// What a save would write there.
    text: String,
    /// The kind of its page.
    kind: String,
    /// The page's parameters.
    params: Json,
}

impl Entry {
    /// The entry of `request`, in the translation into `translation` (else the source).
    fn of(
        config: &super::Config,
        content_dir: &Path,
        request: &Request,
        translation: Option<&String>,
    ) -> anyhow::Result<Self> {
        let slug = &request.slug;
        if slug.is_empty() || !slug.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(Unsupported(format!("`{slug}` is not an entry's slug")).into());
        }
        if request.collection == super::ARTICLES_COLLECTION {
            let name = match translation {
                None => format!("{slug}.md"),
                Some(tag) => format!("{slug}.{tag}.md"),
            };
            let rel = Path::new(articles::ARTICLES_DIR).join(name);
            let text = article_file(&content_dir.join(&rel), &request.data)?;
            let params = serde_json::json!({ "slug": slug });
            return Ok(Self {
                rel,
                text,
                kind: "article".into(),
                params,
            });
        }
        // A file entry whose page the site renders from it alone: a fixed page, a service
        // category (its sub-services are pages of their own).
        let (kind, params) = match request.collection.as_str() {
            super::PAGES_COLLECTION
                if FixedPage::ALL
                    .iter()
                    .any(|p| p.file_name() == format!("{slug}.yaml")) =>
            {
                (slug.clone(), serde_json::json!({}))
            }
            super::SERVICES_COLLECTION => (
                "service-category".into(),
                serde_json::json!({ "category": slug }),
            ),
            other => {
                return Err(Unsupported(format!(
                    "`{other}/{slug}` has no page of its own to preview"
                ))
                .into());
            }
        };
        let file = config
            .collections
            .iter()
            .filter(|c| c.name == request.collection)
            .find_map(|c| match &c.kind {
                super::CollectionKind::Files { files } => files.iter().find(|f| &f.name == slug),
                super::CollectionKind::Folder { .. } => None,
            })
            .ok_or_else(|| {
                Unsupported(format!(
                    "the editor has no entry `{}/{slug}`",
                    request.collection
                ))
            })?;
        let source = file.file.strip_prefix("content/").unwrap_or(&file.file);
        let rel = match translation {
            None => PathBuf::from(source),
            Some(tag) => local::translation_path(Path::new(source), tag),
        };
        let shown: Value = serde_yaml::to_value(&request.data).context("the entry's fields")?;
        let value = local::unpresent(shown, &file.fields);
        let text = yaml_file(&content_dir.join(&rel), &value)?;
        Ok(Self {
            rel,
            text,
            kind,
            params,
        })
    }
}

/// The YAML file a save of `value` would leave at `disk`: the values written into its text
/// where the change keeps its shape, else the values alone.
fn yaml_file(disk: &Path, value: &Value) -> anyhow::Result<String> {
    let written = std::fs::read_to_string(disk)
        .ok()
        .and_then(|original| super::edit::apply(&original, value).ok());
    match written {
        Some(text) => Ok(text),
        None => serde_yaml::to_string(&super::edit::without_blanks(value.clone()))
            .context("the entry's fields as YAML"),
    }
}

/// The article file a save of `data` would leave at `disk`: the fields written into the file's
/// own front matter where the change keeps its shape (its comments, `translated_from` among
/// them, stay), else a front matter of the fields alone; then the body.
fn article_file(disk: &Path, data: &Json) -> anyhow::Result<String> {
    let Json::Object(fields) = data else {
        return Err(Unsupported("the entry's data is not a map of its fields".into()).into());
    };
    let mut front = fields.clone();
    let body = match front.remove("body") {
        Some(Json::String(body)) => body,
        _ => String::new(),
    };
    let front: Value = serde_yaml::to_value(Json::Object(front)).context("the entry's fields")?;
    let front = super::edit::without_blanks(front);
    let yaml = match front {
        Value::Mapping(ref map) if map.is_empty() => String::new(),
        ref front => serde_yaml::to_string(front).context("the entry's fields as YAML")?,
    };
    let raw = format!("---\n{yaml}---\n{body}");
    let fresh = || raw.clone();
    Ok(match disk.exists() {
        true => local::article_text(disk, &raw)
            .ok()
            .flatten()
            .unwrap_or_else(fresh),
        false => fresh(),
    })
}

/// The previewed article's photos as plain pictures of their source: their encoded versions
/// come from the images stage, which the preview does not run. (Its SVGs are in place.)
fn place_body_pictures(content: &mut Content, slug: &str) {
    if let Some(article) = content.articles.iter_mut().find(|a| a.slug == slug) {
        for n in 0..article.body_images.len() {
            let image = &article.body_images[n];
            let html = articles::plain_image_html(&image.src, &image.alt, None);
            article.place_body_image(n, &html);
        }
    }
}

/// Where the dev server's requests for a preview reach [`preview`]; merged into
/// [`local::router`]'s by `sitegen dev`.
pub fn router(content_dir: PathBuf, public_dir: PathBuf) -> axum::Router {
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    let dirs = std::sync::Arc::new((content_dir, public_dir));
    axum::Router::new().route(
        PREVIEW_URL,
        axum::routing::post(move |axum::Json(request): axum::Json<Request>| {
            let dirs = std::sync::Arc::clone(&dirs);
            async move {
                let answer = tokio::task::spawn_blocking(move || {
                    let (content_dir, public_dir) = &*dirs;
                    preview(content_dir, public_dir, &request)
                })
                .await;
                let failed = |status: StatusCode, message: String| {
                    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
                };
                match answer {
                    Ok(Ok(preview)) => axum::Json(preview).into_response(),
                    Ok(Err(err)) if err.is::<Unsupported>() => {
                        failed(StatusCode::UNPROCESSABLE_ENTITY, err.to_string())
                    }
                    Ok(Err(err)) => {
                        eprintln!("sitegen dev: the editor's preview failed: {err:#}");
                        failed(StatusCode::INTERNAL_SERVER_ERROR, format!("{err:#}"))
                    }
                    Err(err) => failed(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()),
                }
            }
        }),
    )
}
