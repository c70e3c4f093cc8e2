//! The hidden `weft sandbox exec [--parent PID] [--policy JSON] -- COMMAND...`: how
//! `exec_shell` starts every command (docs/SANDBOX.md).
//!
//! weft forbids `unsafe`, so nothing can run between `fork` and `exec` of the command. This
//! helper is a separate process instead, started by weft as the leader of the command's own
//! process group. It
//!
//! 1. marks every descriptor it inherited above 2 close-on-exec, so the command sees none of
//!    them;
//! 2. asks the kernel for SIGTERM when its parent (weft) dies (`PR_SET_PDEATHSIG`), checks
//!    that weft is still its parent (it could have died before the request took effect), and
//!    becomes a child subreaper, so that every process the command starts stays its
//!    descendant, `setsid` and double forks included;
//! 3. starts COMMAND: with a policy, through its second stage (`--apply`: the same binary,
//!    which applies the policy to itself and executes COMMAND in place), so the supervising
//!    first stage stays outside the sandbox, out of the command's reach (Landlock's signal
//!    scope keeps sandboxed processes from signalling it);
//! 4. when COMMAND exits, or SIGTERM, SIGINT or SIGHUP arrives (weft died, or someone
//!    signalled it), ends every descendant, moves aside what the command created among the
//!    read-only paths (`weft_sandbox::ReadOnlyWatch`, reported on standard error), and exits
//!    as COMMAND did (or killed, after a signal).
//!
//! So even a SIGKILL of weft, which weft cannot act on, ends the command and everything it
//! started. The helper prints only its own failures and reports, `weft sandbox: <text>`; when
//! it cannot start the command safely it exits 125 without running anything.

use std::ffi::OsStr;
use std::os::unix::process::{CommandExt as _, ExitStatusExt};
use std::process::{ExitCode, ExitStatus};

use rustix::process::{
    Pid, Signal, getpgrp, getpid, getppid, kill_process, kill_process_group,
    set_parent_process_death_signal,
};
use tokio::signal::unix::{SignalKind, signal};
use weft_sandbox::{ReadOnlyWatch, SandboxPolicy};

use crate::cli::SandboxExecArgs;

/// Exit status of the helper when it cannot start the command safely (it never ran).
const SANDBOX_FAILED: u8 = 125;

/// This executable, as the kernel names it: the second stage is the same binary.
const SELF_EXE: &str = "/proc/self/exe";

/// Runs the helper to the end.
pub fn exec(args: &SandboxExecArgs) -> ExitCode {
    weft_sandbox::close_inherited_descriptors();
    if args.apply {
        return apply_and_exec(args);
    }
    // Before anything else, so that weft dying from here on is noticed (before the handler
    // below is in place, the signal's default action ends this process, which has started
    // nothing).
    if let Err(e) = set_parent_process_death_signal(Some(Signal::TERM)) {
        return failed(&format!("cannot follow weft's life: {e}"));
    }
    if let Some(parent) = args.parent
        && getppid() != Pid::from_raw(i32::try_from(parent).unwrap_or(0))
    {
        return failed("weft ended before the command started");
    }
    if let Err(e) = weft_sandbox::become_subreaper() {
        return failed(&e.to_string());
    }
    let policy = match args.policy.as_deref().map(SandboxPolicy::from_json) {
        None => None,
        Some(Ok(policy)) => Some(policy),
        Some(Err(e)) => return failed(&e.to_string()),
    };
    // How the read-only paths were before the command: what it creates there is moved aside.
    let watch = policy
        .as_ref()
        .map(|p| ReadOnlyWatch::new(&p.read_only))
        .unwrap_or_default();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return failed(&format!("cannot start: {e}")),
    };
    runtime.block_on(supervise(args, &watch))
}

/// The second stage: the policy applied to this (single-threaded) process, then COMMAND
/// executed in place. Dies with its parent, the first stage.
fn apply_and_exec(args: &SandboxExecArgs) -> ExitCode {
    if let Err(e) = set_parent_process_death_signal(Some(Signal::KILL)) {
        return failed(&format!("cannot follow the helper's life: {e}"));
    }
    let Some(policy) = &args.policy else {
        return failed("no policy to apply");
    };
    let applied = SandboxPolicy::from_json(policy).and_then(|p| p.apply_to_current_process());
    if let Err(err) = applied {
        return failed(&err.to_string());
    }
    let Some((program, rest)) = args.command.split_first() else {
        return failed("no command");
    };
    // Only returns on failure.
    let err = std::process::Command::new(program).args(rest).exec();
    cannot_run(program, &err)
}

/// Starts the command, waits for it or for a signal, then ends everything it started.
async fn supervise(args: &SandboxExecArgs, watch: &ReadOnlyWatch) -> ExitCode {
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
    let Some((program, rest)) = args.command.split_first() else {
        return failed("no command");
    };
    // In this process's group (weft made it the leader of a group of its own).
    let mut command = match &args.policy {
        Some(policy) => {
            let mut second = tokio::process::Command::new(SELF_EXE);
            second
                .args(["sandbox", "exec", "--apply", "--policy"])
                .arg(policy)
                .arg("--")
                .args(&args.command);
            second
        }
        None => {
            let mut direct = tokio::process::Command::new(program);
            direct.args(rest);
            direct
        }
    };
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(err) => return cannot_run(program, &err),
    };
    let [term, int, hup] = &mut endings[..] else {
        return failed("cannot watch for signals");
    };
    let status = tokio::select! {
        status = child.wait() => Some(status),
        _ = term.recv() => None,
        _ = int.recv() => None,
        _ = hup.recv() => None,
    };
    // Whatever ended it, nothing it started outlives it.
    weft_sandbox::end_descendants();
    for restored in watch.restore() {
        crate::output::errln!("weft sandbox: {restored}");
    }
    match status {
        Some(Ok(status)) => exit_as(status),
        Some(Err(e)) => failed(&format!("cannot wait for the command: {e}")),
        None => end_group(),
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

/// The command could not be executed: the shell's conventions, 127 not found, 126 found but
/// not runnable.
fn cannot_run(program: &OsStr, err: &std::io::Error) -> ExitCode {
    crate::output::errln!(
        "weft sandbox: cannot run {}: {err}",
        program.to_string_lossy()
    );
    ExitCode::from(if err.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    })
}

/// Reports a failure to start the command.
fn failed(reason: &str) -> ExitCode {
    crate::output::errln!("weft sandbox: {reason}");
    ExitCode::from(SANDBOX_FAILED)
}
