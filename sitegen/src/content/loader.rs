//! Reads content files, keeping their text so later checks can point at lines.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::de::DeserializeOwned;

use super::error::ContentError;
use super::locate::Positions;
use super::yaml;

/// The folder of the article files, under the content directory.
pub const ARTICLES_DIR: &str = "articles";
/// The authors file, under the content directory.
pub const AUTHORS_FILE: &str = "authors.yaml";

/// Reads files relative to the content directory and collects every error instead of stopping.
#[derive(Debug, Clone)]
pub(crate) struct Loader {
    root: PathBuf,
    /// Each file's text, shared with the memo of `sitegen dev` rather than copied.
    sources: foldhash::HashMap<String, Source>,
    /// Lines before a file's YAML (an article's front matter starts on line 2).
    line_offsets: foldhash::HashMap<String, usize>,
    pub(crate) errors: Vec<ContentError>,
    /// What is worth fixing but builds as it is (a redirect chain, collapsed).
    pub(crate) warnings: Vec<ContentError>,
    /// The language whose translations [`Loader::file`] lays over the sources (`et`); `None`
    /// reads the sources as they are.
    language: Option<String>,
    /// The source files that have a translation into `language` (`pages/about.yaml`).
    pub(crate) translated: std::collections::BTreeSet<String>,
    /// The files under the root, listed once for this loader, its forks and the loaders of
    /// the other languages.
    files: Files,
}

/// Every file under a content directory, by its path relative to it with `/` separators
/// (`articles/launch.md`), in the order walked: listed the first time it is asked for, and
/// then shared. One load asks for it several times (the articles of each language, the
/// translation files, the files no model reads); an archive's thousands of articles are
/// listed once.
#[derive(Debug, Clone, Default)]
pub(crate) struct Files(Arc<OnceLock<Vec<String>>>);

impl Files {
    fn of(&self, root: &Path) -> &[String] {
        self.0.get_or_init(|| list(root))
    }
}

/// The files under `root`, by their path relative to it. A link is read as what it links to:
/// a linked file is a file, and a linked folder's files are listed under the link's name (the
/// links inside it are not followed, so no circle of links is walked forever). Only a link
/// costs a `stat`: every other entry's type comes with its directory's listing.
fn list(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut linked_dirs = Vec::new();
    let mut add = |path: &Path| {
        if let Ok(rel) = path.strip_prefix(root) {
            files.push(rel.to_string_lossy().replace('\\', "/"));
        }
    };
    for entry in walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
    {
        let kind = entry.file_type();
        if kind.is_file() {
            add(entry.path());
        } else if kind.is_symlink() {
            match std::fs::metadata(entry.path()) {
                Ok(target) if target.is_file() => add(entry.path()),
                Ok(target) if target.is_dir() => linked_dirs.push(entry.into_path()),
                _ => {}
            }
        }
    }
    for linked in linked_dirs {
        // Followed, as a walk's root is; what is under it is named under the link.
        for entry in walkdir::WalkDir::new(&linked)
            .min_depth(1)
            .into_iter()
            .filter_map(Result::ok)
        {
            if entry.file_type().is_file() {
                add(entry.path());
            }
        }
    }
    files
}

/// A file's text, and where its fields are written: indexed the first time a position is asked
/// for, once for the loader and every clone of it (`sitegen dev`'s memo hands an unchanged
/// article's loader over again on every save, indexed already).
#[derive(Debug, Clone)]
struct Source {
    text: Arc<str>,
    positions: Arc<OnceLock<Positions>>,
}

impl Source {
    fn new(text: String) -> Self {
        Self {
            text: text.into(),
            positions: Arc::default(),
        }
    }

    fn positions(&self) -> &Positions {
        self.positions.get_or_init(|| Positions::index(&self.text))
    }
}

impl Loader {
    pub(crate) fn new(root: &Path) -> Self {
        Self {
            root: root.to_owned(),
            sources: foldhash::HashMap::default(),
            line_offsets: foldhash::HashMap::default(),
            errors: Vec::new(),
            warnings: Vec::new(),
            language: None,
            translated: std::collections::BTreeSet::new(),
            files: Files::default(),
        }
    }

