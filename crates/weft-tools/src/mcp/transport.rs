//! The stdio transport to a server process, with bounded reads of both of its outputs.
//!
//! * stdout carries the JSON-RPC messages, one a line. [`CappedLines`] counts the bytes of
//!   the line being read and fails the read once one is longer than the server's
//!   `max_message_bytes`: rmcp then closes the session, the process is killed, and the
//!   calls waiting on it fail with [`Overflow`]'s message (which limit, its value, the key
//!   that raises it) instead of weft buffering a message that never ends.
//! * stderr is read in fixed chunks by [`route_stderr`]: each line is logged and the last
//!   few kept for error messages, cut at [`MAX_STDERR_LINE`] bytes (the rest of a longer line
//!   is read and dropped), so an endless stderr line costs nothing but the reading.
//!
//! [`ChildTransport`] is rmcp's child-process transport rebuilt around [`CappedLines`]: the
//! same shutdown (stdin closed, then SIGTERM, then SIGKILL), and the child killed when the
//! transport is dropped.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};

use super::connection::{StderrTail, cut};

/// The longest stderr line logged or kept (longer lines are cut).
pub(crate) const MAX_STDERR_LINE: usize = 2_000;

/// How long a closed server may take to exit before it gets SIGTERM, and then SIGKILL.
const EXIT_WAIT: Duration = Duration::from_secs(3);

/// Set once the server sent a message over the limit: why its session ended.
#[derive(Debug, Clone, Default)]
pub(crate) struct Overflow(Arc<Mutex<Option<String>>>);

impl Overflow {
    fn set(&self, message: String) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert(message);
        }
    }

    /// The message, if the limit was reached.
    pub(crate) fn message(&self) -> Option<String> {
        self.0.lock().ok().and_then(|slot| slot.clone())
    }

    fn happened(&self) -> bool {
        self.message().is_some()
    }
}

/// A reader of newline-separated messages that fails once a line is longer than `cap`.
pub(crate) struct CappedLines<R> {
    inner: R,
    cap: usize,
    /// Bytes since the last `\n`.
    line: usize,
    server: String,
    overflow: Overflow,
}

impl<R> CappedLines<R> {
    pub(crate) fn new(inner: R, cap: usize, server: &str, overflow: Overflow) -> Self {
        Self {
            inner,
            cap,
            line: 0,
            server: server.to_owned(),
            overflow,
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for CappedLines<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        let before = buf.filled().len();
        std::task::ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        for &byte in &buf.filled()[before..] {
            if byte == b'\n' {
                this.line = 0;
            } else {
                this.line += 1;
            }
            if this.line > this.cap {
                let message = format!(
                    "MCP server `{}` sent a message larger than the {} limit for one message, so weft closed the connection; `limits.mcp_message_bytes` in the configuration raises the limit",
                    this.server,
                    weft_fs::human_size(this.cap as u64)
                );
                tracing::warn!(target: "mcp", server = %this.server, "{message}");
                this.overflow.set(message.clone());
                // A failed read hands over nothing (AsyncRead's contract).
                buf.set_filled(before);
                return Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    message,
                )));
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// A server process spoken to over its stdin and (capped) stdout.
pub(crate) struct ChildTransport {
    /// `None` once it has exited or been killed; killed on drop otherwise (`kill_on_drop`).
    child: Option<Child>,
    inner: AsyncRwTransport<RoleClient, CappedLines<ChildStdout>, ChildStdin>,
    overflow: Overflow,
}

impl ChildTransport {
    /// The transport over `child`'s pipes (taken from it); messages longer than
    /// `max_message_bytes` end the session.
    pub(crate) fn new(
        mut child: Child,
        max_message_bytes: usize,
        server: &str,
        overflow: Overflow,
    ) -> std::io::Result<Self> {
        let missing = |what| std::io::Error::other(format!("the server's {what} is not piped"));
        let stdout = child.stdout.take().ok_or_else(|| missing("stdout"))?;
        let stdin = child.stdin.take().ok_or_else(|| missing("stdin"))?;
        let read = CappedLines::new(stdout, max_message_bytes, server, overflow.clone());
        // rmcp's own line limit (which drops a long line and waits on) sits above weft's.
        let inner = AsyncRwTransport::new_client(read, stdin)
            .with_max_line_length(max_message_bytes.saturating_add(2));
        Ok(Self {
            child: Some(child),
            inner,
            overflow,
        })
    }

    /// Closes stdin and waits for the process to exit, then SIGTERM, then SIGKILL (at once
    /// for a server that went over the limit: it is not waiting for stdin to close).
    async fn shut_down(&mut self) -> std::io::Result<()> {
        self.inner.close().await?;
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        if !self.overflow.happened() {
            if let Ok(exited) = tokio::time::timeout(EXIT_WAIT, child.wait()).await {
                return exited.map(|_| ());
            }
            if let Some(pid) = child
                .id()
                .and_then(|id| i32::try_from(id).ok())
                .and_then(rustix::process::Pid::from_raw)
            {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
                if let Ok(exited) = tokio::time::timeout(EXIT_WAIT, child.wait()).await {
                    return exited.map(|_| ());
                }
            }
        }
        child.kill().await
    }
}

impl Transport<RoleClient> for ChildTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.shut_down()
    }
}

