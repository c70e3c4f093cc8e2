//! exec_shell through the real `weft` binary (replayed tool calls): the sandbox (writes,
//! reads, network), the scrubbed environment with and without it, process groups killed on
//! timeout, SIGTERM, SIGINT and exit, and `weft sandbox status`. These run for real: the
//! machine must have Landlock and seccomp.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use sandbox::{Sandbox, render, snapshot};
use serde_json::{Value, json};

/// The shared sandbox with a directory outside home and project, and a private key in
/// `~/.ssh`. weft's temporary directory is the sandbox's own (`<tmp>/tmp`, [`Sandbox::temp`]),
/// not the system's, which holds `outside` too.
fn setup() -> Sandbox {
    let s = Sandbox::new();
    s.dir("outside");
    s.temp();
    std::fs::create_dir_all(s.home.join(".ssh")).unwrap();
    std::fs::write(s.home.join(".ssh/id_ed25519"), "PRIVATE KEY").unwrap();
    s
}

/// `<tmp>/outside`.
fn outside(s: &Sandbox) -> PathBuf {
    s.root.join("outside")
}

/// A config with `sandbox` and `extra` merged in, and a recording that makes one exec_shell
/// call per turn, then answers `done`. Every command is pre-approved (`permissions.allow:
/// ["Bash"]`), so the run never needs to ask and the sandbox is what the configuration says
/// (tests/permissions_cli.rs tests the modes).
fn replay_config(s: &Sandbox, sandbox: Value, extra: Value, calls: &[Value]) -> PathBuf {
    let mut turns: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, args)| {
            json!({"tool_calls": [{"id": format!("call_{i}"), "name": "exec_shell", "arguments": args}]})
        })
        .collect();
    turns.push(json!({"content": "done"}));
    let recording = s.recording("recording.jsonl", &turns);
    let mut config = json!({
        "providers": {"demo": {"kind": "replay", "file": recording}},
        "model": "demo/recorded",
        "sandbox": sandbox,
        "permissions": {"allow": ["Bash"]},
    });
    for (key, value) in extra.as_object().unwrap() {
        config[key] = value.clone();
    }
    s.config(&config)
}

/// `weft --home --project --config` with a small known environment ([`Sandbox::isolated`]).
fn weft(s: &Sandbox, config: &Path) -> Command {
    let mut cmd = s.isolated();
    cmd.arg("--config").arg(config);
    cmd
}

