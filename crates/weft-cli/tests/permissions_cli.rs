//! Permission modes through the real `weft` binary against a loopback OpenAI-compatible server:
//! a non-interactive run in `ask` refuses what needs approval, tells the model how it could be
//! allowed and prints a one-line summary; `auto` runs commands without asking, inside the
//! sandbox; where a mode may come from (the command line, the user's file, never a project's
//! `bypass`); an agent's `permissionMode` only narrows.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use common::{ScriptServer, openai_text, openai_tool_names, openai_tool_result, openai_tools};
use sandbox::Sandbox;
use sandbox::server as common;
use serde_json::{Value, json};

/// The summary line's start.
const SUMMARY: &str = "weft: ";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

/// A server that answers with `calls` (one round), then `ok`.
fn script(rt: &tokio::runtime::Runtime, calls: &[(&str, &str, Value)]) -> ScriptServer {
    rt.block_on(ScriptServer::openai(vec![
        openai_tools(calls),
        openai_text("ok"),
    ]))
}

/// A provider at the server; `extra` merged in.
fn provider_config(server: &ScriptServer, extra: Value) -> Value {
    let mut config = json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m",
    });
    for (k, v) in extra.as_object().unwrap() {
        config[k] = v.clone();
    }
    config
}

/// `weft --config CONFIG ARGS` with stdin closed (no one to ask), run to the end.
fn weft_with(s: &Sandbox, config: &Path, args: &[&str]) -> Output {
    s.weft()
        .arg("--config")
        .arg(config)
        .args(args)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap()
}

