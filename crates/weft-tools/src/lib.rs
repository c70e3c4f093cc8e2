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
//!
//! # Code map
//!
//! Tools. `tool.rs`: the `Tool` trait (name, description, JSON schema, async call) and `ToolError`;
//! `fn_tool.rs`: `FnTool`, a tool made of a closure (for embedders' simple tools);
//! `registry.rs`: `ToolRegistry`, with filtered views. `scope.rs`: `FsScope`, the directories file
//! tools may touch: a path must lie inside as spelled and as it really is (symlinks resolved),
//! everything else refused; `resolve` for writing, `resolve_read` for reading; `real_path`, a
//! path's real path without judging it. `grants.rs`: `ReadGrants`, the shared set of directories
//! readable but not writable while a `ReadGrant` is held (a loaded skill's own directory), judged
//! like the roots: the spelled path inside the directory as named or as it really is, and the real
//! path inside it, so a link out of it, or into it from elsewhere, is refused. `builtins/`:
//! `read_file`, `write_file`, `edit_file` (atomic writes), `list_directory`, `glob`, `grep`,
//! `exec_shell` (exactly the environment `ExecConfig` gives it, optionally through a
//! `ShellLauncher` wrapper such as the sandbox helper, or refused; timeout kills the process group,
//! output capped; `exec_shell_tool` builds one alone). `grep`, `glob` and `list_directory` honour
//! the `CallContext` of `Tool::call_in`: its `FileFilter` (the session's path rules) judges every
//! file they visit on the path reached and the real path, and the result counts what was withheld;
//! `Tool::check_reach` says, before anyone is asked, what a tool would refuse anyway (a path
//! outside its reach), `memory_read`/`memory_write`, `web_fetch` (only when configured; domain
//! allow-list). `mcp/`: MCP servers over stdio through the official `rmcp` client — `config.rs`
//! (`McpServerConfig`, server-name rules; the child's environment is exactly what the caller
//! passes), `connection.rs` (spawn, stderr into `tracing` target `mcp`, handshake, tool listing,
//! calls), `server.rs` (one server's life: state, one restart after a crash, then unavailable),
//! `manager.rs` (`McpManager`: all servers started in parallel, each within its startup timeout;
//! status), `tool.rs` (`McpTool`, named `<server>__<tool>`; `isError` results become errors; the
//! server's `readOnlyHint` is kept as `Tool::read_only_hint`). `process_group.rs`: `ProcessGroups`,
//! the registry of `exec_shell`'s live process groups (a cancelled or timed-out call kills its
//! group; `shutdown()` and the last handle's drop kill the rest). Tools do not check permissions:
//! that is the gate's job, one layer up. Start and restart failures are typed (`ConnectError`,
//! `Unavailable`, and `Failure`, why a server stopped for good, kept for every later call); a
//! server's status keeps their message. Depends on `weft-types` (the tool names), `weft-shell` (the
//! shell `exec_shell` runs) and `weft-fs` (`read_file`, `edit_file`, `grep` and the memory tools
//! open files through it, so a FIFO or a device is refused, not waited on), tokio, globset, regex,
//! reqwest, rustls (see "TLS" in docs/ARCHITECTURE.md), rmcp (client, child-process transport; the
//! server side only in tests), rustix (process-group signals), async-trait, futures-util, serde,
//! serde_json, thiserror, tracing (weft-permissions is a dev-dependency of the MCP gate tests).

mod builtins;
mod fn_tool;
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
pub use fn_tool::FnTool;
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
