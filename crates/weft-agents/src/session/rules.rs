//! A call judged as a new session judges it before running it, without a session: the gate
//! (restriction), pre-approval by `permissions.allow` and the permission mode. This is where
//! [`Session::authorize`](super::Session) starts; a session then also consults the answers
//! remembered in it and, where a person must decide, asks. `weft skills check-tool` answers
//! with it.

use std::path::PathBuf;

use serde_json::Value;
use weft_permissions::{
    Approval, AskRules, CallKind, Decision, PreApproval, Step, ToolGate, decide,
};
use weft_types::PermissionMode;

use super::real_path::RealPath;

/// What decides whether a call runs in a new session.
#[derive(Debug, Clone)]
pub struct CallRules {
    /// The restriction: the configuration's `tools.deny`, the agent's tools, skills; the
    /// project as the context of shell commands.
    pub gate: ToolGate,
    /// `permissions.allow`.
    pub pre_approval: PreApproval,
    /// `permissions.ask` (Claude Code's settings): calls that ask whatever pre-approves them.
    pub ask: AskRules,
    /// The permission mode (the agent's `permissionMode` already applied).
    pub mode: PermissionMode,
    /// The project directory: relative paths start there, and edits there are inside the
    /// project. Paths are judged as spelled and on their real path, as in a session.
    pub project_dir: Option<PathBuf>,
    /// `exec_shell` runs read-only commands in its read-only sandbox here (the sandbox is on
    /// and available): such a command is a [`CallKind::ReadOnlyCommand`], which runs without
    /// asking. Without it a read-only command asks as any other.
    pub read_only_sandbox: bool,
}

/// How the rules judged one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallJudgement {
    /// The gate's decision.
    pub gate: Decision,
    /// What `permissions.allow` says, when it matters (not for a call the gate denies, nor for
    /// an allowed call that cannot change anything).
    pub pre_approval: Option<Approval>,
    /// What the call may do, as far as asking is concerned. An MCP tool counts as changing
    /// something here (its server, which may annotate it read-only, is not started).
    pub kind: CallKind,
    /// True when the call runs without asking because its command only reads
    /// ([`CallKind::ReadOnlyCommand`]) where a command that may change something would not
    /// (not in `auto`, not when pre-approved anyway): "allowed (read-only)".
    pub read_only_command: bool,
    /// What the session does: run it, ask a person, or refuse it.
    pub step: Step,
}

impl CallRules {
    /// Judges a call of `tool` with `input`.
    pub fn judge(&self, tool: &str, input: &Value) -> CallJudgement {
        let project = self.project_dir.as_deref();
        let real = project.and_then(|dir| RealPath::of_call(dir, tool, input));
        let real_input = real.as_ref().map(|r| &r.input);
        let mut gate = self.gate.check_resolved(tool, input, real_input);
        let asked = (!gate.is_denied())
            .then(|| self.ask.check_resolved(tool, input, real_input))
            .flatten();
        if let Some(reason) = &asked {
            gate = Decision::ask(reason.clone());
        }
        let mut kind = CallKind::of(
            tool,
            false,
            || matches!((&real, project), (Some(r), Some(dir)) if r.is_inside(dir)),
        );
        if let (CallKind::Edit { .. }, Some(dir)) = (kind, project) {
            let spelled = weft_permissions::PATH_KEYS
                .iter()
                .find_map(|k| input.get(*k).and_then(Value::as_str));
            if spelled.is_some_and(|s| {
                super::real_path::protected_edit(dir, s, real.as_ref().map(|r| r.path.as_path()))
                    .is_some()
            }) {
                kind = CallKind::Protected;
            }
        }
        if self.read_only_sandbox {
            kind = kind.with_command(tool, input, self.gate.shell_context());
        }
        // An ask rule beats every pre-approval.
        let pre_approval = (!settled(&gate, kind) && asked.is_none())
            .then(|| self.pre_approval.check_resolved(tool, input, real_input));
        let none = Approval::NotPreApproved {
            reason: String::new(),
        };
        let step = decide(
            self.mode,
            tool,
            kind,
            &gate,
            pre_approval.as_ref().unwrap_or(&none),
        );
        // Read-only is why it runs only where a command that may change something would not.
        let read_only_command = kind == CallKind::ReadOnlyCommand
            && step == Step::Run
            && decide(
                self.mode,
                tool,
                CallKind::Mutating,
                &gate,
                pre_approval.as_ref().unwrap_or(&none),
            ) != Step::Run;
        CallJudgement {
            read_only_command,
            gate,
            pre_approval,
            kind,
            step,
        }
    }
}

