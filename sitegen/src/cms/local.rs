//! The editor's backend in `sitegen dev`: Decap CMS's proxy protocol (the one `decap-server`
//! speaks), answered from the content directory, so that sitegen decides how files are shown to
//! the editor and how its saves are written.
//!
//! - A translation is shown beside its source the way the editor expects and stays in its own
//!   file: an article `SLUG.md` is the editor's `SLUG.en.md` (one file per language), a page's
//!   `about.yaml` and `about.et.yaml` are one document `{en: ..., et: ...}` (the editor's only
//!   layout for a file collection).
//! - A map of the model is shown as the list [`super::fields`] lays it out as, and written back
//!   as a map.
//! - A save is written into the file's text by [`super::edit`] (only what changed), and only
//!   after the whole content, with the save in it, passes the validation of `sitegen validate`:
//!   an invalid save is answered with the errors, each naming its file, line and column, and
//!   those of the files saved placed at the editor's fields ([`super::placed`]); nothing is
//!   written. `validateEntry` answers the same without a save.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Deserialize;
use serde_json::{Value as Json, json};
use serde_yaml::{Mapping, Value};

use super::fields::{self, Field};
use super::media::{Asset, Media, MediaError, Picture};
use super::{CollectionKind, Config};
use crate::content::{self, yaml};

/// One request of the proxy protocol: `{action, params}`.
#[derive(Debug, Deserialize)]
pub struct Request {
    /// `entriesByFolder`, `entriesByFiles`, `getEntry`, `persistEntry`, ...
    pub action: String,
    /// The action's parameters.
    #[serde(default)]
    pub params: Json,
}

/// Why a request was not done: the editor shows the message.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// The save cannot be written in place; nothing was written.
    #[error("{0}")]
    Refused(String),
    /// The save would make the content invalid: every mistake, and those of the files saved
    /// at their fields ([`super::placed`]); nothing was written.
    #[error("{message}")]
    Invalid {
        /// Every mistake, one a line, as `sitegen validate` prints them.
        message: String,
        /// The mistakes in the files saved, at their fields.
        fields: Vec<super::placed::FieldError>,
    },
    /// The request is not one this backend answers.
    #[error("{0}")]
    Unsupported(String),
    /// Reading or writing a file failed.
    #[error(transparent)]
    Io(#[from] anyhow::Error),
}

impl From<MediaError> for LocalError {
    fn from(err: MediaError) -> Self {
        match err {
            MediaError::Refused(message) => LocalError::Refused(message),
            MediaError::Io(err) => LocalError::Io(err),
        }
    }
}

/// The content directory the editor works on, and the configuration it was given.
#[derive(Debug)]
pub struct Local {
    /// The content directory on disk, wherever it is: the editor's `content/pages/about.yaml`
    /// is its `pages/about.yaml`.
    content_dir: PathBuf,
    /// The site's `public/`, for the validation.
    public_dir: PathBuf,
    /// The site's languages, the default first.
    locales: Vec<String>,
    /// The editor's configuration, for the fields of each file.
    config: Config,
}

impl Local {
    /// The backend of the content under `content_dir`, which the editor's paths name
    /// `config.content_path` (`content`).
    pub fn new(content_dir: &Path, public_dir: &Path, config: Config) -> anyhow::Result<Self> {
        let content_dir = std::path::absolute(content_dir)?;
        Ok(Self {
            content_dir,
            public_dir: public_dir.to_owned(),
            locales: config.i18n.locales.clone(),
            config,
        })
    }

