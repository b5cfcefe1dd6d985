//! Saves that change only what was edited: the new values of a YAML document written into its
//! original text, each in place of the old one, in the old one's quoting.
//!
//! An editor hands back a whole document. Serialised afresh it would lose the comments, the key
//! order, the quoting and the line breaks the authors chose, and every save would be a diff of
//! the whole file. Here the old and the new documents are compared, and only the scalars whose
//! values differ are rewritten, at the byte positions the parser reports: a one-field edit is a
//! one-line diff. A change of shape (a key added or removed, a list grown or shrunk) is not
//! written yet: it is refused with the field it concerns, and the file is left as it was. Nor is
//! anything written that does not read back as the edited document.

use std::collections::HashMap;

use serde_yaml::Value;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::content::yaml;

/// Why a document cannot be written into its original text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The original does not parse.
    #[error("the file does not parse: {0}")]
    Original(String),
    /// The edit changes the document's shape at `field`, which is not written in place yet.
    #[error("{field}: {what}; edit the file itself for this change")]
    Shape {
        /// The field, as errors name fields (`hero.actions[1].label`).
        field: String,
        /// What changed.
        what: String,
    },
    /// The text written in place does not read back as the edited document: a value shared
    /// through a YAML anchor (`&errors` ... `*errors`) changes in every place that names it.
    #[error(
        "{field}: its value is shared with other places of the file (a YAML anchor); edit the file itself for this change"
    )]
    Shared {
        /// The first field edited.
        field: String,
    },
    /// The value at `field` is written in a way that is not rewritten in place yet (a block
    /// scalar, a plain scalar over several lines).
    #[error(
        "{field}: its value is written over several lines; edit the file itself for this change"
    )]
    Style {
        /// The field.
        field: String,
    },
}

/// `original` with the values of `new` written in place of those that differ, everything
/// else (comments, key order, quoting, untouched values) as it was.
pub fn apply(original: &str, new: &Value) -> Result<String, EditError> {
    let old = yaml::value_from_str(original).map_err(|err| EditError::Original(err.message))?;
    let mut changed = Vec::new();
    diff(&old, new, "", &mut changed)?;
    if changed.is_empty() {
        return Ok(original.to_owned());
    }
    let first = changed[0].0.clone();
    let scalars = scalar_positions(original);
    let mut edits: Vec<(usize, usize, String)> = changed
        .into_iter()
        .map(|(field, value)| {
            let scalar = scalars.get(&field).ok_or_else(|| EditError::Style {
                field: field.clone(),
            })?;
            let (start, style) = (scalar.start, scalar.style);
            let end = scalar_end(original, start, style, &scalar.value).ok_or_else(|| {
                EditError::Style {
                    field: field.clone(),
                }
            })?;
            Ok((start, end, render(value, style)))
        })
        .collect::<Result<_, EditError>>()?;
    edits.sort_by_key(|(start, ..)| std::cmp::Reverse(*start));
    let mut text = original.to_owned();
    for (start, end, replacement) in edits {
        text.replace_range(start..end, &replacement);
    }
    // Nothing is written that does not read back as the edited document.
    match yaml::value_from_str(&text) {
        Ok(written) if written == *new => Ok(text),
        _ => Err(EditError::Shared { field: first }),
    }
}

