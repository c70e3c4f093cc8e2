//! `weft plugin install | list | enable | disable | update | remove | verify`: the CLI side
//! of weft-marketplace (arguments, what is shown before a plugin is installed, asking,
//! printing) and of the workspace's [`PluginSet`] (what is installed and in use).

mod install;

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;
use weft_install::VerifyStatus;
use weft_marketplace::{MarketplaceError, PluginTarget, Scope};
use weft_plugin::{PluginScope, PluginSet};
use weft_runtime::Workspace;
use weft_term::{one_line, plural};

use install::{install, update};

use crate::cli::{
    InstallScope, ListFormat, PluginCommand, PluginIdArgs, PluginListArgs, PluginVerifyArgs,
    ReportFormat,
};
use crate::commands::install::confirm;
use crate::commands::marketplace::{explain, plugin_target, plugin_targets};
use crate::environment::stdout_terminal;

/// `weft plugin ...`
pub fn run(workspace: &Workspace, command: &PluginCommand) -> anyhow::Result<ExitCode> {
    match command {
        PluginCommand::Marketplace { command } => {
            crate::commands::marketplace::run(workspace, command)
        }
        PluginCommand::Install(args) => install(workspace, args),
        PluginCommand::List(args) => list(workspace, args),
        PluginCommand::Enable(args) => set_enabled(workspace, args, true),
        PluginCommand::Disable(args) => set_enabled(workspace, args, false),
        PluginCommand::Update(args) => update(workspace, args),
        PluginCommand::Remove(args) => remove(workspace, args),
        PluginCommand::Verify(args) => verify(workspace, args),
    }
}

/// The installed plugin `id` (`name@marketplace`, or a name only one plugin has) and the
/// store it is in: with `project`, the project's.
pub(super) fn resolve(
    workspace: &Workspace,
    id: &str,
    project: bool,
) -> anyhow::Result<(PluginTarget, String, Option<PluginScope>)> {
    let named =
        weft_marketplace::find_installed(workspace.plugins(), id, project).map_err(explain)?;
    let target = plugin_target(workspace, named.in_project(project))?;
    Ok((target, named.id, named.scope))
}

/// Asks `question` on the terminal unless `yes`; without a terminal, says why nothing
/// happened (`shown`: what was printed to decide on) and returns false.
pub(crate) fn approve(question: &str, yes: bool, refused: &str, shown: &str) -> bool {
    if yes {
        return true;
    }
    if crate::output::stdin_is_terminal() && crate::output::stderr_is_terminal() {
        if confirm(question) {
            return true;
        }
        crate::output::errln!("Not {refused}.");
        return false;
    }
    crate::output::errln!(
        "error: not {refused}: there is no terminal to ask on; read {shown} above and rerun with --yes to agree"
    );
    false
}

fn list(workspace: &Workspace, args: &PluginListArgs) -> anyhow::Result<ExitCode> {
    let set: &PluginSet = workspace.plugins();
    for w in &set.warnings {
        crate::output::errln!("warning: {w}");
    }
    let mut out = crate::output::stdout();
    match args.format {
        ListFormat::Json => writeln!(out, "{}", crate::output::json_pretty(set)?)?,
        ListFormat::Table => {
            out.write_all(weft_repl::plugins_listing(set, stdout_terminal().width).as_bytes())?
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn set_enabled(workspace: &Workspace, args: &PluginIdArgs, on: bool) -> anyhow::Result<ExitCode> {
    let switched = plugin_targets(workspace)
        .switch(
            workspace.plugins(),
            &args.id,
            args.scope == Some(InstallScope::Project),
            on,
        )
        .map_err(explain)?;
    match args.format {
        ReportFormat::Text => crate::output::outln!("{switched}"),
        ReportFormat::Json => crate::output::outln!(
            "{}",
            crate::output::json_pretty(&json!({
                "id": switched.id,
                "enabled": switched.on,
                "scope": scope_name(switched.scope),
                "claude_code": switched.claude_code,
                "waits_for_trust": switched.waits_for_trust,
            }))?
        ),
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn owned_by_claude_code(
    scope: Option<PluginScope>,
    id: &str,
    action: &str,
) -> anyhow::Result<()> {
    if matches!(scope, Some(PluginScope::ClaudeCode(_))) {
        return Err(explain(MarketplaceError::ClaudeCodeOwned {
            id: id.to_owned(),
            action: action.to_owned(),
        }));
    }
    Ok(())
}

fn remove(workspace: &Workspace, args: &PluginIdArgs) -> anyhow::Result<ExitCode> {
    let (target, id, scope) = resolve(
        workspace,
        &args.id,
        args.scope == Some(InstallScope::Project),
    )?;
    owned_by_claude_code(scope, &id, "uninstall")?;
    let record = weft_marketplace::remove_plugin(&target, &id).map_err(explain)?;
    match args.format {
        ReportFormat::Text => crate::output::outln!(
            "Removed {id}{} (installed from {})",
            target.scope.phrase(),
            record.source.location
        ),
        ReportFormat::Json => crate::output::outln!(
            "{}",
            crate::output::json_pretty(&json!({
                "removed": id,
                "scope": scope_name(target.scope),
                "source": record.source,
                "commit": record.commit,
            }))?
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(workspace: &Workspace, args: &PluginVerifyArgs) -> anyhow::Result<ExitCode> {
    let mut targets = Vec::new();
    if workspace.project.is_some() {
        targets.push(plugin_target(workspace, true)?);
    }
    if workspace.home.is_some() {
        targets.push(plugin_target(workspace, false)?);
    }
    let mut results = Vec::new();
    for target in &targets {
        for v in weft_marketplace::verify_plugins(target).map_err(explain)? {
            results.push((target.scope, v));
        }
    }
    let intact = results.iter().all(|(_, v)| v.status.is_intact());
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            let items: Vec<_> = results
                .iter()
                .map(|(scope, v)| json!({"scope": scope_name(*scope), "plugin": v}))
                .collect();
            writeln!(out, "{}", crate::output::json_pretty(&items)?)?;
        }
        ReportFormat::Text if results.is_empty() => {
            writeln!(out, "No plugins installed by weft.")?;
        }
        ReportFormat::Text => {
            for (scope, v) in &results {
                writeln!(
                    out,
                    "{} ({}): {}",
                    v.id,
                    scope_name(*scope),
                    describe(&v.status)
                )?;
            }
            if !intact {
                let bad = results
                    .iter()
                    .filter(|(_, v)| !v.status.is_intact())
                    .count();
                writeln!(
                    out,
                    "{} not as installed: reinstall (`weft plugin remove` then `install`) or update.",
                    plural(bad, "plugin")
                )?;
            }
        }
    }
    Ok(if intact {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub(super) fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "user",
        Scope::Project => "project",
    }
}

fn describe(status: &VerifyStatus) -> String {
    match status {
        VerifyStatus::Intact => "intact".to_owned(),
        VerifyStatus::Missing => "MISSING (its directory is gone)".to_owned(),
        VerifyStatus::Unreadable { reason } => format!("UNREADABLE: {}", one_line(reason)),
        VerifyStatus::Tampered {
            modified,
            missing,
            extra,
        } => super::verify::tampered_text(modified, missing, extra),
    }
}