    /// Answers one request.
    pub fn handle(&self, request: &Request) -> Result<Json, LocalError> {
        let params = &request.params;
        match request.action.as_str() {
            "info" => Ok(
                json!({"repo": super::CONTENT_PATH, "publish_modes": ["simple"], "type": "local_fs"}),
            ),
            "entriesByFolder" => {
                let folder = str_param(params, "folder")?;
                Ok(Json::Array(self.folder_entries(folder)?))
            }
            "entriesByFiles" => {
                let files = params["files"].as_array().cloned().unwrap_or_default();
                files
                    .iter()
                    .map(|file| self.entry(file["path"].as_str().unwrap_or_default()))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Json::Array)
            }
            "getEntry" => self.entry(str_param(params, "path")?),
            // The validation of a save without the save: what the editor asks before saving.
            "validateEntry" => {
                let files: Vec<DataFile> = serde_json::from_value(params["dataFiles"].clone())
                    .map_err(|err| LocalError::Unsupported(format!("dataFiles: {err}")))?;
                let assets: Vec<Asset> =
                    serde_json::from_value(params["assets"].clone()).unwrap_or_default();
                let checked = assets
                    .iter()
                    .map(|asset| self.media().check(asset).map_err(LocalError::from))
                    .collect::<Result<Vec<_>, _>>();
                match checked.and_then(|pictures| {
                    let saves = self.saves(&files, false)?;
                    self.validate_with(&saves, &pictures)
                }) {
                    Ok(()) => Ok(json!({"errors": []})),
                    Err(LocalError::Invalid { message, fields }) => {
                        Ok(json!({"message": message, "errors": fields}))
                    }
                    Err(err) => Err(err),
                }
            }
            "persistEntry" => {
                let files: Vec<DataFile> = serde_json::from_value(params["dataFiles"].clone())
                    .map_err(|err| LocalError::Unsupported(format!("dataFiles: {err}")))?;
                let assets: Vec<Asset> =
                    serde_json::from_value(params["assets"].clone()).unwrap_or_default();
                let new_entry = params["options"]["newEntry"].as_bool().unwrap_or(false);
                self.persist(&files, &assets, new_entry)?;
                Ok(json!({"message": "entry persisted"}))
            }
            "getMedia" => {
                let files = self.media().list(str_param(params, "mediaFolder")?)?;
                Ok(serde_json::to_value(files).context("answering getMedia")?)
            }
            "getMediaFile" => {
                let file = self.media().get(str_param(params, "path")?)?;
                Ok(serde_json::to_value(file).context("answering getMediaFile")?)
            }
            "persistMedia" => {
                let asset: Asset = serde_json::from_value(params["asset"].clone())
                    .map_err(|err| LocalError::Unsupported(format!("asset: {err}")))?;
                let file = self.media().persist(&asset)?;
                Ok(serde_json::to_value(file).context("answering persistMedia")?)
            }
            "deleteFile" => {
                let path = str_param(params, "path")?;
                self.media().delete(&[path.to_owned()])?;
                Ok(json!({ "message": format!("deleted file {path}") }))
            }
            "deleteFiles" => {
                let paths: Vec<String> = serde_json::from_value(params["paths"].clone())
                    .map_err(|err| LocalError::Unsupported(format!("paths: {err}")))?;
                self.media().delete(&paths)?;
                Ok(json!({ "message": format!("deleted files {}", paths.join(", ")) }))
            }
            "getDeployPreview" => Ok(Json::Null),
            other => Err(LocalError::Unsupported(format!(
                "`{other}` is not done through sitegen dev"
            ))),
        }
    }

    /// The entries of the folder collection at `folder` (`content/articles`): each article,
    /// its source as the default language's file (`SLUG.en.md`).
    fn folder_entries(&self, folder: &str) -> Result<Vec<Json>, LocalError> {
        let dir = self.resolve(folder)?;
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".md"))
            .collect();
        names.sort();
        names
            .iter()
            .map(|name| {
                let shown = match form_contract::translation::is_translation(name) {
                    true => name.clone(),
                    false => form_contract::translation::translation_file(name, self.default()),
                };
                let text = read(&dir.join(name))?;
                Ok(json!({"data": text, "file": {"path": format!("{folder}/{shown}"), "id": id(&text)}}))
            })
            .collect()
    }

    /// The entry at the editor's `path`: a file of a file collection, its translations inside
    /// it, or an article file.
    fn entry(&self, path: &str) -> Result<Json, LocalError> {
        let text = match self.file_entry(path) {
            Some((fields, translated)) => self.present_file(path, fields, translated)?,
            None => read(&self.disk_path(path)?)?,
        };
        Ok(json!({"data": text, "file": {"path": path, "id": id(&text)}}))
    }

    /// The fields of the file entry at the editor's `path`, and whether it is translated.
    fn file_entry(&self, path: &str) -> Option<(&[Field], bool)> {
        self.config.collections.iter().find_map(|c| match &c.kind {
            CollectionKind::Files { files } => files
                .iter()
                .find(|f| f.file == path)
                .map(|f| (f.fields.as_slice(), c.i18n.is_some())),
            CollectionKind::Folder { .. } => None,
        })
    }

    /// The file at the editor's `path` on disk: the default language's `SLUG.en.md` is `SLUG.md`.
    fn disk_path(&self, path: &str) -> Result<PathBuf, LocalError> {
        let suffix = format!(".{}.md", self.default());
        let path = match path.strip_suffix(&suffix) {
            Some(stem) => format!("{stem}.md"),
            None => path.to_owned(),
        };
        self.resolve(&path)
    }

    /// The editor's name of the file `disk` of the content directory.
    fn editor_path(&self, disk: &Path) -> String {
        format!(
            "{}/{}",
            self.config.content_path,
            rel(&self.content_dir, disk)
        )
    }

    /// The editor's `content/REST` (a file or a folder) on disk: `REST` under the content
    /// directory. Nothing outside it.
    fn resolve(&self, path: &str) -> Result<PathBuf, LocalError> {
        let rest = path
            .strip_prefix(self.config.content_path.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|rest| !rest.split('/').any(|part| matches!(part, "" | "." | "..")));
        match rest {
            Some(rest) => Ok(self.content_dir.join(rest)),
            None => Err(LocalError::Unsupported(format!(
                "{path}: not a content file"
            ))),
        }
    }

    /// The files on disk behind the editor's `path`, translations included: what a save of it
    /// may write (`content/pages/about.yaml` -> `about.yaml`, `about.et.yaml`;
    /// `content/articles/x.en.md` -> `x.md`). Used by [`super::tidy`].
    pub(super) fn disk_files(&self, path: &str) -> Result<Vec<PathBuf>, LocalError> {
        let source = self.disk_path(path)?;
        Ok(match self.file_entry(path) {
            Some((_, true)) => std::iter::once(source.clone())
                .chain(
                    self.locales
                        .iter()
                        .skip(1)
                        .map(|tag| translation_path(&source, tag)),
                )
                .collect(),
            _ => vec![source],
        })
    }

    /// Whether `path` names a file entry (a page, a service category, a top-level file).
    pub(super) fn is_file_entry(&self, path: &str) -> bool {
        self.file_entry(path).is_some()
    }

    /// Whether `path` names a file entry translated into one document (`{en: ..., et: ...}`).
    pub(super) fn is_translated_file(&self, path: &str) -> bool {
        matches!(self.file_entry(path), Some((_, true)))
    }

    /// The site's languages, the default first.
    pub(super) fn locales(&self) -> &[String] {
        &self.locales
    }

    /// The default language's tag.
    fn default(&self) -> &str {
        self.locales.first().map_or("en", String::as_str)
    }

    /// The document the editor shows for the file entry `path`: the file's maps as lists, and
    /// for a translated file, `{en: source, et: translation, ...}`.
    fn present_file(
        &self,
        path: &str,
        fields: &[Field],
        translated: bool,
    ) -> Result<String, LocalError> {
        let source = self.disk_path(path)?;
        let shown = |file: &Path| -> Result<Value, LocalError> {
            let value = match file.exists() {
                true => parse(file, &read(file)?)?,
                false => Value::Mapping(Mapping::new()),
            };
            Ok(present(value, fields))
        };
        let document = match translated {
            false => shown(&source)?,
            true => {
                let mut by_locale = Mapping::new();
                for (i, tag) in self.locales.iter().enumerate() {
                    let file = match i {
                        0 => source.clone(),
                        _ => translation_path(&source, tag),
                    };
                    by_locale.insert(Value::from(tag.as_str()), shown(&file)?);
                }
                Value::Mapping(by_locale)
            }
        };
        serde_yaml::to_string(&document).map_err(|err| LocalError::Io(err.into()))
    }

    /// The pictures of the content ([`super::media`]).
    fn media(&self) -> Media<'_> {
        Media {
            content_path: &self.config.content_path,
            content_dir: &self.content_dir,
            public_dir: &self.public_dir,
        }
    }

    /// Writes `files` and the pictures `assets` if the content with them passes the
    /// validation, else writes nothing. A `new_entry` replaces no file.
    fn persist(
        &self,
        files: &[DataFile],
        assets: &[Asset],
        new_entry: bool,
    ) -> Result<(), LocalError> {
        let pictures = assets
            .iter()
            .map(|asset| self.media().check(asset))
            .collect::<Result<Vec<_>, _>>()?;
        let writes = self.saves(files, new_entry)?;
        self.validate_with(&writes, &pictures)?;
        // The pictures first: a page is never reloaded naming one not yet there.
        for picture in &pictures {
            super::media::write(picture)?;
        }
        for Save { path, text, .. } in &writes {
            let tmp = path.with_extension("cms-tmp");
            std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))?;
        }
        Ok(())
    }

    /// The files the editor's `files` change, with their new text. A `new_entry` replaces no
    /// file.
    fn saves(&self, files: &[DataFile], new_entry: bool) -> Result<Vec<Save>, LocalError> {
        let mut writes: Vec<Save> = Vec::new();
        for file in files {
            match self.file_entry(&file.path) {
                Some((fields, translated)) => {
                    writes.extend(self.file_writes(&file.path, &file.raw, fields, translated)?);
                }
                None => {
                    let disk = self.disk_path(&file.path)?;
                    if new_entry && disk.exists() {
                        return Err(LocalError::Refused(format!(
                            "{} already exists: give the new article another title",
                            self.editor_path(&disk)
                        )));
                    }
                    // `SLUG.et.md` is the Estonian form of the entry, `SLUG.en.md` the source's.
                    let locale = file
                        .path
                        .strip_suffix(".md")
                        .and_then(|stem| stem.rsplit_once('.'))
                        .map(|(_, tag)| tag)
                        .filter(|tag| self.locales.iter().any(|l| l == tag))
                        .map(str::to_owned);
                    if let Some(text) = article_text(&disk, &file.raw)? {
                        writes.push(Save {
                            text,
                            path: disk,
                            locale,
                            nested: false,
                        });
                    }
                }
            }
        }
        record_new_translations(&mut writes);
        writes.retain(|w| std::fs::read_to_string(&w.path).ok().as_deref() != Some(&w.text));
        Ok(writes)
    }

    /// The files a save of the file entry `path` writes: its own, and its translations'.
    fn file_writes(
        &self,
        path: &str,
        raw: &str,
        fields: &[Field],
        translated: bool,
    ) -> Result<Vec<Save>, LocalError> {
        let source = self.disk_path(path)?;
        let document: Value = yaml::value_from_str(raw)
            .map_err(|err| LocalError::Refused(format!("{path}: {}", err.message)))?;
        let mut out = Vec::new();
        let mut write =
            |file: PathBuf, value: Value, locale: Option<&str>| -> Result<(), LocalError> {
                let value = unpresent(value, fields);
                let text = match file.exists() {
                    true => {
                        let original = read(&file)?;
                        super::edit::apply(&original, &value).map_err(|err| {
                            LocalError::Refused(format!("{}: {err}", self.editor_path(&file)))
                        })?
                    }
                    false if super::edit::blank(&value) => return Ok(()),
                    false => new_file_text(&self.content_dir, &file, &value)?,
                };
                out.push(Save {
                    path: file,
                    text,
                    locale: locale.map(str::to_owned),
                    nested: locale.is_some(),
                });
                Ok(())
            };
        if !translated {
            write(source, document, None)?;
            return Ok(out);
        }
        for (i, tag) in self.locales.iter().enumerate() {
            let value = document.get(tag.as_str()).cloned().unwrap_or(Value::Null);
            let file = match i {
                0 => source.clone(),
                _ => translation_path(&source, tag),
            };
            write(file, value, Some(tag))?;
        }
        Ok(out)
    }

    /// Loads the content as it would be with `writes` made, in a copy, and refuses the save
    /// with every mistake when it is not valid.
    fn validate_with(&self, writes: &[Save], pictures: &[Picture]) -> Result<(), LocalError> {
        if writes.is_empty() {
            return Ok(());
        }
        let scratch = tempfile::tempdir().context("creating a scratch directory")?;
        // Named as in the repository: the errors name `content/...` as the editor does.
        let copy = scratch.path().join(super::CONTENT_PATH);
        copy_content(&self.content_dir, &copy)?;
        let mut written = Vec::new();
        for save in writes {
            let rel = save
                .path
                .strip_prefix(&self.content_dir)
                .with_context(|| format!("{} is outside the content", save.path.display()))?;
            std::fs::write(copy.join(rel), &save.text)
                .with_context(|| format!("writing {}", rel.display()))?;
            written.push(super::placed::Written {
                rel,
                text: &save.text,
                locale: save.locale.as_deref(),
                nested: save.nested,
            });
        }
        for picture in pictures {
            let rel = picture
                .path
                .strip_prefix(&self.content_dir)
                .with_context(|| format!("{} is outside the content", picture.path.display()))?;
            super::media::write(&Picture {
                path: copy.join(rel),
                bytes: picture.bytes.clone(),
            })?;
        }
        let shown = crate::content::Publishing::preview();
        match content::Content::load_with(&copy, &self.public_dir, None, &shown) {
            Ok(_) => Ok(()),
            // Each mistake named by the file the author knows, not the scratch copy's.
            Err(errors) => Err(LocalError::Invalid {
                message: format!(
                    "not saved, the content would not be valid:\n{}",
                    errors
                        .to_string()
                        .replace(&format!("{}/", copy.display()), "content/")
                ),
                fields: super::placed::place(&errors, &copy, &written),
            }),
        }
    }
}

