//! The content in its default language alone, for the tests and benchmarks that compare or
//! do not need the others. (Included by the examples' `common` and the tests' `common`.)

use std::path::Path;

/// Leaves the default language only: deletes every translation file (`about.et.yaml`) and
/// the other languages of `site.yaml`. For the tests of the cache, the output and the render
/// workers, whose mechanics do not depend on the language, and which a second language would
/// only make slower (twice the pages on every build).
#[allow(dead_code)] // the examples that compare languages use it
pub fn one_language(content: &Path) -> anyhow::Result<()> {
    for entry in walkdir::WalkDir::new(content) {
        let path = entry?.into_path();
        let translation = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            (n.ends_with(".md") || n.ends_with(".yaml"))
                && sitegen::content::translate::is_translation(n)
        });
        if translation {
            std::fs::remove_file(&path)?;
        }
    }
    // `languages:`, then its items (`  - ...` and their continuation lines): the first kept.
    let file = content.join("site.yaml");
    let text = std::fs::read_to_string(&file)?;
    let (mut kept, mut in_languages, mut items) = (String::new(), false, 0);
    for line in text.split_inclusive('\n') {
        if line.starts_with("languages:") {
            in_languages = true;
        } else if in_languages && line.starts_with("  ") {
            items += usize::from(line.starts_with("  - "));
            if items > 1 {
                continue;
            }
        } else {
            in_languages = false;
        }
        kept.push_str(line);
    }
    anyhow::ensure!(items > 1, "site.yaml names one language already");
    std::fs::write(&file, kept)?;
    Ok(())
}
