//! Issue 15: a Claude Code, Codex or OpenClaw user pointing weft at an existing tree. One test
//! per row of docs/COMPATIBILITY.md, run with the real binary inside the trees that
//! `cargo xtask compat-layouts` lays out (the same generator, included below), found the way
//! a user's shell finds them: from the current directory, no `--project`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

/// The generator of `cargo xtask compat-layouts`.
#[path = "../../../xtask/src/compat.rs"]
#[allow(dead_code)]
mod compat_layouts;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use sandbox::{Sandbox, repo, stdout};
use serde_json::{Value, json};

/// The sandbox with the layouts under `<tmp>/layouts`.
fn layouts() -> (Sandbox, PathBuf) {
    let s = Sandbox::new();
    let dir = s.tmp.path().join("layouts");
    compat_layouts::generate(&dir, false).unwrap();
    (s, dir)
}

/// `weft` run in `dir` (project detection from there), home the sandbox's. In the OpenClaw
/// workspace its `skills` folder is given with `--skills-dir`: weft does not read a
/// workspace's `skills` folder by itself (docs/COMPATIBILITY.md).
fn weft_in(s: &Sandbox, dir: &Path) -> Command {
    let mut cmd = s.bare();
    cmd.current_dir(dir);
    if dir.ends_with("openclaw") {
        cmd.arg("--skills-dir").arg(dir.join("skills"));
    }
    cmd
}

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(output)).unwrap_or_else(|e| panic!("{e}: {}", stdout(output)))
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `skills list --format json [--all]` names (with `(disabled)` marks).
fn listed(s: &Sandbox, dir: &Path, all: bool) -> Vec<Value> {
    let mut cmd = weft_in(s, dir);
    cmd.args(["skills", "list", "--format", "json"]);
    if all {
        cmd.arg("--all");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    json_of(&out).as_array().unwrap().clone()
}

fn names(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_owned())
        .collect()
}

/// `skills run NAME ARGS --dry-run` in the Claude Code layout with these variables.
fn dry_run(s: &Sandbox, dir: &Path, vars: &[(&str, &str)], args: &[&str]) -> (Value, String) {
    let mut cmd = weft_in(s, &dir.join("claude-code"));
    cmd.args(["skills", "run"]).args(args).arg("--dry-run");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (json_of(&out), stderr(&out))
}

// --- Claude Code --------------------------------------------------------------------------------

