//! exec_shell.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use weft_tools::{ExecConfig, ProcessGroups, ShellLauncher, ShellProgram, ToolError};

use super::{Workspace, is_invalid, is_outside};

fn exec_config() -> ExecConfig {
    ExecConfig {
        output_cap: 200,
        ..ExecConfig::default()
    }
}

#[tokio::test]
async fn exec_shell_reports_exit_code_and_streams() {
    let ws = Workspace::with(exec_config(), None);
    assert_eq!(
        ws.ok("exec_shell", json!({"command": "echo hello"})).await,
        "exit code: 0\n--- stdout ---\nhello"
    );
    assert_eq!(
        ws.ok("exec_shell", json!({"command": "echo oops >&2; exit 3"}))
            .await,
        "exit code: 3\n--- stderr ---\noops"
    );
    assert_eq!(
        ws.ok("exec_shell", json!({"command": "true"})).await,
        "exit code: 0"
    );
    let killed = ws.ok("exec_shell", json!({"command": "kill -9 $$"})).await;
    assert_eq!(killed, "terminated by signal 9");
    // Runs in the base, or in cwd.
    ws.write("sub/marker", "");
    assert_eq!(
        ws.ok("exec_shell", json!({"command": "ls", "cwd": "sub"}))
            .await,
        "exit code: 0\n--- stdout ---\nmarker"
    );
    // Stdin is empty rather than inherited.
    assert_eq!(
        ws.ok("exec_shell", json!({"command": "cat"})).await,
        "exit code: 0"
    );
}

#[tokio::test]
async fn exec_shell_caps_each_stream() {
    let ws = Workspace::with(exec_config(), None);
    let out = ws
        .ok(
            "exec_shell",
            json!({"command": "head -c 5000 /dev/zero | tr '\\0' a; echo; echo END"}),
        )
        .await;
    assert!(out.contains("[truncated "), "{out}");
    assert!(out.ends_with("END"), "{out}");
    assert!(out.len() < 400, "{}", out.len());
}

#[tokio::test]
async fn exec_shell_refuses_bad_input_and_cwd_outside() {
    let ws = Workspace::with(exec_config(), None);
    let outside = ws.outside();
    let err = ws
        .err("exec_shell", json!({"command": "pwd", "cwd": outside}))
        .await;
    assert!(is_outside(&err), "{err}");
    assert!(is_invalid(
        &ws.err(
            "exec_shell",
            json!({"command": "true", "timeout_secs": 601})
        )
        .await
    ));
    assert!(is_invalid(
        &ws.err("exec_shell", json!({"command": "  "})).await
    ));
}

/// True once `pid` has exited (gone, or a zombie no one has reaped yet).
fn process_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
    }
}

#[tokio::test]
async fn exec_shell_timeout_kills_the_whole_group() {
    let ws = Workspace::with(exec_config(), None);
    let started = Instant::now();
    let err = ws
        .err(
            "exec_shell",
            json!({"command": "sleep 30 & echo $! > pidfile; wait", "timeout_secs": 1}),
        )
        .await;
    assert!(
        matches!(err, ToolError::Timeout(d) if d == Duration::from_secs(1)),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let pid: u32 = ws.read("pidfile").trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
    while !process_gone(pid) {
        assert!(Instant::now() < deadline, "background sleep {pid} survived");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn exec_shell_does_not_wait_for_background_jobs_holding_output() {
    let ws = Workspace::with(exec_config(), None);
    let started = Instant::now();
    let out = ws
        .ok(
            "exec_shell",
            json!({"command": "sleep 5 & echo $! > bgpid; echo started"}),
        )
        .await;
    let elapsed = started.elapsed();
    // The job outlives a normal exit; stop it so the test leaves nothing behind.
    let pid = ws.read("bgpid").trim().to_owned();
    let _ = std::process::Command::new("kill").arg(&pid).status();
    assert!(
        out.starts_with("exit code: 0\n--- stdout ---\nstarted"),
        "{out}"
    );
    assert!(out.contains("background processes"), "{out}");
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
}

/// Waits (up to 5 s) until `pid` is gone.
async fn wait_gone(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !process_gone(pid) {
        assert!(Instant::now() < deadline, "process {pid} survived");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits (up to 5 s) until `rel` exists in the workspace and holds a pid.
async fn read_pid(ws: &Workspace, rel: &str) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Ok(text) = std::fs::read_to_string(ws.base().join(rel))
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "{rel} never appeared");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_cancelled_call_kills_its_whole_group() {
    let ws = Workspace::with(exec_config(), None);
    let call = ws.call(
        "exec_shell",
        json!({"command": "sleep 30 & echo $! > bgpid; sleep 30"}),
    );
    // Dropping the call's future is what the REPL's Ctrl-C does to a turn.
    let cancelled = tokio::time::timeout(Duration::from_millis(500), call).await;
    assert!(cancelled.is_err(), "the call finished: {cancelled:?}");
    wait_gone(read_pid(&ws, "bgpid").await).await;
}

#[tokio::test]
async fn background_jobs_outlive_the_call_until_shutdown() {
    let groups = ProcessGroups::new();
    let ws = Workspace::with(
        ExecConfig {
            groups: groups.clone(),
            ..exec_config()
        },
        None,
    );
    ws.ok(
        "exec_shell",
        json!({"command": "sleep 30 > /dev/null 2>&1 & echo $! > bgpid"}),
    )
    .await;
    let pid = read_pid(&ws, "bgpid").await;
    assert!(!process_gone(pid));
    assert_eq!(groups.live().len(), 1);
    // A command that leaves nothing behind is not kept.
    ws.ok("exec_shell", json!({"command": "true"})).await;
    assert_eq!(groups.live().len(), 1);
    assert_eq!(groups.shutdown(), 1);
    wait_gone(pid).await;
    assert!(groups.live().is_empty());
    // After shutdown nothing starts.
    let err = ws
        .err("exec_shell", json!({"command": "touch started"}))
        .await;
    assert_eq!(err.to_string(), "weft is shutting down");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!ws.base().join("started").exists());
}

#[tokio::test]
async fn dropping_the_last_handle_kills_what_is_left() {
    let ws = Workspace::with(exec_config(), None);
    ws.ok(
        "exec_shell",
        json!({"command": "sleep 30 > /dev/null 2>&1 & echo $! > bgpid"}),
    )
    .await;
    let pid = read_pid(&ws, "bgpid").await;
    assert!(!process_gone(pid));
    let base = ws.base();
    drop(ws);
    wait_gone(pid).await;
    drop(base);
}

#[tokio::test]
#[allow(clippy::disallowed_methods)] // compares with the test process's own environment
async fn the_command_sees_exactly_the_configured_environment() {
    let env = [("PATH", "/usr/bin:/bin"), ("ONLY_THIS", "yes")]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)))
        .into_iter()
        .collect();
    // The test process's own variables (HOME at least) must not leak.
    assert!(std::env::var_os("HOME").is_some());
    let ws = Workspace::with(
        ExecConfig {
            env,
            ..exec_config()
        },
        None,
    );
    // `env` lists the environment; dash adds PWD (and nothing else) on its own.
    assert_eq!(
        ws.ok(
            "exec_shell",
            json!({"command": "env | grep -v '^PWD=' | sort"})
        )
        .await,
        "exit code: 0\n--- stdout ---\nONLY_THIS=yes\nPATH=/usr/bin:/bin"
    );
}

