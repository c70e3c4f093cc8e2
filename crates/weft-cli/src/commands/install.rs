//! `weft skills install | update | remove`: the CLI side of weft-install (the arguments,
//! the environment snapshot git's variables come from, confirmation, printing); where skills
//! go and what git may see are weft-install's rules.

use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::SystemTime;

use anyhow::Context as _;
use serde_json::json;
use weft_install::{
    FetchOptions, GitOptions, InstallError, InstallTarget, LockedAction, Resolved, Selection,
    SkillUpdate, Source, apply_install, apply_locked, apply_update, fetch, plan_install,
    plan_locked, plan_update,
};
use weft_scan::{Finding, ScanReport};

use crate::cli::{InstallArgs, InstallScope, RemoveArgs, ReportFormat, UpdateArgs};
use crate::commands::scan::{format_finding, known_skills};
use crate::output::eprint_diagnostics;
use weft_runtime::UsageError;
use weft_runtime::Workspace;
use weft_term::plural;

/// The `.clawft` directory of `scope`: the project's (the current directory when there is
/// no project yet), or the user's.
pub fn target(workspace: &Workspace, scope: InstallScope) -> anyhow::Result<InstallTarget> {
    let scope = match scope {
        InstallScope::Project => weft_install::InstallScope::Project,
        InstallScope::User => weft_install::InstallScope::User,
    };
    let cwd = current_dir(workspace)?;
    InstallTarget::for_scope(
        scope,
        workspace.project.as_deref(),
        &cwd,
        workspace.home.as_deref(),
    )
    .ok_or_else(|| UsageError::new("no home directory (set HOME or pass --home)").into())
}

/// The current directory, as the workspace's environment snapshot recorded it.
pub(crate) fn current_dir(workspace: &Workspace) -> anyhow::Result<std::path::PathBuf> {
    workspace
        .env
        .current_dir()
        .map(std::path::Path::to_path_buf)
        .context("cannot determine the current directory")
}

/// How sources are fetched for `target`: git sees only the variables weft-install allows
/// (from this process's environment snapshot), with the workspace's home directory.
pub(crate) fn fetch_options(
    target: &InstallTarget,
    workspace: &Workspace,
) -> anyhow::Result<FetchOptions> {
    let git = GitOptions::with_env(
        |k| workspace.env.var_os(k).map(OsString::from),
        workspace.home.as_deref(),
    );
    FetchOptions::for_target(target, git).map_err(explain)
}

pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

pub(crate) fn short(resolved: &Resolved) -> String {
    match resolved {
        Resolved::Local => "local".to_owned(),
        Resolved::Commit(c) => c.chars().take(12).collect(),
        Resolved::Archive(h) => format!("sha256:{}", h.chars().take(12).collect::<String>()),
    }
}

/// Prints what shows why a skill was refused: its high findings, or its diagnostics.
fn print_refusal_details(err: &InstallError) {
    match err {
        InstallError::Refused { findings, name } => {
            let mut stderr = crate::output::stderr();
            for f in findings {
                let _ = writeln!(stderr, "{}", format_finding(f, name));
            }
        }
        InstallError::InvalidSkill { diagnostics, .. } => eprint_diagnostics(diagnostics),
        _ => {}
    }
}

/// Prints the findings of a refusal, or the skill list a choice needs, and turns the error
/// into the one `main` reports.
fn explain(err: InstallError) -> anyhow::Error {
    let mut stderr = crate::output::stderr();
    match &err {
        InstallError::Refused { .. } | InstallError::InvalidSkill { .. } => {
            drop(stderr);
            print_refusal_details(&err);
        }
        InstallError::ChooseSkills { available, .. } => {
            let width = available.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            let _ = writeln!(stderr, "skills in the source:");
            for (name, dir) in available {
                let dir = if dir.is_empty() { "." } else { dir };
                let _ = writeln!(stderr, "  {name:width$}  {dir}");
            }
            drop(stderr);
            return UsageError::from_error(err).into();
        }
        InstallError::UnknownSkill { .. }
        | InstallError::RefWithoutGit(_)
        | InstallError::BadSubpath { .. }
        | InstallError::BadSource(_)
        | InstallError::NotInstalled { .. } => {
            return UsageError::from_error(err).into();
        }
        _ => {}
    }
    err.into()
}

