//! Saves that change only what was edited: the edited document written into its original text,
//! each change in place of the text it replaces.
//!
//! An editor hands back a whole document. Serialised afresh it would lose the comments, the key
//! order, the quoting and the line breaks the authors chose, and every save would be a diff of
//! the whole file. Here the old and the new documents are compared over the positioned tree of
//! the text ([`tree`]): a scalar that changed is rewritten in its place and its quoting (a block
//! scalar stays `|` or `>`; a new text with line breaks becomes `|`); a key added is written as
//! its own lines at its place in the editor's (the model's) order, indented and quoted as the file
//! does ([`emit`]); a key removed or a list item removed loses its own lines only; a list item
//! added gets its lines, one moved keeps its text. A one-field edit is a one-line diff. What cannot
//! be written so (a value shared through an anchor, a key of an unusual form) is refused with its
//! field and reason, and nothing is written that does not read back as the edited document.

mod emit;
mod tree;

use serde_yaml::{Mapping, Value};
use yaml_rust2::scanner::TScalarStyle;

use crate::content::yaml;
use emit::Manner;
use tree::{Kind, Node, column, line_start, next_line};

/// Why a document cannot be written into its original text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The original does not parse.
    #[error("the file does not parse: {0}")]
    Original(String),
    /// The edit at `field` cannot be written into the text in place.
    #[error("{field}: {what}; edit the file itself for this change")]
    Shape {
        /// The field, as errors name fields (`hero.actions[1].label`).
        field: String,
        /// What cannot be written.
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
}

/// `original` with `new` written into it: the values that differ in place of the old ones, keys
/// and items added or removed as lines, everything else (comments, key order, quoting,
/// untouched values) as it was.
pub fn apply(original: &str, new: &Value) -> Result<String, EditError> {
    let old = yaml::value_from_str(original).map_err(|err| EditError::Original(err.message))?;
    if same(&old, new) {
        return Ok(original.to_owned());
    }
    let root = tree::parse(original).ok_or_else(|| EditError::Original("no document".into()))?;
    let mut writer = Writer {
        source: original,
        manner: manner(original, &root),
        edits: Vec::new(),
        first: None,
    };
    if !writer.node(&root, &old, new, "", 0)? {
        // The whole document changes kind: it is written afresh.
        let text = match new {
            Value::Mapping(_) | Value::Sequence(_) => emit::block(new, 0, &writer.manner),
            _ => emit::scalar(new, None, false, writer.manner.step, &writer.manner) + "\n",
        };
        writer
            .edits
            .push((line_start(original, root.start), original.len(), text));
    }
    let first = writer.first.clone().unwrap_or_else(|| "(the file)".into());
    let mut edits: Vec<(usize, (usize, usize, String))> =
        writer.edits.into_iter().enumerate().collect();
    // Latest first, so that each range is still where the text had it: a removal before an
    // insertion at its start, and of insertions at one place the one gathered last first, so
    // that they read in the order they were gathered (a nested key before its owner's next).
    edits.sort_by(|(i, a), (j, b)| (b.0, b.1, j).cmp(&(a.0, a.1, i)));
    let mut text = original.to_owned();
    for (_, (start, end, replacement)) in edits {
        text.replace_range(start..end, &replacement);
    }
    // Nothing is written that does not read back as the edited document.
    match yaml::value_from_str(&text) {
        Ok(written) if same(&written, new) => Ok(text),
        _ if original.contains('*') && has_alias(&root) => Err(EditError::Shared { field: first }),
        _ => Err(EditError::Shape {
            field: first,
            what: "the change does not read back as it was made when written in place".into(),
        }),
    }
}

/// The field of the YAML `text` at 1-based `line` and `column`, as errors name fields
/// (`hero.actions[1].href`): where an error of the content's validation belongs in the editor.
pub fn field_at(text: &str, line: usize, column: usize) -> Option<String> {
    tree::field_at(text, line, column)
}

/// Whether the document names a value shared through an anchor (`*name`).
fn has_alias(node: &Node) -> bool {
    match &node.kind {
        Kind::Alias => true,
        Kind::Map(entries) => entries.iter().any(|e| has_alias(&e.value)),
        Kind::Seq(items) => items.iter().any(|i| has_alias(&i.value)),
        Kind::Scalar(_) => false,
    }
}

