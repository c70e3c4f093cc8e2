//! Running one hook command: `sh -c <command>` (or the program with its `args`), the event's
//! JSON on standard input, exactly the environment the caller gives plus
//! `CLAUDE_PROJECT_DIR` (and `CLAUDE_PLUGIN_ROOT` for a plugin's hook), in its own process
//! group registered with the session's [`ProcessGroups`] (so a timeout, a cancelled turn or
//! weft's exit kills everything it started), standard output and error read up to a cap.

use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use weft_tools::ProcessGroups;

/// The most of each output stream kept; the rest is read and dropped (a hook that writes
/// without end is stopped by its timeout, not by a full pipe).
pub const OUTPUT_CAP: usize = 256 * 1024;

/// How long output is still read after the command exits (a background process may hold
/// the pipe open).
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// The shell hook commands run with, as Claude Code's do.
const SHELL: &str = "/bin/sh";

/// How a hook command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
    /// It ran past its timeout and was killed with its process group.
    TimedOut(Duration),
    /// It could not be started.
    Failed(String),
}

impl RunEnd {
    /// The exit code, when it exited.
    pub fn code(&self) -> Option<i32> {
        match self {
            RunEnd::Exited(code) => Some(*code),
            _ => None,
        }
    }
}

/// One command to run.
pub(crate) struct Spec<'a> {
    pub command: &'a str,
    pub args: Option<&'a [String]>,
    pub env: &'a [(OsString, OsString)],
    pub project_dir: &'a Path,
    pub plugin_root: Option<&'a Path>,
    pub cwd: &'a Path,
    pub stdin: Vec<u8>,
    pub timeout: Duration,
    pub groups: &'a ProcessGroups,
}

/// What a run left.
#[derive(Debug, Clone)]
pub(crate) struct Finished {
    pub end: RunEnd,
    pub stdout: String,
    pub stderr: String,
    pub duration: Duration,
}

/// Runs one command to its end (or its timeout).
pub(crate) async fn run(spec: Spec<'_>) -> Finished {
    let started = Instant::now();
    let finished = |end: RunEnd, stdout: String, stderr: String| Finished {
        end,
        stdout,
        stderr,
        duration: started.elapsed(),
    };
    let mut cmd = match spec.args {
        Some(args) => {
            let mut cmd = tokio::process::Command::new(spec.command);
            cmd.args(args);
            cmd
        }
        None => {
            let mut cmd = tokio::process::Command::new(SHELL);
            cmd.arg("-c").arg(spec.command);
            cmd
        }
    };
    cmd.current_dir(spec.cwd)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .env("CLAUDE_PROJECT_DIR", spec.project_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .process_group(0);
    if let Some(root) = spec.plugin_root {
        cmd.env("CLAUDE_PLUGIN_ROOT", root);
    }
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            let program = spec.args.map_or(SHELL, |_| spec.command);
            return finished(
                RunEnd::Failed(format!("could not start {program}: {e}")),
                String::new(),
                String::new(),
            );
        }
    };
    // Declared after `child`, so it drops first: a cancelled run's group is killed while
    // the shell is unreaped and its id cannot have been reused.
    let mut group = match child.id().map(|pid| spec.groups.register(pid)) {
        Some(Ok(group)) => group,
        _ => {
            let _ = child.start_kill();
            return finished(
                RunEnd::Failed("weft is shutting down".to_owned()),
                String::new(),
                String::new(),
            );
        }
    };
    let writer = child.stdin.take().map(|mut stdin| {
        let payload = spec.stdin;
        tokio::spawn(async move {
            // A hook that does not read its input closes the pipe: not an error.
            let _ = stdin.write_all(&payload).await;
            let _ = stdin.shutdown().await;
        })
    });
    let mut stdout = tokio::spawn(capture(child.stdout.take()));
    let mut stderr = tokio::spawn(capture(child.stderr.take()));
    let status = match tokio::time::timeout(spec.timeout, child.wait()).await {
        Err(_) => {
            group.kill();
            let _ = child.kill().await;
            for task in [&stdout, &stderr] {
                task.abort();
            }
            if let Some(writer) = writer {
                writer.abort();
            }
            return finished(RunEnd::TimedOut(spec.timeout), String::new(), String::new());
        }
        Ok(Err(e)) => {
            return finished(
                RunEnd::Failed(format!("waiting for the hook: {e}")),
                String::new(),
                String::new(),
            );
        }
        Ok(Ok(status)) => status,
    };
    group.release();
    if let Some(writer) = writer {
        writer.abort();
    }
    let (mut out, mut err) = (String::new(), String::new());
    let _ = tokio::time::timeout(DRAIN_GRACE, async {
        out = (&mut stdout).await.unwrap_or_default();
        err = (&mut stderr).await.unwrap_or_default();
    })
    .await;
    stdout.abort();
    stderr.abort();
    let end = match (status.code(), status.signal()) {
        (Some(code), _) => RunEnd::Exited(code),
        (None, Some(signal)) => RunEnd::Signalled(signal),
        (None, None) => RunEnd::Failed("ended without an exit code".to_owned()),
    };
    finished(end, out, err)
}

/// Reads a stream to its end, keeping the first [`OUTPUT_CAP`] bytes.
async fn capture(stream: Option<impl AsyncRead + Unpin>) -> String {
    let Some(mut stream) = stream else {
        return String::new();
    };
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = OUTPUT_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}
