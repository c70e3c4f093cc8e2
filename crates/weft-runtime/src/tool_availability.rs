//! Which tools a session of this runtime would have, known without starting one (or its MCP
//! servers): what `weft skills show`, `skills catalog`, `doctor` and `/skills` judge a
//! skill's readiness by. A session judges by its own tools ([`Session::has_tool`]).
//!
//! [`Session::has_tool`]: weft_agents::Session::has_tool

use std::collections::BTreeSet;

use weft_permissions::{canonical_tool_name, mcp_parts};
use weft_types::tool_names::SESSION_TOOLS;

use crate::{Runtime, RuntimeError};

/// The tools a session would have: the local tools the configuration registers, the tools
/// the session serves itself, and any tool of an enabled MCP server (its tools are not
/// listed until it starts, so every name under it counts).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolAvailability {
    tools: BTreeSet<String>,
    mcp_servers: BTreeSet<String>,
}

impl ToolAvailability {
    /// What a session of `runtime` would have.
    pub fn of(runtime: &Runtime) -> Result<Self, RuntimeError> {
        let local = runtime.local_tools()?;
        Ok(Self {
            tools: local
                .names()
                .chain(SESSION_TOOLS)
                .map(str::to_owned)
                .collect(),
            mcp_servers: runtime
                .mcp_plan()
                .names()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        })
    }

    /// These tool names and MCP servers (for tests and embedders).
    pub fn new<S: Into<String>>(
        tools: impl IntoIterator<Item = S>,
        mcp_servers: impl IntoIterator<Item = S>,
    ) -> Self {
        Self {
            tools: tools.into_iter().map(Into::into).collect(),
            mcp_servers: mcp_servers.into_iter().map(Into::into).collect(),
        }
    }

    /// True when a session would have `tool` (any spelling: `Read`, `mcp__github__x`).
    ///
    /// ```
    /// use weft_runtime::ToolAvailability;
    ///
    /// let tools = ToolAvailability::new(["read_file"], ["github"]);
    /// assert!(tools.has("Read") && tools.has("mcp__github__create_issue"));
    /// assert!(!tools.has("specKit") && !tools.has("slack__post"));
    /// ```
    pub fn has(&self, tool: &str) -> bool {
        let canonical = canonical_tool_name(tool);
        self.tools.contains(canonical)
            || mcp_parts(canonical).is_some_and(|(server, _)| self.mcp_servers.contains(server))
    }
}
