//! What a permission mode makes of one call: run it, ask a person, or refuse it.
//!
//! Three knobs meet here. Restriction has already spoken (the gate's [`Decision`]: a denial
//! is final in every mode); pre-approval (`permissions.allow`, remembered answers) says
//! whether the call may skip the question; the [`PermissionMode`] says what needs a question
//! at all. [`decide`] is the whole rule, a pure function of the four.
//!
//! A fourth knob is the analyser's: an `exec_shell` command that only reads inside the project
//! ([`CallKind::with_command`], by the read-only table of `weft-shell`) is a
//! [`CallKind::ReadOnlyCommand`], which runs without asking in the sandbox.

use serde_json::Value;
use weft_shell::ShellContext;
use weft_types::{PermissionMode, tool_names};

use crate::name::canonical_tool_name;
use crate::{Approval, Decision};

/// What a call may do, as far as asking is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// It only reads: the built-ins of [`READ_ONLY_CALLS`](tool_names::READ_ONLY_CALLS), an
    /// MCP tool its server annotates `readOnlyHint`.
    ReadOnly,
    /// It changes nothing itself; what it starts is checked call by call: the
    /// [`CONTROL_TOOLS`](tool_names::CONTROL_TOOLS) (a subagent inherits the mode).
    Control,
    /// A file edit (the [`EDIT_TOOLS`](tool_names::EDIT_TOOLS)); `inside_project` when its
    /// real path (symbolic links resolved) lies in the project.
    Edit {
        /// The real path lies in the project.
        inside_project: bool,
    },
    /// An `exec_shell` call whose command only reads inside the project, by the analyser's
    /// read-only table ([`CallKind::with_command`]): it runs without asking in every mode but
    /// `plan`, and only in the read-only sandbox (the caller makes it a
    /// [`Mutating`](CallKind::Mutating) call where there is none).
    ReadOnlyCommand,
    /// Anything else may change something: `exec_shell`, `web_fetch`, `memory_write`,
    /// `create_skill`, MCP tools not annotated read-only, unknown tools.
    Mutating,
    /// A write that later sessions would trust without a person: a file tool's write to one of
    /// the project's [protected paths](weft_types::protected) (`.clawft/`, `.claude/`,
    /// `.git/hooks/`...), `create_skill` replacing a skill. Only a person approves it, in every
    /// mode but `bypass`: no pattern, remembered answer or mode lets it run on its own.
    Protected,
}

impl CallKind {
    /// The kind of a call of `tool` (any spelling: `Bash`, `mcp__github__x`). `mcp_read_only`
    /// is the server's `readOnlyHint` for a tool outside weft's vocabulary; `edit_inside`
    /// says whether an edit's real path lies in the project (asked only for edits).
    pub fn of(tool: &str, mcp_read_only: bool, edit_inside: impl FnOnce() -> bool) -> CallKind {
        let name = canonical_tool_name(tool);
        if tool_names::READ_ONLY_CALLS.contains(&name) {
            CallKind::ReadOnly
        } else if tool_names::CONTROL_TOOLS.contains(&name) {
            CallKind::Control
        } else if tool_names::EDIT_TOOLS.contains(&name) {
            CallKind::Edit {
                inside_project: edit_inside(),
            }
        } else if !tool_names::BUILTIN_TOOLS.contains(&name) && mcp_read_only {
            CallKind::ReadOnly
        } else {
            CallKind::Mutating
        }
    }

