//! Claude Code hooks and settings through the real `weft` binary against a loopback
//! OpenAI-compatible server (the scripted model): hooks are small shell scripts written by
//! each test into the sandbox's `~/.claude/settings.json` (or the project's), and each test
//! checks what the model was told, what ran on disk and what the person saw.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use common::{ScriptServer, openai_messages, openai_text, openai_tool_result, openai_tools};
use sandbox::server as common;
use sandbox::{Sandbox, read_lines, render, snapshot, stderr, stdout, write};
use serde_json::{Value, json};

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

/// `--config` naming a provider at the server; `extra` merged in.
fn config(s: &Sandbox, server: &ScriptServer, extra: Value) -> std::path::PathBuf {
    let mut config = json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m",
    });
    for (k, v) in extra.as_object().unwrap() {
        config[k] = v.clone();
    }
    s.config(&config)
}

/// `weft --config CONFIG agent -m MESSAGE [flags]` with stdin closed (no one to ask).
fn agent(s: &Sandbox, config: &Path, flags: &[&str], message: &str) -> Output {
    s.weft()
        .arg("--config")
        .arg(config)
        .args(["agent", "-m", message])
        .args(flags)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

/// A hook script in the home directory; the command that runs it.
fn hook_script(s: &Sandbox, name: &str, body: &str) -> String {
    let path = write(&s.home.join("hooks").join(name), &format!("{body}\n"));
    format!("sh {}", path.display())
}

/// `{"<event>": [{"matcher": ..., "hooks": [{"type": "command", "command": ...}]}]}`.
fn hooks(event: &str, matcher: Option<&str>, command: &str) -> Value {
    let mut group = json!({"hooks": [{"type": "command", "command": command}]});
    if let Some(m) = matcher {
        group["matcher"] = json!(m);
    }
    json!({ event: [group] })
}

/// Writes `~/.claude/settings.json`.
fn user_settings(s: &Sandbox, value: &Value) {
    write(&s.home.join(".claude/settings.json"), &value.to_string());
}

/// The transcript's hook records.
fn hook_records(s: &Sandbox) -> Vec<Value> {
    s.transcript()
        .into_iter()
        .filter(|r| r["type"] == "hook")
        .collect()
}

#[test]
fn a_pre_tool_use_policy_hook_blocks_with_exit_2_and_with_a_json_deny() {
    let rt = runtime();
    let s = Sandbox::new();
    let policy = hook_script(
        &s,
        "policy.sh",
        r#"input=$(cat)
case "$input" in *"touch blocked"*) echo "touching blocked is against the policy" >&2; exit 2;; esac
case "$input" in *"touch json-deny"*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"the policy says no"}}'; exit 0;; esac
exit 0"#,
    );
    user_settings(
        &s,
        &json!({"hooks": hooks("PreToolUse", Some("Bash"), &policy)}),
    );
    let server = script(
        &rt,
        &[
            ("a", "exec_shell", json!({"command": "touch blocked"})),
            ("b", "exec_shell", json!({"command": "touch json-deny"})),
            ("c", "exec_shell", json!({"command": "touch fine"})),
        ],
    );
    let config = config(
        &s,
        &server,
        json!({"permissions": {"allow": ["Bash(touch:*)"]}}),
    );
    let out = agent(&s, &config, &[], "go");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!s.project.join("blocked").exists());
    assert!(!s.project.join("json-deny").exists());
    assert!(
        s.project.join("fine").exists(),
        "the policy let this one through"
    );
    let second = &server.bodies()[1];
    assert_eq!(
        openai_tool_result(second, "a"),
        "blocked by a PreToolUse hook: touching blocked is against the policy. The tool did not run."
    );
    assert_eq!(
        openai_tool_result(second, "b"),
        "blocked by a PreToolUse hook: the policy says no. The tool did not run."
    );
    assert!(openai_tool_result(second, "c").starts_with("exit code: 0"));
    let records = hook_records(&s);
    let outcomes: Vec<&str> = records
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(
        outcomes,
        [
            "blocked: touching blocked is against the policy",
            "deny: the policy says no",
            "ok"
        ]
    );
    assert_eq!(records[0]["event"], "PreToolUse");
    assert_eq!(records[0]["source"], "user settings");
    assert_eq!(records[0]["exit_code"], 2);
}

