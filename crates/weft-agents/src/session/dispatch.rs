//! Executing one tool call: the gate first (on the path as spelled and as it resolves), then
//! the PreToolUse hooks (`hooks.rs`; an input they rewrite goes through the gate again),
//! then the permission mode and approval (`approval.rs`), then the tool, then the
//! PostToolUse hooks. A refused or failed call becomes an error result the model reads; it
//! never ends the turn (a hook's `continue: false` does, after the call).

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use weft_llm::{Message, ToolCall};
use weft_permissions::{CallKind, Decision, FileRules, canonical_tool_name};
use weft_tools::{CallContext, FileFilter};
use weft_types::tool_names;

use super::Session;
use super::approval::Authorized;
use super::callee::Callee;
use super::hooks::{HookApproval, PreTool};
use super::spawn::SubagentError;
use super::subagent_error::SpawnToolError;

impl Session {
    /// Runs `call` and returns the tool message answering it (with the PreToolUse hooks'
    /// context after the result).
    pub(super) async fn dispatch(&mut self, call: &ToolCall) -> Message {
        let (content, is_error) = self.dispatch_call(call).await;
        let content = self.with_call_context(content);
        Message::tool_result(&call.id, content, is_error)
    }

    /// The gate, the PreToolUse hooks (an input they rewrite is gated again), approval, the
    /// tool, the PostToolUse hooks: the call's result and whether it is an error.
    async fn dispatch_call(&mut self, call: &ToolCall) -> (String, bool) {
        if !call.arguments.is_object() {
            return (
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
        let Some(callee) = self.callee(name) else {
            return (self.unknown_tool(&call.name), true);
        };
        let gate_name = match &callee {
            Callee::Session(tool) => tool.gate_name().unwrap_or(call.name.as_str()),
            Callee::Registered(_) => call.name.as_str(),
        };
        let mut current = Cow::Borrowed(call);
        let mut hook = HookApproval::None;
        let mut hooked = false;
        let (kind, decision, real) = loop {
            let call = current.as_ref();
            let real = self.real_path(name, &call.arguments);
            let decision = self.gate().check_resolved(
                gate_name,
                &call.arguments,
                real.as_ref().map(|r| &r.input),
            );
            if let Decision::Denied { reason } = &decision {
                tracing::info!(tool = %call.name, %reason, "tool call denied");
                let reason = reason.text();
                let rewritten = if hooked {
                    " (in the input a PreToolUse hook rewrote)"
                } else {
                    ""
                };
                return (
                    format!("permission denied: {reason}{rewritten}. The tool did not run."),
                    true,
                );
            }
            let kind = self.call_kind(
                name,
                callee.read_only_hint(),
                &call.arguments,
                real.as_ref(),
            );
            // What the tool would refuse anyway (a path outside its reach) is not put to anyone.
            if let Callee::Registered(tool) = &callee
                && let Err(e) = tool.check_reach(&call.arguments)
            {
                return (format!("tool `{}` failed: {e}", call.name), true);
            }
            if hooked {
                break (kind, decision, real);
            }
            hooked = true;
            match self.pre_tool_use(call, name).await {
                PreTool::Refuse(text) => return (text, true),
                PreTool::Run(approval) => {
                    hook = approval;
                    break (kind, decision, real);
                }
                PreTool::Rewrite(input, approval) => {
                    hook = approval;
                    let rewritten = ToolCall {
                        arguments: input,
                        ..call.clone()
                    };
                    current = Cow::Owned(rewritten);
                }
            }
        };
        let call = current.as_ref();
        let authorized = match self
            .authorize(call, name, kind, &decision, real.as_ref(), &hook)
            .await
        {
            Ok(authorized) => authorized,
            Err(refusal) => return (refusal.to_string(), true),
        };
        let (content, is_error) = self.run_tool(call, name, callee, authorized).await;
        if is_error {
            return (content, true);
        }
        (self.post_tool_use(call, name, content).await, false)
    }

    /// Runs an authorized call: a session tool, or a registered tool.
    async fn run_tool(
        &mut self,
        call: &ToolCall,
        name: &str,
        callee: Callee,
        authorized: Authorized,
    ) -> (String, bool) {
        let tool = match callee {
            Callee::Session(tool) => {
                return match tool.run(self, &call.arguments).await {
                    Ok(text) => (text, false),
                    Err(text) => (text, true),
                };
            }
            Callee::Registered(tool) => tool,
        };
        tracing::debug!(tool = %call.name, "tool call");
        let mut context = self.call_context(name);
        context.outside_sandbox = authorized.outside_sandbox;
        context.read_only = authorized.read_only;
        match tool.call_in(call.arguments.clone(), &context).await {
            Ok(output) => {
                let mut content = output.content;
                if tool_names::FILE_TOOLS.contains(&name)
                    && let Some(path) = call.arguments.get("path").and_then(|p| p.as_str())
                {
                    let revealed = self.reveal_conditional_skills(path);
                    content.push_str(&self.revealed_note(&revealed));
                }
                (content, false)
            }
            Err(e) => (format!("tool `{}` failed: {e}", call.name), true),
        }
    }

    /// What a call may do, as far as asking is concerned: an edit of a protected path and
    /// `create_skill` replacing a skill that exists are [`CallKind::Protected`]; a read-only
    /// command is a [`CallKind::ReadOnlyCommand`] where it can run in the read-only sandbox.
    fn call_kind(
        &self,
        name: &str,
        read_only_hint: bool,
        input: &serde_json::Value,
        real: Option<&super::real_path::RealPath>,
    ) -> CallKind {
        let kind = CallKind::of(name, read_only_hint, || self.inside_project(real));
        let protected = match kind {
            CallKind::Edit { .. } => self.protected_edit(input, real).is_some(),
            _ if name == tool_names::CREATE_SKILL => self.replaces_a_skill(input),
            _ => false,
        };
        if protected {
            CallKind::Protected
        } else {
            self.shell_kind(name, input, kind, self.gate())
        }
    }

    /// `kind`, or [`CallKind::ReadOnlyCommand`] for an `exec_shell` call whose command only
    /// reads inside the project, analysed with `gate`'s shell context (the shell that runs
    /// it), when `exec_shell` has its read-only sandbox here. Without one (no sandbox, or it
    /// is unavailable) a read-only command asks as any other: the judgement sees paths as
    /// written, and only that sandbox keeps a link in the project from reading elsewhere.
    pub(super) fn shell_kind(
        &self,
        name: &str,
        input: &serde_json::Value,
        kind: CallKind,
        gate: &weft_permissions::ToolGate,
    ) -> CallKind {
        let read_only_sandbox = canonical_tool_name(name) == tool_names::EXEC_SHELL
            && self
                .tools
                .get(tool_names::EXEC_SHELL)
                .is_some_and(|t| t.has_read_only_sandbox());
        if read_only_sandbox {
            kind.with_command(name, input, gate.shell_context())
        } else {
            kind
        }
    }

    /// A `create_skill` call with `replace: true` for a name some skill already has.
    fn replaces_a_skill(&self, input: &serde_json::Value) -> bool {
        let replace = input.get("replace").and_then(serde_json::Value::as_bool) == Some(true);
        let name = input.get("name").and_then(serde_json::Value::as_str);
        replace && name.is_some_and(|n| self.skills.snapshot().get(n).is_some())
    }

    /// What a tool is told about this call: a search tool gets the gate's path rules for
    /// the files it visits (compiled once per call), so it cannot show a file `read_file`
    /// would refuse.
    fn call_context(&self, name: &str) -> CallContext {
        if !tool_names::SEARCH_TOOLS.contains(&name) {
            return CallContext::default();
        }
        let rules = self.gate().file_rules(name);
        CallContext {
            files: (!rules.is_empty()).then(|| Arc::new(GateFiles(rules)) as Arc<dyn FileFilter>),
            ..CallContext::default()
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

    /// A spawn tool, unless this session cannot spawn; the error's text is the error result
    /// the model reads.
    pub(super) async fn run_spawn_tool(
        &mut self,
        name: &str,
        input: &serde_json::Value,
    ) -> Result<String, SpawnToolError> {
        if !self.can_spawn() {
            return Err(SubagentError::SpawnBlocked {
                id: self.id().to_owned(),
                reason: "subagents cannot spawn subagents at this depth (max_spawn_depth)"
                    .to_owned(),
            }
            .into());
        }
        self.spawn_tool(name, input).await
    }
}

/// The gate's path rules as a search tool's file filter; a path that is not UTF-8 cannot be
/// judged and is refused.
struct GateFiles(FileRules);

impl FileFilter for GateFiles {
    fn admits(&self, spelled: &Path, real: &Path) -> bool {
        match (spelled.to_str(), real.to_str()) {
            (Some(spelled), Some(real)) => self.0.admits(spelled, real),
            _ => false,
        }
    }
}
