//! A session's permission settings: the mode, the pre-approval patterns, who can be asked, and
//! what was answered (shared with foreground subagents, so an answer holds for them too).

use std::sync::{Arc, Mutex, MutexGuard};

use async_trait::async_trait;
use serde_json::Value;
use weft_permissions::{AskRules, PreApproval};

use super::always::Remembered;
use weft_tools::{Tool, ToolRegistry};
use weft_types::{PermissionMode, tool_names};

/// One call a person is asked about.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    /// The session asking (a subagent's id is `<parent>.<n>`).
    pub session_id: String,
    /// The agent making the call.
    pub agent: String,
    /// The tool as the model called it.
    pub tool: String,
    /// The call's input.
    pub input: Value,
    /// What the call does, on one line: the command, the path, the URL.
    pub summary: String,
    /// Why it needs approval.
    pub reason: String,
    /// What "allow always" would allow, as the words after "allow" (`` `git status:*` for
    /// this session ``, ``exactly `git -c x=y log` for this session``, `every edit inside the
    /// project for this session`): a shell command is remembered as the rule shown.
    pub always: String,
    /// The call would run in the sandbox: the person may choose to run it outside
    /// ([`ApprovalAnswer::AllowOutsideSandbox`]).
    pub sandboxed: bool,
}

/// A person's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApprovalAnswer {
    /// Run this call (in the sandbox, where there is one).
    AllowOnce,
    /// Run this call outside the sandbox: an explicit choice, only ever for this one call
    /// (never remembered), recorded in the transcript.
    AllowOutsideSandbox,
    /// Run this call and, for the rest of the session, what [`ApprovalRequest::always`] says.
    AllowAlways,
    /// Do not run it; the model is told, with the person's words if any.
    Deny {
        /// What the person said (e.g. "use cargo check instead").
        message: Option<String>,
    },
}

/// Someone who can approve a call: the REPL's prompt, a test's script. A session without one
/// refuses every call that would ask.
#[async_trait]
pub trait Approver: Send + Sync {
    /// Asks about one call. Cancel-safe: the turn may be dropped (Ctrl-C) while it waits.
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer;
}

/// A call that was refused because it needed approval and no one could be asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedCall {
    /// The session that refused it.
    pub session_id: String,
    /// The tool as called.
    pub tool: String,
    /// What the call does, on one line.
    pub summary: String,
    /// `permissions.allow` patterns that would pre-approve it (empty when none can).
    pub suggestions: Vec<String>,
    /// The permission mode that would run it without asking; `None` when no mode would (the
    /// tool rules themselves ask, or an agent caps the mode below it): only a person, or one
    /// of the [`suggestions`](Self::suggestions), can let it run.
    pub mode: Option<PermissionMode>,
}

/// State shared by a session and its subagents.
#[derive(Debug, Default)]
pub(super) struct ApprovalState {
    remembered: Mutex<Remembered>,
    refused: Mutex<Vec<RefusedCall>>,
}

impl ApprovalState {
    pub(super) fn remembered(&self) -> MutexGuard<'_, Remembered> {
        self.remembered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn refused(&self) -> MutexGuard<'_, Vec<RefusedCall>> {
        self.refused
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// How a session decides whether a call runs without asking.
#[derive(Clone, Default)]
pub struct Permissions {
    /// The mode (the agent's `permissionMode` can only narrow it). Default `ask`.
    pub mode: PermissionMode,
    /// `permissions.allow`: calls that run without asking.
    pub pre_approval: PreApproval,
    /// `permissions.ask` (Claude Code's settings): calls a person must approve whatever the
    /// mode, even when a pattern or an answer pre-approves them.
    pub ask: AskRules,
    /// The project is trusted: its skills' `allowed-tools` pre-approve what they match while
    /// the skill is active, as the user's own, installed and plugin skills' always do. An
    /// untrusted project's skills only restrict. Default false.
    pub project_skills_pre_approve: bool,
    /// Who is asked; `None`: no one (calls that would ask are refused, and listed in
    /// [`Session::refused_calls`](super::Session::refused_calls)).
    pub approver: Option<Arc<dyn Approver>>,
    /// `exec_shell` as each permission mode needs it, for the modes this session and its
    /// subagents may run in: an agent's `permissionMode` narrows the mode, and the shell
    /// follows (under `bypass` the registry's runs unsandboxed; a subagent narrowed to `auto`
    /// gets the sandboxed one, one narrowed to `ask` the one `sandbox.enabled` says). A
    /// session uses the entry of its effective mode in place of the registry's `exec_shell`;
    /// empty: the registry's in every mode.
    pub mode_shells: Vec<(PermissionMode, Arc<dyn Tool>)>,
    /// The narrowest `permissionMode` of the agents above this session (a subagent's
    /// parents); set by the session for its children.
    pub(super) agent_cap: Option<PermissionMode>,
    /// Answers and refusals, shared with subagents.
    pub(super) state: Arc<ApprovalState>,
}

impl std::fmt::Debug for Permissions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Permissions")
            .field("mode", &self.mode)
            .field("pre_approval", &self.pre_approval)
            .field("ask", &self.ask)
            .field("approver", &self.approver.is_some())
            .field(
                "mode_shells",
                &self.mode_shells.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl Permissions {
    /// `mode` with no pre-approval and no one to ask.
    pub fn new(mode: PermissionMode) -> Self {
        Self {
            mode,
            ..Self::default()
        }
    }

    /// `tools` with the `exec_shell` of `mode` (see [`mode_shells`](Self::mode_shells)), when
    /// there is one and the registry has an `exec_shell` to replace.
    pub(super) fn tools_for_mode(&self, tools: &mut ToolRegistry, mode: PermissionMode) {
        if !tools.contains(tool_names::EXEC_SHELL) {
            return;
        }
        if let Some((_, shell)) = self.mode_shells.iter().find(|(m, _)| *m == mode) {
            tools.register(Arc::clone(shell));
        }
    }
}