    /// A loader that reads each file with its translation into `tag` laid over it, and lists
    /// the directory as `files` does.
    pub(crate) fn translating(root: &Path, tag: &str, files: Files) -> Self {
        Self {
            language: Some(tag.to_owned()),
            files,
            ..Self::new(root)
        }
    }

    /// Every file under the root (see [`Files`]).
    pub(crate) fn files(&self) -> &[String] {
        self.files.of(&self.root)
    }

    /// The listing of the root, for another loader of the same directory.
    pub(crate) fn listing(&self) -> Files {
        self.files.clone()
    }

    /// The language whose translations this loader reads, if any.
    pub(crate) fn language(&self) -> Option<&str> {
        self.language.as_deref()
    }

    /// A loader for the same directory, e.g. for one file read on another thread; its findings
    /// join this one's with [`Loader::absorb`].
    pub(crate) fn fork(&self) -> Self {
        Self {
            language: self.language.clone(),
            files: self.files.clone(),
            ..Self::new(&self.root)
        }
    }

    /// Takes in what `other` (a [`Loader::fork`]) read and found.
    pub(crate) fn absorb(&mut self, other: Self) {
        self.sources.extend(other.sources);
        self.line_offsets.extend(other.line_offsets);
        self.errors.extend(other.errors);
        self.warnings.extend(other.warnings);
        self.translated.extend(other.translated);
    }

