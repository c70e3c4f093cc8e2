//! Pre-approval: which calls run without asking (`permissions.allow`).
//!
//! Pre-approval is a knob of its own, apart from restriction (what may be called at all:
//! `tools.allow` / `tools.deny`, skills' `allowed-tools`) and visibility (what the model is
//! offered). It uses the same patterns and the same shell analyser as the gate's allow side:
//! an `exec_shell` call is pre-approved only when every simple command matches a pattern (or
//! is a read-only helper) and nothing is unanalysable or risky.

use serde_json::Value;

use crate::gate::CommandRulings;
use crate::gate::shell::{self, AllowRuling, LayerVerdict};
use crate::name::ToolName;
use crate::{Effect, Origin, PatternContext, PatternSet, PolicyError};
use weft_shell::ShellContext;

/// Compiled pre-approval patterns.
///
/// ```
/// use serde_json::json;
/// use weft_permissions::{Approval, Origin, PatternContext, PreApproval};
///
/// let approved = PreApproval::compile(
///     ["Read", "Bash(git status:*)", "Bash(cargo test:*)"],
///     &Origin::Session,
///     &PatternContext::new(),
/// )?;
/// let bash = |c: &str| json!({ "command": c });
/// assert!(approved.check("Read", &json!({"path": "x"})).is_pre_approved());
/// assert!(approved.check("Bash", &bash("cargo test 2>&1 | tail")).is_pre_approved());
/// assert_eq!(
///     approved.check("Bash", &bash("git status && git push")),
///     Approval::NotPreApproved {
///         reason: "`git push` matches none of the allowed `Bash(git status:*)` from the session, `Bash(cargo test:*)` from the session".into(),
///     },
/// );
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreApproval {
    patterns: PatternSet,
    shell: ShellContext,
}

/// Whether a call runs without asking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// It does; `rule` names the patterns that approve it.
    PreApproved {
        /// E.g. "`Bash(git status:*)` from the session".
        rule: String,
    },
    /// It needs approval; why.
    NotPreApproved {
        /// E.g. "`git -c` can run other programs, in `git -c x=y log`".
        reason: String,
    },
}

impl Approval {
    /// True for [`Approval::PreApproved`].
    pub fn is_pre_approved(&self) -> bool {
        matches!(self, Approval::PreApproved { .. })
    }
}

impl PreApproval {
    /// Pre-approval by `patterns`.
    pub fn new(patterns: PatternSet) -> Self {
        Self {
            patterns,
            shell: ShellContext::new(),
        }
    }

    /// Compiles `patterns` from `origin`; the project directory of `ctx` (else its working
    /// directory) is where shell commands are taken to run.
    pub fn compile<I>(
        patterns: I,
        origin: &Origin,
        ctx: &PatternContext,
    ) -> Result<Self, PolicyError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        Ok(Self {
            patterns: PatternSet::compile(patterns, origin, ctx)?,
            shell: ctx.shell_context(),
        })
    }

    /// Sets where shell commands run.
    pub fn with_shell_context(mut self, ctx: ShellContext) -> Self {
        self.shell = ctx;
        self
    }

    /// The patterns.
    pub fn patterns(&self) -> &PatternSet {
        &self.patterns
    }

    /// Says whether the call runs without asking. A shell command that may write a protected
    /// path (`.clawft/`, `.git/config`...; `weft_shell::PROTECTED_PATHS`) is never
    /// pre-approved, not even by `Bash`.
    pub fn check(&self, tool: &str, input: &Value) -> Approval {
        let name = ToolName::new(tool);
        let set = &self.patterns;
        let shell_call = *name.canonical == *shell::SHELL_TOOL;
        let analysis = shell_call.then(|| shell::analyse_call(input, &self.shell));
        if let Some(Ok(analysis)) = &analysis
            && let Some(risk) = analysis.protected_write()
        {
            return not_approved(format!("{risk}: only a person approves that"));
        }
        if let Some(i) = set.name_hit(&name, Effect::Allow) {
            return approved(set, &[i]);
        }
        if let Some(analysis) = analysis
            && set.has_scoped(&name)
        {
            let analysis = match analysis {
                Ok(analysis) => analysis,
                Err(why) => return not_approved(why.describe()),
            };
            return match shell::allow_verdict(set, &name, &analysis) {
                LayerVerdict::Allowed(used) if used.is_empty() => Approval::PreApproved {
                    rule: "read-only helpers".to_owned(),
                },
                LayerVerdict::Allowed(used) => approved(set, &used),
                LayerVerdict::Ask(reason) | LayerVerdict::Denied(reason) => not_approved(reason),
            };
        }
        let scoped = set.scoped_for(&name);
        match scoped
            .iter()
            .find(|&&i| set.entry(i).0.applies_to_input(input, Effect::Allow))
        {
            Some(&i) => approved(set, &[i]),
            None => not_approved(format!(
                "no pre-approval pattern matches this `{tool}` call"
            )),
        }
    }
}

