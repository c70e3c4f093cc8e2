//! `weft agents list|show` in seed 002's formats (FR-3F-051).

use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;
use weft_agents::AgentEntry;
use weft_types::AgentDefinition;

use crate::cli::{AgentsListArgs, AgentsShowArgs, ListFormat};
use crate::environment::stdout_terminal;
use crate::output::{eprint_diagnostics, eprint_discovery_diagnostics};
use crate::output::{out, outln};
use weft_runtime::Workspace;
use weft_runtime::{Runtime, unknown_agent};
use weft_term::{fit_table, one_line, scope_label, tilde};

fn model_label(agent: &AgentDefinition) -> String {
    agent
        .model
        .clone()
        .unwrap_or_else(|| "(config default)".to_owned())
}

fn tools_label(tools: Option<&[String]>) -> String {
    match tools {
        None => "(all)".to_owned(),
        Some([]) => "(none)".to_owned(),
        Some(list) => list.join(", "),
    }
}

fn entry_json(entry: &AgentEntry, runtime: &Runtime) -> serde_json::Value {
    let a = &entry.agent;
    json!({
        "name": a.name,
        "description": a.description,
        "model": a.model,
        "model_error": model_problem(a, runtime),
        "model_fallback": model_fallback(a, runtime),
        "temperature": a.temperature.map(json_f32),
        "max_tool_iterations": a.max_tool_iterations,
        "context_window": a.context_window,
        "tools": a.tools,
        "disallowed_tools": a.disallowed_tools,
        "skills": a.skills,
        "background": a.background,
        "scope": a.source.scope.to_string(),
        "plugin": a.source.plugin.as_ref().map(|p| p.id.as_str()),
        "format": a.source.format.to_string(),
        "path": a.source.path,
        "shadows": entry.shadows.iter().map(|s| json!({"scope": s.scope.to_string(), "path": s.path})).collect::<Vec<_>>(),
        "warnings": entry.diagnostics.iter().map(|d| json!({"code": d.code, "message": d.message})).collect::<Vec<_>>(),
    })
}

/// An `f32` as the number it was written as (`0.2`, not `0.20000000298023224`).
fn json_f32(value: f32) -> serde_json::Value {
    value
        .to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// SEC-SKILL-05: an agent whose model names no configured provider is flagged.
fn model_problem(agent: &AgentDefinition, runtime: &Runtime) -> Option<String> {
    let model = agent.model.as_deref()?;
    if model == "inherit" {
        return None;
    }
    runtime
        .models
        .resolve(model, None)
        .err()
        .filter(|_| model_fallback(agent, runtime).is_none())
        .map(|e| e.to_string())
}

/// The model an agent runs on instead of its alias when no provider serves the alias
/// (`haiku` without Anthropic): the session's, here the configured default.
fn model_fallback(agent: &AgentDefinition, runtime: &Runtime) -> Option<String> {
    let model = agent.model.as_deref()?;
    let owner = format!("agent `{}`", agent.name);
    match runtime.models.resolve_or_fallback(model, None, &owner) {
        Ok((fallback, Some(_))) => Some(fallback.to_string()),
        _ => None,
    }
}

/// `weft agents list`.
pub fn list(workspace: &Workspace, args: &AgentsListArgs, verbose: bool) -> Result<ExitCode> {
    let runtime = Runtime::load(workspace)?;
    eprint_discovery_diagnostics(runtime.agents.diagnostics(), "agent files", verbose);
    match args.format {
        ListFormat::Json => {
            let all: Vec<_> = runtime
                .agents
                .list()
                .map(|e| entry_json(e, &runtime))
                .collect();
            outln!("{}", crate::output::json_pretty(&all)?);
        }
        ListFormat::Table => {
            let rows: Vec<Vec<String>> = runtime
                .agents
                .list()
                .map(|e| {
                    vec![
                        e.agent.name.clone(),
                        one_line(&e.agent.description),
                        model_label(&e.agent),
                        match &e.agent.source.plugin {
                            Some(p) => format!("{} ({})", scope_label(e.agent.source.scope), p.id),
                            None => scope_label(e.agent.source.scope).to_owned(),
                        },
                    ]
                })
                .collect();
            out!(
                "{}",
                fit_table(
                    &["NAME", "DESCRIPTION", "MODEL", "SCOPE"],
                    &rows,
                    stdout_terminal().width
                )
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `weft agents show <name>`.
pub fn show(workspace: &Workspace, args: &AgentsShowArgs) -> Result<ExitCode> {
    let runtime = Runtime::load(workspace)?;
    let Some(entry) = runtime.agents.get(&args.name) else {
        return Err(unknown_agent(&runtime.agents, &args.name).into());
    };
    // What an untrusted project did to this agent, whatever the format.
    eprint_diagnostics(&entry.diagnostics);
    if args.format == ListFormat::Json {
        outln!(
            "{}",
            crate::output::json_pretty(&entry_json(entry, &runtime))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let a = &entry.agent;
    let home = workspace.home.as_deref();
    let mut out = format!("Agent: {}\nDescription: {}\n", a.name, a.description);
    out.push_str(&format!("Model: {}", model_label(a)));
    if let Some(problem) = model_problem(a, &runtime) {
        out.push_str(&format!("  (invalid: {problem})"));
    }
    if let Some(fallback) = model_fallback(a, &runtime) {
        out.push_str(&format!(
            "  (no configured provider serves it: runs on {fallback})"
        ));
    }
    out.push('\n');
    if let Some(t) = a.temperature {
        out.push_str(&format!("Temperature: {t}\n"));
    }
    if let Some(n) = a.max_tool_iterations {
        out.push_str(&format!("Max Tool Iterations: {n}\n"));
    }
    if let Some(n) = a.context_window {
        out.push_str(&format!("Context Window: {n}\n"));
    }
    match &a.source.path {
        Some(p) => out.push_str(&format!(
            "Scope: {} ({})\n",
            scope_label(a.source.scope),
            tilde(p, home)
        )),
        None => out.push_str(&format!("Scope: {}\n", scope_label(a.source.scope))),
    }
    if let Some(p) = &a.source.plugin {
        out.push_str(&format!("Plugin: {}\n", p.id));
    }
    out.push_str(&format!("Tools: {}\n", tools_label(a.tools.as_deref())));
    if !a.disallowed_tools.is_empty() {
        out.push_str(&format!(
            "Disallowed Tools: {}\n",
            a.disallowed_tools.join(", ")
        ));
    }
    if !a.skills.is_empty() {
        out.push_str(&format!("Skills: {}\n", a.skills.join(", ")));
    }
    if a.background {
        out.push_str("Background: yes\n");
    }
    for s in &entry.shadows {
        let place = s
            .path
            .as_deref()
            .map(|p| format!(" ({})", tilde(p, home)))
            .unwrap_or_default();
        out.push_str(&format!("Overrides: {}{place}\n", scope_label(s.scope)));
    }
    if let Some(prompt) = a.system_prompt.as_deref().filter(|p| !p.trim().is_empty()) {
        out.push_str("System Prompt:\n");
        for line in prompt.trim_end().lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out!("{out}");
    Ok(ExitCode::SUCCESS)
}
