//! `weft agent`, `weft skills run` and `weft agents list|show` on the real binary: usage
//! errors, a replayed run with a refused tool call, dry runs that touch no network, unknown
//! providers, the seed 002 listing formats, and a transcript that survives a SIGKILL while a
//! model call is in flight.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use sandbox::server::{self as common, Reply, ScriptServer, openai_tool};
use sandbox::{Sandbox, render, repo};
use serde_json::{Value, json};

/// The final answer of fixtures/replay/demo.jsonl.
const REPLAY_ANSWER: &str = "The fixtures directory holds sample skills, definitions and agents used by the tests. I could not run the shell command: this agent is read-only.";

/// The `message` of every `message` record.
fn messages(records: &[Value]) -> Vec<&Value> {
    records
        .iter()
        .filter(|r| r["type"] == "message")
        .map(|r| &r["message"])
        .collect()
}

/// A port that accepts TCP connections into its backlog but never answers; after the run,
/// `connected` tells whether anything connected.
struct SilentPort(TcpListener);

impl SilentPort {
    fn new() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        Self(listener)
    }

    fn base_url(&self) -> String {
        format!("http://{}/v1", self.0.local_addr().unwrap())
    }

    fn connected(&self) -> bool {
        match self.0.accept() {
            Ok(_) => true,
            Err(e) if e.kind() == ErrorKind::WouldBlock => false,
            Err(e) => panic!("{e}"),
        }
    }
}

// --- Usage errors ---------------------------------------------------------------------------------

#[test]
fn no_provider_is_a_usage_error_that_points_at_dry_run() {
    let s = Sandbox::new();
    let out = s
        .weft_in_repo()
        .args(["agent", "-m", "hi"])
        .output()
        .unwrap();
    insta::assert_snapshot!("no_provider", render("agent -m hi", &out));
    assert!(s.transcripts().is_empty());
}

#[test]
fn an_unknown_provider_in_model_is_a_usage_error() {
    let s = Sandbox::new();
    let config = repo().join("fixtures/replay/config.json");
    let mut shown = String::new();
    for extra in [&[][..], &["--dry-run"][..]] {
        let out = s
            .weft_in_repo()
            .arg("--config")
            .arg(&config)
            .args(["agent", "--model", "evil/x", "-m", "hi"])
            .args(extra)
            .output()
            .unwrap();
        let label = format!("agent --model evil/x -m hi {}", extra.join(" "));
        shown.push_str(&render(label.trim_end(), &out));
    }
    insta::assert_snapshot!("unknown_provider", shown);
    assert!(s.transcripts().is_empty());
}

#[test]
fn an_agent_file_naming_an_unknown_provider_cannot_run() {
    let s = Sandbox::new();
    s.file(
        ".clawft/agents/sneaky.md",
        "---\nname: sneaky\ndescription: Sends prompts elsewhere\nmodel: evil/x\n---\n\nHi.\n",
    );
    let config = repo().join("fixtures/replay/config.json");
    let run = s
        .weft_in_repo()
        .arg("--config")
        .arg(&config)
        .args(["agent", "--agent", "sneaky", "-m", "hi"])
        .output()
        .unwrap();
    let show = s
        .weft_in_repo()
        .args(["agents", "show", "sneaky"])
        .output()
        .unwrap();
    let shown = format!(
        "{}{}",
        render("agent --agent sneaky -m hi", &run),
        render("agents show sneaky", &show)
    );
    insta::assert_snapshot!("agent_with_unknown_provider", s.redact(&shown));
}

// --- A replayed run -------------------------------------------------------------------------------

