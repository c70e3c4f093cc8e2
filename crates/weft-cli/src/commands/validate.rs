//! `weft skills validate`: check skills (weft-registry's `validate_paths`) and report every
//! problem.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use weft_agents::AgentRegistry;
use weft_parse::{ParseOptions, Profile};
use weft_registry::{KnownAgents, ValidationOutcome, validate_paths_with, with_named_dir};
use weft_runtime::Workspace;

use crate::cli::{ProfileArg, ReportFormat, ValidateArgs};
use crate::output::format_diagnostic;

pub fn run(workspace: &Workspace, args: &ValidateArgs) -> anyhow::Result<ExitCode> {
    let profile = match (args.profile, args.strict) {
        (ProfileArg::Spec, _) => Profile::Spec,
        (ProfileArg::Load, _) => Profile::Load,
        (ProfileArg::Default, true) => Profile::Strict,
        (ProfileArg::Default, false) => Profile::Validate,
    };
    // `.` and a bare `SKILL.md` name no directory: they are made absolute first.
    let cwd = workspace.env.current_dir();
    let paths: Vec<PathBuf> = args
        .paths
        .iter()
        .map(|p| cwd.map_or_else(|| p.clone(), |cwd| with_named_dir(p, cwd)))
        .collect();
    // `agent:` is checked against the agents this workspace has (built-ins, project, user).
    let agents =
        AgentRegistry::discover(&workspace.agent_roots(), &ParseOptions::new(Profile::Load));
    let contains = |name: &str| agents.contains(name);
    let known = KnownAgents {
        contains: &contains,
        names: agents.names().map(str::to_owned).collect(),
    };
    let checked = (profile != Profile::Spec).then_some(&known);
    let boundary = workspace.link_boundary();
    // Tool patterns compile against the project, as discovery compiles them.
    let patterns = workspace.registry_config().patterns;
    let outcomes = validate_paths_with(&paths, profile, checked, boundary.as_deref(), &patterns);

    let mut stdout = crate::output::stdout();
    match args.format {
        ReportFormat::Text => print_text(&mut stdout, &outcomes)?,
        ReportFormat::Json => print_json(&mut stdout, &outcomes)?,
    }
    stdout.flush()?;
    Ok(if outcomes.iter().any(|o| !o.valid) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn print_text(out: &mut impl Write, outcomes: &[ValidationOutcome]) -> io::Result<()> {
    let (mut valid, mut warned, mut invalid) = (0usize, 0usize, 0usize);
    for o in outcomes {
        for d in &o.diagnostics {
            writeln!(out, "{}", format_diagnostic(d))?;
        }
        if !o.valid {
            invalid += 1;
        } else if o.diagnostics.is_empty() {
            valid += 1;
        } else {
            warned += 1;
        }
    }
    let total = outcomes.len();
    let noun = if total == 1 { "skill" } else { "skills" };
    writeln!(
        out,
        "{total} {noun}: {valid} valid, {warned} with warnings, {invalid} invalid"
    )
}

fn print_json(out: &mut impl Write, outcomes: &[ValidationOutcome]) -> io::Result<()> {
    writeln!(out, "[")?;
    for (i, o) in outcomes.iter().enumerate() {
        let line = crate::output::json_line(o).map_err(io::Error::other)?;
        let comma = if i + 1 < outcomes.len() { "," } else { "" };
        writeln!(out, "{line}{comma}")?;
    }
    writeln!(out, "]")
}
