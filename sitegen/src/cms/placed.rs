//! The mistakes of a refused save placed at the editor's fields, so that the editor shows each
//! under the field it concerns, besides the notification that lists them all.
//!
//! The validation (the same as `sitegen validate`) names a file, a line and a column; the file
//! is one the save writes, so the line and column are looked up in the text it would write, and
//! give the field ([`super::edit::field_at`]), named the editor's way: `meta.title` in a file of
//! its own, `et.meta.title` in the Estonian half of a page (the editor shows a translated file as
//! one document by language), `body` below an article's front matter.

use std::path::Path;

use serde::Serialize;
use serde_yaml::Value;

use crate::content::ContentErrors;

/// One mistake of a refused save, at its field of the editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The field's path in the editor's document: `et.hero.actions[0].href`, `date`, `body`.
    pub field: String,
    /// Its last name (`href`): what the editor's control of the field knows of itself.
    pub name: String,
    /// The language of the form the field is in, for a translated entry.
    pub locale: Option<String>,
    /// The value refused, for a scalar: which of several same-named controls it is.
    pub value: Option<String>,
    /// `content/pages/about.yaml:12:7`.
    pub location: String,
    /// What is wrong.
    pub message: String,
}

/// A file a save would write, as the editor knows it.
#[derive(Debug)]
pub struct Written<'a> {
    /// Its path under the content directory (`pages/about.et.yaml`).
    pub rel: &'a Path,
    /// The text it would have.
    pub text: &'a str,
    /// The language of its form, for a translated entry.
    pub locale: Option<&'a str>,
    /// Whether its fields are under their language in the editor's document (a translated
    /// file collection's `{en: ..., et: ...}`).
    pub nested: bool,
}

/// The mistakes of `errors` that fall in one of the files `written`, each at its field; `copy`
/// is the directory the content was validated in.
pub fn place(errors: &ContentErrors, copy: &Path, written: &[Written]) -> Vec<FieldError> {
    errors
        .0
        .iter()
        .filter_map(|error| {
            let rel = error.file.strip_prefix(copy).ok()?;
            let file = written.iter().find(|w| w.rel == rel)?;
            let line = error.line?;
            let column = error.column.unwrap_or(1);
            let (field, value) = field_of(file.text, rel, line, column)?;
            let name = field
                .rsplit('.')
                .next()
                .unwrap_or_default()
                .split('[')
                .next()
                .unwrap_or_default()
                .to_owned();
            let field = match (file.nested, file.locale) {
                (true, Some(tag)) => format!("{tag}.{field}"),
                _ => field,
            };
            Some(FieldError {
                field,
                name,
                locale: file.locale.map(str::to_owned),
                value,
                location: format!("content/{}:{line}:{column}", rel.display()),
                message: error.message.clone(),
            })
        })
        .collect()
}

/// The field at `line`:`column` of `text` and its value when it is a scalar; an article's body
/// is the field `body`.
fn field_of(
    text: &str,
    rel: &Path,
    line: usize,
    column: usize,
) -> Option<(String, Option<String>)> {
    let front = match rel.extension().and_then(|e| e.to_str()) {
        Some("md") => {
            let rest = text.strip_prefix("---\n")?;
            let front = &rest[..rest.find("\n---")? + 1];
            // The front matter's lines start after the opening `---`.
            if line <= 1 || line > front.lines().count() + 2 {
                return Some(("body".into(), None));
            }
            return locate(front, line - 1, column);
        }
        _ => text,
    };
    locate(front, line, column)
}

fn locate(yaml: &str, line: usize, column: usize) -> Option<(String, Option<String>)> {
    let field = super::edit::field_at(yaml, line, column)?;
    let document: Value = serde_yaml::from_str(yaml).ok()?;
    let value = value_at(&document, &field).and_then(|v| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    });
    Some((field, value))
}

/// The value at `path` (`hero.actions[1].href`) of `document`.
fn value_at<'a>(document: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(document, |at, part| {
        let mut pieces = part.split('[');
        let key = pieces.next()?;
        let at = match key.is_empty() {
            true => at,
            false => at.get(key)?,
        };
        pieces.try_fold(at, |at, index| {
            at.get(index.trim_end_matches(']').parse::<usize>().ok()?)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::ContentError;

    #[test]
    fn an_error_is_placed_at_its_field_in_its_language() {
        let copy = Path::new("/tmp/x/content");
        let page = "meta:\n  title: Meist\nhero:\n  actions:\n    - { label: A, href: /nowhere }\n";
        let article = "---\ntitle: T\ndate: someday\n---\nText with [a link](/nowhere).\n";
        let errors = ContentErrors(vec![
            ContentError {
                file: copy.join("pages/about.et.yaml"),
                line: Some(5),
                column: Some(25),
                message: "link `/nowhere` leads to no page".into(),
            },
            ContentError {
                file: copy.join("articles/a.md"),
                line: Some(3),
                column: Some(7),
                message: "date: not a date".into(),
            },
            ContentError {
                file: copy.join("articles/a.md"),
                line: Some(5),
                column: Some(11),
                message: "link `/nowhere` leads to no page".into(),
            },
            ContentError {
                file: copy.join("pages/other.yaml"),
                line: Some(1),
                column: Some(1),
                message: "not this save's".into(),
            },
        ]);
        let written = [
            Written {
                rel: Path::new("pages/about.et.yaml"),
                text: page,
                locale: Some("et"),
                nested: true,
            },
            Written {
                rel: Path::new("articles/a.md"),
                text: article,
                locale: Some("en"),
                nested: false,
            },
        ];
        let placed = place(&errors, copy, &written);
        let fields: Vec<(&str, &str, Option<&str>)> = placed
            .iter()
            .map(|e| (e.field.as_str(), e.name.as_str(), e.value.as_deref()))
            .collect();
        assert_eq!(
            fields,
            [
                ("et.hero.actions[0].href", "href", Some("/nowhere")),
                ("date", "date", Some("someday")),
                ("body", "body", None),
            ]
        );
        assert_eq!(placed[0].location, "content/pages/about.et.yaml:5:25");
    }
}
