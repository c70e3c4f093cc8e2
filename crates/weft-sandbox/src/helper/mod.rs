//! The sandbox helper: the small process between a program and every command it runs.
//!
//! Rust code without `unsafe` can run nothing between `fork` and `exec` of a command, so the
//! program starts this helper instead, as the leader of the command's own process group, with
//! the command line [`HelperArgs::to_args`] writes followed by the command. The helper
//!
//! 1. marks every descriptor it inherited above 2 close-on-exec, so the command sees none of
//!    them;
//! 2. asks the kernel for SIGTERM when its parent dies (`PR_SET_PDEATHSIG`), checks that the
//!    parent is still there (it could have died before the request took effect), and becomes
//!    a child subreaper, so that every process the command starts stays its descendant,
//!    `setsid` and double forks included;
//! 3. starts the command: with a policy, through its second stage (the same executable,
//!    `/proc/self/exe`, with `--apply`: it applies the policy to itself and executes the
//!    command in place), so the supervising first stage stays outside the sandbox, out of the
//!    command's reach (Landlock's signal scope keeps sandboxed processes from signalling it);
//! 4. when the command exits, or SIGTERM, SIGINT or SIGHUP arrives (the parent died, or someone
//!    signalled it), ends every descendant, moves aside what the command created among the
//!    read-only paths ([`ReadOnlyWatch`], reported to the caller's writer), and exits as the
//!    command did (or killed, after a signal).
//!
//! So even a SIGKILL of the parent, which it cannot act on, ends the command and everything it
//! started. The helper reports only its own failures and what it moved aside,
//! `weft sandbox: <text>`; when it cannot start the command safely it exits
//! [`HELPER_FAILED`] without running anything.

mod args;

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::process::{CommandExt as _, ExitStatusExt};
use std::process::{ExitCode, ExitStatus};

use rustix::process::{
    Pid, Signal, getpgrp, getpid, getppid, kill_process, kill_process_group,
    set_parent_process_death_signal,
};
use tokio::signal::unix::{SignalKind, signal};

use args::Invocation;
pub use args::{HELPER_COMMAND, HelperArgs, is_helper_call};

use crate::{ReadOnlyWatch, SandboxPolicy};

/// Exit status of the helper when it cannot start the command safely (it never ran).
pub const HELPER_FAILED: u8 = 125;

/// This executable, as the kernel names it: the second stage is the same binary, which must
/// serve the helper as the first stage was served.
const SELF_EXE: &str = "/proc/self/exe";

/// Runs the helper to the end: `args` is the program's command line without its name (it
/// starts with [`HELPER_COMMAND`]); `reports` receives the helper's own failures and what it
/// moved aside, one line each (the caller decides where they go: standard error, neutralised).
/// The exit code is the command's, or [`HELPER_FAILED`].
///
/// A program whose executable starts commands through the helper (weft's binary, or any
/// program that names itself to `weft-runtime` with `EnvSnapshot::with_exe`) serves it first
/// thing in `main`, before it starts threads or reads anything else:
///
/// ```no_run
/// # #![allow(clippy::disallowed_methods)]
/// fn main() -> std::process::ExitCode {
///     let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
///     if weft_sandbox::is_helper_call(&args) {
///         return weft_sandbox::run_helper(&args, &mut std::io::stderr());
///     }
///     // ... the program itself
///     std::process::ExitCode::SUCCESS
/// }
/// ```
pub fn run_helper(args: &[OsString], reports: &mut dyn Write) -> ExitCode {
    crate::close_inherited_descriptors();
    let invocation = match Invocation::parse(args) {
        Ok(invocation) => invocation,
        Err(e) => return failed(reports, &e.to_string()),
    };
    if invocation.apply {
        return apply_and_exec(&invocation, reports);
    }
    // Before anything else, so that the parent dying from here on is noticed (before the
    // handler below is in place, the signal's default action ends this process, which has
    // started nothing).
    if let Err(e) = set_parent_process_death_signal(Some(Signal::TERM)) {
        return failed(
            reports,
            &format!("cannot ask to end with the program that started it: {e}"),
        );
    }
    if let Some(parent) = invocation.args.parent
        && getppid() != Pid::from_raw(i32::try_from(parent).unwrap_or(0))
    {
        return failed(
            reports,
            "the program that started it ended before the command started",
        );
    }
    if let Err(e) = crate::become_subreaper() {
        return failed(reports, &e.to_string());
    }
    let policy = match invocation
        .args
        .policy
        .as_deref()
        .map(SandboxPolicy::from_json)
    {
        None => None,
        Some(Ok(policy)) => Some(policy),
        Some(Err(e)) => return failed(reports, &e.to_string()),
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
        Err(e) => return failed(reports, &format!("cannot start: {e}")),
    };
    runtime.block_on(supervise(&invocation, &watch, reports))
}