/// `weft agent -m go`, run to the end.
fn run(s: &Sandbox, config: &Path, env: &[(&str, &str)]) -> Output {
    let output = weft(s, config)
        .envs(env.iter().copied())
        .args(["agent", "-m", "go"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "weft failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "done\n");
    output
}

/// The exec_shell results, in order, from the one transcript.
fn results(s: &Sandbox) -> Vec<String> {
    s.messages()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

/// The pid written to `<project>/<name>`, waiting for it until `deadline`.
fn read_pid(s: &Sandbox, name: &str, deadline: Instant) -> u32 {
    loop {
        if let Ok(text) = std::fs::read_to_string(s.project.join(name))
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "{name} never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn enabled() -> Value {
    json!({"enabled": true})
}

/// Live (non-zombie) processes whose process group is `pgid`.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the parenthesised name: state, ppid, pgrp, ...
        let Some((_, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[2] == pgid.to_string() && !matches!(fields[0], "Z" | "X") {
            members.push(pid);
        }
    }
    members
}

/// Waits up to 5 s for the group to be empty.
fn assert_group_gone(pgid: u32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let members = group_members(pgid);
        if members.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "group {pgid} still has {members:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

// --- The sandbox --------------------------------------------------------------------------------

#[test]
fn sandboxed_commands_write_only_in_the_project_read_no_secrets_and_have_no_network() {
    let s = setup();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let outside = outside(&s).join("x.txt");
    let key = s.home.join(".ssh/id_ed25519");
    let calls = [
        json!({"command": "echo in > inside.txt && cat inside.txt"}),
        json!({"command": format!("echo out > {}", outside.display())}),
        json!({"command": format!("cat {}", key.display())}),
        json!({"command": format!("bash -c 'echo > /dev/tcp/127.0.0.1/{port}'")}),
    ];
    let config = replay_config(&s, enabled(), json!({}), &calls);
    run(&s, &config, &[]);
    let results = results(&s);
    assert_eq!(results[0], "exit code: 0\n--- stdout ---\nin");
    // bash runs the commands where there is one (docs/PERMISSIONS.md), else `/bin/sh`.
    let refused = if std::path::Path::new("/usr/bin/bash").exists() {
        "exit code: 1\n--- stderr ---\n/usr/bin/bash: line 1: {}: Permission denied"
    } else {
        "exit code: 2\n--- stderr ---\n/bin/sh: 1: cannot create {}: Permission denied"
    };
    assert_eq!(
        results[1],
        refused.replace("{}", &outside.display().to_string())
    );
    assert_eq!(
        results[2],
        format!(
            "exit code: 1\n--- stderr ---\ncat: {}: Permission denied",
            key.display()
        )
    );
    assert_eq!(
        results[3],
        format!(
            "exit code: 1\n--- stderr ---\nbash: socket: Permission denied\nbash: line 1: /dev/tcp/127.0.0.1/{port}: Permission denied"
        )
    );
    assert!(!outside.exists());
    listener.set_nonblocking(true).unwrap();
    assert!(matches!(listener.accept(), Err(e) if e.kind() == ErrorKind::WouldBlock));
}

#[test]
fn without_the_sandbox_the_same_commands_succeed() {
    let s = setup();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let outside = outside(&s).join("x.txt");
    let calls = [
        json!({"command": format!("echo out > {}", outside.display())}),
        json!({"command": format!("cat {}", s.home.join(".ssh/id_ed25519").display())}),
        json!({"command": format!("bash -c 'echo > /dev/tcp/127.0.0.1/{port}'")}),
    ];
    let config = replay_config(&s, json!({"enabled": false}), json!({}), &calls);
    run(&s, &config, &[]);
    assert_eq!(
        results(&s),
        [
            "exit code: 0",
            "exit code: 0\n--- stdout ---\nPRIVATE KEY",
            "exit code: 0"
        ]
    );
    assert!(outside.exists());
}

#[test]
fn the_model_is_told_about_the_sandbox() {
    let s = setup();
    let config = replay_config(&s, enabled(), json!({}), &[]);
    let output = weft(&s, &config)
        .args(["agent", "--dry-run", "-m", "go"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    let exec = doc["request"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "exec_shell")
        .unwrap();
    let description = exec["description"].as_str().unwrap();
    snapshot!(s, "exec_shell_description", description);
}

// --- The environment ----------------------------------------------------------------------------

/// weft's environment in these tests: secrets, a passed-through token and a plain variable.
const WEFT_ENV: [(&str, &str); 6] = [
    ("OPENAI_API_KEY", "sk-openai-secret"),
    ("GITHUB_TOKEN", "ghp-secret"),
    ("DB_PASSWORD", "pw-secret"),
    ("CUSTOM_LLM", "custom-secret"),
    ("CI_TOKEN", "ci-visible"),
    ("PLAIN_SETTING", "plain-visible"),
];

fn env_config(s: &Sandbox, sandbox_enabled: bool) -> PathBuf {
    replay_config(
        s,
        json!({"enabled": sandbox_enabled, "env_passthrough": ["CI_TOKEN"]}),
        // A provider whose key lives in a variable with an ordinary name.
        json!({"providers": {
            "demo": {"kind": "replay", "file": s.root.join("recording.jsonl")},
            "other": {"kind": "openai", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "CUSTOM_LLM"}
        }}),
        &[json!({"command": "env | sort"})],
    )
}

fn assert_env_scrubbed(s: &Sandbox) {
    let results = results(s);
    let env = &results[0];
    for (name, value) in WEFT_ENV {
        let visible = matches!(name, "CI_TOKEN" | "PLAIN_SETTING");
        assert_eq!(env.contains(value), visible, "{name} in {env}");
        assert_eq!(
            env.contains(&format!("\n{name}=")),
            visible,
            "{name} in {env}"
        );
    }
}

#[test]
fn commands_never_see_the_keys_without_the_sandbox() {
    let s = setup();
    let config = env_config(&s, false);
    run(&s, &config, &WEFT_ENV);
    assert_env_scrubbed(&s);
}

#[test]
fn commands_never_see_the_keys_in_the_sandbox() {
    let s = setup();
    let config = env_config(&s, true);
    run(&s, &config, &WEFT_ENV);
    assert_env_scrubbed(&s);
}

// --- Process groups -----------------------------------------------------------------------------

/// Writes its process group's id (the group weft made for the command: the helper that
/// started the shell leads it), the shell's pid and a background job's, then blocks.
/// (`; true` at the end: bash would otherwise replace itself with the last `sleep`.)
const HOLD: &str = "sleep 1000 > /dev/null 2>&1 & echo $! > bg.pid; echo $$ > sh.pid; cut -d' ' -f5 /proc/$$/stat > pg.pid; sleep 1000; true";

#[test]
fn a_timeout_leaves_no_process_of_the_group() {
    let s = setup();
    let config = replay_config(
        &s,
        enabled(),
        json!({}),
        &[json!({"command": HOLD, "timeout_secs": 1})],
    );
    run(&s, &config, &[]);
    insta::assert_snapshot!("timeout_result", results(&s)[0]);
    let deadline = Instant::now() + Duration::from_secs(5);
    let pgid = read_pid(&s, "pg.pid", deadline);
    read_pid(&s, "bg.pid", deadline);
    assert_group_gone(pgid);
}

#[test]
fn background_jobs_end_when_weft_ends() {
    let s = setup();
    let config = replay_config(
        &s,
        enabled(),
        json!({}),
        &[
            json!({"command": "sleep 1000 > /dev/null 2>&1 & echo $! > bg.pid; cut -d' ' -f5 /proc/$$/stat > pg.pid"}),
        ],
    );
    run(&s, &config, &[]);
    assert_eq!(results(&s), ["exit code: 0"]);
    let pgid = read_pid(&s, "pg.pid", Instant::now() + Duration::from_secs(5));
    assert_group_gone(pgid);
}

/// Starts a run that blocks in `HOLD`, sends `signal` to weft and checks the exit code (`None`:
/// killed by the signal) and that the command's group is gone.
fn signal_kills_the_group(signal: &str, code: Option<i32>, sandbox: Value) {
    let s = setup();
    let config = replay_config(&s, sandbox, json!({}), &[json!({"command": HOLD})]);
    let mut child = weft(&s, &config)
        .args(["agent", "-m", "go"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    let pgid = read_pid(&s, "pg.pid", deadline);
    let sh = read_pid(&s, "sh.pid", deadline);
    let bg = read_pid(&s, "bg.pid", deadline);
    // The foreground `sleep` starts just after `pg.pid` is written.
    let mut members = group_members(pgid);
    while members.len() < 4 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        members = group_members(pgid);
    }
    assert_eq!(
        members.len(),
        4,
        "helper, shell, job and sleep: {members:?}"
    );
    assert!(members.contains(&pgid) && members.contains(&sh) && members.contains(&bg));
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), code, "{status:?}");
    assert_group_gone(pgid);
}

#[test]
fn sigterm_to_weft_leaves_no_process_of_the_group() {
    signal_kills_the_group("-TERM", Some(143), enabled());
}

#[test]
fn ctrl_c_to_weft_leaves_no_process_of_the_group() {
    signal_kills_the_group("-INT", Some(130), json!({"enabled": false}));
}

#[test]
fn sigkill_to_weft_leaves_no_process_of_the_group_sandboxed() {
    // weft cannot act on SIGKILL: the helper that started the command notices its parent's
    // death and ends the group.
    signal_kills_the_group("-KILL", None, enabled());
}

#[test]
fn sigkill_to_weft_leaves_no_process_of_the_group_unsandboxed() {
    signal_kills_the_group("-KILL", None, json!({"enabled": false}));
}

// --- weft sandbox status ------------------------------------------------------------------------

#[test]
fn a_relative_project_sandboxes_the_absolute_project() {
    let s = setup();
    let config = replay_config(&s, json!({}), json!({}), &[]);
    let sub = s.project.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    // `--project .` from the project, and `CLAWFT_PROJECT=..` from a subdirectory.
    let status = |dir: &Path, project: Option<&str>, env: &[(&str, &str)]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
        cmd.current_dir(dir)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &s.home)
            .env("TMPDIR", s.temp())
            .envs(env.iter().copied())
            .arg("--config")
            .arg(&config);
        if let Some(project) = project {
            cmd.args(["--project", project]);
        }
        cmd.args([
            "--permission-mode",
            "auto",
            "sandbox",
            "status",
            "--format",
            "json",
        ]);
        let output = cmd.output().unwrap();
        assert!(output.status.success(), "{}", render("status", &output));
        let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
        serde_json::to_string_pretty(&doc["exec_shell"]).unwrap()
    };
    let flag = status(&s.project, Some("."), &[]);
    let env = status(&sub, None, &[("CLAWFT_PROJECT", "..")]);
    assert_eq!(flag, env);
    snapshot!(s, "relative_project_policy", flag);
}

/// `weft sandbox status --format json` on this machine.
fn status_json(s: &Sandbox, config: &Path) -> Value {
    let output = weft(s, config)
        .args(["sandbox", "status", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn status_reports_this_machine_and_the_policy() {
    let s = setup();
    let config = replay_config(
        &s,
        json!({"enabled": true, "writable_roots": ["~/.cache"], "deny_read": [".env"]}),
        json!({}),
        &[],
    );
    let doc = status_json(&s, &config);
    assert_eq!(doc["landlock"]["available"], true, "{doc}");
    let abi = doc["landlock"]["abi"].as_u64().unwrap();
    assert!(abi >= 1);
    assert_eq!(doc["seccomp"], true);
    assert_eq!(doc["exec_shell"]["mode"], "sandboxed");
    let output = weft(&s, &config)
        .env("ANTHROPIC_API_KEY", "sk-ant")
        .env("SHOWN", "x")
        .args(["sandbox", "status"])
        .output()
        .unwrap();
    assert!(output.status.success());
    // The kernel's answers vary by machine; they are checked against the JSON above.
    let mut settings = s.snapshot_settings();
    settings.add_filter(&format!(r"ABI {abi}\b"), "ABI [ABI]");

    settings.add_filter(
        r"(?m)^user namespaces  (un)?available$",
        "user namespaces  [AVAILABILITY]",
    );
    settings.bind(|| {
        insta::assert_snapshot!("status_sandboxed", render("sandbox status", &output));
    });
    let namespaces = if doc["user_namespaces"] == true {
        "available"
    } else {
        "unavailable"
    };
    assert!(
        sandbox::stdout(&output)
            .lines()
            .any(|l| l == format!("user namespaces  {namespaces}")),
        "the table agrees with the JSON"
    );
}

#[test]
fn status_says_why_commands_are_not_sandboxed() {
    let s = setup();
    let config = replay_config(&s, json!({"enabled": false}), json!({}), &[]);
    let doc = status_json(&s, &config);
    assert_eq!(
        doc["exec_shell"],
        json!({"mode": "unsandboxed", "reason": "sandbox.enabled is false"})
    );
    let bad = replay_config(
        &s,
        json!({"enabled": true, "deny_read": ["~bob"]}),
        json!({}),
        &[],
    );
    let output = weft(&s, &bad).args(["sandbox", "status"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    insta::assert_snapshot!("status_bad_policy", render("sandbox status", &output));
}

#[test]
fn a_trusted_project_cannot_widen_the_sandbox() {
    let s = setup();
    s.project_config(&json!({
        "permissions": {"mode": "auto"},
        "sandbox": {
            "enabled": false,
            "required": false,
            "writable_roots": ["/"],
            "network": true,
            "env_passthrough": ["OPENAI_API_KEY"],
            "deny_read": [".env"],
        },
    }));
    let config = replay_config(&s, json!({}), json!({}), &[]);
    let run = |args: &[&str]| {
        weft(&s, &config)
            .env("OPENAI_API_KEY", "sk-secret")
            .arg("--trust-project")
            .args(args)
            .output()
            .unwrap()
    };
    let status = run(&["sandbox", "status", "--format", "json"]);
    assert!(status.status.success(), "{}", render("status", &status));
    let doc: Value = serde_json::from_slice(&status.stdout).unwrap();
    // The trusted project chose auto (accepted), not the wider sandbox (ignored).
    assert_eq!(doc["permission_mode"], "auto");
    let origin = run(&["config", "show", "--origin"]);
    let text = format!(
        "{}\n$ sandbox status --format json: exec_shell, env_withheld\n{}\n{}\n{}",
        String::from_utf8_lossy(&status.stderr),
        serde_json::to_string_pretty(&doc["exec_shell"]).unwrap(),
        serde_json::to_string_pretty(&doc["env_withheld"]).unwrap(),
        render("config show --origin", &origin),
    );
    snapshot!(s, "trusted_project_cannot_widen_the_sandbox", text);
}
