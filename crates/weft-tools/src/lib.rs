//! Tools for weft agents.
//!
//! [`Tool`] is the trait every tool implements (name, description, input schema, async
//! call); [`ToolRegistry`] holds them by name. [`builtin_tools`] builds the built-ins —
//! `read_file`, `write_file`, `edit_file`, `list_directory`, `glob`, `grep`, `exec_shell`,
//! `memory_read`, `memory_write`, `web_fetch` — configured by [`BuiltinConfig`].
//!
//! Tools do not check permissions (the agent loop asks the gate first), but file tools are
//! confined to the workspace roots they were built with ([`FsScope`]), whatever the gate says.

mod builtins;
mod registry;
mod scope;
mod tool;

pub use builtins::{
    BUILTIN_TOOL_NAMES, BuiltinConfig, ExecConfig, READ_ONLY_TOOLS, WebFetchConfig,
    builtin_registry, builtin_tools,
};
pub use registry::ToolRegistry;
pub use scope::FsScope;
pub use tool::{Tool, ToolError, ToolOutput};
