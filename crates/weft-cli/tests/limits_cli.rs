//! The `weft` binary under answers that never end: a loopback provider that would send
//! 1.5 GiB (a whole answer, tool-call arguments, an event without an end, endless events) and
//! an MCP server that writes one stderr line forever. Each run ends with an error naming the
//! limit (or, for stderr, goes on with the line cut), and the binary's peak resident memory,
//! the kernel's account of it (`run_bounded`), stays under 200 MB. The transcript of a run
//! that hits a limit holds the error and nothing of the answer.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod sandbox;

/// The weft-llm tests' loopback provider, which can generate an endless body.
#[path = "../../weft-llm/tests/common/mod.rs"]
mod provider;

use std::time::Duration;

use provider::{Reply, TestServer};
use sandbox::{Finished, Sandbox, run_bounded};
use serde_json::{Value, json};

/// What the server may send: 1.5 GiB.
const FLOOD: u64 = 3 << 29;

/// The bound on weft's memory under every attack.
const MAX_RSS_KIB: u64 = 200 * 1024;

/// Generous: each run ends as soon as the cap is read (well under a second on loopback).
const DEADLINE: Duration = Duration::from_secs(120);

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

/// An OpenAI-compatible provider `local` at `server`, no retries, model `local/m`.
fn use_server(s: &Sandbox, server: &TestServer) {
    s.user_config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m",
    }));
}

/// `weft agent -m hi ARGS` against `replies`, bounded; the server is kept for its counters.
fn attack(replies: Vec<Reply>, args: &[&str]) -> (Sandbox, Finished, Vec<Reply>) {
    let s = Sandbox::new();
    let rt = runtime();
    let server = rt.block_on(TestServer::script(replies.clone()));
    use_server(&s, &server);
    let mut cmd = s.process_in(&s.project);
    cmd.args(["agent", "-m", "hi"]).args(args);
    let out = run_bounded(&mut cmd, DEADLINE);
    drop(server);
    (s, out, replies)
}

/// Ended with the error of `key` at `limit`, under the memory bound.
fn assert_stopped(name: &str, out: &Finished, key: &str, limit: &str, what: &str) {
    println!("{name}: peak RSS {} KiB", out.peak_rss_kib);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "local: {what} is larger than the {limit} limit, so it was not read to the end; `{key}` in the configuration raises the limit"
        )),
        "{}",
        out.stderr
    );
    assert!(
        out.peak_rss_kib < MAX_RSS_KIB,
        "{name}: peak RSS {} KiB",
        out.peak_rss_kib
    );
}

const TEXT_HEAD: &str =
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n";

#[test]
fn a_gigabyte_answer() {
    let head = r#"{"choices":[{"index":0,"message":{"role":"assistant","content":""#;
    let reply = Reply::flood(200, "application/json", head, "a", FLOOD);
    let (_s, out, replies) = attack(vec![reply], &[]);
    assert_stopped(
        "whole answer",
        &out,
        "limits.response_bytes",
        "8 MiB",
        "the answer",
    );
    assert!(replies[0].flooded() < FLOOD / 4, "{}", replies[0].flooded());
}

#[test]
fn gigabytes_of_tool_arguments() {
    let head = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"write_file\",\"arguments\":\"\"}}]}}]}\n\n";
    let event = format!(
        "data: {}\n\n",
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "b".repeat(4000)}}]}}]})
    );
    let reply = Reply::flood(200, "text/event-stream", head, &event, FLOOD);
    let (_s, out, _) = attack(vec![reply], &["--format", "stream-json"]);
    assert_stopped(
        "tool arguments",
        &out,
        "limits.tool_arguments_bytes",
        "4 MiB",
        "the answer's tool calls",
    );
}

#[test]
fn whole_tool_arguments_of_gigabytes() {
    let head = r#"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"write_file","arguments":""#;
    let reply = Reply::flood(200, "application/json", head, "b", FLOOD);
    let (_s, out, _) = attack(vec![reply], &[]);
    assert_stopped(
        "whole tool arguments",
        &out,
        "limits.response_bytes",
        "8 MiB",
        "the answer",
    );
}

#[test]
fn an_event_that_never_ends() {
    let head = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"";
    let reply = Reply::flood(200, "text/event-stream", head, "a", FLOOD);
    let (_s, out, _) = attack(vec![reply], &["--format", "stream-json"]);
    assert_stopped(
        "endless event",
        &out,
        "limits.event_bytes",
        "4 MiB",
        "one event of the stream",
    );
}

