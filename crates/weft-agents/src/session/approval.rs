//! Whether a call the gate let through runs now: the permission mode, pre-approval and
//! remembered answers decide ([`weft_permissions::decide`]); where a person must decide, the
//! session's [`Approver`] asks, and without one the call is refused with what would allow it.

use std::sync::Arc;

use serde_json::Value;
use weft_llm::ToolCall;
use weft_permissions::{Approval, CallKind, Decision, Step, canonical_tool_name, decide};
use weft_types::{PermissionMode, tool_names};

use super::Session;
use super::permissions::{ApprovalAnswer, ApprovalRequest, Approver, RefusedCall};
use super::real_path::RealPath;
use crate::transcript::{TranscriptRecord, now_millis};

/// The rule named when a remembered answer approves a call.
const REMEMBERED: &str = "your answer earlier in this session";

impl Session {
    /// The permission mode in effect: the session's, narrowed by the agent's `permissionMode`.
    pub fn permission_mode(&self) -> PermissionMode {
        self.view.mode
    }

    /// The session's permission settings (the mode before the agent narrows it, the
    /// pre-approval patterns).
    pub fn permissions(&self) -> &super::Permissions {
        &self.options.permissions
    }

    /// True when someone can be asked to approve a call (else such calls are refused).
    pub fn can_ask(&self) -> bool {
        self.options.permissions.approver.is_some()
    }

    /// Who is asked when a call needs approval (`None`: no one; such calls are refused).
    pub fn set_approver(&mut self, approver: Option<Arc<dyn Approver>>) {
        self.options.permissions.approver = approver;
    }

    /// Calls refused because they needed approval and no one could be asked, in this session
    /// and its subagents, oldest first.
    pub fn refused_calls(&self) -> Vec<RefusedCall> {
        self.options.permissions.state.refused().clone()
    }

    /// What "allow always" answers allow for the rest of the session, one line each.
    pub fn remembered_approvals(&self) -> Vec<String> {
        let remembered = self.options.permissions.state.remembered();
        let mut out: Vec<String> = Vec::new();
        if remembered.edits_inside {
            out.push("edits inside the project".to_owned());
        }
        out.extend(remembered.tools.iter().map(|t| format!("every `{t}` call")));
        out.extend(
            remembered
                .commands
                .iter()
                .map(|c| format!("the command `{c}`")),
        );
        out.extend(
            remembered
                .edit_paths
                .iter()
                .map(|p| format!("edits of {}", p.display())),
        );
        out
    }

    /// Decides whether `call` (tool `name`, judged `decision` by the gate) runs now; `Err`
    /// holds the text of the error result the model reads instead.
    pub(super) async fn authorize(
        &mut self,
        call: &ToolCall,
        name: &str,
        kind: CallKind,
        decision: &Decision,
        real: Option<&RealPath>,
    ) -> Result<(), String> {
        match self.step(call, name, kind, decision, real) {
            Step::Run => Ok(()),
            Step::Refuse { reason } => {
                tracing::info!(tool = %call.name, %reason, "tool call refused");
                Err(format!(
                    "permission denied: {reason}. The tool did not run."
                ))
            }
            Step::Ask { reason } => self.ask_person(call, name, kind, reason, real).await,
        }
    }

    /// What the permission mode, pre-approval and remembered answers make of `call`, before
    /// anyone is asked: run, ask a person, refuse (also what `--dry-run` reports).
    pub(super) fn step(
        &self,
        call: &ToolCall,
        name: &str,
        kind: CallKind,
        decision: &Decision,
        real: Option<&RealPath>,
    ) -> Step {
        // Pre-approval matters unless the gate denied the call or it is harmless and allowed.
        let settled = decision.is_denied() || (kind.is_harmless() && decision.is_allowed());
        let pre = if !settled {
            self.pre_approval(name, &call.arguments, kind, real)
        } else {
            Approval::NotPreApproved {
                reason: String::new(),
            }
        };
        decide(self.permission_mode(), name, kind, decision, &pre)
    }

    /// `permissions.allow`, then the answers remembered in this session.
    fn pre_approval(
        &self,
        name: &str,
        input: &Value,
        kind: CallKind,
        real: Option<&RealPath>,
    ) -> Approval {
        let patterns = self.options.permissions.pre_approval.check_resolved(
            name,
            input,
            real.map(|r| &r.input),
        );
        if patterns.is_pre_approved() {
            return patterns;
        }
        let remembered = self.options.permissions.state.remembered();
        let canonical = canonical_tool_name(name);
        let hit = remembered.tools.iter().any(|t| t == canonical)
            || (canonical == tool_names::EXEC_SHELL
                && command_of(input).is_some_and(|c| remembered.commands.iter().any(|r| *r == c)))
            || match kind {
                CallKind::Edit { inside_project } => {
                    (inside_project && remembered.edits_inside)
                        || real.is_some_and(|r| remembered.edit_paths.contains(&r.path))
                }
                _ => false,
            };
        if hit {
            Approval::PreApproved {
                rule: REMEMBERED.to_owned(),
            }
        } else {
            patterns
        }
    }