/// The second stage: the policy applied to this (single-threaded) process, then the command
/// executed in place. Dies with its parent, the first stage.
fn apply_and_exec(invocation: &Invocation, reports: &mut dyn Write) -> ExitCode {
    if let Err(e) = set_parent_process_death_signal(Some(Signal::KILL)) {
        return failed(reports, &format!("cannot follow the helper's life: {e}"));
    }
    let Some(policy) = &invocation.args.policy else {
        return failed(reports, "no policy to apply");
    };
    let applied = SandboxPolicy::from_json(policy).and_then(|p| p.apply_to_current_process());
    if let Err(err) = applied {
        return failed(reports, &err.to_string());
    }
    let Some((program, rest)) = invocation.command.split_first() else {
        return failed(reports, "no command");
    };
    // Only returns on failure.
    let err = std::process::Command::new(program).args(rest).exec();
    cannot_run(reports, program, &err)
}

/// Starts the command, waits for it or for a signal, then ends everything it started.
async fn supervise(
    invocation: &Invocation,
    watch: &ReadOnlyWatch,
    reports: &mut dyn Write,
) -> ExitCode {
    let mut endings = Vec::new();
    for kind in [
        SignalKind::terminate(),
        SignalKind::interrupt(),
        SignalKind::hangup(),
    ] {
        match signal(kind) {
            Ok(stream) => endings.push(stream),
            Err(e) => return failed(reports, &format!("cannot watch for signals: {e}")),
        }
    }
    let Some((program, rest)) = invocation.command.split_first() else {
        return failed(reports, "no command");
    };
    // In this process's group (the parent made it the leader of a group of its own).
    let mut command = match &invocation.args.policy {
        Some(policy) => {
            let mut second = tokio::process::Command::new(SELF_EXE);
            second.args(HelperArgs::second_stage(policy, &invocation.command));
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
        Err(err) => return cannot_run(reports, program, &err),
    };
    let [term, int, hup] = &mut endings[..] else {
        return failed(reports, "cannot watch for signals");
    };
    let status = tokio::select! {
        status = child.wait() => Some(status),
        _ = term.recv() => None,
        _ = int.recv() => None,
        _ = hup.recv() => None,
    };
    // Whatever ended it, nothing it started outlives it.
    crate::end_descendants();
    for restored in watch.restore() {
        report(reports, &restored.to_string());
    }
    match status {
        Some(Ok(status)) => exit_as(status),
        Some(Err(e)) => failed(reports, &format!("cannot wait for the command: {e}")),
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
/// so the parent sees the same; 128 + the signal if that signal does not end this process).
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
fn cannot_run(reports: &mut dyn Write, program: &OsStr, err: &std::io::Error) -> ExitCode {
    report(
        reports,
        &format!("cannot run {}: {err}", program.to_string_lossy()),
    );
    ExitCode::from(if err.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    })
}

/// Reports a failure to start the command.
fn failed(reports: &mut dyn Write, reason: &str) -> ExitCode {
    report(reports, reason);
    ExitCode::from(HELPER_FAILED)
}

/// One line to the caller's writer; a writer that fails (a closed standard error) changes
/// nothing about how the command ends.
fn report(reports: &mut dyn Write, text: &str) {
    let _ = writeln!(reports, "weft sandbox: {text}");
    let _ = reports.flush();
}
