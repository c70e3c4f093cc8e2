//! `weft agent` without `-m` on a terminal: the interactive session (weft-repl) wired to this
//! workspace's configuration, skills, agents and tools.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use weft_repl::{LineEditor, PluginEnv, PromptApprover, Repl, ReplEnv, WorkspaceInfo};
use weft_types::PermissionMode;

use crate::cli::{RunArgs, RunFormat};
use crate::commands::run::{load_runtime, start, start_mcp, status_line, tokio_runtime};
use crate::environment::{stderr_terminal, stdout_terminal};
use weft_runtime::Workspace;
use weft_runtime::{EffectiveConfig, UsageError};

use crate::signals::{Exits, kill_groups_on_exit};

/// How many of the last turns a resumed session shows.
const RECAP_TURNS: usize = 3;

/// The locations the REPL shows and uses.
pub fn workspace_info(workspace: &Workspace, memory_file: &Path) -> WorkspaceInfo {
    WorkspaceInfo {
        project: workspace.project.clone(),
        home: workspace.home.clone(),
        clawft_workspace: workspace.clawft_workspace(),
        agent_roots: workspace.agent_roots(),
        memory_file: Some(memory_file.to_path_buf()),
        history_file: workspace.history_file(),
        config_files: workspace.config_files(),
    }
}

/// Where `/plugin` reads plugins and switches them: the workspace's (the set it started
/// with gives completion its names; `/plugin` reads them again each time).
fn plugin_env(workspace: &Workspace) -> PluginEnv {
    let mut env = PluginEnv {
        sources: workspace.plugin_sources(),
        targets: crate::commands::marketplace::plugin_targets(workspace),
        names: Vec::new(),
    };
    env.refresh_names(workspace.plugins());
    env
}

/// Runs the interactive session until `/exit` or Ctrl-D, starting with `first` when given;
/// calls that need approval are asked about on the terminal.
pub fn run(
    workspace: &Workspace,
    run: &RunArgs,
    mode: Option<PermissionMode>,
    first: Option<String>,
) -> Result<ExitCode> {
    if run.dry_run {
        return Err(UsageError::new(
            "--dry-run needs a message: pass -m MESSAGE or pipe it on stdin",
        )
        .into());
    }
    if run.format != RunFormat::Text {
        return Err(UsageError::new(
            "--format json and stream-json need a message: pass -m MESSAGE or pipe it on stdin",
        )
        .into());
    }
    let runtime = load_runtime(workspace, mode)?;
    let status = status_line(stderr_terminal());
    start_mcp(&runtime, status.as_ref());
    let mut session = start(&runtime, run, !run.no_stream)?;
    // The question goes where the session's answers go, the status line paused meanwhile.
    let approver = PromptApprover::terminal(Box::new(crate::output::styled_stdout()))
        .with_status(status.clone());
    session.set_approver(Some(Arc::new(approver)));
    if run.resumes() {
        crate::output::outln!(
            "Resumed session {} ({} messages, agent {}, model {}). /session shows it.",
            session.id(),
            session.messages().len(),
            session.agent().name,
            session.model()
        );
        // The conversation so far, its last turns, so the next message has its context.
        let recap = weft_repl::recap(session.messages(), RECAP_TURNS);
        if !recap.is_empty() {
            crate::output::out!("{recap}");
        }
    }
    let base = runtime.base_dir()?;
    let effective = EffectiveConfig::of(&runtime)?;
    let env = ReplEnv {
        agents: runtime.agents.clone(),
        models: Arc::clone(&runtime.models),
        config: effective.to_json(),
        config_origins: crate::commands::config::origin_rows(
            &effective.settings.iter().collect::<Vec<_>>(),
            workspace.home.as_deref(),
        ),
        workspace: workspace_info(workspace, &runtime.memory_file(&base)),
        plugins: plugin_env(workspace),
    };
    let history = env.workspace.history_file.clone();
    let mut repl = Repl::new(session, env)
        .with_first_input(first)
        .with_terminal(stdout_terminal(), status)
        // Listings fit the terminal as it is when each command runs.
        .with_width(|| stdout_terminal().width);
    let mut editor =
        LineEditor::new(repl.commands.clone(), history).context("cannot start the line editor")?;
    // Everything the session prints (answers, tool lines, listings) is neutralised; only the
    // answer's Markdown and the activity's colours are styled, on a terminal only.
    let mut out = crate::output::styled_stdout();
    // Ctrl-C cancels a turn (and kills its command's group); SIGTERM and SIGHUP end weft.
    let _groups = kill_groups_on_exit(runtime.process_groups(), Exits::OnTerminate)?;
    tokio_runtime()?
        .block_on(repl.run(&mut editor, &mut out))
        .context("interactive session")?;
    Ok(ExitCode::SUCCESS)
}