/// `weft skills install SOURCE`, or `weft skills install [--locked]`: what the lockfile pins.
pub fn install(workspace: &Workspace, args: &InstallArgs) -> anyhow::Result<ExitCode> {
    let target = target(workspace, args.scope)?;
    let Some(source) = args.source.as_deref().filter(|_| !args.locked) else {
        return install_locked(workspace, &target, args);
    };
    let cwd = current_dir(workspace)?;
    let source = Source::parse(source, &cwd).map_err(UsageError::from_error)?;
    let selection = if args.all {
        Selection::All
    } else if args.skills.is_empty() {
        Selection::Single
    } else {
        Selection::Named(args.skills.clone())
    };
    let known = known_skills(workspace);
    let options = fetch_options(&target, workspace)?;
    let fetched = runtime()?
        .block_on(fetch(&source, args.reference.as_deref(), &options))
        .map_err(explain)?;
    let plan = plan_install(&target, &fetched, args.path.as_deref(), &selection, &known)
        .map_err(explain)?;
    for skill in &plan.skills {
        eprint_diagnostics(&skill.warnings);
    }
    let outcome = apply_install(&target, &plan, args.force, SystemTime::now()).map_err(explain)?;
    let installed: Vec<_> = plan
        .skills
        .iter()
        .filter(|s| outcome.installed.contains(&s.name))
        .collect();
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            let lock = target.load_lock()?;
            let items: Vec<_> = installed
                .iter()
                .map(|s| {
                    json!({
                        "name": s.name,
                        "path": target.skill_dir(&s.name),
                        "lock": lock.skills.get(&s.name),
                        "findings": s.scan.findings,
                    })
                })
                .collect();
            let refused: Vec<_> = outcome
                .refused
                .iter()
                .map(|r| {
                    let findings = match &r.error {
                        InstallError::Refused { findings, .. } => findings.clone(),
                        _ => Vec::new(),
                    };
                    json!({"name": r.name, "dir": r.dir, "error": r.error.to_string(), "findings": findings})
                })
                .collect();
            let mut doc = json!({ "installed": items });
            if plan.each_on_its_own {
                doc["refused"] = json!(refused);
            }
            writeln!(out, "{}", crate::output::json_pretty(&doc)?)?;
        }
        ReportFormat::Text => {
            for s in &installed {
                writeln!(
                    out,
                    "Installed {} into {}",
                    s.name,
                    target.skill_dir(&s.name).display()
                )?;
                let mut from = plan.source.location.clone();
                if plan.resolved != Resolved::Local {
                    from.push_str(&format!(" at {}", short(&plan.resolved)));
                }
                if !s.dir.is_empty() {
                    from.push_str(&format!(", {}", s.dir));
                }
                writeln!(out, "  from: {from}")?;
                print_scan(&mut out, &s.scan, args.force, &s.name)?;
            }
            drop(out);
            for refusal in &outcome.refused {
                print_refusal_details(&refusal.error);
                crate::output::errln!("not installed: {}", refusal.error);
            }
        }
    }
    if outcome.refused.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let refused = plural(outcome.refused.len(), "skill");
    anyhow::bail!(
        "{refused} of the source not installed (see above); {} installed",
        plural(outcome.installed.len(), "skill")
    )
}

/// `  scan: clean` or the counts (and `(installed with --force)`), then the findings.
fn print_scan(out: &mut impl Write, scan: &ScanReport, forced: bool, name: &str) -> io::Result<()> {
    let counts = scan.counts();
    let forced = if forced && counts.high > 0 {
        " (installed with --force)"
    } else {
        ""
    };
    if counts.total() == 0 {
        writeln!(out, "  scan: clean")?;
    } else {
        writeln!(out, "  scan: {counts}{forced}")?;
    }
    print_findings(out, &scan.findings, name)
}