    /// This kind, or [`CallKind::ReadOnlyCommand`] for an `exec_shell` call (any spelling)
    /// whose command, analysed in `shell` (the context of the shell that really runs it: the
    /// project, the dialect) with the call's `cwd`, [only reads inside the
    /// project](weft_shell::CommandAnalysis::read_only_verdict). Anything the table does not
    /// list keeps its kind.
    ///
    /// ```
    /// use serde_json::json;
    /// use weft_permissions::{CallKind, ShellContext};
    ///
    /// let shell = ShellContext::new().with_project_root("/p");
    /// let kind = |c: &str| CallKind::Mutating.with_command("Bash", &json!({"command": c}), &shell);
    /// assert_eq!(kind("git log --oneline | head -5"), CallKind::ReadOnlyCommand);
    /// assert_eq!(kind("cargo build"), CallKind::Mutating);
    /// assert_eq!(kind("cat /etc/passwd"), CallKind::Mutating);
    /// ```
    pub fn with_command(self, tool: &str, input: &Value, shell: &ShellContext) -> CallKind {
        if self != CallKind::Mutating || canonical_tool_name(tool) != tool_names::EXEC_SHELL {
            return self;
        }
        match crate::gate::shell::analyse_call(input, shell) {
            Ok(analysis) if analysis.read_only_verdict().is_read_only() => {
                CallKind::ReadOnlyCommand
            }
            _ => self,
        }
    }

    /// True for kinds that never change anything themselves.
    pub fn is_harmless(self) -> bool {
        matches!(self, CallKind::ReadOnly | CallKind::Control)
    }
}

/// The next step for a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Run it.
    Run,
    /// A person must approve it first; `reason` says what needs approval.
    Ask {
        /// E.g. "`exec_shell` may change things, and no `permissions.allow` pattern
        /// pre-approves it".
        reason: String,
    },
    /// It must not run; `reason` says why (the model reads it).
    Refuse {
        /// E.g. "plan mode: only read-only tools run".
        reason: String,
    },
}

/// True when a tool of this kind is offered to the model in `mode`: in `plan` only what
/// cannot change anything is.
pub fn offered_in(mode: PermissionMode, kind: CallKind) -> bool {
    mode != PermissionMode::Plan || kind.is_harmless()
}

/// What `mode` makes of a call of `tool` of `kind` that the gate judged `gate` and that
/// pre-approval judged `pre`.
///
/// * The gate's `denied` is final in every mode.
/// * Pre-approval stands for a person's yes: it lets through whatever a person could approve.
/// * `plan` refuses anything that may change something; `dont-ask` and `bypass` refuse where
///   they would have to ask (a gate `ask` comes from a skill's or agent's restriction, which no
///   mode lifts without a person); `auto` and `bypass` run everything else the gate allows;
///   `accept-edits` runs edits inside the project; `ask` runs only what cannot change anything.
/// * A [`CallKind::Protected`] write asks a person in every mode but `bypass` (which runs it),
///   whatever pre-approval says.
///
/// ```
/// use weft_permissions::{Approval, CallKind, Decision, Step, decide};
/// use weft_types::PermissionMode;
///
/// let no = Approval::NotPreApproved { reason: "no pattern".into() };
/// let edit = CallKind::Edit { inside_project: true };
/// assert_eq!(decide(PermissionMode::AcceptEdits, "write_file", edit, &Decision::Allowed, &no), Step::Run);
/// assert!(matches!(decide(PermissionMode::Ask, "write_file", edit, &Decision::Allowed, &no), Step::Ask { .. }));
/// assert!(matches!(decide(PermissionMode::Plan, "write_file", edit, &Decision::Allowed, &no), Step::Refuse { .. }));
/// ```
pub fn decide(
    mode: PermissionMode,
    tool: &str,
    kind: CallKind,
    gate: &Decision,
    pre: &Approval,
) -> Step {
    let gate_ask = match gate {
        Decision::Denied { reason } => {
            return Step::Refuse {
                reason: reason.text().to_owned(),
            };
        }
        Decision::Ask { reason } => Some(reason.text()),
        Decision::Allowed => None,
    };
    if mode == PermissionMode::Plan && !kind.is_harmless() {
        return Step::Refuse {
            reason: format!(
                "plan mode: only read-only tools run, and `{tool}` may change something"
            ),
        };
    }
    let free = match (mode, kind) {
        _ if gate_ask.is_some() => false,
        (PermissionMode::Bypass, CallKind::Protected) => true,
        (_, CallKind::Protected) => false,
        (_, CallKind::ReadOnly | CallKind::Control | CallKind::ReadOnlyCommand) => true,
        (PermissionMode::Auto | PermissionMode::Bypass, _) => true,
        (
            PermissionMode::AcceptEdits,
            CallKind::Edit {
                inside_project: true,
            },
        ) => true,
        _ => false,
    };
    if free || (pre.is_pre_approved() && kind != CallKind::Protected) {
        return Step::Run;
    }
    let reason = match (gate_ask, pre) {
        (Some(why), _) => why.to_owned(),
        (None, Approval::NotPreApproved { reason }) => what_changes(tool, kind, reason),
        (None, _) if kind == CallKind::Protected => what_changes(tool, kind, ""),
        (None, Approval::PreApproved { .. }) => String::new(),
    };
    match mode {
        PermissionMode::DontAsk => Step::Refuse {
            reason: format!("{reason}; dont-ask mode refuses what it would have to ask"),
        },
        PermissionMode::Bypass => Step::Refuse {
            reason: format!(
                "{reason}; this restriction comes from a skill or agent, and bypass mode does not ask"
            ),
        },
        _ => Step::Ask { reason },
    }
}

