//! One live connection to a server process: spawn it, route its stderr into `tracing`,
//! initialise the MCP session, list its tools, call them. Both outputs of the process are
//! read with caps ([`super::transport`]).

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    JsonObject,
};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceError, ServiceExt};
use tokio::task::JoinHandle;

use super::McpServerConfig;
use super::transport::{ChildTransport, Overflow, route_stderr};

/// How many of the server's last stderr lines are kept for error messages.
const STDERR_TAIL: usize = 3;

/// How long to wait for the last stderr lines of a process that has died.
const STDERR_SETTLE: Duration = Duration::from_millis(300);

/// Why a server could not be started (or restarted). The message names the cause and ends
/// with the server's last stderr lines when it wrote any.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConnectError {
    /// The program could not be run.
    #[error("cannot run `{command}`: {source}")]
    Spawn {
        /// The program.
        command: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The process ran but the MCP initialisation failed.
    #[error("the MCP handshake failed: {source}")]
    Handshake {
        /// Why.
        #[source]
        source: Box<rmcp::service::ClientInitializeError>,
    },
    /// The session started but the tool list could not be read.
    #[error("listing its tools failed: {source}")]
    ListTools {
        /// Why.
        #[source]
        source: ServiceError,
    },
    /// Start and tool listing took longer than the startup timeout.
    #[error(
        "it did not start within {} (a first `npx -y` run downloads the package first); raise `mcp_servers.{server}.startup_timeout_secs` in the configuration if it needs longer",
        show_duration(*.timeout)
    )]
    Timeout {
        /// The server's name.
        server: String,
        /// The startup timeout.
        timeout: Duration,
    },
    /// The server sent a message over its limit (the message says which and how to raise
    /// it), and the session was closed.
    #[error("{0}")]
    Overflow(String),
    /// The task restarting the server was cancelled (its runtime shut down).
    #[error("the restart was cancelled: {source}")]
    RestartCancelled {
        /// Why.
        #[source]
        source: tokio::task::JoinError,
    },
    /// One of the above, with the server's last stderr lines.
    #[error("{source}{stderr}")]
    WithStderr {
        /// What went wrong.
        #[source]
        source: Box<ConnectError>,
        /// `; its stderr ends with: ...`.
        stderr: String,
    },
}

impl ConnectError {
    /// `self` with the stderr tail appended to its message (when there is one).
    fn with_stderr(self, tail: &StderrTail) -> Self {
        let stderr = tail.suffix();
        if stderr.is_empty() {
            return self;
        }
        ConnectError::WithStderr {
            source: Box::new(self),
            stderr,
        }
    }
}

/// A tool as the server describes it.
#[derive(Debug, Clone)]
pub(crate) struct RemoteTool {
    /// The server's name for it.
    pub(crate) name: String,
    /// Its description, if any.
    pub(crate) description: Option<String>,
    /// Its input schema.
    pub(crate) input_schema: serde_json::Value,
    /// The server annotates it `readOnlyHint: true`.
    pub(crate) read_only: bool,
}

/// The last lines the server wrote to stderr.
#[derive(Debug, Clone, Default)]
pub(crate) struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    pub(crate) fn push(&self, line: String) {
        if let Ok(mut lines) = self.0.lock() {
            if lines.len() == STDERR_TAIL {
                lines.pop_front();
            }
            lines.push_back(line);
        }
    }

    /// `; stderr: a | b` or nothing.
    pub(crate) fn suffix(&self) -> String {
        let lines = match self.0.lock() {
            Ok(lines) => lines.iter().cloned().collect::<Vec<_>>(),
            Err(_) => Vec::new(),
        };
        if lines.is_empty() {
            String::new()
        } else {
            format!("; its stderr ends with: {}", lines.join(" | "))
        }
    }
}

/// An initialised session with a running server process.
pub(crate) struct Connection {
    client: RunningService<RoleClient, ClientConfig>,
    pid: Option<u32>,
    stderr: StderrTail,
    /// Set when the server sent a message over its limit.
    overflow: Overflow,
    /// The stderr reader, which ends when the process closes stderr.
    reader: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("pid", &self.pid)
            .field("alive", &self.is_alive())
            .finish()
    }
}

/// What weft tells servers about itself.
fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("weft", env!("CARGO_PKG_VERSION")),
    )
}