/// Logs each stderr line of the server (target `mcp`, field `server`) and keeps the last few,
/// reading in fixed chunks: a line is cut at [`MAX_STDERR_LINE`] bytes and logged as soon as
/// it reaches them (the rest of it is read and dropped), so an endless line is never held.
/// Bytes, not text: a server writing invalid UTF-8 must not stop the reader (a full pipe would
/// block the server).
pub(crate) async fn route_stderr(mut stderr: ChildStderr, server: String, tail: StderrTail) {
    let mut chunk = vec![0u8; 8 * 1024];
    let mut line: Vec<u8> = Vec::with_capacity(MAX_STDERR_LINE);
    // The current line was cut and logged already; the rest of it is dropped.
    let mut cut_off = false;
    let emit = |line: &[u8], cut_off: bool| {
        let text = String::from_utf8_lossy(line);
        let text = cut(text.trim_end(), MAX_STDERR_LINE);
        if text.is_empty() {
            return;
        }
        let shown = if cut_off {
            format!("{text} [line cut at {MAX_STDERR_LINE} bytes]")
        } else {
            text.to_owned()
        };
        tracing::info!(target: "mcp", server = %server, "{shown}");
        tail.push(shown);
    };
    loop {
        let n = match stderr.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for piece in chunk[..n].split_inclusive(|b| *b == b'\n') {
            let (content, ends) = match piece.split_last() {
                Some((b'\n', content)) => (content, true),
                _ => (piece, false),
            };
            if !cut_off {
                let room = MAX_STDERR_LINE - line.len();
                line.extend_from_slice(&content[..content.len().min(room)]);
                if content.len() > room {
                    emit(&line, true);
                    line.clear();
                    cut_off = true;
                }
            }
            if ends {
                if !cut_off {
                    emit(&line, false);
                }
                line.clear();
                cut_off = false;
            }
        }
    }
    if !cut_off {
        emit(&line, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_line_over_the_cap_fails_the_read_and_is_recorded() {
        let overflow = Overflow::default();
        let data: &[u8] = b"{\"a\":1}\n{\"b\":\"0123456789\"}\n";
        let mut reader = CappedLines::new(data, 12, "srv", overflow.clone());
        let mut out = Vec::new();
        let err = reader.read_to_end(&mut out).await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        let message = overflow.message().unwrap();
        assert!(
            message.contains("MCP server `srv` sent a message larger than the 12 bytes limit"),
            "{message}"
        );
        assert!(message.contains("`limits.mcp_message_bytes`"), "{message}");
        // Lines within the cap pass, whatever the chunking.
        let data: &[u8] = b"{\"a\":1}\n{\"b\":2}\n";
        let mut reader = CappedLines::new(data, 8, "srv", Overflow::default());
        let mut out = Vec::new();
        reader.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, data);
    }
}
