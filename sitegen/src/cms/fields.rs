//! A JSON Schema of the content model turned into the editor's fields: one field per property,
//! with its widget, required-ness, hint (the doc comment), pattern and choices.
//!
//! The schemas are those `sitegen schema` writes for the YAML language server
//! ([`crate::schema::file_schemas`]), so the form and the validation read one definition. What
//! the editor cannot express (a map keyed by name) is laid out as the nearest widget that keeps
//! every value editable, and said here.

use serde::Serialize;
use serde_json::{Map, Value};

/// The keyword by which a field of the model names the content its value must be one of
/// (`#[schemars(extend("x-sitegen-choices" = "authors"))]`), a key of [`Choices`].
pub const CHOICES_KEYWORD: &str = "x-sitegen-choices";

/// The keyword by which a field of the model says it is a picture and names the field of its
/// alternative text (`#[schemars(extend("x-sitegen-picture" = "image_alt"))]`): the editor
/// offers its media library for the picture and requires the text, so a picture uploaded there
/// always says what it shows (the validation allows leaving it out only with `decorative`).
pub const PICTURE_KEYWORD: &str = "x-sitegen-picture";

/// The name the editor gives the key of an entry of a map laid out as a list. The names the
/// editor gives what has no key in the file start with `_`, as no key of the model does.
pub const MAP_KEY: &str = "_key";
/// The name the editor gives the value of an entry of a map of plain values.
pub const MAP_VALUE: &str = "_value";
/// The name the editor gives the one field of each item of a list of plain values.
pub const LIST_ITEM: &str = "_item";
/// The names of the editor's fields that stand for no key of the file.
pub const EDITOR_ONLY: &[&str] = &[ROOT_MAP, MAP_KEY, MAP_VALUE, LIST_ITEM];

/// The values a reference may take, by the name its field gives them
/// ([`CHOICES_KEYWORD`]): `authors` (keys of `authors.yaml`, shown by the author's name),
/// `services` (category files, shown by the category's name).
pub type Choices = std::collections::BTreeMap<String, Vec<SelectOption>>;

/// One field of the editor's form (Decap's field configuration).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Field {
    /// The key in the file.
    pub name: String,
    /// What the form shows: the key in words (`share_image_alt` -> `Share image alt`).
    pub label: String,
    /// `string`, `text`, `markdown`, `image`, `boolean`, `number`, `select`, `object` or `list`.
    pub widget: &'static str,
    /// `Some(false)` for a field that may be left out; the editor's default is required.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// The model's doc comment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// A regular expression the value must match, and what to say when it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<[String; 2]>,
    /// The values a `select` offers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<SelectOption>,
    /// `int` or `float`, for a `number`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_type: Option<&'static str>,
    /// The smallest value of a `number`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// The largest value of a `number`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// The fields of an `object`, or of each item of a `list` of objects.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    /// The one field of each item of a `list` of plain values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<Box<Field>>,
    /// Whether each language has its own value (`true`); else only the default language's
    /// file holds the field and a translation inherits it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub i18n: Option<bool>,
}

/// One choice of a `select`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelectOption {
    /// What the form shows.
    pub label: String,
    /// What is written.
    pub value: String,
}

/// The name of the one field of a file that is a map or a list (`authors.yaml`,
/// `countries.yaml`): the editor's form is made of named fields, so the file's entries are
/// this field's items.
pub const ROOT_MAP: &str = "_entries";

/// The fields of the object `schema` (a root schema, whose `$defs` its references name); a
/// map or a list is one field, [`ROOT_MAP`].
pub fn of_root(schema: &Value, choices: &Choices) -> Result<Vec<Field>, String> {
    let walker = Walker {
        defs: schema.get("$defs").and_then(Value::as_object),
        choices,
    };
    let resolved = walker.resolve(schema)?;
    if resolved.schema.get("properties").is_some() {
        return walker.properties("", &resolved);
    }
    let mut entries = walker.field(ROOT_MAP, ROOT_MAP, schema, true)?;
    entries.label = "Entries".into();
    Ok(vec![entries])
}

/// Reads schemas with their `$defs` at hand.
struct Walker<'a> {
    defs: Option<&'a Map<String, Value>>,
    choices: &'a Choices,
}

