//! `weft mcp list`: the configured MCP servers, started, with their status and tools.

use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;
use weft_tools::McpServerStatus;
use weft_types::tool_names::mcp_tool_part;

use crate::cli::{ListFormat, McpListArgs};
use crate::commands::run::{start_mcp, status_line};
use crate::environment::stderr_terminal;
use crate::output::{out, outln};
use weft_runtime::Runtime;
use weft_runtime::Workspace;
use weft_term::fit_table;

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
            let mut list: Vec<serde_json::Value> = status
                .iter()
                .map(|s| {
                    json!({
                        "name": s.name,
                        "status": state_label(s),
                        "reason": s.state.reason(),
                        "tool_count": s.tools.len(),
                        "tools": s.tools,
                        "pid": s.pid,
                        "restarts": s.restarts,
                    })
                })
                .collect();
            list.extend(disabled.iter().map(|name| {
                json!({"name": name, "status": "disabled", "reason": null, "tool_count": 0, "tools": [], "pid": null, "restarts": 0})
            }));
            outln!("{}", serde_json::to_string_pretty(&list)?);
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
