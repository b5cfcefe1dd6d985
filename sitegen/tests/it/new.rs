//! `sitegen new sub-service`: the skeleton lands in its category's file with the rest of the text
//! untouched, validates (model and JSON Schema) and publishes a page; duplicates and unknown
//! categories are refused with one clear line.

use std::path::{Path, PathBuf};

use sitegen::content::{Content, RouteKind};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A temporary copy of the repository's content/.
fn content_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = repo().join("content");
    for entry in walkdir::WalkDir::new(&source)
        .into_iter()
        .filter_map(Result::ok)
    {
        let target = dir
            .path()
            .join(entry.path().strip_prefix(&source).expect("under"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    dir
}

fn public() -> PathBuf {
    repo().join("site/public")
}

#[test]
fn a_new_sub_service_validates_and_keeps_the_file_text() {
    let content = content_copy();
    let file = content.path().join("services/cloud-services.yaml");
    let before = std::fs::read_to_string(&file).expect("read");

    let (written, path) =
        sitegen::new::sub_service(content.path(), &public(), "cloud-services", "finops")
            .expect("added");
    assert_eq!(written, file);
    assert_eq!(path, "/services/cloud-services/finops");

    // Every line of the file is still there, in order, comments included; only the entry is new.
    let after = std::fs::read_to_string(&file).expect("read");
    let mut old = before.lines().peekable();
    let added: Vec<&str> = after
        .lines()
        .filter(|line| {
            if old.peek() == Some(line) {
                old.next();
                false
            } else {
                true
            }
        })
        .collect();
    assert_eq!(old.next(), None, "a line of the original file went missing");
    assert_eq!(added.first(), Some(&"  - slug: finops"), "{added:#?}");
    assert!(before.lines().any(|l| l.trim_start().starts_with('#')));

    // The model accepts it and publishes the page...
    let loaded = Content::load(content.path(), &public()).expect("valid content");
    let route = loaded
        .routes
        .iter()
        .find(|r| {
            r.kind
                == RouteKind::SubService {
                    category: "cloud-services".into(),
                    service: "finops".into(),
                }
        })
        .expect("a route for the new page");
    assert_eq!(route.path, path);

    // ...and so does the file's JSON Schema, with an independent validator.
    let schema_path = repo().join("site/schema/json/service-category.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).expect("schema")).expect("json");
    let instance: serde_json::Value = serde_yaml::from_str(&after).expect("yaml");
    let validator = jsonschema::validator_for(&schema).expect("schema");
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn duplicates_and_unknown_categories_are_refused() {
    let content = content_copy();
    let file = content.path().join("services/cloud-services.yaml");
    let before = std::fs::read_to_string(&file).expect("read");

    let existing = Content::load(content.path(), &public())
        .expect("valid")
        .services
        .into_iter()
        .find(|c| c.slug == "cloud-services")
        .expect("category")
        .sub_services[0]
        .slug
        .clone();
    let duplicate =
        sitegen::new::sub_service(content.path(), &public(), "cloud-services", &existing)
            .expect_err("a duplicate");
    assert_eq!(
        duplicate.to_string(),
        format!("{} already has a sub-service `{existing}`", file.display())
    );

    let unknown = sitegen::new::sub_service(content.path(), &public(), "clouds", "finops")
        .expect_err("an unknown category");
    assert!(
        unknown
            .to_string()
            .starts_with("unknown category `clouds`: the categories are ")
            && unknown.to_string().contains("cloud-services"),
        "{unknown}"
    );

    // A slug the model refuses leaves the file as it was.
    sitegen::new::sub_service(content.path(), &public(), "cloud-services", "Fin Ops")
        .expect_err("an invalid slug");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), before);
}