#[test]
fn cc_agent_names_resolve() {
    let (s, dir) = layouts();
    let out = weft_in(&s, &dir.join("claude-code"))
        .args(["agents", "show", "Explore"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("Agent: explore\n"),
        "{}",
        stdout(&out)
    );
    let (doc, _) = dry_run(&s, &dir, &[], &["review", "src/lib.rs", "safety"]);
    assert_eq!(doc["subagent"]["agent"], "explore");
}

#[test]
fn cc_fork_skill_dry_run_prints_the_child_request() {
    let (s, dir) = layouts();
    let (doc, _) = dry_run(&s, &dir, &[], &["review", "src/lib.rs", "safety"]);
    assert_eq!(doc["skill"], "review");
    let request = &doc["request"];
    assert!(
        request["system"]
            .as_str()
            .unwrap()
            .starts_with("You explore a codebase without changing it."),
        "{request}"
    );
    let tools: Vec<&str> = request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // The explore agent's tools within the skill's allowed-tools (Read Grep Glob).
    assert_eq!(tools, ["glob", "grep", "read_file"]);
    assert_eq!(
        doc["subagent"]["tools"],
        json!(["glob", "grep", "read_file"])
    );
    assert_eq!(
        request["messages"][0]["content"],
        "Review src/lib.rs with a focus on safety (effort high)."
    );
    // Nothing was started and nothing written: the subagent is reported as a dry run.
    assert!(s.transcripts().is_empty());
    let mut subagent = doc["subagent"].clone();
    sandbox::redact_keys(&mut subagent, &["id"]);
    sandbox::snapshot!(
        s,
        "cc_fork_dry_run_subagent",
        serde_json::to_string_pretty(&subagent).unwrap()
    );
}

#[test]
fn cc_model_alias_falls_back_with_a_notice() {
    let (s, dir) = layouts();
    let openai = [
        ("OPENAI_API_KEY", "sk-test"),
        ("WEFT_MODEL", "openai/gpt-4o"),
    ];
    let (doc, err) = dry_run(&s, &dir, &openai, &["review", "a.rs", "b"]);
    assert_eq!(doc["subagent"]["model"], "openai/gpt-4o");
    assert_eq!(
        err,
        "weft: subagent `explore` (review) asks for model `haiku`, which no configured provider serves (an `anthropic` provider or an alias in the config would); using openai/gpt-4o\n"
    );
    // With Anthropic configured the alias is served.
    let both = [
        ("OPENAI_API_KEY", "sk-test"),
        ("ANTHROPIC_API_KEY", "sk-ant-test"),
        ("WEFT_MODEL", "openai/gpt-4o"),
    ];
    let (doc, err) = dry_run(&s, &dir, &both, &["review", "a.rs", "b"]);
    assert_eq!(doc["subagent"]["model"], "anthropic/claude-haiku-4-5");
    assert_eq!(err, "");
}

#[test]
fn cc_agent_model_alias_falls_back_with_a_notice() {
    let (s, dir) = layouts();
    let project = dir.join("claude-code");
    let openai = [
        ("OPENAI_API_KEY", "sk-test"),
        ("WEFT_MODEL", "openai/gpt-4o"),
    ];
    let show = weft_in(&s, &project)
        .args(["agents", "show", "scout"])
        .envs(openai)
        .output()
        .unwrap();
    let text = stdout(&show);
    let model: Vec<&str> = text.lines().filter(|l| l.starts_with("Model:")).collect();
    assert_eq!(
        model,
        ["Model: haiku  (no configured provider serves it: runs on openai/gpt-4o)"]
    );
    let run = weft_in(&s, &project)
        .args(["agent", "--agent", "scout", "-m", "hi", "--dry-run"])
        .envs(openai)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(json_of(&run)["request"]["model"], "gpt-4o");
    assert_eq!(
        stderr(&run),
        "weft: agent `scout` asks for model `haiku`, which no configured provider serves (an `anthropic` provider or an alias in the config would); using openai/gpt-4o\n"
    );
}

#[test]
fn cc_model_and_effort_apply_to_the_skill_turn() {
    let (s, dir) = layouts();
    let both = [
        ("OPENAI_API_KEY", "sk-test"),
        ("ANTHROPIC_API_KEY", "sk-ant-test"),
        ("WEFT_MODEL", "openai/o3"),
    ];
    let (doc, _) = dry_run(&s, &dir, &both, &["explain", "parser", "deep"]);
    assert_eq!(doc["provider"], "anthropic");
    assert_eq!(doc["request"]["model"], "claude-sonnet-4-5");
    assert_eq!(doc["request"]["reasoning_effort"], "low");
    // `inherit` keeps the session's model.
    let (doc, _) = dry_run(&s, &dir, &both, &["summarize"]);
    assert_eq!(doc["provider"], "openai");
    assert_eq!(doc["request"]["model"], "o3");
    assert!(doc["request"].get("reasoning_effort").is_none());
}

#[test]
fn cc_claude_model_ids_and_aliases_resolve() {
    let (s, dir) = layouts();
    let skills = dir.join("claude-code/.claude/skills");
    for (name, model, effort) in [
        ("pinned", "claude-opus-4-1", "xhigh"),
        ("planner", "opusplan", "max"),
        ("wide", "sonnet[1m]", "low"),
    ] {
        std::fs::create_dir_all(skills.join(name)).unwrap();
        std::fs::write(
            skills.join(name).join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\nmodel: {model}\neffort: {effort}\n---\n\nAt ${{CLAUDE_EFFORT}}.\n"),
        )
        .unwrap();
    }
    let both = [
        ("OPENAI_API_KEY", "sk-test"),
        ("ANTHROPIC_API_KEY", "sk-ant-test"),
        ("WEFT_MODEL", "openai/gpt-4o"),
    ];
    let openai = [
        ("OPENAI_API_KEY", "sk-test"),
        ("WEFT_MODEL", "openai/gpt-4o"),
    ];
    let mut text = String::new();
    for name in ["pinned", "planner", "wide"] {
        let (served, err) = dry_run(&s, &dir, &both, &[name]);
        let (fallback, notice) = dry_run(&s, &dir, &openai, &[name]);
        text.push_str(&format!(
            "{name}: {}/{} effort {} (`{}`){err}\n  without anthropic: {}/{}; {notice}",
            served["provider"].as_str().unwrap(),
            served["request"]["model"].as_str().unwrap(),
            served["request"]["reasoning_effort"],
            served["request"]["messages"][0]["content"]
                .as_str()
                .unwrap()
                .lines()
                .last()
                .unwrap(),
            fallback["provider"].as_str().unwrap(),
            fallback["request"]["model"].as_str().unwrap(),
        ));
    }
    let validate = weft_in(&s, &dir.join("claude-code"))
        .args(["skills", "validate", "--strict"])
        .args([
            ".claude/skills/pinned",
            ".claude/skills/planner",
            ".claude/skills/wide",
        ])
        .output()
        .unwrap();
    text.push_str(&sandbox::render("skills validate --strict", &validate));
    sandbox::snapshot!(s, "cc_claude_model_ids_and_aliases", text);
}

#[test]
fn cc_named_arguments_and_claude_effort_are_substituted() {
    let (s, dir) = layouts();
    let (doc, _) = dry_run(&s, &dir, &[], &["explain", "parser"]);
    assert_eq!(
        doc["request"]["messages"][0]["content"],
        "[Skill: explain]\n\nExplain parser at depth $depth, thinking at low effort. `$topic` in code stays."
    );
    // `$depth` had no argument: listed, as the transcript lists it.
    assert_eq!(doc["unfilled_placeholders"], json!(["$depth"]));
}

#[test]
fn cc_project_dir_and_hyphenated_names_are_substituted() {
    let (s, dir) = layouts();
    let (doc, _) = dry_run(&s, &dir, &[], &["locate", "src/lib.rs"]);
    let text = format!(
        "{}\nunfilled: {}",
        doc["request"]["messages"][0]["content"].as_str().unwrap(),
        doc["unfilled_placeholders"]
    );
    sandbox::snapshot!(s, "cc_project_dir_and_hyphenated_names", text);
}

#[test]
fn cc_unfilled_placeholders_and_effort_are_in_the_transcript() {
    let (s, dir) = layouts();
    let recording = s.outside("turns.jsonl", "{\"content\": \"Explained.\"}\n");
    // Without the sandbox (`auto` sandboxes anyway), so the read-only `echo fenced` asks as
    // any other command wherever these tests run.
    let config = s.config(&json!({
        "providers": {"demo": {"kind": "replay", "file": recording}},
        "sandbox": {"enabled": false}
    }));
    let out = weft_in(&s, &dir.join("claude-code"))
        .args(["--config"])
        .arg(&config)
        .args(["skills", "run", "explain", "parser"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "Explained.\n");
    // `sonnet` is not served by the replay provider: the session's model, with the notice.
    sandbox::snapshot!(s, "cc_unfilled_placeholders_run_stderr", stderr(&out));
    let record = s
        .transcript()
        .into_iter()
        .find(|r| r["type"] == "skill")
        .expect("a skill record");
    assert_eq!(record["skill"], "explain");
    assert_eq!(record["effort"], "low");
    assert_eq!(record["unfilled"], json!(["$depth"]));
}

#[test]
fn cc_conditional_skills_wait_for_a_matching_file() {
    let (s, dir) = layouts();
    let project = dir.join("claude-code");
    // The catalog itself (without the conditional skills) is snapshot in
    // `cc_when_to_use_is_in_the_catalog`.
    let catalog = weft_in(&s, &project)
        .args(["skills", "catalog", "--format", "json"])
        .output()
        .unwrap();
    let text = json_of(&catalog)["text"].as_str().unwrap().to_owned();
    let listed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("- ")?.split(':').next())
        .collect();
    assert!(!listed.is_empty());
    assert!(
        !listed.contains(&"rust-style") && !listed.contains(&"web-style"),
        "{listed:?}"
    );
    let matched = |file: Option<&str>| {
        let mut cmd = weft_in(&s, &project);
        cmd.args(["skills", "match", "rust style rules", "--format", "json"]);
        if let Some(f) = file {
            cmd.args(["--file", f]);
        }
        let doc = json_of(&cmd.output().unwrap());
        names(doc["matches"].as_array().unwrap())
    };
    assert!(!matched(None).contains(&"rust-style".to_owned()));
    assert!(!matched(Some("README.md")).contains(&"rust-style".to_owned()));
    assert_eq!(matched(Some("src/lib.rs"))[0], "rust-style");
}

#[test]
fn cc_paths_split_at_commas_outside_braces() {
    let (s, dir) = layouts();
    let project = dir.join("claude-code");
    let matched = |file: &str| {
        let out = weft_in(&s, &project)
            .args([
                "skills",
                "match",
                "web style rules",
                "--format",
                "json",
                "--file",
                file,
            ])
            .output()
            .unwrap();
        names(json_of(&out)["matches"].as_array().unwrap()).contains(&"web-style".to_owned())
    };
    assert!(matched("web/src/app.tsx"));
    assert!(matched("web/index.ts"));
    assert!(matched("docs/guide.md"));
    assert!(!matched("web/app.js"));
    // A glob that does not compile never matches: `skills validate` says so.
    s.file(
        ".claude/skills/broken-glob/SKILL.md",
        "---\nname: broken-glob\ndescription: d\npaths: \"src/{a,b\"\n---\n\nBody.\n",
    );
    let out = s
        .weft()
        .args(["skills", "validate", ".claude/skills/broken-glob"])
        .output()
        .unwrap();
    let strict = s
        .weft()
        .args([
            "skills",
            "validate",
            "--strict",
            ".claude/skills/broken-glob",
        ])
        .output()
        .unwrap();
    sandbox::snapshot!(
        s,
        "cc_paths_glob_that_does_not_compile",
        format!(
            "{}{}",
            sandbox::render("skills validate", &out),
            sandbox::render("skills validate --strict", &strict)
        )
    );
}

#[test]
fn cc_when_to_use_is_in_the_catalog() {
    let (s, dir) = layouts();
    let out = weft_in(&s, &dir.join("claude-code"))
        .args(["skills", "catalog", "--no-builtins"])
        .output()
        .unwrap();
    // `review` has its when_to_use; the conditional skills are not listed.
    sandbox::snapshot!(
        s,
        "cc_catalog",
        sandbox::render("skills catalog --no-builtins", &out)
    );
}

#[test]
fn cc_unsupported_fields_and_typos_are_reported() {
    let (s, dir) = layouts();
    let project = dir.join("claude-code");
    let validate = |args: &[&str]| {
        let out = weft_in(&s, &project)
            .args(["skills", "validate"])
            .args(args)
            .output()
            .unwrap();
        sandbox::render(&format!("skills validate {}", args.join(" ")), &out)
    };
    let text = format!(
        "{}{}",
        validate(&[".claude/skills/hooked"]),
        validate(&["--strict", ".claude/skills/hooked"])
    );
    sandbox::snapshot!(s, "cc_unsupported_fields_and_typos", text);
}

#[test]
fn cc_invocation_fields_and_placeholders_hold_through_the_binary() {
    let (s, dir) = layouts();
    let project = dir.join("claude-code");
    // `ship` runs for the user with its placeholders filled; the model is never offered it
    // (`cc_catalog` lists the catalog); `style-guide` is refused to the user.
    let (ship, _) = dry_run(&s, &dir, &[], &["ship", "v2.0", "beta"]);
    let refused = weft_in(&s, &project)
        .args(["skills", "run", "style-guide", "--dry-run"])
        .output()
        .unwrap();
    // OpenClaw's `{baseDir}` is the skill's directory too.
    let weather = weft_in(&s, &dir.join("openclaw"))
        .args(["skills", "run", "weather", "--dry-run"])
        .output()
        .unwrap();
    assert!(weather.status.success(), "{}", stderr(&weather));
    // The session id differs on every run.
    let shipped = ship["request"]["messages"][0]["content"].as_str().unwrap();
    let (before, rest) = shipped.split_once("(session ").unwrap();
    let (id, after) = rest.split_once(')').unwrap();
    assert!(!id.is_empty() && !id.contains('$'), "{id}");
    let text = format!(
        "{before}(session [ID]){after}\n{}{}",
        sandbox::render("skills run style-guide --dry-run", &refused),
        json_of(&weather)["request"]["messages"][0]["content"]
            .as_str()
            .unwrap()
    );
    sandbox::snapshot!(s, "cc_invocation_fields_and_placeholders", text);
}

#[test]
fn cc_disallowed_tools_remove_tools_for_the_skill_turn() {
    let (s, dir) = layouts();
    let tools = |doc: &Value| -> Vec<String> {
        doc["request"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (plain, _) = dry_run(&s, &dir, &[], &["summarize"]);
    let (look, _) = dry_run(&s, &dir, &[], &["look-only"]);
    assert!(tools(&plain).contains(&"exec_shell".to_owned()));
    assert!(tools(&plain).contains(&"write_file".to_owned()));
    // The tools offered stay the agent's (a stable prefix for the prompt cache); the skill's
    // turn is limited at the gate, and its text tells the model which tools it has.
    assert_eq!(tools(&look), tools(&plain));
    let content = look["request"]["messages"][0]["content"].as_str().unwrap();
    let limited: Vec<&str> = content
        .split_once("tools are limited to ")
        .and_then(|(_, rest)| rest.split_once(" until this request is answered"))
        .map(|(list, _)| list.split(", ").collect())
        .unwrap_or_else(|| panic!("{content}"));
    for removed in ["exec_shell", "write_file"] {
        assert!(!limited.contains(&removed), "{limited:?}");
    }
    for kept in ["read_file", "edit_file", "grep"] {
        assert!(limited.contains(&kept), "{limited:?}");
    }
}

#[test]
fn cc_agent_fields_weft_does_not_implement_are_reported() {
    let (s, dir) = layouts();
    let project = dir.join("claude-code");
    let out = weft_in(&s, &project)
        .args(["-v", "agents", "show", "keeper"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let warnings: String = stderr(&out)
        .lines()
        .filter(|l| !l.contains(" INFO "))
        .map(|l| format!("{l}\n"))
        .collect();
    sandbox::snapshot!(s, "cc_agent_fields_not_implemented", warnings);
}

#[test]
fn cc_commands_are_namespaced_skills() {
    let (s, dir) = layouts();
    let items = listed(&s, &dir.join("claude-code"), false);
    let test = items.iter().find(|i| i["name"] == "frontend:test").unwrap();
    assert_eq!(test["format"], "command");
    assert_eq!(test["description"], "Run the frontend tests");
    assert!(names(&items).contains(&"changelog".to_owned()));
    let (doc, _) = dry_run(&s, &dir, &[], &["frontend:test", "unit"]);
    assert_eq!(
        doc["request"]["messages"][0]["content"],
        "[Skill: frontend:test]\n\n[skill `frontend:test` is active: tools are limited to exec_shell until this request is answered]\n\nRun `npm test -- unit` in web/."
    );
}

#[test]
fn cc_a_skill_shadows_a_command_of_the_same_name() {
    let (s, dir) = layouts();
    let project = dir.join("claude-code");
    let items = listed(&s, &project, true);
    let deploy = items.iter().find(|i| i["name"] == "deploy").unwrap();
    assert_eq!(deploy["format"], "SKILL.md");
    assert_eq!(deploy["shadows"][0]["format"], "command");
    let out = weft_in(&s, &project)
        .args(["-v", "skills", "list"])
        .output()
        .unwrap();
    let err = stderr(&out);
    let shadowed: Vec<&str> = err.lines().filter(|l| l.contains("[W186]")).collect();
    sandbox::snapshot!(s, "cc_skill_shadows_command", shadowed.join("\n"));
}

#[test]
fn cc_monorepo_nearest_skill_wins_and_the_root_stays_visible() {
    let (s, dir) = layouts();
    let items = listed(&s, &dir.join("monorepo/packages/web/src"), false);
    let lint = items.iter().find(|i| i["name"] == "lint").unwrap();
    assert_eq!(lint["description"], "Lint the web package (nearest)");
    let all = names(&items);
    assert!(all.contains(&"web-only".to_owned()), "{all:?}");
    assert!(all.contains(&"release".to_owned()), "{all:?}");
}

#[test]
fn cc_discovery_stops_at_the_git_root() {
    let (s, dir) = layouts();
    let all = names(&listed(&s, &dir.join("nested-repo/repo"), false));
    assert!(all.contains(&"inner".to_owned()), "{all:?}");
    assert!(!all.contains(&"outer".to_owned()), "{all:?}");
}

/// `skills run context` in the Claude Code layout on a replay provider, with `flags` before
/// the command; the output and the transcript's records.
fn run_context(s: &Sandbox, dir: &Path, flags: &[&str]) -> (std::process::Output, Vec<Value>) {
    let recording = s.recording("turns.jsonl", &[json!({"content": "Done."})]);
    // Without the sandbox (`auto` sandboxes anyway), so the read-only `echo fenced` asks as
    // any other command wherever these tests run.
    let config = s.config(&json!({
        "providers": {"demo": {"kind": "replay", "file": recording}},
        "sandbox": {"enabled": false}
    }));
    let out = weft_in(s, &dir.join("claude-code"))
        // The sandbox's writable temporary directory: not the system's, which holds `..`.
        .env("TMPDIR", s.temp())
        .arg("--config")
        .arg(&config)
        .args(flags)
        .args(["skills", "run", "context"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    // Exit 4 exactly when calls were refused for want of approval (the summary says which).
    let refused = stderr(&out).contains("needed approval and were refused");
    assert_eq!(
        out.status.code(),
        Some(if refused { 4 } else { 0 }),
        "{}",
        stderr(&out)
    );
    (out, s.transcript())
}

/// The rendered skill the run sent, and its dynamic-context records, for a snapshot.
fn context_report(records: &[Value], err: &str) -> String {
    let message = records
        .iter()
        .find(|r| r["type"] == "message" && r["message"]["role"] == "user")
        .unwrap();
    let mut text = format!(
        "--- sent ---\n{}\n--- transcript ---\n",
        message["message"]["content"].as_str().unwrap()
    );
    for r in records.iter().filter(|r| r["type"] == "dynamic_context") {
        text.push_str(&format!(
            "{} {}: {}\n",
            r["outcome"].as_str().unwrap(),
            r["command"],
            r["detail"].as_str().unwrap()
        ));
    }
    text.push_str("--- stderr ---\n");
    text.push_str(err);
    text
}

#[test]
fn cc_dynamic_context_is_refused_where_no_one_can_approve() {
    let (s, dir) = layouts();
    let (out, records) = run_context(&s, &dir, &[]);
    assert_eq!(stdout(&out), "Done.\n");
    assert!(!dir.join("claude-code/dynamic-ran").exists());
    sandbox::snapshot!(
        s,
        "cc_dynamic_context_refused",
        context_report(&records, &stderr(&out))
    );
}

#[test]
fn cc_dynamic_context_runs_in_the_sandbox_in_auto() {
    let (s, dir) = layouts();
    let (_, records) = run_context(&s, &dir, &["--permission-mode", "auto"]);
    assert!(dir.join("claude-code/dynamic-ran").exists());
    // Outside the project: the sandbox refused the write.
    assert!(!dir.join("escaped").exists());
    sandbox::snapshot!(s, "cc_dynamic_context_auto", context_report(&records, ""));
}

#[test]
fn cc_dynamic_context_dry_run_lists_each_command_and_runs_none() {
    let (s, dir) = layouts();
    // Without the sandbox, so the read-only `echo fenced` asks wherever these tests run.
    s.user_config(&json!({"sandbox": {"enabled": false}}));
    let (doc, err) = dry_run(&s, &dir, &[], &["context"]);
    let (auto, _) = dry_run(&s, &dir, &[], &["--permission-mode", "auto", "context"]);
    assert!(!dir.join("claude-code/dynamic-ran").exists());
    assert!(s.transcripts().is_empty());
    let text = format!(
        "--- ask ---\n{}\n{}\n--- auto ---\n{}\n--- stderr ---\n{err}",
        serde_json::to_string_pretty(&doc["dynamic_context"]).unwrap(),
        doc["request"]["messages"][0]["content"].as_str().unwrap(),
        serde_json::to_string_pretty(&auto["dynamic_context"]).unwrap(),
    );
    sandbox::snapshot!(s, "cc_dynamic_context_dry_run", text);
}

#[test]
fn cc_dynamic_context_output_reaches_the_terminal_neutralised() {
    let s = Sandbox::new();
    s.file(
        ".claude/skills/paint/SKILL.md",
        "---\nname: paint\ndescription: d\n---\n\nColour: !`printf '\\033[31mred\\033]0;title\\007'`\n",
    );
    let recording = s.recording("turns.jsonl", &[json!({"content": "Done."})]);
    // Without the sandbox (`auto` sandboxes anyway), so the read-only `echo fenced` asks as
    // any other command wherever these tests run.
    let config = s.config(&json!({
        "providers": {"demo": {"kind": "replay", "file": recording}},
        "sandbox": {"enabled": false}
    }));
    let run = s
        .weft()
        .arg("--config")
        .arg(&config)
        .args(["--permission-mode", "bypass", "skills", "run", "paint"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    // The model got the output as the command wrote it (as any tool output)...
    let sent = s.messages()[0]["content"].as_str().unwrap().to_owned();
    assert_eq!(
        sent,
        "[Skill: paint]\n\nColour: \u{1b}[31mred\u{1b}]0;title\u{7}"
    );
    // ...and a person sees its control characters made visible.
    let id = s.transcript()[0]["session_id"].as_str().unwrap().to_owned();
    let shown = s.weft().args(["sessions", "show", &id]).output().unwrap();
    let line: Vec<String> = stdout(&shown)
        .lines()
        .filter(|l| l.contains("Colour:"))
        .map(str::to_owned)
        .collect();
    assert_eq!(line, ["    Colour: \\x1b[31mred\\x1b]0;title\\x07"]);
    assert!(!stdout(&shown).contains('\u{1b}'));
}

#[test]
fn cc_dynamic_context_can_be_switched_off() {
    let (s, dir) = layouts();
    s.user_config(&json!({"skills": {"dynamic_context": false}}));
    let (doc, _) = dry_run(&s, &dir, &[], &["context"]);
    let verdicts: Vec<&Value> = doc["dynamic_context"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["verdict"])
        .collect();
    assert_eq!(verdicts, [&json!("disabled"); 3]);
    let (_, records) = run_context(&s, &dir, &["--permission-mode", "auto"]);
    assert!(!dir.join("claude-code/dynamic-ran").exists());
    let outcomes: Vec<&Value> = records
        .iter()
        .filter(|r| r["type"] == "dynamic_context")
        .map(|r| &r["outcome"])
        .collect();
    assert_eq!(outcomes, [&json!("disabled"); 3]);
}

// --- Personal skills (the home layout) ----------------------------------------------------------

#[test]
fn cc_personal_skills_commands_and_codex_home_are_found() {
    let (s, dir) = layouts();
    let out = weft_in(&s, &dir.join("claude-code"))
        .env("HOME", dir.join("home"))
        .args(["-v", "skills", "list", "--format", "json", "--all"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let items = json_of(&out);
    let mut rows: Vec<String> = items
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            ["personal-notes", "standup", "codex-personal", "explain"]
                .contains(&i["name"].as_str().unwrap())
        })
        .map(|i| {
            format!(
                "{} {} {} {}{}",
                i["name"].as_str().unwrap(),
                i["scope"].as_str().unwrap(),
                i["format"].as_str().unwrap(),
                i["description"].as_str().unwrap(),
                i["shadows"]
                    .as_array()
                    .filter(|s| !s.is_empty())
                    .map(|s| format!(" (shadows {})", s[0]["scope"].as_str().unwrap()))
                    .unwrap_or_default()
            )
        })
        .collect();
    rows.sort();
    // The project's `explain` overrides the personal copy, with a warning (Claude Code would
    // pick the personal one).
    let err = stderr(&out);
    let warning: Vec<&str> = err.lines().filter(|l| l.contains("W181")).collect();
    sandbox::snapshot!(
        s,
        "cc_personal_skills_commands_and_codex_home",
        format!("{}\n{}", rows.join("\n"), warning.join("\n"))
    );
}

// --- Codex --------------------------------------------------------------------------------------

#[test]
fn codex_git_only_repository_is_detected() {
    let (s, dir) = layouts();
    let project = dir.join("codex-git-only/src");
    let all = names(&listed(&s, &project, false));
    assert!(all.contains(&"fmt".to_owned()), "{all:?}");
    // Codex's own `.codex/skills` is a project root too.
    assert!(all.contains(&"release-notes".to_owned()), "{all:?}");
    let out = weft_in(&s, &project)
        .args(["skills", "show", "fmt", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        json_of(&out)["metadata"]["short-description"],
        "Format code"
    );
}

// --- OpenClaw -----------------------------------------------------------------------------------

#[test]
fn openclaw_disabled_skills_are_listed_but_never_offered() {
    let (s, dir) = layouts();
    let project = dir.join("openclaw");
    let offered = names(&listed(&s, &project, false));
    assert!(offered.contains(&"weather".to_owned()), "{offered:?}");
    assert!(!offered.contains(&"notes".to_owned()) && !offered.contains(&"journal".to_owned()));
    let all = listed(&s, &project, true);
    for name in ["notes", "journal"] {
        let item = all.iter().find(|i| i["name"] == name).unwrap();
        assert_eq!(item["disabled"], true, "{name}");
    }
    let catalog = weft_in(&s, &project)
        .args(["skills", "catalog", "--no-builtins"])
        .output()
        .unwrap();
    sandbox::snapshot!(
        s,
        "openclaw_catalog",
        sandbox::render("skills catalog --no-builtins", &catalog)
    );
    let run = weft_in(&s, &project)
        .args(["skills", "run", "notes", "--dry-run"])
        .output()
        .unwrap();
    sandbox::snapshot!(
        s,
        "openclaw_run_a_disabled_skill",
        sandbox::render("skills run notes --dry-run", &run)
    );
    let show = weft_in(&s, &project)
        .args(["skills", "show", "journal"])
        .output()
        .unwrap();
    let text = stdout(&show);
    let status: Vec<&str> = text.lines().filter(|l| l.starts_with("Status:")).collect();
    assert_eq!(
        status,
        ["Status: disabled (skills.disabled or skills.entries.journal.enabled in the config)"]
    );
}

#[test]
fn openclaw_entry_keys_are_accepted_and_never_used() {
    let (s, dir) = layouts();
    let project = dir.join("openclaw");
    s.user_config(&json!({"skills": {"entries": {"weather": {
        "apiKey": "sk-weather-secret-0123456789",
        "env": {"WEATHER_TOKEN": "tok-secret-0123456789", "UNITS": "metric"},
        "config": {"city": "Lisbon"}
    }}}}));
    let list = weft_in(&s, &project)
        .args(["skills", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(list.status.success(), "{}", stderr(&list));
    let shown = weft_in(&s, &project)
        .args(["config", "show"])
        .output()
        .unwrap();
    assert!(shown.status.success(), "{}", stderr(&shown));
    let all = format!("{}{}", stdout(&shown), stderr(&shown));
    assert!(
        !all.contains("sk-weather-secret") && !all.contains("tok-secret"),
        "{all}"
    );
    let config_lines: String = stdout(&shown)
        .lines()
        .filter(|l| {
            ["weather", "apiKey", "WEATHER", "UNITS", "city"]
                .iter()
                .any(|k| l.contains(k))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    sandbox::snapshot!(
        s,
        "openclaw_entry_keys",
        format!(
            "--- skills list stderr ---\n{}--- config show ---\n{config_lines}",
            stderr(&list)
        )
    );
}

#[test]
fn openclaw_dispatch_fields_and_requirements_are_reported() {
    let (s, dir) = layouts();
    let project = dir.join("openclaw");
    let out = weft_in(&s, &project)
        .args(["skills", "validate", "skills/weather"])
        .output()
        .unwrap();
    sandbox::snapshot!(
        s,
        "openclaw_dispatch_fields_and_gating_keys",
        sandbox::render("skills validate skills/weather", &out)
    );
    // `homepage` is kept and shown, without a warning (none above); readiness is explained.
    let show = weft_in(&s, &project)
        .args(["skills", "show", "weather"])
        .output()
        .unwrap();
    let lines: String = stdout(&show)
        .lines()
        .filter(|l| l.starts_with("Readiness:") || l.starts_with("Extra `homepage`"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        lines,
        "Readiness: not ready: requires weft-compat-missing-bin on the PATH\nExtra `homepage`: \"https://example.invalid/weather\"\n"
    );
}

#[test]
fn config_builtins_false_leaves_out_the_built_in_skills() {
    let s = Sandbox::new();
    s.user_config(&json!({"skills": {"builtins": false}}));
    let out = s.weft().args(["skills", "list"]).output().unwrap();
    assert_eq!(stdout(&out), "No skills found.\n");
}

// --- skills-ref ---------------------------------------------------------------------------------

#[test]
fn xml_catalog_matches_skills_ref_to_prompt() {
    let s = Sandbox::new();
    let data = repo().join("crates/weft-registry/tests/data/catalog");
    let skills = std::fs::canonicalize(data.join("skills")).unwrap();
    let expected = |file: &str| {
        std::fs::read_to_string(data.join(file))
            .unwrap()
            .replace("{DATA}", skills.to_str().unwrap())
    };
    let out = s
        .weft()
        .args([
            "skills",
            "catalog",
            "--format",
            "xml",
            "--no-builtins",
            "--skills-dir",
        ])
        .arg(&skills)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout(&out), expected("sorted.xml"));
    // The empty case, with the config switch instead of the flag.
    s.user_config(&json!({"skills": {"builtins": false}}));
    let empty = s
        .weft()
        .args(["skills", "catalog", "--format", "xml"])
        .output()
        .unwrap();
    assert_eq!(stdout(&empty), expected("empty.xml"));
}

#[test]
fn xml_catalog_lists_every_skill_as_to_prompt_does() {
    let s = Sandbox::new();
    let data = repo().join("crates/weft-registry/tests/data/catalog");
    let listing = std::fs::canonicalize(data.join("listing")).unwrap();
    let expected = std::fs::read_to_string(data.join("listing.xml"))
        .unwrap()
        .replace("{LISTING}", listing.to_str().unwrap());
    let catalog = |extra: &[&str]| {
        let out = s
            .weft()
            .args(["skills", "catalog", "--format", "xml", "--skills-dir"])
            .arg(&listing)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        (stdout(&out), stderr(&out))
    };
    // Every skill, the model-only-for-users and the conditional ones too, none shortened.
    let (all, err) = catalog(&["--no-builtins"]);
    assert_eq!(all, expected);
    assert_eq!(err, "");
    // A budget, when asked for, still applies.
    let (fitted, err) = catalog(&["--no-builtins", "--budget", "8000"]);
    assert!(fitted.chars().count() <= 8001, "{}", fitted.len());
    // The length the descriptions are cut to depends on the length of the checkout's path
    // (each `<location>` counts toward the budget), so it is left out of the snapshot.
    let (before, after) = err.split_once(" chars (budget").unwrap();
    let cut = before.rsplit_once(' ').unwrap().0;
    let err = format!("{cut} [N] chars (budget{after}");
    sandbox::snapshot!(s, "xml_listing_with_a_budget_stderr", err);
    // With the built-ins, the XML is what the model is offered: neither of those two.
    let (offered, _) = catalog(&[]);
    let offered_names: Vec<&str> = offered
        .split("<name>\n")
        .skip(1)
        .filter_map(|rest| rest.split('\n').next())
        .collect();
    assert!(
        !offered_names.contains(&"user-only") && !offered_names.contains(&"conditional"),
        "{offered}"
    );
    assert!(offered_names.contains(&"long-01"), "{offered}");
}

#[test]
fn same_directory_twice_is_read_once() {
    let s = Sandbox::new();
    let dir = s.tmp.path().join("extra");
    sandbox::write_skill(&dir, "twice", "Listed once");
    let out = s
        .weft()
        .args([
            "-v",
            "skills",
            "list",
            "--format",
            "json",
            "--all",
            "--skills-dir",
        ])
        .arg(&dir)
        .arg("--skills-dir")
        .arg(&dir)
        .output()
        .unwrap();
    let items = json_of(&out);
    let twice: Vec<&Value> = items
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["name"] == "twice")
        .collect();
    assert_eq!(twice.len(), 1);
    assert_eq!(twice[0]["shadows"], json!([]));
    // No warning at all: in particular no `W182` (the skill shadowing itself).
    assert_eq!(stderr(&out), "");
}

// --- The document -------------------------------------------------------------------------------

/// Every test docs/COMPATIBILITY.md names exists (as a `fn` in some crate's tests or sources).
#[test]
fn every_test_named_in_the_compatibility_doc_exists() {
    let doc = std::fs::read_to_string(repo().join("docs/COMPATIBILITY.md")).unwrap();
    let named: Vec<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| code.strip_prefix("test:"))
        .collect();
    assert!(named.len() >= 20, "{named:?}");
    let mut sources = String::new();
    for crate_dir in std::fs::read_dir(repo().join("crates")).unwrap() {
        let crate_dir = crate_dir.unwrap().path();
        for sub in ["tests", "src"] {
            collect_rust(&crate_dir.join(sub), &mut sources);
        }
    }
    for name in named {
        assert!(
            sources.contains(&format!("fn {name}(")),
            "docs/COMPATIBILITY.md names `{name}`, which no test defines"
        );
    }
}

fn collect_rust(dir: &Path, out: &mut String) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rust(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
}
