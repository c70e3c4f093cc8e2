//! MCP on the real binary against npm's `@modelcontextprotocol/server-everything` (installed
//! on first use by `weft_testkit::mcp`; the tests fail, loudly, without Node.js): `weft mcp
//! list`, project servers only when trusted, MCP tools in the request, and a replayed run that
//! calls MCP tools through the gate (a call, an `isError` result, a denied call).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sandbox;

use sandbox::Sandbox;
use serde_json::{Value, json};

/// The installed server's entry point.
fn everything_js() -> String {
    weft_testkit::mcp::everything_server()
        .to_str()
        .unwrap()
        .to_owned()
}

fn everything() -> Value {
    json!({"command": "node", "args": [everything_js(), "stdio"], "startup_timeout_secs": 20})
}

/// The one transcript's messages.
fn messages(s: &Sandbox) -> Vec<Value> {
    s.transcript()
        .into_iter()
        .filter(|r| r["type"] == "message")
        .map(|r| r["message"].clone())
        .collect()
}

fn stdout_json(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn mcp_list_shows_status_and_tools() {
    let s = Sandbox::new();
    s.user_config(&json!({"mcp_servers": {
        "everything": everything(),
        "broken": {"command": "/nonexistent/server"},
        "off": {"command": "x", "enabled": false},
    }}));
    let out = s.weft().args(["mcp", "list"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a server did not start");
    let table = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!("list_table", table);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("NAME"), "{table}");
    let broken = lines.iter().find(|l| l.starts_with("broken")).unwrap();
    assert!(
        broken.contains("failed") && broken.contains("cannot run `/nonexistent/server`"),
        "{table}"
    );
    let every = lines.iter().find(|l| l.starts_with("everything")).unwrap();
    assert!(
        every.contains("running") && every.contains("echo, "),
        "{table}"
    );
    let off = lines.iter().find(|l| l.starts_with("off")).unwrap();
    assert!(off.contains("disabled"), "{table}");

    s.user_config(&json!({"mcp_servers": {"everything": everything()}}));
    let out = s
        .weft()
        .args(["mcp", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let list = stdout_json(&out);
    assert_eq!(list[0]["name"], "everything");
    assert_eq!(list[0]["status"], "running");
    let tools: Vec<&str> = list[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        tools.contains(&"everything__echo") && tools.contains(&"everything__get-sum"),
        "{tools:?}"
    );
    assert_eq!(list[0]["tool_count"], tools.len());
}

#[test]
fn project_servers_start_only_when_the_project_is_trusted() {
    let s = Sandbox::new();
    s.project_config(&json!({"mcp_servers": {"everything": everything()}}));
    s.weft()
        .args(["mcp", "list"])
        .assert()
        .success()
        .stdout(predicates::str::starts_with(
            "no MCP servers are configured",
        ))
        .stderr(predicates::str::contains(
            "project config `mcp_servers` ignored",
        ));
    let out = s
        .weft()
        .args(["--trust-project-skills", "mcp", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout_json(&out)[0]["status"], "running");
}

#[test]
fn the_request_offers_mcp_tools_only_to_agents_that_may_use_them() {
    let s = Sandbox::new();
    s.user_config(&json!({"mcp_servers": {"everything": everything()}}));
    let tool_names = |agent: &str| -> Vec<String> {
        let out = s
            .weft()
            .args(["agent", "--dry-run", "--agent", agent, "-m", "hi"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc = stdout_json(&out);
        doc["request"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let default = tool_names("default");
    assert!(
        default.iter().any(|t| t == "everything__echo"),
        "{default:?}"
    );
    let explore = tool_names("explore");
    assert!(
        !explore.iter().any(|t| t.starts_with("everything__")),
        "{explore:?}"
    );
}

#[test]
fn a_replayed_run_calls_mcp_tools_through_the_gate() {
    let s = Sandbox::new();
    let turns = [
        json!({"tool_calls": [
            {"id": "c1", "name": "everything__echo", "arguments": {"message": "hi"}},
            {"id": "c2", "name": "everything__echo", "arguments": {}},
            {"id": "c3", "name": "mcp__everything__get-sum", "arguments": {"a": 1, "b": 2}},
        ]}),
        json!({"content": "done"}),
    ];
    let recording = s.outside(
        "mcp.jsonl",
        &turns
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    s.user_config(&json!({
        "providers": {"demo": {"kind": "replay", "file": recording}},
        "model": "demo/recorded",
        "tools": {"deny": ["everything__get-sum"]},
        "mcp_servers": {"everything": everything()},
    }));
    s.weft()
        .args(["agent", "-m", "use the tools"])
        .assert()
        .success()
        .stdout("done\n");
    let messages = messages(&s);
    let result = |id: &str| {
        messages
            .iter()
            .find(|m| m["tool_call_id"] == id)
            .unwrap_or_else(|| panic!("no result for {id}: {messages:?}"))
            .clone()
    };
    assert_eq!(result("c1")["content"], "Echo: hi");
    assert_ne!(result("c1")["is_error"], json!(true));
    let invalid = result("c2");
    assert_eq!(invalid["is_error"], json!(true));
    assert!(
        invalid["content"]
            .as_str()
            .unwrap()
            .contains("Invalid arguments for tool echo"),
        "{invalid}"
    );
    let denied = result("c3");
    assert_eq!(denied["is_error"], json!(true));
    assert!(
        denied["content"]
            .as_str()
            .unwrap()
            .starts_with("permission denied"),
        "{denied}"
    );
}
