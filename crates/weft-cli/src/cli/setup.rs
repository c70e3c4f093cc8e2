//! The arguments of the commands about weft's own set-up: `weft config`, `weft doctor`,
//! `weft sandbox` (with the internal `sandbox exec` helper), `weft mcp` and `weft hooks`. Separate from the
//! skill and agent commands because they inspect the configuration, not skills or agents.

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
    /// Internal: how exec_shell runs a command: tie it to weft's life, apply the sandbox
    /// policy (if any), run COMMAND and exit as it exits.
    #[command(hide = true)]
    Exec(SandboxExecArgs),
}

/// Arguments of `weft sandbox status`.
#[derive(Debug, Args)]
pub struct SandboxStatusArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of the internal `weft sandbox exec`.
#[derive(Debug, Args)]
pub struct SandboxExecArgs {
    /// The policy as JSON; without it the command runs unsandboxed (still tied to weft).
    #[arg(long, value_name = "JSON")]
    pub policy: Option<String>,
    /// weft's process id: the helper starts nothing when it is no longer its parent.
    #[arg(long, value_name = "PID")]
    pub parent: Option<u32>,
    /// The second stage: apply the policy to this process and execute the command in place
    /// (the first stage, which supervises, starts it).
    #[arg(long, requires = "policy")]
    pub apply: bool,
    /// The program and its arguments, after `--`.
    #[arg(required = true, last = true, value_name = "COMMAND")]
    pub command: Vec<std::ffi::OsString>,
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
