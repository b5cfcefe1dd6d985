//! TypeScript types for `site/` and JSON Schemas for the editors of `content/`, generated from
//! the content model so none of them can drift.
//!
//! `sitegen schema` (or `make schema`) rewrites `site/schema/`: the content model's types, the
//! form contract's types (the contact service's error answer) and its values (`contract.ts`); and
//! `site/schema/json/`: one JSON Schema per kind of content file, which each YAML file names on its
//! first line. Tests fail when the checked-in files differ from what the Rust code generates.

use std::path::Path;

use anyhow::{Context, Result};
use ts_rs::{Config, TS};

use crate::content::{self, Content, FixedPage, RouteKind, countries, forms, services, settings};

/// The file holding the form contract's values.
const CONTRACT_FILE: &str = "contract.ts";
/// The file holding the search index's format values.
const SEARCH_FILE: &str = "search.ts";

/// Writes one `.ts` file per content type into `dir`, removing stale ones.
pub fn write_typescript(dir: &Path) -> Result<()> {
    if dir.exists() {
        for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "ts") {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    let config = Config::new().with_out_dir(dir);
    Content::export_all(&config)
        // A route's kind is flattened into `RouteInfo`; the site also names it on its own.
        .and_then(|()| RouteKind::export_all(&config))
        .and_then(|()| form_contract::ErrorBody::export_all(&config))
        // The search index's files, which the site's search box reads.
        .and_then(|()| crate::search::Entry::export_all(&config))
        .and_then(|()| crate::search::Doc::export_all(&config))
        .with_context(|| format!("writing TypeScript types into {}", dir.display()))?;
    for (file, text) in [
        (CONTRACT_FILE, form_contract::typescript()),
        (SEARCH_FILE, crate::search::typescript()),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Where the JSON Schemas go, under the directory of the TypeScript types.
pub const JSON_DIR: &str = "json";

pub use crate::content::json_schema_of;

/// One kind of content file and its schema.
#[derive(Debug, Clone)]
pub struct FileSchema {
    /// The schema's name, which is also its path under [`JSON_DIR`] without `.schema.json`
    /// (`site`, `pages/home`, `service-category`).
    pub name: String,
    /// The schema itself.
    pub schema: schemars::Schema,
}

/// The schema of every kind of content file: the top-level files, each fixed page, and a
/// service category.
pub fn file_schemas() -> Vec<FileSchema> {
    let mut schemas = vec![
        file_schema(content::SITE_FILE, json_schema_of::<settings::Settings>()),
        file_schema(
            content::COUNTRIES_FILE,
            json_schema_of::<Vec<countries::Country>>(),
        ),
        file_schema(content::FORMS_FILE, json_schema_of::<forms::Forms>()),
        file_schema(
            content::articles::AUTHORS_FILE,
            json_schema_of::<std::collections::BTreeMap<String, content::articles::Author>>(),
        ),
        file_schema(
            content::redirects::REDIRECTS_FILE,
            json_schema_of::<content::redirects::RedirectsFile>(),
        ),
    ];
    schemas.extend(
        FixedPage::ALL
            .iter()
            .map(|page| file_schema(&page.file(), page.json_schema())),
    );
    schemas.push(FileSchema {
        name: SERVICE_CATEGORY.into(),
        schema: json_schema_of::<services::ServiceCategory>(),
    });
    // A translation (`pages/about.et.yaml`) holds any of its source's fields and no other.
    let translations: Vec<FileSchema> = schemas
        .iter()
        .filter(|s| s.name != content::redirects::REDIRECTS_FILE.trim_end_matches(".yaml"))
        .map(|s| FileSchema {
            name: format!("{}{TRANSLATION}", s.name),
            schema: translation_schema(s.schema.clone()),
        })
        .collect();
    schemas.extend(translations);
    schemas
}

/// What the schema name of a translation adds to its source's (`pages/about.translation`).
pub const TRANSLATION: &str = ".translation";

/// `schema` with no field required: a translation gives only the words it translates (see
/// [`crate::content::translate`]), and still no field its source does not have.
fn translation_schema(schema: schemars::Schema) -> schemars::Schema {
    fn optional(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(fields) => {
                // The keyword (a list of names), not a property named `required`.
                if fields
                    .get("required")
                    .is_some_and(serde_json::Value::is_array)
                {
                    fields.remove("required");
                }
                fields.values_mut().for_each(optional);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(optional),
            _ => {}
        }
    }
    let mut value = schema.to_value();
    optional(&mut value);
    schemars::Schema::try_from(value).unwrap_or_default()
}

/// The schema name of every file under `services/`.
pub const SERVICE_CATEGORY: &str = "service-category";

fn file_schema(rel: &str, schema: schemars::Schema) -> FileSchema {
    FileSchema {
        name: rel.trim_end_matches(".yaml").into(),
        schema,
    }
}

/// The name of the schema the content file `rel` (relative to the content directory, with `/`
/// separators) follows, if it is a content file.
pub fn schema_name(rel: &str) -> Option<String> {
    let stem = rel.strip_suffix(".yaml")?;
    let file = stem.rsplit_once('/').map_or(stem, |(_, file)| file);
    if let Some((source, _tag)) = file.rsplit_once('.') {
        let source = format!("{}{source}.yaml", &stem[..stem.len() - file.len()]);
        return schema_name(&source).map(|name| format!("{name}{TRANSLATION}"));
    }
    if let Some(file) = stem.strip_prefix(&format!("{}/", content::SERVICES_DIR)) {
        return (!file.contains('/')).then(|| SERVICE_CATEGORY.into());
    }
    file_schemas()
        .into_iter()
        .map(|s| s.name)
        .find(|name| name == stem)
}

/// The first line of the content file `rel`: the schema comment the YAML language server reads,
/// with the schema's path relative to the file (content/ and site/ side by side).
pub fn schema_comment(rel: &str) -> Option<String> {
    let name = schema_name(rel)?;
    let up = "../".repeat(rel.matches('/').count() + 1);
    Some(format!(
        "# yaml-language-server: $schema={up}site/schema/{JSON_DIR}/{name}.schema.json"
    ))
}

/// Writes every content file's JSON Schema into `dir` (`site/schema/json`), replacing the
/// directory's previous contents.
pub fn write_json_schemas(dir: &Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    for FileSchema { name, schema } in file_schemas() {
        let path = dir.join(format!("{name}.schema.json"));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let mut json = serde_json::to_string_pretty(&schema)?;
        json.push('\n');
        std::fs::write(&path, json).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
