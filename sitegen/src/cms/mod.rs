//! The browser editor's configuration (Decap CMS), generated from the content model.
//!
//! Every kind of file under `content/` is a collection: the articles a folder collection, each
//! fixed page, service category and top-level file an entry of a file collection. Each field
//! comes from the JSON Schema `sitegen schema` writes for the same type ([`fields`]), so the form
//! cannot drift from the validation: a field added to the model is in the editor on the next
//! start, and a test fails when one has no place in it. The values a reference may take (an
//! article's author and category) are read from the content, so they are choices, not free text.
//!
//! The editor saves through `sitegen dev` ([`Backend::Local`]), which owns how files are
//! presented to it and written: a translation beside its source (`about.yaml`,
//! `about.et.yaml`), a map of the model as the list of entries [`fields`] lays it out as.

pub mod create;
pub mod edit;
pub mod fields;
pub mod live;
pub mod local;
pub mod media;
pub mod placed;
pub mod preview;
pub mod tidy;

use std::path::Path;

use anyhow::{Context as _, Result};
use serde::Serialize;

use crate::content::{self, FixedPage, articles, redirects};
use crate::schema::FileSchema;
use fields::{Choices, Field, SelectOption};

/// Where the editor saves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum Backend {
    /// `sitegen dev`, which speaks Decap's proxy protocol at `proxy_url`.
    #[serde(rename = "proxy")]
    Local {
        /// The URL of the save endpoint, relative to the dev server.
        proxy_url: String,
    },
    /// The repository on GitHub, through its API (editing on the live site, `cms:` of
    /// `site.yaml`): the editor commits there itself, each change on a branch of its own with a
    /// pull request ([`Config::publish_mode`]). Decap's GitHub backend, wrapped by
    /// `site/admin/sitegenGithub.ts` to read the project's layout as `sitegen dev` presents it.
    #[serde(rename = "sitegen-github")]
    Github {
        /// `owner/name`.
        repo: String,
        /// The branch the editor's pull requests target.
        branch: String,
        /// The OAuth proxy that signs editors in, when it is not Netlify's.
        #[serde(skip_serializing_if = "Option::is_none")]
        base_url: Option<String>,
        /// The proxy's path that starts the sign-in, when it is not `auth`.
        #[serde(skip_serializing_if = "Option::is_none")]
        auth_endpoint: Option<String>,
        /// The commit status whose link the editor shows as a change's preview
        /// ([`PREVIEW_CONTEXT`]).
        preview_context: &'static str,
    },
}

impl Backend {
    /// The backend of the live site's editor, from `site.yaml`'s `cms`.
    pub fn live(cms: &crate::content::settings::Cms) -> Self {
        Self::Github {
            repo: cms.repo.clone(),
            branch: cms.branch.clone(),
            base_url: cms.base_url.clone(),
            auth_endpoint: cms.auth_endpoint.clone(),
            preview_context: PREVIEW_CONTEXT,
        }
    }
}

/// The context of the commit status that carries a pull request's preview address
/// (`https://pr-N.<preview_domain>/`): the CI's pull-request job posts it
/// (`sitegen/examples/ci/deploy.yml`, held to this name by a test), and the editor's "View
/// preview" opens its link.
pub const PREVIEW_CONTEXT: &str = "sitegen/preview";
/// The name of the articles' collection: the editor's URLs, its preview template (`site/admin/preview.tsx`).
pub const ARTICLES_COLLECTION: &str = "articles";
/// The name of the fixed pages' collection (`about`, `contact`, ...).
pub const PAGES_COLLECTION: &str = "pages";
/// The name of the service categories' collection.
pub const SERVICES_COLLECTION: &str = "services";

/// Where the content directory is in the repository, as the editor's paths name it
/// (`content/pages/about.yaml`); on disk it may be any directory (`sitegen dev --content DIR`).
pub const CONTENT_PATH: &str = "content";

/// Where the editor of `sitegen dev` saves: the dev server's own endpoint.
pub const LOCAL_PROXY_URL: &str = "/admin/api/v1";

/// The editor's configuration (Decap's `config.yml`).
#[derive(Debug, Clone, Serialize)]
pub struct Config {
    /// Where the content directory is in the repository (`content`): the editor's paths start
    /// with it, whatever the directory is called on disk.
    #[serde(skip)]
    pub content_path: String,
    /// Where saves go.
    pub backend: Backend,
    /// `editorial_workflow` on the live site: every change is a branch and a pull request,
    /// reviewed on its preview and merged to publish it. Saves through `sitegen dev` are
    /// written at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publish_mode: Option<&'static str>,
    /// Where uploaded pictures are written, relative to the repository.
    pub media_folder: String,
    /// The URL path the pages name an uploaded picture by.
    pub public_folder: String,
    /// How the editor makes the file name of a new article from its title.
    pub slug: SlugRule,
    /// The site's languages, the default first.
    pub i18n: I18n,
    /// One per kind of content file.
    pub collections: Vec<Collection>,
}