#[test]
fn a_hooks_allow_skips_the_question_but_not_a_deny_or_plan() {
    let rt = runtime();
    let s = Sandbox::new();
    let allow = hook_script(
        &s,
        "allow.sh",
        r#"cat >/dev/null
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trusted build step"}}'"#,
    );
    user_settings(
        &s,
        &json!({"hooks": hooks("PreToolUse", Some("Bash"), &allow), "permissions": {"deny": ["Bash(rm:*)"]}}),
    );
    s.file("precious", "keep me");
    let calls = [
        (
            "a",
            "exec_shell",
            json!({"command": "touch allowed-by-hook"}),
        ),
        ("b", "exec_shell", json!({"command": "rm -f precious"})),
    ];
    let server = script(&rt, &calls);
    let config = config(&s, &server, json!({}));
    let out = agent(&s, &config, &["--no-transcript"], "go");
    assert!(out.status.success(), "{}", stderr(&out));
    // No one can be asked here: without the hook the touch would have been refused.
    assert!(s.project.join("allowed-by-hook").exists());
    assert!(
        s.project.join("precious").exists(),
        "a hook's allow never lifts a deny"
    );
    let second = &server.bodies()[1];
    assert!(
        openai_tool_result(second, "b").starts_with("permission denied: `rm -f precious` matches `Bash(rm:*)`, forbidden by `permissions.deny` in "),
        "{}",
        openai_tool_result(second, "b")
    );
    assert!(
        !stderr(&out).contains("needed approval"),
        "{}",
        stderr(&out)
    );
    // Plan mode: the hook's allow does not make a command run.
    let server = script(
        &rt,
        &[("p", "exec_shell", json!({"command": "touch in-plan"}))],
    );
    let config = config_at(&s, &server);
    let out = agent(
        &s,
        &config,
        &["--no-transcript", "--permission-mode", "plan"],
        "go",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!s.project.join("in-plan").exists());
}

/// A second `--config` for another server in the same sandbox.
fn config_at(s: &Sandbox, server: &ScriptServer) -> std::path::PathBuf {
    s.outside(
        "config2.json",
        &json!({
            "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
            "model": "local/m",
        })
        .to_string(),
    )
}

#[test]
fn an_updated_input_goes_through_the_gate_again() {
    let rt = runtime();
    let s = Sandbox::new();
    let rewrite = hook_script(
        &s,
        "rewrite.sh",
        r#"input=$(cat)
case "$input" in
  *"touch original"*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch rewritten"}}}';;
  *"touch sneaky"*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -f precious"}}}';;
esac
exit 0"#,
    );
    user_settings(
        &s,
        &json!({"hooks": hooks("PreToolUse", Some("Bash"), &rewrite)}),
    );
    s.file("precious", "keep me");
    let server = script(
        &rt,
        &[
            ("a", "exec_shell", json!({"command": "touch original"})),
            ("b", "exec_shell", json!({"command": "touch sneaky"})),
        ],
    );
    let config = config(
        &s,
        &server,
        json!({"permissions": {"allow": ["Bash(touch:*)"]}, "tools": {"deny": ["Bash(rm:*)"]}}),
    );
    let out = agent(&s, &config, &["--no-transcript"], "go");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(s.project.join("rewritten").exists());
    assert!(
        !s.project.join("original").exists(),
        "the rewritten input ran instead"
    );
    assert!(s.project.join("precious").exists());
    let second = &server.bodies()[1];
    assert_eq!(
        openai_tool_result(second, "b"),
        "permission denied: `rm -f precious` matches `Bash(rm:*)`, forbidden by the session (in the input a PreToolUse hook rewrote). The tool did not run."
    );
}

