//! Dynamic context: the `` !`command` `` and ```` ```! ```` blocks of a skill run when the
//! skill is loaded, and each command's output replaces its block (Claude Code's feature).
//!
//! A command is an `exec_shell` call like any other: the gate the skill runs under (the
//! session's, narrowed by the skill's `allowed-tools`) judges it, then the permission mode,
//! `permissions.allow` and remembered answers decide, a person is asked where one can be
//! (refused where no one can), and the session's own `exec_shell` runs it (in the sandbox in
//! `auto`), with its output cap. Whatever does not run leaves a visible note in its place.
//! `skills.dynamic_context: false` turns it off; a dry run runs nothing and reports what
//! each command's verdict would be.

use serde::Serialize;
use serde_json::json;
use weft_llm::ToolCall;
use weft_permissions::{CallKind, Decision, Step, ToolGate};
use weft_template::Rendered;
use weft_types::tool_names::EXEC_SHELL;

use super::Session;
use super::hooks::HookApproval;
use crate::transcript::{TranscriptRecord, TranscriptWriteError, now_millis};

/// One dynamic-context command of the last skill loaded, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DynamicCommand {
    /// The command, placeholders filled.
    pub command: String,
    /// `inline` (`` !`cmd` ``) or `fenced` (```` ```! ````).
    pub kind: &'static str,
    /// What became of it (or, in a dry run, what would).
    #[serde(flatten)]
    pub verdict: DynamicVerdict,
}

/// What became of a dynamic-context command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum DynamicVerdict {
    /// It ran; `status` is its exit status (`exit code: 0`).
    Ran {
        /// The exit status as `exec_shell` reports it.
        status: String,
    },
    /// It was allowed but could not run (it could not start, it timed out).
    Failed {
        /// Why.
        reason: String,
    },
    /// The gate or the permission mode does not allow it.
    Denied {
        /// Why.
        reason: String,
    },
    /// It needed approval, and no one could give it or the person said no.
    Refused {
        /// Why, and how to allow it.
        reason: String,
    },
    /// `skills.dynamic_context: false`.
    Disabled,
    /// Dry run: it would run without asking.
    Allowed,
    /// Dry run: a person would be asked (refused where no one can be).
    Ask {
        /// Why it needs approval.
        reason: String,
    },
}

impl DynamicVerdict {
    /// The word recorded in the transcript and the reason or status beside it.
    fn record(&self) -> (&'static str, String) {
        match self {
            Self::Ran { status } => ("ran", status.clone()),
            Self::Failed { reason } => ("failed", reason.clone()),
            Self::Denied { reason } => ("denied", reason.clone()),
            Self::Refused { reason } => ("refused", reason.clone()),
            Self::Disabled => ("disabled", "skills.dynamic_context is false".to_owned()),
            Self::Allowed => ("allowed", String::new()),
            Self::Ask { reason } => ("ask", reason.clone()),
        }
    }
}

impl Session {
    /// Runs nothing from here on: dynamic-context commands are judged, not run (`--dry-run`).
    pub fn set_dry_run(&mut self, dry_run: bool) {
        self.dry_run = dry_run;
    }

    /// The dynamic-context commands of the last skill loaded and what became of them (in a
    /// dry run, the verdict each would get).
    pub fn dynamic_context(&self) -> &[DynamicCommand] {
        &self.last_skill.dynamic
    }

