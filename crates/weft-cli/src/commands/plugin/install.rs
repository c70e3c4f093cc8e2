//! `weft plugin install` and `weft plugin update`: what a plugin brings and can run, shown
//! before anything is written (on stderr with `--format json`, whose report alone is on
//! stdout), asking, and the report.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::SystemTime;

use serde_json::{Value, json};
use weft_install::Source;
use weft_marketplace::{MarketplaceError, PluginPlan, PluginTarget};
use weft_plugin::{PluginSettings, split_id};
use weft_runtime::{UsageError, Workspace};
use weft_term::one_line;

use super::{approve, owned_by_claude_code, resolve, scope_name};
use crate::cli::{InstallScope, PluginInstallArgs, PluginUpdateArgs, ReportFormat};
use crate::commands::install::{fetch_options, print_findings, runtime};
use crate::commands::marketplace::{explain, plugin_target};

/// Where what is shown before asking goes: stdout, or stderr when stdout carries JSON.
fn shown(format: ReportFormat) -> Box<dyn Write> {
    match format {
        ReportFormat::Text => Box::new(crate::output::stdout()),
        ReportFormat::Json => Box::new(crate::output::stderr()),
    }
}

/// The plugins of `plan`'s kind as the session names them (`fmt:lint`).
fn qualified(plan: &PluginPlan, names: &[String]) -> Vec<String> {
    names.iter().map(|n| format!("{}:{n}", plan.name)).collect()
}

/// A plugin as `--format json` reports it: what it is, where it comes from and is, what it
/// brings and can run, and what the scan found.
fn plan_json(target: &PluginTarget, plan: &PluginPlan) -> Value {
    json!({
        "id": plan.id,
        "name": plan.name,
        "marketplace": plan.marketplace,
        "scope": scope_name(target.scope),
        "version": plan.version,
        "path": target.store.plugin_dir(&plan.marketplace, &plan.name),
        "source": plan.source,
        "commit": plan.commit,
        "tree_sha256": plan.tree_sha256,
        "skills": qualified(plan, &plan.skills),
        "commands": qualified(plan, &plan.commands),
        "agents": qualified(plan, &plan.agents),
        "runs": plan.runs,
        "findings": plan.scan.findings,
    })
}

/// What an install run did, for `--format json`: `{"installed": [...], "not_installed": [...]}`.
#[derive(Default)]
struct Report {
    installed: Vec<Value>,
    not_installed: Vec<String>,
}

impl Report {
    fn print(&self, format: ReportFormat) -> anyhow::Result<()> {
        if format == ReportFormat::Json {
            crate::output::outln!(
                "{}",
                crate::output::json_pretty(&json!({
                    "installed": self.installed,
                    "not_installed": self.not_installed,
                }))?
            );
        }
        Ok(())
    }
}

/// What a plugin brings and what it will be able to run.
fn describe_plan(out: &mut dyn Write, plan: &PluginPlan) -> io::Result<()> {
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
        print_findings(&mut &mut *out, &plan.scan.findings, &plan.id)?;
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
    report: &mut Report,
) -> anyhow::Result<bool> {
    let mut out = shown(args.format);
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
    if !approve(&question, args.yes, "installed", "what it brings") {
        report.not_installed.push(plan.id.clone());
        return Ok(false);
    }
    let dir = weft_marketplace::apply_install(target, plan, args.force, SystemTime::now())
        .map_err(explain)?;
    if args.format == ReportFormat::Text {
        crate::output::outln!(
            "Installed {}{} into {}",
            plan.id,
            target.scope.phrase(),
            dir.display()
        );
    }
    report.installed.push(plan_json(target, plan));
    Ok(true)
}

/// `weft plugin install [NAME@MARKETPLACE]`.
pub(super) fn install(workspace: &Workspace, args: &PluginInstallArgs) -> anyhow::Result<ExitCode> {
    let Some(id) = &args.id else {
        if args.scope != InstallScope::Project {
            return Err(UsageError::new(
                "name the plugin (NAME@MARKETPLACE), or pass --scope project to install the project's declared plugins",
            )
            .into());
        }
        return install_declared(workspace, args);
    };
    let target = plugin_target(workspace, args.scope == InstallScope::Project)?;
    let options = fetch_options(&target.install, workspace)?;
    let plan = runtime()?
        .block_on(weft_marketplace::plan_install(&target, id, &options))
        .map_err(explain)?;
    let mut report = Report::default();
    let installed = install_plan(&target, &plan, args, &mut report)?;
    report.print(args.format)?;
    Ok(if installed {
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
    let mut report = Report::default();
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
        ok &= install_plan(&target, &plan, args, &mut report)?;
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
        ok &= install_plan(&target, &plan, args, &mut report)?;
    }
    if !any && args.format == ReportFormat::Text {
        crate::output::outln!("Every plugin the project declares is installed.");
    }
    report.print(args.format)?;
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `weft plugin update PLUGIN`.
pub(super) fn update(workspace: &Workspace, args: &PluginUpdateArgs) -> anyhow::Result<ExitCode> {
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
    // A commit, or the tree hash of files that did not come from git.
    let pin =
        |commit: &Option<String>, tree: &str| commit.clone().unwrap_or_else(|| tree.to_owned());
    let (old, new) = (
        pin(&update.old.commit, &update.old.tree_sha256),
        pin(&update.plan.commit, &update.plan.tree_sha256),
    );
    let short = |hash: &str| hash.chars().take(12).collect::<String>();
    let (from, to) = (short(&old), short(&new));
    let json = |applied: bool| -> anyhow::Result<()> {
        if args.format == ReportFormat::Json {
            let mut item = plan_json(&target, &update.plan);
            if let Value::Object(fields) = &mut item {
                fields.insert("up_to_date".to_owned(), json!(update.is_up_to_date()));
                fields.insert("from".to_owned(), json!(old));
                fields.insert("to".to_owned(), json!(new));
                fields.insert("changes".to_owned(), json!(update.changes));
                fields.insert("applied".to_owned(), json!(applied));
            }
            crate::output::outln!(
                "{}",
                crate::output::json_pretty(&json!({ "updates": [item] }))?
            );
        }
        Ok(())
    };
    if update.is_up_to_date() {
        if args.format == ReportFormat::Text {
            crate::output::outln!("{id}: up to date ({from})");
        }
        json(false)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = shown(args.format);
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
    if !approve(
        &format!("Update {id}?"),
        args.yes,
        "updated",
        "what changes",
    ) {
        json(false)?;
        return Ok(ExitCode::FAILURE);
    }
    weft_marketplace::apply_update(&target, &update, args.force, SystemTime::now())
        .map_err(explain)?;
    if args.format == ReportFormat::Text {
        crate::output::outln!("Updated {id}{}.", target.scope.phrase());
    }
    json(true)?;
    Ok(ExitCode::SUCCESS)
}
