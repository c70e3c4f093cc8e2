//! Output for scripts, through the binary: `weft agent -m` and `weft skills run` with
//! `--format json` and `--format stream-json` against a loopback model server, `--json` on
//! every command that prints data, one JSON shape for a skill in `list` and `show`, and the
//! documented exit statuses.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sandbox::server::{
    Reply, ScriptServer, openai_messages, openai_stream, openai_text, openai_tool,
};
use sandbox::{Sandbox, redact_keys, stderr, stdout, write_skill};
use serde_json::{Value, json};

/// The keys whose values change from run to run.
const VOLATILE: [&str; 2] = ["session_id", "transcript"];

/// A loopback model server playing `replies`, and the runtime it runs on.
fn serve(replies: Vec<Reply>) -> (tokio::runtime::Runtime, ScriptServer) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(replies));
    (rt, server)
}

/// `weft --config <loopback> ARGS`.
fn run(s: &Sandbox, server: &ScriptServer, args: &[&str]) -> std::process::Output {
    s.weft()
        .arg("--config")
        .arg(s.loopback_config(server))
        .args(args)
        .output()
        .unwrap()
}

/// A JSON document with its volatile values redacted, pretty, for a snapshot.
fn redacted(mut value: Value) -> String {
    redact_keys(&mut value, &VOLATILE);
    serde_json::to_string_pretty(&value).unwrap()
}

