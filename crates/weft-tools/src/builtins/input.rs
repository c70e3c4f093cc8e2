//! Decoding a model's tool input into a typed struct.

use serde::de::DeserializeOwned;

use crate::ToolError;

/// Decodes `input` for tool `tool`; a mismatch (missing field, wrong type, unknown field)
/// becomes [`ToolError::InvalidInput`] naming the tool and serde's description of it.
pub(crate) fn parse<T: DeserializeOwned>(
    tool: &str,
    input: serde_json::Value,
) -> Result<T, ToolError> {
    if !input.is_object() {
        return Err(ToolError::InvalidInput(format!(
            "{tool} expects a JSON object, got {}",
            kind(&input)
        )));
    }
    serde_json::from_value(input).map_err(|err| ToolError::InvalidInput(format!("{tool}: {err}")))
}

/// Whether the path in `input[key]` (when it is a non-empty string) lies within reach, as
/// `resolve` decides (`FsScope::resolve` or `resolve_read`): only an
/// [`OutsideWorkspace`](ToolError::OutsideWorkspace) answer counts; anything else about the
/// input is left for the call to report.
pub(crate) fn check_path_reach<T>(
    input: &serde_json::Value,
    key: &str,
    resolve: impl FnOnce(&str) -> Result<T, ToolError>,
) -> Result<(), ToolError> {
    match input.get(key).and_then(serde_json::Value::as_str) {
        Some(path) if !path.is_empty() => match resolve(path) {
            Err(e @ ToolError::OutsideWorkspace { .. }) => Err(e),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

fn kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Input {
        #[allow(dead_code)]
        path: String,
    }

    fn message(result: Result<Input, ToolError>) -> String {
        match result {
            Err(ToolError::InvalidInput(m)) => m,
            other => panic!("expected InvalidInput, got {other:?}"),
        }
    }

    #[test]
    fn explains_what_is_wrong() {
        assert!(message(parse("t", json!({}))).contains("missing field `path`"));
        assert!(message(parse("t", json!({"path": 3}))).contains("invalid type"));
        assert!(message(parse("t", json!({"path": "a", "x": 1}))).contains("unknown field `x`"));
        assert!(message(parse("t", json!("a"))).contains("expects a JSON object"));
        assert!(parse::<Input>("t", json!({"path": "a"})).is_ok());
    }
}