/// How the editor turns a title into a file name (Decap's `slug`): lowercase ASCII, accents
/// dropped, anything else a `-`, which is what the model takes for a slug
/// (`content::is_slug`, checked again by the validation of the save).
#[derive(Debug, Clone, Serialize)]
pub struct SlugRule {
    /// `ascii`: no letter outside ASCII.
    pub encoding: &'static str,
    /// `ä` -> `a`, rather than dropped.
    pub clean_accents: bool,
    /// What stands for a character a slug cannot hold.
    pub sanitize_replacement: &'static str,
}

/// The languages of the editor.
#[derive(Debug, Clone, Serialize)]
pub struct I18n {
    /// How the translations of a folder collection's entries are laid out: one file per
    /// language beside the source (`SLUG.md`, `SLUG.et.md`).
    pub structure: &'static str,
    /// The tags of `site.yaml`'s `languages`.
    pub locales: Vec<String>,
    /// The first of them.
    pub default_locale: String,
}

/// A collection of the editor.
#[derive(Debug, Clone, Serialize)]
pub struct Collection {
    /// Its name in the editor's URLs.
    pub name: String,
    /// What the editor calls it.
    pub label: String,
    /// What the editor calls one of its entries (**New Article**), when authors add entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_singular: Option<&'static str>,
    /// A folder of entries or a list of files.
    #[serde(flatten)]
    pub kind: CollectionKind,
    /// Whether its entries are translated, and how.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub i18n: Option<serde_json::Value>,
}

/// What a collection holds.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum CollectionKind {
    /// Entries in one folder, one file each, all with the same fields.
    Folder {
        /// The folder, relative to the repository.
        folder: String,
        /// The files' extension.
        extension: &'static str,
        /// How a file holds its fields (`frontmatter`: YAML between `---` lines, then the body).
        format: &'static str,
        /// Whether authors may add entries.
        create: bool,
        /// The file name of a new entry.
        slug: &'static str,
        /// The field that names an entry in lists.
        identifier_field: &'static str,
        /// The fields of every entry.
        fields: Vec<Field>,
    },
    /// Named files, each with its own fields.
    Files {
        /// The files.
        files: Vec<FileEntry>,
    },
}

/// One file of a file collection.
#[derive(Debug, Clone, Serialize)]
pub struct FileEntry {
    /// Its name in the editor's URLs: the schema's name (`about`, `site`).
    pub name: String,
    /// What the editor calls it.
    pub label: String,
    /// The file, relative to the repository.
    pub file: String,
    /// Its fields.
    pub fields: Vec<Field>,
    /// Whether its translated fields have a form in each language: Decap strips the `i18n` of
    /// the fields of a file without it, even in a translated collection, and shows the
    /// source's values in the other languages' forms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub i18n: Option<bool>,
}

