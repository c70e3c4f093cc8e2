//! Subagents through the real binary with the replay provider, and `weft sessions list|show`
//! reading the transcripts of a session and its subagents.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sandbox;

use std::path::{Path, PathBuf};

use sandbox::Sandbox;
use serde_json::{Value, json};

/// A sandbox whose `--config` names a replay provider.
struct Replay {
    sandbox: Sandbox,
    config: PathBuf,
}

impl Replay {
    /// A home, a project and a replay provider playing `turns`.
    fn new(turns: &[Value]) -> Self {
        let sandbox = Sandbox::new();
        let recording: String = turns.iter().map(|t| format!("{t}\n")).collect();
        sandbox.outside("rec.jsonl", &recording);
        let config = sandbox
            .config(&json!({"providers": {"demo": {"kind": "replay", "file": "rec.jsonl"}}}));
        Self { sandbox, config }
    }

    fn weft(&self, args: &[&str]) -> std::process::Output {
        self.sandbox
            .weft()
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .output()
            .unwrap()
    }

    fn sessions(&self) -> PathBuf {
        self.sandbox.sessions()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Transcript file names, the parent's (the shortest) first.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort_by_key(|n| (n.len(), n.clone()));
    names
}

#[test]
fn a_foreground_subagent_runs_and_sessions_show_prints_both_conversations() {
    let s = Replay::new(&[
        json!({"tool_calls": [{"id": "c1", "name": "sessions_spawn", "arguments": {"task": "count the files", "agent": "explore", "label": "counter"}}]}),
        json!({"content": "CHILD: there are no files"}),
        json!({"content": "PARENT: the subagent says there are no files"}),
    ]);
    let out = s.weft(&["agent", "-m", "delegate the count"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim(),
        "PARENT: the subagent says there are no files"
    );

    let names = files(&s.sessions());
    assert_eq!(names.len(), 2, "{names:?}");
    let parent_id = names[0].trim_end_matches(".jsonl").to_owned();
    assert_eq!(names[1], format!("{parent_id}.1.jsonl"));

    let list = s.weft(&["sessions", "list", "--format", "json"]);
    assert!(list.status.success(), "{}", text(&list.stderr));
    let listed: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(
        listed.as_array().unwrap().len(),
        1,
        "children are hidden without --all"
    );
    assert_eq!(listed[0]["id"], parent_id.as_str());
    assert_eq!(listed[0]["children"], json!([format!("{parent_id}.1")]));
    let all = s.weft(&["sessions", "list", "--all", "--format", "json"]);
    let all: Value = serde_json::from_slice(&all.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 2);

    let show = s.weft(&["sessions", "show", &parent_id[..8]]);
    assert!(show.status.success(), "{}", text(&show.stderr));
    let shown = text(&show.stdout);
    assert!(shown.contains("user: delegate the count"), "{shown}");
    assert!(shown.contains("→ sessions_spawn"), "{shown}");
    assert!(
        shown.contains(&format!("[spawned {parent_id}.1: explore")),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("    Session {parent_id}.1 (explore, demo/replay)")),
        "the child is indented under its parent: {shown}"
    );
    assert!(
        shown.contains("assistant: CHILD: there are no files"),
        "{shown}"
    );
    assert!(
        shown.contains("assistant: PARENT: the subagent says"),
        "{shown}"
    );

    let missing = s.weft(&["sessions", "show", "nope"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("no session `nope`"));
}

#[test]
fn a_one_shot_run_waits_for_background_subagents_and_gives_the_model_their_results() {
    let s = Replay::new(&[
        json!({"tool_calls": [{"id": "c1", "name": "sessions_spawn", "arguments": {"task": "scan", "run_in_background": true}}]}),
        json!({"content": "started a scan"}),
        json!({"content": "SCAN RESULT"}),
        json!({"content": "FINAL: the scan found SCAN RESULT"}),
    ]);
    let out = s.weft(&["agent", "-m", "scan in the background"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("started a scan"), "{stdout}");
    assert!(
        stdout
            .trim_end()
            .ends_with("FINAL: the scan found SCAN RESULT"),
        "{stdout}"
    );
    // The follow-up turn carried the child's result.
    let names = files(&s.sessions());
    let parent = std::fs::read_to_string(s.sessions().join(&names[0])).unwrap();
    assert!(
        parent.contains("[Background subagents finished]"),
        "{parent}"
    );
    assert!(parent.contains("SCAN RESULT"), "{parent}");
}

#[test]
fn a_fork_skill_run_by_the_user_runs_in_a_subagent() {
    let s = Replay::new(&[json!({"content": "FORKED ANSWER"})]);
    let dir = s.sandbox.project.join(".clawft/skills/deep-dive");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: deep-dive\ndescription: Investigates a topic in a subagent\ncontext: fork\nagent: explore\n---\n\nInvestigate $ARGUMENTS.\n",
    )
    .unwrap();
    let out = s.weft(&["skills", "run", "deep-dive", "caching"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "FORKED ANSWER");
    let names = files(&s.sessions());
    assert_eq!(names.len(), 2, "{names:?}");
    let child = std::fs::read_to_string(s.sessions().join(&names[1])).unwrap();
    assert!(child.contains("Investigate caching."), "{child}");
}
