//! The JSON Schemas of the content files: up to date with the Rust model, named on the first line
//! of every YAML file under `content/`, and accepted by an independent validator (the
//! `jsonschema` crate) for every file, while a misspelt field is rejected.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every text file under `dir` (the photos of `content/images/` are not), by its path relative
/// to `dir` (with `/` separators).
fn files(dir: &Path) -> BTreeMap<String, String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(dir).expect("under dir");
            let bytes = std::fs::read(e.path()).expect("read");
            let text = String::from_utf8(bytes).ok()?;
            Some((rel.to_string_lossy().replace('\\', "/"), text))
        })
        .collect()
}

#[test]
fn checked_in_json_schemas_match_the_rust_model() {
    let fresh = tempfile::tempdir().expect("tempdir");
    sitegen::schema::write_json_schemas(fresh.path()).expect("generate");
    let generated = files(fresh.path());
    assert!(
        generated.contains_key("pages/home.schema.json"),
        "{:?}",
        generated.keys()
    );
    let checked_in = files(&repo().join("site/schema").join(sitegen::schema::JSON_DIR));
    let stale: Vec<&String> = generated
        .keys()
        .chain(checked_in.keys())
        .filter(|name| generated.get(*name) != checked_in.get(*name))
        .collect();
    assert!(
        stale.is_empty(),
        "site/schema/json is stale ({stale:?} differ): run `make schema` and commit the result"
    );
}

/// The schema a content file names on its first line, resolved relative to the file.
fn named_schema(file: &Path, text: &str) -> serde_json::Value {
    let first = text.lines().next().unwrap_or_default();
    let path = first
        .strip_prefix("# yaml-language-server: $schema=")
        .unwrap_or_else(|| panic!("{}: first line names no schema: {first}", file.display()));
    let schema = file.parent().expect("parent").join(path);
    let text = std::fs::read_to_string(&schema)
        .unwrap_or_else(|e| panic!("{}: schema {}: {e}", file.display(), schema.display()));
    serde_json::from_str(&text).expect("schema is JSON")
}

fn violations(schema: &serde_json::Value, yaml: &str) -> Vec<String> {
    let instance: serde_json::Value = serde_yaml::from_str(yaml).expect("YAML");
    let validator = jsonschema::validator_for(schema).expect("a valid schema");
    validator
        .iter_errors(&instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn every_content_file_names_its_schema_and_validates_against_it() {
    let content = repo().join("content");
    // Every YAML file; articles are Markdown, whose front matter sitegen checks itself.
    let all: BTreeMap<String, String> = files(&content)
        .into_iter()
        .filter(|(rel, _)| rel.ends_with(".yaml"))
        .collect();
    assert!(all.len() > 10, "{:?}", all.keys());
    for (rel, text) in &all {
        let expected = sitegen::schema::schema_comment(rel)
            .unwrap_or_else(|| panic!("content/{rel} is no kind of content file"));
        assert_eq!(
            text.lines().next(),
            Some(expected.as_str()),
            "content/{rel}: the first line must name its schema"
        );
        let schema = named_schema(&content.join(rel), text);
        let errors = violations(&schema, text);
        assert!(
            errors.is_empty(),
            "content/{rel} breaks its schema: {errors:#?}"
        );
    }
}

#[test]
fn a_misspelt_field_fails_the_schema() {
    let file = repo().join("content/pages/about.yaml");
    let text = std::fs::read_to_string(&file).expect("read");
    let schema = named_schema(&file, &text);
    assert!(violations(&schema, &text).is_empty());

    let misspelt = text.replacen("\n  title:", "\n  titel:", 1);
    assert_ne!(misspelt, text);
    let errors = violations(&schema, &misspelt);
    assert!(
        errors.iter().any(|e| e.contains("titel")),
        "expected the misspelt field to be named: {errors:#?}"
    );
}
