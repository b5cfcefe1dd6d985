//! The browser editor's configuration (`sitegen cms config`) against the content model: every
//! kind of content file has its collection or file entry, and every property of its JSON Schema
//! a field there, with the model's required-ness and choices; the languages are `site.yaml`'s.
//!
//! The schemas are read here with a walker of their own, not the generator's, so a property the
//! generator skips or misreads fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

fn config() -> Value {
    let backend = sitegen::cms::Backend::Local {
        proxy_url: sitegen::cms::LOCAL_PROXY_URL.into(),
    };
    let config = sitegen::cms::config(&content(), "content", backend).expect("config");
    serde_json::to_value(&config).expect("as JSON")
}

/// What the model says of one property, and what the editor must say of its field.
#[derive(Debug, PartialEq)]
struct Expect {
    required: bool,
    /// The values of an enum, in order.
    choices: Option<Vec<String>>,
}

use sitegen::cms::fields::EDITOR_ONLY;

/// Every property of `schema` by its path of keys (`hero.actions.label`; list items and map
/// entries add nothing to the path).
fn model_paths(schema: &Value) -> BTreeMap<String, Expect> {
    fn resolve<'a>(root: &'a Value, mut schema: &'a Value) -> (&'a Value, bool) {
        let mut nullable = false;
        loop {
            if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
                nullable = true;
                schema = any
                    .iter()
                    .find(|a| a.get("type") != Some(&Value::from("null")))
                    .expect("an Option");
            } else if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
                schema = root
                    .pointer(&r.replace("#/", "/"))
                    .unwrap_or_else(|| panic!("missing {r}"));
            } else {
                return (schema, nullable);
            }
        }
    }
    /// `within_optional`: under an object that may be left out, whose fields the editor
    /// cannot require (it checks them when the object is absent too).
    fn walk(
        root: &Value,
        schema: &Value,
        path: &str,
        within_optional: bool,
        out: &mut BTreeMap<String, Expect>,
    ) {
        let (schema, _) = resolve(root, schema);
        if let Some(items) = schema.get("items") {
            return walk(root, items, path, false, out);
        }
        if let Some(values) = schema.get("additionalProperties").filter(|v| v.is_object()) {
            return walk(root, values, path, false, out);
        }
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        let required = schema.get("required").and_then(Value::as_array);
        // The alternative text a picture names is required with it (`x-sitegen-picture`).
        let alts: Vec<&str> = properties
            .values()
            .filter_map(|p| p.get(sitegen::cms::fields::PICTURE_KEYWORD)?.as_str())
            .collect();
        for (name, property) in properties {
            let at = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            let (target, nullable) = resolve(root, property);
            let listed = required.is_some_and(|r| r.contains(&Value::from(name.as_str())));
            let boolean = target.get("type") == Some(&Value::from("boolean"));
            let choices = target
                .get("oneOf")
                .and_then(Value::as_array)
                .map(|variants| {
                    variants
                        .iter()
                        .map(|v| v["const"].as_str().expect("a unit variant").to_owned())
                        .collect()
                });
            let required = (listed && !nullable && !boolean && property.get("default").is_none())
                || alts.contains(&name.as_str());
            out.insert(
                at.clone(),
                Expect {
                    required: required && !within_optional,
                    choices,
                },
            );
            let object = target.get("properties").is_some();
            walk(
                root,
                property,
                &at,
                within_optional || (object && !required),
                out,
            );
        }
    }
    let mut out = BTreeMap::new();
    walk(schema, schema, "", false, &mut out);
    out
}