impl PreApproval {
    /// What pre-approval says about each simple command of a shell call, in the order the
    /// analyser finds them (what `weft skills check-tool -v` prints); empty for other tools.
    pub fn command_rulings(&self, tool: &str, input: &Value) -> Vec<CommandRulings> {
        let name = ToolName::new(tool);
        if *name.canonical != *shell::SHELL_TOOL {
            return Vec::new();
        }
        let Ok(analysis) = shell::analyse_call(input, &self.shell) else {
            return Vec::new();
        };
        let set = &self.patterns;
        let hit = set.name_hit(&name, Effect::Allow);
        let scoped = set.scoped_for(&name);
        let by = |i: usize| {
            let (pattern, origin) = set.entry(i);
            format!("pre-approved by `{pattern}` from {origin}")
        };
        let none = "not pre-approved (no pre-approval pattern matches it)";
        analysis
            .commands()
            .iter()
            .map(|command| {
                let ruling = match hit {
                    Some(i) => by(i),
                    None if scoped.is_empty() => none.to_owned(),
                    None => match shell::allow_ruling(set, &scoped, command) {
                        AllowRuling::Matched(i) => by(i),
                        AllowRuling::Runner => {
                            "runs a string whose commands are pre-approved on their own".to_owned()
                        }
                        AllowRuling::FunctionCall => {
                            "calls a function defined in the command".to_owned()
                        }
                        AllowRuling::Helper => "read-only helper, pre-approved".to_owned(),
                        AllowRuling::Unsure(i, why) => {
                            let (pattern, origin) = set.entry(i);
                            format!(
                                "not pre-approved: may not match `{pattern}` from {origin} ({why})"
                            )
                        }
                        AllowRuling::Unmatched => none.to_owned(),
                    },
                };
                CommandRulings {
                    command: command.describe(),
                    rulings: vec![ruling],
                }
            })
            .collect()
    }

    /// [`check`](Self::check) on the path as spelled in `input` and on `real`, the same input
    /// with the path replaced by its real path (see
    /// [`ToolGate::check_resolved`](crate::ToolGate::check_resolved)): both must be
    /// pre-approved, so `Edit(src/**)` does not approve a link in `src` that leads elsewhere.
    pub fn check_resolved(&self, tool: &str, input: &Value, real: Option<&Value>) -> Approval {
        let spelled = self.check(tool, input);
        let Some(real) = real.filter(|r| *r != input) else {
            return spelled;
        };
        if !spelled.is_pre_approved() {
            return spelled;
        }
        match self.check(tool, real) {
            Approval::NotPreApproved { reason } => Approval::NotPreApproved {
                reason: format!(
                    "`{}` resolves to `{}`: {reason}",
                    crate::gate::path_of(input).unwrap_or(""),
                    crate::gate::path_of(real).unwrap_or("")
                ),
            },
            approved => approved,
        }
    }
}

fn approved(set: &PatternSet, indices: &[usize]) -> Approval {
    Approval::PreApproved {
        rule: shell::rules(set, indices),
    }
}

fn not_approved(reason: String) -> Approval {
    Approval::NotPreApproved { reason }
}