#[test]
fn a_session_start_hook_adds_context_and_sees_its_source() {
    let rt = runtime();
    let s = Sandbox::new();
    let seen = s.home.join("seen.json");
    let start = hook_script(
        &s,
        "start.sh",
        &format!(
            r#"cat > {}
printf '%s' '{{"hookSpecificOutput":{{"hookEventName":"SessionStart","additionalContext":"The deploy freeze is on until Friday."}}}}'"#,
            seen.display()
        ),
    );
    user_settings(
        &s,
        &json!({"hooks": hooks("SessionStart", Some("startup"), &start)}),
    );
    let server = rt.block_on(ScriptServer::openai(vec![openai_text("noted")]));
    let config = config(&s, &server, json!({}));
    let out = agent(&s, &config, &[], "can I deploy?");
    assert!(out.status.success(), "{}", stderr(&out));
    let messages = openai_messages(&server.bodies()[0]).clone();
    let user = messages.iter().rev().find(|m| m["role"] == "user").unwrap();
    assert_eq!(
        user["content"],
        "[Hook context]\nThe deploy freeze is on until Friday.\n\n---\n\ncan I deploy?"
    );
    let input: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(input["hook_event_name"], "SessionStart");
    assert_eq!(input["source"], "startup");
    assert_eq!(input["cwd"], s.project.display().to_string());
    let transcript = s.transcripts()[0].clone();
    assert_eq!(input["transcript_path"], transcript.display().to_string());
    assert_eq!(input["session_id"], s.transcript()[0]["session_id"]);
}

#[test]
fn a_user_prompt_submit_hook_blocks_a_prompt_holding_a_secret() {
    let rt = runtime();
    let s = Sandbox::new();
    let guard = hook_script(
        &s,
        "guard.sh",
        r#"if grep -q 'sk-[A-Za-z0-9]\{8,\}'; then echo "the prompt holds an API key; remove it" >&2; exit 2; fi
exit 0"#,
    );
    user_settings(
        &s,
        &json!({"hooks": hooks("UserPromptSubmit", None, &guard)}),
    );
    let server = rt.block_on(ScriptServer::openai(vec![openai_text("ok")]));
    let config = config(&s, &server, json!({}));
    let out = agent(
        &s,
        &config,
        &["--no-transcript"],
        "deploy with sk-abcdefgh12345678",
    );
    assert_eq!(server.count(), 0, "the model never saw the prompt");
    snapshot!(
        s,
        "prompt_blocked",
        render("agent -m 'deploy with sk-…'", &out)
    );
    let out = agent(&s, &config, &["--no-transcript"], "deploy please");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ok\n");
}

#[test]
fn a_post_tool_use_hook_sees_the_tool_response_and_its_feedback_reaches_the_model() {
    let rt = runtime();
    let s = Sandbox::new();
    let seen = s.home.join("post.json");
    let lint = hook_script(
        &s,
        "lint.sh",
        &format!(
            r#"cat > {}
printf '%s' '{{"decision":"block","reason":"lint: trailing whitespace in notes.md"}}'"#,
            seen.display()
        ),
    );
    user_settings(
        &s,
        &json!({"hooks": hooks("PostToolUse", Some("Edit|Write"), &lint)}),
    );
    let server = script(
        &rt,
        &[(
            "w",
            "write_file",
            json!({"path": "notes.md", "content": "hello \n"}),
        )],
    );
    let config = config(&s, &server, json!({}));
    let out = agent(
        &s,
        &config,
        &["--no-transcript", "--permission-mode", "accept-edits"],
        "go",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let input: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(input["hook_event_name"], "PostToolUse");
    assert_eq!(input["tool_name"], "Write");
    assert_eq!(
        input["tool_input"],
        json!({"file_path": "notes.md", "content": "hello \n"})
    );
    assert_eq!(input["tool_response"]["filePath"], "notes.md");
    assert_eq!(input["tool_response"]["success"], true);
    assert!(
        input["tool_response"]["content"]
            .as_str()
            .unwrap()
            .contains("notes.md")
    );
    let bodies = server.bodies();
    let result = openai_tool_result(&bodies[1], "w");
    assert!(
        result.ends_with("\n\n[PostToolUse hook feedback]\nlint: trailing whitespace in notes.md"),
        "{result}"
    );
}

#[test]
fn a_stop_hook_makes_the_model_go_on_once() {
    let rt = runtime();
    let s = Sandbox::new();
    let log = s.home.join("stops.log");
    let gate = hook_script(
        &s,
        "stop.sh",
        &format!(
            r#"input=$(cat)
echo "$input" >> {}
case "$input" in *'"stop_hook_active":false'*) echo "run the tests before you stop" >&2; exit 2;; esac
exit 0"#,
            log.display()
        ),
    );
    user_settings(&s, &json!({"hooks": hooks("Stop", None, &gate)}));
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_text("done, I think"),
        openai_text("tests pass; done"),
    ]));
    let config = config(&s, &server, json!({}));
    let out = agent(&s, &config, &["--no-transcript"], "fix it");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "tests pass; done\n");
    assert_eq!(server.count(), 2);
    let messages = openai_messages(&server.bodies()[1]).clone();
    let last = messages.last().unwrap();
    assert_eq!(last["role"], "user");
    assert_eq!(
        last["content"],
        "[Stop hook feedback]\nrun the tests before you stop"
    );
    let stops: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(stops.len(), 2);
    assert_eq!(stops[0]["stop_hook_active"], false);
    assert_eq!(stops[0]["last_assistant_message"], "done, I think");
    assert_eq!(stops[1]["stop_hook_active"], true);
}