/// Each line of stream-json output parsed (a line that is not JSON fails the test).
fn events(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn agent_json_is_the_answer_with_tool_calls_usage_and_session_id() {
    let s = Sandbox::new();
    s.file("hello.txt", "hi\n");
    let (_rt, server) = serve(vec![
        openai_tool("call_1", "list_directory", json!({})),
        openai_text("There is one file."),
    ]);
    let out = run(
        &s,
        &server,
        &["agent", "-m", "what is here?", "--format", "json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The session id names the transcript, which exists.
    let id = doc["session_id"].as_str().unwrap();
    let transcript = s.sessions().join(format!("{id}.jsonl"));
    assert_eq!(doc["transcript"], transcript.to_str().unwrap());
    assert!(transcript.is_file());
    insta::assert_snapshot!("agent_json", redacted(doc));
}

#[test]
fn agent_stream_json_is_one_event_per_line_ending_with_the_result() {
    let s = Sandbox::new();
    s.file("hello.txt", "hi\n");
    let (_rt, server) = serve(vec![
        openai_tool("call_1", "read_file", json!({"path": "hello.txt"})),
        openai_stream(&["It says ", "hi."]),
    ]);
    let out = run(
        &s,
        &server,
        &["agent", "-m", "read hello.txt", "--format", "stream-json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let events = events(&out);
    let id = events[0]["session_id"].as_str().unwrap();
    let transcript = events[0]["transcript"].as_str().unwrap();
    assert!(
        events
            .iter()
            .all(|e| e["session_id"].is_null() || e["session_id"] == id)
    );
    // As printed (keys in their order, `type` first), the id and the path replaced.
    let text = stdout(&out)
        .replace(transcript, "[transcript]")
        .replace(id, "[session_id]");
    insta::assert_snapshot!("agent_stream_json", text);
}

#[test]
fn the_last_stream_json_event_is_what_format_json_prints() {
    let s = Sandbox::new();
    s.file("hello.txt", "hi\n");
    let outputs: Vec<Value> = ["stream-json", "json"]
        .iter()
        .map(|format| {
            // Whole (not streamed) answers, so both runs get the same replies.
            let (_rt, server) = serve(vec![
                openai_tool("call_1", "read_file", json!({"path": "hello.txt"})),
                openai_text("It says hi."),
            ]);
            let out = run(
                &s,
                &server,
                &["agent", "-m", "read hello.txt", "--format", format],
            );
            assert!(out.status.success(), "{}", stderr(&out));
            let mut last = if *format == "json" {
                serde_json::from_slice(&out.stdout).unwrap()
            } else {
                events(&out).pop().unwrap()
            };
            redact_keys(&mut last, &VOLATILE);
            last
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[1]["result"], "It says hi.");
}

#[test]
fn skills_run_prints_json_and_a_failed_run_still_ends_with_a_result() {
    let s = Sandbox::new();
    s.file(
        ".clawft/skills/greet/SKILL.md",
        "---\nname: greet\ndescription: Greets someone\n---\n\nGreet $ARGUMENTS.\n",
    );
    let (_rt, server) = serve(vec![openai_stream(&["Hello, ", "Ada!"])]);
    let out = run(
        &s,
        &server,
        &["skills", "run", "greet", "Ada", "--format", "stream-json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let events = events(&out);
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["session", "text", "text", "assistant", "result"]);
    assert_eq!(events[4]["result"], "Hello, Ada!");
    assert_eq!(
        openai_messages(&server.bodies()[0]).last().unwrap()["content"],
        "[Skill: greet]\n\nGreet Ada."
    );

    // An unknown skill: the session existed, so there is a result; nothing reached the
    // model, so there is no transcript.
    let before = s.transcripts().len();
    let out = run(&s, &server, &["skills", "run", "gret", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: unknown skill `gret`; did you mean `greet`?\n"
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    insta::assert_snapshot!("skills_run_error_json", redacted(doc));
    assert_eq!(s.transcripts().len(), before);
    assert_eq!(server.count(), 1);
}

#[test]
fn a_model_call_that_fails_ends_with_an_error_result_and_status_1() {
    let s = Sandbox::new();
    let (_rt, server) = serve(vec![Reply::Json(
        401,
        json!({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}),
    )]);
    let out = run(&s, &server, &["agent", "-m", "hi", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["is_error"], true);
    assert_eq!(doc["stop"], "error");
    let error = doc["error"].as_str().unwrap();
    assert!(stderr(&out).contains(error), "{error} / {}", stderr(&out));
    // The user's message was written before the call, and taken back when no answer came:
    // a session the model never answered leaves nothing to resume.
    assert_eq!(doc["transcript"], Value::Null);
    assert!(s.transcripts().is_empty(), "{:?}", s.transcripts());
}

/// Commands that print data, each with the arguments it needs in [`json_fixture`].
const DATA_COMMANDS: [&[&str]; 15] = [
    &["skills", "list"],
    &["skills", "show", "greet"],
    &["skills", "match", "greet someone"],
    &["skills", "catalog"],
    &["skills", "compose", "greet"],
    &["skills", "check-tool", "read_file", "--skills", "greet"],
    &["skills", "select", "--description", "greet a person"],
    &["skills", "validate", ".clawft/skills"],
    &["skills", "verify"],
    &["skills", "scan", ".clawft/skills"],
    &["agents", "list"],
    &["agents", "show", "explore"],
    &["sessions", "list"],
    &["mcp", "list"],
    &["sandbox", "status"],
];

fn json_fixture() -> Sandbox {
    let s = Sandbox::new();
    write_skill(
        &s.project.join(".clawft/skills"),
        "greet",
        "Greets someone by name",
    );
    s
}

#[test]
fn json_is_the_same_as_format_json_on_every_command_that_prints_data() {
    let s = json_fixture();
    for args in DATA_COMMANDS {
        let alias = s.weft().args(args).arg("--json").output().unwrap();
        let long = s
            .weft()
            .args(args)
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert_eq!(alias.status.code(), long.status.code(), "{args:?}");
        let alias: Value = serde_json::from_slice(&alias.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&alias)));
        let long: Value = serde_json::from_slice(&long.stdout).unwrap();
        assert_eq!(alias, long, "{args:?}");
    }
    // A command that prints no data has no JSON output.
    let help = s.weft().args(["help", "--json"]).output().unwrap();
    assert_eq!(help.status.code(), Some(2));
    assert_eq!(
        stderr(&help),
        "error: --json: this command prints no data, so it has no JSON output\n"
    );
}

#[test]
fn skills_list_and_show_print_a_skill_in_one_shape() {
    let s = json_fixture();
    let list = s
        .weft()
        .args(["skills", "list", "--format", "json"])
        .output()
        .unwrap();
    let list: Value = serde_json::from_slice(&list.stdout).unwrap();
    let item = list
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "greet")
        .unwrap();
    let show = s
        .weft()
        .args(["skills", "show", "greet", "--format", "json"])
        .output()
        .unwrap();
    let show: Value = serde_json::from_slice(&show.stdout).unwrap();
    for (key, value) in item.as_object().unwrap() {
        assert_eq!(&show[key], value, "`{key}` differs between list and show");
    }
    let mut item = item.clone();
    redact_keys(&mut item, &["path"]);
    insta::assert_snapshot!("skill_json", serde_json::to_string_pretty(&item).unwrap());
}

#[test]
fn exit_statuses_are_the_documented_ones() {
    let s = Sandbox::new();
    s.file(
        ".clawft/skills/gitter/SKILL.md",
        "---\nname: gitter\ndescription: Runs git\nallowed-tools: Bash(git:*)\n---\n\nUse git.\n",
    );
    s.file(".clawft/skills/bad/SKILL.md", "---\nname: bad\n---\n");
    let code = |args: &[&str]| s.weft().args(args).output().unwrap().status.code().unwrap();
    let shell = |command: &str| format!("{{\"command\": \"{command}\"}}");
    let check = |command: &str| {
        code(&[
            "--permission-mode",
            "auto",
            "skills",
            "check-tool",
            "exec_shell",
            "--skills",
            "gitter",
            "--input",
            &shell(command),
        ])
    };
    assert_eq!(code(&["skills", "list"]), 0);
    assert_eq!(check("git status"), 0);
    assert_eq!(code(&["skills", "validate", ".clawft/skills/bad"]), 1);
    assert_eq!(check("rm -rf /"), 1);
    assert_eq!(code(&["skils"]), 2, "an unknown command");
    assert_eq!(code(&["agents", "show", "nobody"]), 2, "an unknown agent");
    assert_eq!(code(&["agent", "-m", "hi"]), 2, "no provider");
    s.user_config(&json!({"modle": "x"}));
    assert_eq!(code(&["agents", "list"]), 2, "a configuration error");
    std::fs::remove_file(s.home.join(".clawft/config.json")).unwrap();
    assert_eq!(check("git -c core.pager=cat log"), 3, "ask");

    // Ctrl-C while the model thinks: 130.
    let (rt, server) = serve(vec![Reply::Hang]);
    let mut child = s
        .process()
        .arg("--home")
        .arg(&s.home)
        .arg("--config")
        .arg(s.loopback_config(&server))
        .args(["agent", "-m", "think hard"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    while server.count() == 0 {
        assert!(child.try_wait().unwrap().is_none(), "weft exited early");
        assert!(Instant::now() < deadline, "the request never arrived");
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert_eq!(child.wait().unwrap().code(), Some(130));
    drop(server);
    drop(rt);

    // The same table is in `weft help exit-codes`.
    let help = s.weft().args(["help", "exit-codes"]).output().unwrap();
    let help = stdout(&help);
    for line in [
        "  0    success",
        "  1    failure",
        "  2    usage or configuration",
        "  3    `weft skills check-tool`",
        "  130  interrupted",
    ] {
        assert!(help.contains(line), "{line}: {help}");
    }
}
