//! The one place YAML is parsed, so the parser can change without touching the model.

use serde::de::DeserializeOwned;

/// A YAML document that could not be read into the expected type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// 1-based line of the offending node, when known.
    pub line: Option<usize>,
    /// 1-based column of the offending node, when known.
    pub column: Option<usize>,
    /// What is wrong, naming the field (`hero: unknown field `titel`, expected ...`).
    pub message: String,
}

/// Parses `text` into `T`, reporting the position and field of the first mistake.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|err| {
        let location = err.location();
        let mut message = err.to_string();
        // serde_yaml appends " at line L column C"; the position is reported separately.
        if let Some(loc) = &location {
            let suffix = format!(" at line {} column {}", loc.line(), loc.column());
            if let Some(stripped) = message.strip_suffix(&suffix) {
                message = stripped.to_owned();
            }
        }
        YamlError {
            line: location.as_ref().map(|l| l.line()),
            column: location.as_ref().map(|l| l.column()),
            message,
        }
    })
}

/// A parsed YAML document, before it is read into a type: what a translation is laid over.
pub type Value = serde_yaml::Value;

/// Parses `text` into a document, reporting the position of a syntax error.
pub fn value_from_str(text: &str) -> Result<Value, YamlError> {
    from_str(text)
}

/// Reads the document `value` into `T`; a mistake has no position (the document may be made
/// of two files), only its field.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, YamlError> {
    serde_yaml::from_value(value).map_err(|err| YamlError {
        line: None,
        column: None,
        message: err.to_string(),
    })
}
