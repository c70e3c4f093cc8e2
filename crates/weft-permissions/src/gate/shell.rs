//! `exec_shell` calls under scoped `Bash(...)` patterns: the command is analysed once, then
//! each layer's patterns are compared with every simple command in it.
//!
//! * **Deny**: any simple command anywhere that matches (or may match) a deny pattern denies
//!   the call; so does, when the layer has a scoped deny, a part that cannot be analysed or
//!   an option, setting or variable that may run a program the analyser cannot see
//!   (`awk 'BEGIN{system(...)}'`, `git -c core.hooksPath=...`, `LD_PRELOAD=`): either could
//!   reach a denied program.
//! * **Allow**: every simple command must match an allow pattern of the layer (or be a
//!   read-only helper, a call of a function defined in the command, or a `sh -c` / `eval`
//!   whose string was analysed). A command that matches none denies the call; a command that
//!   may match, a part that cannot be analysed, or a risky option makes the layer ask.

use serde_json::Value;

use crate::name::ToolName;
use crate::spec::command::{CommandSpec, Judgement, KEYS};
use crate::spec::{Specifier, Why, scalar};
use crate::{Effect, PatternSet, ToolPattern};
use weft_shell::{CommandAnalysis, ShellContext, SimpleCommand};

/// The tool whose calls are analysed.
pub(crate) const SHELL_TOOL: &str = weft_types::tool_names::EXEC_SHELL;

/// The call's command analysed (with the call's `cwd`), or why it cannot be read.
pub(crate) fn analyse_call(input: &Value, ctx: &ShellContext) -> Result<CommandAnalysis, Why> {
    let command = scalar(input, KEYS)?;
    let ctx = match input.get("cwd").and_then(Value::as_str) {
        Some(cwd) if !cwd.is_empty() => ctx.clone().with_cwd(cwd),
        _ => ctx.clone(),
    };
    Ok(weft_shell::analyse_command(&command, &ctx))
}

fn command_spec(pattern: &ToolPattern) -> Option<&CommandSpec> {
    match pattern.specifier()? {
        Specifier::Command(spec) => Some(spec),
        _ => None,
    }
}

/// What one layer's allow patterns say about one simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AllowRuling {
    /// The pattern at this index matches.
    Matched(usize),
    /// `sh -c`, `eval`, `trap`, `alias`: what it runs is judged on its own.
    Runner,
    /// A call of a function defined in the command (its body is judged on its own).
    FunctionCall,
    /// A read-only helper.
    Helper,
    /// The pattern at this index may match; why it is uncertain.
    Unsure(usize, String),
    /// No pattern matches.
    Unmatched,
}

/// The ruling of the scoped allow patterns `scoped` of `set` on `command`.
pub(crate) fn allow_ruling(
    set: &PatternSet,
    scoped: &[usize],
    command: &SimpleCommand,
) -> AllowRuling {
    // What runs as another user (`sudo sh -c '...'`) is judged as the runner itself.
    if command.runs_analysed_string() && command.other_user().is_none() {
        return AllowRuling::Runner;
    }
    if command.calls_defined_function() {
        return AllowRuling::FunctionCall;
    }
    let mut unsure = None;
    for &i in scoped {
        let Some(spec) = command_spec(set.entry(i).0) else {
            continue;
        };
        match spec.judge(command, Effect::Allow) {
            Judgement::Match => return AllowRuling::Matched(i),
            Judgement::Unsure(why) => {
                unsure.get_or_insert((i, why));
            }
            Judgement::NoMatch => {}
        }
    }
    if command.is_read_only_helper() {
        return AllowRuling::Helper;
    }
    match unsure {
        Some((i, why)) => AllowRuling::Unsure(i, why),
        None => AllowRuling::Unmatched,
    }
}

/// The first scoped deny pattern of `set` that matches `command` (`None` for the reason) or
/// may match it (`Some(why)`).
pub(crate) fn deny_ruling(
    set: &PatternSet,
    scoped: &[usize],
    command: &SimpleCommand,
) -> Option<(usize, Option<String>)> {
    let mut unsure = None;
    for &i in scoped {
        let Some(spec) = command_spec(set.entry(i).0) else {
            continue;
        };
        match spec.judge(command, Effect::Deny) {
            Judgement::Match => return Some((i, None)),
            Judgement::Unsure(why) => {
                unsure.get_or_insert((i, Some(why)));
            }
            Judgement::NoMatch => {}
        }
    }
    unsure
}

