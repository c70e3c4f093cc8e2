//! Hooks run for real: shell scripts written by the test, given JSON on stdin, their exit
//! codes and output read; timeouts kill what they started; identical commands run once;
//! matching hooks run in parallel; untrusted and disabled hooks never run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use weft_hooks::{
    EventData, HookEntry, HookInput, HookSettings, HookSource, Hooks, Permission, RunEnd,
    StartSource,
};
use weft_types::{HookEvent, HookGroup, HookHandler};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A script at `<dir>/<name>` (mode 755).
fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

fn env() -> Vec<(OsString, OsString)> {
    vec![("PATH".into(), "/usr/bin:/bin".into())]
}

fn hooks(dir: &Path, groups: &[HookGroup], source: HookSource, trusted: bool) -> Hooks {
    let entries = HookEntry::from_groups(groups, source, trusted);
    Hooks::new(
        entries,
        HookSettings {
            env: env(),
            project_dir: dir.to_path_buf(),
            groups: weft_tools::ProcessGroups::new(),
        },
        trusted,
    )
}

fn group(event: HookEvent, matcher: Option<&str>, commands: &[&str]) -> HookGroup {
    HookGroup {
        event,
        matcher: matcher.map(str::to_owned),
        handlers: commands.iter().map(|c| HookHandler::new(*c)).collect(),
    }
}

fn tool_input(dir: &Path, tool: &str, input: Value) -> HookInput {
    HookInput {
        event: HookEvent::PreToolUse,
        session_id: "s-1".into(),
        transcript_path: Some(PathBuf::from("/t.jsonl")),
        cwd: dir.to_path_buf(),
        permission_mode: Some("default".into()),
        data: EventData::Tool {
            tool: tool.into(),
            input,
            tool_use_id: "c1".into(),
            response: None,
        },
    }
}

fn user(dir: &Path) -> HookSource {
    HookSource::UserSettings(dir.join("settings.json"))
}

#[test]
fn a_policy_hook_reads_the_call_on_stdin_and_blocks_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let seen = dir.join("seen.json");
    let policy = script(
        dir,
        "policy.sh",
        &format!(
            "cat > {}\necho \"$CLAUDE_PROJECT_DIR\" > {}/project\nif grep -q 'rm -rf' {}; then echo 'rm -rf is not allowed' >&2; exit 2; fi\nexit 0",
            seen.display(),
            dir.display(),
            seen.display()
        ),
    );
    let hooks = hooks(
        dir,
        &[group(HookEvent::PreToolUse, Some("Bash"), &[&policy])],
        user(dir),
        false,
    );
    let rt = runtime();
    let outcome = rt.block_on(hooks.run(
        &tool_input(
            dir,
            "exec_shell",
            json!({"command": "rm -rf build", "timeout_secs": 2}),
        ),
        &[],
        &|_| true,
    ));
    assert_eq!(
        outcome.block.as_ref().unwrap().reason,
        "rm -rf is not allowed"
    );
    let payload: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(
        payload,
        json!({
            "session_id": "s-1", "transcript_path": "/t.jsonl", "cwd": dir.display().to_string(),
            "hook_event_name": "PreToolUse", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": "rm -rf build", "timeout": 2000},
            "tool_use_id": "c1",
        })
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("project")).unwrap().trim(),
        dir.display().to_string()
    );
    // Another tool does not match `Bash`; another command passes.
    let read = rt.block_on(hooks.run(
        &tool_input(dir, "read_file", json!({"path": "x"})),
        &[],
        &|_| true,
    ));
    assert!(read.is_empty());
    let ok = rt.block_on(hooks.run(
        &tool_input(dir, "exec_shell", json!({"command": "ls"})),
        &[],
        &|_| true,
    ));
    assert_eq!(ok.runs.len(), 1);
    assert!(ok.block.is_none());
    assert_eq!(ok.runs[0].end, RunEnd::Exited(0));
}

