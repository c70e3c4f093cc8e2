//! How to start one MCP server: the command, its arguments and environment, and the limits.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// The separator between a server's name and its tool's, `<server>__<tool>`.
pub const MCP_TOOL_SEPARATOR: &str = weft_types::tool_names::MCP_SEPARATOR;

/// The longest server name accepted.
pub const MAX_SERVER_NAME_LEN: usize = 48;

/// One stdio MCP server to start, and the limits of talking to it.
///
/// The child's environment is exactly [`env`](Self::env): nothing is inherited, so the caller
/// decides what a server may see (a server that needs `PATH` or `HOME` must be given them).
///
/// ```
/// use weft_tools::McpServerConfig;
///
/// let config = McpServerConfig::new("github", "npx").with_args(["-y", "github-mcp"]);
/// assert_eq!(config.name, "github");
/// assert!(config.validate().is_ok());
/// assert!(McpServerConfig::new("a__b", "x").validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServerConfig {
    /// The server's name: the prefix of its tools (`<name>__<tool>`).
    pub name: String,
    /// The program to run.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The child's whole environment.
    pub env: BTreeMap<String, String>,
    /// The working directory (default: the caller's).
    pub cwd: Option<PathBuf>,
    /// How long the start (spawn, initialize, list tools) may take (default 60 s: a first
    /// `npx -y` run downloads the package before the server answers).
    pub startup_timeout: Duration,
    /// How long one tool call may take (default 60 s).
    pub call_timeout: Duration,
    /// The longest message (one line of its stdout) read from the server (default 8 MiB);
    /// a longer one ends the session.
    pub max_message_bytes: usize,
}

impl McpServerConfig {
    /// Default [`startup_timeout`](Self::startup_timeout).
    pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(60);
    /// Default [`call_timeout`](Self::call_timeout).
    pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);
    /// Default [`max_message_bytes`](Self::max_message_bytes).
    pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 8 << 20;

    /// A server run as `command` with no arguments, an empty environment and the default
    /// timeouts.
    pub fn new(name: impl Into<String>, command: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            command: command.into(),
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: None,
            startup_timeout: Self::DEFAULT_STARTUP_TIMEOUT,
            call_timeout: Self::DEFAULT_CALL_TIMEOUT,
            max_message_bytes: Self::DEFAULT_MAX_MESSAGE_BYTES,
        }
    }

    /// With these arguments.
    pub fn with_args<S: Into<String>>(mut self, args: impl IntoIterator<Item = S>) -> Self {
        self.args = args.into_iter().map(Into::into).collect();
        self
    }

    /// With one more environment variable.
    pub fn with_env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.insert(key.into(), value.into());
        self
    }

    /// With this working directory.
    pub fn with_cwd(mut self, cwd: impl Into<PathBuf>) -> Self {
        self.cwd = Some(cwd.into());
        self
    }

    /// With this startup timeout.
    pub fn with_startup_timeout(mut self, timeout: Duration) -> Self {
        self.startup_timeout = timeout;
        self
    }

    /// With this per-call timeout.
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// With this cap on one message from the server.
    pub fn with_max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    /// Checks the name (see [`validate_server_name`]) and that there is a command.
    pub fn validate(&self) -> Result<(), McpConfigError> {
        validate_server_name(&self.name)?;
        if self.command.trim().is_empty() {
            return Err(McpConfigError::NoCommand {
                server: self.name.clone(),
            });
        }
        Ok(())
    }
}

/// A configuration mistake.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpConfigError {
    /// The name cannot prefix tool names.
    #[error(
        "invalid MCP server name `{name}`: {reason} (use letters, digits, `-` and `_`, without `__`)"
    )]
    InvalidName {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The command is empty.
    #[error("MCP server `{server}` has no command")]
    NoCommand {
        /// The server.
        server: String,
    },
}

/// Checks that `name` can prefix tool names: 1 to [`MAX_SERVER_NAME_LEN`] ASCII letters,
/// digits, `-` and `_`, not starting or ending with `_`, and no `__` (the separator).
///
/// ```
/// use weft_tools::validate_server_name;
///
/// assert!(validate_server_name("github").is_ok());
/// assert!(validate_server_name("my-server_2").is_ok());
/// for bad in ["", "a__b", "_a", "a_", "a.b", "a b", "mcp"] {
///     assert!(validate_server_name(bad).is_err(), "{bad}");
/// }
/// ```
pub fn validate_server_name(name: &str) -> Result<(), McpConfigError> {
    let fail = |reason| {
        Err(McpConfigError::InvalidName {
            name: name.to_owned(),
            reason,
        })
    };
    if name.is_empty() {
        return fail("the name is empty");
    }
    if name.len() > MAX_SERVER_NAME_LEN {
        return fail("the name is longer than 48 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return fail("the name has a character other than a letter, a digit, `-` or `_`");
    }
    if name.contains(MCP_TOOL_SEPARATOR) {
        return fail("the name contains `__`, the separator of server and tool");
    }
    if name.starts_with('_') || name.ends_with('_') {
        return fail("the name starts or ends with `_`");
    }
    if name == "mcp" {
        // `mcp__x__y` would read as the alias of `x__y`.
        return fail("`mcp` is reserved for the `mcp__<server>__<tool>` alias");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(validate_server_name("everything").is_ok());
        assert!(validate_server_name(&"a".repeat(48)).is_ok());
        assert!(validate_server_name(&"a".repeat(49)).is_err());
        let err = validate_server_name("a__b").unwrap_err().to_string();
        assert!(err.contains("`a__b`") && err.contains("separator"), "{err}");
        assert!(validate_server_name("é").is_err());
    }

    #[test]
    fn commands() {
        let err = McpServerConfig::new("x", " ").validate().unwrap_err();
        assert_eq!(err.to_string(), "MCP server `x` has no command");
        let c = McpServerConfig::new("x", "node")
            .with_args(["a"])
            .with_env("K", "V")
            .with_cwd("/tmp")
            .with_startup_timeout(Duration::from_secs(1))
            .with_call_timeout(Duration::from_secs(2));
        assert_eq!(c.args, ["a"]);
        assert_eq!(c.env.get("K").map(String::as_str), Some("V"));
        assert_eq!(c.startup_timeout, Duration::from_secs(1));
        assert_eq!(c.call_timeout, Duration::from_secs(2));
    }
}
