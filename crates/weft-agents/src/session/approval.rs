//! Whether a call the gate let through runs now: the permission mode, pre-approval and
//! remembered answers decide ([`weft_permissions::decide`]); where a person must decide, the
//! session's [`Approver`] asks, and without one the call is refused with what would allow it.

use std::sync::Arc;

use serde_json::Value;
use weft_llm::ToolCall;
use weft_permissions::{
    Approval, CallKind, Decision, Origin, PreApproval, Step, decide, only_with_a_person,
};
use weft_tools::Sandboxing;
use weft_types::PermissionMode;
use weft_types::tool_names::EXEC_SHELL;

use super::Session;
use super::always::Always;
use super::hooks::HookApproval;
use super::permissions::{ApprovalAnswer, ApprovalRequest, Approver, RefusedCall};
use super::real_path::RealPath;
use super::refusal::{Advice, Refusal};
use super::view::pattern_context;
use crate::transcript::{TranscriptRecord, now_millis};

/// The rule named when a remembered answer approves a call.
const REMEMBERED: &str = "your answer earlier in this session";

/// How an authorised call runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Authorized {
    /// A person approved this exact call to run outside the sandbox (or approved it where the
    /// sandbox is unavailable): `exec_shell` starts it unsandboxed.
    pub(super) outside_sandbox: bool,
    /// It runs without asking because it only reads (a [`CallKind::ReadOnlyCommand`]):
    /// `exec_shell` starts it in the read-only sandbox.
    pub(super) read_only: bool,
}

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
        self.options.permissions.state.remembered().describe()
    }

    /// Decides whether `call` (tool `name`, judged `decision` by the gate, `hook` by its
    /// PreToolUse hooks) runs now, and how (in the sandbox unless a person chose otherwise);
    /// `Err` says why not (the model reads it as the call's error result).
    pub(super) async fn authorize(
        &mut self,
        call: &ToolCall,
        name: &str,
        kind: CallKind,
        decision: &Decision,
        real: Option<&RealPath>,
        hook: &HookApproval,
    ) -> Result<Authorized, Refusal> {
        let forced = self.forced_ask(call, name, decision, real, hook);
        match self.step(call, name, kind, decision, real, hook) {
            Step::Run if kind == CallKind::ReadOnlyCommand => {
                tracing::info!(tool = %call.name, "allowed (read-only): runs in the read-only sandbox");
                Ok(Authorized {
                    read_only: true,
                    ..Authorized::default()
                })
            }
            Step::Run => Ok(Authorized::default()),
            Step::Refuse { reason } => {
                tracing::info!(tool = %call.name, %reason, "tool call refused");
                Err(Refusal::Mode { reason })
            }
            Step::Ask { reason } => {
                let asked = Asked {
                    name,
                    kind,
                    reason,
                    real,
                    gate_asks: decision.is_ask() || forced.is_some(),
                };
                self.ask_person(call, asked).await
            }
        }
    }

    /// What the permission mode, pre-approval and remembered answers make of `call`, before
    /// anyone is asked: run, ask a person, refuse (also what `--dry-run` reports). An ask
    /// rule (`permissions.ask`) or a hook's `ask` makes the gate's `allowed` an `ask` that
    /// nothing pre-approves; a hook's `allow` pre-approves a call the gate allowed.
    pub(super) fn step(
        &self,
        call: &ToolCall,
        name: &str,
        kind: CallKind,
        decision: &Decision,
        real: Option<&RealPath>,
        hook: &HookApproval,
    ) -> Step {
        if let Some(reason) = self.forced_ask(call, name, decision, real, hook) {
            if self.permission_mode() == PermissionMode::Bypass {
                return Step::Refuse {
                    reason: format!("{reason}; it needs a person, and bypass mode does not ask"),
                };
            }
            let asked = Decision::ask(reason);
            let none = Approval::NotPreApproved {
                reason: String::new(),
            };
            return decide(self.permission_mode(), name, kind, &asked, &none);
        }
        // Pre-approval matters unless the gate denied the call or it is harmless and allowed.
        let pre = if let (HookApproval::Allow(rule), true) = (hook, decision.is_allowed()) {
            Approval::PreApproved { rule: rule.clone() }
        } else if !super::rules::settled(decision, kind) {
            self.pre_approval(name, &call.arguments, kind, real)
        } else {
            Approval::NotPreApproved {
                reason: String::new(),
            }
        };
        let step = decide(self.permission_mode(), name, kind, decision, &pre);
        match self.sandboxing(name) {
            // Nothing bounds a command that runs without a person: only a person may let it.
            Sandboxing::Unavailable(why) => only_with_a_person(self.permission_mode(), step, &why),
            _ => step,
        }
    }

    /// What bounds a call of `name` that no person approved: `exec_shell`'s sandbox.
    pub(super) fn sandboxing(&self, name: &str) -> Sandboxing {
        if name != EXEC_SHELL {
            return Sandboxing::None;
        }
        self.tools
            .get(EXEC_SHELL)
            .map(|t| t.sandboxing())
            .unwrap_or_default()
    }

    /// Why the call must be asked about whatever pre-approves it: a hook's `ask`, or an ask
    /// rule matching it; `None` for a call the gate denies (nothing asks about it).
    fn forced_ask(
        &self,
        call: &ToolCall,
        name: &str,
        decision: &Decision,
        real: Option<&RealPath>,
        hook: &HookApproval,
    ) -> Option<String> {
        if decision.is_denied() {
            return None;
        }
        match hook {
            HookApproval::Ask(reason) => Some(reason.clone()),
            _ => self.options.permissions.ask.check_resolved(
                name,
                &call.arguments,
                real.map(|r| &r.input),
            ),
        }
    }

    /// `permissions.allow`, then the trusted active skills' `allowed-tools`, then the answers
    /// remembered in this session.
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
        // The trusted skills active in this turn (their `allowed-tools`).
        if let Some(skill) = self
            .turn
            .pre_approvals
            .iter()
            .map(|pre| pre.check_resolved(name, input, real.map(|r| &r.input)))
            .find(Approval::is_pre_approved)
        {
            return skill;
        }
        let hit = self
            .options
            .permissions
            .state
            .remembered()
            .allows(name, kind, input, real);
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
        asked: Asked<'_>,
    ) -> Result<Authorized, Refusal> {
        let summary = summary(asked.name, &call.arguments);
        let Some(approver) = self.options.permissions.approver.clone() else {
            return Err(self.refuse_unasked(call, asked, summary));
        };
        let Asked {
            name,
            kind,
            reason,
            real,
            ..
        } = asked;
        let ctx = pattern_context(&self.options);
        let always = Always::for_call(
            name,
            kind,
            &call.arguments,
            real,
            &ctx,
            self.gate().shell_context(),
        );
        let sandboxing = self.sandboxing(name);
        let request = ApprovalRequest {
            session_id: self.options.session_id.clone(),
            agent: self.view.agent.name.clone(),
            tool: call.name.clone(),
            input: call.arguments.clone(),
            summary,
            reason: reason.clone(),
            always: always.prompt_text(),
            sandboxed: sandboxing == Sandboxing::Sandboxed,
        };
        self.notify_permission(&call.name).await;
        let answer = approver.ask(&request).await;
        // Where the sandbox is unavailable, a person's yes is a yes to running it without.
        let unavailable = matches!(sandboxing, Sandboxing::Unavailable(_));
        let (label, outside_sandbox) = match &answer {
            ApprovalAnswer::AllowOnce => ("allowed once", unavailable),
            ApprovalAnswer::AllowOutsideSandbox if sandboxing != Sandboxing::None => {
                ("allowed once outside the sandbox", true)
            }
            ApprovalAnswer::AllowOutsideSandbox => ("allowed once", false),
            ApprovalAnswer::AllowAlways => ("allowed for the session", unavailable),
            ApprovalAnswer::Deny { .. } => ("denied", false),
        };
        if let Err(e) = self.record(TranscriptRecord::Approval {
            at: now_millis(),
            tool: call.name.clone(),
            answer: label.to_owned(),
            reason,
        }) {
            tracing::warn!(error = %e, "cannot record the approval");
        }
        let authorized = Authorized {
            outside_sandbox,
            read_only: false,
        };
        match answer {
            ApprovalAnswer::AllowOnce | ApprovalAnswer::AllowOutsideSandbox => Ok(authorized),
            ApprovalAnswer::AllowAlways => {
                self.options
                    .permissions
                    .state
                    .remembered()
                    .add(always, &ctx);
                Ok(authorized)
            }
            ApprovalAnswer::Deny { message } => Err(Refusal::Denied { message }),
        }
    }

    /// Records a call no one could approve and says what, if anything, could let it run.
    fn refuse_unasked(&mut self, call: &ToolCall, asked: Asked<'_>, summary: String) -> Refusal {
        let reason = &asked.reason;
        tracing::info!(tool = %call.name, %reason, "tool call needs approval; no one to ask");
        let advice = self.advice(call, &asked);
        self.options.permissions.state.refused().push(RefusedCall {
            session_id: self.options.session_id.clone(),
            tool: call.name.clone(),
            summary,
            suggestions: advice.patterns.clone(),
            mode: advice.mode,
        });
        Refusal::Unasked {
            reason: asked.reason,
            advice,
        }
    }

    /// What would let the call run without a person, and only that: the mode that runs such
    /// calls (unless the tool rules themselves ask, or an agent caps the mode below it), and
    /// the suggested `permissions.allow` patterns that, compiled as the configuration's are,
    /// do pre-approve this very call on its spelled and its real path.
    fn advice(&self, call: &ToolCall, asked: &Asked<'_>) -> Advice {
        let wanted = match asked.kind {
            CallKind::Edit {
                inside_project: true,
            } => PermissionMode::AcceptEdits,
            _ => PermissionMode::Auto,
        };
        let cap = self.view.mode_cap;
        let person_only = match (asked.kind, self.sandboxing(asked.name)) {
            (CallKind::Protected, _) => Some(
                "what later sessions trust (the project's configuration, skills, agents or hooks) changes only with a person's approval".to_owned(),
            ),
            (_, Sandboxing::Unavailable(_)) => Some(
                "the sandbox is unavailable here, so a command runs only once a person approves it".to_owned(),
            ),
            _ => None,
        };
        if let Some(why) = person_only {
            return Advice {
                mode: None,
                patterns: Vec::new(),
                no_mode: Some(why),
            };
        }
        let (mode, no_mode) = if asked.gate_asks {
            (
                None,
                Some("the tool rules of this session ask for it, whatever the mode".to_owned()),
            )
        } else if let Some(cap) = cap.filter(|cap| *cap < wanted) {
            (
                None,
                Some(format!(
                    "agent `{}` limits the permission mode to `{cap}`",
                    self.view.agent.name
                )),
            )
        } else {
            (Some(wanted), None)
        };
        let input = &call.arguments;
        let candidates =
            weft_permissions::suggest_allow(asked.name, input, self.gate().shell_context());
        let patterns = match PreApproval::compile(
            &candidates,
            &Origin::Session,
            &pattern_context(&self.options),
        ) {
            Ok(pre)
                if pre
                    .check_resolved(asked.name, input, asked.real.map(|r| &r.input))
                    .is_pre_approved() =>
            {
                candidates
            }
            _ => Vec::new(),
        };
        Advice {
            mode,
            patterns,
            no_mode,
        }
    }
}

/// A call a person must decide on.
struct Asked<'a> {
    /// The tool, as dispatched.
    name: &'a str,
    kind: CallKind,
    /// Why it needs approval.
    reason: String,
    real: Option<&'a RealPath>,
    /// The gate answered `ask` (the tool rules' own doubt, which no mode lifts).
    gate_asks: bool,
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