impl Connection {
    /// Spawns the server and initialises the session, within `config.startup_timeout`, then
    /// lists its tools (the same deadline covers both). The error says what went wrong.
    pub(crate) async fn start(
        config: &McpServerConfig,
    ) -> Result<(Connection, Vec<RemoteTool>), ConnectError> {
        let stderr = StderrTail::default();
        let overflow = Overflow::default();
        let timeout = config.startup_timeout;
        let mut reader = None;
        let started = async {
            let conn = Self::open(config, stderr.clone(), overflow.clone(), &mut reader).await?;
            let tools = conn.list_tools().await?;
            Ok::<_, ConnectError>((conn, tools))
        };
        match tokio::time::timeout(timeout, started).await {
            Ok(Ok(done)) => Ok(done),
            Ok(Err(e)) => {
                // The process has probably exited: let the reader catch its last words.
                if let Some(reader) = reader {
                    let _ = tokio::time::timeout(STDERR_SETTLE, reader).await;
                }
                let e = overflow.message().map_or(e, ConnectError::Overflow);
                Err(e.with_stderr(&stderr))
            }
            Err(_) => Err(ConnectError::Timeout {
                server: config.name.clone(),
                timeout,
            }
            .with_stderr(&stderr)),
        }
    }

    async fn open(
        config: &McpServerConfig,
        tail: StderrTail,
        overflow: Overflow,
        reader: &mut Option<JoinHandle<()>>,
    ) -> Result<Connection, ConnectError> {
        let mut command = tokio::process::Command::new(&config.command);
        command
            .args(&config.args)
            .env_clear()
            .envs(&config.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(cwd) = &config.cwd {
            command.current_dir(cwd);
        }
        let spawn_error = |source| ConnectError::Spawn {
            command: config.command.clone(),
            source,
        };
        let mut child = command.spawn().map_err(spawn_error)?;
        let pid = child.id();
        let stderr = child.stderr.take();
        let transport = ChildTransport::new(
            child,
            config.max_message_bytes,
            &config.name,
            overflow.clone(),
        )
        .map_err(spawn_error)?;
        if let Some(stderr) = stderr {
            *reader = Some(tokio::spawn(route_stderr(
                stderr,
                config.name.clone(),
                tail.clone(),
            )));
        }
        tracing::debug!(target: "mcp", server = %config.name, pid, "server process started");
        let client =
            client_config()
                .serve(transport)
                .await
                .map_err(|source| ConnectError::Handshake {
                    source: Box::new(source),
                })?;
        Ok(Connection {
            client,
            pid,
            stderr: tail,
            overflow,
            reader: Mutex::new(reader.take()),
        })
    }

    /// Every tool the server offers.
    async fn list_tools(&self) -> Result<Vec<RemoteTool>, ConnectError> {
        let tools = self
            .client
            .peer()
            .list_all_tools()
            .await
            .map_err(|source| ConnectError::ListTools { source })?;
        Ok(tools
            .into_iter()
            .map(|t| RemoteTool {
                name: t.name.into_owned(),
                description: t.description.map(|d| d.into_owned()),
                input_schema: serde_json::Value::Object((*t.input_schema).clone()),
                read_only: t
                    .annotations
                    .as_ref()
                    .and_then(|a| a.read_only_hint)
                    .unwrap_or(false),
            })
            .collect())
    }

    /// Calls one tool.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<CallToolResult, ServiceError> {
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        self.client.peer().call_tool(params).await
    }

    /// False once the process has gone (its stdout closed) or the session was closed.
    pub(crate) fn is_alive(&self) -> bool {
        !self.client.is_closed() && !self.client.peer().is_transport_closed()
    }

    /// The process id, when known.
    pub(crate) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Why the session ended, when the server sent a message over its limit.
    pub(crate) fn overflow(&self) -> Option<String> {
        self.overflow.message()
    }

    /// The last stderr lines, for error messages.
    pub(crate) fn stderr(&self) -> &StderrTail {
        &self.stderr
    }

    /// After the process died: waits (briefly) for the stderr reader to read the rest, so
    /// the tail has the server's last words.
    pub(crate) async fn stderr_settled(&self) -> &StderrTail {
        let reader = self.reader.lock().ok().and_then(|mut r| r.take());
        if let Some(reader) = reader {
            let _ = tokio::time::timeout(STDERR_SETTLE, reader).await;
        }
        &self.stderr
    }

    /// Closes the session (stdin first, then signals), waiting at most `wait`.
    pub(crate) async fn close(&mut self, wait: Duration) {
        let _ = self.client.close_with_timeout(wait).await;
    }
}

/// `text` cut to at most `max` bytes at a character boundary.
pub(crate) fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `500 ms`, `10 s`, `1.5 s`.
pub(crate) fn show_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_cuts() {
        assert_eq!(show_duration(Duration::from_millis(500)), "500 ms");
        assert_eq!(show_duration(Duration::from_secs(10)), "10 s");
        assert_eq!(show_duration(Duration::from_millis(1_500)), "1.5 s");
        assert_eq!(cut("héllo", 2), "h");
        assert_eq!(cut("abc", 5), "abc");
    }

    #[test]
    fn stderr_tail_keeps_the_last_lines() {
        let tail = StderrTail::default();
        assert_eq!(tail.suffix(), "");
        for i in 0..5 {
            tail.push(format!("l{i}"));
        }
        assert_eq!(tail.suffix(), "; its stderr ends with: l2 | l3 | l4");
    }
}
