//! What a hook is told: the JSON on its standard input, in Claude Code's field names.

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use weft_types::HookEvent;

/// Why a session starts (`SessionStart`'s `source`, what its matcher matches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartSource {
    /// A new session.
    Startup,
    /// `--continue`, `--resume`.
    Resume,
    /// After `/clear`.
    Clear,
    /// After the conversation was compacted.
    Compact,
}

impl StartSource {
    /// Claude Code's word.
    pub fn as_str(self) -> &'static str {
        match self {
            StartSource::Startup => "startup",
            StartSource::Resume => "resume",
            StartSource::Clear => "clear",
            StartSource::Compact => "compact",
        }
    }
}

/// Why a session ends (`SessionEnd`'s `reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// `/clear`.
    Clear,
    /// `/exit`, Ctrl-D.
    PromptInputExit,
    /// A one-shot run finished, or anything else.
    Other,
}

impl EndReason {
    /// Claude Code's word.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Clear => "clear",
            EndReason::PromptInputExit => "prompt_input_exit",
            EndReason::Other => "other",
        }
    }
}

/// What an event carries besides the common fields.
#[derive(Debug, Clone, PartialEq)]
pub enum EventData {
    /// PreToolUse and PostToolUse.
    Tool {
        /// weft's (canonical) tool name; the hook sees Claude Code's.
        tool: String,
        /// weft's input; the hook sees Claude Code's spelling.
        input: Value,
        /// The call's id.
        tool_use_id: String,
        /// PostToolUse: what the tool returned.
        response: Option<Value>,
    },
    /// UserPromptSubmit.
    Prompt {
        /// The person's message.
        prompt: String,
    },
    /// Notification.
    Notification {
        /// `permission_prompt`, `idle_prompt`.
        kind: String,
        /// What weft would tell the person.
        message: String,
    },
    /// Stop and SubagentStop.
    Stop {
        /// A Stop hook already made this turn go on.
        stop_hook_active: bool,
        /// The model's last message.
        last_assistant_message: String,
        /// SubagentStop: the subagent's id and agent.
        subagent: Option<(String, String)>,
    },
    /// PreCompact.
    Compact {
        /// `manual` or `auto`.
        trigger: String,
        /// What the person asked the summary to keep (empty for `auto`).
        custom_instructions: String,
    },
    /// SessionStart.
    Start(StartSource),
    /// SessionEnd.
    End(EndReason),
}

/// One event, as the hooks of its event get it.
#[derive(Debug, Clone, PartialEq)]
pub struct HookInput {
    /// The event.
    pub event: HookEvent,
    /// The session.
    pub session_id: String,
    /// Its transcript, when one is kept.
    pub transcript_path: Option<PathBuf>,
    /// The directory the session works in (where hooks run).
    pub cwd: PathBuf,
    /// The permission mode, in Claude Code's words (`default`, `acceptEdits`...).
    pub permission_mode: Option<String>,
    /// The event's own fields.
    pub data: EventData,
}

impl HookInput {
    /// What the event's matchers match: the tool (Claude Code's name), the start source, the
    /// end reason, the notification type, the subagent's agent, the compaction trigger; `None`
    /// for the events that match everything (UserPromptSubmit, Stop).
    pub fn subject(&self) -> Option<String> {
        match &self.data {
            EventData::Tool { tool, .. } => Some(crate::names::claude_tool_name(tool)),
            EventData::Start(source) => Some(source.as_str().to_owned()),
            EventData::End(reason) => Some(reason.as_str().to_owned()),
            EventData::Notification { kind, .. } => Some(kind.clone()),
            EventData::Stop { subagent, .. } => subagent.as_ref().map(|(_, agent)| agent.clone()),
            EventData::Compact { trigger, .. } => Some(trigger.clone()),
            EventData::Prompt { .. } => None,
        }
    }

    /// weft's own name for the subject, when it differs (`exec_shell` for `Bash`): a
    /// matcher may name either.
    pub(crate) fn weft_subject(&self) -> Option<&str> {
        match &self.data {
            EventData::Tool { tool, .. } => Some(tool),
            _ => None,
        }
    }

    /// The JSON the hook reads on its standard input.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("session_id".into(), json!(self.session_id));
        map.insert(
            "transcript_path".into(),
            json!(
                self.transcript_path
                    .as_ref()
                    .map(|p| p.display().to_string())
            ),
        );
        map.insert("cwd".into(), json!(self.cwd.display().to_string()));
        map.insert("hook_event_name".into(), json!(self.event.as_str()));
        if let Some(mode) = &self.permission_mode {
            map.insert("permission_mode".into(), json!(mode));
        }
        match &self.data {
            EventData::Tool {
                tool,
                input,
                tool_use_id,
                response,
            } => {
                map.insert(
                    "tool_name".into(),
                    json!(crate::names::claude_tool_name(tool)),
                );
                map.insert(
                    "tool_input".into(),
                    crate::names::claude_tool_input(tool, input),
                );
                map.insert("tool_use_id".into(), json!(tool_use_id));
                if let Some(response) = response {
                    map.insert("tool_response".into(), response.clone());
                }
            }
            EventData::Prompt { prompt } => {
                map.insert("prompt".into(), json!(prompt));
            }
            EventData::Notification { kind, message } => {
                map.insert("message".into(), json!(message));
                map.insert("title".into(), json!("weft"));
                map.insert("notification_type".into(), json!(kind));
            }
            EventData::Stop {
                stop_hook_active,
                last_assistant_message,
                subagent,
            } => {
                map.insert("stop_hook_active".into(), json!(stop_hook_active));
                map.insert(
                    "last_assistant_message".into(),
                    json!(last_assistant_message),
                );
                if let Some((id, agent)) = subagent {
                    map.insert("agent_id".into(), json!(id));
                    map.insert("agent_type".into(), json!(agent));
                }
            }
            EventData::Compact {
                trigger,
                custom_instructions,
            } => {
                map.insert("trigger".into(), json!(trigger));
                map.insert("custom_instructions".into(), json!(custom_instructions));
            }
            EventData::Start(source) => {
                map.insert("source".into(), json!(source.as_str()));
            }
            EventData::End(reason) => {
                map.insert("reason".into(), json!(reason.as_str()));
            }
        }
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_call_is_described_in_claude_codes_terms() {
        let input = HookInput {
            event: HookEvent::PostToolUse,
            session_id: "s-1".into(),
            transcript_path: None,
            cwd: PathBuf::from("/p"),
            permission_mode: Some("default".into()),
            data: EventData::Tool {
                tool: "write_file".into(),
                input: json!({"path": "a.txt", "content": "x"}),
                tool_use_id: "c1".into(),
                response: Some(json!({"filePath": "a.txt", "success": true})),
            },
        };
        assert_eq!(input.subject().as_deref(), Some("Write"));
        assert_eq!(
            input.to_json(),
            json!({
                "session_id": "s-1", "transcript_path": null, "cwd": "/p",
                "hook_event_name": "PostToolUse", "permission_mode": "default",
                "tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "x"},
                "tool_use_id": "c1", "tool_response": {"filePath": "a.txt", "success": true},
            })
        );
    }
}
