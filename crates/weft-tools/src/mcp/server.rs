//! One configured server over its lifetime: started once, restarted at most once after a
//! crash, and then either running or unavailable.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::{CallToolResult, JsonObject};

use super::McpConfigError;
use super::connection::{ConnectError, Connection, RemoteTool};
use super::{McpServerConfig, McpServerState, McpServerStatus};

/// How long a closing server may take to exit before it is killed.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// A configured server and its connection, shared by its tools.
#[derive(Debug)]
pub(crate) struct Server {
    config: McpServerConfig,
    inner: Mutex<Inner>,
    /// Held while a restart is decided and attempted, so concurrent calls restart once.
    restart: tokio::sync::Mutex<()>,
    /// The runtime that started the server: a restarted session runs there too, whichever
    /// runtime the call that restarts it comes from.
    runtime: Option<tokio::runtime::Handle>,
}

#[derive(Debug)]
struct Inner {
    conn: Option<Arc<Connection>>,
    state: McpServerState,
    /// The tools listed at the first start.
    tools: Vec<RemoteTool>,
    restarts: u32,
    restart_attempted: bool,
    /// Why the server stopped for good (with `state` [`McpServerState::Failed`]).
    failure: Option<Failure>,
}

impl Inner {
    /// Records that the server is not running and will not come back.
    fn fail(&mut self, failure: Failure) {
        self.state = McpServerState::Failed(failure.to_string());
        self.failure = Some(failure);
    }
}

/// Why a server stopped for good, kept typed: every later call of its tools reports it, so
/// it is shared.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum Failure {
    /// Its configuration is invalid.
    #[error(transparent)]
    Config(Arc<McpConfigError>),
    /// Another configured server has the same name.
    #[error("another MCP server is also called `{0}`")]
    DuplicateName(String),
    /// It did not start.
    #[error(transparent)]
    Start(Arc<ConnectError>),
    /// It crashed again after its restart, or its restart failed.
    #[error(transparent)]
    GaveUp(Arc<Unavailable>),
    /// weft shut it down.
    #[error("shut down")]
    ShutDown,
}

/// Why a server has no live connection.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unavailable {
    /// It failed (to start, or after its restart) earlier.
    #[error(transparent)]
    Failed(Failure),
    /// It crashed again after its one restart.
    #[error("it crashed again after its one restart ({0})")]
    CrashedAgain(String),
    /// It crashed and could not be restarted.
    #[error("it crashed and its restart failed: {0}")]
    RestartFailed(#[source] ConnectError),
}

/// How a call went wrong.
pub(crate) enum CallError {
    /// The server is not running and could not be restarted.
    Unavailable(Unavailable),
    /// The call took longer than the call timeout.
    Timeout(Duration),
    /// The server answered with a JSON-RPC error.
    Rejected(String),
    /// The server died during the call; the text says whether it was restarted.
    Crashed(String),
}

impl Server {
    /// Starts the server (bounded by its startup timeout). A failure is recorded in the
    /// state, never returned.
    pub(crate) async fn start(config: McpServerConfig) -> Arc<Server> {
        let (conn, failure, tools) = match config.validate() {
            Err(e) => (None, Some(Failure::Config(Arc::new(e))), Vec::new()),
            Ok(()) => match Connection::start(&config).await {
                Ok((conn, tools)) => (Some(Arc::new(conn)), None, tools),
                Err(e) => {
                    tracing::warn!(target: "mcp", server = %config.name, error = %e, "MCP server did not start");
                    (None, Some(Failure::Start(Arc::new(e))), Vec::new())
                }
            },
        };
        let mut inner = Inner {
            conn,
            state: McpServerState::Running,
            tools,
            restarts: 0,
            restart_attempted: false,
            failure: None,
        };
        if let Some(failure) = failure {
            inner.fail(failure);
        }
        Arc::new(Server {
            config,
            inner: Mutex::new(inner),
            restart: tokio::sync::Mutex::new(()),
            runtime: tokio::runtime::Handle::try_current().ok(),
        })
    }

