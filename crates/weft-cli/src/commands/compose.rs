//! `weft skills compose|check-tool|select`: the permission side of skill sets.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use weft_agents::{RiskLevel, SkillInjection, TaskContext};
use weft_permissions::{
    Ceiling, ComposedSkill, CompositionMode, Decision, Explanation, Origin, PatternContext, Policy,
    ShellContext, ValidationResult,
};
use weft_registry::SkillRegistry;

use crate::cli::{CheckToolArgs, ComposeArgs, ModeArg, ReportFormat, SelectArgs};
use crate::output::outln;
use weft_runtime::Workspace;

fn mode(arg: ModeArg) -> CompositionMode {
    match arg {
        ModeArg::Union => CompositionMode::Union,
        ModeArg::Intersect => CompositionMode::Intersect,
    }
}

fn split_list(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The `--ceiling` patterns (the parent's tools).
fn ceiling(workspace: &Workspace, list: Option<&str>) -> anyhow::Result<Option<Ceiling>> {
    let ctx = patterns(workspace)?;
    list.map(|list| Ceiling::new_in(split_list(list), &ctx).context("invalid --ceiling pattern"))
        .transpose()
}

fn api(workspace: &Workspace, mode_arg: ModeArg) -> anyhow::Result<SkillInjection> {
    let registry = SkillRegistry::new(crate::commands::skills::registry_config(workspace)?);
    Ok(SkillInjection::new(Arc::new(registry))
        .with_mode(mode(mode_arg))
        .with_pattern_context(patterns(workspace)?))
}

/// Relative path patterns start at the project (else the current directory), as in a session.
fn patterns(workspace: &Workspace) -> anyhow::Result<PatternContext> {
    Ok(weft_runtime::project_pattern_context(
        &workspace.base_dir()?,
    ))
}

fn print_validation(out: &mut impl Write, result: &ValidationResult) -> io::Result<()> {
    writeln!(out, "valid: {}", if result.valid { "yes" } else { "no" })?;
    for e in &result.errors {
        let skill = e
            .skill
            .as_deref()
            .map_or(String::new(), |s| format!(" [{s}]"));
        writeln!(out, "error {}{skill}: {}", e.code, e.message)?;
    }
    for w in &result.warnings {
        writeln!(out, "warning: {w}")?;
    }
    Ok(())
}

/// `weft skills compose`.
pub fn compose(workspace: &Workspace, args: &ComposeArgs) -> anyhow::Result<ExitCode> {
    let api = api(workspace, args.mode)?;
    let ceiling = ceiling(workspace, args.ceiling.as_deref())?;
    let validation = api.validate_skill_set(&args.names);
    let mut out = crate::output::stdout();
    if !validation.valid {
        match args.format {
            ReportFormat::Json => {
                writeln!(out, "{}", crate::output::json_pretty(&validation)?)?;
            }
            ReportFormat::Text => print_validation(&mut out, &validation)?,
        }
        return Ok(ExitCode::FAILURE);
    }
    let composition = api.compose_skills(&args.names)?;
    let composed: ComposedSkill = match &ceiling {
        Some(ceiling) => composition.composed_within(ceiling),
        None => composition.composed().clone(),
    };
    match args.format {
        ReportFormat::Json => {
            for w in &validation.warnings {
                crate::output::errln!("warning: {w}");
            }
            writeln!(out, "{}", crate::output::json_pretty(&composed)?)?;
        }
        ReportFormat::Text => {
            print_validation(&mut out, &validation)?;
            writeln!(out, "skills: {}", composed.skills.join(", "))?;
            let allowed = if composed.unrestricted {
                "(no restriction from these skills)".to_owned()
            } else if composed.allowed_tools.is_empty() {
                "(none)".to_owned()
            } else {
                composed.allowed_tools.join(", ")
            };
            writeln!(out, "allowed tools: {allowed}")?;
            writeln!(
                out,
                "forbidden tools: {}",
                if composed.forbidden_tools.is_empty() {
                    "(none)".to_owned()
                } else {
                    composed.forbidden_tools.join(", ")
                }
            )?;
            writeln!(out, "execution protocol:")?;
            for (i, step) in composed.execution_protocol.iter().enumerate() {
                writeln!(out, "  {}. {step}", i + 1)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `weft skills check-tool`: exits 0 (allowed), 3 (ask) or 1 (denied).
pub fn check_tool(
    workspace: &Workspace,
    args: &CheckToolArgs,
    verbose: bool,
) -> anyhow::Result<ExitCode> {
    let api = api(workspace, args.mode)?;
    let names = split_list(&args.skills);
    let validation = api.validate_skill_set(&names);
    if !validation.valid {
        print_validation(&mut crate::output::stderr(), &validation)?;
        match args.format {
            ReportFormat::Json => outln!(
                "{}",
                crate::output::json_pretty(&serde_json::json!({
                    "decision": "denied",
                    "reason": "the skill set is invalid",
                    "commands": [],
                }))?
            ),
            ReportFormat::Text => outln!("denied: the skill set is invalid"),
        }
        return Ok(ExitCode::FAILURE);
    }
    let input: serde_json::Value = match &args.input {
        Some(text) => serde_json::from_str(text).context("--input is not valid JSON")?,
        None => serde_json::Value::Object(serde_json::Map::new()),
    };
    let composition = api.compose_skills(&names)?;
    let mut gate = match ceiling(workspace, args.ceiling.as_deref())? {
        Some(ceiling) => composition.gate_within(ceiling.gate()),
        None => composition.gate(),
    };
    if let Some(list) = &args.deny {
        let policy = Policy::from_lists::<String>(
            None,
            &split_list(list),
            Origin::Session,
            &patterns(workspace)?,
        )
        .context("invalid --deny pattern")?;
        gate = gate.with_layer(policy);
    }
    if let Some(root) = workspace.project.as_deref().and_then(|p| p.to_str()) {
        gate = gate.with_shell_context(ShellContext::new().with_project_root(root));
    }
    let explanation = gate.explain(&args.tool, &input);
    match args.format {
        ReportFormat::Json => outln!("{}", decision_json(&explanation)?),
        ReportFormat::Text => {
            outln!("{}", explanation.decision);
            if verbose {
                print_explanation(&explanation);
            }
        }
    }
    Ok(match explanation.decision {
        Decision::Allowed => ExitCode::SUCCESS,
        Decision::Ask { .. } => ExitCode::from(3),
        Decision::Denied { .. } => ExitCode::FAILURE,
    })
}

/// `skills check-tool --format json`: the decision, its reason, and what each rule says
/// about each simple command of a shell call.
fn decision_json(explanation: &Explanation) -> serde_json::Result<String> {
    let (decision, reason) = match &explanation.decision {
        Decision::Allowed => ("allowed", None),
        Decision::Ask { reason } => ("ask", Some(reason)),
        Decision::Denied { reason } => ("denied", Some(reason)),
    };
    let commands: Vec<serde_json::Value> = explanation
        .commands
        .iter()
        .map(|c| serde_json::json!({"command": c.command, "rulings": c.rulings}))
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({
        "decision": decision,
        "reason": reason,
        "commands": commands,
    }))
}

/// The simple commands of a shell call and what each rule says about them.
fn print_explanation(explanation: &Explanation) {
    let Some(analysis) = &explanation.analysis else {
        return;
    };
    outln!("commands:");
    for command in &explanation.commands {
        outln!("  {}", command.command);
        for ruling in &command.rulings {
            outln!("    {ruling}");
        }
    }
    for part in analysis.unanalysable() {
        outln!("cannot analyse: {part}");
    }
    for risk in analysis.risks() {
        outln!("risk: {risk}");
    }
}

/// `weft skills select`.
pub fn select(workspace: &Workspace, args: &SelectArgs) -> anyhow::Result<ExitCode> {
    let api = api(workspace, ModeArg::Union)?;
    let risk: RiskLevel = args.risk.parse().map_err(anyhow::Error::msg)?;
    let task = TaskContext {
        description: args.description.clone(),
        risk_level: risk,
        coding: args.coding,
    };
    let selected = api.select_skills(&task);
    let mut out = crate::output::stdout();
    match args.format {
        ReportFormat::Json => {
            writeln!(out, "{}", crate::output::json_pretty(&selected)?)?;
        }
        ReportFormat::Text => {
            if selected.is_empty() {
                writeln!(out, "No skills selected.")?;
            }
            for name in &selected {
                writeln!(out, "{name}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