/// Whether two documents hold the same: maps compared as maps, an optional field left empty
/// as if it were missing (an editor writes it as `''`, `[]` or null).
fn same(a: &Value, b: &Value) -> bool {
    without_blanks(a.clone()) == without_blanks(b.clone())
}

/// The file's manner of writing, learnt from its text: new text is written the same way.
fn manner(source: &str, root: &Node) -> Manner {
    /// What the text shows of its manner.
    #[derive(Default)]
    struct Seen {
        single: usize,
        double: usize,
        /// How much deeper each nested block mapping is than its key.
        steps: Vec<usize>,
        /// For each block list under a key, whether it is deeper than the key.
        indented_lists: Vec<bool>,
        /// For each flow mapping, whether a space follows its `{`.
        padded_braces: Vec<bool>,
    }
    fn walk(source: &str, node: &Node, seen: &mut Seen) {
        match &node.kind {
            Kind::Scalar(TScalarStyle::SingleQuoted) => seen.single += 1,
            Kind::Scalar(TScalarStyle::DoubleQuoted) => seen.double += 1,
            Kind::Map(entries) => {
                if node.flow && source[node.start..].starts_with('{') {
                    seen.padded_braces
                        .push(source[node.start + 1..].starts_with(' '));
                }
                for entry in entries {
                    let key = column(source, entry.key_start);
                    match &entry.value.kind {
                        Kind::Map(inner) if !entry.value.flow && !inner.is_empty() => {
                            let inner = column(source, inner[0].key_start);
                            if inner > key {
                                seen.steps.push(inner - key);
                            }
                        }
                        Kind::Seq(items) if !entry.value.flow && !items.is_empty() => {
                            seen.indented_lists
                                .push(column(source, items[0].dash) > key);
                        }
                        _ => {}
                    }
                    walk(source, &entry.value, seen);
                }
            }
            Kind::Seq(items) => items.iter().for_each(|i| walk(source, &i.value, seen)),
            Kind::Scalar(_) | Kind::Alias => {}
        }
    }
    let mut seen = Seen::default();
    walk(source, root, &mut seen);
    let default = Manner::default();
    Manner {
        step: seen.steps.iter().copied().min().unwrap_or(default.step),
        indent_lists: seen
            .indented_lists
            .first()
            .copied()
            .unwrap_or(default.indent_lists),
        quote: match seen.double > seen.single {
            true => '"',
            false => default.quote,
        },
        padded_braces: seen
            .padded_braces
            .first()
            .copied()
            .unwrap_or(default.padded_braces),
    }
}

/// The edits of one save, gathered before any is made.
struct Writer<'a> {
    source: &'a str,
    manner: Manner,
    /// `(start, end, replacement)` in bytes of the original.
    edits: Vec<(usize, usize, String)>,
    /// The first field edited, to name in an error.
    first: Option<String>,
}

