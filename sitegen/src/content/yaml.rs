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
