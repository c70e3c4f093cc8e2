//! `/workspace` and `/reload`.

use std::path::Path;

use async_trait::async_trait;

use crate::command::{CommandContext, CommandError, Dispatch, SlashCommand};
use weft_term::tilde;

/// `/workspace`: paths, skill and agent counts, shadowed skills.
pub(crate) struct WorkspaceCommand;

fn state(path: &Path) -> &'static str {
    if path.exists() { "" } else { "  (absent)" }
}

#[async_trait]
impl SlashCommand for WorkspaceCommand {
    fn name(&self) -> &str {
        "workspace"
    }

    fn description(&self) -> &str {
        "Show workspace info"
    }

    fn help(&self) -> &str {
        "Prints the project and home directories, the skill and agent directories in \
         precedence order, the configuration files, how many skills and agents were found, \
         and which skills hide a lower-precedence copy."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let ws = &ctx.env.workspace;
        let home = ws.home.as_deref();
        let show = |p: Option<&Path>| p.map_or_else(|| "(none)".to_owned(), |p| tilde(p, home));
        let out = &mut *ctx.out;
        writeln!(out, "Project: {}", show(ws.project.as_deref()))?;
        writeln!(
            out,
            "Home: {}",
            ws.home
                .as_deref()
                .map_or_else(|| "(none)".to_owned(), |p| p.display().to_string())
        )?;
        writeln!(out, "Workspace: {}", show(ws.clawft_workspace.as_deref()))?;
        let skills = ctx.session.skills();
        writeln!(out, "Skill directories (highest precedence first):")?;
        for root in &skills.config().roots {
            writeln!(
                out,
                "  {:<9} {}{}",
                root.scope.to_string(),
                tilde(&root.path, home),
                state(&root.path)
            )?;
        }
        writeln!(out, "Agent directories:")?;
        for root in &ws.agent_roots {
            writeln!(
                out,
                "  {:<9} {}{}",
                root.scope.to_string(),
                tilde(&root.path, home),
                state(&root.path)
            )?;
        }
        writeln!(out, "Config files (merge order):")?;
        for file in &ws.config_files {
            writeln!(out, "  {}{}", tilde(file, home), state(file))?;
        }
        if let Some(m) = &ws.memory_file {
            writeln!(out, "Memory: {}", tilde(m, home))?;
        }
        if let Some(h) = &ws.history_file {
            writeln!(out, "History: {}", tilde(h, home))?;
        }
        let snapshot = skills.snapshot();
        let user = snapshot.user_invocable().count();
        writeln!(
            out,
            "Skills: {} ({user} user-invocable); agents: {}",
            snapshot.len(),
            ctx.env.agents.list().count()
        )?;
        let shadowing: Vec<_> = snapshot
            .entries()
            .iter()
            .filter(|e| !e.shadows.is_empty())
            .collect();
        if shadowing.is_empty() {
            writeln!(out, "Shadowed skills: none")?;
        } else {
            writeln!(out, "Shadowed skills:")?;
            for entry in shadowing {
                let hidden: Vec<String> =
                    entry.shadows.iter().map(|s| s.scope.to_string()).collect();
                writeln!(
                    out,
                    "  {} ({}) hides the {} copy",
                    entry.name(),
                    entry.skill.source.scope,
                    hidden.join(" and ")
                )?;
            }
        }
        Ok(Dispatch::Handled)
    }
}

/// `/reload`: reads the skill directories again.
pub(crate) struct Reload;

#[async_trait]
impl SlashCommand for Reload {
    fn name(&self) -> &str {
        "reload"
    }

    fn description(&self) -> &str {
        "Reload skills from disk"
    }

    fn help(&self) -> &str {
        "Reads every skill directory again, so new, changed and removed skills take effect \
         for the next message. A skill whose file became invalid keeps its last good version."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let before = ctx.session.skills().snapshot().len();
        let after = ctx.session.skills().reload();
        writeln!(
            ctx.out,
            "Reloaded skills: {} (was {before}); {} user-invocable; {} diagnostic(s).",
            after.len(),
            after.user_invocable().count(),
            after.diagnostics().len()
        )?;
        Ok(Dispatch::Handled)
    }
}