    /// `rendered` with each dynamic-context block replaced by its command's output, or by a
    /// note saying why it did not run; each command is judged by `gate` (the skill's) and
    /// recorded in the transcript.
    pub(super) async fn fill_dynamic_context(
        &mut self,
        skill: &str,
        rendered: &Rendered,
        gate: &ToolGate,
    ) -> Result<String, TranscriptWriteError> {
        self.last_skill.dynamic.clear();
        let mut texts: Vec<String> = Vec::with_capacity(rendered.commands.len());
        for (n, block) in rendered.commands.iter().enumerate() {
            let (verdict, text) = self.dynamic_command(n, &block.command, gate).await;
            if !self.dry_run {
                let (outcome, detail) = verdict.record();
                self.record(TranscriptRecord::DynamicContext {
                    at: now_millis(),
                    skill: skill.to_owned(),
                    command: block.command.clone(),
                    outcome: outcome.to_owned(),
                    detail,
                })?;
            }
            tracing::info!(%skill, command = %block.command, ?verdict, "dynamic context");
            self.last_skill.dynamic.push(DynamicCommand {
                command: block.command.clone(),
                kind: block.kind.label(),
                verdict,
            });
            texts.push(text);
        }
        Ok(rendered
            .replace_commands(|n, _| texts.get_mut(n).map(std::mem::take).unwrap_or_default()))
    }

    /// One command: its verdict and the text that replaces its block.
    async fn dynamic_command(
        &mut self,
        n: usize,
        command: &str,
        gate: &ToolGate,
    ) -> (DynamicVerdict, String) {
        let label = command.split_whitespace().collect::<Vec<_>>().join(" ");
        let not_run = |why: &str| format!("[dynamic context `{label}` was not run: {why}]");
        if !self.options.dynamic_context {
            return (
                DynamicVerdict::Disabled,
                not_run("dynamic context is turned off (skills.dynamic_context: false)"),
            );
        }
        let call = ToolCall {
            id: format!("dynamic-context-{n}"),
            name: EXEC_SHELL.to_owned(),
            arguments: json!({ "command": command }),
        };
        let decision = gate.check(EXEC_SHELL, &call.arguments);
        let kind = CallKind::of(EXEC_SHELL, false, || false);
        let kind = self.shell_kind(EXEC_SHELL, &call.arguments, kind, gate);
        let step = match &decision {
            Decision::Denied { reason } => {
                let reason = reason.text().to_owned();
                let note = not_run(&format!("permission denied: {reason}"));
                return (DynamicVerdict::Denied { reason }, note);
            }
            _ => self.step(
                &call,
                EXEC_SHELL,
                kind,
                &decision,
                None,
                &HookApproval::None,
            ),
        };
        if let Step::Refuse { reason } = step {
            let note = not_run(&format!("permission denied: {reason}"));
            return (DynamicVerdict::Denied { reason }, note);
        }
        if self.dry_run {
            let verdict = match step {
                Step::Ask { reason } => DynamicVerdict::Ask { reason },
                _ => DynamicVerdict::Allowed,
            };
            return (verdict, not_run("this is a dry run"));
        }
        let authorized = match self
            .authorize(
                &call,
                EXEC_SHELL,
                kind,
                &decision,
                None,
                &HookApproval::None,
            )
            .await
        {
            Ok(authorized) => authorized,
            Err(refusal) => {
                let reason = refusal.to_string();
                let note = not_run(&reason);
                return (DynamicVerdict::Refused { reason }, note);
            }
        };
        // The registry holds the `exec_shell` of the session's effective mode.
        let Some(tool) = self.tools.get(EXEC_SHELL).cloned() else {
            let reason = "this session has no `exec_shell` tool".to_owned();
            let note = not_run(&reason);
            return (DynamicVerdict::Failed { reason }, note);
        };
        let context = weft_tools::CallContext {
            outside_sandbox: authorized.outside_sandbox,
            read_only: kind == CallKind::ReadOnlyCommand,
            ..weft_tools::CallContext::default()
        };
        match tool.call_in(call.arguments, &context).await {
            Ok(output) => {
                let status = output.content.lines().next().unwrap_or_default().to_owned();
                let text = match weft_tools::plain_stdout(&output.content) {
                    Some(stdout) => stdout.to_owned(),
                    None => format!("[dynamic context `{label}`: {}]", output.content),
                };
                (DynamicVerdict::Ran { status }, text)
            }
            Err(e) => {
                let reason = e.to_string();
                let note = format!("[dynamic context `{label}` failed: {reason}]");
                (DynamicVerdict::Failed { reason }, note)
            }
        }
    }
}