/// The editor's configuration for the content under `content_dir`, which is `content_path` in
/// the repository (`content`): its languages and the choices of its references are read from
/// the content; the fields come from the model.
pub fn config(content_dir: &Path, content_path: &str, backend: Backend) -> Result<Config> {
    let locales = languages(content_dir)?;
    let choices = choices(content_dir)?;
    let schemas = crate::schema::file_schemas();
    let schema_of = |name: &str| -> Result<&FileSchema> {
        schemas
            .iter()
            .find(|s| s.name == name)
            .with_context(|| format!("no schema named {name}"))
    };
    // A kind of file is translated when the model has a translation schema for it.
    let translated = |name: &str| {
        schemas
            .iter()
            .any(|s| s.name == format!("{name}{}", crate::schema::TRANSLATION))
    };
    let entry = |name: &str, file: &str| -> Result<FileEntry> {
        let schema = schema_of(name)?;
        let mut fields = fields::of_root(&schema.schema.clone().to_value(), &choices)
            .map_err(|err| anyhow::anyhow!("{file}: {err}"))?;
        if translated(name) {
            translatable(file, &mut Vec::new(), &mut fields);
        }
        Ok(FileEntry {
            name: name.rsplit('/').next().unwrap_or(name).to_owned(),
            label: fields::label(name.rsplit('/').next().unwrap_or(name)),
            file: format!("{content_path}/{file}"),
            fields,
            i18n: None,
        })
    };
    let single_file = Some(serde_json::json!({ "structure": "single_file" }));
    let mut collections = vec![articles_collection(content_path, &choices)?];
    collections.push(Collection {
        name: PAGES_COLLECTION.into(),
        label: "Pages".into(),
        label_singular: None,
        kind: CollectionKind::Files {
            files: FixedPage::ALL
                .iter()
                .map(|page| {
                    let file = page.file();
                    entry(file.trim_end_matches(".yaml"), &file)
                })
                .collect::<Result<_>>()?,
        },
        i18n: single_file.clone(),
    });
    collections.push(Collection {
        name: SERVICES_COLLECTION.into(),
        label: "Services".into(),
        label_singular: None,
        kind: CollectionKind::Files {
            files: choices[SERVICES]
                .iter()
                .map(|service| {
                    let mut file = entry(
                        crate::schema::SERVICE_CATEGORY,
                        &format!("{}/{}.yaml", content::SERVICES_DIR, service.value),
                    )?;
                    file.name.clone_from(&service.value);
                    file.label.clone_from(&service.label);
                    Ok(file)
                })
                .collect::<Result<_>>()?,
        },
        i18n: single_file.clone(),
    });
    collections.push(Collection {
        name: "settings".into(),
        label: "Settings".into(),
        label_singular: None,
        kind: CollectionKind::Files {
            files: [
                content::SITE_FILE,
                content::FORMS_FILE,
                articles::AUTHORS_FILE,
                content::COUNTRIES_FILE,
            ]
            .into_iter()
            .map(|file| entry(file.trim_end_matches(".yaml"), file))
            .collect::<Result<_>>()?,
        },
        i18n: single_file,
    });
    // Not translated: a path answers the same in every language.
    collections.push(Collection {
        name: "redirects".into(),
        label: "Redirects".into(),
        label_singular: None,
        kind: CollectionKind::Files {
            files: vec![entry(
                redirects::REDIRECTS_FILE.trim_end_matches(".yaml"),
                redirects::REDIRECTS_FILE,
            )?],
        },
        i18n: None,
    });
    let publish_mode = matches!(backend, Backend::Github { .. }).then_some("editorial_workflow");
    // Each file of a translated collection is translated (its fields' `i18n` is kept).
    for collection in &mut collections {
        if let (Some(_), CollectionKind::Files { files }) = (&collection.i18n, &mut collection.kind)
        {
            for file in files {
                file.i18n = Some(true);
            }
        }
    }
    Ok(Config {
        content_path: content_path.to_owned(),
        backend,
        publish_mode,
        media_folder: format!("{content_path}/{}", content::images::SOURCE_DIR),
        public_folder: format!("/{}", content::images::SOURCE_DIR),
        slug: SlugRule {
            encoding: "ascii",
            clean_accents: true,
            sanitize_replacement: "-",
        },
        i18n: I18n {
            structure: "multiple_files",
            default_locale: locales.first().cloned().unwrap_or_default(),
            locales,
        },
        collections,
    })
}

impl Config {
    /// The configuration as the YAML of Decap's `config.yml`.
    pub fn to_yaml(&self) -> Result<String> {
        serde_yaml::to_string(self).context("writing the editor's configuration as YAML")
    }
}

/// Writes the configuration of the editor of `sitegen dev` (saving through it) as JSON to
/// `path`, through a temporary file and a rename: what `/admin/` hands the editor
/// (`site/lib/devAdmin.ts`).
pub fn write_local_config(content_dir: &Path, path: &Path) -> Result<()> {
    let backend = Backend::Local {
        proxy_url: LOCAL_PROXY_URL.into(),
    };
    let json = serde_json::to_vec(&config(content_dir, CONTENT_PATH, backend)?)?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, json).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))
}

/// The name of the choices of a service category ([`fields::CHOICES_KEYWORD`]).
const SERVICES: &str = "services";
/// The name of the choices of an author.
const AUTHORS: &str = "authors";

/// The articles: a folder of Markdown files with front matter, the body last, each
/// translation beside its source with its own `slug`.
fn articles_collection(content_path: &str, choices: &Choices) -> Result<Collection> {
    let front = articles::front_matter_schema().to_value();
    let mut fields = fields::of_root(&front, choices)
        .map_err(|err| anyhow::anyhow!("article front matter: {err}"))?;
    let rel = format!("{}/SLUG.md", articles::ARTICLES_DIR);
    translatable(&rel, &mut Vec::new(), &mut fields);
    let own = articles::translated_front_matter_schema().to_value();
    let mut slug = fields::of_root(&own, choices)
        .map_err(|err| anyhow::anyhow!("translated front matter: {err}"))?;
    for field in &mut slug {
        field.i18n = Some(true);
    }
    fields.extend(slug);
    fields.push(Field {
        name: "body".into(),
        label: "Body".into(),
        widget: "markdown",
        hint: Some(
            "The article in Markdown: `##` and `###` headings, lists, code, pictures.".into(),
        ),
        i18n: Some(true),
        ..Field::default()
    });
    Ok(Collection {
        name: ARTICLES_COLLECTION.into(),
        label: "Articles".into(),
        label_singular: Some("Article"),
        kind: CollectionKind::Folder {
            folder: format!("{content_path}/{}", articles::ARTICLES_DIR),
            extension: "md",
            format: "frontmatter",
            create: true,
            slug: "{{slug}}",
            identifier_field: "title",
            fields,
        },
        i18n: Some(serde_json::Value::Bool(true)),
    })
}