/// The scalars of `new` that differ from `old`'s at the same place, by field path; an error
/// for any other difference.
fn diff<'a>(
    old: &Value,
    new: &'a Value,
    path: &str,
    out: &mut Vec<(String, &'a Value)>,
) -> Result<(), EditError> {
    let shape = |what: String| EditError::Shape {
        field: if path.is_empty() {
            "(the file)".into()
        } else {
            path.to_owned()
        },
        what,
    };
    match (old, new) {
        (Value::Mapping(old), Value::Mapping(new)) => {
            for (key, value) in new {
                let name = key.as_str().unwrap_or_default();
                let at = join(path, name);
                match old.get(key) {
                    Some(before) => diff(before, value, &at, out)?,
                    // An editor writes an optional field left empty as `''`, `[]` or null.
                    None if blank(value) => {}
                    None => return Err(shape(format!("`{name}` is added"))),
                }
            }
            if let Some((key, _)) = old
                .iter()
                .find(|(key, value)| !new.contains_key(*key) && !blank(value))
            {
                return Err(shape(format!(
                    "`{}` is removed",
                    key.as_str().unwrap_or_default()
                )));
            }
        }
        (Value::Sequence(old), Value::Sequence(new)) => {
            if old.len() != new.len() {
                return Err(shape(format!(
                    "the list has {} items instead of {}",
                    new.len(),
                    old.len()
                )));
            }
            for (i, (before, after)) in old.iter().zip(new).enumerate() {
                diff(before, after, &format!("{path}[{i}]"), out)?;
            }
        }
        (Value::Tagged(_), _) | (_, Value::Tagged(_)) => {
            return Err(shape("a tagged value".into()));
        }
        (Value::Mapping(_) | Value::Sequence(_), _)
        | (_, Value::Mapping(_) | Value::Sequence(_)) => {
            return Err(shape("the value changes kind".into()));
        }
        (before, after) if same_scalar(before, after) => {}
        (_, after) => out.push((path.to_owned(), after)),
    }
    Ok(())
}

/// `path` and `key` as errors name fields: `hero` + `title` -> `hero.title`.
fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// Whether `value` holds nothing: null, an empty text, list or mapping, or one of blanks.
pub fn blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.is_empty(),
        Value::Sequence(items) => items.iter().all(blank),
        Value::Mapping(fields) => fields.values().all(blank),
        _ => false,
    }
}

/// `value` without its [`blank`] fields: what a new file holds of what an editor sends (an
/// optional field left empty is left out, as the model reads a missing one).
pub fn without_blanks(value: Value) -> Value {
    match value {
        Value::Mapping(fields) => Value::Mapping(
            fields
                .into_iter()
                .filter(|(_, value)| !blank(value))
                .map(|(key, value)| (key, without_blanks(value)))
                .collect(),
        ),
        Value::Sequence(items) => Value::Sequence(items.into_iter().map(without_blanks).collect()),
        value => value,
    }
}

/// Whether two scalars are the same value (`1` and `1.0` are not: the text would change).
fn same_scalar(a: &Value, b: &Value) -> bool {
    a == b
}

/// A scalar value as the parser read it.
struct Scalar {
    /// Where it starts: a byte offset once [`scalar_positions`] returns it.
    start: usize,
    /// How it is quoted.
    style: TScalarStyle,
    /// Its value.
    value: String,
}

/// Where each scalar value of `source` starts (a byte offset) and how it is quoted, by field
/// path. Keys are not listed, only values.
fn scalar_positions(source: &str) -> HashMap<String, Scalar> {
    #[derive(Default)]
    struct Walk {
        /// For each open container: its path, and for a mapping the key read last (`None`
        /// when the next scalar is a key), for a sequence the next item's index.
        stack: Vec<(String, Frame)>,
        out: HashMap<String, Scalar>,
    }
    enum Frame {
        Map(Option<String>),
        Seq(usize),
    }
    impl Walk {
        /// The path of the value about to start, or `None` when it is a mapping key.
        fn next_value(&mut self) -> Option<String> {
            match self.stack.last_mut() {
                None => Some(String::new()),
                Some((path, Frame::Map(key))) => key.take().map(|key| join(path, &key)),
                Some((path, Frame::Seq(index))) => {
                    *index += 1;
                    Some(format!("{path}[{}]", *index - 1))
                }
            }
        }
    }
    impl MarkedEventReceiver for Walk {
        fn on_event(&mut self, ev: Event, mark: Marker) {
            match ev {
                Event::Scalar(value, style, ..) => match self.next_value() {
                    Some(path) => {
                        let scalar = Scalar {
                            start: mark.index(),
                            style,
                            value,
                        };
                        self.out.insert(path, scalar);
                    }
                    None => {
                        if let Some((_, Frame::Map(key))) = self.stack.last_mut() {
                            *key = Some(value);
                        }
                    }
                },
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    let path = self.next_value().unwrap_or_default();
                    let frame = match ev {
                        Event::MappingStart(..) => Frame::Map(None),
                        _ => Frame::Seq(0),
                    };
                    self.stack.push((path, frame));
                }
                Event::MappingEnd | Event::SequenceEnd => {
                    self.stack.pop();
                }
                _ => {}
            }
        }
    }
    let mut walk = Walk::default();
    let mut parser = Parser::new_from_str(source);
    if parser.load(&mut walk, false).is_err() {
        return HashMap::new();
    }
    // yaml-rust2 counts its index in characters: the edits need bytes.
    let bytes: Vec<usize> = source.char_indices().map(|(i, _)| i).collect();
    walk.out
        .into_iter()
        .map(|(path, scalar)| {
            let start = bytes.get(scalar.start).copied().unwrap_or(source.len());
            (path, Scalar { start, ..scalar })
        })
        .collect()
}

