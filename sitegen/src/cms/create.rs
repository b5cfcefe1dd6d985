//! A new content file written the way the project writes its files by hand, so a file the
//! editor creates reads like its neighbours: the keys in the model's order (not the editor's,
//! which lists required fields first and the rest by name), each value plain where YAML reads
//! it back as the same text and quoted only where it must be, lists in block style, and a
//! field left empty or `false` left out (the model reads a missing one the same).

use serde_yaml::{Mapping, Value};

/// The YAML of `value` (a mapping) with its keys in `order`; keys `order` does not name come
/// after, in their own order (the validation refuses those it does not know).
pub fn document(value: &Value, order: &[&str]) -> Result<String, serde_yaml::Error> {
    let Value::Mapping(map) = super::edit::without_blanks(value.clone()) else {
        return serde_yaml::to_string(value);
    };
    let rank = |key: &Value| {
        key.as_str()
            .and_then(|k| order.iter().position(|o| *o == k))
            .unwrap_or(order.len())
    };
    let mut entries: Vec<(Value, Value)> = map.into_iter().collect();
    // Stable: keys `order` does not name keep the editor's order among themselves.
    entries.sort_by_key(|(key, _)| rank(key));
    let mut text = String::new();
    for (key, value) in entries {
        // Every boolean of the model defaults to `false`: written by hand, it is left out.
        if value == Value::Bool(false) {
            continue;
        }
        let mut one = Mapping::new();
        one.insert(key, value);
        text.push_str(&indent_lists(&serde_yaml::to_string(&one)?));
    }
    Ok(text)
}

/// serde_yaml writes a list's items at its key's indentation (`key:\n- a`); the content's files
/// indent them (`key:\n  - a`), as the YAML language server formats them.
fn indent_lists(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_list = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if !line.starts_with(' ') && !trimmed.starts_with("- ") && trimmed != "-" {
            in_list = line.ends_with(':');
            out.push_str(line);
        } else if in_list {
            out.push_str("  ");
            out.push_str(line);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_article_reads_like_those_written_by_hand() {
        // The editor's order: required fields first, then the others by name.
        let editor: Value = serde_yaml::from_str(
            "title: 'Why: a title'\nexcerpt: Short.\nauthor: anna\ndate: 2026-12-07\ncategory: cloud\ntype: article\nimage: /images/a.png\naliases:\n- /insights/old\ndecorative: false\ndraft: false\nfeatured: false\nimage_alt: A chart\nread_time: null\nshare_image: ''\n",
        )
        .expect("parses");
        let order = crate::content::articles::front_matter_keys();
        let got = document(&editor, &order).expect("writes");
        assert_eq!(
            got,
            "title: 'Why: a title'\nexcerpt: Short.\nauthor: anna\ndate: 2026-12-07\ncategory: cloud\ntype: article\nimage: /images/a.png\nimage_alt: A chart\naliases:\n  - /insights/old\n"
        );
    }
}