/// `weft skills install` without a SOURCE: exactly what the lockfile pins.
fn install_locked(
    workspace: &Workspace,
    target: &InstallTarget,
    args: &InstallArgs,
) -> anyhow::Result<ExitCode> {
    let known = known_skills(workspace);
    let options = fetch_options(target, workspace)?;
    let plan = runtime()?
        .block_on(plan_locked(target, &args.skills, &options, &known))
        .map_err(explain)?;
    let written = apply_locked(target, &plan, args.force).map_err(explain)?;
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            let items: Vec<_> = plan
                .skills
                .iter()
                .map(|s| {
                    let findings = match &s.action {
                        LockedAction::Write { scan, .. } => scan.findings.clone(),
                        LockedAction::Present => Vec::new(),
                    };
                    json!({
                        "name": s.name,
                        "path": target.skill_dir(&s.name),
                        "written": written.contains(&s.name),
                        "commit": s.entry.commit,
                        "archive_sha256": s.entry.archive_sha256,
                        "tree_sha256": s.entry.tree_sha256,
                        "findings": findings,
                    })
                })
                .collect();
            writeln!(
                out,
                "{}",
                crate::output::json_pretty(&json!({ "locked": items }))?
            )?;
        }
        ReportFormat::Text if plan.skills.is_empty() => {
            writeln!(out, "No skills pinned in {}.", target.lock_path().display())?;
        }
        ReportFormat::Text => {
            for s in &plan.skills {
                let pin =
                    s.entry
                        .commit
                        .as_deref()
                        .map(|c| c.chars().take(12).collect::<String>())
                        .or_else(|| {
                            s.entry.archive_sha256.as_deref().map(|h| {
                                format!("sha256:{}", h.chars().take(12).collect::<String>())
                            })
                        })
                        .unwrap_or_else(|| "local".to_owned());
                match &s.action {
                    LockedAction::Present => {
                        writeln!(out, "{}: installed as pinned ({pin})", s.name)?;
                    }
                    LockedAction::Write { scan, .. } => {
                        writeln!(
                            out,
                            "Installed {} into {} as pinned ({pin}, tree {})",
                            s.name,
                            target.skill_dir(&s.name).display(),
                            s.entry.tree_sha256.chars().take(12).collect::<String>()
                        )?;
                        writeln!(out, "  from: {}", s.entry.source.location)?;
                        print_scan(&mut out, scan, args.force, &s.name)?;
                    }
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn print_findings(
    out: &mut impl Write,
    findings: &[Finding],
    base: &str,
) -> io::Result<()> {
    for f in findings {
        for line in format_finding(f, base).lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// The change summary of one skill, sensitive changes marked with `!`.
fn describe_update(out: &mut impl Write, u: &SkillUpdate) -> io::Result<()> {
    let from = u.old.commit.as_deref().map_or_else(
        || u.old.tree_sha256.chars().take(12).collect(),
        |c| c.chars().take(12).collect::<String>(),
    );
    if u.is_up_to_date() {
        return writeln!(out, "{}: up to date ({from})", u.name);
    }
    writeln!(out, "{}: {from} -> {}", u.name, short(&u.resolved))?;
    let local = u.local_changes();
    if !local.is_empty() {
        writeln!(
            out,
            "  ! changed here since the install, the update overwrites it (only with --force): {}",
            local.join(", ")
        )?;
    }
    for change in &u.changes {
        let mark = if change.is_sensitive() { '!' } else { ' ' };
        writeln!(out, "  {mark} {}", change.describe())?;
    }
    let counts = u.scan.counts();
    if counts.total() == 0 {
        writeln!(out, "  scan: clean")
    } else {
        writeln!(out, "  scan: {counts}")?;
        print_findings(out, &u.scan.findings, &u.name)
    }
}

/// Asks on the terminal; `false` unless the answer is yes.
pub(crate) fn confirm(question: &str) -> bool {
    crate::output::err!("{question} [y/N] ");
    let mut answer = String::new();
    if io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

/// `weft skills update [NAME...]`.
pub fn update(workspace: &Workspace, args: &UpdateArgs) -> anyhow::Result<ExitCode> {
    let target = target(workspace, args.scope)?;
    let known = known_skills(workspace);
    let options = fetch_options(&target, workspace)?;
    let plan = runtime()?
        .block_on(plan_update(&target, &args.names, &options, &known))
        .map_err(explain)?;
    let pending = plan.pending().count();
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            let items: Vec<_> = plan
                .updates
                .iter()
                .map(|u| {
                    json!({
                        "name": u.name,
                        "up_to_date": u.is_up_to_date(),
                        "from": u.old.commit.as_ref().unwrap_or(&u.old.tree_sha256),
                        "to": short(&u.resolved),
                        "changes": u.changes,
                        "local_changes": u.local_changes(),
                        "findings": u.scan.findings,
                    })
                })
                .collect();
            writeln!(
                out,
                "{}",
                crate::output::json_pretty(&json!({ "updates": items }))?
            )?;
        }
        ReportFormat::Text => {
            if plan.updates.is_empty() {
                writeln!(
                    out,
                    "No installed skills in {}.",
                    target.lock_path().display()
                )?;
            }
            for u in &plan.updates {
                describe_update(&mut out, u)?;
            }
        }
    }
    out.flush()?;
    drop(out);
    if pending == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let question = format!("Apply {}?", plural(pending, "update"));
    let approved = if args.yes {
        true
    } else if crate::output::stdin_is_terminal() && crate::output::stderr_is_terminal() {
        confirm(&question)
    } else {
        crate::output::errln!(
            "error: not applied: no terminal to confirm on; rerun with --yes to apply"
        );
        return Ok(ExitCode::FAILURE);
    };
    if !approved {
        crate::output::errln!("Not applied.");
        return Ok(ExitCode::FAILURE);
    }
    let written = apply_update(&target, &plan, args.force, SystemTime::now()).map_err(explain)?;
    if args.format == ReportFormat::Text {
        crate::output::outln!("Updated {}.", written.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

/// `weft skills remove NAME`.
pub fn remove(workspace: &Workspace, args: &RemoveArgs) -> anyhow::Result<ExitCode> {
    let target = target(workspace, args.scope)?;
    let entry = match weft_install::remove(&target, &args.name) {
        Ok(entry) => entry,
        // A name that is not installed is a mistake in the invocation (exit 2), with the
        // installed names it may have meant.
        Err(e @ InstallError::NotInstalled { .. }) => {
            let installed: Vec<String> = target
                .load_lock()
                .map(|lock| lock.skills.keys().cloned().collect())
                .unwrap_or_default();
            let close = weft_types::suggest::closest_names(
                &args.name,
                installed.iter().map(String::as_str),
            );
            let hint = if close.is_empty() {
                format!(
                    "; installed here: {}",
                    if installed.is_empty() {
                        "none".to_owned()
                    } else {
                        installed.join(", ")
                    }
                )
            } else {
                weft_types::suggest::did_you_mean(&close)
            };
            return Err(UsageError::new(format!("{e}{hint}")).into());
        }
        Err(e) => return Err(e.into()),
    };
    match args.format {
        ReportFormat::Json => crate::output::outln!(
            "{}",
            crate::output::json_pretty(&serde_json::json!({
                "removed": args.name,
                "source": entry.source,
                "skills_dir": target.skills_dir(),
            }))?
        ),
        ReportFormat::Text => crate::output::outln!(
            "Removed {} (installed from {}) from {}",
            args.name,
            entry.source.location,
            target.skills_dir().display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