/// Every field of `fields` by its path of keys, the editor's own names left out.
fn editor_paths(fields: &Value) -> BTreeMap<String, Expect> {
    fn walk(fields: &Value, path: &str, out: &mut BTreeMap<String, Expect>) {
        for field in fields.as_array().into_iter().flatten() {
            let name = field["name"].as_str().expect("a name");
            let at = match (EDITOR_ONLY.contains(&name), path.is_empty()) {
                (true, _) => path.to_owned(),
                (false, true) => name.to_owned(),
                (false, false) => format!("{path}.{name}"),
            };
            if !EDITOR_ONLY.contains(&name) {
                let choices = field.get("options").and_then(Value::as_array).map(|o| {
                    o.iter()
                        .map(|o| o["value"].as_str().expect("a value").to_owned())
                        .collect()
                });
                out.insert(
                    at.clone(),
                    Expect {
                        required: field.get("required") != Some(&Value::Bool(false)),
                        choices,
                    },
                );
            }
            if let Some(inner) = field.get("fields") {
                walk(inner, &at, out);
            }
            if let Some(item) = field.get("field") {
                walk(&Value::Array(vec![item.clone()]), &at, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(fields, "", &mut out);
    out
}

/// The fields of the file entry `file` (relative to content/) of the configuration.
fn entry_fields<'a>(config: &'a Value, file: &str) -> &'a Value {
    let path = format!("content/{file}");
    config["collections"]
        .as_array()
        .expect("collections")
        .iter()
        .flat_map(|c| {
            c.get("files")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .find(|f| f["file"] == path.as_str())
        .map(|f| &f["fields"])
        .unwrap_or_else(|| panic!("no file entry for {path}"))
}

/// Asserts that `fields` has a field for every property of `schema`, as required and with the
/// choices the model gives it; `what` names the file in the failure.
fn assert_covers(what: &str, schema: &Value, fields: &Value) {
    let model = model_paths(schema);
    let editor = editor_paths(fields);
    let missing: Vec<&String> = model.keys().filter(|p| !editor.contains_key(*p)).collect();
    assert!(
        missing.is_empty(),
        "{what}: no field in the editor for {missing:?}"
    );
    for (path, expect) in &model {
        let got = &editor[path];
        assert_eq!(got.required, expect.required, "{what}: `{path}` required");
        if expect.choices.is_some() {
            assert_eq!(got.choices, expect.choices, "{what}: `{path}` choices");
        }
    }
    let extra: Vec<&String> = editor.keys().filter(|p| !model.contains_key(*p)).collect();
    assert!(
        extra.is_empty(),
        "{what}: editor fields the model lacks: {extra:?}"
    );
}

#[test]
fn every_field_of_every_content_file_has_its_place_in_the_editor() {
    let config = config();
    let mut covered = 0;
    for schema in sitegen::schema::file_schemas() {
        if schema.name.ends_with(sitegen::schema::TRANSLATION) {
            continue;
        }
        let files: Vec<String> = if schema.name == sitegen::schema::SERVICE_CATEGORY {
            std::fs::read_dir(content().join("services"))
                .expect("services")
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.matches('.').count() == 1)
                .map(|n| format!("services/{n}"))
                .collect()
        } else {
            vec![format!("{}.yaml", schema.name)]
        };
        assert!(!files.is_empty(), "{}: no files", schema.name);
        let model = schema.schema.to_value();
        for file in files {
            assert_covers(&file, &model, entry_fields(&config, &file));
            covered += 1;
        }
    }
    assert!(covered > 15, "only {covered} files covered");
}

#[test]
fn the_article_form_is_the_front_matter_with_the_slug_of_a_translation_and_the_body() {
    let config = config();
    let articles = &config["collections"][0];
    assert_eq!(articles["name"], "articles");
    assert_eq!(articles["folder"], "content/articles");
    assert_eq!(articles["format"], "frontmatter");
    // Its button says **New Article**.
    assert_eq!(articles["label_singular"], "Article");
    let mut fields = articles["fields"].as_array().expect("fields").clone();
    let body = fields.pop().expect("body");
    assert_eq!(
        (body["name"].as_str(), body["widget"].as_str()),
        (Some("body"), Some("markdown"))
    );
    let slug = fields.pop().expect("slug");
    assert_eq!(slug["name"], "slug");
    assert_eq!(
        slug["i18n"], true,
        "an Estonian article is named by its own slug"
    );
    assert_eq!(slug["required"], false);
    let front = sitegen::content::articles::front_matter_schema().to_value();
    assert_covers(
        "article front matter",
        &front,
        &Value::Array(fields.clone()),
    );
    // References are choices read from the content, not free text.
    let options = |name: &str| -> Vec<String> {
        let field = fields.iter().find(|f| f["name"] == name).expect("field");
        assert_eq!(field["widget"], "select", "{name}");
        field["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|o| o["value"].as_str().expect("value").to_owned())
            .collect()
    };
    assert!(options("author").contains(&"maria-tamm".to_owned()));
    // Shown by name, written as the key.
    let author = fields
        .iter()
        .find(|f| f["name"] == "author")
        .expect("author");
    assert!(
        author["options"]
            .as_array()
            .expect("options")
            .contains(&serde_json::json!({ "label": "Maria Tamm", "value": "maria-tamm" })),
        "{author}"
    );
    assert_eq!(
        options("category"),
        [
            "artificial-intelligence",
            "cloud-services",
            "data-analytics",
            "software-engineering"
        ]
    );
    // The illustration is chosen or uploaded in the media library, and says what it shows.
    let field = |name: &str| fields.iter().find(|f| f["name"] == name).expect("field");
    assert_eq!(field("image")["widget"], "image");
    assert!(field("image_alt").get("required").is_none(), "required");
    assert_eq!(config["media_folder"], "content/images");
    assert_eq!(config["public_folder"], "/images");
    // Drafts and scheduled dates are fields of the form, not editorial-workflow state.
    for name in ["draft", "publish_at", "expires_at"] {
        assert!(
            fields.iter().any(|f| f["name"] == name),
            "no `{name}` field"
        );
    }
}

#[test]
fn the_languages_are_the_sites_and_only_words_are_translated() {
    let config = config();
    assert_eq!(config["i18n"]["locales"], serde_json::json!(["en", "et"]));
    assert_eq!(config["i18n"]["default_locale"], "en");
    let article = &config["collections"][0]["fields"];
    let i18n = |name: &str| {
        article
            .as_array()
            .expect("fields")
            .iter()
            .find(|f| f["name"] == name)
            .map(|f| f.get("i18n") == Some(&Value::Bool(true)))
            .expect("field")
    };
    assert!(i18n("title") && i18n("excerpt") && i18n("image_alt") && i18n("body"));
    assert!(!i18n("date") && !i18n("author") && !i18n("image") && !i18n("aliases"));
    // A path answers the same in every language.
    let redirects = config["collections"]
        .as_array()
        .expect("collections")
        .iter()
        .find(|c| c["name"] == "redirects")
        .expect("redirects");
    assert!(redirects.get("i18n").is_none());
    // Each file of a translated collection says so itself: Decap strips the `i18n` of the
    // fields of a file without it, and the Estonian form would show the English values.
    for collection in config["collections"].as_array().expect("collections") {
        for file in collection["files"].as_array().into_iter().flatten() {
            assert_eq!(
                file.get("i18n").is_some(),
                collection.get("i18n").is_some(),
                "{}",
                file["name"]
            );
        }
    }
}

/// Every string value of `value` by its path, as [`sitegen::cms::edit`] names fields.
fn string_paths(value: &serde_yaml::Value, path: &str, out: &mut Vec<String>) {
    match value {
        serde_yaml::Value::String(_) => out.push(path.to_owned()),
        serde_yaml::Value::Mapping(map) => {
            for (key, value) in map {
                let key = key.as_str().expect("a text key");
                let at = if path.is_empty() {
                    key.to_owned()
                } else {
                    format!("{path}.{key}")
                };
                string_paths(value, &at, out);
            }
        }
        serde_yaml::Value::Sequence(items) => {
            for (i, item) in items.iter().enumerate() {
                string_paths(item, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// The value at `path` (`hero.actions[1].label`) of `value`.
fn at_path<'a>(value: &'a mut serde_yaml::Value, path: &str) -> &'a mut serde_yaml::Value {
    let mut at = value;
    for part in path.split('.') {
        let (key, indexes) = part
            .split_once('[')
            .map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            at = &mut at[key];
        }
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            at = &mut at[index.trim_end_matches(']').parse::<usize>().expect("index")];
        }
    }
    at
}

#[test]
fn editing_any_one_value_of_the_real_content_changes_one_line_and_reads_back() {
    let mut edited = 0;
    let mut refused = 0;
    let mut folded = 0;
    for entry in walkdir::WalkDir::new(content())
        .into_iter()
        .filter_map(Result::ok)
    {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let original = std::fs::read_to_string(path).expect("read");
        let value: serde_yaml::Value = serde_yaml::from_str(&original).expect("parses");
        let mut paths = Vec::new();
        string_paths(&value, "", &mut paths);
        // A sample of each file's values: the first ones and every seventh after.
        for field in paths
            .iter()
            .enumerate()
            .filter(|(i, _)| *i < 10 || i % 7 == 0)
            .map(|(_, p)| p)
        {
            let mut new = value.clone();
            let target = at_path(&mut new, field);
            let before = target.as_str().expect("text").to_owned();
            let text = format!("{before} (edited: it's \"new\" #1)");
            *target = serde_yaml::Value::String(text);
            match sitegen::cms::edit::apply(&original, &new) {
                Ok(written) => {
                    let back: serde_yaml::Value = serde_yaml::from_str(&written)
                        .unwrap_or_else(|e| panic!("{}: {field}: {e}\n{written}", path.display()));
                    assert!(
                        back == new,
                        "{}: {field} reads back otherwise",
                        path.display()
                    );
                    // A value written on one line is a one-line diff; one over several lines
                    // (a folded block) is rewritten in its style.
                    if !original.contains(&before) {
                        folded += 1;
                        continue;
                    }
                    let differ = original
                        .lines()
                        .zip(written.lines())
                        .filter(|(a, b)| a != b)
                        .count();
                    assert_eq!(
                        (differ, original.lines().count()),
                        (1, written.lines().count()),
                        "{}: {field}",
                        path.display()
                    );
                    edited += 1;
                }
                Err(sitegen::cms::edit::EditError::Shared { .. }) => refused += 1,
                Err(err) => panic!("{}: {field}: {err}", path.display()),
            }
        }
    }
    eprintln!("{edited} one-line edits, {folded} block values rewritten, {refused} refused");
    assert!(edited > 500, "only {edited} edits ({refused} refused)");
    // Only a value shared through an anchor is refused, and those are few.
    assert!(refused * 10 < edited, "{refused} refused of {edited}");
}

/// `sitegen dev`'s backend of the editor on a copy of the content.
fn local(content: &Path) -> sitegen::cms::local::Local {
    let backend = sitegen::cms::Backend::Local {
        proxy_url: sitegen::cms::LOCAL_PROXY_URL.into(),
    };
    let config = sitegen::cms::config(content, "content", backend).expect("config");
    let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../site/public");
    sitegen::cms::local::Local::new(content, &public, config).expect("backend")
}

fn request(action: &str, params: Value) -> sitegen::cms::local::Request {
    serde_json::from_value(serde_json::json!({ "action": action, "params": params }))
        .expect("request")
}

/// The lines of `after` that differ from `before`'s, which has as many.
fn changed(before: &str, after: &str) -> Vec<String> {
    assert_eq!(before.lines().count(), after.lines().count(), "{after}");
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .map(|(_, b)| b.to_owned())
        .collect()
}

#[test]
fn a_save_through_sitegen_dev_changes_only_the_lines_edited_in_each_language() {
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("content");
    crate::common::copy_dir(&content(), &copy).expect("copy");
    let backend = local(&copy);
    let path = "content/pages/about.yaml";
    let entry = backend
        .handle(&request("getEntry", serde_json::json!({ "path": path })))
        .expect("entry");
    // The page and its translation, as the editor shows a translated file: one document.
    let mut document: serde_yaml::Value =
        serde_yaml::from_str(entry["data"].as_str().expect("data")).expect("yaml");
    document["en"]["meta"]["title"] = "About Nordvale".into();
    document["et"]["meta"]["title"] = "Meie | Nordvale".into();
    let before = |file: &str| std::fs::read_to_string(copy.join(file)).expect("read");
    let (source, translation) = (before("pages/about.yaml"), before("pages/about.et.yaml"));
    let raw = serde_yaml::to_string(&document).expect("yaml");
    let saved = backend.handle(&request(
        "persistEntry",
        serde_json::json!({ "dataFiles": [{ "path": path, "raw": raw }], "assets": [] }),
    ));
    saved.expect("saved");
    assert_eq!(
        changed(&source, &before("pages/about.yaml")),
        ["  title: About Nordvale"]
    );
    assert_eq!(
        changed(&translation, &before("pages/about.et.yaml")),
        ["  title: Meie | Nordvale"]
    );
    assert!(
        before("pages/about.et.yaml").contains("# translated_from: "),
        "the comment is kept"
    );

    // A link to a missing page: refused with its file, line and message; nothing written.
    let written = before("pages/about.yaml");
    document["en"]["hero"]["actions"][0]["href"] = "/no-such-page".into();
    let raw = serde_yaml::to_string(&document).expect("yaml");
    let refused = backend
        .handle(&request(
            "persistEntry",
            serde_json::json!({ "dataFiles": [{ "path": path, "raw": raw }], "assets": [] }),
        ))
        .expect_err("invalid");
    let message = refused.to_string();
    assert!(
        message.contains("content/pages/about.yaml:")
            && message.contains("link `/no-such-page` leads to no page"),
        "{message}"
    );
    assert_eq!(before("pages/about.yaml"), written, "nothing is written");
    // ... and placed at its field of the editor's document, in its language.
    let sitegen::cms::local::LocalError::Invalid { fields, .. } = &refused else {
        panic!("not a validation: {refused}");
    };
    let placed: Vec<(&str, &str, Option<&str>, Option<&str>)> = fields
        .iter()
        .map(|f| {
            (
                f.field.as_str(),
                f.name.as_str(),
                f.locale.as_deref(),
                f.value.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        placed,
        [(
            "en.hero.actions[0].href",
            "href",
            Some("en"),
            Some("/no-such-page")
        )]
    );
    // The same answer without a save, for the editor to ask before it saves.
    let checked = backend
        .handle(&request(
            "validateEntry",
            serde_json::json!({ "dataFiles": [{ "path": path, "raw": raw }], "assets": [] }),
        ))
        .expect("answered");
    assert_eq!(checked["errors"][0]["field"], "en.hero.actions[0].href");
    assert_eq!(before("pages/about.yaml"), written, "nothing is written");
}

#[test]
fn an_article_is_shown_in_one_file_per_language_and_saved_under_its_own_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Named otherwise than `content` (`sitegen dev --content DIR`): the editor's `content/...`
    // paths are the directory's, wherever it is.
    let copy = dir.path().join("site-content");
    crate::common::copy_dir(&content(), &copy).expect("copy");
    let backend = local(&copy);
    let listed = backend
        .handle(&request(
            "entriesByFolder",
            serde_json::json!({ "folder": "content/articles", "extension": "md", "depth": 1 }),
        ))
        .expect("entries");
    let paths: Vec<&str> = listed
        .as_array()
        .expect("list")
        .iter()
        .map(|e| e["file"]["path"].as_str().expect("path"))
        .collect();
    let slug = "designing-event-driven-apis-that-scale";
    assert!(
        paths.contains(&format!("content/articles/{slug}.en.md").as_str()),
        "{paths:?}"
    );
    assert!(
        paths.contains(&format!("content/articles/{slug}.et.md").as_str()),
        "{paths:?}"
    );
    let path = format!("content/articles/{slug}.en.md");
    let entry = backend
        .handle(&request("getEntry", serde_json::json!({ "path": path })))
        .expect("entry");
    let raw = entry["data"].as_str().expect("data").replacen(
        "title: Designing event-driven APIs that scale",
        "title: Designing event-driven APIs that last",
        1,
    );
    let file = copy.join(format!("articles/{slug}.md"));
    let before = std::fs::read_to_string(&file).expect("read");
    backend
        .handle(&request(
            "persistEntry",
            serde_json::json!({ "dataFiles": [{ "path": path, "raw": raw }], "assets": [] }),
        ))
        .expect("saved");
    let after = std::fs::read_to_string(&file).expect("read");
    assert_eq!(
        changed(&before, &after),
        ["title: Designing event-driven APIs that last"]
    );
    // Nothing outside the content directory is read.
    for path in ["content/../Cargo.toml", "Cargo.toml", "content//site.yaml"] {
        let refused = backend
            .handle(&request("getEntry", serde_json::json!({ "path": path })))
            .expect_err(path);
        assert!(
            refused.to_string().contains("not a content file"),
            "{refused}"
        );
    }

    // A link to a missing page in the body and a date that is no date: each at its field.
    let raw = raw
        .replacen("date: 2024-02-14", "date: someday", 1)
        .replacen(
            "\n---\n",
            "\n---\nSee [the old page](/no-such-page).\n\n",
            1,
        );
    let refused = backend
        .handle(&request(
            "persistEntry",
            serde_json::json!({ "dataFiles": [{ "path": path, "raw": raw }], "assets": [] }),
        ))
        .expect_err("invalid");
    let sitegen::cms::local::LocalError::Invalid { fields, .. } = &refused else {
        panic!("not a validation: {refused}");
    };
    let mut placed: Vec<(&str, Option<&str>)> = fields
        .iter()
        .map(|f| (f.field.as_str(), f.locale.as_deref()))
        .collect();
    placed.sort_unstable();
    placed.dedup();
    assert_eq!(
        placed,
        [("body", Some("en")), ("date", Some("en"))],
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), after);
}

#[test]
fn a_new_article_from_the_editor_is_written_under_its_slug_without_its_empty_fields() {
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("content");
    crate::common::copy_dir(&content(), &copy).expect("copy");
    let backend = local(&copy);
    // As the editor sends it: every field of the form, those left empty included.
    let raw = "---\ntitle: A new article\nexcerpt: Written in the browser.\nauthor: maria-tamm\n\
               date: 2026-12-01\ncategory: cloud-services\ntype: article\n\
               image: /images/insights/event-driven-apis.svg\nimage_alt: An illustration\n\
               slug: ''\naliases: []\nshare_image: ''\ndraft: false\n---\n\nThe body.\n";
    backend
        .handle(&request(
            "persistEntry",
            serde_json::json!({
                "dataFiles": [{ "path": "content/articles/a-new-article.en.md", "raw": raw }],
                "assets": [],
            }),
        ))
        .expect("saved");
    let written = std::fs::read_to_string(copy.join("articles/a-new-article.md")).expect("written");
    assert!(
        written.starts_with("---\ntitle: A new article\n"),
        "{written}"
    );
    assert!(
        !written.contains("slug:") && !written.contains("aliases:"),
        "{written}"
    );
    assert!(written.ends_with("---\n\nThe body.\n"), "{written}");
}