    /// A server that was never started (a duplicate name).
    pub(crate) fn failed(config: McpServerConfig, failure: Failure) -> Arc<Server> {
        let mut inner = Inner {
            conn: None,
            state: McpServerState::Running,
            tools: Vec::new(),
            restarts: 0,
            restart_attempted: true,
            failure: None,
        };
        inner.fail(failure);
        Arc::new(Server {
            config,
            inner: Mutex::new(inner),
            restart: tokio::sync::Mutex::new(()),
            runtime: None,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The configured name.
    pub(crate) fn name(&self) -> &str {
        &self.config.name
    }

    /// The tools listed when the server first started.
    pub(crate) fn remote_tools(&self) -> Vec<RemoteTool> {
        self.lock().tools.clone()
    }

    /// The state now: a running server whose process has exited reads as crashed.
    pub(crate) fn status(&self, tool_names: Vec<String>) -> McpServerStatus {
        let mut inner = self.lock();
        if inner.state.is_running() && !inner.conn.as_ref().is_some_and(|c| c.is_alive()) {
            inner.state = McpServerState::Crashed(crash_reason(inner.conn.as_deref()));
        }
        McpServerStatus {
            name: self.config.name.clone(),
            state: inner.state.clone(),
            tools: tool_names,
            pid: inner.conn.as_ref().and_then(|c| c.pid()),
            restarts: inner.restarts,
        }
    }

    /// A live connection: the current one, or a restarted one when the process has died and
    /// has not been restarted before. `dead` is a connection the caller saw fail.
    async fn connection(
        &self,
        dead: Option<&Arc<Connection>>,
    ) -> Result<Arc<Connection>, Unavailable> {
        if let Some(conn) = self.live(dead) {
            return Ok(conn);
        }
        let _restarting = self.restart.lock().await;
        let old = {
            let mut inner = self.lock();
            if let Some(conn) = live_conn(&inner, dead) {
                return Ok(conn);
            }
            if let Some(failure) = &inner.failure {
                return Err(Unavailable::Failed(failure.clone()));
            }
            let reason = crash_reason(inner.conn.as_deref());
            if inner.restart_attempted {
                let failure = Failure::GaveUp(Arc::new(Unavailable::CrashedAgain(reason)));
                inner.fail(failure.clone());
                inner.conn = None;
                return Err(Unavailable::Failed(failure));
            }
            inner.restart_attempted = true;
            inner.state = McpServerState::Crashed(reason);
            inner.conn.take()
        };
        if let Some(old) = old
            && let Ok(mut old) = Arc::try_unwrap(old)
        {
            old.close(Duration::ZERO).await;
        }
        tracing::warn!(target: "mcp", server = %self.config.name, "MCP server crashed; restarting it once");
        let restarted = match &self.runtime {
            Some(runtime) => {
                let config = self.config.clone();
                runtime
                    .spawn(async move { Connection::start(&config).await })
                    .await
                    .unwrap_or_else(|source| Err(ConnectError::RestartCancelled { source }))
            }
            None => Connection::start(&self.config).await,
        };
        let mut inner = self.lock();
        match restarted {
            Ok((conn, _tools)) => {
                let conn = Arc::new(conn);
                inner.conn = Some(Arc::clone(&conn));
                inner.state = McpServerState::Running;
                inner.restarts += 1;
                Ok(conn)
            }
            Err(e) => {
                let failure = Failure::GaveUp(Arc::new(Unavailable::RestartFailed(e)));
                tracing::warn!(target: "mcp", server = %self.config.name, error = %failure, "MCP server unavailable");
                inner.fail(failure.clone());
                Err(Unavailable::Failed(failure))
            }
        }
    }

    /// The current connection if it is alive and not `dead`.
    fn live(&self, dead: Option<&Arc<Connection>>) -> Option<Arc<Connection>> {
        live_conn(&self.lock(), dead)
    }

    /// Calls `tool` with `arguments` (bounded by the call timeout), restarting the server
    /// once if it is found dead.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: JsonObject,
    ) -> Result<CallToolResult, CallError> {
        let conn = self
            .connection(None)
            .await
            .map_err(CallError::Unavailable)?;
        let timeout = self.config.call_timeout;
        match tokio::time::timeout(timeout, conn.call(tool, arguments)).await {
            Err(_) => Err(CallError::Timeout(timeout)),
            Ok(Ok(result)) => Ok(result),
            Ok(Err(ServiceError::McpError(e))) => Err(CallError::Rejected(e.message.into_owned())),
            Ok(Err(ServiceError::Timeout { timeout })) => Err(CallError::Timeout(timeout)),
            Ok(Err(
                e @ (ServiceError::TransportClosed
                | ServiceError::TransportSend(_)
                | ServiceError::Cancelled { .. }),
            )) => {
                let why = conn.overflow().unwrap_or_else(|| e.to_string());
                let what = format!("{why}{}", conn.stderr_settled().await.suffix());
                let next = match self.connection(Some(&conn)).await {
                    Ok(_) => "it was restarted; the call was not retried".to_owned(),
                    Err(reason) => {
                        format!("it is not running: {reason}; its tools are unavailable")
                    }
                };
                Err(CallError::Crashed(format!("{what}; {next}")))
            }
            Ok(Err(e)) => Err(CallError::Rejected(e.to_string())),
        }
    }

    /// Closes the connection, if any.
    pub(crate) async fn shutdown(&self) {
        let conn = {
            let mut inner = self.lock();
            if inner.conn.is_some() {
                inner.fail(Failure::ShutDown);
                inner.restart_attempted = true;
            }
            inner.conn.take()
        };
        if let Some(conn) = conn {
            match Arc::try_unwrap(conn) {
                Ok(mut conn) => conn.close(CLOSE_WAIT).await,
                Err(shared) => drop(shared),
            }
        }
    }
}

fn live_conn(inner: &Inner, dead: Option<&Arc<Connection>>) -> Option<Arc<Connection>> {
    let conn = inner.conn.as_ref()?;
    if dead.is_some_and(|d| Arc::ptr_eq(d, conn)) || !conn.is_alive() {
        return None;
    }
    Some(Arc::clone(conn))
}

/// Why a connection is no longer usable.
fn crash_reason(conn: Option<&Connection>) -> String {
    match conn {
        Some(conn) => format!(
            "{}{}",
            conn.overflow()
                .unwrap_or_else(|| "the process exited".to_owned()),
            conn.stderr().suffix()
        ),
        None => "the process is gone".to_owned(),
    }
}
