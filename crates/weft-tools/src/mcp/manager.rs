//! Every configured server: started in parallel, each within its own timeout; their state
//! and their tools.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use super::McpServerConfig;
use super::server::{Failure, Server};
use super::tool::McpTool;
use crate::{Tool, ToolRegistry};

/// Where a server stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", content = "reason", rename_all = "snake_case")]
pub enum McpServerState {
    /// Started and answering.
    Running,
    /// Its process has exited; the next call restarts it (once).
    Crashed(String),
    /// Not running and not coming back: it did not start, its restart failed, it crashed
    /// after its restart, or it was shut down. Its tools fail with this reason.
    Failed(String),
}

impl McpServerState {
    /// True for [`McpServerState::Running`].
    pub fn is_running(&self) -> bool {
        matches!(self, McpServerState::Running)
    }

    /// The reason of a crashed or failed server.
    pub fn reason(&self) -> Option<&str> {
        match self {
            McpServerState::Running => None,
            McpServerState::Crashed(r) | McpServerState::Failed(r) => Some(r),
        }
    }

    /// `running`, `crashed` or `failed`.
    pub fn label(&self) -> &'static str {
        match self {
            McpServerState::Running => "running",
            McpServerState::Crashed(_) => "crashed",
            McpServerState::Failed(_) => "failed",
        }
    }
}

impl fmt::Display for McpServerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason() {
            None => f.write_str(self.label()),
            Some(reason) => write!(f, "{}: {reason}", self.label()),
        }
    }
}

/// One server as [`McpManager::status`] reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct McpServerStatus {
    /// The configured name.
    pub name: String,
    /// Running, crashed or failed.
    #[serde(flatten)]
    pub state: McpServerState,
    /// Its tools as registered (`<server>__<tool>`), sorted.
    pub tools: Vec<String>,
    /// The process id while it runs.
    pub pid: Option<u32>,
    /// How many times it was restarted (at most once).
    pub restarts: u32,
}

/// The MCP servers of a runtime and their tools.
///
/// [`start`](Self::start) starts every server at once, each bounded by its own startup
/// timeout; a server that fails or is slow is recorded with its error and never fails the
/// whole start. Tools hold their server: the processes live until the last tool (and the
/// manager) is dropped, or until [`shutdown`](Self::shutdown). Dropping them inside a Tokio
/// runtime closes the sessions; the processes are killed when their handles drop in any case.
#[derive(Clone, Default)]
pub struct McpManager {
    servers: Vec<Arc<Server>>,
    tools: Vec<Arc<McpTool>>,
}

impl fmt::Debug for McpManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.servers.iter().map(|s| s.name()))
            .finish()
    }
}

impl McpManager {
    /// No servers.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Starts `configs` in parallel. Invalid configurations and duplicate names are recorded
    /// as failed without starting anything. Must run inside a Tokio runtime, which then
    /// drives the sessions: use the same runtime for the calls.
    pub async fn start(configs: Vec<McpServerConfig>) -> Self {
        let mut seen = BTreeSet::new();
        let starts = configs.into_iter().map(|config| {
            let duplicate = !seen.insert(config.name.clone());
            async move {
                if duplicate {
                    let name = config.name.clone();
                    Server::failed(config, Failure::DuplicateName(name))
                } else {
                    Server::start(config).await
                }
            }
        });
        let servers = futures_util::future::join_all(starts).await;
        let mut tools = Vec::new();
        for server in &servers {
            let mut names = BTreeSet::new();
            for remote in server.remote_tools() {
                if let Some(tool) = McpTool::new(server, remote)
                    && names.insert(tool.name().to_owned())
                {
                    tools.push(Arc::new(tool));
                }
            }
        }
        tools.sort_by(|a, b| a.name().cmp(b.name()));
        Self { servers, tools }
    }

    /// True when no server is configured.
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// Every server in configuration order: state, tools, process id, restarts.
    pub fn status(&self) -> Vec<McpServerStatus> {
        self.servers
            .iter()
            .map(|server| {
                let tools = self
                    .tools
                    .iter()
                    .filter(|t| t.server() == server.name())
                    .map(|t| t.name().to_owned())
                    .collect();
                server.status(tools)
            })
            .collect()
    }

    /// The tools of every server that started, sorted by name.
    pub fn tools(&self) -> Vec<Arc<dyn Tool>> {
        self.tools
            .iter()
            .map(|t| Arc::clone(t) as Arc<dyn Tool>)
            .collect()
    }

    /// Adds every tool to `registry` (a built-in of the same name wins and the MCP tool is
    /// skipped with a warning); returns how many were added.
    pub fn register_into(&self, registry: &mut ToolRegistry) -> usize {
        let mut added = 0;
        for tool in self.tools() {
            if registry.contains(tool.name()) {
                tracing::warn!(target: "mcp", tool = %tool.name(), "MCP tool skipped: a tool of that name exists");
                continue;
            }
            registry.register(tool);
            added += 1;
        }
        added
    }

    /// Closes every session and waits (briefly) for the processes to exit. Tools of a shut
    /// down server fail with `not running: shut down`.
    pub async fn shutdown(&self) {
        futures_util::future::join_all(self.servers.iter().map(|s| s.shutdown())).await;
    }
}
