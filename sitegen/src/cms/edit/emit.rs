//! New text for values the file did not hold: written the way the file writes its own (its
//! indentation, its quotes), and checked to read back as the value.

use serde_yaml::Value;
use yaml_rust2::scanner::TScalarStyle;

/// How the file writes what it writes: the model for new text.
#[derive(Debug, Clone, Copy)]
pub(super) struct Manner {
    /// Spaces a nested mapping is indented by.
    pub step: usize,
    /// Whether a list under a key is indented (`key:\n  - a`) or not (`key:\n- a`).
    pub indent_lists: bool,
    /// The quote a text that cannot be plain is written in.
    pub quote: char,
    /// Whether a flow mapping has spaces inside its braces (`{ a: b }`).
    pub padded_braces: bool,
}

impl Default for Manner {
    fn default() -> Self {
        Self {
            step: 2,
            indent_lists: true,
            quote: '\'',
            padded_braces: true,
        }
    }
}

/// `value` as one scalar in the place of one written in `style` (`None`: a new one), the
/// lines of a block scalar indented to `indent`; `flow` when it stands inside `{}` or `[]`.
pub(super) fn scalar(
    value: &Value,
    style: Option<TScalarStyle>,
    flow: bool,
    indent: usize,
    manner: &Manner,
) -> String {
    let Value::String(text) = value else {
        // Numbers, booleans and null are written plain, as YAML reads them back.
        return serde_yaml::to_string(value)
            .map(|s| s.trim_end().to_owned())
            .unwrap_or_default();
    };
    let block = match style {
        Some(TScalarStyle::Folded) => Some('>'),
        Some(TScalarStyle::Literal) => Some('|'),
        _ if text.contains('\n') => Some('|'),
        _ => None,
    };
    if let Some(indicator) = block.filter(|_| !flow)
        && let Some(written) =
            block_scalar(text, indicator, indent).or_else(|| block_scalar(text, '|', indent))
    {
        return written;
    }
    let double = || serde_json::to_string(text).unwrap_or_default();
    let single = || format!("'{}'", text.replace('\'', "''"));
    if text.contains('\n') {
        return double();
    }
    match style {
        Some(TScalarStyle::SingleQuoted) => return single(),
        Some(TScalarStyle::DoubleQuoted) => return double(),
        _ => {}
    }
    if plain_reads_back(text, flow) {
        return text.clone();
    }
    match manner.quote {
        '"' => double(),
        _ => single(),
    }
}

/// Whether `text` written plain reads back as itself, in a block value and in a flow one.
fn plain_reads_back(text: &str, flow: bool) -> bool {
    let reads = |yaml: String, pick: fn(&Value) -> Option<&Value>| {
        serde_yaml::from_str::<Value>(&yaml)
            .ok()
            .is_some_and(|v| pick(&v).and_then(Value::as_str) == Some(text))
    };
    !text.is_empty()
        && text.trim() == text
        && reads(format!("k: {text}\n"), |v| v.get("k"))
        && (!flow || reads(format!("k: [{text}, x]\n"), |v| v.get("k")?.get(0)))
}

/// `text` as a block scalar (`|` literal, `>` folded) with its lines at `indent`, when that
/// reads back as `text`.
fn block_scalar(text: &str, indicator: char, indent: usize) -> Option<String> {
    let body = text.trim_end_matches('\n');
    let chomp = match text.len() - body.len() {
        0 => "-",
        1 => "",
        _ => "+",
    };
    if body.is_empty() || body.starts_with([' ', '\t', '\n']) || chomp == "+" {
        return None;
    }
    let pad = " ".repeat(indent);
    let mut out = format!("{indicator}{chomp}");
    match indicator {
        '>' => {
            // A line break of the value is a blank line of the text (one between two lines
            // folds into a space); a line that starts with a space is not folded.
            if body.lines().any(|l| l.starts_with([' ', '\t'])) || body.contains("\n\n") {
                return None;
            }
            for (i, line) in body.split('\n').enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                out.push('\n');
                out.push_str(&pad);
                out.push_str(line);
            }
        }
        _ => {
            for line in body.split('\n') {
                out.push('\n');
                if !line.is_empty() {
                    out.push_str(&pad);
                    out.push_str(line);
                }
            }
        }
    }
    let back: Value = serde_yaml::from_str(&format!("v: {out}\n")).ok()?;
    (back["v"].as_str() == Some(text)).then_some(out)
}

/// A key as written: plain when it reads back as itself.
fn key(name: &str, manner: &Manner) -> String {
    scalar(&Value::from(name), None, true, 0, manner)
}