/// A property's schema with its reference followed and its `null` alternative removed.
struct Resolved<'a> {
    /// The schema that says what the value is.
    schema: &'a Value,
    /// The description at the property, else the one of what it refers to.
    description: Option<&'a str>,
    /// Whether `null` is allowed (an `Option`).
    nullable: bool,
}

impl<'a> Walker<'a> {
    fn resolve(&self, schema: &'a Value) -> Result<Resolved<'a>, String> {
        let description = schema.get("description").and_then(Value::as_str);
        let mut nullable = false;
        let mut target = schema;
        // `Option<T>` is `anyOf: [T, {type: null}]`.
        if let Some(alternatives) = schema.get("anyOf").and_then(Value::as_array) {
            let (null, other): (Vec<&Value>, Vec<&Value>) = alternatives
                .iter()
                .partition(|a| a.get("type").and_then(Value::as_str) == Some("null"));
            if null.len() != 1 || other.len() != 1 {
                return Err(format!("an `anyOf` other than an Option: {schema}"));
            }
            nullable = true;
            target = other[0];
        }
        if let Some(reference) = target.get("$ref").and_then(Value::as_str) {
            let name = reference
                .strip_prefix("#/$defs/")
                .ok_or_else(|| format!("a reference outside $defs: {reference}"))?;
            let def = self
                .defs
                .and_then(|defs| defs.get(name))
                .ok_or_else(|| format!("a reference to a missing definition: {reference}"))?;
            let inner = self.resolve(def)?;
            return Ok(Resolved {
                schema: inner.schema,
                description: description.or(inner.description),
                nullable: nullable || inner.nullable,
            });
        }
        Ok(Resolved {
            schema: target,
            description,
            nullable,
        })
    }

    /// The fields of the object `object`; `path` names it in errors.
    fn properties(&self, path: &str, object: &Resolved<'_>) -> Result<Vec<Field>, String> {
        let Some(properties) = object.schema.get("properties").and_then(Value::as_object) else {
            return Err(format!("{path}: an object without properties"));
        };
        let required: Vec<&str> = object
            .schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        // The required fields in the order the model declares them (schemars keeps it in
        // `required`), then the optional ones by name (the order `properties` holds them in).
        let mut names: Vec<&str> = required.clone();
        names.extend(
            properties
                .keys()
                .map(String::as_str)
                .filter(|name| !required.contains(name)),
        );
        let mut fields = names
            .into_iter()
            .map(|name| {
                let path = if path.is_empty() {
                    name.to_owned()
                } else {
                    format!("{path}.{name}")
                };
                let schema = &properties[name];
                self.field(&path, name, schema, required.contains(&name))
            })
            .collect::<Result<Vec<_>, _>>()?;
        // The alternative text of each picture ([`PICTURE_KEYWORD`]) is required with it.
        for (picture, schema) in properties {
            let Some(alt) = schema.get(PICTURE_KEYWORD).and_then(Value::as_str) else {
                continue;
            };
            let field = fields
                .iter_mut()
                .find(|f| f.name == alt)
                .ok_or_else(|| format!("{path}.{picture}: no field `{alt}` for its text"))?;
            field.required = None;
        }
        Ok(fields)
    }

    /// The field `name` (at `path`) of schema `schema`, required or not by its object.
    fn field(
        &self,
        path: &str,
        name: &str,
        schema: &Value,
        required: bool,
    ) -> Result<Field, String> {
        let resolved = self.resolve(schema)?;
        let optional = !required || resolved.nullable || schema.get("default").is_some();
        let mut field = Field {
            name: name.to_owned(),
            label: label(name),
            hint: resolved.description.map(hint),
            required: optional.then_some(false),
            ..Field::default()
        };
        let target = resolved.schema;
        if let Some(source) = schema.get(CHOICES_KEYWORD).and_then(Value::as_str) {
            let values = self
                .choices
                .get(source)
                .ok_or_else(|| format!("{path}: no choices named `{source}`"))?;
            field.widget = "select";
            field.options.clone_from(values);
            return Ok(field);
        }
        if let Some(options) = enum_options(target) {
            field.widget = "select";
            field.options = options;
            return Ok(field);
        }
        if schema.get(PICTURE_KEYWORD).is_some() {
            field.widget = "image";
            return Ok(field);
        }
        match primary_type(target) {
            Some("string") => {
                field.widget = "string";
                if let Some(pattern) = target.get("pattern").and_then(Value::as_str) {
                    field.pattern = Some(pattern_of(pattern));
                }
            }
            Some("boolean") => {
                field.widget = "boolean";
                // An unticked box is `false`, which every boolean of the model defaults to.
                field.required = Some(false);
            }
            Some(kind @ ("integer" | "number")) => {
                field.widget = "number";
                field.value_type = Some(if kind == "integer" { "int" } else { "float" });
                field.min = target.get("minimum").and_then(Value::as_f64);
                field.max = target.get("maximum").and_then(Value::as_f64);
            }
            Some("array") => {
                field.widget = "list";
                let items = target
                    .get("items")
                    .ok_or_else(|| format!("{path}: a list without `items`"))?;
                self.items(path, items, &mut field)?;
            }
            Some("object") => {
                self.object(path, &resolved, &mut field)?;
                if optional && field.widget == "object" {
                    // The editor checks the fields of an object left out as if it were there
                    // (Decap CMS): what the object requires is required only when it is written,
                    // which the validation of the save checks.
                    optional_within(&mut field.fields);
                }
            }
            other => return Err(format!("{path}: no widget for type {other:?}: {target}")),
        }
        Ok(field)
    }

    /// Fills the list `field` for items of schema `items`.
    fn items(&self, path: &str, items: &Value, field: &mut Field) -> Result<(), String> {
        let item = self.resolve(items)?;
        if primary_type(item.schema) == Some("object") && enum_options(item.schema).is_none() {
            let mut inner = Field::default();
            self.object(&format!("{path}[]"), &item, &mut inner)?;
            if inner.widget == "object" {
                field.fields = inner.fields;
            } else {
                // A list of maps: each item laid out as a map is.
                field.field = Some(Box::new(Field {
                    name: LIST_ITEM.into(),
                    label: "Item".into(),
                    ..inner
                }));
            }
        } else {
            field.field = Some(Box::new(self.field(
                &format!("{path}[]"),
                LIST_ITEM,
                items,
                true,
            )?));
        }
        Ok(())
    }

    /// Fills `field` for the object `object`: its properties, or, for a map (names chosen by
    /// the author, as the keys of `authors.yaml` or `redirects.yaml`), a list of entries each
    /// with its [`MAP_KEY`] beside its value's fields (or a [`MAP_VALUE`]): the editor has no
    /// widget for a map, and the files keep theirs (see `crate::cms`).
    fn object(&self, path: &str, object: &Resolved<'_>, field: &mut Field) -> Result<(), String> {
        let schema = object.schema;
        if schema.get("properties").is_some() {
            field.widget = "object";
            field.fields = self.properties(path, object)?;
            return Ok(());
        }
        let Some(values) = schema.get("additionalProperties").filter(|v| v.is_object()) else {
            return Err(format!(
                "{path}: an object with neither properties nor values"
            ));
        };
        let mut key = Field {
            name: MAP_KEY.into(),
            label: "Name".into(),
            widget: "string",
            ..Field::default()
        };
        if let Some(pattern) = schema
            .pointer("/propertyNames/pattern")
            .and_then(Value::as_str)
        {
            key.pattern = Some(pattern_of(pattern));
        }
        let value = self.resolve(values)?;
        field.widget = "list";
        field.fields = vec![key];
        if value.schema.get("properties").is_some() {
            field
                .fields
                .extend(self.properties(&format!("{path}.*"), &value)?);
        } else {
            field
                .fields
                .push(self.field(&format!("{path}.*"), MAP_VALUE, values, true)?);
        }
        Ok(())
    }
}

/// `fields` made optional, and those of the objects among them; the items of a list are
/// checked only when there are some, so what they require stays required.
fn optional_within(fields: &mut [Field]) {
    for field in fields {
        field.required = Some(false);
        if field.widget == "object" {
            optional_within(&mut field.fields);
        }
    }
}

/// The type a schema names, with `null` left out (`["string", "null"]` is a string).
fn primary_type(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null"),
        _ => None,
    }
}

