//! Sessions through the real binary: subagents with the replay provider and `weft sessions
//! list|show` reading the transcripts of a session and its subagents; ids that differ from
//! their first characters; `--continue` and `--resume` against a loopback model server; no
//! session left by a run that never reached the model (an unknown skill, a model server that
//! refuses the connection), while a resumed session keeps its transcript; a corrupt
//! transcript reported with its file and line.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::path::{Path, PathBuf};

use sandbox::server::{ScriptServer, openai_messages, openai_text};
use sandbox::{Sandbox, read_lines, redact_keys, stderr, stdout};
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

/// Transcript file names, the parent's (the shortest) first.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort_by_key(|n| (n.len(), n.clone()));
    names
}

/// `sessions list --all --format json`.
fn listed(s: &Replay) -> Vec<Value> {
    let list = s.weft(&["sessions", "list", "--all", "--format", "json"]);
    assert!(list.status.success(), "{}", stderr(&list));
    serde_json::from_slice::<Vec<Value>>(&list.stdout).unwrap()
}

/// `text` with each listed session's id and start time replaced by `[ID]` / `[STARTED]`
/// (the parent's first, so a child `<id>.1` reads `[ID].1`) and the sandbox as `[TMP]`.
fn redact_sessions(s: &Replay, sessions: &[Value], text: &str) -> String {
    let mut text = s.sandbox.redact(text);
    for session in sessions {
        text = text.replace(session["started"].as_str().unwrap(), "[STARTED]");
    }
    let parent = sessions.iter().find(|v| v["parent"].is_null()).unwrap();
    redact_durations(&text.replace(parent["id"].as_str().unwrap(), "[ID]"))
}

/// The milliseconds of `duration_ms` inside a receipt quoted in a message (a JSON string,
/// so key redaction cannot reach them) as `[ms]`: a busy machine takes a few.
fn redact_durations(text: &str) -> String {
    const KEY: &str = "\\\"duration_ms\\\": ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(KEY) {
        out.push_str(&rest[..at + KEY.len()]);
        rest = rest[at + KEY.len()..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push_str("[ms]");
    }
    out.push_str(rest);
    out
}

#[test]
fn a_foreground_subagent_runs_and_sessions_show_prints_both_conversations() {
    let s = Replay::new(&[
        json!({"tool_calls": [{"id": "c1", "name": "sessions_spawn", "arguments": {"task": "count the files", "agent": "explore", "label": "counter"}}]}),
        json!({"content": "CHILD: there are no files"}),
        json!({"content": "PARENT: the subagent says there are no files"}),
    ]);
    let out = s.weft(&["agent", "-m", "delegate the count"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "PARENT: the subagent says there are no files\n"
    );

    let names = files(&s.sessions());
    assert_eq!(names.len(), 2, "{names:?}");
    let parent_id = names[0].trim_end_matches(".jsonl").to_owned();
    assert_eq!(names[1], format!("{parent_id}.1.jsonl"));

    let all = listed(&s);
    let top = s.weft(&["sessions", "list", "--format", "json"]);
    let top: Vec<Value> = serde_json::from_slice(&top.stdout).unwrap();
    assert_eq!(top.len(), 1, "children are hidden without --all");
    let mut list = Value::Array(all.clone());
    redact_keys(&mut list, &["started_ms", "updated_ms"]);
    let list = serde_json::to_string_pretty(&list).unwrap();
    insta::assert_snapshot!("list_all_json", redact_sessions(&s, &all, &list));

    // A prefix of 8 characters names the session.
    let show = s.weft(&["sessions", "show", &parent_id[..8]]);
    assert!(show.status.success(), "{}", stderr(&show));
    insta::assert_snapshot!(
        "show_text",
        redact_millis(&redact_sessions(&s, &all, &stdout(&show)))
    );

    let json = s.weft(&["sessions", "show", &parent_id[..8], "--format", "json"]);
    let mut doc: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["subagents"][0]["id"], format!("{parent_id}.1"));
    assert_eq!(doc["subagents"][0]["parent"], parent_id.as_str());
    redact_keys(&mut doc, &["started_ms", "updated_ms", "at", "duration_ms"]);
    let doc = serde_json::to_string_pretty(&doc).unwrap();
    insta::assert_snapshot!("show_json", redact_sessions(&s, &all, &doc));

    let missing = s.weft(&["sessions", "show", "nope"]);
    assert_eq!(missing.status.code(), Some(2));
    insta::assert_snapshot!("show_missing", s.sandbox.redact(&stderr(&missing)));
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
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!("background_stdout", stdout(&out));
    // The follow-up turn carried the child's result.
    let names = files(&s.sessions());
    let records = read_lines(&s.sessions().join(&names[0]));
    let users: Vec<&str> = records
        .iter()
        .filter(|r| r["type"] == "message" && r["message"]["role"] == "user")
        .map(|r| r["message"]["content"].as_str().unwrap())
        .collect();
    assert_eq!(users.len(), 2, "{users:?}");
    let follow_up = users[1].replace(&names[0].replace(".jsonl", ""), "[ID]");
    insta::assert_snapshot!("background_follow_up", redact_millis(&follow_up));
}

