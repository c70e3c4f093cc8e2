//! weft's tools as Claude Code's hooks know them: `exec_shell` is `Bash` with a
//! `command`, `read_file` is `Read` with a `file_path`, `github__get_issue` is
//! `mcp__github__get_issue`. A hook written for Claude Code reads `tool_name` and
//! `tool_input` in these terms, and an `updatedInput` it returns is turned back into weft's.

use serde_json::{Map, Value};
use weft_types::tool_names::{self, BUILTIN_TOOLS, MCP_PREFIX, MCP_SEPARATOR, aliases_of};

/// How a field's value changes between the two spellings.
#[derive(Clone, Copy)]
enum Conversion {
    /// The same value.
    Same,
    /// weft counts seconds, Claude Code milliseconds.
    SecondsToMillis,
}

/// `(weft's field, Claude Code's field, conversion)` for each built-in whose input Claude
/// Code spells differently; fields not listed keep their names.
fn fields_of(tool: &str) -> &'static [(&'static str, &'static str, Conversion)] {
    use Conversion::{Same, SecondsToMillis};
    match tool {
        tool_names::READ_FILE | tool_names::WRITE_FILE | tool_names::EDIT_FILE => {
            &[("path", "file_path", Same)]
        }
        tool_names::EXEC_SHELL => &[("timeout_secs", "timeout", SecondsToMillis)],
        tool_names::GREP => &[
            ("case_insensitive", "-i", Same),
            ("max_results", "head_limit", Same),
        ],
        tool_names::SESSIONS_SPAWN => &[
            ("task", "prompt", Same),
            ("agent", "subagent_type", Same),
            ("label", "description", Same),
        ],
        _ => &[],
    }
}

/// The name Claude Code gives the tool weft calls `tool` (canonical): its alias for a
/// built-in (`Bash`, `Read`, `Task`), `mcp__<server>__<tool>` for an MCP tool, else weft's
/// own name (`memory_read`).
///
/// ```
/// use weft_hooks::claude_tool_name;
///
/// assert_eq!(claude_tool_name("exec_shell"), "Bash");
/// assert_eq!(claude_tool_name("edit_file"), "Edit");
/// assert_eq!(claude_tool_name("sessions_spawn"), "Task");
/// assert_eq!(claude_tool_name("github__get_issue"), "mcp__github__get_issue");
/// assert_eq!(claude_tool_name("memory_read"), "memory_read");
/// ```
pub fn claude_tool_name(tool: &str) -> String {
    if let Some(alias) = aliases_of(tool).first() {
        return (*alias).to_owned();
    }
    if !BUILTIN_TOOLS.contains(&tool)
        && !tool.starts_with(MCP_PREFIX)
        && tool.contains(MCP_SEPARATOR)
    {
        return format!("{MCP_PREFIX}{tool}");
    }
    tool.to_owned()
}

/// A call's input as Claude Code spells it for `tool` (canonical).
///
/// ```
/// use serde_json::json;
/// use weft_hooks::claude_tool_input;
///
/// assert_eq!(
///     claude_tool_input("exec_shell", &json!({"command": "ls", "timeout_secs": 5})),
///     json!({"command": "ls", "timeout": 5000}),
/// );
/// assert_eq!(claude_tool_input("read_file", &json!({"path": "a"})), json!({"file_path": "a"}));
/// ```
pub fn claude_tool_input(tool: &str, input: &Value) -> Value {
    convert(input, fields_of(tool), true)
}

/// An input a hook wrote in Claude Code's spelling (`updatedInput`) as weft's tool takes it;
/// fields weft spells the same way, or already in weft's spelling, are kept.
///
/// ```
/// use serde_json::json;
/// use weft_hooks::weft_tool_input;
///
/// assert_eq!(
///     weft_tool_input("exec_shell", &json!({"command": "ls", "timeout": 2500})),
///     json!({"command": "ls", "timeout_secs": 3}),
/// );
/// assert_eq!(weft_tool_input("write_file", &json!({"file_path": "a", "content": ""})), json!({"path": "a", "content": ""}));
/// ```
pub fn weft_tool_input(tool: &str, input: &Value) -> Value {
    convert(input, fields_of(tool), false)
}

fn convert(input: &Value, table: &[(&str, &str, Conversion)], to_claude: bool) -> Value {
    let Value::Object(map) = input else {
        return input.clone();
    };
    let mut out = Map::with_capacity(map.len());
    for (key, value) in map {
        let row = table.iter().find(|(weft, claude, _)| {
            if to_claude {
                weft == key
            } else {
                claude == key
            }
        });
        match row {
            Some(&(weft, claude, conversion)) => {
                let (name, value) = if to_claude {
                    (claude, to_claude_value(value, conversion))
                } else {
                    (weft, to_weft_value(value, conversion))
                };
                out.insert(name.to_owned(), value);
            }
            None => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}

fn to_claude_value(value: &Value, conversion: Conversion) -> Value {
    match (conversion, value.as_u64()) {
        (Conversion::SecondsToMillis, Some(secs)) => Value::from(secs.saturating_mul(1000)),
        _ => value.clone(),
    }
}

fn to_weft_value(value: &Value, conversion: Conversion) -> Value {
    match (conversion, value.as_u64()) {
        (Conversion::SecondsToMillis, Some(ms)) => Value::from(ms.div_ceil(1000).max(1)),
        _ => value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inputs_round_trip_between_the_two_spellings() {
        let cases = [
            (
                "edit_file",
                json!({"path": "src/a.rs", "old_string": "a", "new_string": "b", "replace_all": true}),
            ),
            (
                "grep",
                json!({"pattern": "x", "case_insensitive": true, "max_results": 3, "glob": "*.rs"}),
            ),
            (
                "sessions_spawn",
                json!({"task": "look", "agent": "explore", "label": "l"}),
            ),
            ("github__x", json!({"a": 1})),
        ];
        for (tool, input) in cases {
            let claude = claude_tool_input(tool, &input);
            assert_eq!(weft_tool_input(tool, &claude), input, "{tool}: {claude}");
        }
        assert_eq!(
            claude_tool_input("sessions_spawn", &json!({"task": "t", "agent": "a"})),
            json!({"prompt": "t", "subagent_type": "a"})
        );
        // A hook answering in weft's own spelling is taken as it is.
        assert_eq!(
            weft_tool_input("read_file", &json!({"path": "x"})),
            json!({"path": "x"})
        );
        assert_eq!(
            weft_tool_input("read_file", &json!("not an object")),
            json!("not an object")
        );
    }

    #[test]
    fn every_builtin_has_a_name() {
        for tool in BUILTIN_TOOLS {
            assert!(!claude_tool_name(tool).is_empty());
        }
        assert_eq!(claude_tool_name("mcp__gh__x"), "mcp__gh__x");
        assert_eq!(claude_tool_name("list_directory"), "LS");
    }
}
