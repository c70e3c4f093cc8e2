//! exec_shell.

use std::time::{Duration, Instant};

use serde_json::json;
use weft_tools::{ExecConfig, ToolError};

use crate::{Workspace, is_invalid, is_outside};

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
