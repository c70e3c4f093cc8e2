//! Executing one tool call: the gate first, then the tool. A refused or failed call becomes
//! an error result the model reads; it never ends the turn.

use weft_llm::{Message, ToolCall};
use weft_permissions::{Decision, canonical_tool_name};

use super::Session;
use super::skill::USE_SKILL;
use super::spawn::{
    SESSIONS_CANCEL, SESSIONS_LIST, SESSIONS_RESULT, SESSIONS_SPAWN, SubagentError,
};

/// The tools whose `path` reveals conditional skills (`paths:`) once they succeed.
const FILE_TOOLS: [&str; 3] = [
    weft_types::tool_names::READ_FILE,
    weft_types::tool_names::WRITE_FILE,
    weft_types::tool_names::EDIT_FILE,
];

/// The session-level subagent tools.
const SPAWN_TOOLS: [&str; 4] = [
    SESSIONS_SPAWN,
    SESSIONS_RESULT,
    SESSIONS_LIST,
    SESSIONS_CANCEL,
];

impl Session {
    /// Runs `call` and returns the tool message answering it.
    pub(super) async fn dispatch(&mut self, call: &ToolCall) -> Message {
        let reply =
            |content: String, is_error: bool| Message::tool_result(&call.id, content, is_error);
        if !call.arguments.is_object() {
            return reply(
                format!(
                    "tool `{}` was not run: its arguments must be a JSON object, got {}",
                    call.name, call.arguments
                ),
                true,
            );
        }
        // A model trained on Claude Code may say `Read` or `Bash`: the gate already treats
        // those as `read_file` / `exec_shell`, so the lookup does too.
        let name = if self.tools.contains(&call.name) {
            call.name.as_str()
        } else {
            canonical_tool_name(&call.name)
        };
        let spawn_tool = !self.tools.contains(name) && SPAWN_TOOLS.contains(&name);
        // The companions of sessions_spawn (result, list, cancel) are allowed exactly when it is.
        let gate_name = if spawn_tool {
            SESSIONS_SPAWN
        } else {
            call.name.as_str()
        };
        match self.gate.check(gate_name, &call.arguments) {
            Decision::Allowed => {}
            Decision::Denied { reason } => {
                tracing::info!(tool = %call.name, %reason, "tool call denied");
                let reason = reason.strip_prefix("denied: ").unwrap_or(&reason);
                return reply(
                    format!("permission denied: {reason}. The tool did not run."),
                    true,
                );
            }
            // No one can be asked yet (approval prompts come with permission modes): refuse,
            // and say what would make the call acceptable.
            Decision::Ask { reason } => {
                tracing::info!(tool = %call.name, %reason, "tool call needs approval");
                let reason = reason.strip_prefix("ask: ").unwrap_or(&reason);
                return reply(
                    format!(
                        "approval needed: {reason}. The tool did not run: this session cannot ask for approval, so run a simpler command (no options that run other programs, no writes outside the project) or ask the user to run it."
                    ),
                    true,
                );
            }
        }
        if name == USE_SKILL && !self.tools.contains(USE_SKILL) {
            return match self.use_skill(&call.arguments).await {
                Ok(text) => reply(text, false),
                Err(e) => reply(e.to_string(), true),
            };
        }
        if spawn_tool {
            if !self.can_spawn() {
                let blocked = SubagentError::SpawnBlocked {
                    id: self.id().to_owned(),
                    reason: "subagents cannot spawn subagents at this depth (max_spawn_depth)"
                        .to_owned(),
                };
                return reply(blocked.to_string(), true);
            }
            let name = name.to_owned();
            return match self.spawn_tool(&name, &call.arguments).await {
                Ok(text) => reply(text, false),
                Err(e) => reply(e.to_string(), true),
            };
        }
        let Some(tool) = self.tools.get(name).cloned() else {
            let available: Vec<String> = self.offered_tools().into_iter().map(|t| t.name).collect();
            return reply(
                format!(
                    "unknown tool `{}`; available tools: {}",
                    call.name,
                    if available.is_empty() {
                        "none".to_owned()
                    } else {
                        available.join(", ")
                    }
                ),
                true,
            );
        };
        tracing::debug!(tool = %call.name, "tool call");
        match tool.call(call.arguments.clone()).await {
            Ok(output) => {
                if FILE_TOOLS.contains(&name)
                    && let Some(path) = call.arguments.get("path").and_then(|p| p.as_str())
                {
                    self.reveal_conditional_skills(path);
                }
                reply(output.content, false)
            }
            Err(e) => reply(format!("tool `{}` failed: {e}", call.name), true),
        }
    }
}
