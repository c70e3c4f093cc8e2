//! `weft skills install | update | remove`: the CLI side of weft-install (where, which
//! environment git gets, confirmation, printing).

use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::SystemTime;

use anyhow::Context as _;
use serde_json::json;
use weft_install::{
    FetchOptions, GitOptions, InstallError, InstallTarget, Resolved, Selection, SkillUpdate,
    Source, apply_install, apply_update, fetch, plan_install, plan_update,
};
use weft_scan::Finding;

use crate::cli::{InstallArgs, InstallScope, RemoveArgs, ReportFormat, UpdateArgs};
use crate::commands::scan::{format_finding, known_skill_names};
use crate::output::eprint_diagnostics;
use weft_runtime::UsageError;
use weft_runtime::Workspace;
use weft_term::plural;

/// The `.clawft` directory of `scope`: the project's (the current directory when there is
/// no project yet), or the user's.
pub fn target(workspace: &Workspace, scope: InstallScope) -> anyhow::Result<InstallTarget> {
    match scope {
        InstallScope::Project => {
            let project = match &workspace.project {
                Some(p) => p.clone(),
                None => current_dir(workspace)?,
            };
            Ok(InstallTarget::new(project.join(".clawft")))
        }
        InstallScope::User => {
            let home = workspace.home.as_ref().ok_or_else(|| {
                UsageError("no home directory (set HOME or pass --home)".to_owned())
            })?;
            Ok(InstallTarget::new(home.join(".clawft")))
        }
    }
}

/// The current directory, as the workspace's environment snapshot recorded it.
fn current_dir(workspace: &Workspace) -> anyhow::Result<std::path::PathBuf> {
    workspace
        .env
        .current_dir()
        .map(std::path::Path::to_path_buf)
        .context("cannot determine the current directory")
}

/// The variables git may see: how to find programs, the user's git and ssh setup, proxies.
/// Never API keys or anything else from the environment.
const GIT_ENV: [&str; 10] = [
    "PATH",
    "HOME",
    "SSH_AUTH_SOCK",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "HTTPS_PROXY",
    "https_proxy",
    "NO_PROXY",
    "no_proxy",
    "XDG_CONFIG_HOME",
];

fn fetch_options(target: &InstallTarget, workspace: &Workspace) -> FetchOptions {
    let mut env: Vec<(OsString, OsString)> = GIT_ENV
        .iter()
        .filter_map(|k| {
            workspace
                .env
                .var_os(k)
                .map(|v| (OsString::from(k), v.to_owned()))
        })
        .collect();
    if let Some(home) = &workspace.home {
        env.retain(|(k, _)| k != "HOME");
        env.push(("HOME".into(), home.as_os_str().to_owned()));
    }
    FetchOptions {
        git: GitOptions {
            env,
            ..GitOptions::default()
        },
        ..FetchOptions::new(target.staging_dir())
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

fn short(resolved: &Resolved) -> String {
    match resolved {
        Resolved::Local => "local".to_owned(),
        Resolved::Commit(c) => c.chars().take(12).collect(),
        Resolved::Archive(h) => format!("sha256:{}", h.chars().take(12).collect::<String>()),
    }
}

/// Prints the findings of a refusal, or the skill list a choice needs, and turns the error
/// into the one `main` reports.
fn explain(err: InstallError) -> anyhow::Error {
    let mut stderr = crate::output::stderr();
    match &err {
        InstallError::Refused { findings, name } => {
            for f in findings {
                let _ = writeln!(stderr, "{}", format_finding(f, name));
            }
        }
        InstallError::ChooseSkills { available, .. } => {
            let width = available.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            let _ = writeln!(stderr, "skills in the source:");
            for (name, dir) in available {
                let dir = if dir.is_empty() { "." } else { dir };
                let _ = writeln!(stderr, "  {name:width$}  {dir}");
            }
            drop(stderr);
            return UsageError(err.to_string()).into();
        }
        InstallError::InvalidSkill { diagnostics, .. } => {
            drop(stderr);
            eprint_diagnostics(diagnostics);
        }
        InstallError::UnknownSkill { .. }
        | InstallError::RefWithoutGit(_)
        | InstallError::BadSubpath { .. } => {
            return UsageError(err.to_string()).into();
        }
        _ => {}
    }
    err.into()
}

/// `weft skills install SOURCE`.
pub fn install(workspace: &Workspace, args: &InstallArgs) -> anyhow::Result<ExitCode> {
    let target = target(workspace, args.scope)?;
    let cwd = current_dir(workspace)?;
    let source = Source::parse(&args.source, &cwd).map_err(|e| UsageError(e.to_string()))?;
    let selection = if args.all {
        Selection::All
    } else if args.skills.is_empty() {
        Selection::Single
    } else {
        Selection::Named(args.skills.clone())
    };
    let known = known_skill_names(workspace);
    let options = fetch_options(&target, workspace);
    let fetched = runtime()?
        .block_on(fetch(&source, args.reference.as_deref(), &options))
        .map_err(explain)?;
    let plan = plan_install(&target, &fetched, args.path.as_deref(), &selection, &known)
        .map_err(explain)?;
    for skill in &plan.skills {
        eprint_diagnostics(&skill.warnings);
    }
    apply_install(&target, &plan, args.force, SystemTime::now()).map_err(explain)?;
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            let lock = target.load_lock()?;
            let items: Vec<_> = plan
                .skills
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
            writeln!(
                out,
                "{}",
                crate::output::json_pretty(&json!({ "installed": items }))?
            )?;
        }
        ReportFormat::Text => {
            for s in &plan.skills {
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
                let counts = s.scan.counts();
                let forced = if args.force && counts.high > 0 {
                    " (installed with --force)"
                } else {
                    ""
                };
                if counts.total() == 0 {
                    writeln!(out, "  scan: clean")?;
                } else {
                    writeln!(out, "  scan: {counts}{forced}")?;
                }
                print_findings(&mut out, &s.scan.findings, &s.name)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_findings(out: &mut impl Write, findings: &[Finding], base: &str) -> io::Result<()> {
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
fn confirm(question: &str) -> bool {
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
    let known = known_skill_names(workspace);
    let options = fetch_options(&target, workspace);
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
    let entry = weft_install::remove(&target, &args.name)?;
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
