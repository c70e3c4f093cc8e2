//! Explaining a decision: the simple commands of a shell call and what each rule says about
//! them (`weft skills check-tool -v`).

use serde_json::Value;

use super::shell::{self, AllowRuling};
use super::{Decision, ToolGate};
use crate::name::ToolName;
use crate::{Effect, Origin, Policy};
use weft_shell::{CommandAnalysis, Risk, SimpleCommand};

/// A gate decision with the analysis behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// What [`ToolGate::check`] decides.
    pub decision: Decision,
    /// The analysed command, for an `exec_shell` call that scoped `Bash(...)` patterns judge.
    pub analysis: Option<CommandAnalysis>,
    /// For each simple command of `analysis`, in order: what the rules say about it.
    pub commands: Vec<CommandRulings>,
}

/// What the rules say about one simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandRulings {
    /// The command as found, with where it was found: "`rm -rf x` (in `sh -c`)".
    pub command: String,
    /// One line per rule that decided something about it, e.g. "allowed by `Bash(git:*)` from
    /// skill 'git-helper'", "read-only helper", "matches no allow of skill 'x'".
    pub rulings: Vec<String>,
}

pub(super) fn explain(gate: &ToolGate, tool: &str, input: &Value) -> Explanation {
    let decision = gate.check(tool, input);
    let name = ToolName::new(tool);
    let judged = *name.canonical == *shell::SHELL_TOOL
        && gate
            .layers()
            .any(|l| l.deny().has_scoped(&name) || l.allow().is_some_and(|a| a.has_scoped(&name)));
    let analysis = judged
        .then(|| shell::analyse_call(input, gate.shell_context()).ok())
        .flatten();
    let commands = analysis
        .iter()
        .flat_map(|analysis| {
            analysis
                .commands()
                .iter()
                .enumerate()
                .map(move |(i, command)| (analysis, i, command))
        })
        .map(|(analysis, i, command)| CommandRulings {
            command: command.describe(),
            rulings: gate
                .layers()
                .flat_map(|l| rulings(l, &name, command, unseen_risk(analysis, i)))
                .collect(),
        })
        .collect();
    Explanation {
        decision,
        analysis,
        commands,
    }
}

/// The first risk of the command at `index` that may run a program the analyser cannot see.
fn unseen_risk(analysis: &CommandAnalysis, index: usize) -> Option<&Risk> {
    analysis
        .risks()
        .iter()
        .find(|r| r.command_index() == Some(index) && r.runs_unseen_program())
}

/// What one layer says about one command.
fn rulings(
    layer: &Policy,
    name: &ToolName<'_>,
    command: &SimpleCommand,
    unseen: Option<&Risk>,
) -> Vec<String> {
    let mut out = Vec::new();
    let deny = layer.deny();
    let scoped = deny.scoped_for(name);
    if let Some(i) = deny.name_hit(name, Effect::Deny) {
        let (pattern, origin) = deny.entry(i);
        out.push(format!("denied by `{pattern}` from {origin}"));
    } else if let Some((i, why)) = shell::deny_ruling(deny, &scoped, command) {
        let (pattern, origin) = deny.entry(i);
        out.push(match why {
            None => format!("denied by `{pattern}` from {origin}"),
            Some(why) => format!("could match the denied `{pattern}` from {origin} ({why})"),
        });
    } else if let (Some(risk), Some(&first)) = (unseen, scoped.first()) {
        let (pattern, origin) = deny.entry(first);
        out.push(format!(
            "denied: {risk}, and what it runs could match the denied `{pattern}` from {origin}"
        ));
    } else if !scoped.is_empty() {
        out.push(format!(
            "matches none of the denied {}",
            shell::rules(deny, &scoped)
        ));
    }
    let Some(allow) = layer.allow() else {
        return out;
    };
    if let Some(i) = allow.name_hit(name, Effect::Allow) {
        let (pattern, origin) = allow.entry(i);
        out.push(format!("allowed by `{pattern}` from {origin}"));
        return out;
    }
    let grantors = super::list(layer.grantors().map(Origin::to_string), "the policy");
    out.push(
        match shell::allow_ruling(allow, &allow.scoped_for(name), command) {
            AllowRuling::Matched(i) => {
                let (pattern, origin) = allow.entry(i);
                format!("allowed by `{pattern}` from {origin}")
            }
            AllowRuling::Runner => "runs a string that is judged as commands of its own".to_owned(),
            AllowRuling::FunctionCall => "calls a function defined in the command".to_owned(),
            AllowRuling::Helper => format!("read-only helper, accepted by {grantors}"),
            AllowRuling::Unsure(i, why) => {
                let (pattern, origin) = allow.entry(i);
                format!("may match `{pattern}` from {origin} ({why})")
            }
            AllowRuling::Unmatched => format!("matches no allow of {grantors}"),
        },
    );
    out
}