/// `weft [flags] agent -m go` with stdin closed (no one to ask), `--config` at `config`.
fn run(s: &Sandbox, config: &Path, flags: &[&str]) -> Output {
    let mut args = flags.to_vec();
    args.extend(["agent", "-m", "go", "--no-transcript"]);
    weft_with(s, config, &args)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The lines of stderr that are the refusal summary.
fn summaries(output: &Output) -> Vec<String> {
    stderr(output)
        .lines()
        .filter(|l| l.starts_with(SUMMARY))
        .map(str::to_owned)
        .collect()
}

#[test]
fn non_interactive_ask_refuses_tells_the_model_and_prints_one_summary_line() {
    let rt = runtime();
    let s = Sandbox::new();
    let server = script(
        &rt,
        &[
            ("r", "read_file", json!({"path": "README.md"})),
            ("t", "exec_shell", json!({"command": "touch made-by-model"})),
            (
                "w",
                "write_file",
                json!({"path": "notes.md", "content": "x"}),
            ),
        ],
    );
    s.file("README.md", "readme");
    let config = s.config(&provider_config(&server, json!({})));
    let output = run(&s, &config, &[]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "ok\n");
    assert!(!s.project.join("made-by-model").exists());
    assert!(!s.project.join("notes.md").exists());
    let second = &server.bodies()[1];
    assert_eq!(openai_tool_result(second, "r"), "readme");
    assert_eq!(
        openai_tool_result(second, "t"),
        "approval needed: `exec_shell` may change something (no pre-approval pattern matches this `exec_shell` call). The tool did not run: no one can approve calls in this session (it is not interactive). Do not retry it; the user can allow such calls with the permission mode `auto` (`--permission-mode auto`) or the `permissions.allow` pattern `Bash(touch:*)`."
    );
    assert!(
        openai_tool_result(second, "w").starts_with("approval needed: `write_file` changes a file")
    );
    assert_eq!(
        summaries(&output),
        [
            "weft: 2 tool call(s) needed approval and were refused (`exec_shell: touch made-by-model`, `write_file: notes.md`); allow them with --permission-mode auto (accept-edits for file edits), or with permissions.allow: `Bash(touch:*)`, `Write(notes.md)`; exit status 4 (--ignore-refusals exits 0)"
        ]
    );
}

#[test]
fn skills_run_without_a_terminal_refuses_too_and_pre_approved_calls_run() {
    let rt = runtime();
    let s = Sandbox::new();
    s.file(
        ".clawft/skills/tidy/SKILL.md",
        "---\nname: tidy\ndescription: Tidy up\n---\n\nTidy the project.\n",
    );
    let server = script(
        &rt,
        &[
            (
                "a",
                "exec_shell",
                json!({"command": "mkdir -p out && touch out/a"}),
            ),
            ("b", "exec_shell", json!({"command": "rm -f out/a"})),
        ],
    );
    let config = s.config(&provider_config(
        &server,
        json!({"permissions": {"allow": ["Bash(mkdir:*)", "Bash(touch:*)"]}}),
    ));
    let output = weft_with(&s, &config, &["skills", "run", "tidy", "--no-transcript"]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(
        s.project.join("out/a").exists(),
        "the pre-approved call ran"
    );
    let second = &server.bodies()[1];
    assert!(openai_tool_result(second, "b").starts_with("approval needed: `exec_shell` may change something (`rm -f out/a` matches none of the allowed"));
    assert_eq!(
        summaries(&output),
        [
            "weft: 1 tool call(s) needed approval and were refused (`exec_shell: rm -f out/a`); allow them with --permission-mode auto, or with permissions.allow: `Bash(rm:*)`; exit status 4 (--ignore-refusals exits 0)"
        ]
    );
}

#[test]
fn auto_runs_commands_without_asking_inside_the_sandbox() {
    let rt = runtime();
    let s = Sandbox::new();
    let outside = s.dir("outside");
    let escape = format!("touch {}/escaped", outside.display());
    let server = script(
        &rt,
        &[
            ("in", "exec_shell", json!({"command": "touch inside"})),
            ("out", "exec_shell", json!({"command": escape})),
        ],
    );
    let config = s.config(&provider_config(&server, json!({})));
    // The sandbox's writable temporary directory: not the system's, which holds `outside`.
    let temp = s.temp();
    let output = s
        .weft()
        .env("TMPDIR", &temp)
        .arg("--config")
        .arg(&config)
        .args([
            "--permission-mode",
            "auto",
            "agent",
            "-m",
            "go",
            "--no-transcript",
        ])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(summaries(&output).is_empty(), "{}", stderr(&output));
    assert!(s.project.join("inside").exists());
    assert!(!outside.join("escaped").exists());
    let first = &server.bodies()[0];
    let shell = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["function"]["name"] == "exec_shell")
        .unwrap();
    assert!(
        shell["function"]["description"]
            .as_str()
            .unwrap()
            .contains("It runs in a sandbox"),
        "{shell}"
    );
    let bodies = server.bodies();
    let result = openai_tool_result(&bodies[1], "out");
    assert!(result.contains("Permission denied"), "{result}");
}

#[test]
fn bypass_comes_only_from_the_command_line_or_the_users_own_file() {
    let rt = runtime();
    let banner = "warning: permission mode bypass: every tool call the tool rules allow runs without asking, and exec_shell runs without the sandbox";
    // A trusted project's file cannot choose bypass: the run asks (and refuses here).
    let s = Sandbox::new();
    let server = script(&rt, &[("t", "exec_shell", json!({"command": "touch p"}))]);
    s.project_config(&json!({"permissions": {"mode": "bypass"}}));
    let config = s.config(&provider_config(&server, json!({})));
    let output = run(&s, &config, &["--trust-project-skills"]);
    let err = stderr(&output);
    assert!(
        err.contains("project config `permissions.mode: bypass` ignored"),
        "{err}"
    );
    assert!(!err.contains(banner), "{err}");
    assert!(!s.project.join("p").exists());
    assert_eq!(summaries(&output).len(), 1);
    // An untrusted project cannot pre-approve anything either.
    let s = Sandbox::new();
    let server = script(&rt, &[("t", "exec_shell", json!({"command": "touch p"}))]);
    s.project_config(&json!({"permissions": {"allow": ["Bash"]}}));
    let config = s.config(&provider_config(&server, json!({})));
    let output = run(&s, &config, &[]);
    assert!(
        stderr(&output)
            .contains("project config key `permissions` ignored: the project is not trusted"),
        "{}",
        stderr(&output)
    );
    assert!(!s.project.join("p").exists());
    // The user's own file may.
    let s = Sandbox::new();
    let server = script(&rt, &[("t", "exec_shell", json!({"command": "touch p"}))]);
    s.user_config(&provider_config(
        &server,
        json!({"permissions": {"mode": "bypass"}}),
    ));
    let output = s
        .weft()
        .args(["agent", "-m", "go", "--no-transcript"])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output).lines().next(), Some(banner));
    assert!(s.project.join("p").exists());
    // So may the command line, which also beats the file.
    let s = Sandbox::new();
    let server = script(&rt, &[("t", "exec_shell", json!({"command": "touch p"}))]);
    let config = s.config(&provider_config(
        &server,
        json!({"permissions": {"mode": "plan"}}),
    ));
    let output = run(&s, &config, &["--permission-mode", "bypass"]);
    assert!(stderr(&output).starts_with(banner));
    assert!(s.project.join("p").exists());
}

