//! `weft plugin marketplace add | list | update | remove`: the CLI side of weft-marketplace's
//! marketplace operations, and the scope and error handling `weft plugin` shares.

use std::io::Write as _;
use std::process::ExitCode;
use std::time::SystemTime;

use weft_install::Source;
use weft_marketplace::{MarketplaceError, PluginTarget, PluginTargets};
use weft_runtime::{UsageError, Workspace};
use weft_term::{fit_table, one_line, plural};

use crate::cli::{
    InstallScope, ListFormat, MarketplaceAddArgs, MarketplaceCommand, MarketplaceListArgs,
    MarketplaceRemoveArgs, MarketplaceUpdateArgs,
};
use crate::commands::install::{current_dir, fetch_options, runtime};
use crate::commands::scan::format_finding;
use crate::environment::stdout_terminal;

/// The user's plugin store, or with `project` the project's (the current directory when no
/// project is found).
pub(crate) fn plugin_target(workspace: &Workspace, project: bool) -> anyhow::Result<PluginTarget> {
    if project {
        let dir = match &workspace.project {
            Some(p) => p.clone(),
            None => current_dir(workspace)?,
        };
        return Ok(PluginTarget::project(&dir));
    }
    let home = workspace
        .home
        .as_deref()
        .ok_or_else(|| UsageError::new("no home directory (set HOME or pass --home)"))?;
    Ok(PluginTarget::user(home))
}

/// Both scopes' stores (each when there is one) and the project's trust: where a named
/// plugin is switched on or off (`weft plugin enable|disable`, the REPL's `/plugin`).
pub(crate) fn plugin_targets(workspace: &Workspace) -> PluginTargets {
    PluginTargets {
        user: plugin_target(workspace, false).ok(),
        project: plugin_target(workspace, true).ok(),
        project_trusted: workspace.trust.is_trusted(),
    }
}

/// A marketplace error as `main` reports it: a usage error for a mistake in what was asked,
/// the findings of a refusal printed first.
pub(crate) fn explain(err: MarketplaceError) -> anyhow::Error {
    if let MarketplaceError::Refused { id, findings } = &err {
        for f in findings {
            crate::output::errln!("{}", format_finding(f, id));
        }
    }
    if err.is_usage() {
        return UsageError::from_error(err).into();
    }
    err.into()
}

/// `weft plugin marketplace ...`
pub fn run(workspace: &Workspace, command: &MarketplaceCommand) -> anyhow::Result<ExitCode> {
    match command {
        MarketplaceCommand::Add(args) => add(workspace, args),
        MarketplaceCommand::List(args) => list(workspace, args),
        MarketplaceCommand::Update(args) => update(workspace, args),
        MarketplaceCommand::Remove(args) => remove(workspace, args),
    }
}

fn add(workspace: &Workspace, args: &MarketplaceAddArgs) -> anyhow::Result<ExitCode> {
    let target = plugin_target(workspace, args.scope == InstallScope::Project)?;
    let cwd = current_dir(workspace)?;
    let source = Source::parse(&args.source, &cwd).map_err(UsageError::from_error)?;
    let options = fetch_options(&target.install, workspace)?;
    let added = runtime()?
        .block_on(weft_marketplace::add_marketplace(
            &target,
            &source,
            args.reference.as_deref(),
            &options,
            SystemTime::now(),
        ))
        .map_err(explain)?;
    for w in &added.marketplace.warnings {
        crate::output::errln!("warning: {w}");
    }
    let mut out = crate::output::stdout();
    writeln!(
        out,
        "Added marketplace {} ({}){}",
        added.marketplace.name,
        plural(added.marketplace.plugins.len(), "plugin"),
        target.scope.phrase()
    )?;
    let mut from = added.record.source.location.clone();
    if let Some(commit) = &added.record.commit {
        from.push_str(&format!(
            " at {}",
            commit.chars().take(12).collect::<String>()
        ));
    }
    writeln!(out, "  from: {from}")?;
    writeln!(
        out,
        "  install one with `weft plugin install NAME@{}`{}",
        added.marketplace.name,
        if args.scope == InstallScope::Project {
            " --scope project"
        } else {
            ""
        }
    )?;
    Ok(ExitCode::SUCCESS)
}

