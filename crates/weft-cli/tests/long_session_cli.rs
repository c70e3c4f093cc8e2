//! Long sessions through the binary: a conversation continued run after run (`-c`) against
//! a loopback provider that counts tokens and caches prefixes like OpenAI, until it is
//! compacted; the JSON output's usage (cache reads included), cost and context; resuming
//! from the compaction; a large tool result cut with the whole readable; `sessions show`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::sync::{Arc, Mutex};

use sandbox::server::{Reply, ScriptServer, openai_messages};
use sandbox::{Sandbox, stderr, stdout};
use serde_json::{Value, json};

/// What the summary request asks (the start of its instruction).
const SUMMARY_ASK: &str = "Your next answer replaces the conversation above";

fn last_user(body: &Value) -> String {
    openai_messages(body)
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned()
}

/// A provider like OpenAI's: prompt tokens counted from the request (4 bytes a token), the
/// part the previous request shared read from the cache (in 128-token blocks past 1,024),
/// completion tokens from the answer. It answers `read <file>` with a `read_file` call, a
/// summary request with a summary, anything else with `answer` padded to 3 KB.
async fn provider() -> ScriptServer {
    let previous: Arc<Mutex<String>> = Arc::default();
    ScriptServer::respond("/v1/chat/completions", move |n, body| {
        let sent = serde_json::to_string(openai_messages(body)).unwrap();
        let shared = {
            let mut previous = previous.lock().unwrap();
            let common = previous
                .bytes()
                .zip(sent.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            *previous = sent.clone();
            common / 4
        };
        let cached = if shared >= 1024 { shared / 128 * 128 } else { 0 };
        let last = openai_messages(body).last().unwrap().clone();
        let user = last_user(body);
        let message = if user.starts_with(SUMMARY_ASK) {
            json!({"role": "assistant", "content": "## Task\nAnswer the questions.\n## Open items\nNone."})
        } else if let Some(file) = user.strip_prefix("read ").filter(|_| last["role"] == "user") {
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": format!("c{n}"), "type": "function",
                "function": {"name": "read_file", "arguments": json!({"path": file}).to_string()}}]})
        } else {
            json!({"role": "assistant", "content": format!("answer {n} {}", "z".repeat(3000))})
        };
        let finish = if message.get("tool_calls").is_some() { "tool_calls" } else { "stop" };
        Reply::Json(
            200,
            json!({
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": body.to_string().len() / 4,
                          "completion_tokens": message.to_string().len() / 4,
                          "prompt_tokens_details": {"cached_tokens": cached}},
            }),
        )
    })
    .await
}

/// `weft --config <provider with a 6,000-token window and prices> agent ARGS`.
fn agent(s: &Sandbox, server: &ScriptServer, args: &[&str]) -> std::process::Output {
    let config = s.config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m",
        "agent": {"context_window": 6000},
        "pricing": {"local/m": {"input": 2.0, "output": 8.0, "cache_read": 0.5}},
    }));
    s.weft()
        .arg("--config")
        .arg(config)
        .arg("agent")
        .args(args)
        .output()
        .unwrap()
}

fn events(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn a_session_continued_run_after_run_is_compacted_and_resumes_from_the_summary() {
    let s = Sandbox::new();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(provider());
    // A PreCompact hook of the user's settings sees each compaction before it starts.
    let log = s.home.join("precompact.log");
    let settings = json!({"hooks": {"PreCompact": [{"hooks": [{"type": "command",
        "command": format!("cat >> '{}'; echo >> '{}'", log.display(), log.display())}]}]}});
    std::fs::create_dir_all(s.home.join(".claude")).unwrap();
    std::fs::write(
        s.home.join(".claude/settings.json"),
        serde_json::to_vec(&settings).unwrap(),
    )
    .unwrap();
    let mut compactions = Vec::new();
    let mut results = Vec::new();
    for i in 0..8 {
        let mut args = vec!["--format", "stream-json", "-m"];
        let message = format!("question {i}");
        args.push(&message);
        if i > 0 {
            args.push("-c");
        }
        let out = agent(&s, &server, &args);
        assert!(out.status.success(), "run {i}: {}", stderr(&out));
        let events = events(&out);
        assert_eq!(events[0]["type"], "session");
        assert_eq!(events[0]["context"]["window"], 6000);
        compactions.extend(events.iter().filter(|e| e["type"] == "compaction").cloned());
        results.push(events.last().unwrap().clone());
    }
    // One session, compacted on its own before it outgrew the window.
    assert_eq!(s.transcripts().len(), 1);
    assert!(!compactions.is_empty(), "{results:#?}");
    let first = &compactions[0];
    assert_eq!(first["trigger"], "auto");
    assert!(first["tokens_after"].as_u64() < first["tokens_before"].as_u64());
    for result in &results {
        assert_eq!(result["is_error"], false, "{result:#}");
        assert!(result["context"]["tokens"].as_u64().unwrap() < 6000);
        // Usage as the provider reported it, cache reads included, and what it cost.
        let usage = &result["usage"];
        assert!(usage["cache_read_tokens"].as_u64() <= usage["input_tokens"].as_u64());
        assert_eq!(usage["cache_write_tokens"], 0);
        assert!(result["cost_usd"].as_f64().unwrap() > 0.0, "{result:#}");
    }
    let compacted_runs = results
        .iter()
        .filter(|r| r["compactions"].as_u64() > Some(0))
        .count();
    assert_eq!(compacted_runs, compactions.len());
    let hook_inputs: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(hook_inputs.len(), compactions.len(), "{hook_inputs:#?}");
    for input in &hook_inputs {
        assert_eq!(input["hook_event_name"], "PreCompact");
        assert_eq!(input["trigger"], "auto");
    }
    // Later runs read most of their prompt from the cache.
    assert!(
        results[1..]
            .iter()
            .any(|r| r["usage"]["cache_read_tokens"].as_u64() > Some(0)),
        "{results:#?}"
    );

    // The next run resumes from the summary: the request starts with it.
    let out = agent(&s, &server, &["-m", "one more", "-c"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let last = server.bodies().pop().unwrap();
    let first_message = openai_messages(&last)[1]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        first_message.starts_with("[Conversation summary]"),
        "{first_message}"
    );
    // `sessions show` says where it was compacted.
    let id = results[0]["session_id"].as_str().unwrap();
    let out = s.weft().args(["sessions", "show", id]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("[compacted (auto): "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_large_tool_result_is_cut_and_its_file_is_named_and_kept() {
    let s = Sandbox::new();
    let big: String = (1..=4000)
        .map(|i| format!("line {i} of the log\n"))
        .collect();
    s.file("big.log", &big);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(provider());
    let out = agent(&s, &server, &["--format", "json", "-m", "read big.log"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = doc["tool_calls"][0]["content"].as_str().unwrap();
    // The window is 6,000 tokens: a result keeps at most 3,000 bytes.
    assert!(content.len() < 3000 + 600, "{}", content.len());
    assert!(content.starts_with("line 1 of the log\n"));
    let path = content
        .split("The whole result is in ")
        .nth(1)
        .and_then(|r| r.split(": read it").next())
        .unwrap();
    assert!(
        path.starts_with(s.sessions().canonicalize().unwrap().to_str().unwrap()),
        "{path}"
    );
    assert_eq!(std::fs::read_to_string(path).unwrap(), big);
}
