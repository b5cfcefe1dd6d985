//! A translation file laid over its source: `pages/about.et.yaml` over `pages/about.yaml`.
//!
//! A translation holds only the words. Everything else (dates, authors, pictures, numbers,
//! links between pages, the order and number of list items) comes from the source, so a
//! translation never repeats it and can never disagree with it: lists are merged item by item
//! (items the source has gained since keep its words), mappings key by key, and a key or an
//! item the source does not have is a mistake, reported at its line.
//!
//! sitegen lays every translation over its source this way; contact-fn lays the forms'
//! translations (`content/forms.et.yaml`) over `content/forms.yaml` the same way for the words
//! of its emails, so the two cannot read a translation differently.

use serde_yaml::Value;

/// The name of the translation of `rel` into `tag`: `pages/about.yaml` ->
/// `pages/about.et.yaml`, `articles/edge-ai.md` -> `articles/edge-ai.et.md`.
pub fn translation_file(rel: &str, tag: &str) -> String {
    match rel.rsplit_once('.') {
        Some((stem, ext)) if !stem.ends_with('/') => format!("{stem}.{tag}.{ext}"),
        _ => format!("{rel}.{tag}"),
    }
}

/// The name of the source of the translation `name`: `about.et.yaml` -> `about.yaml`, the
/// inverse of [`translation_file`].
pub fn source_file(name: &str) -> String {
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let stem = stem.rsplit_once('.').map_or(stem, |(stem, _)| stem);
    format!("{stem}.{ext}")
}

/// The source of the translation at `rel`, a path under the content folder
/// (`pages/about.et.yaml` -> `pages/about.yaml`); `None` when `rel` names no translation.
pub fn source_path(rel: &str) -> Option<String> {
    let (dir, name) = rel
        .rsplit_once('/')
        .map_or(("", rel), |(dir, name)| (dir, name));
    is_translation(name).then(|| match dir {
        "" => source_file(name),
        dir => format!("{dir}/{}", source_file(name)),
    })
}

/// Whether the file `name` (`about.et.yaml`) is a translation of another, by the shape of its
/// name: a source's stem has no dot (slugs have none), a translation's ends in its tag.
pub fn is_translation(name: &str) -> bool {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    stem.contains('.')
}

/// A field of a translation that its source does not have, or whose shape differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The field, as errors name fields (`hero.actions[2].label`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

/// `translation` laid over `source`: every scalar of the translation replaces the source's at
/// the same place. Returns the merged document and every field that does not fit the source.
pub fn overlay(source: Value, translation: Value) -> (Value, Vec<Mismatch>) {
    let mut mismatches = Vec::new();
    let merged = merge(source, translation, "", &mut mismatches);
    (merged, mismatches)
}

/// The words under `section` (a path of keys, `contact.messages`) of `source` that
/// `translation` leaves out, as field paths (`contact.messages.errors.required`): text a reader
/// of the translation would meet in the source's language. Only strings count (numbers,
/// booleans and empty fields are not words), and not the fields named in `not_words` (`href`).
pub fn untranslated(
    source: &Value,
    translation: &Value,
    section: &str,
    not_words: &[&str],
) -> Vec<String> {
    let mut at = (Some(source), Some(translation));
    for key in section.split('.') {
        at = (at.0.and_then(|v| v.get(key)), at.1.and_then(|v| v.get(key)));
    }
    let mut missing = Vec::new();
    if let Some(source) = at.0 {
        leave_outs(source, at.1, section, not_words, &mut missing);
    }
    missing
}

