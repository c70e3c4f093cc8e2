//! The hidden `weft sandbox exec [--parent PID] [--policy JSON] -- COMMAND...`: how
//! `exec_shell` starts every command (docs/SANDBOX.md).
//!
//! weft forbids `unsafe`, so nothing can run between `fork` and `exec` of the command. This
//! helper is a separate process instead, started by weft as the leader of the command's own
//! process group. It
//!
//! 1. asks the kernel for SIGTERM when its parent (weft) dies (`PR_SET_PDEATHSIG`), and checks
//!    that weft is still its parent (it could have died before the request took effect);
//! 2. applies the sandbox policy to itself, when there is one (restrictions inherited by
//!    everything it starts);
//! 3. starts COMMAND in its group, and waits: when COMMAND exits, it exits the same way; when
//!    SIGTERM, SIGINT or SIGHUP arrives (weft died, or someone signalled the group), it kills
//!    the whole group, itself included.
//!
//! So even a SIGKILL of weft, which weft cannot act on, ends the command and everything it
//! started. The helper prints only its own failures, `weft sandbox: <reason>`, and then exits
//! 125 without running anything.

use std::ffi::OsStr;
use std::os::unix::process::ExitStatusExt;
use std::process::{ExitCode, ExitStatus};

use rustix::process::{
    Pid, Signal, getpgrp, getpid, getppid, kill_process, kill_process_group,
    set_parent_process_death_signal,
};
use tokio::signal::unix::{SignalKind, signal};
use weft_sandbox::SandboxPolicy;

use crate::cli::SandboxExecArgs;

/// Exit status of the helper when it cannot start the command safely (it never ran).
const SANDBOX_FAILED: u8 = 125;

/// Runs the helper to the end.
pub fn exec(args: &SandboxExecArgs) -> ExitCode {
    // First, so that weft dying from here on is noticed (before the handler below is in
    // place, the signal's default action ends this process, which has started nothing).
    if let Err(e) = set_parent_process_death_signal(Some(Signal::TERM)) {
        return failed(&format!("cannot follow weft's life: {e}"));
    }
    // One thread: the restrictions apply to the calling thread and what it starts.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return failed(&format!("cannot start: {e}")),
    };
    runtime.block_on(supervise(args))
}

/// Steps 1 (the check), 2 and 3.
async fn supervise(args: &SandboxExecArgs) -> ExitCode {
    let mut endings = Vec::new();
    for kind in [
        SignalKind::terminate(),
        SignalKind::interrupt(),
        SignalKind::hangup(),
    ] {
        match signal(kind) {
            Ok(stream) => endings.push(stream),
            Err(e) => return failed(&format!("cannot watch for signals: {e}")),
        }
    }
    if let Some(parent) = args.parent
        && getppid() != Pid::from_raw(i32::try_from(parent).unwrap_or(0))
    {
        return failed("weft ended before the command started");
    }
    if let Some(policy) = &args.policy {
        let applied =
            SandboxPolicy::from_json(policy).and_then(|policy| policy.apply_to_current_process());
        if let Err(err) = applied {
            return failed(&err.to_string());
        }
    }
    let Some((program, rest)) = args.command.split_first() else {
        return failed("no command");
    };
    // In this process's group (weft made it the leader of a group of its own).
    let mut child = match tokio::process::Command::new(program).args(rest).spawn() {
        Ok(child) => child,
        Err(err) => {
            crate::output::errln!(
                "weft sandbox: cannot run {}: {err}",
                OsStr::new(program).to_string_lossy()
            );
            // The shell's conventions: 127 not found, 126 found but not runnable.
            return ExitCode::from(if err.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            });
        }
    };
    let [term, int, hup] = &mut endings[..] else {
        return failed("cannot watch for signals");
    };
    tokio::select! {
        status = child.wait() => match status {
            Ok(status) => exit_as(status),
            Err(e) => failed(&format!("cannot wait for the command: {e}")),
        },
        _ = term.recv() => end_group(),
        _ = int.recv() => end_group(),
        _ = hup.recv() => end_group(),
    }
}

/// Kills the whole group, this process included.
fn end_group() -> ExitCode {
    let _ = kill_process_group(getpgrp(), Signal::KILL);
    // Not reached: the group's SIGKILL ended this process too.
    ExitCode::from(137)
}

/// Exits as the command did: its code, or the signal that ended it (sent to this process,
/// so weft sees the same; 128 + the signal if that signal does not end this process).
fn exit_as(status: ExitStatus) -> ExitCode {
    if let Some(code) = status.code() {
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    let raw = status.signal().unwrap_or(0);
    if let Some(signal) = Signal::from_named_raw(raw) {
        let _ = kill_process(getpid(), signal);
    }
    ExitCode::from(u8::try_from(128 + raw).unwrap_or(1))
}

/// Reports a failure to start the command.
fn failed(reason: &str) -> ExitCode {
    crate::output::errln!("weft sandbox: {reason}");
    ExitCode::from(SANDBOX_FAILED)
}