/// Marks the fields of the file `rel` that hold words as translated, and the objects and lists
/// holding one ([`crate::content::status::holds_words`]): the rest (names, dates, links,
/// flags, choices) is the source's in every language, as a translation file that leaves a
/// field out inherits it (`crate::content::translate`). `path` is the keys down to `fields`.
fn translatable(rel: &str, path: &mut Vec<String>, fields: &mut [Field]) -> bool {
    let mut any = false;
    for field in fields {
        // The editor's own names for a map's entries and their keys are no keys of the file.
        let key = match field.name.as_str() {
            fields::MAP_KEY => continue,
            fields::ROOT_MAP | fields::MAP_VALUE | fields::LIST_ITEM => None,
            name => Some(name.to_owned()),
        };
        let pushed = key.map(|key| path.push(key)).is_some();
        let words = match field.widget {
            "string" | "text" | "markdown" => {
                let keys: Vec<&str> = path.iter().map(String::as_str).collect();
                crate::content::status::holds_words(rel, &keys)
            }
            "object" | "list" => {
                let item = field
                    .field
                    .as_deref_mut()
                    .is_some_and(|item| translatable(rel, path, std::slice::from_mut(item)));
                translatable(rel, path, &mut field.fields) || item
            }
            _ => false,
        };
        if pushed {
            path.pop();
        }
        if words {
            field.i18n = Some(true);
            any = true;
        }
    }
    any
}

/// The backend of the live site's editor, from `site.yaml`'s `cms` under `content_dir`.
pub fn live_backend(content_dir: &Path) -> Result<Backend> {
    let path = content_dir.join(content::SITE_FILE);
    let site = read_yaml(&path)?;
    let cms = site.get("cms").with_context(|| {
        format!(
            "{}: no `cms`: name the repository the live site's editor edits \
             (`cms: {{repo: owner/name, branch: main}}`)",
            path.display()
        )
    })?;
    let cms: content::settings::Cms =
        serde_yaml::from_value(cms.clone()).with_context(|| format!("{}: cms", path.display()))?;
    Ok(Backend::live(&cms))
}

fn read_yaml(path: &Path) -> Result<serde_yaml::Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    content::yaml::value_from_str(&text)
        .map_err(|err| anyhow::anyhow!("{}: {}", path.display(), err.message))
}

/// The tags of `site.yaml`'s `languages`, the default first.
fn languages(content_dir: &Path) -> Result<Vec<String>> {
    let path = content_dir.join(content::SITE_FILE);
    let site = read_yaml(&path)?;
    let tags: Vec<String> = site
        .get("languages")
        .and_then(|l| l.as_sequence())
        .into_iter()
        .flatten()
        .filter_map(|language| language.get("tag")?.as_str().map(str::to_owned))
        .collect();
    anyhow::ensure!(!tags.is_empty(), "{}: no `languages`", path.display());
    Ok(tags)
}

/// The values the references of the model may take: the authors (keys of `authors.yaml`, in
/// its order) and the service categories (the files of `services/` that are no translation).
fn choices(content_dir: &Path) -> Result<Choices> {
    // Each choice is shown by the `name` its file gives it, and written as its key.
    let named = |key: String, value: &serde_yaml::Value| SelectOption {
        label: value
            .get("name")
            .and_then(serde_yaml::Value::as_str)
            .map_or_else(|| key.clone(), str::to_owned),
        value: key,
    };
    let authors = read_yaml(&content_dir.join(articles::AUTHORS_FILE))?;
    let authors = authors
        .as_mapping()
        .into_iter()
        .flatten()
        .filter_map(|(key, author)| Some(named(key.as_str()?.to_owned(), author)))
        .collect();
    let dir = content_dir.join(content::SERVICES_DIR);
    let mut slugs: Vec<String> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".yaml")?;
            (!stem.contains('.')).then(|| stem.to_owned())
        })
        .collect();
    slugs.sort();
    let services = slugs
        .into_iter()
        .map(|slug| {
            Ok(named(
                slug.clone(),
                &read_yaml(&dir.join(format!("{slug}.yaml")))?,
            ))
        })
        .collect::<Result<_>>()?;
    Ok(Choices::from([
        (AUTHORS.to_owned(), authors),
        (SERVICES.to_owned(), services),
    ]))
}