/// Why the scoped `Bash` denies of `set` forbid the call, if they do.
pub(crate) fn deny_reason(
    set: &PatternSet,
    name: &ToolName<'_>,
    analysis: &CommandAnalysis,
) -> Option<String> {
    let scoped = set.scoped_for(name);
    if scoped.is_empty() {
        return None;
    }
    for command in analysis.commands() {
        if let Some((i, why)) = deny_ruling(set, &scoped, command) {
            let (pattern, origin) = set.entry(i);
            let what = command.describe();
            return Some(match why {
                None => format!("{what} matches `{pattern}`, forbidden by {origin}"),
                Some(why) => {
                    format!("{what} could match `{pattern}` ({why}), forbidden by {origin}")
                }
            });
        }
    }
    let denies = scoped_denies(set, &scoped);
    if let Some(part) = analysis.unanalysable().first() {
        return Some(format!(
            "{part}, so the command could reach a program forbidden by {denies}"
        ));
    }
    let risk = analysis.risks().iter().find(|r| r.runs_unseen_program())?;
    Some(format!(
        "{risk}{}, and the analyser cannot see what it runs, so the command could reach a program forbidden by {denies}",
        risk_place(analysis, risk)
    ))
}

/// The scoped denies a command that cannot be seen through might reach: the one pattern with
/// its origin, or several named (none of them matched, so none is singled out).
fn scoped_denies(set: &PatternSet, scoped: &[usize]) -> String {
    const SHOWN: usize = 3;
    if let [only] = scoped {
        let (pattern, origin) = set.entry(*only);
        return format!("`{pattern}` from {origin}");
    }
    let shown: Vec<String> = scoped
        .iter()
        .take(SHOWN)
        .map(|&i| format!("`{}`", set.entry(i).0))
        .collect();
    let more = match scoped.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!("one of the scoped denies ({}{more})", shown.join(", "))
}

/// ", in `git -c x=y log`": the simple command a risk belongs to, if any.
fn risk_place(analysis: &CommandAnalysis, risk: &weft_shell::Risk) -> String {
    risk.command_index()
        .and_then(|i| analysis.commands().get(i))
        .map_or_else(String::new, |c| format!(", in {}", c.describe()))
}

/// What one layer's allow set, with scoped `Bash` patterns, says about a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LayerVerdict {
    /// Every simple command is accepted; the patterns that matched.
    Allowed(Vec<usize>),
    /// Someone must approve the call; why (the text of a [`Reason`](super::Reason)).
    Ask(String),
    /// The call is outside the layer; why (the text of a [`Reason`](super::Reason)).
    Denied(String),
}

/// The verdict of the allow set `set` on an analysed call.
pub(crate) fn allow_verdict(
    set: &PatternSet,
    name: &ToolName<'_>,
    analysis: &CommandAnalysis,
) -> LayerVerdict {
    let scoped = set.scoped_for(name);
    let mut used = Vec::new();
    let mut ask = None;
    for command in analysis.commands() {
        match allow_ruling(set, &scoped, command) {
            AllowRuling::Matched(i) => {
                if !used.contains(&i) {
                    used.push(i);
                }
            }
            AllowRuling::Runner | AllowRuling::FunctionCall | AllowRuling::Helper => {}
            AllowRuling::Unsure(i, why) => {
                if ask.is_none() {
                    let (pattern, origin) = set.entry(i);
                    ask = Some(format!(
                        "{} may not match `{pattern}` from {origin} ({why})",
                        command.describe()
                    ));
                }
            }
            AllowRuling::Unmatched => {
                return LayerVerdict::Denied(format!(
                    "{} matches none of the allowed {}",
                    command.describe(),
                    rules(set, &scoped)
                ));
            }
        }
    }
    if let Some(ask) = ask {
        return LayerVerdict::Ask(ask);
    }
    if let Some(part) = analysis.unanalysable().first() {
        return LayerVerdict::Ask(format!(
            "{part}, so the command cannot be checked against {}",
            rules(set, &scoped)
        ));
    }
    if let Some(risk) = analysis.risks().iter().find(|r| r.needs_approval()) {
        return LayerVerdict::Ask(format!("{risk}{}", risk_place(analysis, risk)));
    }
    LayerVerdict::Allowed(used)
}

/// "`Bash(git:*)` from skill 'x', `Bash(ls *)` from the session".
pub(crate) fn rules(set: &PatternSet, indices: &[usize]) -> String {
    let items = indices.iter().map(|&i| {
        let (pattern, origin) = set.entry(i);
        format!("`{pattern}` from {origin}")
    });
    super::list(items, "none")
}