    /// Reads and parses `rel` (a path under the content directory, with `/` separators).
    pub(crate) fn file<T: DeserializeOwned>(&mut self, rel: &str) -> Option<T> {
        let path = self.root.join(rel);
        match std::fs::read_to_string(&path) {
            Ok(text) => self.parse(rel, text),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                self.error(
                    rel,
                    None,
                    "file is missing; every page needs its content file".into(),
                );
                None
            }
            Err(err) => {
                self.error(rel, None, format!("cannot be read: {err}"));
                None
            }
        }
    }

    /// Parses `text` as the content of `rel`; a translating loader lays the translation of
    /// `rel`, when there is one, over it (see [`super::translate`]).
    pub(crate) fn parse<T: DeserializeOwned>(&mut self, rel: &str, text: String) -> Option<T> {
        if let Some(tag) = self.language.clone() {
            let translation = super::translate::translation_file(rel, &tag);
            if let Ok(words) = std::fs::read_to_string(self.root.join(&translation)) {
                return self
                    .parse_translated(rel, text, &translation, words, 0, &[])
                    .map(|(value, _)| value);
            }
        }
        self.parse_source(rel, text)
    }

    /// Parses `text`, the YAML of `rel`, with `words`, the YAML of its translation
    /// `translation` (starting after `lines_before` lines of that file), laid over it. The
    /// top-level fields `own_fields` belong to the translation alone (an article's `slug`):
    /// they are returned apart, not laid over the source.
    pub(crate) fn parse_translated<T: DeserializeOwned>(
        &mut self,
        rel: &str,
        text: String,
        translation: &str,
        words: String,
        lines_before: usize,
        own_fields: &[&str],
    ) -> Option<(T, yaml::Value)> {
        let source: Option<yaml::Value> = self.parse_source(rel, text);
        self.line_offsets
            .insert(translation.to_owned(), lines_before);
        let over: Option<yaml::Value> = self.parse_source(translation, words);
        let (source, mut over) = (source?, over?);
        let mut own = serde_yaml::Mapping::new();
        if let yaml::Value::Mapping(fields) = &mut over {
            for name in own_fields {
                if let Some(value) = fields.remove(*name) {
                    own.insert((*name).into(), value);
                }
            }
        }
        self.translated.insert(rel.to_owned());
        for section in ui_sections(rel) {
            for field in super::translate::untranslated(&source, &over, section, NOT_WORDS) {
                let at = field.split('[').next().unwrap_or(&field);
                let (line, column) = self
                    .position(translation, at)
                    .or_else(|| self.position(translation, section))
                    .unwrap_or((1 + lines_before, 1));
                self.error_at(
                    translation,
                    line,
                    column,
                    format!(
                        "`{field}` is missing: words of the interface are translated whole, or \
                         a reader meets the source's language; translate it"
                    ),
                );
            }
        }
        let (merged, mismatches) = super::translate::overlay(source, over);
        for mismatch in mismatches {
            self.error(translation, Some(&mismatch.field), mismatch.message);
        }
        match yaml::from_value(merged) {
            Ok(value) => Some((value, yaml::Value::Mapping(own))),
            Err(err) => {
                self.error(translation, None, err.message);
                None
            }
        }
    }

    fn parse_source<T: DeserializeOwned>(&mut self, rel: &str, text: String) -> Option<T> {
        let parsed = yaml::from_str(&text);
        self.sources.insert(rel.to_owned(), Source::new(text));
        match parsed {
            Ok(value) => Some(value),
            Err(err) => {
                let offset = self.offset(rel);
                self.errors.push(ContentError {
                    file: self.root.join(rel),
                    line: err.line.map(|line| line + offset),
                    column: err.column,
                    message: err.message,
                });
                None
            }
        }
    }

    /// Parses `text`, which starts after `lines_before` lines of the file `rel` (an article's
    /// front matter), so its errors point at lines of the whole file.
    pub(crate) fn parse_at<T: DeserializeOwned>(
        &mut self,
        rel: &str,
        text: String,
        lines_before: usize,
    ) -> Option<T> {
        self.line_offsets.insert(rel.to_owned(), lines_before);
        self.parse_source(rel, text)
    }

    /// Records an error at line `line`, column `column` of the whole file `rel`.
    pub(crate) fn error_at(&mut self, rel: &str, line: usize, column: usize, message: String) {
        self.errors.push(ContentError {
            file: self.root.join(rel),
            line: Some(line),
            column: Some(column),
            message,
        });
    }

    fn offset(&self, rel: &str) -> usize {
        self.line_offsets.get(rel).copied().unwrap_or(0)
    }

    /// Records an error at `field` (a path like `hero.actions[0].href`) of file `rel`.
    pub(crate) fn error(&mut self, rel: &str, field: Option<&str>, message: String) {
        let position = field.and_then(|field| self.position(rel, field));
        self.errors.push(ContentError {
            file: self.root.join(rel),
            line: position.map(|p| p.0),
            column: position.map(|p| p.1),
            message,
        });
    }

    /// The line and column of the `n`th time (0-based) the key `field` is written in `rel`.
    pub(crate) fn key_position(&self, rel: &str, field: &str, n: usize) -> Option<(usize, usize)> {
        let (line, column) = self.sources.get(rel)?.positions().find_key(field, n)?;
        Some((line + self.offset(rel), column))
    }

    /// The line and column of `field` (a path like `hero.actions[0].href`) in the whole file
    /// `rel`, when it was read.
    pub(crate) fn position(&self, rel: &str, field: &str) -> Option<(usize, usize)> {
        let (line, column) = self.sources.get(rel)?.positions().find(field)?;
        Some((line + self.offset(rel), column))
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }
}

/// The parts of the file `rel` that are words of the interface rather than of a page: a
/// translation must translate every one of them (a page's own words may fall back to the
/// source's until they are translated).
fn ui_sections(rel: &str) -> &'static [&'static str] {
    match rel {
        super::SITE_FILE => &[
            "nav",
            "footer.description",
            "footer.columns",
            "footer.social_label",
            "footer.copyright",
            "moved",
            "not_found",
            "ui",
            "dates",
        ],
        super::FORMS_FILE => &[
            "contact.messages",
            "enquiry.messages",
            "newsletter.messages",
            "newsletter.email",
            "auto_reply",
        ],
        _ => &[],
    }
}

/// The fields of those parts that are not words: addresses, icons, codes, references.
pub(crate) const NOT_WORDS: &[&str] = &["href", "icon", "links_from", "code"];

/// Which version of a file was read: changed by any write, rename over it or metadata change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    pub(crate) fn of(path: &Path) -> Option<Self> {
        use std::os::unix::fs::MetadataExt as _;
        let meta = std::fs::metadata(path).ok()?;
        Some(Self {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }
}
