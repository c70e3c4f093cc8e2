//! `/agents`, `/agent <name>` and `/model <name>`.

use async_trait::async_trait;
use weft_types::suggest::{closest_names, did_you_mean};

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};
use weft_term::{fit_table, one_line, scope_label};

/// `/agents`: every agent, the active one marked.
pub(crate) struct Agents;

/// The columns of `/agents` (the marker of the active agent is part of the name).
const LIST_HEADER: [&str; 4] = ["  NAME", "MODEL", "SCOPE", "DESCRIPTION"];

#[async_trait]
impl SlashCommand for Agents {
    fn name(&self) -> &str {
        "agents"
    }

    fn description(&self) -> &str {
        "List available agents"
    }

    fn help(&self) -> &str {
        "Lists every agent (project, personal and built-in; the highest precedence per name): \
         name, model, scope, description. The active agent is marked with *."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let active = ctx.session.agent().name.clone();
        let rows: Vec<Vec<String>> = ctx
            .env
            .agents
            .list()
            .map(|entry| {
                let a = &entry.agent;
                let mark = if a.name == active { "* " } else { "  " };
                vec![
                    format!("{mark}{}", a.name),
                    a.model
                        .clone()
                        .unwrap_or_else(|| "(config default)".to_owned()),
                    scope_label(a.source.scope).to_owned(),
                    one_line(&a.description),
                ]
            })
            .collect();
        write!(ctx.out, "{}", fit_table(&LIST_HEADER, &rows, ctx.width))?;
        writeln!(ctx.out, "/agent <name> switches; /agent default goes back.")?;
        Ok(Dispatch::Handled)
    }
}

/// `/agent <name>`: switches agent (model, tools, prompt).
pub(crate) struct AgentCommand;

#[async_trait]
impl SlashCommand for AgentCommand {
    fn name(&self) -> &str {
        "agent"
    }

    fn description(&self) -> &str {
        "Switch to a named agent (/agent default goes back)"
    }

    fn usage(&self) -> &str {
        "<name>"
    }

    fn help(&self) -> &str {
        "Applies the agent's model, temperature, tool limits, preloaded skills and system \
         prompt to the rest of the session; the conversation so far is kept. A model chosen \
         with --model stays. `/agent default` restores the default agent. Without a name, \
         prints the active agent."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        if args.is_empty() {
            writeln!(
                ctx.out,
                "Agent: {} ({})",
                ctx.session.agent().name,
                ctx.session.model()
            )?;
            return Ok(Dispatch::Handled);
        }
        let Some(entry) = ctx.env.agents.get(args) else {
            let suggestions = closest_names(args, ctx.env.agents.names());
            let end = if suggestions.is_empty() { "." } else { "" };
            return Err(CommandError::Usage(format!(
                "Agent '{args}' not found{}{end} Run /agents to see available agents.",
                did_you_mean(&suggestions)
            )));
        };
        ctx.session.apply_agent(entry.agent.clone(), None)?;
        writeln!(
            ctx.out,
            "Switched to agent: {} ({})",
            ctx.session.agent().name,
            ctx.session.model()
        )?;
        // An untrusted project's agent: what it overrides, what was lowered.
        for d in entry
            .diagnostics
            .iter()
            .filter(|d| weft_agents::is_trust_warning(d))
        {
            writeln!(ctx.out, "warning[{}]: {}", d.code, d.message)?;
        }
        Ok(Dispatch::Handled)
    }

    fn completions(&self, partial: &str, names: &CompletionContext) -> Vec<String> {
        crate::command::starting_with(partial, names.agents.iter().map(String::as_str))
    }
}

/// `/model <name>`: switches model for the rest of the session.
pub(crate) struct Model;

#[async_trait]
impl SlashCommand for Model {
    fn name(&self) -> &str {
        "model"
    }

    fn description(&self) -> &str {
        "Switch model"
    }

    fn usage(&self) -> &str {
        "<provider/model|alias>"
    }

    fn help(&self) -> &str {
        "Uses this model for the rest of the session with the current agent. The name is a \
         configured provider/model string or an alias; an unconfigured provider is refused \
         before anything is sent. Without a name, prints the model in effect."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        if args.is_empty() {
            writeln!(ctx.out, "Model: {}", ctx.session.model())?;
            return Ok(Dispatch::Handled);
        }
        let resolved = ctx
            .env
            .models
            .resolve(args, Some(ctx.session.model()))
            .map_err(|e| CommandError::Usage(e.to_string()))?;
        let agent = ctx.session.agent().clone();
        ctx.session.apply_agent(agent, Some(args))?;
        writeln!(ctx.out, "Switched to model: {resolved}")?;
        Ok(Dispatch::Handled)
    }
}
