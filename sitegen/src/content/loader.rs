//! Reads content files, keeping their text so later checks can point at lines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::error::ContentError;
use super::locate::Positions;
use super::yaml;

/// Reads files relative to the content directory and collects every error instead of stopping.
#[derive(Debug)]
pub(crate) struct Loader {
    root: PathBuf,
    sources: BTreeMap<String, String>,
    pub(crate) errors: Vec<ContentError>,
}

impl Loader {
    pub(crate) fn new(root: &Path) -> Self {
        Self {
            root: root.to_owned(),
            sources: BTreeMap::new(),
            errors: Vec::new(),
        }
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
        self.sources.insert(rel.to_owned(), text);
        match parsed {
            Ok(value) => Some(value),
            Err(err) => {
                self.errors.push(ContentError {
                    file: self.root.join(rel),
                    line: err.line,
                    column: err.column,
                    message: err.message,
                });
                None
            }
        }
    }

    /// Records an error at `field` (a path like `hero.actions[0].href`) of file `rel`.
    pub(crate) fn error(&mut self, rel: &str, field: Option<&str>, message: String) {
        let position = field.and_then(|field| {
            self.sources
                .get(rel)
                .and_then(|text| Positions::index(text).find(field))
        });
        self.errors.push(ContentError {
            file: self.root.join(rel),
            line: position.map(|p| p.0),
            column: position.map(|p| p.1),
            message,
        });
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }
}
