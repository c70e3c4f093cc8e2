//! `/tools`: the tools the model is offered now, and those hidden by the agent or a skill.

use async_trait::async_trait;
use weft_permissions::{Policy, ToolGate};

use crate::command::{CommandContext, CommandError, Dispatch, SlashCommand};
use weft_term::{fit_columns, one_line};

/// `/tools`.
pub(crate) struct Tools;

/// Who hides `tool` in `gate`: the first layer that alone would hide it.
fn hidden_by(gate: &ToolGate, tool: &str) -> String {
    let layer = gate
        .layers()
        .find(|l| !ToolGate::new([(*l).clone()]).tool_visible(tool));
    match layer {
        Some(policy) => describe(policy),
        None => "the session".to_owned(),
    }
}

fn describe(policy: &Policy) -> String {
    let origin = policy
        .grantors()
        .next()
        .or_else(|| policy.deny().iter().next().map(|(_, o)| o));
    match origin {
        Some(weft_permissions::Origin::Session) | None => "config tools.deny".to_owned(),
        Some(o) => o.to_string(),
    }
}

#[async_trait]
impl SlashCommand for Tools {
    fn name(&self) -> &str {
        "tools"
    }

    fn description(&self) -> &str {
        "List the tools the model may use now"
    }

    fn help(&self) -> &str {
        "Lists the tools offered to the model with the active agent (and skill, while one is \
         active), then the runtime's other tools with what hides them: the agent's tools or \
         disallowed_tools, a skill's allowed-tools, or the configuration's tools.deny."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let offered = ctx.session.offered_tools();
        let gate = ctx.session.gate().clone();
        let hidden: Vec<(String, String)> = ctx
            .session
            .tools()
            .names()
            .filter(|t| !offered.iter().any(|o| o.name == *t))
            .map(|t| (t.to_owned(), hidden_by(&gate, t)))
            .collect();
        let narrowed = !hidden.is_empty();
        writeln!(
            ctx.out,
            "Tools offered to agent {} ({} offered, {} hidden):",
            ctx.session.agent().name,
            offered.len(),
            hidden.len()
        )?;
        let rows: Vec<Vec<String>> = offered
            .iter()
            .map(|t| vec![format!("  {}", t.name), one_line(&t.description)])
            .collect();
        write!(ctx.out, "{}", fit_columns(&rows, ctx.width))?;
        if narrowed {
            writeln!(ctx.out, "Hidden:")?;
            let rows: Vec<Vec<String>> = hidden
                .into_iter()
                .map(|(t, by)| vec![format!("  - {t}"), format!("(hidden by {by})")])
                .collect();
            write!(ctx.out, "{}", fit_columns(&rows, ctx.width))?;
        }
        if !ctx.session.active_skills().is_empty() {
            writeln!(
                ctx.out,
                "Active skills: {}",
                ctx.session.active_skills().join(", ")
            )?;
        }
        Ok(Dispatch::Handled)
    }
}