/// True when pre-approval cannot change what happens to a call: the gate denied it, or it
/// cannot change anything and the gate allowed it.
pub(super) fn settled(decision: &Decision, kind: CallKind) -> bool {
    decision.is_denied() || (kind.is_harmless() && decision.is_allowed())
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use weft_permissions::{Origin, PatternContext, Policy};

    use super::*;

    fn rules(mode: PermissionMode, allow: &[&str]) -> CallRules {
        let ctx = PatternContext::new();
        let deny = Policy::from_lists::<&str>(None, &["Bash(rm:*)"], Origin::Session, &ctx);
        CallRules {
            gate: ToolGate::new([deny.unwrap()]),
            pre_approval: PreApproval::compile(allow, &Origin::Session, &ctx).unwrap(),
            ask: AskRules::default(),
            mode,
            project_dir: None,
            read_only_sandbox: false,
        }
    }

    #[test]
    fn the_gate_then_pre_approval_then_the_mode() {
        let bash = |c: &str| json!({ "command": c });
        let ask = rules(PermissionMode::Ask, &["Bash(git status:*)"]);
        assert!(matches!(
            ask.judge("Bash", &bash("eval rm x")).step,
            Step::Refuse { .. }
        ));
        let status = ask.judge("Bash", &bash("git status"));
        assert_eq!(status.step, Step::Run);
        assert!(status.pre_approval.is_some_and(|a| a.is_pre_approved()));
        assert!(matches!(
            ask.judge("Bash", &bash("git log")).step,
            Step::Ask { .. }
        ));
        let read = ask.judge("read_file", &json!({"path": "x"}));
        assert_eq!((read.step, read.pre_approval), (Step::Run, None));
        let auto = rules(PermissionMode::Auto, &[]);
        assert_eq!(auto.judge("Bash", &bash("git log")).step, Step::Run);
        // An ask rule asks even in auto, and beats a pre-approval.
        let mut asking = rules(PermissionMode::Auto, &["Bash(git push:*)"]);
        asking.ask = AskRules::compile(
            ["Bash(git push:*)"],
            &Origin::Session,
            &PatternContext::new(),
        )
        .unwrap();
        let push = asking.judge("Bash", &bash("git push"));
        assert!(matches!(push.step, Step::Ask { .. }), "{push:?}");
        assert_eq!(push.pre_approval, None);
        assert_eq!(asking.judge("Bash", &bash("git log")).step, Step::Run);
    }

    #[test]
    fn read_only_commands_run_without_asking_only_with_the_read_only_sandbox() {
        let bash = |c: &str| json!({ "command": c });
        for mode in [
            PermissionMode::Ask,
            PermissionMode::AcceptEdits,
            PermissionMode::DontAsk,
        ] {
            let mut rules = rules(mode, &["Bash(git status:*)"]);
            rules.project_dir = Some(PathBuf::from("/p"));
            rules.gate = rules
                .gate
                .with_shell_context(weft_permissions::ShellContext::new().with_project_root("/p"));
            // Without the read-only sandbox it asks (or is refused where no one is asked).
            let unsandboxed = rules.judge("Bash", &bash("git log --oneline | head"));
            assert_ne!(unsandboxed.step, Step::Run, "{mode}");
            assert!(!unsandboxed.read_only_command);
            rules.read_only_sandbox = true;
            let log = rules.judge("Bash", &bash("git log --oneline | head"));
            // Pre-approved anyway: the label is pre-approval's.
            assert!(!rules.judge("Bash", &bash("git status")).read_only_command);
            assert_eq!(
                (log.kind, &log.step, log.read_only_command),
                (CallKind::ReadOnlyCommand, &Step::Run, true),
                "{mode}"
            );
            // Not on the table, or a write: as before.
            assert_ne!(rules.judge("Bash", &bash("make")).step, Step::Run);
            assert_ne!(rules.judge("Bash", &bash("git log > x")).step, Step::Run);
            // The gate's deny still wins.
            assert!(matches!(
                rules.judge("Bash", &bash("ls; rm x")).step,
                Step::Refuse { .. }
            ));
        }
        let mut auto = rules(PermissionMode::Auto, &[]);
        auto.read_only_sandbox = true;
        let ls = auto.judge("Bash", &bash("ls"));
        assert_eq!((ls.step, ls.read_only_command), (Step::Run, false));
        let mut plan = rules(PermissionMode::Plan, &[]);
        plan.read_only_sandbox = true;
        assert!(matches!(
            plan.judge("Bash", &bash("ls")).step,
            Step::Refuse { .. }
        ));
    }
}