/// Where the scalar `value` starting at byte `start` of `source` ends, for the styles written
/// on one line; `None` for a block scalar or a plain one over several lines.
fn scalar_end(source: &str, start: usize, style: TScalarStyle, value: &str) -> Option<usize> {
    let rest = &source[start..];
    let line = rest.split('\n').next().unwrap_or_default();
    let len = match style {
        // A plain scalar on one line is its value as written: it ends where the value does, in
        // a block (` # comment`) as in a flow (`{ a: b, c: d }`). One that folds over several
        // lines reads back otherwise.
        TScalarStyle::Plain => match rest.starts_with(value) && !value.contains('\n') {
            true => value.len(),
            false => return None,
        },
        TScalarStyle::SingleQuoted => {
            let mut chars = line.char_indices().skip(1).peekable();
            loop {
                let (i, c) = chars.next()?;
                if c == '\'' {
                    if chars.peek().is_some_and(|(_, c)| *c == '\'') {
                        chars.next();
                    } else {
                        break i + 1;
                    }
                }
            }
        }
        TScalarStyle::DoubleQuoted => {
            let mut chars = line.char_indices().skip(1);
            loop {
                let (i, c) = chars.next()?;
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break i + 1,
                    _ => {}
                }
            }
        }
        _ => return None,
    };
    Some(start + len)
}