#[test]
fn replayed_explore_run_prints_the_answer_and_records_the_refused_shell_call() {
    let s = Sandbox::new();
    // What the recording reads, and a directory its refused `rm -rf build` would remove.
    s.file(
        "fixtures/README.md",
        "# Test fixtures\n\nSample skills.\nMore.\n",
    );
    std::fs::create_dir_all(s.project.join("build")).unwrap();
    s.file("build/keep.txt", "keep me");

    s.weft_in_repo()
        .args(["--config", "fixtures/replay/config.json"])
        .args(["agent", "--agent", "explore", "-m", "Look around"])
        .assert()
        .success()
        .stdout(format!("{REPLAY_ANSWER}\n"));
    assert!(s.project.join("build/keep.txt").exists());

    let records = s.transcript();
    assert_eq!(records[0]["type"], "session");
    assert_eq!(records[0]["agent"], "explore");
    assert_eq!(records[0]["model"], "demo/recorded");
    let messages = messages(&records);
    assert_eq!(
        messages[0],
        &json!({"role": "user", "content": "Look around"})
    );
    // list_directory and read_file ran against the project.
    let listing = messages
        .iter()
        .find(|m| m["tool_call_id"] == "call_1")
        .unwrap();
    assert!(
        listing["content"].as_str().unwrap().contains("README.md"),
        "{listing}"
    );
    let read = messages
        .iter()
        .find(|m| m["tool_call_id"] == "call_2")
        .unwrap();
    assert_eq!(read["content"], "# Test fixtures\n\nSample skills.\n");
    // The shell call was refused by the explore agent's gate.
    let shell = messages
        .iter()
        .find(|m| m["tool_call_id"] == "call_3")
        .unwrap();
    assert_eq!(shell["role"], "tool");
    assert_eq!(shell["is_error"], json!(true));
    let content = shell["content"].as_str().unwrap();
    assert!(content.starts_with("permission denied"), "{content}");
    assert!(content.contains("exec_shell"), "{content}");
    assert!(content.contains("agent 'explore'"), "{content}");
    assert_eq!(
        messages.last().unwrap(),
        &&json!({"role": "assistant", "content": REPLAY_ANSWER})
    );
}

#[test]
fn no_transcript_keeps_the_sessions_directory_empty() {
    let s = Sandbox::new();
    s.file("fixtures/README.md", "# x\n");
    s.weft_in_repo()
        .args(["--config", "fixtures/replay/config.json"])
        .args([
            "agent",
            "--agent",
            "explore",
            "--no-transcript",
            "-m",
            "Look around",
        ])
        .assert()
        .success()
        .stdout(format!("{REPLAY_ANSWER}\n"));
    assert!(s.transcripts().is_empty());
}

/// A config using the repository's recording, plus `extra` merged in.
fn replay_config(s: &Sandbox, extra: &Value) -> PathBuf {
    let mut config = json!({
        "providers": {"demo": {"kind": "replay", "file": repo().join("fixtures/replay/demo.jsonl")}},
        "model": "demo/recorded"
    });
    for (key, value) in extra.as_object().unwrap() {
        config[key] = value.clone();
    }
    s.config(&config)
}

#[test]
fn the_config_deny_list_is_a_ceiling_over_every_agent() {
    let s = Sandbox::new();
    s.file("fixtures/README.md", "# x\n");
    s.file("build/keep.txt", "keep me");
    let config = replay_config(&s, &json!({"tools": {"deny": ["Bash"]}}));
    // `default` may use the shell, but not under this config.
    s.weft_in_repo()
        .arg("--config")
        .arg(&config)
        .args(["agent", "-m", "Look around"])
        .assert()
        .success()
        .stdout(format!("{REPLAY_ANSWER}\n"));
    assert!(s.project.join("build/keep.txt").exists());
    let records = s.transcript();
    assert_eq!(records[0]["agent"], "default");
    let shell = messages(&records)
        .into_iter()
        .find(|m| m["tool_call_id"] == "call_3")
        .unwrap()
        .clone();
    assert_eq!(shell["is_error"], json!(true));
    let content = shell["content"].as_str().unwrap();
    assert!(content.starts_with("permission denied"), "{content}");
    assert!(content.contains("the session"), "{content}");
}

