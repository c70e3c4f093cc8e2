//! `weft mcp list`: the configured MCP servers, started, with their status and tools.

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use weft_tools::McpServerStatus;
use weft_types::tool_names::mcp_tool_part;

use crate::cli::{ListFormat, McpListArgs};
use crate::commands::run::{start_mcp, status_line};
use crate::environment::stderr_terminal;
use crate::output::{out, outln};
use weft_runtime::Runtime;
use weft_runtime::Workspace;
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
    status: &'static str,
    reason: Option<&'a str>,
    tool_count: usize,
    tools: Vec<ToolJson<'a>>,
    pid: Option<u32>,
    restarts: u32,
}

impl<'a> ServerJson<'a> {
    fn started(s: &'a McpServerStatus) -> Self {
        Self {
            name: &s.name,
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

    fn disabled(name: &'a str) -> Self {
        Self {
            name,
            status: "disabled",
            reason: None,
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
    let disabled = servers.disabled();
    let healthy = status.iter().all(|s| s.state.is_running());
    match args.format {
        ListFormat::Json => {
            let list: Vec<ServerJson<'_>> = status
                .iter()
                .map(ServerJson::started)
                .chain(disabled.iter().map(|name| ServerJson::disabled(name)))
                .collect();
            outln!("{}", crate::output::json_pretty(&list)?);
        }
        ListFormat::Table => {
            if status.is_empty() && disabled.is_empty() {
                outln!(
                    "no MCP servers are configured (add `mcp_servers` to ~/.clawft/config.json; see docs/CONFIG.md)"
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
                        state_label(s).to_owned(),
                        s.tools.len().to_string(),
                        detail,
                    ]
                })
                .collect();
            rows.extend(disabled.iter().map(|name| {
                vec![
                    name.clone(),
                    "disabled".to_owned(),
                    "0".to_owned(),
                    String::new(),
                ]
            }));
            out!(
                "{}",
                fit_table(
                    &["NAME", "STATUS", "TOOLS", "DETAIL"],
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
