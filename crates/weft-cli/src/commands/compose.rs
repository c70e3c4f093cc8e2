//! `weft skills compose|check-tool|select`: the permission side of skill sets.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use weft_agents::{CallJudgement, CallRules};
use weft_agents::{RiskLevel, SkillInjection, TaskContext};
use weft_permissions::{
    Approval, Ceiling, CommandRulings, ComposedSkill, CompositionMode, Explanation, Origin,
    PatternContext, Policy, Step, ValidationResult,
};
use weft_registry::SkillRegistry;
use weft_runtime::Runtime;
use weft_types::PermissionMode;

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
    // The registry compiles each skill's patterns against the project when it finds it.
    let registry = SkillRegistry::new(crate::commands::skills::registry_config(workspace)?);
    Ok(SkillInjection::new(Arc::new(registry)).with_mode(mode(mode_arg)))
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

/// `weft skills check-tool`: what a session in the permission mode in effect would do with
/// the call, under these skills. Exits 0 (allowed: it runs), 3 (ask: a person must approve
/// it) or 1 (denied: it does not run).
pub fn check_tool(
    workspace: &Workspace,
    args: &CheckToolArgs,
    mode: Option<PermissionMode>,
    verbose: bool,
) -> anyhow::Result<ExitCode> {
    let api = api(workspace, args.mode)?;
    let names = args.skills.as_deref().map(split_list);
    let validation = names.as_ref().map(|names| api.validate_skill_set(names));
    if let Some(validation) = validation.filter(|v| !v.valid) {
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
    // The session's rules: the configuration's `tools.deny`, the default agent, the project
    // as the shell's context, `permissions.allow`, the mode.
    let runtime = Runtime::builder(workspace).permission_mode(mode).build()?;
    let mut rules = runtime.call_rules(None)?;
    let mut gate = match &names {
        Some(names) => api.compose_skills(names)?.gate_within(&rules.gate),
        None => rules.gate.clone(),
    };
    if let Some(ceiling) = ceiling(workspace, args.ceiling.as_deref())? {
        gate = gate.intersect(ceiling.gate());
    }
    if let Some(list) = &args.deny {
        let policy = Policy::from_lists::<String>(
            None,
            &split_list(list),
            Origin::Other("`--deny`".to_owned()),
            &patterns(workspace)?,
        )
        .context("invalid --deny pattern")?;
        gate = gate.with_layer(policy);
    }
    rules.gate = gate;
    let judgement = rules.judge(&args.tool, &input);
    let (decision, reason, code) = match &judgement.step {
        Step::Run => ("allowed", None, ExitCode::SUCCESS),
        Step::Ask { reason } => ("ask", Some(reason), ExitCode::from(3)),
        Step::Refuse { reason } => ("denied", Some(reason), ExitCode::FAILURE),
    };
    let explanation = rules.gate.explain(&args.tool, &input);
    let commands = command_rulings(&rules, &judgement, &explanation, &args.tool, &input);
    match args.format {
        ReportFormat::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "decision": decision,
                "reason": reason,
                "read_only_command": judgement.read_only_command,
                "mode": rules.mode.as_str(),
                "commands": commands
                    .iter()
                    .map(|c| serde_json::json!({"command": c.command, "rulings": c.rulings}))
                    .collect::<Vec<_>>(),
            }))?
        ),
        ReportFormat::Text => {
            match reason {
                Some(reason) => outln!("{decision}: {reason}"),
                // Runs without asking because it only reads, in the read-only sandbox.
                None if judgement.read_only_command => outln!("{decision} (read-only)"),
                None => outln!("{decision}"),
            }
            if verbose {
                print_explanation(&rules, &judgement, &explanation, &commands);
            }
        }
    }
    Ok(code)
}

/// What each rule says about each simple command of a shell call: the gate's layers, then
/// pre-approval when it mattered.
fn command_rulings(
    rules: &CallRules,
    judgement: &CallJudgement,
    explanation: &Explanation,
    tool: &str,
    input: &serde_json::Value,
) -> Vec<CommandRulings> {
    let pre = if judgement.pre_approval.is_some() {
        rules.pre_approval.command_rulings(tool, input)
    } else {
        Vec::new()
    };
    if explanation.commands.is_empty() {
        return pre;
    }
    let mut commands = explanation.commands.clone();
    for (command, pre) in commands.iter_mut().zip(pre) {
        command.rulings.extend(pre.rulings);
    }
    commands
}

/// `-v`: the mode, pre-approval, and the simple commands of a shell call with what each rule
/// says about them.
fn print_explanation(
    rules: &CallRules,
    judgement: &CallJudgement,
    explanation: &Explanation,
    commands: &[CommandRulings],
) {
    outln!("permission mode: {}", rules.mode);
    match &judgement.pre_approval {
        Some(Approval::PreApproved { rule }) => outln!("pre-approved by {rule}"),
        Some(Approval::NotPreApproved { reason }) => outln!("not pre-approved: {reason}"),
        None => {}
    }
    if commands.is_empty() && explanation.analysis.is_none() {
        return;
    }
    outln!("commands:");
    for command in commands {
        outln!("  {}", command.command);
        for ruling in &command.rulings {
            outln!("    {ruling}");
        }
    }
    if let Some(analysis) = &explanation.analysis {
        for part in analysis.unanalysable() {
            outln!("cannot analyse: {part}");
        }
        for risk in analysis.risks() {
            outln!("risk: {risk}");
        }
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