#[test]
fn hitting_the_iteration_cap_fails_the_command() {
    let s = Sandbox::new();
    s.file("fixtures/README.md", "# x\n");
    let config = replay_config(&s, &json!({"agent": {"max_tool_iterations": 1}}));
    let out = s
        .weft_in_repo()
        .arg("--config")
        .arg(&config)
        .args(["agent", "--agent", "explore", "-m", "Look around"])
        .output()
        .unwrap();
    insta::assert_snapshot!(
        "iteration_limit",
        render("agent --agent explore -m 'Look around'", &out)
    );
    let records = s.transcript();
    let messages = messages(&records);
    // One round ran; the second round's call was answered without running.
    let last = messages.last().unwrap();
    assert_eq!(last["tool_call_id"], "call_2");
    assert_eq!(last["is_error"], json!(true));
    assert!(
        last["content"].as_str().unwrap().contains("limit of 1"),
        "{last}"
    );
}

#[test]
fn the_message_can_come_from_stdin() {
    let s = Sandbox::new();
    s.file("fixtures/README.md", "# x\n");
    s.weft_in_repo()
        .args(["--config", "fixtures/replay/config.json"])
        .args(["agent", "--agent", "explore"])
        .write_stdin("Look around from stdin")
        .assert()
        .success()
        .stdout(format!("{REPLAY_ANSWER}\n"));
    let records = s.transcript();
    assert_eq!(
        messages(&records)[0],
        &json!({"role": "user", "content": "Look around from stdin"})
    );
    let out = s
        .weft_in_repo()
        .args(["--config", "fixtures/replay/config.json"])
        .args(["agent", "--agent", "explore"])
        .write_stdin("  \n")
        .output()
        .unwrap();
    insta::assert_snapshot!("empty_stdin", render("agent --agent explore < blank", &out));
}

// --- Dry runs -------------------------------------------------------------------------------------

fn write_greet_skill(s: &Sandbox) {
    s.file(
        ".clawft/skills/greet/SKILL.md",
        "---\nname: greet\ndescription: Greets two people\nallowed-tools: Read\n---\n\nGreet $0, then $1 (everyone: $ARGUMENTS).\n",
    );
}

fn dry_run_doc(output: &[u8]) -> Value {
    serde_json::from_slice(output)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(output)))
}

#[test]
fn skills_run_sends_the_rendered_skill_and_its_tools_limit_the_turn() {
    let s = Sandbox::new();
    write_greet_skill(&s);
    s.file("fixtures/README.md", "# x\n");
    s.weft_in_repo()
        .args(["--config", "fixtures/replay/config.json"])
        .args(["skills", "run", "greet", "alice", "bob"])
        .assert()
        .success()
        .stdout(format!("{REPLAY_ANSWER}\n"));
    let records = s.transcript();
    assert!(
        records.iter().any(|r| r["type"] == "skill"
            && r["skill"] == "greet"
            && r["args"] == json!(["alice", "bob"])),
        "{records:#?}"
    );
    let messages = messages(&records);
    assert_eq!(messages[0]["role"], "user");
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .contains("Greet alice, then bob (everyone: alice bob)."),
        "{}",
        messages[0]
    );
    // `allowed-tools: Read`: list_directory is refused by the skill, read_file runs.
    let listing = messages
        .iter()
        .find(|m| m["tool_call_id"] == "call_1")
        .unwrap();
    assert_eq!(listing["is_error"], json!(true));
    assert!(
        listing["content"]
            .as_str()
            .unwrap()
            .contains("skill 'greet'"),
        "{listing}"
    );
    let read = messages
        .iter()
        .find(|m| m["tool_call_id"] == "call_2")
        .unwrap();
    assert_eq!(read["content"], "# x\n");
}

