//! The `exec_shell` tool: runs a command through the shell (optionally through a launcher
//! such as the sandbox helper), with a timeout that kills the whole process group.

use std::collections::VecDeque;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::watch;
use weft_types::tool_names;

use super::content::{ceil_boundary, floor_boundary};
use super::input::{check_path_reach, parse};
use super::{ExecConfig, ShellLauncher};
use crate::process_group::{Ending, GroupGuard, HELPER_GRACE, ShuttingDown};
use crate::{CallContext, FsScope, Sandboxing, Tool, ToolError, ToolOutput};

/// How long output is still read after the shell exits: enough for bytes already in the
/// pipe, short enough that a background process holding the pipe open does not stall us.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// `exec_shell`: runs `<shell> -c <command>` in the workspace.
pub(crate) struct ExecShell {
    scope: Arc<FsScope>,
    config: ExecConfig,
    description: String,
}

/// What the model is told, before any launcher note.
const DESCRIPTION: &str = "Runs a shell command in the workspace (or cwd) and returns its exit code, stdout and stderr. Stdin is empty; the command is killed, with everything it started, when the timeout passes.";

impl ExecShell {
    pub(crate) fn new(scope: Arc<FsScope>, config: ExecConfig) -> Self {
        let description = match (&config.launcher, &config.unsandboxed) {
            (ShellLauncher::Wrapper { note, .. }, _) if !note.is_empty() => {
                format!("{DESCRIPTION} {note}")
            }
            (ShellLauncher::Refuse(_), Some(_)) => format!(
                "{DESCRIPTION} The sandbox is unavailable here, so each command runs only once the user approves it."
            ),
            _ => DESCRIPTION.to_owned(),
        };
        Self {
            scope,
            config,
            description,
        }
    }

    /// The shell's name, as the model is told it (`bash`, `sh`).
    fn shell_name(&self) -> String {
        let program = self.config.shell.program();
        program
            .file_name()
            .unwrap_or(program.as_os_str())
            .to_string_lossy()
            .into_owned()
    }

    fn timeout(&self, asked: Option<u64>) -> Result<Duration, ToolError> {
        let max = self.config.max_timeout;
        match asked {
            None => Ok(self.config.timeout.min(max)),
            Some(secs) if secs == 0 || Duration::from_secs(secs) > max => {
                Err(ToolError::InvalidInput(format!(
                    "timeout_secs must be between 1 and {}",
                    max.as_secs()
                )))
            }
            Some(secs) => Ok(Duration::from_secs(secs)),
        }
    }

    /// The launcher for a call: the sandbox's, unless a person approved running it outside;
    /// the read-only sandbox's for a call judged read-only.
    fn launcher(&self, context: &CallContext) -> &ShellLauncher {
        match (&self.config.unsandboxed, &self.config.reading) {
            (Some(unsandboxed), _) if context.outside_sandbox => unsandboxed,
            (_, Some(reading)) if context.read_only => reading,
            _ => &self.config.launcher,
        }
    }