fn list(workspace: &Workspace, args: &MarketplaceListArgs) -> anyhow::Result<ExitCode> {
    let target = plugin_target(workspace, args.scope == InstallScope::Project)?;
    let known = weft_marketplace::list_marketplaces(&target).map_err(explain)?;
    let mut out = crate::output::stdout();
    match args.format {
        ListFormat::Json => {
            writeln!(out, "{}", crate::output::json_pretty(&known)?)?;
        }
        ListFormat::Table if known.is_empty() => {
            writeln!(
                out,
                "No marketplaces{}; add one with `weft plugin marketplace add SOURCE`.",
                target.scope.phrase()
            )?;
        }
        ListFormat::Table => {
            let mut rows = Vec::new();
            for m in &known {
                let plugins = match (&m.marketplace, &m.error) {
                    (Some(file), _) => file
                        .plugins
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    (None, Some(e)) => format!("(does not load: {})", one_line(e)),
                    (None, None) => String::new(),
                };
                rows.push(vec![
                    m.name.clone(),
                    m.record.source.location.clone(),
                    m.record
                        .commit
                        .as_deref()
                        .map_or_else(|| "local".to_owned(), |c| c.chars().take(12).collect()),
                    plugins,
                ]);
            }
            out.write_all(
                fit_table(
                    &["NAME", "SOURCE", "COMMIT", "PLUGINS"],
                    &rows,
                    stdout_terminal().width,
                )
                .as_bytes(),
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn update(workspace: &Workspace, args: &MarketplaceUpdateArgs) -> anyhow::Result<ExitCode> {
    let target = plugin_target(workspace, args.scope == InstallScope::Project)?;
    let names: Vec<String> = match &args.name {
        Some(n) => vec![n.clone()],
        None => weft_marketplace::list_marketplaces(&target)
            .map_err(explain)?
            .into_iter()
            .map(|m| m.name)
            .collect(),
    };
    let options = fetch_options(&target.install, workspace)?;
    let rt = runtime()?;
    let mut out = crate::output::stdout();
    if names.is_empty() {
        writeln!(out, "No marketplaces{}.", target.scope.phrase())?;
    }
    for name in names {
        let update = rt
            .block_on(weft_marketplace::update_marketplace(
                &target,
                &name,
                &options,
                SystemTime::now(),
            ))
            .map_err(explain)?;
        let short = |c: &Option<String>| {
            c.as_deref()
                .map_or_else(|| "local".to_owned(), |c| c.chars().take(12).collect())
        };
        if update.changed {
            writeln!(
                out,
                "{name}: {} -> {} (installed plugins are unchanged: `weft plugin update PLUGIN`)",
                short(&update.old_commit),
                short(&update.new_commit)
            )?;
        } else {
            writeln!(out, "{name}: up to date ({})", short(&update.new_commit))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Removes a marketplace and, as Claude Code does, the plugins installed from it: they are
/// listed and asked about first (or `--yes`).
fn remove(workspace: &Workspace, args: &MarketplaceRemoveArgs) -> anyhow::Result<ExitCode> {
    let target = plugin_target(workspace, args.scope == InstallScope::Project)?;
    let plugins = weft_marketplace::installed_from(&target, &args.name).map_err(explain)?;
    if !plugins.is_empty() {
        crate::output::outln!(
            "Removing marketplace {} also removes the {} installed from it{}: {}",
            args.name,
            plural(plugins.len(), "plugin"),
            target.scope.phrase(),
            plugins.join(", ")
        );
        let question = format!(
            "Remove {} and {}?",
            args.name,
            plural(plugins.len(), "plugin")
        );
        if !crate::commands::plugin::approve(&question, args.yes, "removed", "what goes") {
            return Ok(ExitCode::FAILURE);
        }
    }
    let removed =
        weft_marketplace::remove_marketplace(&target, &args.name, &plugins).map_err(explain)?;
    crate::output::outln!(
        "Removed marketplace {} (from {}){}",
        args.name,
        removed.record.source.location,
        target.scope.phrase()
    );
    for id in &removed.plugins {
        crate::output::outln!("Removed {id}{}", target.scope.phrase());
    }
    Ok(ExitCode::SUCCESS)
}
