//! What an "allow always" answer remembers for the rest of the session, decided before the
//! question is asked so that the prompt shows exactly that.
//!
//! A shell command is remembered as a rule: the `Bash(program subcommand:*)` patterns the
//! analyser derives from it (one program, and its subcommand for programs that have them, per
//! pattern: never broader), checked to pre-approve the very call they came from. A command
//! with a part that cannot be analysed or a risky option gets no such rule (no pattern can
//! pre-approve it): exactly that command is remembered.

use std::path::PathBuf;

use serde_json::Value;
use weft_permissions::{
    Approval, CallKind, Origin, PatternContext, PreApproval, ShellContext, canonical_tool_name,
    suggest_allow,
};
use weft_types::tool_names;

use super::real_path::RealPath;

/// What "allow always" would allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Always {
    /// Every edit inside the project.
    EditsInside,
    /// Edits of this real path.
    EditPath(PathBuf),
    /// Shell commands matching these `Bash(...)` patterns.
    Rules(Vec<String>),
    /// Exactly this shell command.
    Command(String),
    /// Every call of this tool (canonical name).
    Tool(String),
    /// Nothing beyond this call (an edit whose path cannot be resolved, a shell call without
    /// a command).
    ThisCall,
}

impl Always {
    /// What "allow always" would allow for the call of `name` (as dispatched) of `kind`.
    /// `ctx` is what rules are compiled with; `shell` where commands run.
    pub(super) fn for_call(
        name: &str,
        kind: CallKind,
        input: &Value,
        real: Option<&RealPath>,
        ctx: &PatternContext,
        shell: &ShellContext,
    ) -> Self {
        match kind {
            CallKind::Edit {
                inside_project: true,
            } => return Always::EditsInside,
            CallKind::Edit { .. } => {
                return real.map_or(Always::ThisCall, |r| Always::EditPath(r.path.clone()));
            }
            _ => {}
        }
        let canonical = canonical_tool_name(name);
        if canonical != tool_names::EXEC_SHELL {
            return Always::Tool(canonical.to_owned());
        }
        let Some(command) = command_of(input) else {
            return Always::ThisCall;
        };
        let rules = suggest_allow(name, input, shell);
        let approves = !rules.is_empty()
            && PreApproval::compile(&rules, &Origin::Session, ctx)
                .is_ok_and(|pre| pre.check(name, input).is_pre_approved());
        if approves {
            Always::Rules(rules)
        } else {
            Always::Command(command.to_owned())
        }
    }

    /// The words after "allow" in the prompt: "`git status:*` for this session".
    pub(super) fn prompt_text(&self) -> String {
        match self {
            Always::EditsInside => "every edit inside the project for this session".to_owned(),
            Always::EditPath(path) => format!("edits of {} for this session", path.display()),
            Always::Rules(rules) => {
                let shown: Vec<String> = rules
                    .iter()
                    .map(|r| format!("`{}`", shown_rule(r)))
                    .collect();
                format!("{} for this session", shown.join(" and "))
            }
            Always::Command(command) => format!("exactly `{command}` for this session"),
            Always::Tool(tool) => format!("every `{tool}` call for this session"),
            Always::ThisCall => "this call only".to_owned(),
        }
    }
}

/// `git status:*` for `Bash(git status:*)`: the prompt is about shell commands already.
fn shown_rule(rule: &str) -> &str {
    rule.strip_prefix("Bash(")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(rule)
}

/// The command of an `exec_shell` call.
pub(super) fn command_of(input: &Value) -> Option<&str> {
    input.get("command").and_then(Value::as_str)
}

/// What "allow always" answers remembered.
#[derive(Debug, Default)]
pub(super) struct Remembered {
    /// `Bash(...)` rules, as written, and compiled.
    rules: Vec<String>,
    compiled: PreApproval,
    /// Exact `exec_shell` commands.
    commands: Vec<String>,
    /// Tools allowed for every call (canonical names).
    tools: Vec<String>,
    /// Edits inside the project run without asking.
    edits_inside: bool,
    /// Real paths edits may write without asking.
    edit_paths: Vec<PathBuf>,
}