#[test]
fn skills_run_dry_run_prints_the_rendered_request_offline() {
    let s = Sandbox::new();
    write_greet_skill(&s);
    let out = s
        .weft_in_repo()
        .args(["skills", "run", "greet", "alice", "bob", "--dry-run"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc = dry_run_doc(&out);
    assert_eq!(doc["agent"], "default");
    assert_eq!(doc["active_skills"], json!(["greet"]));
    let messages = doc["request"]["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");
    let content = messages[0]["content"].as_str().unwrap();
    assert!(
        content.contains("Greet alice, then bob (everyone: alice bob)."),
        "{content}"
    );
    // The skill narrows the tools to what it allows: the gate refuses the others and the
    // skill's text says so, while the tools offered stay the agent's (a stable prefix for the
    // prompt cache).
    assert!(
        content.contains("tools are limited to read_file until this request is answered"),
        "{content}"
    );
    let tools: Vec<&str> = doc["request"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"read_file") && tools.contains(&"exec_shell"),
        "{tools:?}"
    );
    assert!(s.transcripts().is_empty());
}

#[test]
fn dry_runs_with_a_configured_provider_never_connect() {
    let s = Sandbox::new();
    write_greet_skill(&s);
    let port = SilentPort::new();
    let config = s.config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": port.base_url(), "timeout_secs": 2, "max_retries": 0}},
        "model": "local/m"
    }));
    let out = s
        .weft_in_repo()
        .arg("--config")
        .arg(&config)
        .args(["skills", "run", "greet", "a", "b", "--dry-run"])
        .timeout(Duration::from_secs(20))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc = dry_run_doc(&out);
    assert_eq!(doc["provider"], "local");
    assert_eq!(doc["request"]["model"], "m");
    assert!(
        doc["request"]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("Greet a, then b (everyone: a b).")
    );

    let out = s
        .weft_in_repo()
        .arg("--config")
        .arg(&config)
        .args(["agent", "--agent", "planner", "-m", "plan it", "--dry-run"])
        .timeout(Duration::from_secs(20))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc = dry_run_doc(&out);
    assert_eq!(doc["agent"], "planner");
    assert_eq!(
        doc["request"]["messages"],
        json!([{"role": "user", "content": "plan it"}])
    );
    assert!(doc["request"].get("tools").is_none(), "{doc:#}");
    assert!(!port.connected(), "a dry run connected to the provider");
    assert!(s.transcripts().is_empty());
}

/// `--dry-run` promises the exact request: compare it with what a real run sends to a
/// loopback server for an agent with its own temperature and tools.
#[test]
fn the_dry_run_request_is_what_a_real_run_sends() {
    let s = Sandbox::new();
    s.file(
        ".clawft/agents/tuned.yaml",
        "name: tuned\ndescription: A tuned agent\nsystem_prompt: You are tuned.\ntemperature: 0.3\ntools: [read_file, grep]\n",
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![common::openai_text(
        "Tuned answer.",
    )]));
    let config = s.config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m"
    }));
    let run = |dry: bool| {
        let mut cmd = s.weft_in_repo();
        cmd.arg("--config")
            .arg(&config)
            .args(["agent", "--agent", "tuned", "-m", "Tune it"])
            .timeout(Duration::from_secs(20));
        if dry {
            cmd.arg("--dry-run");
        }
        cmd.assert().success().get_output().stdout.clone()
    };
    assert_eq!(run(false), b"Tuned answer.\n");
    assert_eq!(server.count(), 1);
    let doc = dry_run_doc(&run(true));
    assert_eq!(server.count(), 1, "the dry run sent a request");

    let sent = &server.bodies()[0];
    let request = &doc["request"];
    assert_eq!(request["model"], sent["model"]);
    assert_eq!(request["system"], sent["messages"][0]["content"]);
    assert_eq!(
        request["messages"][0]["content"],
        sent["messages"][1]["content"]
    );
    let dry_tools: Vec<&Value> = request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["name"])
        .collect();
    let sent_tools: Vec<&Value> = sent["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["function"]["name"])
        .collect();
    assert_eq!(dry_tools, sent_tools);
    assert_eq!(sent["temperature"], json!(0.3));
    assert_eq!(request["temperature"], sent["temperature"]);
    drop(server);
    drop(rt);
}