#[test]
fn a_policy_hook_that_times_out_is_stopped_and_the_call_is_put_to_a_person() {
    let rt = runtime();
    let s = Sandbox::new();
    let slow = hook_script(
        &s,
        "slow.sh",
        "cat >/dev/null; echo no >&2; sleep 30; exit 2",
    );
    user_settings(
        &s,
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": slow, "timeout": 1}]}]}}),
    );
    let server = script(
        &rt,
        &[("t", "exec_shell", json!({"command": "touch after-timeout"}))],
    );
    // An allow rule pre-approves the command; without the hook's answer a person decides,
    // and with no one to ask the call is refused.
    let config = config(
        &s,
        &server,
        json!({"permissions": {"allow": ["Bash(touch:*)"]}}),
    );
    let out = agent(&s, &config, &["--no-transcript"], "go");
    // Refused for want of a person: exit status 4.
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(!s.project.join("after-timeout").exists());
    let err = stderr(&out);
    assert!(
        err.contains(&format!("weft: PreToolUse hook `{slow}` timed out after 1 s and was stopped; it made no decision; without its answer the call needs a person's approval")),
        "{err}"
    );
    let bodies = server.bodies();
    let result = openai_tool_result(&bodies[1], "t");
    assert!(
        result.contains(&format!("PreToolUse hook `{slow}` timed out after 1 s and was stopped, so it could not judge this call")),
        "{result}"
    );
}