impl Remembered {
    /// Remembers `always`; rules are compiled with `ctx`.
    pub(super) fn add(&mut self, always: Always, ctx: &PatternContext) {
        match always {
            Always::EditsInside => self.edits_inside = true,
            Always::EditPath(path) => self.edit_paths.push(path),
            Always::Rules(rules) => {
                for rule in rules {
                    if !self.rules.contains(&rule) {
                        self.rules.push(rule);
                    }
                }
                match PreApproval::compile(&self.rules, &Origin::Session, ctx) {
                    Ok(compiled) => self.compiled = compiled,
                    // The rules were compiled once already; this cannot fail.
                    Err(e) => tracing::warn!(error = %e, "cannot remember the rules"),
                }
            }
            Always::Command(command) => self.commands.push(command),
            Always::Tool(tool) => self.tools.push(tool),
            Always::ThisCall => {}
        }
    }

    /// True when an answer remembered so far allows this call (`real`: its path resolved).
    pub(super) fn allows(
        &self,
        name: &str,
        kind: CallKind,
        input: &Value,
        real: Option<&RealPath>,
    ) -> bool {
        let canonical = canonical_tool_name(name);
        if self.tools.iter().any(|t| t == canonical) {
            return true;
        }
        if let CallKind::Edit { inside_project } = kind {
            return (inside_project && self.edits_inside)
                || real.is_some_and(|r| self.edit_paths.contains(&r.path));
        }
        canonical == tool_names::EXEC_SHELL
            && (command_of(input).is_some_and(|c| self.commands.iter().any(|r| r == c))
                || (!self.rules.is_empty()
                    && matches!(
                        self.compiled.check(name, input),
                        Approval::PreApproved { .. }
                    )))
    }

    /// One line per remembered answer, for `/permissions`.
    pub(super) fn describe(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if self.edits_inside {
            out.push("edits inside the project".to_owned());
        }
        out.extend(self.tools.iter().map(|t| format!("every `{t}` call")));
        out.extend(
            self.rules
                .iter()
                .map(|r| format!("commands matching `{r}`")),
        );
        out.extend(self.commands.iter().map(|c| format!("the command `{c}`")));
        out.extend(
            self.edit_paths
                .iter()
                .map(|p| format!("edits of {}", p.display())),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shell_always(command: &str) -> Always {
        let ctx = PatternContext::new()
            .with_project_dir("/p")
            .with_working_dir("/p");
        Always::for_call(
            "exec_shell",
            CallKind::Mutating,
            &json!({ "command": command }),
            None,
            &ctx,
            &ctx.shell_context(),
        )
    }

    #[test]
    fn a_command_is_remembered_as_its_program_and_subcommand_unless_it_is_risky() {
        let cases = [
            "git status --short",
            "cargo test --all 2>&1 | tail -3",
            "mkdir -p out && touch out/a",
            "touch notes",
            "git -c core.pager=cat log",
            "eval \"$CMD\"",
            "sed -i s/a/b/ f",
        ];
        let text: Vec<String> = cases
            .iter()
            .map(|c| format!("{c}\n  allow {}", shell_always(c).prompt_text()))
            .collect();
        insta::assert_snapshot!(text.join("\n"));
    }

    #[test]
    fn a_remembered_rule_allows_that_subcommand_only() {
        let ctx = PatternContext::new()
            .with_project_dir("/p")
            .with_working_dir("/p");
        let mut remembered = Remembered::default();
        remembered.add(shell_always("git status"), &ctx);
        remembered.add(shell_always("git -c a=b log"), &ctx);
        let allows = |c: &str| {
            remembered.allows(
                "exec_shell",
                CallKind::Mutating,
                &json!({ "command": c }),
                None,
            )
        };
        assert!(allows("git status --short"));
        assert!(allows("git -c a=b log"));
        assert!(!allows("git push"));
        assert!(!allows("git -c a=b log -p"));
        assert!(!allows("git status; rm -rf /"));
        assert_eq!(
            remembered.describe(),
            [
                "commands matching `Bash(git status:*)`",
                "the command `git -c a=b log`"
            ]
        );
    }
}