impl Writer<'_> {
    /// Writes `new` in place of the `old` value at `node`; `false` when it cannot be written
    /// inside the node and the node's owner must write it whole. `indent` is the column a
    /// block written for the value starts at.
    fn node(
        &mut self,
        node: &Node,
        old: &Value,
        new: &Value,
        path: &str,
        indent: usize,
    ) -> Result<bool, EditError> {
        if same(old, new) {
            return Ok(true);
        }
        // An empty `{}` or `[]` of a block that gets values: its owner writes it as block lines.
        if !node.in_flow && blank(old) && is_collection(new) && !blank(new) {
            self.first.get_or_insert_with(|| field(path));
            return Ok(false);
        }
        match (&node.kind, old, new) {
            (Kind::Alias, ..) => Err(EditError::Shared { field: field(path) }),
            (Kind::Scalar(style), _, _) if !is_collection(old) && !is_collection(new) => {
                self.first.get_or_insert_with(|| field(path));
                let text = emit::scalar(new, Some(*style), node.flow, indent, &self.manner);
                self.edits.push((node.start, node.end, text));
                Ok(true)
            }
            (Kind::Map(entries), Value::Mapping(old), Value::Mapping(new)) => match node.flow {
                true => self.flow_map(node, entries, old, new, path),
                false => self.block_map(entries, old, new, path),
            },
            (Kind::Seq(items), Value::Sequence(old), Value::Sequence(new)) => match node.flow {
                true if old.len() == new.len() => {
                    for (i, (item, (before, after))) in
                        items.iter().zip(old.iter().zip(new)).enumerate()
                    {
                        if !self.node(
                            &item.value,
                            before,
                            after,
                            &format!("{path}[{i}]"),
                            indent,
                        )? {
                            return self.whole_flow(node, new_seq(new));
                        }
                    }
                    Ok(true)
                }
                true => self.whole_flow(node, new_seq(new)),
                false => self.block_seq(items, old, new, path),
            },
            // A value of another kind, or an empty collection written `[]`/`{}` that is no
            // longer empty: written afresh in its owner.
            _ if node.flow => {
                self.first.get_or_insert_with(|| field(path));
                self.whole_flow(node, new.clone())
            }
            _ => {
                self.first.get_or_insert_with(|| field(path));
                Ok(false)
            }
        }
    }

    /// A flow collection written afresh on its one line.
    fn whole_flow(&mut self, node: &Node, new: Value) -> Result<bool, EditError> {
        if self.source[node.start..node.end].contains('\n') {
            return Ok(false);
        }
        let text = emit::flow(&new, &self.manner);
        self.edits.push((node.start, node.end, text));
        Ok(true)
    }

    /// A flow mapping: its values in place while it keeps its keys, else written afresh.
    fn flow_map(
        &mut self,
        node: &Node,
        entries: &[tree::Entry],
        old: &Mapping,
        new: &Mapping,
        path: &str,
    ) -> Result<bool, EditError> {
        let kept = without_blanks(Value::Mapping(new.clone()));
        let keys_same = kept.as_mapping().is_some_and(|kept| {
            kept.len() == old.len() && old.keys().all(|k| kept.contains_key(k))
        });
        if keys_same {
            for entry in entries {
                let (Some(before), Some(after)) = (old.get(&entry.key), new.get(&entry.key)) else {
                    continue;
                };
                if !self.node(&entry.value, before, after, &join(path, &entry.key), 0)? {
                    return self.whole_flow(node, kept);
                }
            }
            return Ok(true);
        }
        self.whole_flow(node, kept)
    }

    /// A block mapping: values changed in place, keys removed as their lines, keys added as
    /// new lines after the key that precedes them in `new`'s order.
    fn block_map(
        &mut self,
        entries: &[tree::Entry],
        old: &Mapping,
        new: &Mapping,
        path: &str,
    ) -> Result<bool, EditError> {
        let Some(first) = entries.first() else {
            return Ok(false);
        };
        let keys_column = column(self.source, first.key_start);
        let step = self.manner.step;
        for entry in entries {
            let at = join(path, &entry.key);
            let before = old.get(&entry.key).unwrap_or(&Value::Null);
            match new.get(&entry.key) {
                Some(after) if !blank(after) => {
                    let indent = keys_column + step;
                    if !self.node(&entry.value, before, after, &at, indent)? {
                        let text = emit::entry(&entry.key, after, keys_column, &self.manner);
                        self.replace_lines(entry.key_start, entry.value.end, text, &at)?;
                    }
                }
                _ if blank(before) => {}
                _ => {
                    self.first.get_or_insert_with(|| field(&at));
                    self.replace_lines(entry.key_start, entry.value.end, String::new(), &at)?;
                }
            }
        }
        // Keys added: each after the nearest key before it (in the editor's order) that the
        // file has, else before the file's first key.
        let mut after: Option<&tree::Entry> = None;
        let mut pending: Vec<String> = Vec::new();
        let flush = |writer: &mut Self, after: Option<&tree::Entry>, pending: &mut Vec<String>| {
            if pending.is_empty() {
                return;
            }
            let text: String = pending.drain(..).collect();
            match after {
                Some(entry) => {
                    let at = next_line(writer.source, entry.value.end);
                    let text = match writer.source[..at].ends_with('\n') || at == 0 {
                        true => text,
                        false => format!("\n{}", text.trim_end_matches('\n')),
                    };
                    writer.edits.push((at, at, text));
                }
                None => {
                    // Before the first key, on its line: `- first:` keeps its dash.
                    let text = format!("{}{}", &text[keys_column..], " ".repeat(keys_column));
                    writer.edits.push((first.key_start, first.key_start, text));
                }
            }
        };
        for (key, value) in new {
            let name = emit::key_text(key);
            if let Some(entry) = entries.iter().find(|e| e.key == name) {
                flush(self, after, &mut pending);
                after = Some(entry);
                continue;
            }
            if blank(value) {
                continue;
            }
            self.first.get_or_insert_with(|| field(&join(path, &name)));
            pending.push(emit::entry(&name, value, keys_column, &self.manner));
        }
        flush(self, after, &mut pending);
        Ok(true)
    }

    /// A block sequence: the items kept in order stay as they are, those between them are
    /// edited in place pair by pair, removed as their lines or added as new lines; an item
    /// that moved keeps its text.
    fn block_seq(
        &mut self,
        items: &[tree::Item],
        old: &[Value],
        new: &[Value],
        path: &str,
    ) -> Result<bool, EditError> {
        let Some(first) = items.first() else {
            return Ok(false);
        };
        let dash_column = column(self.source, first.dash);
        let kept = common(old, new);
        let (mut i, mut j) = (0, 0);
        let mut removed: Vec<usize> = Vec::new();
        let mut added: Vec<(Option<usize>, usize)> = Vec::new();
        for (ki, kj) in kept.into_iter().chain([(old.len(), new.len())]) {
            let pairs = (ki - i).min(kj - j);
            for k in 0..pairs {
                let at = format!("{path}[{}]", j + k);
                let item = &items[i + k];
                if !self.node(&item.value, &old[i + k], &new[j + k], &at, dash_column + 2)? {
                    let text = emit::item(&new[j + k], dash_column, &self.manner);
                    self.replace_lines(item.dash, item.value.end, text, &at)?;
                }
            }
            removed.extend(i + pairs..ki);
            let previous = (i + pairs).checked_sub(1);
            added.extend((j + pairs..kj).map(|n| (previous, n)));
            (i, j) = (ki + 1, kj + 1);
        }
        if !removed.is_empty() || !added.is_empty() {
            self.first.get_or_insert_with(|| field(path));
        }
        for &r in &removed {
            let item = &items[r];
            self.replace_lines(item.dash, item.value.end, String::new(), path)?;
        }
        for (previous, n) in added {
            // An item that moved keeps its text; a new one is written.
            let text = match removed.iter().find(|&&r| old[r] == new[n]) {
                Some(&r) => self.source[line_start(self.source, items[r].dash)
                    ..next_line(self.source, items[r].value.end)]
                    .to_owned(),
                None => emit::item(&new[n], dash_column, &self.manner),
            };
            let at = match previous {
                Some(p) => next_line(self.source, items[p].value.end),
                None => line_start(self.source, first.dash),
            };
            let text = match self.source[..at].ends_with('\n') || at == 0 {
                true => text,
                false => format!("\n{}", text.trim_end_matches('\n')),
            };
            self.edits.push((at, at, text));
        }
        Ok(true)
    }

    /// Replaces the lines from the one holding `start` to the one holding `end` with `text`
    /// (whole lines); refused when another value shares those lines.
    fn replace_lines(
        &mut self,
        start: usize,
        end: usize,
        text: String,
        at: &str,
    ) -> Result<(), EditError> {
        let from = line_start(self.source, start);
        let to = next_line(self.source, end);
        let before = &self.source[from..start];
        let shared = |what: &str| EditError::Shape {
            field: field(at),
            what: what.into(),
        };
        let (from, text) = match before.trim_start_matches(' ') {
            "" => (from, text),
            // The first key of a list item (`- key: value`) shares its line with the dash: the
            // dash stays, the key's lines are rewritten after it.
            dash if dash.trim_end() == "-" && !text.is_empty() => {
                let pad = column(self.source, start);
                (start, text.get(pad..).unwrap_or_default().to_owned())
            }
            dash if dash.trim_end() == "-" => {
                return Err(shared(
                    "the first key of a list item cannot be removed in place",
                ));
            }
            _ => return Err(shared("it shares its line with another value")),
        };
        let text = match self.source[from..to].ends_with('\n') || text.is_empty() {
            true => text,
            false => text.trim_end_matches('\n').to_owned(),
        };
        self.edits.push((from, to, text));
        Ok(())
    }
}