#[test]
fn json_answers_permission_decisions_and_updated_input() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let answer = script(
        dir,
        "answer.sh",
        r#"cat >/dev/null
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"looks fine","updatedInput":{"command":"ls -la"}}}'"#,
    );
    let hooks = hooks(
        dir,
        &[group(HookEvent::PreToolUse, None, &[&answer])],
        user(dir),
        false,
    );
    let outcome = runtime().block_on(hooks.run(
        &tool_input(dir, "exec_shell", json!({"command": "ls"})),
        &[],
        &|_| true,
    ));
    let decision = outcome.permission.unwrap();
    assert_eq!(decision.permission, Permission::Allow);
    assert_eq!(decision.reason.as_deref(), Some("looks fine"));
    assert_eq!(outcome.updated_input, Some(json!({"command": "ls -la"})));
}

#[test]
fn a_timeout_kills_the_hook_and_what_it_started() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let marker = dir.join("still-running");
    let slow = script(
        dir,
        "slow.sh",
        &format!("(sleep 3; touch {}) &\nsleep 30", marker.display()),
    );
    let mut g = group(HookEvent::PreToolUse, None, &[&slow]);
    g.handlers[0].timeout_secs = Some(1);
    let hooks = hooks(dir, &[g], user(dir), false);
    let outcome = runtime().block_on(hooks.run(
        &tool_input(dir, "exec_shell", json!({"command": "ls"})),
        &[],
        &|_| true,
    ));
    assert_eq!(
        outcome.runs[0].end,
        RunEnd::TimedOut(Duration::from_secs(1))
    );
    assert!(outcome.block.is_none(), "a timeout makes no decision");
    assert_eq!(
        outcome.notices,
        ["PreToolUse hook `".to_owned()
            + &slow
            + "` timed out after 1 s and was stopped; it made no decision; without its answer the call needs a person's approval"]
    );
    assert_eq!(outcome.failures.len(), 1, "the session makes the call ask");
    std::thread::sleep(Duration::from_millis(3500));
    assert!(
        !marker.exists(),
        "the background child was killed with the group"
    );
}

#[test]
fn identical_commands_run_once_and_matching_hooks_run_in_parallel() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let count = dir.join("count");
    let counter = script(
        dir,
        "count.sh",
        &format!("cat >/dev/null; echo x >> {}", count.display()),
    );
    // Each waits (at most 10 s) until all three have started: run one after another, the
    // first would never see the others start.
    let waiter = |name: &str| {
        let body = format!(
            "cat >/dev/null; touch {d}/{name}.started; i=0; while [ $i -lt 100 ]; do if [ -e {d}/a.started ] && [ -e {d}/b.started ] && [ -e {d}/c.started ]; then touch {d}/{name}.saw-all; exit 0; fi; sleep 0.1; i=$((i+1)); done",
            d = dir.display()
        );
        script(dir, &format!("{name}.sh"), &body)
    };
    let (a, b, c) = (waiter("a"), waiter("b"), waiter("c"));
    let groups = [
        group(HookEvent::SessionStart, None, &[&counter, &a]),
        group(
            HookEvent::SessionStart,
            Some("startup"),
            &[&counter, &b, &c],
        ),
        group(HookEvent::SessionStart, Some("resume"), &[&counter]),
    ];
    let hooks = hooks(dir, &groups, user(dir), false);
    let input = HookInput {
        event: HookEvent::SessionStart,
        session_id: "s".into(),
        transcript_path: None,
        cwd: dir.to_path_buf(),
        permission_mode: None,
        data: EventData::Start(StartSource::Startup),
    };
    let outcome = runtime().block_on(hooks.run(&input, &[], &|_| true));
    for name in ["a", "b", "c"] {
        assert!(
            dir.join(format!("{name}.saw-all")).exists(),
            "{name} did not run alongside the others"
        );
    }
    assert_eq!(outcome.runs.len(), 4);
    assert_eq!(std::fs::read_to_string(&count).unwrap(), "x\n");
}