/// The choices of a schema that lists its values (a Rust enum of unit variants: `oneOf` of
/// `const`s, or `enum`), each labelled by its doc comment when it has one.
fn enum_options(schema: &Value) -> Option<Vec<SelectOption>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(|value| {
                let value = value.as_str()?.to_owned();
                Some(SelectOption {
                    label: value.clone(),
                    value,
                })
            })
            .collect();
    }
    schema
        .get("oneOf")
        .and_then(Value::as_array)?
        .iter()
        .map(|variant| {
            let value = variant.get("const")?.as_str()?.to_owned();
            let label = match variant.get("description").and_then(Value::as_str) {
                Some(description) => format!("{value}: {}", hint(description)),
                None => value.clone(),
            };
            Some(SelectOption { label, value })
        })
        .collect()
}

/// A regular expression of the model and the message the editor shows when a value misses it.
fn pattern_of(pattern: &str) -> [String; 2] {
    [pattern.to_owned(), format!("must match {pattern}")]
}

/// A doc comment as one line of hint: rustdoc's line breaks joined, its intra-doc link
/// brackets (`[`Meta`]`) dropped.
fn hint(description: &str) -> String {
    description
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("[`", "`")
        .replace("`]", "`")
}

/// A key in words: `share_image_alt` -> `Share image alt`.
pub fn label(name: &str) -> String {
    let words = name.replace(['_', '-'], " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(schema: Value) -> Vec<Field> {
        of_root(&schema, &Choices::new()).expect("fields")
    }

    #[test]
    fn an_option_is_optional_and_keeps_the_description_of_its_property() {
        let got = fields(json!({
            "type": "object",
            "properties": {
                "hero": {"description": "The opening block.", "anyOf": [{"$ref": "#/$defs/Hero"}, {"type": "null"}]},
                "title": {"description": "The heading.", "type": "string"}
            },
            "required": ["title"],
            "$defs": {"Hero": {"description": "A hero.", "type": "object",
                "properties": {"lead": {"type": "string"}}, "required": ["lead"]}}
        }));
        assert_eq!(got[0].name, "title");
        assert_eq!(got[0].required, None);
        assert_eq!(got[1].name, "hero");
        assert_eq!(got[1].widget, "object");
        assert_eq!(got[1].required, Some(false));
        assert_eq!(got[1].hint.as_deref(), Some("The opening block."));
        assert_eq!(got[1].fields[0].name, "lead");
    }

    #[test]
    fn a_map_is_a_list_of_entries_with_their_key() {
        let got = fields(json!({
            "type": "object",
            "properties": {"folds": {"type": "object",
                "propertyNames": {"pattern": "^/"},
                "additionalProperties": {"type": "string"}}},
            "required": ["folds"]
        }));
        assert_eq!(got[0].widget, "list");
        let names: Vec<&str> = got[0].fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, [MAP_KEY, MAP_VALUE]);
        assert_eq!(
            got[0].fields[0].pattern.as_ref().map(|p| p[0].as_str()),
            Some("^/")
        );
    }

    #[test]
    fn an_enum_is_a_select_labelled_by_its_doc_comments() {
        let got = fields(json!({
            "type": "object",
            "properties": {"style": {"oneOf": [
                {"const": "primary", "type": "string", "description": "Filled."},
                {"const": "secondary", "type": "string"}]}},
            "required": ["style"]
        }));
        assert_eq!(got[0].widget, "select");
        assert_eq!(got[0].options[0].label, "primary: Filled.");
        assert_eq!(got[0].options[1].value, "secondary");
    }

    #[test]
    fn a_picture_is_an_image_field_and_requires_its_alternative_text() {
        let got = fields(json!({
            "type": "object",
            "properties": {
                "image": {"type": "string", PICTURE_KEYWORD: "image_alt"},
                "image_alt": {"type": "string", "default": ""}
            },
            "required": ["image"]
        }));
        assert_eq!((got[0].name.as_str(), got[0].widget), ("image", "image"));
        assert_eq!((got[1].name.as_str(), got[1].required), ("image_alt", None));
    }

    #[test]
    fn an_unknown_reference_names_its_field() {
        let err = of_root(
            &json!({"type": "object", "properties": {"who": {"type": "string", CHOICES_KEYWORD: "people"}}}),
            &Choices::new(),
        )
        .expect_err("no such choices");
        assert_eq!(err, "who: no choices named `people`");
    }
}