/// The pairs of indices of a longest common subsequence of `a` and `b` (`similar`'s Myers
/// diff), items compared as [`same`] compares them: blanks left out.
fn common(a: &[Value], b: &[Value]) -> Vec<(usize, usize)> {
    let shown =
        |items: &[Value]| -> Vec<Value> { items.iter().cloned().map(without_blanks).collect() };
    let (a, b) = (shown(a), shown(b));
    let mut ops = similar::algorithms::Capture::new();
    // `Capture` refuses nothing (its error is `Infallible`).
    let Ok(()) = similar::algorithms::myers::diff(&mut ops, &a, 0..a.len(), &b, 0..b.len());
    ops.into_ops()
        .into_iter()
        .filter_map(|op| match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => Some((old_index..old_index + len).zip(new_index..new_index + len)),
            _ => None,
        })
        .flatten()
        .collect()
}

fn new_seq(items: &[Value]) -> Value {
    Value::Sequence(items.to_vec())
}

fn is_collection(value: &Value) -> bool {
    matches!(value, Value::Mapping(_) | Value::Sequence(_))
}

/// A path as errors name the whole file when it is empty.
fn field(path: &str) -> String {
    match path.is_empty() {
        true => "(the file)".into(),
        false => path.to_owned(),
    }
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

    /// The lines removed (`-line`) and added (`+line`) from `a` to `b`, in order.
    fn diff(a: &str, b: &str) -> Vec<String> {
        let a: Vec<Value> = a.lines().map(Value::from).collect();
        let b: Vec<Value> = b.lines().map(Value::from).collect();
        let line = |v: &Value| v.as_str().unwrap_or_default().to_owned();
        let (mut i, mut j, mut out) = (0, 0, Vec::new());
        for (ki, kj) in common(&a, &b).into_iter().chain([(a.len(), b.len())]) {
            out.extend(a[i..ki].iter().map(|l| format!("-{}", line(l))));
            out.extend(b[j..kj].iter().map(|l| format!("+{}", line(l))));
            (i, j) = (ki + 1, kj + 1);
        }
        out
    }

    fn reads_back(text: &str, edited: impl FnOnce(&mut Value)) {
        let mut want: Value = serde_yaml::from_str(PAGE).expect("parses");
        edited(&mut want);
        let got: Value = serde_yaml::from_str(text).expect("written text parses");
        assert!(same(&got, &want), "{text}");
    }

    #[test]
    fn a_list_item_added_is_its_lines_only() {
        let change = |v: &mut Value| {
            let item: Value =
                serde_yaml::from_str("label: Read on\nhref: /insights").expect("yaml");
            v["hero"]["actions"]
                .as_sequence_mut()
                .expect("list")
                .insert(1, item);
        };
        let got = edit(PAGE, change).expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            ["+    - label: Read on", "+      href: /insights"]
        );
        reads_back(&got, change);
    }

    #[test]
    fn a_list_item_removed_loses_its_lines_only() {
        let change = |v: &mut Value| {
            v["hero"]["actions"]
                .as_sequence_mut()
                .expect("list")
                .remove(0);
        };
        let got = edit(PAGE, change).expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            ["-    - label: Talk to us", "-      href: /contact"]
        );
        reads_back(&got, change);
    }

    #[test]
    fn list_items_reordered_keep_their_text() {
        let change = |v: &mut Value| {
            v["hero"]["actions"]
                .as_sequence_mut()
                .expect("list")
                .swap(0, 1);
        };
        let got = edit(PAGE, change).expect("edit");
        assert!(got.contains("    - { label: Õppige, href: /et/about }\n    - label: Talk to us\n      href: /contact\n"), "{got}");
        reads_back(&got, change);
    }

    #[test]
    fn a_key_added_goes_at_its_place_in_the_editors_order() {
        // The editor's order is the model's: `share_image` after `description`.
        let change = |v: &mut Value| {
            let meta = v["meta"].as_mapping_mut().expect("map");
            let mut sorted = Mapping::new();
            for (k, val) in meta.iter() {
                sorted.insert(k.clone(), val.clone());
                if k == "description" {
                    sorted.insert("share_image".into(), "/images/x.jpg".into());
                }
            }
            *meta = sorted;
        };
        let got = edit(PAGE, change).expect("edit");
        assert_eq!(diff(PAGE, &got), ["+  share_image: /images/x.jpg"]);
        assert!(got.contains("it''s simple.'\n  share_image:"), "{got}");
        reads_back(&got, change);
        // First in the editor's order of a list item: before its first key, the dash kept.
        let change = |v: &mut Value| {
            let item = v["hero"]["actions"][0].as_mapping_mut().expect("map");
            let mut sorted = Mapping::new();
            sorted.insert("style".into(), "secondary".into());
            sorted.extend(item.clone());
            *item = sorted;
        };
        let got = edit(PAGE, change).expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            [
                "-    - label: Talk to us",
                "+    - style: secondary",
                "+      label: Talk to us"
            ]
        );
        reads_back(&got, change);
    }

    #[test]
    fn a_new_text_needing_quotes_takes_the_files_quotes() {
        let original = "a: \"x\"\nb: \"y\"\n";
        let got = edit(original, |v| set(v, &["c"], "yes: now")).expect("edit");
        assert_eq!(got, "a: \"x\"\nb: \"y\"\nc: \"yes: now\"\n");
    }

    #[test]
    fn an_optional_key_removed_loses_its_lines_only() {
        let change = |v: &mut Value| {
            v["hero"].as_mapping_mut().expect("map").remove("lead");
        };
        let got = edit(PAGE, change).expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            ["-  lead: >-", "-    Folded text", "-    over two lines."]
        );
        // An editor that sends the emptied field as `''` removes it the same way.
        let got2 = edit(PAGE, |v| set(v, &["hero", "lead"], "")).expect("edit");
        assert_eq!(got, got2);
    }

    #[test]
    fn a_nested_map_changes_inside_a_list_item() {
        let original = "faq:\n  - q: One?\n    a: Yes.\n  - q: Two?\n    a: No. # short\n";
        let got = edit(original, |v| {
            v["faq"][1]["extra"] =
                serde_yaml::from_str("{link: {href: /x, label: X}}").expect("yaml");
            set(v, &["faq", "1", "a"], "Maybe.");
        })
        .expect("edit");
        assert_eq!(
            got,
            "faq:\n  - q: One?\n    a: Yes.\n  - q: Two?\n    a: Maybe. # short\n    extra:\n      link:\n        href: /x\n        label: X\n"
        );
    }

    #[test]
    fn a_flow_mapping_whose_keys_change_is_rewritten_on_its_line() {
        let got = edit(PAGE, |v| {
            set(v, &["hero", "actions", "1", "style"], "secondary");
        })
        .expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            [
                "-    - { label: Õppige, href: /et/about }",
                "+    - { label: Õppige, href: /et/about, style: secondary }"
            ]
        );
    }

    #[test]
    fn multi_line_text_is_written_as_a_block_scalar_keeping_its_style() {
        let got = edit(PAGE, |v| {
            set(v, &["hero", "lead"], "New lead.\nSecond paragraph.")
        })
        .expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            [
                "-    Folded text",
                "-    over two lines.",
                "+    New lead.",
                "+",
                "+    Second paragraph."
            ]
        );
        let got = edit(PAGE, |v| {
            set(v, &["meta", "description"], "Line one\nline two\n")
        })
        .expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            [
                "-  description: 'We build what lasts: it''s simple.'",
                "+  description: |",
                "+    Line one",
                "+    line two"
            ]
        );
    }

    #[test]
    fn a_key_of_a_new_kind_rewrites_its_own_lines() {
        let got = edit(PAGE, |v| {
            v["hero"]["lead"] = serde_yaml::from_str("[one, two]").expect("yaml");
        })
        .expect("edit");
        assert_eq!(
            diff(PAGE, &got),
            [
                "-  lead: >-",
                "-    Folded text",
                "-    over two lines.",
                "+  lead:",
                "+    - one",
                "+    - two"
            ]
        );
    }

    #[test]
    fn an_empty_flow_collection_that_gets_values_becomes_block_lines() {
        let original = "# Old paths.\n{}\n";
        let got = edit(original, |v| set(v, &["/old"], "/new")).expect("edit");
        assert_eq!(got, "# Old paths.\n/old: /new\n");
        let original = "title: T\naliases: []  # none yet\nnext: n\n";
        let got = edit(original, |v| {
            v["aliases"] = serde_yaml::from_str("[/a, /b]").expect("yaml");
        })
        .expect("edit");
        assert_eq!(got, "title: T\naliases:\n  - /a\n  - /b\nnext: n\n");
    }

    #[test]
    fn insertions_at_one_place_keep_their_order() {
        let original = "a:\n  b: 1\nlist:\n  - x\n";
        let got = edit(original, |v| {
            v["a"]["c"] = 2.into();
            let list = v["list"].as_sequence_mut().expect("list");
            list.push("y".into());
            list.push("z".into());
            let mut sorted = Mapping::new();
            for (k, val) in v.as_mapping().expect("map") {
                sorted.insert(k.clone(), val.clone());
                if k == "a" {
                    sorted.insert("after_a".into(), "new".into());
                }
            }
            *v = Value::Mapping(sorted);
        })
        .expect("edit");
        assert_eq!(
            got,
            "a:\n  b: 1\n  c: 2\nafter_a: new\nlist:\n  - x\n  - y\n  - z\n"
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

    /// Every YAML document of the real content: each YAML file, each article's front matter.
    fn real_documents() -> &'static [(String, String)] {
        static DOCUMENTS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
        DOCUMENTS.get_or_init(read_real_documents)
    }

    fn read_real_documents() -> Vec<(String, String)> {
        let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        walkdir::WalkDir::new(&content)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter_map(|e| {
                let text = std::fs::read_to_string(e.path()).ok()?;
                let name = e.path().display().to_string();
                match e.path().extension()?.to_str()? {
                    "yaml" => Some((name, text)),
                    "md" => {
                        let rest = text.strip_prefix("---\n")?;
                        Some((name, rest[..rest.find("\n---\n")? + 1].to_owned()))
                    }
                    _ => None,
                }
            })
            .collect()
    }

    /// The paths of `value`'s scalars, as index chains.
    fn leaves(value: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
        match value {
            Value::Mapping(map) => map.iter().for_each(|(k, v)| {
                let mut next = at.clone();
                next.push(k.clone());
                leaves(v, next, out);
            }),
            Value::Sequence(items) => items.iter().enumerate().for_each(|(i, v)| {
                let mut next = at.clone();
                next.push(Value::from(i));
                leaves(v, next, out);
            }),
            _ => out.push(at),
        }
    }

    fn at_path<'a>(value: &'a mut Value, path: &[Value]) -> &'a mut Value {
        path.iter().fold(value, |at, key| match key {
            Value::Number(n) => &mut at[n.as_u64().unwrap_or_default() as usize],
            key => at.get_mut(key).expect("key"),
        })
    }

    /// The paths of `value`'s lists of more than one item.
    fn seqs(value: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
        match value {
            Value::Mapping(map) => map.iter().for_each(|(k, v)| {
                let mut next = at.clone();
                next.push(k.clone());
                seqs(v, next, out);
            }),
            Value::Sequence(items) => {
                if items.len() > 1 {
                    out.push(at.clone());
                }
                items.iter().enumerate().for_each(|(i, v)| {
                    let mut next = at.clone();
                    next.push(Value::from(i));
                    seqs(v, next, out);
                });
            }
            _ => {}
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..Default::default()
        })]

        /// A new value of one scalar of a real file: read back as the edit, and written on one
        /// line in place of the old value's lines (or refused, when an anchor shares it).
        #[test]
        fn a_random_value_edit_of_a_real_file_reads_back_and_touches_its_line_only(
            file in 0usize..1000,
            leaf in 0usize..10_000,
            text in "[a-zA-Z0-9 :#'\"!?,.{}\\[\\]-]{1,24}|[a-z ]{1,10}\n[a-z ]{1,10}",
        ) {
            let documents = real_documents();
            let (name, original) = &documents[file % documents.len()];
            let mut value: Value = serde_yaml::from_str(original).expect("parses");
            let mut paths = Vec::new();
            leaves(&value, Vec::new(), &mut paths);
            proptest::prop_assume!(!paths.is_empty());
            let path = &paths[leaf % paths.len()];
            let before = at_path(&mut value, path).clone();
            *at_path(&mut value, path) = Value::from(text.clone());
            match apply(original, &value) {
                Ok(written) => {
                    let back: Value = serde_yaml::from_str(&written).expect("written text parses");
                    proptest::prop_assert!(same(&back, &value), "{name}: {written}");
                    let changes = diff(original, &written);
                    let added = changes.iter().filter(|l| l.starts_with('+')).count();
                    if !text.contains('\n') && before.as_str() != Some(text.as_str()) {
                        proptest::prop_assert_eq!(added, 1, "{}: {:?}", name, changes);
                        proptest::prop_assert!(changes.len() >= 2, "{}: {:?}", name, changes);
                    }
                }
                Err(EditError::Shared { .. }) => {}
                Err(err) => proptest::prop_assert!(false, "{name}: {err}"),
            }
        }

        /// A random item of a random list of a real file removed: its lines only (a list
        /// written on one line, `[a, b]`, is that line rewritten).
        #[test]
        fn a_random_list_item_removed_from_a_real_file_loses_its_lines_only(
            file in 0usize..1000,
            pick in 0usize..10_000,
        ) {
            let documents = real_documents();
            let (name, original) = &documents[file % documents.len()];
            let old: Value = serde_yaml::from_str(original).expect("parses");
            let mut lists = Vec::new();
            seqs(&old, Vec::new(), &mut lists);
            proptest::prop_assume!(!lists.is_empty());
            let mut value = old.clone();
            let list = at_path(&mut value, &lists[pick % lists.len()]).as_sequence_mut().expect("list");
            let removed = list.remove(pick % list.len());
            // A list of blanks (`[{}, {}]`) is no value: removing one changes nothing.
            proptest::prop_assume!(!blank(&removed));
            match apply(original, &value) {
                Ok(written) => {
                    let back: Value = serde_yaml::from_str(&written).expect("written text parses");
                    proptest::prop_assert!(same(&back, &value), "{name}: {written}");
                    let changes = diff(original, &written);
                    let added = changes.iter().filter(|l| l.starts_with('+')).count();
                    proptest::prop_assert!(added <= 1, "{}: {:?}", name, changes);
                    proptest::prop_assert!(!changes.is_empty(), "{}: {:?}", name, changes);
                    if added == 1 {
                        proptest::prop_assert_eq!(changes.len(), 2, "{}: {:?}", name, changes);
                    }
                }
                Err(EditError::Shared { .. }) => {}
                Err(err) => proptest::prop_assert!(false, "{name}: {err}"),
            }
        }

        /// A copy of a random item of a random list of a real file added at a random place:
        /// new lines only (a list written on one line is that line rewritten).
        #[test]
        fn a_random_list_item_added_to_a_real_file_is_new_lines_only(
            file in 0usize..1000,
            pick in 0usize..10_000,
            place in 0usize..100,
        ) {
            let documents = real_documents();
            let (name, original) = &documents[file % documents.len()];
            let old: Value = serde_yaml::from_str(original).expect("parses");
            let mut lists = Vec::new();
            seqs(&old, Vec::new(), &mut lists);
            proptest::prop_assume!(!lists.is_empty());
            let mut value = old.clone();
            let list = at_path(&mut value, &lists[pick % lists.len()]).as_sequence_mut().expect("list");
            let copy = list[pick % list.len()].clone();
            proptest::prop_assume!(!blank(&copy));
            let at = place % (list.len() + 1);
            list.insert(at, copy);
            match apply(original, &value) {
                Ok(written) => {
                    let back: Value = serde_yaml::from_str(&written).expect("written text parses");
                    proptest::prop_assert!(same(&back, &value), "{name}: {written}");
                    let changes = diff(original, &written);
                    let removed = changes.iter().filter(|l| l.starts_with('-')).count();
                    proptest::prop_assert!(removed <= 1, "{}: {:?}", name, changes);
                    if removed == 1 {
                        proptest::prop_assert_eq!(changes.len(), 2, "{}: {:?}", name, changes);
                    }
                }
                Err(EditError::Shared { .. }) => {}
                Err(err) => proptest::prop_assert!(false, "{name}: {err}"),
            }
        }
    }
}
