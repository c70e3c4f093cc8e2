//! `weft plugin install | list | enable | disable | update | remove | verify`: the CLI side
//! of weft-marketplace (arguments, what is shown before a plugin is installed, asking,
//! printing) and of the workspace's [`PluginSet`] (what is installed and in use).

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::SystemTime;

use serde_json::json;
use weft_install::{Source, VerifyStatus};
use weft_marketplace::{MarketplaceError, PluginPlan, PluginTarget, Scope};
use weft_plugin::{Inactive, InstalledPlugin, PluginScope, PluginSet, PluginSettings, split_id};
use weft_runtime::{UsageError, Workspace};
use weft_term::{fit_table, one_line, plural};

use crate::cli::{
    InstallScope, ListFormat, PluginCommand, PluginIdArgs, PluginInstallArgs, PluginListArgs,
    PluginUpdateArgs, PluginVerifyArgs, ReportFormat,
};
use crate::commands::install::{confirm, fetch_options, print_findings, runtime};
use crate::commands::marketplace::{explain, plugin_target};
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

/// `enabled`, `disabled`, `untrusted project`, `broken: why`.
pub(crate) fn status(plugin: &InstalledPlugin) -> String {
    match &plugin.inactive {
        None => "enabled".to_owned(),
        Some(Inactive::Disabled) => "disabled".to_owned(),
        Some(Inactive::Untrusted) => "not used: the project is not trusted".to_owned(),
        Some(Inactive::Broken(why)) => format!("broken: {}", one_line(why)),
    }
}

/// The installed plugin `id` (`name@marketplace`, or a name only one plugin has) and the
/// store it is in: with `project`, the project's.
fn resolve(
    workspace: &Workspace,
    id: &str,
    project: bool,
) -> anyhow::Result<(PluginTarget, String, Option<PluginScope>)> {
    let set = workspace.plugins();
    let found = set
        .plugins
        .iter()
        .filter(|p| !project || p.scope == PluginScope::Project)
        .find(|p| p.id == id)
        .or_else(|| {
            let mut named = set
                .plugins
                .iter()
                .filter(|p| (!project || p.scope == PluginScope::Project) && p.name == id);
            match (named.next(), named.next()) {
                (Some(p), None) => Some(p),
                _ => None,
            }
        });
    match found {
        Some(p) => {
            let in_project = p.scope == PluginScope::Project;
            Ok((plugin_target(workspace, in_project)?, p.id.clone(), Some(p.scope)))
        }
        None if split_id(id).is_some() => Ok((plugin_target(workspace, project)?, id.to_owned(), None)),
        None => Err(UsageError::new(format!(
            "no installed plugin is named `{id}` (one that several marketplaces provide needs NAME@MARKETPLACE); `weft plugin list` lists them"
        ))
        .into()),
    }
}

/// Asks `question` on the terminal unless `yes`; without a terminal, says why nothing
/// happened and returns false.
fn approve(question: &str, yes: bool, refused: &str) -> bool {
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
        "error: not {refused}: there is no terminal to ask on; read what it brings above and rerun with --yes to agree"
    );
    false
}

/// What a plugin brings and what it will be able to run.
fn describe_plan(out: &mut impl Write, plan: &PluginPlan) -> io::Result<()> {
    let version = plan
        .version
        .as_deref()
        .map(|v| format!(" {v}"))
        .unwrap_or_default();
    let description = plan
        .description
        .as_deref()
        .map(|d| format!(": {}", one_line(d)))
        .unwrap_or_default();
    writeln!(out, "Plugin {}{version}{description}", plan.id)?;
    let mut from = plan.source.location.clone();
    if !plan.source.subpath.is_empty() {
        from.push_str(&format!(" ({})", plan.source.subpath));
    }
    if let Some(commit) = &plan.commit {
        from.push_str(&format!(
            " at {}",
            commit.chars().take(12).collect::<String>()
        ));
    }
    writeln!(out, "  from: {from}")?;
    for (label, names) in [
        ("skills", &plan.skills),
        ("commands", &plan.commands),
        ("agents", &plan.agents),
    ] {
        if !names.is_empty() {
            let named: Vec<String> = names.iter().map(|n| format!("{}:{n}", plan.name)).collect();
            writeln!(out, "  {label}: {}", named.join(", "))?;
        }
    }
    let counts = plan.scan.counts();
    if counts.total() == 0 {
        writeln!(out, "  scan: clean")?;
    } else {
        writeln!(out, "  scan: {counts}")?;
        print_findings(out, &plan.scan.findings, &plan.id)?;
    }
    for w in &plan.warnings {
        writeln!(out, "  note: {}", one_line(&w.to_string()))?;
    }
    if plan.runs.is_empty() {
        writeln!(
            out,
            "It runs no code of its own (no hooks, MCP servers or dynamic context)."
        )?;
        return Ok(());
    }
    writeln!(out, "Once enabled, it can run code:")?;
    for hook in &plan.runs.hooks {
        let matcher = hook
            .matcher
            .as_deref()
            .map(|m| format!(" ({m})"))
            .unwrap_or_default();
        writeln!(
            out,
            "  hook {}{matcher}, {}: {}",
            hook.event,
            hook.kind,
            one_line(&hook.run)
        )?;
    }
    for (name, runs) in &plan.runs.mcp_servers {
        writeln!(out, "  MCP server {name}: {}", one_line(runs))?;
    }
    for d in &plan.runs.dynamic_context {
        writeln!(
            out,
            "  dynamic context {}:{}: {}",
            d.path,
            d.line,
            one_line(&d.command)
        )?;
    }
    Ok(())
}