#[tokio::test]
async fn bash_runs_without_startup_files_aliases_or_imported_functions() {
    let Some(bash) = ["/usr/bin/bash", "/bin/bash"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
    else {
        return; // a machine without bash runs `/bin/sh`, tested above
    };
    // A startup file that would leave a mark, outside the workspace.
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("ran-startup");
    let startup = dir.path().join("startup");
    std::fs::write(&startup, format!("touch {}\n", mark.display())).unwrap();
    let env = [
        ("PATH", "/usr/bin:/bin"),
        ("BASH_ENV", startup.to_str().unwrap()),
        ("ENV", startup.to_str().unwrap()),
        ("BASH_FUNC_ls%%", "() { echo hijacked; }"),
        ("SHELLOPTS", "xtrace"),
        ("POSIXLY_CORRECT", "1"),
        ("CDPATH", "/"),
        ("KEPT", "yes"),
    ]
    .map(|(k, v)| (OsString::from(k), OsString::from(v)))
    .into_iter()
    .collect();
    let ws = Workspace::with(
        ExecConfig {
            env,
            shell: ShellProgram::bash(bash),
            ..exec_config()
        },
        None,
    );
    let out = ws
        .ok(
            "exec_shell",
            json!({"command": "alias ls='echo aliased'\nls -d . ; shopt -q expand_aliases || echo no-aliases; echo \"$KEPT ${POSIXLY_CORRECT-unset} ${CDPATH-unset} $BASH_VERSION\" | cut -c1-18"}),
        )
        .await;
    assert!(
        out.starts_with("exit code: 0\n--- stdout ---\n.\nno-aliases\nyes unset unset 5."),
        "{out}"
    );
    assert!(!mark.exists());
    let schema = ws.registry.get("exec_shell").unwrap().input_schema();
    assert_eq!(
        schema["properties"]["command"]["description"],
        "The command line, run with `bash -c`."
    );
}

#[tokio::test]
async fn a_wrapper_runs_the_shell_and_its_note_reaches_the_model() {
    let ws = Workspace::with(
        ExecConfig {
            launcher: ShellLauncher::Wrapper {
                program: PathBuf::from("/usr/bin/env"),
                args: vec![OsString::from("WRAPPED=1")],
                note: "Runs wrapped.".to_owned(),
            },
            ..exec_config()
        },
        None,
    );
    assert_eq!(
        ws.ok(
            "exec_shell",
            json!({"command": "echo wrapped=$WRAPPED pid=$$ > out; cat out"})
        )
        .await
        .lines()
        .nth(2)
        .map(|l| l.starts_with("wrapped=1 pid=")),
        Some(true)
    );
    let tool = ws.registry.get("exec_shell").unwrap();
    assert!(tool.description().ends_with(" Runs wrapped."));
    // The timeout still kills the whole group: the wrapper executed the shell in place.
    let err = ws
        .err(
            "exec_shell",
            json!({"command": "sleep 30 & echo $! > bgpid; wait", "timeout_secs": 1}),
        )
        .await;
    assert!(matches!(err, ToolError::Timeout(_)), "{err}");
    wait_gone(read_pid(&ws, "bgpid").await).await;
}

#[tokio::test]
async fn a_refusing_launcher_runs_nothing_and_says_why() {
    let ws = Workspace::with(
        ExecConfig {
            launcher: ShellLauncher::Refuse("the sandbox is unavailable: no Landlock".to_owned()),
            ..exec_config()
        },
        None,
    );
    let err = ws.err("exec_shell", json!({"command": "touch ran"})).await;
    assert_eq!(err.to_string(), "the sandbox is unavailable: no Landlock");
    assert!(!ws.base().join("ran").exists());
}
