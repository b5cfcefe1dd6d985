//! `sitegen new`: skeletons of new content that validate and build, written into the file they
//! belong in without disturbing the rest of its text (comments and layout stay as they were).

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::content::{Content, RouteKind, SERVICES_DIR};

/// Adds a sub-service `slug` to the category `category` (the stem of a file in
/// `content/services/`): a skeleton with every required field, inserted after the category's
/// last sub-service. Returns the file written and the new page's path.
///
/// The content must be valid before, and is validated again after; if the new entry makes it
/// invalid (say, a slug with capitals), the file is restored and the mistakes are returned.
pub fn sub_service(
    content_dir: &Path,
    public_dir: &Path,
    category: &str,
    slug: &str,
) -> anyhow::Result<(PathBuf, String)> {
    let content = Content::load(content_dir, public_dir)?;
    let Some(existing) = content.services.iter().find(|c| c.slug == category) else {
        bail!(
            "unknown category `{category}`: the categories are {}",
            content
                .services
                .iter()
                .map(|c| c.slug.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let file = content_dir
        .join(SERVICES_DIR)
        .join(format!("{category}.yaml"));
    if existing.sub_services.iter().any(|s| s.slug == slug) {
        bail!("{} already has a sub-service `{slug}`", file.display());
    }

    let name = title_case(slug);
    let entry = format!(
        "- slug: {slug}\n  name: {name}\n  meta:\n    title: {title}\n    description: {description}\n  hero:\n    eyebrow: {eyebrow}\n    title: {name}\n    lead: {lead}\n",
        slug = scalar(slug),
        name = scalar(&name),
        title = scalar(&format!("{name} | {}", content.settings.brand.name)),
        description = scalar(&format!(
            "{name}: one or two sentences that search results show under the title."
        )),
        eyebrow = scalar(&existing.name),
        lead = scalar("The paragraph under the title: what the service does and for whom."),
    );
    let original =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let updated = insert_sub_service(&original, &entry)
        .with_context(|| format!("{}: no top-level `sub_services:` list", file.display()))?;
    std::fs::write(&file, &updated).with_context(|| format!("writing {}", file.display()))?;

    if let Err(errors) = Content::load(content_dir, public_dir) {
        std::fs::write(&file, &original)
            .with_context(|| format!("restoring {}", file.display()))?;
        return Err(anyhow::Error::new(errors).context(format!(
            "the new sub-service would not validate; {} is unchanged",
            file.display()
        )));
    }
    let path = RouteKind::SubService {
        category: category.into(),
        service: slug.into(),
    }
    .path();
    Ok((file, path))
}

/// Inserts the list item `entry` (unindented YAML, starting `- `) after the last item of the
/// top-level `sub_services:` list in `text`, indented as the existing items are.
fn insert_sub_service(text: &str, entry: &str) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let key = lines.iter().position(|l| l.starts_with("sub_services:"))?;
    let rest = lines[key].trim_start_matches("sub_services:").trim();
    let empty_flow = rest.starts_with("[]");
    if !(rest.is_empty() || rest.starts_with('#') || empty_flow) {
        return None;
    }
    // The block ends at the next top-level key; the new item goes after its last line that is
    // neither blank nor a comment.
    let end = lines[key + 1..]
        .iter()
        .position(|l| l.starts_with(|c: char| !c.is_whitespace() && c != '#' && c != '-'))
        .map_or(lines.len(), |i| key + 1 + i);
    let last = (key..end)
        .rev()
        .find(|&i| {
            let t = lines[i].trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .unwrap_or(key);
    let indent = lines[key + 1..end]
        .iter()
        .find(|l| l.trim_start().starts_with("- "))
        .map_or("  ", |l| &l[..l.len() - l.trim_start().len()]);

    let mut out = String::with_capacity(text.len() + entry.len() + 64);
    for (i, line) in lines.iter().enumerate() {
        if i == key && empty_flow {
            out.push_str("sub_services:\n");
        } else {
            out.push_str(line);
        }
        if i == last {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            for item_line in entry.lines() {
                out.push_str(indent);
                out.push_str(item_line);
                out.push('\n');
            }
        }
    }
    Some(out)
}

/// `data-mesh` -> `Data Mesh`.
fn title_case(slug: &str) -> String {
    slug.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` as a YAML scalar: plain when that reads back as the same string, else double-quoted
/// (a JSON string is a valid YAML double-quoted scalar).
fn scalar(text: &str) -> String {
    let plain = serde_yaml::from_str::<String>(text).is_ok_and(|back| back == text)
        && !text.contains(['#', '\n', '"', '\''])
        && !text.starts_with([
            '-', '?', ':', ' ', '{', '[', '&', '*', '!', '|', '>', '%', '@', '`',
        ])
        && !text.ends_with([' ', ':']);
    if plain {
        text.to_owned()
    } else {
        serde_json::Value::from(text).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_goes_after_the_last_item_before_the_next_key() {
        let text = "# head\nsub_services:\n  - slug: a\n    name: A\n\n  # trailing note\nnext: 1 # kept\n";
        let out = insert_sub_service(text, "- slug: b\n  name: B\n").expect("inserted");
        assert_eq!(
            out,
            "# head\nsub_services:\n  - slug: a\n    name: A\n  - slug: b\n    name: B\n\n  # trailing note\nnext: 1 # kept\n"
        );
    }

    #[test]
    fn an_empty_flow_list_becomes_a_block_list() {
        let out = insert_sub_service("sub_services: []\n", "- slug: b\n").expect("inserted");
        assert_eq!(out, "sub_services:\n  - slug: b\n");
    }

    #[test]
    fn a_file_without_the_list_is_refused() {
        assert_eq!(insert_sub_service("name: x\n", "- slug: b\n"), None);
    }

    #[test]
    fn scalars_are_quoted_only_when_needed() {
        assert_eq!(scalar("Data Mesh | Nordvale"), "Data Mesh | Nordvale");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("# not a comment"), "\"# not a comment\"");
        assert_eq!(title_case("data-mesh"), "Data Mesh");
    }
}