/// Shows `plan`, asks, and installs it.
fn install_plan(
    target: &PluginTarget,
    plan: &PluginPlan,
    args: &PluginInstallArgs,
) -> anyhow::Result<bool> {
    let mut out = crate::output::stdout();
    describe_plan(&mut out, plan)?;
    out.flush()?;
    drop(out);
    if plan.blocks_install() && !args.force {
        return Err(explain(MarketplaceError::Refused {
            id: plan.id.clone(),
            findings: Vec::new(),
        }));
    }
    let question = format!("Install {}{}?", plan.id, target.scope.phrase());
    if !approve(&question, args.yes, "installed") {
        return Ok(false);
    }
    let dir = weft_marketplace::apply_install(target, plan, args.force, SystemTime::now())
        .map_err(explain)?;
    crate::output::outln!(
        "Installed {}{} into {}",
        plan.id,
        target.scope.phrase(),
        dir.display()
    );
    Ok(true)
}

fn install(workspace: &Workspace, args: &PluginInstallArgs) -> anyhow::Result<ExitCode> {
    let Some(id) = &args.id else {
        if args.scope != InstallScope::Project {
            return Err(UsageError::new("name the plugin (NAME@MARKETPLACE), or pass --scope project to install the project's declared plugins")
            .into());
        }
        return install_declared(workspace, args);
    };
    let target = plugin_target(workspace, args.scope == InstallScope::Project)?;
    let options = fetch_options(&target.install, workspace)?;
    let plan = runtime()?
        .block_on(weft_marketplace::plan_install(&target, id, &options))
        .map_err(explain)?;
    Ok(if install_plan(&target, &plan, args)? {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `weft plugin install --scope project`: what the project pins and declares, in a trusted
/// project only.
fn install_declared(workspace: &Workspace, args: &PluginInstallArgs) -> anyhow::Result<ExitCode> {
    let target = plugin_target(workspace, true)?;
    let project = target.project.clone().unwrap_or_default();
    if !workspace.trust.is_trusted() {
        return Err(explain(MarketplaceError::Untrusted { project }));
    }
    let options = fetch_options(&target.install, workspace)?;
    let rt = runtime()?;
    let lock = target
        .store
        .load_lock()
        .map_err(MarketplaceError::from)
        .map_err(explain)?;
    let mut any = false;
    let mut ok = true;
    for (id, record) in &lock.plugins {
        if target
            .store
            .plugin_dir(&record.marketplace, &record.name)
            .is_dir()
        {
            continue;
        }
        any = true;
        let plan = rt
            .block_on(weft_marketplace::plan_locked(&target, id, &options))
            .map_err(explain)?;
        ok &= install_plan(&target, &plan, args)?;
    }
    let settings = PluginSettings::read(&weft_plugin::project_settings_files(&project));
    for w in &settings.warnings {
        crate::output::errln!("warning: {w}");
    }
    for (id, on) in &settings.enabled {
        let Some((_, marketplace)) = split_id(id).filter(|_| *on) else {
            continue;
        };
        if lock.plugins.contains_key(id) {
            continue;
        }
        any = true;
        let known = target
            .store
            .load_lock()
            .map_err(MarketplaceError::from)
            .map_err(explain)?;
        if !known.marketplaces.contains_key(marketplace) {
            let Some((location, reference)) = settings
                .marketplaces
                .get(marketplace)
                .and_then(|d| d.location())
            else {
                crate::output::errln!(
                    "error: {id}: the project does not say where marketplace `{marketplace}` is (extraKnownMarketplaces in .claude/settings.json)"
                );
                ok = false;
                continue;
            };
            let source = Source::parse(&location, &project).map_err(UsageError::from_error)?;
            rt.block_on(weft_marketplace::add_marketplace(
                &target,
                &source,
                reference.as_deref(),
                &options,
                SystemTime::now(),
            ))
            .map_err(explain)?;
        }
        let plan = rt
            .block_on(weft_marketplace::plan_install(&target, id, &options))
            .map_err(explain)?;
        ok &= install_plan(&target, &plan, args)?;
    }
    if !any {
        crate::output::outln!("Every plugin the project declares is installed.");
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn list(workspace: &Workspace, args: &PluginListArgs) -> anyhow::Result<ExitCode> {
    let set: &PluginSet = workspace.plugins();
    for w in &set.warnings {
        crate::output::errln!("warning: {w}");
    }
    let mut out = crate::output::stdout();
    match args.format {
        ListFormat::Json => writeln!(out, "{}", crate::output::json_pretty(set)?)?,
        ListFormat::Table if set.plugins.is_empty() && set.declared.is_empty() => {
            writeln!(
                out,
                "No plugins installed; add a marketplace (`weft plugin marketplace add SOURCE`) and install one (`weft plugin install NAME@MARKETPLACE`)."
            )?;
        }
        ListFormat::Table => {
            let mut rows: Vec<Vec<String>> = set
                .plugins
                .iter()
                .map(|p| {
                    vec![
                        p.id.clone(),
                        p.version.clone().unwrap_or_default(),
                        p.scope.label(),
                        status(p),
                        one_line(p.description()),
                    ]
                })
                .collect();
            for d in &set.declared {
                rows.push(vec![
                    d.id.clone(),
                    String::new(),
                    "project".to_owned(),
                    "declared, not installed (`weft plugin install --scope project`)".to_owned(),
                    String::new(),
                ]);
            }
            out.write_all(
                fit_table(
                    &["PLUGIN", "VERSION", "SCOPE", "STATUS", "DESCRIPTION"],
                    &rows,
                    stdout_terminal().width,
                )
                .as_bytes(),
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn set_enabled(workspace: &Workspace, args: &PluginIdArgs, on: bool) -> anyhow::Result<ExitCode> {
    let (target, id, scope) = resolve(
        workspace,
        &args.id,
        args.scope == Some(InstallScope::Project),
    )?;
    let scope_phrase = match scope {
        Some(PluginScope::ClaudeCode(_)) => {
            let user = plugin_target(workspace, false)?;
            weft_marketplace::set_claude_code_enabled(&user, &id, on).map_err(explain)?;
            " for weft (Claude Code's own settings are unchanged)"
        }
        _ => {
            weft_marketplace::set_enabled(&target, &id, on).map_err(explain)?;
            target.scope.phrase()
        }
    };
    let mut note = String::new();
    if on && target.scope == Scope::Project && !workspace.trust.is_trusted() {
        note = "; it is not used until the project is trusted".to_owned();
    }
    crate::output::outln!(
        "{} {id}{scope_phrase}{note}",
        if on { "Enabled" } else { "Disabled" }
    );
    Ok(ExitCode::SUCCESS)
}

fn owned_by_claude_code(scope: Option<PluginScope>, id: &str, action: &str) -> anyhow::Result<()> {
    if matches!(scope, Some(PluginScope::ClaudeCode(_))) {
        return Err(explain(MarketplaceError::ClaudeCodeOwned {
            id: id.to_owned(),
            action: action.to_owned(),
        }));
    }
    Ok(())
}

fn update(workspace: &Workspace, args: &PluginUpdateArgs) -> anyhow::Result<ExitCode> {
    let (target, id, scope) = resolve(
        workspace,
        &args.id,
        args.scope == Some(InstallScope::Project),
    )?;
    owned_by_claude_code(scope, &id, "update")?;
    let options = fetch_options(&target.install, workspace)?;
    let update = runtime()?
        .block_on(weft_marketplace::plan_update(
            &target,
            &id,
            &options,
            SystemTime::now(),
        ))
        .map_err(explain)?;
    let mut out = crate::output::stdout();
    let from = update
        .old
        .commit
        .as_deref()
        .unwrap_or(&update.old.tree_sha256)
        .chars()
        .take(12)
        .collect::<String>();
    if update.is_up_to_date() {
        writeln!(out, "{id}: up to date ({from})")?;
        return Ok(ExitCode::SUCCESS);
    }
    let to = update
        .plan
        .commit
        .as_deref()
        .unwrap_or(&update.plan.tree_sha256)
        .chars()
        .take(12)
        .collect::<String>();
    writeln!(out, "{id}: {from} -> {to}")?;
    for change in &update.changes {
        let mark = if change.is_sensitive() { '!' } else { ' ' };
        writeln!(out, "  {mark} {}", change.describe())?;
    }
    describe_plan(&mut out, &update.plan)?;
    out.flush()?;
    drop(out);
    if update.plan.blocks_install() && !args.force {
        return Err(explain(MarketplaceError::Refused {
            id: id.clone(),
            findings: Vec::new(),
        }));
    }
    if !approve(&format!("Update {id}?"), args.yes, "updated") {
        return Ok(ExitCode::FAILURE);
    }
    weft_marketplace::apply_update(&target, &update, args.force, SystemTime::now())
        .map_err(explain)?;
    crate::output::outln!("Updated {id}{}.", target.scope.phrase());
    Ok(ExitCode::SUCCESS)
}

fn remove(workspace: &Workspace, args: &PluginIdArgs) -> anyhow::Result<ExitCode> {
    let (target, id, scope) = resolve(
        workspace,
        &args.id,
        args.scope == Some(InstallScope::Project),
    )?;
    owned_by_claude_code(scope, &id, "uninstall")?;
    let record = weft_marketplace::remove_plugin(&target, &id).map_err(explain)?;
    crate::output::outln!(
        "Removed {id}{} (installed from {})",
        target.scope.phrase(),
        record.source.location
    );
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

fn scope_name(scope: Scope) -> &'static str {
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