/// A file a save writes, and where the editor shows it.
#[derive(Debug)]
struct Save {
    /// The file.
    path: PathBuf,
    /// Its new text.
    text: String,
    /// The language of the editor's form it comes from, for a translated entry.
    locale: Option<String>,
    /// Whether the editor shows its fields under the language (`{en: ..., et: ...}`).
    nested: bool,
}

/// One file of a save.
#[derive(Debug, Deserialize)]
struct DataFile {
    /// The editor's path.
    path: String,
    /// The whole text as the editor serialised it.
    raw: String,
}

fn str_param<'a>(params: &'a Json, name: &str) -> Result<&'a str, LocalError> {
    params[name]
        .as_str()
        .ok_or_else(|| LocalError::Unsupported(format!("no `{name}` in the request")))
}

fn read(path: &Path) -> Result<String, LocalError> {
    Ok(std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?)
}

fn parse(path: &Path, text: &str) -> Result<Value, LocalError> {
    yaml::value_from_str(text)
        .map_err(|err| LocalError::Refused(format!("{}: {}", path.display(), err.message)))
}

/// What the editor compares to learn whether a file changed.
fn id(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex().to_string()
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// `pages/about.yaml` -> `pages/about.et.yaml`.
pub(super) fn translation_path(source: &Path, tag: &str) -> PathBuf {
    let name = source
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    source.with_file_name(form_contract::translation::translation_file(name, tag))
}

/// The text of a new content file: the schema comment the other files start with, then the
/// document.
fn new_file_text(content_dir: &Path, file: &Path, value: &Value) -> Result<String, LocalError> {
    let rel = rel(content_dir, file);
    let mut text = crate::schema::schema_comment(&rel)
        .map(|c| c + "\n")
        .unwrap_or_default();
    let value = super::edit::without_blanks(value.clone());
    text.push_str(&serde_yaml::to_string(&value).map_err(|err| LocalError::Io(err.into()))?);
    Ok(text)
}

/// An article file as saved: the editor's front matter written into the file's own (only the
/// values changed), then the body as the editor gives it. A new file is written in the
/// project's layout ([`super::create`]); a new translation left empty is not written (`None`).
pub(super) fn article_text(disk: &Path, raw: &str) -> Result<Option<String>, LocalError> {
    // The editor sends a language left empty as an empty file.
    if raw.trim().is_empty() && !disk.exists() {
        return Ok(None);
    }
    let (front, body) = split_front_matter(raw)
        .ok_or_else(|| LocalError::Refused(format!("{}: no front matter", disk.display())))?;
    let new: Value = yaml::value_from_str(front)
        .map_err(|err| LocalError::Refused(format!("{}: {}", disk.display(), err.message)))?;
    let front = match std::fs::read_to_string(disk).ok().and_then(|old| {
        let (old_front, _) = split_front_matter(&old)?;
        Some(old_front.to_owned())
    }) {
        Some(old_front) => super::edit::apply(&old_front, &new)
            .map_err(|err| LocalError::Refused(format!("{}: {err}", disk.display())))?,
        None if super::edit::blank(&new) && body.trim().is_empty() => return Ok(None),
        None => super::create::document(&new, &content::articles::front_matter_keys())
            .map_err(|err| LocalError::Io(err.into()))?,
    };
    let front = front.trim_end_matches('\n');
    // A new file's body starts after a blank line, as the articles written by hand do.
    let body = match std::fs::exists(disk).unwrap_or(false) || body.starts_with('\n') {
        true => body.to_owned(),
        false => format!("\n{body}"),
    };
    Ok(Some(format!("---\n{front}\n---\n{body}")))
}

/// Records in each new article translation of `writes` that it follows its source as this save
/// leaves it (`# translated_from:`, as `sitegen i18n mark` would): it was written beside it.
fn record_new_translations(writes: &mut [Save]) {
    let sources: Vec<(PathBuf, String)> = writes
        .iter()
        .map(|w| (w.path.clone(), w.text.clone()))
        .collect();
    for Save { path, text, .. } in writes.iter_mut() {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if path.exists()
            || !name.ends_with(".md")
            || !form_contract::translation::is_translation(name)
        {
            continue;
        }
        let source = path.with_file_name(form_contract::translation::source_file(name));
        let bytes = match sources.iter().find(|(p, _)| *p == source) {
            Some((_, text)) => text.clone().into_bytes(),
            None => match std::fs::read(&source) {
                Ok(bytes) => bytes,
                Err(_) => continue,
            },
        };
        if let Some(marked) = content::status::recording(text, "md", &bytes) {
            *text = marked;
        }
    }
}

/// The front matter and the body of a Markdown file (`---\n...\n---\n` then the body).
fn split_front_matter(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n").map(|i| (i, i + 5)).or_else(|| {
        rest.strip_suffix("\n---")
            .map(|front| (front.len(), rest.len()))
    })?;
    Some((&rest[..end.0 + 1], &rest[end.1..]))
}

