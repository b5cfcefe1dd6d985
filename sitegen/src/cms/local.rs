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
//! - A save is written into the file's text by [`super::edit`] (only the values changed), and
//!   only after the whole content, with the save in it, passes the validation of
//!   `sitegen validate`: an invalid save is answered with the errors, each naming its file, line
//!   and field, and nothing is written.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Deserialize;
use serde_json::{Value as Json, json};
use serde_yaml::{Mapping, Value};

use super::fields::{self, Field};
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
    /// The save would make the content invalid, or cannot be written in place; nothing was
    /// written.
    #[error("{0}")]
    Refused(String),
    /// The request is not one this backend answers.
    #[error("{0}")]
    Unsupported(String),
    /// Reading or writing a file failed.
    #[error(transparent)]
    Io(#[from] anyhow::Error),
}

/// The content directory the editor works on, and the configuration it was given.
#[derive(Debug)]
pub struct Local {
    /// The repository's root: the editor's paths (`content/pages/about.yaml`) are relative to it.
    root: PathBuf,
    /// `content/` under it.
    content_dir: PathBuf,
    /// The site's `public/`, for the validation.
    public_dir: PathBuf,
    /// The site's languages, the default first.
    locales: Vec<String>,
    /// The editor's configuration, for the fields of each file.
    config: Config,
}

impl Local {
    /// The backend of the content under `content_dir` (`<root>/content`).
    pub fn new(content_dir: &Path, public_dir: &Path, config: Config) -> anyhow::Result<Self> {
        let content_dir = std::path::absolute(content_dir)?;
        let root = content_dir
            .parent()
            .context("the content directory has no parent")?
            .to_owned();
        Ok(Self {
            root,
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
            "info" => {
                Ok(json!({"repo": "content", "publish_modes": ["simple"], "type": "local_fs"}))
            }
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
            "persistEntry" => {
                let files: Vec<DataFile> = serde_json::from_value(params["dataFiles"].clone())
                    .map_err(|err| LocalError::Unsupported(format!("dataFiles: {err}")))?;
                let assets = params["assets"].as_array().map_or(0, Vec::len);
                if assets > 0 {
                    return Err(LocalError::Unsupported(
                        "uploading pictures is not saved through sitegen dev yet: put the file under content/images/".into(),
                    ));
                }
                self.persist(&files)?;
                Ok(json!({"message": "entry persisted"}))
            }
            "getMedia" => Ok(json!([])),
            "getDeployPreview" => Ok(Json::Null),
            other => Err(LocalError::Unsupported(format!(
                "`{other}` is not done through sitegen dev"
            ))),
        }
    }

    /// The entries of the folder collection at `folder` (`content/articles`): each article,
    /// its source as the default language's file (`SLUG.en.md`).
    fn folder_entries(&self, folder: &str) -> Result<Vec<Json>, LocalError> {
        let dir = self.root.join(folder);
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
        if path.contains("..") || !path.starts_with("content/") {
            return Err(LocalError::Unsupported(format!(
                "{path}: not a content file"
            )));
        }
        let suffix = format!(".{}.md", self.default());
        let path = match path.strip_suffix(&suffix) {
            Some(stem) => format!("{stem}.md"),
            None => path.to_owned(),
        };
        Ok(self.root.join(path))
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

    /// Writes `files` if the content with them passes the validation, else writes nothing.
    fn persist(&self, files: &[DataFile]) -> Result<(), LocalError> {
        let mut writes: Vec<(PathBuf, String)> = Vec::new();
        for file in files {
            match self.file_entry(&file.path) {
                Some((fields, translated)) => {
                    writes.extend(self.file_writes(&file.path, &file.raw, fields, translated)?);
                }
                None => {
                    let disk = self.disk_path(&file.path)?;
                    writes.push((disk.clone(), article_text(&disk, &file.raw)?));
                }
            }
        }
        writes.retain(|(path, text)| std::fs::read_to_string(path).ok().as_deref() != Some(text));
        self.validate_with(&writes)?;
        for (path, text) in &writes {
            let tmp = path.with_extension("cms-tmp");
            std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))?;
        }
        Ok(())
    }