#[test]
fn a_policy_hook_that_fails_or_cannot_be_read_makes_the_call_ask_in_every_mode() {
    let rt = runtime();
    let s = Sandbox::new();
    let policy = hook_script(
        &s,
        "policy.sh",
        r#"input=$(cat)
case "$input" in *"touch crash"*) echo "policy.db is missing" >&2; exit 1;; esac
case "$input" in *"touch garbled"*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"yes"}}'; exit 0;; esac
exit 0"#,
    );
    let post = hook_script(
        &s,
        "post.sh",
        "cat >/dev/null; echo lint crashed >&2; exit 1",
    );
    user_settings(
        &s,
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": policy}]}],
            "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": post}]}],
        }}),
    );
    let server = script(
        &rt,
        &[
            ("c", "exec_shell", json!({"command": "touch crash"})),
            ("g", "exec_shell", json!({"command": "touch garbled"})),
            ("f", "exec_shell", json!({"command": "touch fine"})),
        ],
    );
    let config = config(&s, &server, json!({}));
    // `auto` runs every command the gate allows without asking, but not these.
    let out = agent(
        &s,
        &config,
        &["--no-transcript", "--permission-mode", "auto"],
        "go",
    );
    // Two calls refused for want of a person: exit status 4.
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(!s.project.join("crash").exists());
    assert!(!s.project.join("garbled").exists());
    assert!(
        s.project.join("fine").exists(),
        "the policy answered; a PostToolUse failure blocks nothing"
    );
    let second = &server.bodies()[1];
    assert!(
        openai_tool_result(second, "c").contains(&format!(
            "PreToolUse hook `{policy}` failed with exit code 1: policy.db is missing, so it could not judge this call"
        )),
        "{}",
        openai_tool_result(second, "c")
    );
    assert!(
        openai_tool_result(second, "g").contains(&format!(
            "PreToolUse hook `{policy}` answered `permissionDecision: \"yes\"`, which is none of allow, ask, deny, so it could not judge this call"
        )),
        "{}",
        openai_tool_result(second, "g")
    );
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "weft: PostToolUse hook `{post}` failed with exit code 1: lint crashed\n"
        )),
        "{err}"
    );
    // A PreToolUse hook weft cannot run at all (a type it does not run) in bypass mode.
    user_settings(
        &s,
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "Is $ARGUMENTS safe?"}]}]}}),
    );
    let server = script(
        &rt,
        &[("b", "exec_shell", json!({"command": "touch bypassed"}))],
    );
    let config = config_at(&s, &server);
    let out = agent(
        &s,
        &config,
        &["--no-transcript", "--permission-mode", "bypass"],
        "go",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!s.project.join("bypassed").exists());
    assert_eq!(
        openai_tool_result(&server.bodies()[1], "b"),
        "permission denied: PreToolUse hook `<type: prompt>` did not run: weft does not run hooks of type `prompt`, so it could not judge this call; it needs a person, and bypass mode does not ask. The tool did not run."
    );
}

#[test]
fn an_untrusted_projects_hooks_never_run_and_weft_says_so_once() {
    let rt = runtime();
    let s = Sandbox::new();
    let marker = s.root.join("project-hook-ran");
    s.file(
        ".claude/settings.json",
        &json!({"hooks": hooks("UserPromptSubmit", None, &format!("touch {}", marker.display()))})
            .to_string(),
    );
    s.file(
        ".claude/agents/reviewer.md",
        &format!(
            "---\nname: reviewer\ndescription: Reviews\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: touch {}\n---\nReview.\n",
            marker.display()
        ),
    );
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_text("ok"),
        openai_text("ok"),
    ]));
    let config = config(&s, &server, json!({}));
    let out = agent(
        &s,
        &config,
        &["--no-transcript", "--agent", "reviewer"],
        "hi",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!marker.exists());
    let err = stderr(&out);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("hook(s) of this project"))
        .collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].ends_with(&format!(
            "2 hook(s) of this project will not run: the project is not trusted (project settings: 1, agent reviewer: 1); trust it with --trust-project, or for good with \"projects\": {{\"{}\": {{\"trust_level\": \"trusted\"}}}} in ~/.clawft/config.json",
            s.project.display()
        )),
        "{err}"
    );
    let out = agent(
        &s,
        &config,
        &["--no-transcript", "--agent", "reviewer", "--trust-project"],
        "hi",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(marker.exists(), "trusted, the project's hooks run");
}

