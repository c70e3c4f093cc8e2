//! `weft mcp list`: the configured MCP servers (`mcp_servers`, the project's `.mcp.json`),
//! started, with their source, status and tools; `weft mcp approve` / `revoke`: the
//! `.mcp.json` servers a person lets start in a project that is not trusted.

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use weft_tools::McpServerStatus;
use weft_types::tool_names::mcp_tool_part;

use crate::cli::{ListFormat, McpApproveArgs, McpListArgs};
use crate::commands::run::{start_mcp, status_line};
use crate::environment::stderr_terminal;
use crate::output::{out, outln};
use weft_runtime::{IdleServer, McpApprovals, Runtime, ServerSource, UsageError, Workspace};
use weft_term::fit_table;

/// One tool of a server: `name` as the server calls it (the table's DETAIL column), and
/// `qualified_name` as the model, permission patterns and transcripts call it
/// (`<server>__<tool>`).
#[derive(Debug, Serialize)]
struct ToolJson<'a> {
    name: &'a str,
    qualified_name: &'a str,
}

/// One server as `mcp list --format json` prints it: the table's columns, named alike.
#[derive(Debug, Serialize)]
struct ServerJson<'a> {
    name: &'a str,
    /// `config` or `.mcp.json`.
    source: &'static str,
    status: &'static str,
    reason: Option<&'a str>,
    tool_count: usize,
    tools: Vec<ToolJson<'a>>,
    pid: Option<u32>,
    restarts: u32,
}

impl<'a> ServerJson<'a> {
    fn started(s: &'a McpServerStatus, source: &'static str) -> Self {
        Self {
            name: &s.name,
            source,
            status: s.state.label(),
            reason: s.state.reason(),
            tool_count: s.tools.len(),
            tools: s
                .tools
                .iter()
                .map(|t| ToolJson {
                    name: mcp_tool_part(t),
                    qualified_name: t,
                })
                .collect(),
            pid: s.pid,
            restarts: s.restarts,
        }
    }

    fn idle(server: &'a IdleServer) -> Self {
        Self {
            name: &server.name,
            source: server.source.label(),
            status: server.status,
            reason: server.reason.as_deref(),
            tool_count: 0,
            tools: Vec::new(),
            pid: None,
            restarts: 0,
        }
    }
}

/// The status column: `running`, `crashed`, `failed`, `disabled`.
fn state_label(status: &McpServerStatus) -> &'static str {
    status.state.label()
}

/// `weft mcp list`.
pub fn list(workspace: &Workspace, args: &McpListArgs) -> Result<ExitCode> {
    let runtime = Runtime::load(workspace)?;
    let status = status_line(stderr_terminal());
    start_mcp(&runtime, status.as_ref());
    drop(status);
    let servers = runtime.mcp();
    let status = servers.manager().status();
    let idle = servers.idle();
    let healthy = status.iter().all(|s| s.state.is_running());
    let source = |name: &str| servers.source(name).map_or("config", ServerSource::label);
    match args.format {
        ListFormat::Json => {
            let list: Vec<ServerJson<'_>> = status
                .iter()
                .map(|s| ServerJson::started(s, source(&s.name)))
                .chain(idle.iter().map(ServerJson::idle))
                .collect();
            outln!("{}", crate::output::json_pretty(&list)?);
        }
        ListFormat::Table => {
            if status.is_empty() && idle.is_empty() {
                outln!(
                    "no MCP servers are configured (add `mcp_servers` to ~/.clawft/config.json, or a .mcp.json to the project; see docs/CONFIG.md)"
                );
                return Ok(ExitCode::SUCCESS);
            }
            let mut rows: Vec<Vec<String>> = status
                .iter()
                .map(|s| {
                    let detail = match s.state.reason() {
                        Some(reason) => reason.to_owned(),
                        None => s
                            .tools
                            .iter()
                            .map(|t| mcp_tool_part(t))
                            .collect::<Vec<_>>()
                            .join(", "),
                    };
                    vec![
                        s.name.clone(),
                        source(&s.name).to_owned(),
                        state_label(s).to_owned(),
                        s.tools.len().to_string(),
                        detail,
                    ]
                })
                .collect();
            rows.extend(idle.iter().map(|server| {
                vec![
                    server.name.clone(),
                    server.source.label().to_owned(),
                    server.status.to_owned(),
                    "0".to_owned(),
                    server.reason.clone().unwrap_or_default(),
                ]
            }));
            out!(
                "{}",
                fit_table(
                    &["NAME", "SOURCE", "STATUS", "TOOLS", "DETAIL"],
                    &rows,
                    crate::environment::stdout_terminal().width
                )
            );
        }
    }
    Ok(if healthy {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `weft mcp approve NAME...` (`approve`) and `weft mcp revoke NAME...`: names of this
/// project's `.mcp.json` servers, remembered in the user's own state.
pub fn approve(workspace: &Workspace, args: &McpApproveArgs, approve: bool) -> Result<ExitCode> {
    let (Some(project), Some(file)) = (&workspace.project, workspace.mcp_approvals_file()) else {
        return Err(UsageError::new(
            "no project or no home directory: approvals are kept per project under ~/.clawft",
        )
        .into());
    };
    if approve {
        let env = |name: &str| workspace.env.var(name);
        let known: Vec<String> = workspace
            .mcp_json()
            .and_then(|path| weft_runtime::McpJson::load(&path, &env).ok().flatten())
            .map(|json| json.servers.into_iter().map(|s| s.name).collect())
            .unwrap_or_default();
        for name in &args.names {
            if !known.contains(name) {
                let hint = weft_types::suggest::did_you_mean(&weft_types::suggest::closest_names(
                    name,
                    known.iter().map(String::as_str),
                ));
                return Err(UsageError::new(format!(
                    "`{name}` is not a server of {}{hint}",
                    project.join(".mcp.json").display()
                ))
                .into());
            }
        }
    }
    let mut approvals = McpApprovals::load(&file)?;
    approvals.set(project, &args.names, approve)?;
    let verb = if approve {
        "approved"
    } else {
        "no longer approved"
    };
    outln!(
        "{} {verb} for {} (kept in {})",
        args.names.join(", "),
        project.display(),
        file.display()
    );
    Ok(ExitCode::SUCCESS)
}