    /// Asks the session's approver, or refuses when there is none.
    async fn ask_person(
        &mut self,
        call: &ToolCall,
        name: &str,
        kind: CallKind,
        reason: String,
        real: Option<&RealPath>,
    ) -> Result<(), String> {
        let summary = summary(name, &call.arguments);
        let Some(approver) = self.options.permissions.approver.clone() else {
            return Err(self.refuse_unasked(call, name, kind, &reason, summary));
        };
        let request = ApprovalRequest {
            session_id: self.options.session_id.clone(),
            agent: self.view.agent.name.clone(),
            tool: call.name.clone(),
            input: call.arguments.clone(),
            summary,
            reason: reason.clone(),
            always: always_text(name, kind, &call.arguments, real),
        };
        let answer = approver.ask(&request).await;
        let label = match &answer {
            ApprovalAnswer::AllowOnce => "allowed once",
            ApprovalAnswer::AllowAlways => "allowed for the session",
            ApprovalAnswer::Deny { .. } => "denied",
        };
        if let Err(e) = self.record(TranscriptRecord::Approval {
            at: now_millis(),
            tool: call.name.clone(),
            answer: label.to_owned(),
            reason,
        }) {
            tracing::warn!(error = %e, "cannot record the approval");
        }
        match answer {
            ApprovalAnswer::AllowOnce => Ok(()),
            ApprovalAnswer::AllowAlways => {
                self.remember(name, kind, &call.arguments, real);
                Ok(())
            }
            ApprovalAnswer::Deny { message } => Err(match message {
                Some(m) if !m.trim().is_empty() => format!(
                    "the user denied this call and said: {}. The tool did not run.",
                    m.trim()
                ),
                _ => "the user denied this call. The tool did not run; do not retry it, ask the user what to do instead.".to_owned(),
            }),
        }
    }

    /// Records a call no one could approve and says how the user can allow it.
    fn refuse_unasked(
        &mut self,
        call: &ToolCall,
        name: &str,
        kind: CallKind,
        reason: &str,
        summary: String,
    ) -> String {
        tracing::info!(tool = %call.name, %reason, "tool call needs approval; no one to ask");
        let suggestions =
            weft_permissions::suggest_allow(name, &call.arguments, self.gate.shell_context());
        let mode = match kind {
            CallKind::Edit {
                inside_project: true,
            } => "accept-edits",
            _ => "auto",
        };
        let mut how = format!("the permission mode `{mode}` (`--permission-mode {mode}`)");
        if !suggestions.is_empty() {
            how.push_str(&format!(
                " or the `permissions.allow` pattern {}",
                suggestions
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        self.options.permissions.state.refused().push(RefusedCall {
            session_id: self.options.session_id.clone(),
            tool: call.name.clone(),
            summary,
            suggestions,
        });
        format!(
            "approval needed: {reason}. The tool did not run: no one can approve calls in this session (it is not interactive). Do not retry it; the user can allow such calls with {how}."
        )
    }

    /// Remembers an "allow always" answer.
    fn remember(&self, name: &str, kind: CallKind, input: &Value, real: Option<&RealPath>) {
        let mut remembered = self.options.permissions.state.remembered();
        let canonical = canonical_tool_name(name);
        match kind {
            CallKind::Edit {
                inside_project: true,
            } => remembered.edits_inside = true,
            CallKind::Edit { .. } => {
                if let Some(r) = real {
                    remembered.edit_paths.push(r.path.clone());
                }
            }
            _ if canonical == tool_names::EXEC_SHELL => {
                if let Some(c) = command_of(input) {
                    remembered.commands.push(c.to_owned());
                }
            }
            _ => remembered.tools.push(canonical.to_owned()),
        }
    }
}

/// The command of an `exec_shell` call.
fn command_of(input: &Value) -> Option<&str> {
    input.get("command").and_then(Value::as_str)
}

/// What the call does, on one line: the command, the path, the URL, else the input.
fn summary(name: &str, input: &Value) -> String {
    let field = ["command", "path", "file_path", "url"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str));
    let text = match field {
        Some(text) => text.to_owned(),
        None => input.to_string(),
    };
    format!("{name}: {text}")
}

/// What "allow always" would allow, in words.
fn always_text(name: &str, kind: CallKind, input: &Value, real: Option<&RealPath>) -> String {
    let canonical = canonical_tool_name(name);
    match kind {
        CallKind::Edit {
            inside_project: true,
        } => "every edit inside the project".to_owned(),
        CallKind::Edit { .. } => match real {
            Some(r) => format!("edits of {}", r.path.display()),
            None => "this edit only".to_owned(),
        },
        _ if canonical == tool_names::EXEC_SHELL => match command_of(input) {
            Some(c) => format!("exactly this command (`{c}`)"),
            None => "this call only".to_owned(),
        },
        _ => format!("every `{canonical}` call"),
    }
}