#[test]
fn a_users_claude_deny_rule_refuses_a_read_even_in_bypass() {
    let rt = runtime();
    let s = Sandbox::new();
    user_settings(&s, &json!({"permissions": {"deny": ["Read(./.env)"]}}));
    s.file(".env", "TOKEN=secret");
    s.file("README.md", "readme");
    let server = script(
        &rt,
        &[
            ("e", "read_file", json!({"path": ".env"})),
            ("r", "read_file", json!({"path": "README.md"})),
        ],
    );
    let config = config(&s, &server, json!({}));
    let out = agent(
        &s,
        &config,
        &["--no-transcript", "--permission-mode", "bypass"],
        "go",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let second = &server.bodies()[1];
    let refused = s.redact(openai_tool_result(second, "e"));
    assert_eq!(
        refused,
        "permission denied: `read_file` call `.env` matches `Read(./.env)`, forbidden by `permissions.deny` in [TMP]/home/.claude/settings.json. The tool did not run."
    );
    assert!(!second.to_string().contains("TOKEN=secret"));
    assert_eq!(openai_tool_result(second, "r"), "readme");
}

#[test]
fn a_skills_hooks_run_only_while_the_skill_is_active() {
    let rt = runtime();
    let s = Sandbox::new();
    let log = s.root.join("skill-hook.log");
    s.file(
        ".claude/skills/tidy/SKILL.md",
        &format!(
            "---\nname: tidy\ndescription: Tidy up\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: cat >> {}\n---\n\nTidy the project.\n",
            log.display()
        ),
    );
    let calls = [("t", "exec_shell", json!({"command": "touch tidy"}))];
    let server = script(&rt, &calls);
    let config = config(
        &s,
        &server,
        json!({"permissions": {"allow": ["Bash(touch:*)"]}}),
    );
    let out = s
        .weft()
        .arg("--config")
        .arg(&config)
        .args([
            "--trust-project",
            "skills",
            "run",
            "tidy",
            "--no-transcript",
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains(r#""command":"touch tidy""#), "{logged}");
    // Outside the skill, its hooks do not run.
    std::fs::remove_file(&log).unwrap();
    let server = script(&rt, &calls);
    let config = config_at(&s, &server);
    let out = s
        .weft()
        .arg("--config")
        .arg(&config)
        .args([
            "--trust-project",
            "--permission-mode",
            "auto",
            "agent",
            "-m",
            "go",
            "--no-transcript",
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!log.exists());
}

#[test]
fn hooks_are_listed_in_a_table_and_as_json() {
    let s = Sandbox::new();
    user_settings(
        &s,
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/hooks/policy.sh", "timeout": 5}, {"type": "prompt", "prompt": "Is it safe?"}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}],
            "PostToolUse": [{"matcher": "a(?=b)", "hooks": [{"type": "command", "command": "never.sh"}]}]
        }}),
    );
    s.file(
        ".claude/settings.json",
        &json!({"hooks": hooks("Stop", None, "\"$CLAUDE_PROJECT_DIR\"/.claude/check.sh")})
            .to_string(),
    );
    s.file(
        ".claude/skills/fmt/SKILL.md",
        "---\nname: fmt\ndescription: Format\nhooks:\n  PostToolUse:\n    - matcher: Edit|Write\n      hooks:\n        - type: command\n          command: cargo fmt\n---\nFormat.\n",
    );
    let out = s
        .weft()
        .env("COLUMNS", "200")
        .args(["hooks", "list"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    snapshot!(s, "hooks_list_table", render("hooks list", &out));
    let out = s
        .weft()
        .args(["hooks", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut list: Value = serde_json::from_slice(&out.stdout).unwrap();
    sandbox::redact_keys(&mut list, &["path"]);
    snapshot!(
        s,
        "hooks_list_json",
        serde_json::to_string_pretty(&list).unwrap()
    );
    let out = s
        .weft()
        .args(["--no-hooks", "hooks", "list"])
        .output()
        .unwrap();
    assert!(stdout(&out).starts_with("Hooks are off (--no-hooks): none of these runs.\n"));
}

#[test]
fn help_hooks_and_config_show_origin_name_the_claude_files() {
    let s = Sandbox::new();
    user_settings(
        &s,
        &json!({"permissions": {"deny": ["Read(./.env)"], "defaultMode": "acceptEdits"}, "model": "opus", "statusLine": {"type": "command"}}),
    );
    s.file(
        ".claude/settings.json",
        &json!({"permissions": {"ask": ["Bash(git push:*)"], "allow": ["Bash(npm test)"]}})
            .to_string(),
    );
    let out = s
        .weft()
        .env("COLUMNS", "100")
        .args(["help", "hooks"])
        .output()
        .unwrap();
    assert!(out.status.success());
    snapshot!(s, "help_hooks", render("help hooks", &out));
    let out = s
        .weft()
        .env("COLUMNS", "200")
        .args(["config", "show", "--origin"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let wanted: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("claude") || l.starts_with("permissions") || l.starts_with("Files"))
        .collect();
    snapshot!(s, "config_origin_claude", wanted.join("\n"));
}

#[test]
fn the_transcript_and_stream_json_show_hook_runs() {
    let rt = runtime();
    let s = Sandbox::new();
    let note = hook_script(&s, "note.sh", "cat >/dev/null; echo noted");
    user_settings(&s, &json!({"hooks": hooks("PreToolUse", None, &note)}));
    let server = script(&rt, &[("r", "read_file", json!({"path": "README.md"}))]);
    s.file("README.md", "readme");
    let config = config(&s, &server, json!({}));
    let out = agent(&s, &config, &["--format", "stream-json"], "go");
    assert!(out.status.success(), "{}", stderr(&out));
    let events: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let hook = events.iter().find(|e| e["type"] == "hook").unwrap();
    assert_eq!(hook["event"], "PreToolUse");
    assert_eq!(hook["command"], note);
    assert_eq!(hook["exit_code"], 0);
    assert_eq!(hook["outcome"], "ok");
    let order: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let call = order.iter().position(|t| *t == "tool_call").unwrap();
    assert_eq!(&order[call..call + 3], ["tool_call", "hook", "tool_result"]);
    let transcript = read_lines(&s.transcripts()[0]);
    assert!(
        transcript
            .iter()
            .any(|r| r["type"] == "hook" && r["command"] == note)
    );
    let id = transcript[0]["session_id"].as_str().unwrap();
    let shown = s.weft().args(["sessions", "show", id]).output().unwrap();
    let text = stdout(&shown);
    assert!(
        text.contains(&format!("[hook PreToolUse (user settings): `{note}` ok]")),
        "{text}"
    );
}

#[test]
fn a_subagent_is_held_by_the_users_deny_rules_and_hooks() {
    let rt = runtime();
    let s = Sandbox::new();
    let log = s.home.join("subagent-stop.json");
    let policy = hook_script(
        &s,
        "policy.sh",
        "cat >/dev/null; echo 'no shell for subagents' >&2; exit 2",
    );
    let stop = hook_script(&s, "stop.sh", &format!("cat > {}", log.display()));
    user_settings(
        &s,
        &json!({
            "permissions": {"deny": ["Read(./.env)"]},
            "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": policy}]}],
                "SubagentStop": [{"hooks": [{"type": "command", "command": stop}]}],
            },
        }),
    );
    s.file(".env", "TOKEN=secret");
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_tools(&[(
            "spawn",
            "sessions_spawn",
            json!({"task": "look around", "agent": "general-purpose"}),
        )]),
        openai_tools(&[
            ("e", "read_file", json!({"path": ".env"})),
            ("x", "exec_shell", json!({"command": "touch from-child"})),
        ]),
        openai_text("child done"),
        openai_text("ok"),
    ]));
    let config = config(
        &s,
        &server,
        json!({"permissions": {"allow": ["Bash(touch:*)"]}}),
    );
    let out = agent(&s, &config, &["--no-transcript"], "go");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!s.project.join("from-child").exists());
    let bodies = server.bodies();
    let child = &bodies[2];
    assert!(
        openai_tool_result(child, "e")
            .starts_with("permission denied: `read_file` call `.env` matches `Read(./.env)`, forbidden by `permissions.deny` in "),
        "{}",
        openai_tool_result(child, "e")
    );
    assert!(!child.to_string().contains("TOKEN=secret"));
    assert_eq!(
        openai_tool_result(child, "x"),
        "blocked by a PreToolUse hook: no shell for subagents. The tool did not run."
    );
    let input: Value = serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(input["hook_event_name"], "SubagentStop");
    assert_eq!(input["agent_type"], "general-purpose");
    assert_eq!(input["last_assistant_message"], "child done");
}
