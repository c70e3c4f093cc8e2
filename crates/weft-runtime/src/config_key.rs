//! An unknown configuration key, explained: which file and line wrote it, its full key path,
//! and the closest key weft knows (serde names the expected keys but not the nearest one, and
//! it checks the merged files, so it cannot say which file the key came from).

use std::path::PathBuf;

use serde_json::Value;
use weft_types::suggest::{closest_names, did_you_mean};

use crate::error::ConfigError;

/// Objects whose keys are names the user chooses (providers, aliases, servers, variables):
/// a key directly inside one is never an unknown field.
const NAMED_MAPS: [&str; 4] = ["providers", "aliases", "mcp_servers", "env"];

/// The error for merged files that do not fit the schema. `layers` are the files read, in
/// merge order: each path, its text and its JSON.
pub(crate) fn schema_error(
    layers: &[(PathBuf, String, Value)],
    source: serde_json::Error,
) -> ConfigError {
    let message = source.to_string();
    let files = layers.iter().map(|(p, _, _)| p.clone()).collect();
    let Some((key, expected)) = unknown_field(&message) else {
        return ConfigError::Schema {
            files,
            source,
            hint: String::new(),
        };
    };
    let hint = did_you_mean(&closest_names(key, expected.iter().copied()));
    // The last file that writes the key is the one whose value the merge kept.
    let found = layers.iter().rev().find_map(|(path, text, value)| {
        key_path(value, key, &mut Vec::new()).map(|dotted| (path, line_of_key(text, key), dotted))
    });
    match found {
        Some((path, line, key_path)) => ConfigError::UnknownKey {
            path: path.clone(),
            line,
            key: key_path,
            source,
            hint,
        },
        None => ConfigError::Schema {
            files,
            source,
            hint,
        },
    }
}

/// `("modle", ["model", "providers", ...])` from serde's "unknown field `modle`, expected
/// one of `model`, `providers`, ..." (or "expected `a` or `b`").
fn unknown_field(message: &str) -> Option<(&str, Vec<&str>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (key, rest) = rest.split_once('`')?;
    let expected = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| !name.is_empty())
        .collect();
    Some((key, expected))
}

/// The dotted path of the first object key `key` in `value` that is a field (not a name in
/// one of [`NAMED_MAPS`]).
fn key_path(value: &Value, key: &str, parents: &mut Vec<String>) -> Option<String> {
    let object = value.as_object()?;
    let in_named_map = parents
        .last()
        .is_some_and(|p| NAMED_MAPS.contains(&p.as_str()));
    if !in_named_map && object.contains_key(key) {
        let mut path = parents.clone();
        path.push(key.to_owned());
        return Some(path.join("."));
    }
    for (name, child) in object {
        parents.push(name.clone());
        let found = key_path(child, key, parents);
        parents.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The 1-based line where `"key"` is first written as a key (followed by `:`).
fn line_of_key(text: &str, key: &str) -> Option<usize> {
    let quoted = serde_json::to_string(key).ok()?;
    let mut from = 0;
    while let Some(at) = text[from..].find(&quoted) {
        let start = from + at;
        let after = &text[start + quoted.len()..];
        if after.trim_start().starts_with(':') {
            return Some(text[..start].matches('\n').count() + 1);
        }
        from = start + quoted.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_give_the_key_and_the_expected_ones() {
        let (key, expected) =
            unknown_field("unknown field `modle`, expected one of `model`, `providers`").unwrap();
        assert_eq!(key, "modle");
        assert_eq!(expected, ["model", "providers"]);
        let (_, expected) = unknown_field("unknown field `x`, expected `a` or `b`").unwrap();
        assert_eq!(expected, ["a", "b"]);
        assert!(unknown_field("invalid type: string, expected u32").is_none());
    }

    #[test]
    fn the_key_is_found_outside_named_maps_with_its_line() {
        let text =
            "{\n  \"mcp_servers\": {\n    \"argz\": {\"command\": \"a\", \"argz\": []}\n  }\n}";
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            key_path(&value, "argz", &mut Vec::new()).as_deref(),
            Some("mcp_servers.argz.argz")
        );
        assert_eq!(line_of_key(text, "argz"), Some(3));
        assert_eq!(line_of_key("{\"a\": \"argz\"}", "argz"), None);
    }
}