// --- Agents listing -------------------------------------------------------------------------------

#[test]
fn agents_list_json_has_the_builtins_and_project_agents() {
    let s = Sandbox::new();
    s.file(
        ".clawft/agents/reviewer.yaml",
        "name: reviewer\ndescription: Reviews code\ntools: [read_file, grep]\ntemperature: 0.2\n",
    );
    let out = s
        .weft_in_repo()
        .args(["agents", "list", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let all: Vec<Value> = serde_json::from_slice(&out).unwrap();
    let names: Vec<&str> = all.iter().map(|a| a["name"].as_str().unwrap()).collect();
    for builtin in [
        "default",
        "general-purpose",
        "explore",
        "plan",
        "planner",
        "coder",
    ] {
        let entry = all.iter().find(|a| a["name"] == builtin).unwrap();
        assert_eq!(entry["scope"], "builtin", "{entry}");
        assert_eq!(entry["path"], Value::Null);
    }
    assert_eq!(names.len(), 7, "{names:?}");
    let reviewer = all.iter().find(|a| a["name"] == "reviewer").unwrap();
    assert_eq!(reviewer["scope"], "project");
    assert_eq!(reviewer["tools"], json!(["read_file", "grep"]));
    assert_eq!(reviewer["shadows"], json!([]));
    let planner = all.iter().find(|a| a["name"] == "planner").unwrap();
    assert_eq!(planner["tools"], json!([]));
    let default = all.iter().find(|a| a["name"] == "default").unwrap();
    assert_eq!(default["tools"], Value::Null);
}

/// The temperature is printed as written (`0.2`), not as the f32 widened to f64
/// (`0.20000000298023224`); the text format already prints `Temperature: 0.2`.
#[test]
fn agents_json_shows_temperatures_as_written() {
    let s = Sandbox::new();
    s.file(
        ".clawft/agents/reviewer.yaml",
        "name: reviewer\ndescription: Reviews code\ntemperature: 0.2\n",
    );
    let out = s
        .weft_in_repo()
        .args(["agents", "show", "reviewer"])
        .output()
        .unwrap();
    insta::assert_snapshot!(
        "show_reviewer_temperature",
        s.redact(&render("agents show reviewer", &out))
    );
    let out = s
        .weft_in_repo()
        .args(["agents", "list", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let all: Vec<Value> = serde_json::from_slice(&out).unwrap();
    let temperature =
        |name: &str| all.iter().find(|a| a["name"] == name).unwrap()["temperature"].clone();
    assert_eq!(temperature("reviewer"), json!(0.2));
    assert_eq!(temperature("planner"), json!(0.8));
    let out = s
        .weft_in_repo()
        .args(["agents", "show", "reviewer", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["temperature"], json!(0.2));
}

#[test]
fn agents_list_is_a_table_in_the_seed_format() {
    let s = Sandbox::new();
    let out = s.weft_in_repo().args(["agents", "list"]).assert().success();
    insta::assert_snapshot!(
        "list_builtins",
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    );
}

#[test]
fn agents_show_coder_in_the_seed_format() {
    let s = Sandbox::new();
    let out = s
        .weft_in_repo()
        .args(["agents", "show", "coder"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!("show_coder", String::from_utf8(out).unwrap());
}

#[test]
fn a_project_agent_overriding_a_builtin_says_so() {
    let s = Sandbox::new();
    let file = s.file(
        ".clawft/agents/coder/AGENT.md",
        "---\nname: coder\ndescription: This project's coder\ntools: [read_file, edit_file]\n---\n\nCode carefully here.\n",
    );
    let out = s
        .weft_in_repo()
        .args(["agents", "show", "coder"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(&file.display().to_string()), "{text}");
    insta::assert_snapshot!("show_project_coder", s.redact(&text));

    let out = s
        .weft_in_repo()
        .args(["agents", "show", "coder", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["scope"], "project");
    assert_eq!(doc["shadows"], json!([{"scope": "builtin", "path": null}]));
}

#[test]
fn agents_show_unknown_is_a_usage_error_listing_the_agents() {
    let s = Sandbox::new();
    let out = s
        .weft_in_repo()
        .args(["agents", "show", "nope"])
        .assert()
        .code(2);
    insta::assert_snapshot!(
        "show_unknown",
        String::from_utf8(out.get_output().stderr.clone()).unwrap()
    );
}

// --- The transcript survives a kill ---------------------------------------------------------------

#[test]
fn the_transcript_survives_a_sigkill_during_a_model_call() {
    let s = Sandbox::new();
    s.file("hello.txt", "hi\n");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    // First a tool call; the second request is never answered.
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_tool("call_ls", "list_directory", json!({})),
        Reply::Hang,
    ]));
    let config = s.config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url)}},
        "model": "local/m"
    }));
    let mut child = s
        .process()
        .arg("--home")
        .arg(&s.home)
        .arg("--project")
        .arg(&s.project)
        .arg("--config")
        .arg(&config)
        .args(["agent", "-m", "What is here?"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();

    let start = Instant::now();
    while server.count() < 2 {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("weft exited early with {status}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the second request never arrived ({} so far)",
            server.count()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success());

    let records = s.transcript();
    assert_eq!(records[0]["type"], "session");
    assert_eq!(records[0]["model"], "local/m");
    let messages = messages(&records);
    assert_eq!(messages.len(), 3, "{records:#?}");
    assert_eq!(
        messages[0],
        &json!({"role": "user", "content": "What is here?"})
    );
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(messages[1]["tool_calls"][0]["id"], "call_ls");
    assert_eq!(messages[1]["tool_calls"][0]["name"], "list_directory");
    assert_eq!(messages[2]["role"], "tool");
    assert_eq!(messages[2]["tool_call_id"], "call_ls");
    assert!(
        messages[2]["content"]
            .as_str()
            .unwrap()
            .contains("hello.txt"),
        "{}",
        messages[2]
    );
    // The second request carried that same conversation.
    let second = &server.bodies()[1];
    let sent = second["messages"].as_array().unwrap();
    assert_eq!(sent[3]["role"], "tool");
    assert_eq!(sent[3]["content"], messages[2]["content"]);
    drop(server);
    drop(rt);
}

// --- Claude Code's habits at the top level --------------------------------------------------------

/// A loopback OpenAI-compatible server answering `replies`, and a config naming it.
fn loopback(s: &Sandbox, replies: Vec<Reply>) -> (tokio::runtime::Runtime, ScriptServer, PathBuf) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = rt.block_on(ScriptServer::openai(replies));
    let config = s.loopback_config(&server);
    (rt, server, config)
}

/// The last user message of a request body.
fn last_user(body: &Value) -> String {
    common::openai_messages(body)
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap()
        .to_owned()
}

/// `weft -p Q`, `weft -m Q` and `weft Q` through a pipe each send one message and print the
/// answer, as `weft agent -m Q` does; piped input goes below the question of `-p`.
#[test]
fn print_message_and_a_bare_prompt_send_one_message() {
    let s = Sandbox::new();
    let (_rt, server, config) = loopback(
        &s,
        vec![
            common::openai_text("one"),
            common::openai_text("two"),
            common::openai_text("three"),
            common::openai_text("four"),
        ],
    );
    let run = |args: &[&str], stdin: &str| {
        s.weft()
            .arg("--config")
            .arg(&config)
            .args(args)
            .arg("--no-transcript")
            .write_stdin(stdin.to_owned())
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap()
    };
    let out = run(&["-p", "What is here?"], "");
    assert_eq!(
        (sandbox::code(&out), sandbox::stdout(&out)),
        (0, "one\n".to_owned())
    );
    let out = run(&["-m", "Second question"], "");
    assert_eq!(sandbox::stdout(&out), "two\n");
    let out = run(&["What", "is", "this?"], "");
    assert_eq!(sandbox::stdout(&out), "three\n");
    let out = run(&["-p", "Review this diff"], "+added line\n");
    assert_eq!(sandbox::stdout(&out), "four\n");
    let bodies = server.bodies();
    let sent: Vec<String> = bodies.iter().map(last_user).collect();
    assert_eq!(
        sent,
        [
            "What is here?",
            "Second question",
            "What is this?",
            "Review this diff\n\n+added line\n"
        ]
    );
}

/// A `/name` message runs the skill of that name, in one-shot runs as in the session; the
/// session's own commands and unknown names are usage errors, never text for the model.
#[test]
fn a_slash_message_runs_the_skill_it_names() {
    let s = Sandbox::new();
    s.file(
        ".clawft/skills/tidy/SKILL.md",
        "---\nname: tidy\ndescription: Tidy up\n---\n\nTidy $ARGUMENTS now.\n",
    );
    let (_rt, server, config) = loopback(&s, vec![common::openai_text("Tidied.")]);
    let run = |args: &[&str]| {
        s.weft()
            .arg("--config")
            .arg(&config)
            .args(args)
            .arg("--no-transcript")
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap()
    };
    let out = run(&["-p", "/tidy the src folder"]);
    assert_eq!(
        sandbox::stdout(&out),
        "Tidied.\n",
        "{}",
        sandbox::stderr(&out)
    );
    let sent = last_user(&server.bodies()[0]);
    assert!(
        sent.starts_with("[Skill: tidy]\n\nTidy the src folder now."),
        "{sent}"
    );
    let mut shown = String::new();
    for args in [&["-p", "/help"][..], &["agent", "-m", "/tidi x"][..]] {
        let out = run(args);
        shown.push_str(&render(&args.join(" "), &out));
    }
    assert_eq!(server.count(), 1, "nothing else reached the model");
    sandbox::snapshot!(s, "slash_messages", shown);
}

/// A first word that names a command is the command; a one-word near miss is taken for a
/// typo; `--` makes anything a message; session options before a command, `-p` without
/// anything to send and `-r` without an id or a terminal say what to do instead.
#[test]
fn the_first_word_decides_between_a_command_and_a_message() {
    let s = Sandbox::new();
    let (_rt, server, config) = loopback(&s, vec![common::openai_text("An answer.")]);
    let mut shown = String::new();
    for args in [
        &["skils"][..],
        &["--model", "local/m", "skills", "list"][..],
        &["-p"][..],
        &["-r"][..],
        &["agent", "-r"][..],
    ] {
        let out = s
            .weft()
            .arg("--config")
            .arg(&config)
            .args(args)
            .output()
            .unwrap();
        shown.push_str(&render(&args.join(" "), &out));
    }
    sandbox::snapshot!(s, "first_word", shown);
    assert_eq!(server.count(), 0);
    let out = s
        .weft()
        .arg("--config")
        .arg(&config)
        .args(["--no-transcript", "--", "skills are?"])
        .output()
        .unwrap();
    assert_eq!(
        sandbox::stdout(&out),
        "An answer.\n",
        "{}",
        sandbox::stderr(&out)
    );
    assert_eq!(last_user(&server.bodies()[0]), "skills are?");
}

/// An untrusted project's agent whose limit was lowered is said so once per run, also when
/// a dry run builds its session twice (without a provider, the second time offline).
#[test]
fn a_lowered_project_agent_limit_is_said_once_per_run() {
    let s = Sandbox::new();
    s.file(
        ".clawft/agents/busy.yaml",
        "name: busy\ndescription: Works long\nmax_tool_iterations: 50\n",
    );
    let out = s
        .weft()
        .args(["agent", "--agent", "busy", "--dry-run", "-m", "hi"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", sandbox::stderr(&out));
    let warnings = sandbox::stderr(&out)
        .lines()
        .filter(|l| l.contains("asks for max_tool_iterations 50; lowered to your limit of 20"))
        .count();
    assert_eq!(warnings, 1, "{}", sandbox::stderr(&out));
}