    /// The files a save of the file entry `path` writes: its own, and its translations'.
    fn file_writes(
        &self,
        path: &str,
        raw: &str,
        fields: &[Field],
        translated: bool,
    ) -> Result<Vec<(PathBuf, String)>, LocalError> {
        let source = self.disk_path(path)?;
        let document: Value = yaml::value_from_str(raw)
            .map_err(|err| LocalError::Refused(format!("{path}: {}", err.message)))?;
        let mut out = Vec::new();
        let mut write = |file: PathBuf, value: Value| -> Result<(), LocalError> {
            let value = unpresent(value, fields);
            let text = match file.exists() {
                true => {
                    let original = read(&file)?;
                    super::edit::apply(&original, &value).map_err(|err| {
                        LocalError::Refused(format!("{}: {err}", rel(&self.root, &file)))
                    })?
                }
                false if super::edit::blank(&value) => return Ok(()),
                false => new_file_text(&self.content_dir, &file, &value)?,
            };
            out.push((file, text));
            Ok(())
        };
        if !translated {
            write(source, document)?;
            return Ok(out);
        }
        for (i, tag) in self.locales.iter().enumerate() {
            let value = document.get(tag.as_str()).cloned().unwrap_or(Value::Null);
            let file = match i {
                0 => source.clone(),
                _ => translation_path(&source, tag),
            };
            write(file, value)?;
        }
        Ok(out)
    }

    /// Loads the content as it would be with `writes` made, in a copy, and refuses the save
    /// with every mistake when it is not valid.
    fn validate_with(&self, writes: &[(PathBuf, String)]) -> Result<(), LocalError> {
        if writes.is_empty() {
            return Ok(());
        }
        let scratch = tempfile::tempdir().context("creating a scratch directory")?;
        let copy = scratch.path().join("content");
        copy_content(&self.content_dir, &copy)?;
        for (path, text) in writes {
            let rel = path
                .strip_prefix(&self.content_dir)
                .with_context(|| format!("{} is outside the content", path.display()))?;
            std::fs::write(copy.join(rel), text)
                .with_context(|| format!("writing {}", rel.display()))?;
        }
        let shown = crate::content::Publishing::preview();
        match content::Content::load_with(&copy, &self.public_dir, None, &shown) {
            Ok(_) => Ok(()),
            // Each mistake named by the file the author knows, not the scratch copy's.
            Err(errors) => Err(LocalError::Refused(format!(
                "not saved, the content would not be valid:\n{}",
                errors
                    .to_string()
                    .replace(&format!("{}/", copy.display()), "content/")
            ))),
        }
    }
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
/// values changed), then the body as the editor gives it.
pub(super) fn article_text(disk: &Path, raw: &str) -> Result<String, LocalError> {
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
        None => serde_yaml::to_string(&super::edit::without_blanks(new))
            .map_err(|err| LocalError::Io(err.into()))?,
    };
    let front = front.trim_end_matches('\n');
    Ok(format!("---\n{front}\n---\n{body}"))
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
    let Value::Mapping(mut map) = value else {
        return value;
    };
    for field in fields {
        let key = Value::from(field.name.as_str());
        if let Some(inner) = map.remove(&key) {
            map.insert(key, unpresent_field(inner, field));
        }
    }
    Value::Mapping(map)
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

/// Where the editor's requests reach [`Local`]: the dev server forwards `POST /admin/api/v1`
/// here (`site/lib/devAdmin.ts`).
pub fn router(content_dir: PathBuf, public_dir: PathBuf) -> axum::Router {
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    let dirs = std::sync::Arc::new((content_dir, public_dir));
    axum::Router::new().route(
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
                    let config = super::config(content_dir, "content", backend)?;
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
}