/// `step` for a call that nothing but a person may let run (an `exec_shell` command where the
/// sandbox is required but unavailable, `why`): what would run without asking asks instead,
/// and is refused where the mode never asks (`dont-ask`, `bypass`).
///
/// ```
/// use weft_permissions::{Step, only_with_a_person};
/// use weft_types::PermissionMode;
///
/// let step = only_with_a_person(PermissionMode::Auto, Step::Run, "the sandbox is unavailable");
/// assert!(matches!(step, Step::Ask { reason } if reason.starts_with("the sandbox is unavailable")));
/// ```
pub fn only_with_a_person(mode: PermissionMode, step: Step, why: &str) -> Step {
    if step != Step::Run {
        return step;
    }
    let reason = format!("{why}; a command runs only once a person approves it");
    match mode {
        PermissionMode::DontAsk | PermissionMode::Bypass => Step::Refuse {
            reason: format!("{reason}, and {mode} mode does not ask"),
        },
        _ => Step::Ask { reason },
    }
}

/// "`write_file` writes outside the project" and the like, with why no pattern approves it.
fn what_changes(tool: &str, kind: CallKind, not_approved: &str) -> String {
    if kind == CallKind::Protected {
        return format!(
            "`{tool}` changes what later sessions trust (the project's configuration, skills, agents or hooks: {}), which only a person may approve",
            weft_types::protected::PROTECTED_PATHS.join(", ")
        );
    }
    let what = match kind {
        CallKind::Edit {
            inside_project: false,
        } => format!("`{tool}` writes outside the project"),
        CallKind::Edit { .. } => format!("`{tool}` changes a file"),
        _ => format!("`{tool}` may change something"),
    };
    format!("{what} ({not_approved})")
}

#[cfg(test)]
mod tests {
    use super::*;

    use PermissionMode::*;

    /// The expected step per mode, in [`PermissionMode::ALL`] order (plan, dont-ask, ask,
    /// accept-edits, auto, bypass): `R` run, `A` ask, `X` refuse.
    fn expect(kind: CallKind, gate: &Decision, pre: bool) -> [char; 6] {
        let edit_in = CallKind::Edit {
            inside_project: true,
        };
        let edit_out = CallKind::Edit {
            inside_project: false,
        };
        let row: &str = match (kind, gate, pre) {
            (_, Decision::Denied { .. }, _) => "XXXXXX",
            (CallKind::Protected, Decision::Allowed, _) => "XXAAAR",
            (CallKind::Protected, Decision::Ask { .. }, _) => "XXAAAX",
            (k, Decision::Allowed, _) if k.is_harmless() => "RRRRRR",
            (k, Decision::Ask { .. }, false) if k.is_harmless() => "AXAAAX",
            (k, Decision::Ask { .. }, true) if k.is_harmless() => "RRRRRR",
            (_, _, true) => "XRRRRR",
            (CallKind::ReadOnlyCommand, Decision::Allowed, false) => "XRRRRR",
            (k, Decision::Allowed, false) if k == edit_in => "XXARRR",
            (k, Decision::Allowed, false) if k == edit_out => "XXAARR",
            (CallKind::Mutating, Decision::Allowed, false) => "XXAARR",
            (_, Decision::Ask { .. }, false) => "XXAAAX",
            _ => unreachable!("{kind:?} {gate:?} {pre}"),
        };
        let mut out = ['?'; 6];
        for (slot, c) in out.iter_mut().zip(row.chars()) {
            *slot = c;
        }
        out
    }

