//! MCP: tools of external servers spoken to over stdio with the official `rmcp` client.
//!
//! * [`McpServerConfig`]: how to start one server (command, arguments, the child's whole
//!   environment, working directory, startup and call timeouts); names are checked by
//!   [`validate_server_name`].
//! * [`McpManager`]: starts every server in parallel, each within its startup timeout (a
//!   slow or broken server is recorded, never fatal); [`McpManager::status`] and
//!   [`McpManager::tools`].
//! * [`McpTool`]: one server tool as a [`Tool`](crate::Tool) named `<server>__<tool>` with the
//!   server's description and input schema. `isError` results are errors for the model; a
//!   server found dead is restarted once, after which its tools fail with a clear error.
//!
//! The server's stderr goes to `tracing` (target `mcp`, field `server`), one event per line
//! (cut at 2,000 bytes); a message on its stdout longer than
//! [`McpServerConfig::max_message_bytes`] ends the session with an error that says so.
//! Nothing here reads the environment or checks permissions: the caller builds the child's
//! environment, and the gate judges every call by its qualified name before it runs.

mod config;
mod connection;
mod manager;
mod server;
mod tool;
mod transport;

pub use config::{
    MAX_SERVER_NAME_LEN, MCP_TOOL_SEPARATOR, McpConfigError, McpServerConfig, validate_server_name,
};
pub use manager::{McpManager, McpServerState, McpServerStatus};
pub use tool::{MAX_MCP_OUTPUT, McpTool};