/// `value` written as one scalar, in `style` when that can hold it.
fn render(value: &Value, style: TScalarStyle) -> String {
    let Value::String(text) = value else {
        // Numbers, booleans and null are written plain, as YAML reads them back.
        return serde_yaml::to_string(value)
            .map(|s| s.trim_end().to_owned())
            .unwrap_or_default();
    };
    let double = || serde_json::to_string(text).unwrap_or_default();
    if text.contains('\n') {
        return double();
    }
    match style {
        TScalarStyle::SingleQuoted => format!("'{}'", text.replace('\'', "''")),
        TScalarStyle::DoubleQuoted => double(),
        _ => {
            // Plain when YAML reads it back as this same string; else quoted, as serde_yaml
            // would quote it.
            let plain = serde_yaml::to_string(value).unwrap_or_default();
            let plain = plain.trim_end();
            if plain == text {
                text.clone()
            } else {
                plain.to_owned()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(original: &str, change: impl FnOnce(&mut Value)) -> Result<String, EditError> {
        let mut value: Value = serde_yaml::from_str(original).expect("parses");
        change(&mut value);
        apply(original, &value)
    }

    fn set(value: &mut Value, path: &[&str], to: &str) {
        let mut at = value;
        for key in path {
            at = match key.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*key],
            };
        }
        *at = Value::String(to.into());
    }

    /// The lines of `b` that are not the same line of `a` (both have as many lines).
    fn changed_lines(a: &str, b: &str) -> Vec<String> {
        assert_eq!(a.lines().count(), b.lines().count(), "{b}");
        a.lines()
            .zip(b.lines())
            .filter(|(x, y)| x != y)
            .map(|(_, y)| y.to_owned())
            .collect()
    }

    const PAGE: &str =
        "# yaml-language-server: $schema=../../site/schema/json/pages/about.schema.json
# translated_from: cb367b75d9982a2e
meta:
  title: About Us | Nordvale   # the tab
  description: 'We build what lasts: it''s simple.'
hero:
  title: \"Engineering for the long run\"
  lead: >-
    Folded text
    over two lines.
  actions:
    - label: Talk to us
      href: /contact
    - { label: Õppige, href: /et/about }
";

    #[test]
    fn a_one_field_edit_is_a_one_line_diff_keeping_comments_and_order() {
        let got = edit(PAGE, |v| set(v, &["meta", "title"], "About | Nordvale")).expect("edit");
        assert_eq!(
            changed_lines(PAGE, &got),
            ["  title: About | Nordvale   # the tab"]
        );
    }

    #[test]
    fn each_value_keeps_its_quoting() {
        let got = edit(PAGE, |v| {
            set(v, &["meta", "description"], "It's what we do.");
            set(v, &["hero", "title"], "Built to \"last\"");
        })
        .expect("edit");
        assert_eq!(
            changed_lines(PAGE, &got),
            [
                "  description: 'It''s what we do.'",
                "  title: \"Built to \\\"last\\\"\""
            ]
        );
    }

    #[test]
    fn a_plain_value_that_would_read_back_otherwise_is_quoted() {
        let got = edit(PAGE, |v| {
            set(v, &["hero", "actions", "0", "label"], "yes: now")
        })
        .expect("edit");
        assert_eq!(changed_lines(PAGE, &got), ["    - label: 'yes: now'"]);
        let back: Value = serde_yaml::from_str(&got).expect("parses");
        assert_eq!(back["hero"]["actions"][0]["label"], "yes: now");
    }

    #[test]
    fn positions_after_non_ascii_text_are_bytes() {
        let got = edit(PAGE, |v| {
            set(v, &["hero", "actions", "1", "href"], "/et/meist")
        })
        .expect("edit");
        assert_eq!(
            changed_lines(PAGE, &got),
            ["    - { label: Õppige, href: /et/meist }"]
        );
    }

    #[test]
    fn an_untouched_save_changes_nothing() {
        assert_eq!(edit(PAGE, |_| {}).expect("edit"), PAGE);
    }

    #[test]
    fn a_change_of_shape_is_refused_with_its_field() {
        let err = edit(PAGE, |v| {
            v["hero"]["actions"].as_sequence_mut().expect("list").pop();
        })
        .expect_err("shape");
        assert_eq!(
            err.to_string(),
            "hero.actions: the list has 1 items instead of 2; edit the file itself for this change"
        );
        let err =
            edit(PAGE, |v| set(v, &["meta", "share_image"], "/images/x.jpg")).expect_err("added");
        assert!(
            err.to_string().starts_with("meta: `share_image` is added"),
            "{err}"
        );
    }

    #[test]
    fn a_value_shared_through_an_anchor_is_refused() {
        let original = "a: &words\n  hello: Hi\nb: *words\n";
        let err = edit(original, |v| set(v, &["a", "hello"], "Hey")).expect_err("shared");
        assert_eq!(
            err,
            EditError::Shared {
                field: "a.hello".into()
            }
        );
    }

    #[test]
    fn a_new_file_leaves_out_the_fields_left_empty() {
        let sent: Value =
            serde_yaml::from_str("title: New\nslug: ''\naliases: []\nmeta: {share_image: null}\n")
                .expect("yaml");
        let kept: Value = serde_yaml::from_str("title: New\n").expect("yaml");
        assert_eq!(without_blanks(sent), kept);
    }

    #[test]
    fn a_block_scalar_is_refused_not_garbled() {
        let err = edit(PAGE, |v| set(v, &["hero", "lead"], "New lead.")).expect_err("block");
        assert_eq!(
            err,
            EditError::Style {
                field: "hero.lead".into()
            }
        );
    }
}
