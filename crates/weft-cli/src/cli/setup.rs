//! The arguments of the commands about weft's own set-up: `weft config`, `weft doctor`,
//! `weft sandbox status` (the internal `weft sandbox exec` helper is weft-sandbox's, served
//! before clap), `weft mcp` and `weft hooks`. Separate from the skill and agent commands because they inspect the configuration, not skills or agents.

use clap::{Args, Subcommand};

use super::ListFormat;

/// `weft config ...`
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the configuration in effect as JSON (API keys masked), or with --origin a table
    /// of every value and the file, environment variable or default it came from.
    Show(ConfigShowArgs),
}

/// Arguments of `weft config show`.
#[derive(Debug, Args)]
pub struct ConfigShowArgs {
    /// Only this key and what is below it (a dot path: `agent`, `providers.openai.base_url`).
    pub key: Option<String>,
    /// Show where each value comes from.
    #[arg(long)]
    pub origin: bool,
    /// Output format of --origin.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of `weft doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Also send the default model one short request (costs a few tokens).
    #[arg(long)]
    pub online: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// `weft sandbox ...`
#[derive(Debug, Subcommand)]
pub enum SandboxCommand {
    /// What this machine offers (Landlock ABI, seccomp, user namespaces) and whether
    /// exec_shell runs sandboxed with the current configuration, and why not.
    Status(SandboxStatusArgs),
}

/// Arguments of `weft sandbox status`.
#[derive(Debug, Args)]
pub struct SandboxStatusArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// `weft mcp ...`
#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Start the configured MCP servers and list them: name, source (config or .mcp.json),
    /// status, tool count and tools. Exits 1 when a server that should start is not running.
    List(McpListArgs),
    /// Approve servers of this project's .mcp.json by name: they start from now on although
    /// the project is not trusted (remembered in ~/.clawft/mcp-approvals.json).
    Approve(McpApproveArgs),
    /// Take back approvals given with `weft mcp approve`.
    Revoke(McpApproveArgs),
}

/// Arguments of `weft mcp approve` and `weft mcp revoke`.
#[derive(Debug, Args)]
pub struct McpApproveArgs {
    /// The servers' names, as .mcp.json writes them.
    #[arg(required = true, value_name = "NAME")]
    pub names: Vec<String>,
}

/// `weft hooks ...`
#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Every hook: source, event, matcher, command, and whether it is trusted to run.
    List(HooksListArgs),
}

/// Arguments of `weft hooks list`.
#[derive(Debug, Args)]
pub struct HooksListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of `weft mcp list`.
#[derive(Debug, Args)]
pub struct McpListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}
