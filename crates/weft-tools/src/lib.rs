//! Tools for weft agents.
//!
//! [`Tool`] is the trait every tool implements (name, description, input schema, async
//! call); [`ToolRegistry`] holds them by name. [`builtin_tools`] builds the built-ins —
//! `read_file`, `write_file`, `edit_file`, `list_directory`, `glob`, `grep`, `exec_shell`,
//! `memory_read`, `memory_write`, `web_fetch` — configured by [`BuiltinConfig`].
//!
//! [`McpManager`] starts the configured MCP servers ([`McpServerConfig`]) and offers their
//! tools as [`McpTool`]s named `<server>__<tool>` (see the `mcp` module).
//!
//! `exec_shell` runs each command with the [`ShellProgram`] [`ExecConfig`] names (the one the
//! permission checks read commands as), in a process group of its own, registered in
//! [`ProcessGroups`] so that none outlives its owner, with exactly the environment
//! [`ExecConfig`] gives it, optionally through a [`ShellLauncher::Wrapper`] (weft's sandbox).
//!
//! Tools do not check permissions (the agent loop asks the gate first), but file tools are
//! confined to the workspace roots they were built with ([`FsScope`]), whatever the gate says.

mod builtins;
mod grants;
mod mcp;
mod process_group;
mod registry;
mod scope;
mod tool;

/// The memory file's cap, for every reader of it (the REPL's `/memory` too).
pub use builtins::MEMORY_CAP;
pub use builtins::{
    BUILTIN_TOOL_NAMES, BuiltinConfig, ExecConfig, READ_ONLY_TOOLS, ShellLauncher, WebFetchConfig,
    builtin_registry, builtin_tools, exec_shell_tool, plain_stdout,
};
pub use grants::{ReadGrant, ReadGrants};
pub use mcp::{
    MAX_MCP_OUTPUT, MAX_SERVER_NAME_LEN, MCP_TOOL_SEPARATOR, McpConfigError, McpManager,
    McpServerConfig, McpServerState, McpServerStatus, McpTool, validate_server_name,
};
pub use process_group::{GroupGuard, ProcessGroups, ShuttingDown};
pub use registry::ToolRegistry;
pub use scope::{FsScope, real_path};
pub use tool::{CallContext, FileFilter, Sandboxing, Tool, ToolError, ToolOutput};
/// The shell `exec_shell` runs (weft-shell's, so that running and analysing agree).
pub use weft_shell::ShellProgram;
