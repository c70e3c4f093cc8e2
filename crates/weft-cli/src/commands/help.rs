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
use crate::environment::stdout_terminal;
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
                workspace
                    .clawft_workspace()
                    .map(|w| w.join(weft_runtime::MEMORY_FILE_NAME)),
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
        width: stdout_terminal().width,
    }
}

/// `weft help [topic...]`: a slash command (`/agent`), a topic (`skills`), a command
/// (`agent`, `skills list`: its `--help`), or a slash command named without its slash
/// (`model`, when no command has that name).
pub fn help(workspace: &Workspace, words: &[String]) -> Result<ExitCode> {
    let registry = CommandRegistry::builtin();
    let Some(first) = words.first() else {
        let cli = Cli::command();
        let commands: Vec<(String, String)> = cli
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| {
                let about = c.get_about().map(ToString::to_string).unwrap_or_default();
                (c.get_name().to_owned(), about)
            })
            .collect();
        out!("{}", general(&registry, &commands, stdout_terminal().width));
        return Ok(ExitCode::SUCCESS);
    };
    let is_topic = TOPICS.iter().any(|(n, _)| n == first);
    if words.len() == 1 && (first.starts_with('/') || is_topic) {
        return print_topic(first, &registry, workspace);
    }
    if let Some(text) = command_help(words) {
        out!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    if words.len() == 1 && registry.get(first).is_some() {
        return print_topic(first, &registry, workspace);
    }
    Err(unknown(&words.join(" "), &registry))
}

/// What `weft <words> --help` prints, when `words` name a command.
fn command_help(words: &[String]) -> Option<String> {
    let mut cmd = crate::cli::command();
    let mut at = &mut cmd;
    for word in words {
        at = at.find_subcommand_mut(word).filter(|s| !s.is_hide_set())?;
    }
    // Parsing `--help` renders exactly what the flag shows (long or short layout).
    let argv = std::iter::once("weft")
        .chain(words.iter().map(String::as_str))
        .chain(["--help"]);
    match cmd.try_get_matches_from(argv) {
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => Some(e.render().to_string()),
        _ => None,
    }
}

fn print_topic(name: &str, registry: &CommandRegistry, workspace: &Workspace) -> Result<ExitCode> {
    match topic(name, registry, &help_data(workspace)) {
        Some(text) => {
            out!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        None => Err(unknown(name, registry)),
    }
}

/// No topic, command or slash command has this name: the ways to ask, and the closest names
/// among all three.
fn unknown(name: &str, registry: &CommandRegistry) -> anyhow::Error {
    let names: Vec<&str> = TOPICS.iter().map(|(n, _)| *n).collect();
    let cli = Cli::command();
    let known = names
        .iter()
        .copied()
        .chain(registry.iter().map(|c| c.name()))
        .chain(
            cli.get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(clap::Command::get_name),
        );
    UsageError::new(format!(
        "no help for `{name}`; topics: {}; or a command (`weft help agent`) or a slash command (`weft help /agent`){}",
        names.join(", "),
        did_you_mean(&closest_names(name.trim_start_matches('/'), known))
    ))
    .into()
}

/// Bare `weft`: the interactive session on a terminal; otherwise the help on stdout and
/// status 2 (nothing was asked for: a script calling `weft` alone is a mistake to surface).
pub fn bare(workspace: &Workspace, mode: Option<weft_types::PermissionMode>) -> Result<ExitCode> {
    if crate::output::stdin_is_terminal() && crate::output::stdout_is_terminal() {
        return crate::commands::repl::run(workspace, &crate::cli::RunArgs::default(), mode, None);
    }
    out!("{}", crate::cli::command().render_long_help());
    Ok(ExitCode::from(2))
}

/// `weft completions <shell>`: the shell completion script on stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode> {
    let mut cli = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cli, "weft", &mut buf);
    out!("{}", String::from_utf8_lossy(&buf));
    Ok(ExitCode::SUCCESS)
}