fn leave_outs(
    source: &Value,
    translation: Option<&Value>,
    path: &str,
    not_words: &[&str],
    out: &mut Vec<String>,
) {
    let translation = translation.filter(|t| !t.is_null());
    match source {
        Value::String(text) if !text.is_empty() && translation.is_none() => {
            out.push(path.to_owned());
        }
        Value::Mapping(fields) => {
            for (key, value) in fields {
                let name = key.as_str().unwrap_or_default();
                if !not_words.contains(&name) {
                    let theirs = translation.and_then(|t| t.get(key));
                    leave_outs(value, theirs, &join(path, name), not_words, out);
                }
            }
        }
        Value::Sequence(items) => {
            for (i, item) in items.iter().enumerate() {
                let theirs = translation.and_then(|t| t.get(i));
                leave_outs(item, theirs, &format!("{path}[{i}]"), not_words, out);
            }
        }
        Value::Tagged(tagged) => leave_outs(&tagged.value, translation, path, not_words, out),
        _ => {}
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn merge(source: Value, translation: Value, path: &str, out: &mut Vec<Mismatch>) -> Value {
    match (source, translation) {
        // A translation that leaves a field empty keeps the source's.
        (source, Value::Null) => source,
        (Value::Mapping(mut source), Value::Mapping(translation)) => {
            for (key, value) in translation {
                let name = key.as_str().unwrap_or_default().to_owned();
                match source.remove(&key) {
                    Some(original) => {
                        let merged = merge(original, value, &join(path, &name), out);
                        source.insert(key, merged);
                    }
                    None => out.push(Mismatch {
                        field: join(path, &name),
                        message: format!(
                            "`{name}` is not a field of the source file: a translation holds only \
                             the source's words; remove it or add it to the source first"
                        ),
                    }),
                }
            }
            Value::Mapping(source)
        }
        (Value::Sequence(source), Value::Sequence(translation)) => {
            // Items added to the source since the translation was written keep the source's
            // words until they are translated; more items than the source has is a mistake.
            if translation.len() > source.len() {
                out.push(Mismatch {
                    field: path.to_owned(),
                    message: format!(
                        "the source lists {} items and the translation {}: translate each item, \
                         in the source's order",
                        source.len(),
                        translation.len()
                    ),
                });
                return Value::Sequence(source);
            }
            let mut translation = translation.into_iter();
            Value::Sequence(
                source
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| match translation.next() {
                        Some(t) => merge(s, t, &format!("{path}[{i}]"), out),
                        None => s,
                    })
                    .collect(),
            )
        }
        (Value::Mapping(source), _) => {
            out.push(Mismatch {
                field: path.to_owned(),
                message: "the source has fields here: translate them one by one".into(),
            });
            Value::Mapping(source)
        }
        (Value::Sequence(source), _) => {
            out.push(Mismatch {
                field: path.to_owned(),
                message: "the source has a list here: translate its items one by one".into(),
            });
            Value::Sequence(source)
        }
        (_, translation) => translation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        serde_yaml::from_str(text).expect("parses")
    }

    #[test]
    fn a_translation_s_source_is_found_beside_it_and_a_source_has_none() {
        assert_eq!(
            source_path("pages/about.et.yaml").as_deref(),
            Some("pages/about.yaml")
        );
        assert_eq!(source_path("site.et.yaml").as_deref(), Some("site.yaml"));
        assert_eq!(source_path("articles/a-slug.md"), None);
        assert_eq!(
            translation_file("pages/about.yaml", "et"),
            "pages/about.et.yaml"
        );
    }

    #[test]
    fn words_are_taken_from_the_translation_and_the_rest_from_the_source() {
        let (merged, mismatches) = overlay(
            yaml("title: About\nyear: 2019\nactions:\n  - { label: Go, href: /contact }\n"),
            yaml("title: Meist\nactions:\n  - { label: Mine }\n"),
        );
        assert_eq!(mismatches, []);
        assert_eq!(
            merged,
            yaml("title: Meist\nyear: 2019\nactions:\n  - { label: Mine, href: /contact }\n")
        );
    }

    #[test]
    fn a_field_the_source_lacks_and_a_list_of_another_length_are_named() {
        let (_, mismatches) = overlay(
            yaml("hero:\n  title: A\nlist: [a, b]\n"),
            yaml("hero:\n  titel: B\nlist: [x, y, z]\n"),
        );
        let fields: Vec<&str> = mismatches.iter().map(|m| m.field.as_str()).collect();
        assert_eq!(fields, ["hero.titel", "list"]);
    }

    #[test]
    fn the_words_a_translation_leaves_out_are_named() {
        let source = yaml(
            "ui:\n  search: Search\n  menu: { open: Open, close: Close }\n  size: 3\n  \
             items: [One, Two]\n  home: { label: Home, href: / }\ntitle: About\n",
        );
        let translation = yaml(
            "ui:\n  search: Otsi\n  menu: { open: Ava }\n  items: [Üks]\n  \
             home: { label: Avaleht }\n",
        );
        let href = &["href"];
        assert_eq!(
            untranslated(&source, &translation, "ui", href),
            ["ui.menu.close", "ui.items[1]"]
        );
        assert_eq!(
            untranslated(&source, &yaml("title: Meist\n"), "ui", href).len(),
            6,
            "a section left out entirely: all of its words"
        );
        assert!(untranslated(&source, &translation, "nothing.here", href).is_empty());
    }

    #[test]
    fn translation_files_are_named_beside_their_source() {
        assert_eq!(
            translation_file("pages/about.yaml", "et"),
            "pages/about.et.yaml"
        );
        assert_eq!(
            translation_file("articles/a-b.md", "et"),
            "articles/a-b.et.md"
        );
        assert!(is_translation("about.et.yaml"));
        assert!(!is_translation("about.yaml"));
    }
}
