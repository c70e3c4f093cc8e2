//! `weft help [topic]` (FR-3F-040, FR-3F-052) and `weft completions <shell>`. The topics are
//! weft-repl's, built from the same command registry and data as `/help`.

use std::process::ExitCode;

use anyhow::Result;
use clap::CommandFactory;
use weft_agents::AgentRegistry;
use weft_parse::{ParseOptions, Profile};
use weft_repl::CommandRegistry;
use weft_repl::help::{HelpData, TOPICS, general, topic};
use weft_types::suggest::{closest_names, did_you_mean};

use crate::cli::Cli;
use crate::output::out;
use weft_runtime::Workspace;
use weft_runtime::{Runtime, UsageError};

/// What the topics describe for this workspace. Tools need the configuration; when it cannot
/// be loaded the tools topic lists none (the error is logged).
fn help_data(workspace: &Workspace) -> HelpData {
    let agents =
        AgentRegistry::discover(&workspace.agent_roots(), &ParseOptions::new(Profile::Load));
    let (tools, memory_file) = match Runtime::load(workspace) {
        Ok(runtime) => {
            // Help never starts MCP servers; `weft mcp list` shows their tools.
            let tools = runtime
                .local_tools()
                .map(|t| {
                    t.iter()
                        .map(|t| (t.name().to_owned(), t.description().to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            let memory = runtime.base_dir().ok().map(|b| runtime.memory_file(&b));
            (tools, memory)
        }
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "configuration not loaded for help");
            (
                Vec::new(),
                workspace.clawft_workspace().map(|w| w.join("MEMORY.md")),
            )
        }
    };
    HelpData {
        skill_roots: workspace.skill_roots(),
        agent_roots: workspace.agent_roots(),
        agents: agents
            .list()
            .map(|e| (e.agent.name.clone(), e.agent.description.clone()))
            .collect(),
        tools,
        config_files: workspace.config_files(),
        memory_file,
        history_file: workspace.history_file(),
        transcripts_dir: workspace.sessions_dir(),
        project: workspace.project.clone(),
        home: workspace.home.clone(),
    }
}

/// `weft help [topic]`.
pub fn help(workspace: &Workspace, name: Option<&str>) -> Result<ExitCode> {
    let registry = CommandRegistry::builtin();
    let Some(name) = name else {
        let cli = Cli::command();
        let commands: Vec<(String, String)> = cli
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| {
                let about = c.get_about().map(ToString::to_string).unwrap_or_default();
                (c.get_name().to_owned(), about)
            })
            .collect();
        out!("{}", general(&registry, &commands));
        return Ok(ExitCode::SUCCESS);
    };
    match topic(name, &registry, &help_data(workspace)) {
        Some(text) => {
            out!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let names: Vec<&str> = TOPICS.iter().map(|(n, _)| *n).collect();
            let known = names
                .iter()
                .copied()
                .chain(registry.iter().map(|c| c.name()));
            Err(UsageError(format!(
                "no help topic `{name}`; topics: {} (or a slash command name){}",
                names.join(", "),
                did_you_mean(&closest_names(name.trim_start_matches('/'), known))
            ))
            .into())
        }
    }
}

/// `weft completions <shell>`: the shell completion script on stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut cli = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cli, "weft", &mut buf);
    out!("{}", String::from_utf8_lossy(&buf));
    Ok(ExitCode::SUCCESS)
}
