//! Executing one tool call: the gate first (on the path as spelled and as it resolves), then
//! the permission mode and approval (`approval.rs`), then the tool. A refused or failed call
//! becomes an error result the model reads; it never ends the turn.

use std::sync::Arc;

use weft_llm::{Message, ToolCall};
use weft_permissions::{CallKind, Decision, canonical_tool_name};
use weft_tools::Tool;
use weft_types::{PermissionMode, tool_names};

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
        let real = self.real_path(name, &call.arguments);
        let decision =
            self.gate
                .check_resolved(gate_name, &call.arguments, real.as_ref().map(|r| &r.input));
        if let Decision::Denied { reason } = &decision {
            tracing::info!(tool = %call.name, %reason, "tool call denied");
            let reason = reason.strip_prefix("denied: ").unwrap_or(reason);
            return reply(
                format!("permission denied: {reason}. The tool did not run."),
                true,
            );
        }
        let session_tool = !self.tools.contains(name) && (spawn_tool || name == USE_SKILL);
        let tool = self.tool_for(name);
        if tool.is_none() && !session_tool {
            return reply(self.unknown_tool(&call.name), true);
        }
        let read_only_hint = tool.as_ref().is_some_and(|t| t.read_only_hint());
        let kind = CallKind::of(name, read_only_hint, || self.inside_project(real.as_ref()));
        if let Err(text) = self
            .authorize(call, name, kind, &decision, real.as_ref())
            .await
        {
            return reply(text, true);
        }
        if name == USE_SKILL && session_tool {
            return match self.use_skill(&call.arguments).await {
                Ok(text) => reply(text, false),
                Err(e) => reply(e.to_string(), true),
            };
        }
        if spawn_tool {
            return match self.run_spawn_tool(name, &call.arguments).await {
                Ok(text) => reply(text, false),
                Err(text) => reply(text, true),
            };
        }
        let Some(tool) = tool else {
            return reply(format!("unknown tool `{}`", call.name), true);
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

    /// The error text for a call of a tool that does not exist.
    fn unknown_tool(&self, called: &str) -> String {
        let available: Vec<String> = self.offered_tools().into_iter().map(|t| t.name).collect();
        format!(
            "unknown tool `{called}`; available tools: {}",
            if available.is_empty() {
                "none".to_owned()
            } else {
                available.join(", ")
            }
        )
    }

    /// A spawn tool, unless this session cannot spawn; `Err` is an error result's text.
    async fn run_spawn_tool(
        &mut self,
        name: &str,
        input: &serde_json::Value,
    ) -> Result<String, String> {
        if !self.can_spawn() {
            let blocked = SubagentError::SpawnBlocked {
                id: self.id().to_owned(),
                reason: "subagents cannot spawn subagents at this depth (max_spawn_depth)"
                    .to_owned(),
            };
            return Err(blocked.to_string());
        }
        self.spawn_tool(name, input)
            .await
            .map_err(|e| e.to_string())
    }

    /// The tool that runs a call of `name`: the registry's, except `exec_shell` in `auto` mode
    /// when the session keeps a sandboxed one (its tools were built for `bypass`).
    pub(super) fn tool_for(&self, name: &str) -> Option<Arc<dyn Tool>> {
        if name == tool_names::EXEC_SHELL
            && self.permission_mode() == PermissionMode::Auto
            && let Some(sandboxed) = &self.options.permissions.sandboxed_shell
        {
            return Some(Arc::clone(sandboxed));
        }
        self.tools.get(name).cloned()
    }
}