#[test]
fn untrusted_project_hooks_and_disabled_hooks_never_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let marker = dir.join("ran");
    let touch = script(dir, "touch.sh", &format!("touch {}", marker.display()));
    let groups = [group(HookEvent::PreToolUse, None, &[&touch])];
    let project = hooks(
        dir,
        &groups,
        HookSource::ProjectSettings(dir.join(".claude/settings.json")),
        false,
    );
    assert!(!project.entries()[0].trusted);
    let input = tool_input(dir, "exec_shell", json!({"command": "ls"}));
    let rt = runtime();
    assert!(rt.block_on(project.run(&input, &[], &|_| true)).is_empty());
    let off = hooks(dir, &groups, user(dir), false).disabled("--no-hooks");
    assert_eq!(off.disabled_reason(), Some("--no-hooks"));
    assert!(rt.block_on(off.run(&input, &[], &|_| true)).is_empty());
    assert!(!marker.exists());
    let trusted = hooks(
        dir,
        &groups,
        HookSource::ProjectSettings(dir.join(".claude/settings.json")),
        true,
    );
    assert_eq!(
        rt.block_on(trusted.run(&input, &[], &|_| true)).runs.len(),
        1
    );
    assert!(marker.exists());
}

#[test]
fn if_conditions_exec_form_and_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let log = dir.join("log");
    let mut g = group(HookEvent::PreToolUse, Some("Bash"), &["/bin/sh"]);
    g.handlers[0].args = Some(vec!["-c".into(), format!("echo run >> {}", log.display())]);
    g.handlers[0].condition = Some("Bash(git *)".into());
    g.handlers[0].once = true;
    let hooks = hooks(dir, &[g], user(dir), false);
    let rt = runtime();
    let input = tool_input(dir, "exec_shell", json!({"command": "git status"}));
    // The caller says whether the call matches the `if` rule.
    assert!(rt.block_on(hooks.run(&input, &[], &|_| false)).is_empty());
    assert_eq!(
        rt.block_on(hooks.run(&input, &[], &|rule| rule == "Bash(git *)"))
            .runs
            .len(),
        1
    );
    // `once`: not again.
    assert!(rt.block_on(hooks.run(&input, &[], &|_| true)).is_empty());
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "run\n");
}

#[test]
fn a_pre_tool_use_hook_weft_cannot_run_is_a_failure_for_every_call_it_may_concern() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // A handler of a type weft does not run, read as the parser keeps it.
    let value = json!({"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "is it safe?"}]},
        {"matcher": "Write|(?!Read)", "hooks": [{"type": "command", "command": "true"}]},
    ], "PostToolUse": [{"hooks": [{"type": "agent"}]}]});
    let (groups, _) =
        weft_parse::parse_hooks_value(&value, Path::new("s.json"), weft_parse::Profile::Load);
    let hooks = hooks(dir, &groups, user(dir), false);
    let run = |tool: &str| {
        runtime().block_on(hooks.run(
            &tool_input(dir, tool, json!({"command": "ls"})),
            &[],
            &|_| true,
        ))
    };
    let bash = run("exec_shell");
    let what: Vec<&str> = bash.failures.iter().map(|f| f.what.as_str()).collect();
    assert_eq!(
        what,
        [
            "did not run: weft does not run hooks of type `prompt`",
            "did not run: its matcher `Write|(?!Read)` is not a regular expression weft can use (error: look-around, including look-ahead and look-behind, is not supported)",
        ]
    );
    assert_eq!(bash.runs.len(), 2, "both are recorded as runs");
    assert_eq!(
        bash.runs[0].summary,
        "did not run: weft does not run hooks of type `prompt`"
    );
    // The prompt hook's matcher does not select `read_file`; the broken matcher might.
    let read = run("read_file");
    assert_eq!(read.failures.len(), 1);
    assert_eq!(read.failures[0].command, "true");
    // Only PreToolUse keeps what cannot run.
    let mut post = tool_input(dir, "exec_shell", json!({"command": "ls"}));
    post.event = HookEvent::PostToolUse;
    let outcome = runtime().block_on(hooks.run(&post, &[], &|_| true));
    assert!(outcome.runs.is_empty() && outcome.failures.is_empty());
}