#[test]
fn endless_text_events() {
    let event = format!(
        "data: {}\n\n",
        json!({"choices": [{"index": 0, "delta": {"content": "a".repeat(4000)}}]})
    );
    let reply = Reply::flood(200, "text/event-stream", TEXT_HEAD, &event, FLOOD);
    let (_s, out, _) = attack(vec![reply], &["--format", "stream-json"]);
    assert_stopped(
        "endless text",
        &out,
        "limits.text_bytes",
        "4 MiB",
        "the answer's text",
    );
    // What streamed before the cap was shown, and no more than the cap.
    let shown: usize = out
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "text")
        .map(|e| e["text"].as_str().unwrap_or_default().len())
        .sum();
    assert!(shown <= 4 << 20 && shown > (4 << 20) - 4000, "{shown}");
}

#[test]
fn endless_empty_events_reach_the_stream_limit_as_configured() {
    let s = Sandbox::new();
    let rt = runtime();
    let empty = "data: {\"choices\":[{\"index\":0,\"delta\":{}}]}\n\n";
    let server = rt.block_on(TestServer::script(vec![Reply::flood(
        200,
        "text/event-stream",
        TEXT_HEAD,
        empty,
        FLOOD,
    )]));
    s.user_config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m",
        "limits": {"stream_bytes": 16_777_216},
    }));
    let mut cmd = s.process_in(&s.project);
    cmd.args(["agent", "-m", "hi", "--format", "stream-json"]);
    let out = run_bounded(&mut cmd, DEADLINE);
    assert_stopped(
        "endless empty events",
        &out,
        "limits.stream_bytes",
        "16 MiB",
        "the streamed answer",
    );
}

#[test]
fn the_transcript_keeps_the_error_and_nothing_of_the_answer() {
    let tool_call = Reply::json(
        200,
        json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "list_directory", "arguments": "{\"path\":\".\"}"}}]},
            "finish_reason": "tool_calls"}]}),
    );
    let head = r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"GARBAGE"#;
    let flood = Reply::flood(200, "application/json", head, "x", FLOOD);
    let (s, out, _) = attack(vec![tool_call, flood], &[]);
    assert_stopped(
        "transcript",
        &out,
        "limits.response_bytes",
        "8 MiB",
        "the answer",
    );
    // Every line is a record; the last one is the error; no record holds the flood.
    let records = s.transcript();
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "session",
            "message",
            "usage",
            "message",
            "message",
            "model_error"
        ]
    );
    assert_eq!(
        records[5]["error"],
        "local: the answer is larger than the 8 MiB limit, so it was not read to the end; `limits.response_bytes` in the configuration raises the limit"
    );
    let file = std::fs::read_to_string(&s.transcripts()[0]).unwrap();
    assert!(!file.contains("GARBAGE"));
    assert!(file.len() < 64 * 1024, "{} bytes", file.len());
    let shown = s
        .weft()
        .args([
            "sessions",
            "show",
            records[0]["session_id"].as_str().unwrap(),
        ])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("[model error: local: the answer is larger than the 8 MiB limit"),
        "{shown}"
    );
}

#[test]
fn an_mcp_server_writing_one_endless_stderr_line() {
    let s = Sandbox::new();
    let rt = runtime();
    // The model answers after a while: the server floods stderr meanwhile, weft reads it all.
    let answer = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "done"}, "finish_reason": "stop"}]});
    let server = rt.block_on(TestServer::script(vec![
        Reply::json(200, answer).delay(Duration::from_millis(1500)),
    ]));
    let node = weft_testkit::mcp::node();
    let everything = weft_testkit::mcp::everything_server();
    let script = format!(
        "tr '\\000' e </dev/zero >&2 & exec '{}' '{}' stdio",
        node.display(),
        everything.display()
    );
    s.user_config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m",
        "mcp_servers": {"flood": {"command": "sh", "args": ["-c", script], "startup_timeout_secs": 20}},
    }));
    let mut cmd = s.process_in(&s.project);
    cmd.args(["-v", "agent", "-m", "hi"]);
    let out = run_bounded(&mut cmd, DEADLINE);
    println!("mcp stderr: peak RSS {} KiB", out.peak_rss_kib);
    assert_eq!(out.code, 0, "{}", &out.stderr[..out.stderr.len().min(2000)]);
    assert_eq!(out.stdout.trim(), "done");
    // The line was logged once, cut; the rest was read and dropped.
    assert_eq!(
        out.stderr.matches("[line cut at 2000 bytes]").count(),
        1,
        "{}",
        &out.stderr[..out.stderr.len().min(4000)]
    );
    assert!(out.stderr.len() < 64 * 1024, "{} bytes", out.stderr.len());
    assert!(
        out.peak_rss_kib < MAX_RSS_KIB,
        "peak RSS {} KiB",
        out.peak_rss_kib
    );
}

#[test]
fn a_message_on_stdin_over_its_limit_is_refused_before_anything_runs() {
    let s = Sandbox::new();
    let out = s
        .weft()
        .arg("agent")
        .write_stdin(vec![b'm'; (8 << 20) + 1])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: the piped input is larger than 8 MiB; pass a smaller part of it\n"
    );
    assert!(s.transcripts().is_empty());
}