    /// `<shell> <its args> -c <command>`, through `launcher`, with exactly the configured
    /// environment, less the variables that would change the shell's language.
    fn command(
        &self,
        launcher: &ShellLauncher,
        command: &str,
        cwd: &Path,
    ) -> Result<tokio::process::Command, ToolError> {
        let shell = &self.config.shell;
        let mut cmd = match launcher {
            ShellLauncher::Direct => tokio::process::Command::new(shell.program()),
            ShellLauncher::Wrapper { program, args, .. } => {
                let mut cmd = tokio::process::Command::new(program);
                cmd.args(args).arg(shell.program());
                cmd
            }
            ShellLauncher::Refuse(reason) => return Err(ToolError::Failed(reason.clone())),
        };
        let env = self.config.env.iter();
        cmd.args(shell.argv(command))
            .current_dir(cwd)
            .env_clear()
            .envs(env.filter(|(name, _)| shell.keeps_variable(name)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Its own group, so a timeout can kill what the command started too.
            .process_group(0);
        Ok(cmd)
    }

    /// Starts the command and registers its group.
    fn spawn(
        &self,
        launcher: &ShellLauncher,
        command: &str,
        cwd: &Path,
    ) -> Result<(tokio::process::Child, GroupGuard), ToolError> {
        let mut child = self.command(launcher, command, cwd)?.spawn().map_err(|e| {
            let program = match launcher {
                ShellLauncher::Wrapper { program, .. } => program,
                _ => self.config.shell.program(),
            };
            ToolError::Failed(format!("could not start {}: {e}", program.display()))
        })?;
        // weft's helper ends everything the command started when asked to; a shell started
        // directly is ended by killing its group.
        let ending = match launcher {
            ShellLauncher::Wrapper { .. } => Ending::Helper,
            _ => Ending::Kill,
        };
        let registered = child
            .id()
            .ok_or(ShuttingDown)
            .and_then(|pgid| self.config.groups.register_ending(pgid, ending));
        match registered {
            Ok(group) => Ok((child, group)),
            Err(ShuttingDown) => {
                let _ = child.start_kill();
                Err(ToolError::Failed("weft is shutting down".to_owned()))
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExecInput {
    command: String,
    timeout_secs: Option<u64>,
    cwd: Option<String>,
}

#[async_trait]
impl Tool for ExecShell {
    fn name(&self) -> &str {
        tool_names::EXEC_SHELL
    }

    fn check_reach(&self, input: &serde_json::Value) -> Result<(), ToolError> {
        check_path_reach(input, "cwd", |p| self.scope.resolve(p))
    }

    fn sandboxing(&self) -> Sandboxing {
        match (&self.config.launcher, &self.config.unsandboxed) {
            (_, None) => Sandboxing::None,
            (ShellLauncher::Refuse(why), Some(_)) => Sandboxing::Unavailable(why.clone()),
            (_, Some(_)) => Sandboxing::Sandboxed,
        }
    }

    fn has_read_only_sandbox(&self) -> bool {
        self.sandboxing() == Sandboxing::Sandboxed && self.config.reading.is_some()
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "command": {"type": "string", "description": format!("The command line, run with `{} -c`.", self.shell_name())},
                "timeout_secs": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": self.config.max_timeout.as_secs(),
                    "description": format!("Seconds before the command is killed (default {}).", self.config.timeout.as_secs())
                },
                "cwd": {"type": "string", "description": "Working directory inside the workspace (default: the workspace root)."}
            },
            "required": ["command"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        self.call_in(input, &CallContext::default()).await
    }

    async fn call_in(
        &self,
        input: serde_json::Value,
        context: &CallContext,
    ) -> Result<ToolOutput, ToolError> {
        let launcher = self.launcher(context);
        let input: ExecInput = parse(self.name(), input)?;
        if input.command.trim().is_empty() {
            return Err(ToolError::InvalidInput("command is empty".to_owned()));
        }
        let timeout = self.timeout(input.timeout_secs)?;
        let cwd = self.scope.resolve(input.cwd.as_deref().unwrap_or("."))?;
        if !tokio::fs::metadata(&cwd).await.is_ok_and(|m| m.is_dir()) {
            return Err(ToolError::Failed(format!(
                "cwd {} is not a directory",
                self.scope.display(&cwd)
            )));
        }
        // `group` is declared after `child` so it drops first: a cancelled call's group is
        // killed while the shell is still unreaped and its group id cannot have been reused.
        let (mut child, mut group) = self.spawn(launcher, &input.command, &cwd)?;
        tracing::debug!(command = %input.command, pid = ?child.id(), "exec_shell started");

        let (stop_tx, stop_rx) = watch::channel(false);
        let cap = self.config.output_cap;
        let mut stdout = tokio::spawn(capture(child.stdout.take(), cap, stop_rx.clone()));
        let mut stderr = tokio::spawn(capture(child.stderr.take(), cap, stop_rx));

        let status = match tokio::time::timeout(timeout, child.wait()).await {
            Err(_) => {
                // A helper ends everything the command started, then itself; what is left
                // after its grace (or of a group without one) is killed.
                group.terminate();
                let _ = tokio::time::timeout(HELPER_GRACE, child.wait()).await;
                group.kill();
                // Reap the shell or helper; the group kill has already hit it.
                let _ = child.kill().await;
                stdout.abort();
                stderr.abort();
                return Err(ToolError::Timeout(timeout));
            }
            Ok(Err(e)) => return Err(ToolError::Failed(format!("waiting for the command: {e}"))),
            Ok(Ok(status)) => status,
        };
        // A normal exit leaves background jobs alone, as a shell would (until weft exits).
        group.release();

        let (mut out, mut err) = (None, None);
        let drained = tokio::time::timeout(DRAIN_GRACE, async {
            out = Some((&mut stdout).await.unwrap_or_default());
            err = Some((&mut stderr).await.unwrap_or_default());
        })
        .await
        .is_ok();
        let _ = stop_tx.send(true);
        let out = match out {
            Some(out) => out,
            None => stdout.await.unwrap_or_default(),
        };
        let err = match err {
            Some(err) => err,
            None => stderr.await.unwrap_or_default(),
        };
        tracing::debug!(?status, "exec_shell finished");
        Ok(ToolOutput::text(report(status, &out, &err, !drained)))
    }
}

/// What a stream produced: the first and last bytes, and how many there were in all.
#[derive(Default)]
struct Captured {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: usize,
}

/// Reads `stream` until it ends or `stop` is signalled, keeping at most `cap` bytes: the
/// first half and the last half, since errors tend to be at the end of long output.
async fn capture(
    stream: Option<impl AsyncRead + Unpin>,
    cap: usize,
    mut stop: watch::Receiver<bool>,
) -> Captured {
    let mut captured = Captured::default();
    let Some(mut stream) = stream else {
        return captured;
    };
    let head_cap = cap - cap / 2;
    let tail_cap = cap / 2;
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = tokio::select! {
            read = stream.read(&mut buf) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            },
            _ = stop.changed() => break,
        };
        captured.total += n;
        let mut chunk = &buf[..n];
        let to_head = chunk.len().min(head_cap - captured.head.len());
        captured.head.extend_from_slice(&chunk[..to_head]);
        chunk = &chunk[to_head..];
        if chunk.len() >= tail_cap {
            captured.tail.clear();
            captured.tail.extend(&chunk[chunk.len() - tail_cap..]);
        } else {
            captured.tail.extend(chunk);
            let excess = captured.tail.len().saturating_sub(tail_cap);
            captured.tail.drain(..excess);
        }
    }
    captured
}

impl Captured {
    /// The kept text, with a note where bytes were dropped.
    fn render(&self) -> String {
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        let kept = self.head.len() + tail.len();
        if kept == self.total {
            let mut all = self.head.clone();
            all.extend_from_slice(&tail);
            return String::from_utf8_lossy(&all).into_owned();
        }
        let head_end = floor_boundary(&self.head, self.head.len());
        let tail_start = ceil_boundary(&tail, 0);
        let dropped = self.total - head_end - (tail.len() - tail_start);
        let mut text = String::from_utf8_lossy(&self.head[..head_end]).into_owned();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("[truncated {dropped} bytes]\n"));
        text.push_str(&String::from_utf8_lossy(&tail[tail_start..]));
        text
    }
}

/// What `exec_shell` reported, as plain output: the standard output of a command that
/// exited 0 and wrote nothing on standard error (`""` when it printed nothing). `None` for
/// anything else (a failure, a signal, standard error, output cut short), whose whole report
/// is the text to show. Dynamic context puts this in place of its block.
pub fn plain_stdout(report: &str) -> Option<&str> {
    const OK: &str = "exit code: 0";
    const STDOUT: &str = "\n--- stdout ---\n";
    let rest = report.strip_prefix(OK)?;
    if rest.is_empty() {
        return Some("");
    }
    let stdout = rest.strip_prefix(STDOUT)?;
    // A stdout that happens to contain these lines is shown whole, which is only wordier.
    if stdout.contains("\n--- stderr ---\n") || stdout.ends_with(CUT_SHORT) {
        return None;
    }
    Some(stdout)
}

/// The note of a report whose output background processes held open.
const CUT_SHORT: &str = "\n[background processes kept the output open after the shell exited; later output is not shown]";

/// The text the model sees: exit code or signal, then the non-empty streams.
fn report(status: ExitStatus, out: &Captured, err: &Captured, cut_short: bool) -> String {
    let mut text = match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code: {code}"),
        (None, Some(signal)) => format!("terminated by signal {signal}"),
        (None, None) => "terminated".to_owned(),
    };
    for (name, captured) in [("stdout", out), ("stderr", err)] {
        if captured.total == 0 {
            continue;
        }
        let body = captured.render();
        text.push_str(&format!("\n--- {name} ---\n"));
        text.push_str(body.strip_suffix('\n').unwrap_or(&body));
    }
    if cut_short {
        text.push_str(CUT_SHORT);
    }
    text
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    async fn captured(data: &[u8], cap: usize) -> Captured {
        let (_tx, rx) = watch::channel(false);
        capture(Some(data), cap, rx).await
    }

    #[test]
    fn plain_stdout_only_for_a_clean_success() {
        assert_eq!(plain_stdout("exit code: 0"), Some(""));
        assert_eq!(
            plain_stdout("exit code: 0\n--- stdout ---\nmain"),
            Some("main")
        );
        assert_eq!(plain_stdout("exit code: 1\n--- stdout ---\nx"), None);
        assert_eq!(
            plain_stdout("exit code: 0\n--- stdout ---\nx\n--- stderr ---\nwarn"),
            None
        );
        assert_eq!(plain_stdout("exit code: 0\n--- stderr ---\nwarn"), None);
        assert_eq!(plain_stdout("terminated by signal 9"), None);
        assert_eq!(
            plain_stdout(&format!("exit code: 0\n--- stdout ---\nx{CUT_SHORT}")),
            None
        );
    }

    #[tokio::test]
    async fn keeps_everything_under_the_cap() {
        let c = captured(b"hello\n", 100).await;
        assert_eq!(c.render(), "hello\n");
    }

    #[tokio::test]
    async fn keeps_head_and_tail_over_the_cap() {
        let data: Vec<u8> = (0..1000).map(|i| b'a' + (i % 26) as u8).collect();
        let c = captured(&data, 100).await;
        assert_eq!(c.total, 1000);
        let text = c.render();
        assert!(text.starts_with(std::str::from_utf8(&data[..50]).unwrap()));
        assert!(text.ends_with(std::str::from_utf8(&data[950..]).unwrap()));
        assert!(text.contains("[truncated 900 bytes]"));
    }

    #[tokio::test]
    async fn never_splits_a_character() {
        let data = "é".repeat(100);
        let c = captured(data.as_bytes(), 11).await;
        let text = c.render();
        assert!(!text.contains('\u{FFFD}'), "{text}");
    }
}