#[test]
fn an_agent_permission_mode_narrows_the_command_lines_and_never_widens_it() {
    let rt = runtime();
    let s = Sandbox::new();
    s.file(
        ".clawft/agents/wide.md",
        "---\nname: wide\ndescription: Wants everything\npermissionMode: bypassPermissions\n---\n\nGo.\n",
    );
    s.file(
        ".clawft/agents/planner.md",
        "---\nname: planner\ndescription: Plans\npermissionMode: plan\n---\n\nPlan.\n",
    );
    // `wide` under the default `ask`: still asks (refused without a terminal).
    let server = script(&rt, &[("t", "exec_shell", json!({"command": "touch w"}))]);
    let config = s.config(&provider_config(&server, json!({})));
    let output = weft_with(
        &s,
        &config,
        &["agent", "--agent", "wide", "-m", "go", "--no-transcript"],
    );
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(!s.project.join("w").exists());
    assert_eq!(summaries(&output).len(), 1);
    // `planner` under `auto`: only read-only tools are offered.
    let server = rt.block_on(ScriptServer::openai(vec![openai_text("planned")]));
    let config = s.config(&provider_config(&server, json!({})));
    let output = weft_with(
        &s,
        &config,
        &[
            "--permission-mode",
            "auto",
            "agent",
            "--agent",
            "planner",
            "-m",
            "go",
            "--no-transcript",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let offered = openai_tool_names(&server.bodies()[0]);
    assert!(offered.contains(&"read_file".to_owned()), "{offered:?}");
    for hidden in ["exec_shell", "write_file", "edit_file", "memory_write"] {
        assert!(!offered.contains(&hidden.to_owned()), "{offered:?}");
    }
}

#[test]
fn under_bypass_a_subagent_whose_agent_says_auto_runs_commands_in_the_sandbox() {
    under_bypass_a_narrowed_subagent_is_sandboxed("auto", json!({}));
}

#[test]
fn under_bypass_a_subagent_narrowed_to_accept_edits_runs_commands_as_sandbox_enabled_says() {
    // Pre-approved, so the narrowed child does not have to ask; `sandbox.enabled` makes its
    // commands sandboxed, as they would be in a session started in accept-edits.
    under_bypass_a_narrowed_subagent_is_sandboxed(
        "acceptEdits",
        json!({"sandbox": {"enabled": true}, "permissions": {"allow": ["Bash"]}}),
    );
}

/// Under `--permission-mode bypass`, a subagent whose agent says `permission_mode` tries to
/// write outside the project (refused by the sandbox) and the parent does (allowed).
fn under_bypass_a_narrowed_subagent_is_sandboxed(permission_mode: &str, extra: Value) {
    let rt = runtime();
    let s = Sandbox::new();
    s.file(
        ".clawft/agents/boxed.md",
        &format!(
            "---\nname: boxed\ndescription: Runs commands in the sandbox\npermissionMode: {permission_mode}\n---\n\nWork.\n"
        ),
    );
    let outside = s.dir("outside");
    let touch = |name: &str| json!({"command": format!("touch {}/{name}", outside.display())});
    let server = rt.block_on(ScriptServer::openai(vec![
        // The parent spawns the child; the child tries to write outside; the parent does.
        openai_tools(&[(
            "spawn",
            "sessions_spawn",
            json!({"task": "write", "agent": "boxed"}),
        )]),
        openai_tools(&[("child", "exec_shell", touch("from-child"))]),
        openai_text("child done"),
        openai_tools(&[("parent", "exec_shell", touch("from-parent"))]),
        openai_text("ok"),
    ]));
    let config = s.config(&provider_config(&server, extra));
    let temp = s.temp();
    let output = s
        .weft()
        .env("TMPDIR", &temp)
        .arg("--config")
        .arg(&config)
        .args([
            "--permission-mode",
            "bypass",
            "agent",
            "-m",
            "go",
            "--no-transcript",
        ])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !outside.join("from-child").exists(),
        "the child escaped the sandbox"
    );
    assert!(
        outside.join("from-parent").exists(),
        "bypass runs without the sandbox"
    );
    let bodies = server.bodies();
    let child = openai_tool_result(&bodies[2], "child");
    assert!(child.contains("Permission denied"), "{child}");
}

/// The `permissions` row of `weft doctor --format json`: status and detail.
fn doctor_permissions(s: &Sandbox, flags: &[&str]) -> (String, String) {
    let output = s
        .weft()
        .args(flags)
        .args(["doctor", "--format", "json"])
        .output()
        .unwrap();
    let report = sandbox::stdout_json(&output);
    let row = report["checks"]
        .as_array()
        .unwrap_or_else(|| panic!("{report}"))
        .iter()
        .find(|c| c["check"] == "permissions")
        .unwrap_or_else(|| panic!("{report}"))
        .clone();
    (
        row["status"].as_str().unwrap().to_owned(),
        row["detail"].as_str().unwrap().to_owned(),
    )
}

#[test]
fn the_mode_in_effect_is_shown_by_doctor_sandbox_status_and_config_show() {
    let s = Sandbox::new();
    s.user_config(
        &json!({"permissions": {"mode": "acceptEdits", "allow": ["Bash(git status:*)"]}}),
    );
    let user = "~/.clawft/config.json";
    assert_eq!(
        doctor_permissions(&s, &[]),
        (
            "ok".to_owned(),
            format!("mode accept-edits ({user}); 1 pattern pre-approved (permissions.allow)")
        )
    );
    // The command line beats the file, and is named as the origin.
    assert_eq!(
        doctor_permissions(&s, &["--permission-mode", "plan"]).1,
        "mode plan (--permission-mode); 1 pattern pre-approved (permissions.allow)"
    );
    // Every spelling the files take works on the command line too (Claude Code's names).
    for (spelling, mode) in [
        ("acceptEdits", "accept-edits"),
        ("dontAsk", "dont-ask"),
        ("default", "ask"),
    ] {
        assert_eq!(
            doctor_permissions(&s, &["--permission-mode", spelling]).1,
            format!("mode {mode} (--permission-mode); 1 pattern pre-approved (permissions.allow)")
        );
    }
    // bypass is worth a warning.
    let (status, detail) = doctor_permissions(&s, &["--permission-mode", "bypassPermissions"]);
    assert_eq!(status, "warn", "{detail}");
    assert!(detail.ends_with("no call asks and exec_shell runs without the sandbox"));

    let status = s
        .weft()
        .args([
            "--permission-mode",
            "bypass",
            "sandbox",
            "status",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let doc = sandbox::stdout_json(&status);
    assert_eq!(doc["permission_mode"], "bypass");
    assert_eq!(doc["exec_shell"]["mode"], "unsandboxed", "{doc}");

    let shown = s
        .weft()
        .args([
            "config",
            "show",
            "permissions",
            "--origin",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(shown.status.success(), "{}", stderr(&shown));
    let rows = sandbox::stdout_json(&shown);
    let home_config = s.home.join(".clawft/config.json");
    assert_eq!(
        rows,
        json!([
            {"key": "permissions.allow", "value": ["Bash(git status:*)"], "origin": {"kind": "file", "path": home_config}},
            {"key": "permissions.mode", "value": "accept-edits", "origin": {"kind": "file", "path": home_config}},
        ])
    );
    let flagged = s
        .weft()
        .args([
            "--permission-mode",
            "auto",
            "config",
            "show",
            "permissions.mode",
            "--origin",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        sandbox::stdout_json(&flagged),
        json!([{"key": "permissions.mode", "value": "auto", "origin": {"kind": "flag", "flag": "--permission-mode"}}])
    );
}

#[test]
fn json_runs_carry_the_refused_calls_in_their_results_and_the_summary_goes_to_stderr() {
    let rt = runtime();
    for format in ["json", "stream-json"] {
        let s = Sandbox::new();
        let server = script(&rt, &[("t", "exec_shell", json!({"command": "touch x"}))]);
        let config = s.config(&provider_config(&server, json!({})));
        let output = weft_with(
            &s,
            &config,
            &["agent", "-m", "go", "--no-transcript", "--format", format],
        );
        assert_eq!(
            output.status.code(),
            Some(4),
            "{format}: {}",
            stderr(&output)
        );
        assert!(!s.project.join("x").exists());
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        // json: one object; stream-json: the last line is the result.
        let last = if format == "stream-json" {
            text.lines().last().unwrap()
        } else {
            text.as_str()
        };
        let result: Value = serde_json::from_str(last).unwrap();
        assert_eq!(result["type"], "result", "{format}: {text}");
        // Refused for want of approval: an error, with the refusals listed (exit 4).
        assert_eq!(result["is_error"], true, "{format}: {result}");
        assert_eq!(result["stop"], "answered", "{format}: {result}");
        assert_eq!(
            result["refusals"],
            json!([{"session_id": result["session_id"], "tool": "exec_shell", "summary": "exec_shell: touch x", "suggestions": ["Bash(touch:*)"], "mode": "auto"}]),
            "{format}: {result}"
        );
        let call = &result["tool_calls"][0];
        assert_eq!(call["name"], "exec_shell", "{format}: {result}");
        assert_eq!(call["is_error"], true);
        assert!(
            call["content"]
                .as_str()
                .unwrap()
                .starts_with("approval needed: "),
            "{format}: {call}"
        );
        if format == "stream-json" {
            assert!(
                text.lines().any(
                    |l| l.contains("\"type\":\"tool_result\"") && l.contains("approval needed")
                ),
                "{text}"
            );
        }
        assert!(
            !text.contains("tool call(s) needed approval"),
            "{format}: {text}"
        );
        assert_eq!(
            summaries(&output),
            [
                "weft: 1 tool call(s) needed approval and were refused (`exec_shell: touch x`); allow them with --permission-mode auto, or with permissions.allow: `Bash(touch:*)`; exit status 4 (--ignore-refusals exits 0)"
            ],
            "{format}"
        );
    }
}

/// One refused call's result as the model reads it, then the summary line.
fn advice_case(
    rt: &tokio::runtime::Runtime,
    s: &Sandbox,
    label: &str,
    call: (&str, Value),
    args: &[&str],
) -> String {
    let (tool, input) = call;
    let server = script(rt, &[("c", tool, input.clone())]);
    let config = s.config(&provider_config(&server, json!({})));
    let output = weft_with(s, &config, args);
    // Exit 4 when calls were refused for want of approval; a call the tool itself refuses
    // is no such refusal.
    let expected = if summaries(&output).is_empty() { 0 } else { 4 };
    assert_eq!(
        output.status.code(),
        Some(expected),
        "{label}: {}",
        stderr(&output)
    );
    let result = openai_tool_result(&server.bodies()[1], "c").to_owned();
    format!(
        "## {label}\n$ weft {}\n> {tool} {input}\n{result}\n{}\n\n",
        args.join(" "),
        summaries(&output).join("\n")
    )
}

#[test]
fn refusal_advice_names_only_what_would_allow_the_call() {
    let rt = runtime();
    let s = Sandbox::new();
    s.file(
        ".clawft/skills/git-only/SKILL.md",
        "---\nname: git-only\ndescription: Git only\nallowed-tools: Bash(git:*)\n---\n\nUse git.\n",
    );
    s.user_config(&json!({}));
    sandbox::write(
        &s.home.join(".clawft/agents/careful.md"),
        "---\nname: careful\ndescription: Asks first\npermissionMode: default\n---\n\nWork.\n",
    );
    std::fs::create_dir_all(s.project.join("src")).unwrap();
    let outside = s.dir("outside");
    std::os::unix::fs::symlink(outside.join("out.txt"), s.project.join("src/out.txt")).unwrap();
    let text = [
        advice_case(
            &rt,
            &s,
            "a mode and a pattern would",
            ("exec_shell", json!({"command": "touch made"})),
            &["agent", "-m", "go", "--no-transcript"],
        ),
        advice_case(
            &rt,
            &s,
            "an edit inside the project: accept-edits",
            ("write_file", json!({"path": "notes.md", "content": "x"})),
            &["agent", "-m", "go", "--no-transcript"],
        ),
        advice_case(
            &rt,
            &s,
            "the skill's own rules ask, even in auto",
            (
                "exec_shell",
                json!({"command": "git -c core.pager=cat log"}),
            ),
            &[
                "--permission-mode",
                "auto",
                "--trust-project",
                "skills",
                "run",
                "git-only",
                "--no-transcript",
            ],
        ),
        advice_case(
            &rt,
            &s,
            "an agent caps the mode: only the pattern",
            ("exec_shell", json!({"command": "touch made"})),
            &[
                "--permission-mode",
                "auto",
                "agent",
                "--agent",
                "careful",
                "-m",
                "go",
                "--no-transcript",
            ],
        ),
        advice_case(
            &rt,
            &s,
            "a write through a link out of the project: nothing to allow",
            ("write_file", json!({"path": "src/out.txt", "content": "x"})),
            &["agent", "-m", "go", "--no-transcript"],
        ),
    ]
    .concat();
    assert!(!outside.join("out.txt").exists());
    sandbox::snapshot!(s, "refusal_advice", text);
}

/// `--ignore-refusals`: the refusals are reported as before, and the run exits 0 (JSON: no
/// error, the refusals still listed).
#[test]
fn ignore_refusals_keeps_the_exit_status_at_zero() {
    let rt = runtime();
    let s = Sandbox::new();
    let server = script(&rt, &[("t", "exec_shell", json!({"command": "touch x"}))]);
    let config = s.config(&provider_config(&server, json!({})));
    let output = weft_with(
        &s,
        &config,
        &[
            "agent",
            "-m",
            "go",
            "--no-transcript",
            "--format",
            "json",
            "--ignore-refusals",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["is_error"], false, "{result}");
    assert_eq!(result["error"], Value::Null, "{result}");
    assert_eq!(result["refusals"][0]["tool"], "exec_shell", "{result}");
    assert_eq!(
        summaries(&output),
        [
            "weft: 1 tool call(s) needed approval and were refused (`exec_shell: touch x`); allow them with --permission-mode auto, or with permissions.allow: `Bash(touch:*)`"
        ]
    );
}