    #[test]
    fn the_whole_table() {
        let kinds = [
            CallKind::ReadOnly,
            CallKind::Control,
            CallKind::Edit {
                inside_project: true,
            },
            CallKind::Edit {
                inside_project: false,
            },
            CallKind::ReadOnlyCommand,
            CallKind::Mutating,
            CallKind::Protected,
        ];
        let gates = [
            Decision::Allowed,
            Decision::ask("`git -c` can run other programs"),
            Decision::denied("`rm` is forbidden"),
        ];
        let mut rows = 0;
        for kind in kinds {
            for gate in &gates {
                for pre in [false, true] {
                    let approval = if pre {
                        Approval::PreApproved {
                            rule: "`Bash(cargo:*)`".into(),
                        }
                    } else {
                        Approval::NotPreApproved {
                            reason: "no pattern matches".into(),
                        }
                    };
                    let want = expect(kind, gate, pre);
                    for (mode, want) in PermissionMode::ALL.into_iter().zip(want) {
                        let got = match decide(mode, "tool", kind, gate, &approval) {
                            Step::Run => 'R',
                            Step::Ask { .. } => 'A',
                            Step::Refuse { .. } => 'X',
                        };
                        assert_eq!(got, want, "{mode} {kind:?} {gate:?} pre={pre}");
                        rows += 1;
                    }
                }
            }
        }
        assert_eq!(rows, 7 * 3 * 2 * 6);
    }

    #[test]
    fn reasons_say_what_and_why() {
        let no = Approval::NotPreApproved {
            reason: "no pre-approval pattern matches this `exec_shell` call".into(),
        };
        assert_eq!(
            decide(Ask, "exec_shell", CallKind::Mutating, &Decision::Allowed, &no),
            Step::Ask {
                reason: "`exec_shell` may change something (no pre-approval pattern matches this `exec_shell` call)".into()
            }
        );
        let gate_ask = Decision::ask("`git -c` can run other programs, in `git -c x=y log`");
        assert_eq!(
            decide(Auto, "exec_shell", CallKind::Mutating, &gate_ask, &no),
            Step::Ask {
                reason: "`git -c` can run other programs, in `git -c x=y log`".into()
            }
        );
        assert_eq!(
            decide(
                Bypass,
                "exec_shell",
                CallKind::Mutating,
                &Decision::denied("`rm x` matches `Bash(rm:*)`"),
                &no
            ),
            Step::Refuse {
                reason: "`rm x` matches `Bash(rm:*)`".into()
            }
        );
        assert_eq!(
            decide(
                Plan,
                "write_file",
                CallKind::Edit {
                    inside_project: true
                },
                &Decision::Allowed,
                &no
            ),
            Step::Refuse {
                reason:
                    "plan mode: only read-only tools run, and `write_file` may change something"
                        .into()
            }
        );
        let Step::Refuse { reason } = decide(
            DontAsk,
            "write_file",
            CallKind::Edit {
                inside_project: false,
            },
            &Decision::Allowed,
            &no,
        ) else {
            panic!()
        };
        assert!(
            reason.starts_with("`write_file` writes outside the project (")
                && reason.ends_with("; dont-ask mode refuses what it would have to ask"),
            "{reason}"
        );
    }

