//! `weft doctor`: is this set-up ready? One line per check (version, configuration files,
//! providers and their keys, the permission mode, the default model and, with `--online`, one
//! request to it, MCP servers, hooks, the sandbox, skills, agents, the header cache), then a
//! summary.
//! Exits 1 when a check fails; warnings (a skill file with errors, an agent naming a model no
//! provider serves) do not fail it, and an agent whose alias falls back to the session's
//! model is a note on an `ok` line. A configuration that does not load fails, and the checks
//! that need no configuration still run.

mod checks;

use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;
use weft_agents::AgentRegistry;
use weft_parse::{ParseOptions, Profile};
use weft_registry::SkillRegistry;
use weft_runtime::{EffectiveConfig, Runtime, Workspace};
use weft_term::{Style, Terminal, fit_columns, plural};
use weft_types::PermissionMode;

use crate::cli::{DoctorArgs, ListFormat};
use crate::commands::run::{start_mcp, status_line};
use crate::environment::{stderr_terminal, stdout_terminal};
use crate::output::{json_pretty, out, write_styled_stdout};

/// How a check went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Fine.
    Ok,
    /// Works, but something deserves a look.
    Warn,
    /// Broken: weft cannot do what this check is about.
    Fail,
    /// Not checked, or nothing to check.
    Skip,
}

impl Status {
    fn mark(self) -> &'static str {
        match self {
            Self::Ok => "✓",
            Self::Warn => "!",
            Self::Fail => "✗",
            Self::Skip => "-",
        }
    }

    fn style(self) -> Style {
        match self {
            Self::Ok => Style::Success,
            Self::Warn => Style::Warning,
            Self::Fail => Style::Error,
            Self::Skip => Style::Dim,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Warn => "warn",
            Self::Fail => "fail",
            Self::Skip => "skip",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone)]
pub struct Check {
    /// What is checked: `config`, `provider openai`, `mcp github`, ...
    pub subject: String,
    /// How it went.
    pub status: Status,
    /// The finding, with the fix when there is one.
    pub detail: String,
}

impl Check {
    fn new(subject: impl Into<String>, status: Status, detail: impl Into<String>) -> Self {
        Self {
            subject: subject.into(),
            status,
            detail: detail.into(),
        }
    }
}

/// `weft doctor`.
pub fn run(
    workspace: &Workspace,
    args: &DoctorArgs,
    mode: Option<PermissionMode>,
) -> Result<ExitCode> {
    let mut report = vec![Check::new(
        "weft",
        Status::Ok,
        format!("version {}", env!("CARGO_PKG_VERSION")),
    )];
    match Runtime::builder(workspace).permission_mode(mode).build() {
        Ok(runtime) => {
            report.extend(with_configuration(workspace, &runtime, args.online));
        }
        Err(e) => report.extend(without_configuration(workspace, &anyhow::Error::from(e))),
    }
    report.push(checks::cache(workspace));
    print(&report, args.format)?;
    let failed = report.iter().any(|c| c.status == Status::Fail);
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Every check, with the configuration loaded.
fn with_configuration(workspace: &Workspace, runtime: &Runtime, online: bool) -> Vec<Check> {
    let home = workspace.home.as_deref();
    let mut report = Vec::new();
    let status = status_line(stderr_terminal());
    let effective = EffectiveConfig::of(runtime);
    match &effective {
        Ok(config) => {
            report.extend(checks::config_files(config, home));
            report.extend(checks::providers(runtime, config));
        }
        Err(e) => report.push(Check::new("config", Status::Fail, e.to_string())),
    }
    report.push(checks::permissions(runtime, effective.as_ref().ok(), home));
    report.push(checks::model(runtime));
    report.push(checks::online(runtime, online, status.as_ref()));
    start_mcp(runtime, status.as_ref());
    drop(status);
    report.extend(checks::mcp(runtime));
    report.extend(checks::hooks(runtime));
    report.push(checks::sandbox(workspace, runtime));
    let tools = weft_runtime::ToolAvailability::of(runtime).ok();
    report.push(checks::skills(
        &runtime.skills.snapshot(),
        tools.as_ref(),
        home,
    ));
    report.extend(checks::agents(&runtime.agents, Some(&runtime.models)));
    report.push(checks::plugins(workspace.plugins()));
    report
}

/// A configuration that does not load fails its check, said once (as any error is); what
/// does not need it is still checked: the sandbox's kernel support, skills and agents (as
/// they are found without the configuration's settings).
fn without_configuration(workspace: &Workspace, error: &anyhow::Error) -> Vec<Check> {
    let home = workspace.home.as_deref();
    let registry = SkillRegistry::new(weft_registry::RegistryConfig {
        track_changes: false,
        ..workspace.registry_config()
    });
    let agents =
        AgentRegistry::discover(&workspace.agent_roots(), &ParseOptions::new(Profile::Load));
    vec![
        Check::new("config", Status::Fail, crate::message(error)),
        Check::new(
            "providers",
            Status::Skip,
            "not checked: providers, models, permissions and MCP servers need the configuration",
        ),
        checks::sandbox_support(),
        checks::skills(&registry.snapshot(), None, home),
        checks::agents(&agents, None).remove(0),
        checks::plugins(workspace.plugins()),
    ]
}

fn print(report: &[Check], format: ListFormat) -> Result<()> {
    let failed = report.iter().filter(|c| c.status == Status::Fail).count();
    let warned = report.iter().filter(|c| c.status == Status::Warn).count();
    match format {
        ListFormat::Json => {
            let checks: Vec<_> = report
                .iter()
                .map(
                    |c| json!({"check": c.subject, "status": c.status.label(), "detail": c.detail}),
                )
                .collect();
            let doc = json!({
                "version": env!("CARGO_PKG_VERSION"),
                "checks": checks,
                "failed": failed,
                "warnings": warned,
            });
            out!("{}\n", json_pretty(&doc)?);
        }
        ListFormat::Table => {
            let stdout = stdout_terminal();
            write_styled_stdout(&lines(report, stdout));
            write_styled_stdout(&format!("\n{}\n", summary(failed, warned, stdout)));
        }
    }
    Ok(())
}

/// The checks as aligned lines fitted to stdout's width (whole through a pipe): mark,
/// subject, detail (neutralised by the layout), the marks coloured when stdout has colour:
/// styled text.
fn lines(report: &[Check], stdout: Terminal) -> String {
    let rows: Vec<Vec<String>> = report
        .iter()
        .map(|c| {
            vec![
                c.status.mark().to_owned(),
                c.subject.clone(),
                c.detail.clone(),
            ]
        })
        .collect();
    let text = fit_columns(&rows, stdout.width);
    if !stdout.color {
        return text;
    }
    // Colour only the marks, after alignment (escape sequences have no width).
    text.lines()
        .zip(report)
        .map(|(line, c)| {
            let (mark, rest) = line.split_at(c.status.mark().len());
            format!("{}{rest}\n", stdout.paint(mark, c.status.style()))
        })
        .collect()
}

fn summary(failed: usize, warned: usize, stdout: Terminal) -> String {
    match (failed, warned) {
        (0, 0) => stdout.paint("All checks passed.", Style::Success),
        (0, w) => format!("No check failed; {}.", plural(w, "warning")),
        (f, 0) => stdout.paint(&format!("{} failed.", plural(f, "check")), Style::Error),
        (f, w) => stdout.paint(
            &format!("{} failed; {}.", plural(f, "check"), plural(w, "warning")),
            Style::Error,
        ),
    }
}
