//! Finds the site's languages' translations of `content/forms.yaml` (`forms.et.yaml`) for
//! `src/language.rs`: which files exist is known only here, and `include_str!` needs each
//! name written out.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let content = Path::new(&manifest).join("../content");
    let site = content.join("site.yaml");
    // A new language is named in site.yaml, so a change there finds its new file.
    println!("cargo::rerun-if-changed={}", site.display());
    let mut translations: Vec<(String, std::path::PathBuf)> = fs::read_dir(&content)
        .expect("content/ beside contact-fn/")
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let tag = name.strip_prefix("forms.")?.strip_suffix(".yaml")?;
            (!tag.is_empty() && !tag.contains('.')).then(|| (tag.to_owned(), entry.path()))
        })
        .collect();
    translations.sort();
    let mut out = format!(
        "/// `content/site.yaml`, for its list of languages.\n\
         pub const SITE_YAML: &str = include_str!({:?});\n\
         /// Each translation of `content/forms.yaml` there is: its language's tag and text.\n\
         pub const FORMS_TRANSLATIONS: &[(&str, &str)] = &[\n",
        site.display().to_string()
    );
    for (tag, path) in &translations {
        println!("cargo::rerun-if-changed={}", path.display());
        let _ = writeln!(
            out,
            "    ({tag:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("languages.rs");
    fs::write(dest, out).expect("writing languages.rs");
}