    #[test]
    fn protected_writes_ask_whatever_was_pre_approved() {
        let pre = Approval::PreApproved {
            rule: "`Write` from `permissions.allow`".into(),
        };
        for mode in [Ask, AcceptEdits, Auto] {
            let Step::Ask { reason } = decide(
                mode,
                "write_file",
                CallKind::Protected,
                &Decision::Allowed,
                &pre,
            ) else {
                panic!("{mode}");
            };
            assert!(
                reason.starts_with("`write_file` changes what later sessions trust")
                    && reason.contains(".clawft, .claude"),
                "{reason}"
            );
        }
        assert_eq!(
            decide(
                Bypass,
                "write_file",
                CallKind::Protected,
                &Decision::Allowed,
                &pre
            ),
            Step::Run
        );
    }

    #[test]
    fn only_a_person_turns_runs_into_questions() {
        let why = "the sandbox is required (sandbox.required) but unavailable: no Landlock";
        assert_eq!(
            only_with_a_person(Ask, Step::Run, why),
            Step::Ask {
                reason: format!("{why}; a command runs only once a person approves it")
            }
        );
        assert!(
            matches!(only_with_a_person(DontAsk, Step::Run, why), Step::Refuse { reason } if reason.ends_with("and dont-ask mode does not ask"))
        );
        let refused = Step::Refuse {
            reason: "plan".into(),
        };
        assert_eq!(only_with_a_person(Auto, refused.clone(), why), refused);
        let ask = Step::Ask { reason: "x".into() };
        assert_eq!(only_with_a_person(Auto, ask.clone(), why), ask);
    }

    #[test]
    fn kinds_of_tools() {
        let never = || panic!("only edits ask where they are");
        assert_eq!(CallKind::of("Read", false, never), CallKind::ReadOnly);
        assert_eq!(
            CallKind::of("memory_read", false, never),
            CallKind::ReadOnly
        );
        assert_eq!(CallKind::of("Task", false, never), CallKind::Control);
        assert_eq!(CallKind::of("Bash", true, never), CallKind::Mutating);
        assert_eq!(CallKind::of("web_fetch", false, never), CallKind::Mutating);
        assert_eq!(
            CallKind::of("create_skill", true, never),
            CallKind::Mutating
        );
        assert_eq!(
            CallKind::of("MultiEdit", false, || false),
            CallKind::Edit {
                inside_project: false
            }
        );
        assert_eq!(
            CallKind::of("mcp__github__get_issue", true, never),
            CallKind::ReadOnly
        );
        assert_eq!(
            CallKind::of("github__create_issue", false, never),
            CallKind::Mutating
        );
        let shell = ShellContext::new().with_project_root("/p");
        let command =
            |tool: &str, input: Value| CallKind::Mutating.with_command(tool, &input, &shell);
        let read_only = CallKind::ReadOnlyCommand;
        assert_eq!(
            command(
                "exec_shell",
                serde_json::json!({"command": "ls -la src && git status"})
            ),
            read_only
        );
        assert_eq!(
            command("Bash", serde_json::json!({"command": "rg -n foo | wc -l"})),
            read_only
        );
        // Fails closed: not on the table, a write, outside the project, no command at all.
        for input in [
            serde_json::json!({"command": "make"}),
            serde_json::json!({"command": "git log > log.txt"}),
            serde_json::json!({"command": "cat ~/.ssh/id_rsa"}),
            serde_json::json!({"command": "cat x", "cwd": "/etc"}),
            serde_json::json!({"path": "ls"}),
        ] {
            assert_eq!(
                command("Bash", input.clone()),
                CallKind::Mutating,
                "{input}"
            );
        }
        // Only `exec_shell`'s changing kind is refined.
        assert_eq!(
            command("web_fetch", serde_json::json!({"command": "ls"})),
            CallKind::Mutating
        );
        assert_eq!(
            CallKind::Protected.with_command("Bash", &serde_json::json!({"command": "ls"}), &shell),
            CallKind::Protected
        );
        assert!(!offered_in(Plan, read_only));
        assert!(offered_in(Plan, CallKind::Control));
        assert!(!offered_in(Plan, CallKind::Mutating));
        assert!(offered_in(DontAsk, CallKind::Mutating));
    }
}
