//! Tool activity in a few lines: a call (`→ read_file {"path":"src/main.rs"}`), a short
//! preview of its result (`← 2 lines: fn main() { …`), and a resumed session's last turns
//! shown with them. The printer, `/expand` and the recap of a resumed session all shorten
//! the same way.

use std::fmt::Write as _;

use weft_llm::{Message, Role, ToolCall};
use weft_term::cut;

/// How many lines of a result the preview shows.
const PREVIEW_LINES: usize = 2;
/// How long each of them may be.
const PREVIEW_WIDTH: usize = 100;

/// The line of a call: its tool and its arguments, cut to one line.
///
/// ```
/// use serde_json::json;
/// use weft_llm::ToolCall;
///
/// let call = ToolCall { id: "1".into(), name: "read_file".into(), arguments: json!({"path": "a.rs"}) };
/// assert_eq!(weft_repl::call_line(&call), r#"→ read_file {"path":"a.rs"}"#);
/// ```
pub fn call_line(call: &ToolCall) -> String {
    format!("→ {} {}", call.name, cut(&call.arguments.to_string(), 100))
}

/// A result in at most two short lines, with how much more there is.
///
/// ```
/// let text = "alpha\nbeta\ngamma\n";
/// assert_eq!(weft_repl::result_preview(text), "← alpha\n  beta\n  (1 more line)");
/// assert_eq!(weft_repl::result_preview(""), "← (empty)");
/// ```
pub fn result_preview(content: &str) -> String {
    let lines: Vec<&str> = content
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return "← (empty)".to_owned();
    }
    let mut out = String::new();
    for (i, line) in lines.iter().take(PREVIEW_LINES).enumerate() {
        let lead = if i == 0 { "← " } else { "\n  " };
        let _ = write!(out, "{lead}{}", cut(line, PREVIEW_WIDTH));
    }
    let more = lines.len().saturating_sub(PREVIEW_LINES);
    if more > 0 {
        let _ = write!(
            out,
            "\n  ({more} more line{})",
            if more == 1 { "" } else { "s" }
        );
    }
    out
}

/// [`result_preview`] of what `tool` returned: for a command that exited 0 and wrote only
/// to stdout, its output (the report's header says nothing a person needs).
pub fn tool_result_preview(tool: &str, content: &str) -> String {
    if tool == weft_types::tool_names::EXEC_SHELL
        && let Some(stdout) = weft_tools::plain_stdout(content)
    {
        if stdout.trim().is_empty() {
            return "← (no output)".to_owned();
        }
        return result_preview(stdout);
    }
    result_preview(content)
}

/// The last `turns` turns of `messages` for a person (a turn: a user message and what
/// followed it), headed by how many there are; empty without any. Long messages are cut:
/// this is a reminder of the context, `weft sessions show` prints it whole.
pub fn recap(messages: &[Message], turns: usize) -> String {
    let starts: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::User)
        .map(|(i, _)| i)
        .collect();
    let Some(&first) = starts.get(starts.len().saturating_sub(turns.max(1))) else {
        return String::new();
    };
    let shown = starts.len().min(turns);
    let mut out = format!(
        "── the conversation so far: the last {shown} of {} turn{} ──\n",
        starts.len(),
        if starts.len() == 1 { "" } else { "s" }
    );
    for message in &messages[first..] {
        match message.role {
            Role::User => {
                let _ = writeln!(out, "\n> {}", cut(&message.content, 300));
            }
            Role::Assistant => {
                for call in &message.tool_calls {
                    let _ = writeln!(out, "  {}", call_line(call));
                }
                if !message.content.trim().is_empty() {
                    let _ = writeln!(out, "{}", excerpt(&message.content, 12));
                }
            }
            Role::Tool => {
                let tool = messages
                    .iter()
                    .flat_map(|m| &m.tool_calls)
                    .find(|c| Some(c.id.as_str()) == message.tool_call_id.as_deref())
                    .map_or("", |c| c.name.as_str());
                let preview = tool_result_preview(tool, &message.content);
                let _ = writeln!(out, "  {}", indent(&preview));
            }
        }
    }
    out.push_str("── end of the earlier conversation ──\n");
    out
}

/// The first `max` lines of `text` (each cut), and how many more there are.
fn excerpt(text: &str, max: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let mut out: Vec<String> = lines.iter().take(max).map(|l| cut(l, 200)).collect();
    if lines.len() > max {
        out.push(format!("({} more lines)", lines.len() - max));
    }
    out.join("\n")
}

/// `text` with its continuation lines indented under the first.
fn indent(text: &str) -> String {
    text.replace('\n', "\n  ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recap_shows_the_last_turns_with_their_tool_calls() {
        let call = Message::assistant(
            "",
            vec![ToolCall {
                id: "c1".into(),
                name: "list_directory".into(),
                arguments: json!({}),
            }],
        );
        let messages = vec![
            Message::user("first question"),
            Message::assistant("first answer", Vec::new()),
            Message::user("list the files"),
            call,
            Message::tool_result("c1", "src/\nCargo.toml\nREADME.md\n", false),
            Message::assistant("Three entries.", Vec::new()),
        ];
        let text = recap(&messages, 1);
        assert_eq!(
            text,
            "── the conversation so far: the last 1 of 2 turns ──\n\n> list the files\n  → list_directory {}\n  ← src/\n    Cargo.toml\n    (1 more line)\nThree entries.\n── end of the earlier conversation ──\n"
        );
        assert!(recap(&[], 3).is_empty());
    }
}