/// `text` with every `<digits> ms` written `[N] ms`.
fn redact_millis(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(" ms") {
        let head = &rest[..at];
        let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(&head[..head.len() - digits]);
        out.push_str(if digits > 0 { "[N]" } else { "" });
        out.push_str(" ms");
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
}

#[test]
fn a_fork_skill_run_by_the_user_runs_in_a_subagent() {
    let s = Replay::new(&[json!({"content": "FORKED ANSWER"})]);
    s.sandbox.file(
        ".clawft/skills/deep-dive/SKILL.md",
        "---\nname: deep-dive\ndescription: Investigates a topic in a subagent\ncontext: fork\nagent: explore\n---\n\nInvestigate $ARGUMENTS.\n",
    );
    let out = s.weft(&["skills", "run", "deep-dive", "caching"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "FORKED ANSWER\n");
    let names = files(&s.sessions());
    assert_eq!(names.len(), 2, "{names:?}");
    let child = read_lines(&s.sessions().join(&names[1]));
    assert_eq!(child[1]["message"]["content"], "Investigate caching.");
}

#[test]
fn session_ids_differ_from_their_first_characters() {
    let s = Replay::new(&[json!({"content": "ok"})]);
    for _ in 0..4 {
        assert!(s.weft(&["agent", "-m", "hi"]).status.success());
    }
    let ids: Vec<String> = listed(&s)
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_owned())
        .collect();
    let mut prefixes: Vec<&str> = ids.iter().map(|id| &id[..6]).collect();
    prefixes.sort_unstable();
    prefixes.dedup();
    // Four random 24-bit prefixes collide about once in 3 million runs.
    assert_eq!(prefixes.len(), 4, "{ids:?}");
    for id in &ids {
        let show = s.weft(&["sessions", "show", &id[..6]]);
        assert!(show.status.success(), "{}", stderr(&show));
    }
}

/// A project, a second project and a loopback server answering `replies` in order.
struct Projects {
    s: Sandbox,
    other: PathBuf,
    _rt: tokio::runtime::Runtime,
    server: ScriptServer,
    config: PathBuf,
}

impl Projects {
    fn new(replies: usize) -> Self {
        let s = Sandbox::new();
        let other = s.tmp.path().join("other");
        std::fs::create_dir_all(&other).unwrap();
        let rt = tokio::runtime::Runtime::new().unwrap();
        let answers = (1..=replies)
            .map(|n| openai_text(&format!("answer {n}")))
            .collect();
        let server = rt.block_on(ScriptServer::openai(answers));
        let config = s.loopback_config(&server);
        Self {
            s,
            other,
            _rt: rt,
            server,
            config,
        }
    }

    /// `weft agent ARGS --format json` in `project`; the result and the exit status.
    fn agent(&self, project: &Path, args: &[&str]) -> (Value, i32, String) {
        let out = self
            .s
            .bare()
            .current_dir(project)
            .arg("--home")
            .arg(&self.s.home)
            .arg("--project")
            .arg(project)
            .arg("--config")
            .arg(&self.config)
            .arg("agent")
            .args(args)
            .args(["--format", "json"])
            .output()
            .unwrap();
        let doc = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (doc, out.status.code().unwrap(), stderr(&out))
    }

    /// The contents of the messages of the n-th request (0-based), system prompt left out.
    fn sent(&self, n: usize) -> Vec<String> {
        openai_messages(&self.server.bodies()[n])
            .iter()
            .filter(|m| m["role"] != "system")
            .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

#[test]
fn continue_resumes_this_projects_latest_session_and_resume_any_session() {
    let p = Projects::new(4);
    let (first, code, err) = p.agent(&p.s.project, &["-m", "one"]);
    assert_eq!(code, 0, "{err}");
    let (other, _, _) = p.agent(&p.other, &["-m", "elsewhere"]);
    let id = first["session_id"].as_str().unwrap();

    let (resumed, code, err) = p.agent(&p.s.project, &["--continue", "-m", "two"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(resumed["session_id"], id);
    assert_eq!(p.sent(2), ["one", "answer 1", "two"]);
    // The same transcript goes on: a `resumed` record, then the new turn.
    assert_eq!(p.s.transcripts().len(), 2);
    let records = read_lines(&p.s.sessions().join(format!("{id}.jsonl")));
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "session", "message", "usage", "message", "resumed", "message", "usage", "message"
        ]
    );

    // --resume takes any session by a unique prefix, from anywhere.
    let other_id = other["session_id"].as_str().unwrap();
    let (back, code, err) = p.agent(&p.s.project, &["-r", &other_id[..8], "-m", "three"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(back["session_id"], other_id);
    assert_eq!(p.sent(3), ["elsewhere", "answer 2", "three"]);

    // `sessions list` says where each session worked and what it was asked first.
    let list =
        p.s.weft()
            .env("COLUMNS", "200")
            .args(["sessions", "list"])
            .output()
            .unwrap();
    let mut settings = p.s.snapshot_settings();
    settings.add_filter(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?", "[DATE]");
    settings.add_filter(r"(?m)^[0-9a-f]{8}-[0-9a-f]{11}", "[ID]");
    settings.add_filter(r"\s+\n", "\n");
    settings.bind(|| {
        insta::assert_snapshot!("sessions_list_directory_and_first_prompt", stdout(&list))
    });
    let json: Value = serde_json::from_slice(
        &p.s.weft()
            .args(["sessions", "list", "--format", "json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let prompts: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["first_prompt"].as_str().unwrap())
        .collect();
    assert_eq!(prompts, ["one", "elsewhere"]);
}

#[test]
fn a_resumed_session_keeps_its_agent_unless_another_is_named() {
    let p = Projects::new(3);
    let (first, code, err) = p.agent(&p.s.project, &["--agent", "explore", "-m", "look"]);
    assert_eq!(code, 0, "{err}");
    let (again, _, _) = p.agent(&p.s.project, &["-c", "-m", "more"]);
    assert_eq!(again["agent"], "explore");
    assert_eq!(again["session_id"], first["session_id"]);
    let (switched, _, _) = p.agent(
        &p.s.project,
        &["-c", "--agent", "default", "-m", "now edit"],
    );
    assert_eq!(switched["agent"], "default");
    assert_eq!(
        p.sent(2),
        ["look", "answer 1", "more", "answer 2", "now edit"]
    );
}

#[test]
fn resuming_what_does_not_exist_is_a_usage_error() {
    let p = Projects::new(1);
    let (_, code, err) = p.agent(&p.s.project, &["--continue", "-m", "hi"]);
    assert_eq!(code, 2);
    let (_, code, missing) = p.agent(&p.s.project, &["--resume", "feedbeef", "-m", "hi"]);
    assert_eq!(code, 2);
    let out =
        p.s.weft()
            .args(["agent", "-c", "-r", "x", "-m", "hi"])
            .output()
            .unwrap();
    assert_eq!(out.status.code(), Some(2));
    insta::assert_snapshot!(
        "resume_errors",
        p.s.redact(&format!("{err}{missing}{}", stderr(&out)))
    );
    assert_eq!(p.server.count(), 0);
}

#[test]
fn a_run_that_never_reaches_the_model_leaves_no_session() {
    let p = Projects::new(1);
    for args in [
        &["skills", "run", "nope"][..],
        &["agent", "--agent", "nobody", "-m", "hi"],
        &["agent", "--model", "nowhere/x", "-m", "hi"],
    ] {
        let out =
            p.s.weft()
                .arg("--config")
                .arg(&p.config)
                .args(args)
                .output()
                .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    assert!(p.s.transcripts().is_empty(), "{:?}", p.s.transcripts());
    assert_eq!(p.server.count(), 0);
    // The first message that is sent creates it, before the model answers.
    let (_, code, _) = p.agent(&p.s.project, &["-m", "hi"]);
    assert_eq!(code, 0);
    assert_eq!(p.s.transcripts().len(), 1);
}

/// A loopback address nothing listens on: a port the OS gave out and took back.
fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}/v1")
}

#[test]
fn a_model_that_never_answers_leaves_no_session() {
    let s = Sandbox::new();
    let config = s.config(&json!({
        "providers": {"local": {"base_url": closed_port_url(), "api_key": "sk-test", "max_retries": 1}},
        "model": "local/m"
    }));
    for format in ["text", "json"] {
        let out = s
            .weft()
            .arg("--config")
            .arg(&config)
            .args(["agent", "-m", "hi", "--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("127.0.0.1"),
            "the error names where it could not connect: {}",
            stderr(&out)
        );
        if format == "json" {
            let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
            assert_eq!(result["stop"], "error");
            assert_eq!(result["transcript"], Value::Null, "{result}");
        }
        assert!(
            s.transcripts().is_empty(),
            "{format}: {:?}",
            s.transcripts()
        );
    }
}

#[test]
fn a_resumed_session_keeps_its_transcript_when_the_model_is_gone() {
    let p = Projects::new(1);
    let (first, code, _) = p.agent(&p.s.project, &["-m", "one"]);
    assert_eq!(code, 0);
    let path = PathBuf::from(first["transcript"].as_str().unwrap());
    let before = read_lines(&path).len();
    let gone = p.s.config(&json!({
        "providers": {"local": {"base_url": closed_port_url(), "api_key": "sk-test", "max_retries": 0}},
        "model": "local/m"
    }));
    let out =
        p.s.weft()
            .arg("--config")
            .arg(&gone)
            .args(["agent", "--continue", "-m", "two"])
            .output()
            .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // The earlier conversation stays, with the message that got no answer after it, and
    // why it got none.
    let records = read_lines(&path);
    assert!(records.len() > before, "{records:?}");
    assert_eq!(records[records.len() - 2]["message"]["content"], "two");
    let last = records.last().unwrap();
    assert_eq!(last["type"], "model_error");
    assert!(
        last["error"]
            .as_str()
            .unwrap()
            .starts_with("local: cannot reach "),
        "{last}"
    );
}

#[test]
fn a_corrupt_transcript_is_an_error_naming_its_file_and_line() {
    let p = Projects::new(1);
    let (first, _, _) = p.agent(&p.s.project, &["-m", "one"]);
    let id = first["session_id"].as_str().unwrap();
    let path = p.s.sessions().join(format!("{id}.jsonl"));
    let mut text = std::fs::read_to_string(&path).unwrap();
    let second_line = text.find('\n').unwrap() + 1;
    text.insert_str(second_line, "{\"type\": \"message\", \"at\": \"noon\"}\n");
    std::fs::write(&path, text).unwrap();
    let (_, code, resume) = p.agent(&p.s.project, &["--resume", id, "-m", "two"]);
    assert_eq!(code, 1);
    let show = p.s.weft().args(["sessions", "show", id]).output().unwrap();
    assert_eq!(show.status.code(), Some(1));
    let out = format!("{resume}{}", stderr(&show)).replace(id, "[ID]");
    insta::assert_snapshot!("corrupt_transcript", p.s.redact(&out));
    assert_eq!(
        p.server.count(),
        1,
        "nothing was sent for the corrupt session"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_among_the_transcripts_is_skipped_not_waited_on() {
    let p = Projects::new(0);
    std::fs::create_dir_all(p.s.sessions()).unwrap();
    let fifo = p.s.sessions().join("trap.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let out =
        p.s.weft()
            .args(["sessions", "list", "--format", "json"])
            .output()
            .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout(&out), "[]\n");
    assert_eq!(
        stderr(&out),
        format!(
            "warning: left out: {}: cannot read: is a FIFO (named pipe), not a regular file\n",
            fifo.display()
        )
    );
}