/// The lines of `key: value` in a block mapping whose keys are at `column`, each line ended.
pub(super) fn entry(name: &str, value: &Value, column: usize, manner: &Manner) -> String {
    let pad = " ".repeat(column);
    let key = key(name, manner);
    match value {
        Value::Mapping(map) if !map.is_empty() => {
            format!(
                "{pad}{key}:\n{}",
                block(value, column + manner.step, manner)
            )
        }
        Value::Sequence(items) if !items.is_empty() => {
            let inner = column + if manner.indent_lists { manner.step } else { 0 };
            format!("{pad}{key}:\n{}", block(value, inner, manner))
        }
        _ => format!(
            "{pad}{key}: {}\n",
            scalar_or_flow(value, column + manner.step, manner)
        ),
    }
}

/// The lines of `- value`, an item of a block sequence whose dashes are at `column`.
pub(super) fn item(value: &Value, column: usize, manner: &Manner) -> String {
    let pad = " ".repeat(column);
    match value {
        Value::Mapping(map) if !map.is_empty() => {
            // `- first: a` then the other keys under `first`.
            let lines = block(value, column + 2, manner);
            format!("{pad}- {}", &lines[column + 2..])
        }
        Value::Sequence(items) if !items.is_empty() => {
            let lines = block(value, column + 2, manner);
            format!("{pad}- {}", &lines[column + 2..])
        }
        _ => format!("{pad}- {}\n", scalar_or_flow(value, column + 2, manner)),
    }
}

/// A non-empty mapping or sequence as block lines at `column`.
pub(super) fn block(value: &Value, column: usize, manner: &Manner) -> String {
    match value {
        Value::Mapping(map) => map
            .iter()
            .map(|(k, v)| entry(&key_text(k), v, column, manner))
            .collect(),
        Value::Sequence(items) => items.iter().map(|v| item(v, column, manner)).collect(),
        _ => format!(
            "{}{}\n",
            " ".repeat(column),
            scalar_or_flow(value, column, manner)
        ),
    }
}

/// `value` on one line: a scalar, or an empty or flow collection.
fn scalar_or_flow(value: &Value, indent: usize, manner: &Manner) -> String {
    match value {
        Value::Mapping(_) | Value::Sequence(_) => flow(value, manner),
        _ => scalar(value, None, false, indent, manner),
    }
}

/// `value` in flow style on one line: `{ a: b, c: [1, 2] }`.
pub(super) fn flow(value: &Value, manner: &Manner) -> String {
    match value {
        Value::Mapping(map) if map.is_empty() => "{}".into(),
        Value::Mapping(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", key(&key_text(k), manner), flow(v, manner)))
                .collect();
            match manner.padded_braces {
                true => format!("{{ {} }}", inner.join(", ")),
                false => format!("{{{}}}", inner.join(", ")),
            }
        }
        Value::Sequence(items) => {
            let inner: Vec<String> = items.iter().map(|v| flow(v, manner)).collect();
            format!("[{}]", inner.join(", "))
        }
        _ => scalar(value, None, true, 0, manner),
    }
}

/// A mapping key as text.
pub(super) fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        other => serde_yaml::to_string(other)
            .map(|s| s.trim_end().to_owned())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        serde_yaml::from_str(text).expect("yaml")
    }

    #[test]
    fn new_text_reads_back_as_its_value() {
        let manner = Manner::default();
        let value = yaml(
            "q: What?\nanswer: \"Two\\nlines\"\ntags: [a, 'b, c']\nnested:\n  - x: 1\n    y: [1]\n  - plain\n",
        );
        let text = block(&value, 0, &manner);
        assert_eq!(
            text,
            "q: What?\nanswer: |-\n  Two\n  lines\ntags:\n  - a\n  - b, c\nnested:\n  - x: 1\n    y:\n      - 1\n  - plain\n"
        );
        assert_eq!(serde_yaml::from_str::<Value>(&text).expect("back"), value);
    }

    #[test]
    fn a_folded_scalar_stays_folded_and_odd_text_falls_back() {
        let manner = Manner::default();
        let v = Value::from("One paragraph.\nAnother.");
        assert_eq!(
            scalar(&v, Some(TScalarStyle::Folded), false, 4, &manner),
            ">-\n    One paragraph.\n\n    Another."
        );
        let v = Value::from("  indented\nlines\n");
        assert_eq!(
            scalar(&v, Some(TScalarStyle::Literal), false, 2, &manner),
            "\"  indented\\nlines\\n\""
        );
        let v = Value::from("a, b");
        assert_eq!(flow(&yaml("{k: 'a, b'}"), &manner), "{ k: 'a, b' }");
        assert_eq!(scalar(&v, None, false, 0, &manner), "a, b");
    }
}
