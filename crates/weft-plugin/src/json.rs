//! Reading a JSON file weft did not write: a regular file under a cap (through weft-fs, so a
//! FIFO, a device or `/proc` is refused), a link kept inside its plugin when there is one, and
//! a parse error that names the line and column.

use std::path::Path;

use serde_json::{Map, Value};
use weft_fs::Cap;

use crate::error::PluginError;

/// The most a manifest, marketplace, hooks or MCP file may hold.
pub const PLUGIN_FILE_CAP: Cap = Cap::new(1024 * 1024, "plugin files");

/// The most a record file (`plugins.lock`, Claude Code's `installed_plugins.json`, a settings
/// file) may hold.
pub const RECORD_CAP: Cap = Cap::new(32 * 1024 * 1024, "plugin records");

/// Reads and parses `path`. With `within`, a link must stay inside that directory (a
/// plugin's root); without, the file is one of the user's own records.
pub(crate) fn read_json(
    path: &Path,
    within: Option<&Path>,
    cap: Cap,
) -> Result<Value, PluginError> {
    let read = match within {
        Some(root) => weft_fs::read_within(path, root, cap),
        None => weft_fs::read_regular(path, cap),
    };
    let bytes = read.map_err(|source| PluginError::Read {
        path: path.to_path_buf(),
        reason: source.reason(),
        source,
    })?;
    parse_json(&bytes, path)
}

/// Parses `bytes` (the contents of `path`) as JSON.
pub(crate) fn parse_json(bytes: &[u8], path: &Path) -> Result<Value, PluginError> {
    serde_json::from_slice(bytes).map_err(|e| PluginError::Json {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })
}

/// serde_json's message without its own ` at line L column C` (the error says it once).
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// The object at the top of a file, or an error naming the file.
pub(crate) fn object<'a>(
    value: &'a Value,
    path: &Path,
    what: &str,
) -> Result<&'a Map<String, Value>, PluginError> {
    value
        .as_object()
        .ok_or_else(|| PluginError::invalid(path, format!("{what} must be a JSON object")))
}

/// Typed reads of one object's fields, each error naming the field and the file.
pub(crate) struct Fields<'a> {
    pub(crate) map: &'a Map<String, Value>,
    pub(crate) path: &'a Path,
    /// Prefix for field names in messages (`plugins[2].` for a marketplace entry).
    pub(crate) prefix: String,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(map: &'a Map<String, Value>, path: &'a Path) -> Self {
        Fields {
            map,
            path,
            prefix: String::new(),
        }
    }

    pub(crate) fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    pub(crate) fn wrong(&self, key: &str, expected: &str) -> PluginError {
        PluginError::invalid(
            self.path,
            format!("`{}{key}` must be {expected}", self.prefix),
        )
    }

    /// An optional string field.
    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, PluginError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.wrong(key, "a string")),
        }
    }

    /// A required string field.
    pub(crate) fn required(&self, key: &str) -> Result<String, PluginError> {
        self.string(key)?.ok_or_else(|| {
            PluginError::invalid(self.path, format!("`{}{key}` is required", self.prefix))
        })
    }

    /// An optional boolean field.
    pub(crate) fn boolean(&self, key: &str) -> Result<Option<bool>, PluginError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(self.wrong(key, "true or false")),
        }
    }

    /// A string or an array of strings (`None` when absent).
    pub(crate) fn strings(&self, key: &str) -> Result<Option<Vec<String>>, PluginError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(vec![s.clone()])),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "a string or an array of strings")),
            Some(_) => Err(self.wrong(key, "a string or an array of strings")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_line_and_column() {
        let err = parse_json(b"{\n  \"name\": ,\n}", Path::new("/p/plugin.json")).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("/p/plugin.json:2:11: not valid JSON: "),
            "{text}"
        );
        assert!(!text.contains("at line"), "{text}");
        // Deep nesting is an error, not a crash.
        let deep = "[".repeat(100_000);
        assert!(parse_json(deep.as_bytes(), Path::new("x")).is_err());
    }
}