/// A copy of the content directory for the validation of a save: its text files copied, its
/// pictures linked.
pub(super) fn copy_content(from: &Path, to: &Path) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry?;
        let rel = entry.path().strip_prefix(from)?;
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else if matches!(
            entry.path().extension().and_then(|e| e.to_str()),
            Some("yaml" | "md")
        ) {
            std::fs::copy(entry.path(), &target)?;
        } else {
            std::os::unix::fs::symlink(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// `value` as the editor's `fields` show it: each map of the model a list of entries with
/// their key, a file that is a map or a list under [`fields::ROOT_MAP`].
fn present(value: Value, fields: &[Field]) -> Value {
    if let [root] = fields
        && root.name == fields::ROOT_MAP
    {
        let mut doc = Mapping::new();
        doc.insert(fields::ROOT_MAP.into(), present_field(value, root));
        return Value::Mapping(doc);
    }
    present_fields(value, fields)
}

fn present_fields(value: Value, fields: &[Field]) -> Value {
    let Value::Mapping(mut map) = value else {
        return value;
    };
    for field in fields {
        let key = Value::from(field.name.as_str());
        if let Some(inner) = map.remove(&key) {
            map.insert(key, present_field(inner, field));
        }
    }
    Value::Mapping(map)
}

fn present_field(value: Value, field: &Field) -> Value {
    let is_map = field
        .fields
        .first()
        .is_some_and(|f| f.name == fields::MAP_KEY);
    match value {
        Value::Mapping(map) if is_map => Value::Sequence(
            map.into_iter()
                .map(|(key, value)| {
                    let mut entry = Mapping::new();
                    entry.insert(fields::MAP_KEY.into(), key);
                    match field.fields.get(1).filter(|f| f.name == fields::MAP_VALUE) {
                        Some(_) => {
                            entry.insert(fields::MAP_VALUE.into(), value);
                        }
                        None => {
                            if let Value::Mapping(inner) = present_fields(value, &field.fields[1..])
                            {
                                entry.extend(inner);
                            }
                        }
                    }
                    Value::Mapping(entry)
                })
                .collect(),
        ),
        Value::Sequence(items) => Value::Sequence(
            items
                .into_iter()
                .map(|item| match &field.field {
                    Some(one) => present_field(item, one),
                    None => present_fields(item, &field.fields),
                })
                .collect(),
        ),
        value @ Value::Mapping(_) => present_fields(value, &field.fields),
        value => value,
    }
}

/// The inverse of [`present`]: the editor's document as the file holds it.
pub(super) fn unpresent(value: Value, fields: &[Field]) -> Value {
    if let [root] = fields
        && root.name == fields::ROOT_MAP
    {
        let inner = value.get(fields::ROOT_MAP).cloned().unwrap_or(Value::Null);
        return unpresent_field(inner, root);
    }
    unpresent_fields(value, fields)
}

fn unpresent_fields(value: Value, fields: &[Field]) -> Value {
    let Value::Mapping(map) = value else {
        return value;
    };
    // In the editor's order, which is the model's: a key added is written at its place.
    Value::Mapping(
        map.into_iter()
            .map(|(key, inner)| {
                match fields
                    .iter()
                    .find(|f| key.as_str() == Some(f.name.as_str()))
                {
                    Some(field) => (key, unpresent_field(inner, field)),
                    None => (key, inner),
                }
            })
            .collect(),
    )
}

fn unpresent_field(value: Value, field: &Field) -> Value {
    let is_map = field
        .fields
        .first()
        .is_some_and(|f| f.name == fields::MAP_KEY);
    match value {
        Value::Sequence(items) if is_map => Value::Mapping(
            items
                .into_iter()
                .filter_map(|item| {
                    let Value::Mapping(mut entry) = item else {
                        return None;
                    };
                    let key = entry.remove(fields::MAP_KEY)?;
                    let value = match entry.remove(fields::MAP_VALUE) {
                        Some(value) => value,
                        None => unpresent_fields(Value::Mapping(entry), &field.fields[1..]),
                    };
                    Some((key, value))
                })
                .collect(),
        ),
        Value::Sequence(items) => Value::Sequence(
            items
                .into_iter()
                .map(|item| match &field.field {
                    Some(one) => unpresent_field(item, one),
                    None => unpresent_fields(item, &field.fields),
                })
                .collect(),
        ),
        value @ Value::Mapping(_) => unpresent_fields(value, &field.fields),
        value => value,
    }
}

/// The actions of the proxy protocol that only read: what [`answer_reads`] answers.
pub const READ_ACTIONS: &[&str] = &["entriesByFolder", "entriesByFiles", "getEntry"];

/// The answers to the read `requests` (JSON text each) of the content under `content_dir`, as
/// `sitegen dev`'s editor gets them: the reference that the live editor's presentation in
/// TypeScript (`site/admin/present.ts`) is checked against (`sitegen cms present`). A request
/// that would write is refused.
pub fn answer_reads(content_dir: &Path, requests: &[String]) -> anyhow::Result<Vec<Json>> {
    let backend = super::Backend::Local {
        proxy_url: super::LOCAL_PROXY_URL.into(),
    };
    let config = super::config(content_dir, super::CONTENT_PATH, backend)?;
    // The validation's public/ is never read: nothing here saves.
    let local = Local::new(content_dir, Path::new("public"), config)?;
    requests
        .iter()
        .map(|text| {
            let request: Request = serde_json::from_str(text)
                .with_context(|| format!("request `{text}`: not {{action, params}}"))?;
            anyhow::ensure!(
                READ_ACTIONS.contains(&request.action.as_str()),
                "request `{text}`: `{}` is not one of the reads {READ_ACTIONS:?}",
                request.action
            );
            local
                .handle(&request)
                .with_context(|| format!("request `{text}`"))
        })
        .collect()
}

/// Where the editor's requests reach [`Local`]: the dev server forwards `POST /admin/api/v1`
/// here (`site/lib/devAdmin.ts`).
pub fn router(content_dir: PathBuf, public_dir: PathBuf) -> axum::Router {
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    let dirs = std::sync::Arc::new((content_dir, public_dir));
    // Pictures come in the request's body: more than axum's default 2 MB.
    let body_limit = axum::extract::DefaultBodyLimit::max(super::media::MAX_REQUEST_BYTES);
    axum::Router::new()
        .route(
            super::LOCAL_PROXY_URL,
            axum::routing::post(move |axum::Json(request): axum::Json<Request>| {
                let dirs = std::sync::Arc::clone(&dirs);
                async move {
                    let answer = tokio::task::spawn_blocking(move || {
                        let (content_dir, public_dir) = &*dirs;
                        // Read again for each request: a new author is a new choice at once.
                        let backend = super::Backend::Local {
                            proxy_url: super::LOCAL_PROXY_URL.into(),
                        };
                        let config = super::config(content_dir, super::CONTENT_PATH, backend)?;
                        Local::new(content_dir, public_dir, config)?
                            .handle(&request)
                            .map_err(anyhow::Error::from)
                    })
                    .await;
                    let failed = |status: StatusCode, message: String| {
                        (status, axum::Json(json!({ "error": message }))).into_response()
                    };
                    match answer {
                        Ok(Ok(json)) => axum::Json(json).into_response(),
                        Ok(Err(err)) => match err.downcast_ref::<LocalError>() {
                            // The editor shows `error`; `fields` places each mistake at its
                            // field (site/admin/fieldErrors.ts).
                            Some(LocalError::Invalid { message, fields }) => (
                                StatusCode::UNPROCESSABLE_ENTITY,
                                axum::Json(json!({ "error": message, "fields": fields })),
                            )
                                .into_response(),
                            Some(LocalError::Refused(_) | LocalError::Unsupported(_)) => {
                                failed(StatusCode::UNPROCESSABLE_ENTITY, err.to_string())
                            }
                            _ => {
                                eprintln!("sitegen dev: the editor's request failed: {err:#}");
                                failed(StatusCode::INTERNAL_SERVER_ERROR, format!("{err:#}"))
                            }
                        },
                        Err(err) => failed(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()),
                    }
                }
            }),
        )
        .layer(body_limit)
}
