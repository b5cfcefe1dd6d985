//! Reads content files, keeping their text so later checks can point at lines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    sources: BTreeMap<String, Arc<str>>,
    /// Lines before a file's YAML (an article's front matter starts on line 2).
    line_offsets: BTreeMap<String, usize>,
    pub(crate) errors: Vec<ContentError>,
    /// What is worth fixing but builds as it is (a redirect chain, collapsed).
    pub(crate) warnings: Vec<ContentError>,
}

impl Loader {
    pub(crate) fn new(root: &Path) -> Self {
        Self {
            root: root.to_owned(),
            sources: BTreeMap::new(),
            line_offsets: BTreeMap::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// A loader for the same directory, e.g. for one file read on another thread; its findings
    /// join this one's with [`Loader::absorb`].
    pub(crate) fn fork(&self) -> Self {
        Self::new(&self.root)
    }

    /// Takes in what `other` (a [`Loader::fork`]) read and found.
    pub(crate) fn absorb(&mut self, other: Self) {
        self.sources.extend(other.sources);
        self.line_offsets.extend(other.line_offsets);
        self.errors.extend(other.errors);
        self.warnings.extend(other.warnings);
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

    /// Parses `text` as the content of `rel`.
    pub(crate) fn parse<T: DeserializeOwned>(&mut self, rel: &str, text: String) -> Option<T> {
        let parsed = yaml::from_str(&text);
        self.sources.insert(rel.to_owned(), text.into());
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
        self.parse(rel, text)
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
        let (line, column) = Positions::index(self.sources.get(rel)?).find_key(field, n)?;
        Some((line + self.offset(rel), column))
    }

    /// The line and column of `field` (a path like `hero.actions[0].href`) in the whole file
    /// `rel`, when it was read.
    pub(crate) fn position(&self, rel: &str, field: &str) -> Option<(usize, usize)> {
        let (line, column) = Positions::index(self.sources.get(rel)?).find(field)?;
        Some((line + self.offset(rel), column))
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }
}

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
