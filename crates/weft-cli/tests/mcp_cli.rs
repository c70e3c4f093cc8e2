//! MCP on the real binary against npm's `@modelcontextprotocol/server-everything` (installed
//! on first use by `weft_testkit::mcp`; the tests fail, loudly, without Node.js): `weft mcp
//! list`, project servers only when trusted, MCP tools in the request, and a replayed run that
//! calls MCP tools through the gate (a call, an `isError` result, a denied call). The README's
//! MCP example is a configuration weft accepts and pins the version the tests run against.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use sandbox::{Sandbox, render, snapshot, stdout_json};
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
    snapshot!(s, "list_three_servers", render("mcp list", &out));

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
    let tools = list[0]["tools"].as_array().unwrap();
    assert!(
        tools.contains(&json!({"name": "echo", "qualified_name": "everything__echo"}))
            && tools.contains(&json!({"name": "get-sum", "qualified_name": "everything__get-sum"})),
        "{tools:?}"
    );
    assert_eq!(list[0]["tool_count"], tools.len());
    // The table lists the same names as the JSON's `name`, in the same order.
    let table = s.weft().args(["mcp", "list"]).output().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(table.contains(&names.join(", ")), "{table}");
}

#[test]
fn a_server_that_does_not_start_in_time_names_the_setting_to_raise() {
    let s = Sandbox::new();
    s.user_config(&json!({"mcp_servers": {
        "slow": {"command": "sleep", "args": ["30"], "startup_timeout_secs": 1},
    }}));
    let out = s
        .weft()
        .args(["mcp", "list", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let list = stdout_json(&out);
    assert_eq!(list[0]["status"], "failed");
    assert_eq!(
        list[0]["reason"],
        "it did not start within 1 s (a first `npx -y` run downloads the package first); raise `mcp_servers.slow.startup_timeout_secs` in the configuration if it needs longer"
    );
}

#[test]
fn project_servers_start_only_when_the_project_is_trusted() {
    let s = Sandbox::new();
    s.project_config(&json!({"mcp_servers": {"everything": everything()}}));
    let out = s.weft().args(["mcp", "list"]).output().unwrap();
    assert!(out.status.success());
    snapshot!(s, "list_untrusted_project", render("mcp list", &out));
    let out = s
        .weft()
        .args(["--trust-project-skills", "mcp", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(stdout_json(&out)[0]["status"], "running");
}

#[test]
fn mcp_json_servers_start_only_when_the_project_is_trusted_or_the_server_approved() {
    let s = Sandbox::new();
    // Claude Code's `.mcp.json`, with `${VAR:-default}` in the arguments.
    s.file(
        ".mcp.json",
        &json!({"mcpServers": {"everything": {"command": "node", "args": [everything_js(), "${EVERYTHING_TRANSPORT:-stdio}"]}}})
            .to_string(),
    );
    let list = |flags: &[&str]| {
        let out = s
            .weft()
            .args(flags)
            .args(["mcp", "list", "--format", "json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout_json(&out)[0].clone()
    };
    let untrusted = list(&[]);
    assert_eq!(
        (&untrusted["source"], &untrusted["status"]),
        (&json!(".mcp.json"), &json!("not approved"))
    );
    assert_eq!(
        untrusted["reason"],
        "the project is not trusted; start it with `weft mcp approve everything` (remembered for this project) or --trust-project"
    );
    assert_eq!(list(&["--trust-project"])["status"], "running");
    // Approved by name, it starts in the untrusted project; revoked, it does not.
    let weft_mcp = |verb: &str| {
        let out = s.weft().args(["mcp", verb, "everything"]).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    weft_mcp("approve");
    assert_eq!(list(&[])["status"], "running");
    weft_mcp("revoke");
    assert_eq!(list(&[])["status"], "not approved");
    // `disabledMcpjsonServers` keeps it off even in a trusted project.
    s.file(
        ".claude/settings.json",
        &json!({"disabledMcpjsonServers": ["everything"]}).to_string(),
    );
    assert_eq!(list(&["--trust-project"])["status"], "disabled");
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
    let recording = s.recording("mcp.jsonl", &turns);
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
    let messages = s.messages();
    let result = |id: &str| {
        messages
            .iter()
            .find(|m| m["tool_call_id"] == id)
            .unwrap_or_else(|| panic!("no result for {id}: {messages:?}"))
            .clone()
    };
    assert_eq!(result("c1")["content"], "Echo: hi");
    assert_ne!(result("c1")["is_error"], json!(true));
    let (invalid, denied) = (result("c2"), result("c3"));
    assert_eq!(invalid["is_error"], json!(true));
    assert_eq!(denied["is_error"], json!(true));
    // What the model reads for a call the server rejects and for one the gate denies.
    let text = format!(
        "c2 (invalid arguments):\n{}\n\nc3 (denied):\n{}\n",
        invalid["content"].as_str().unwrap(),
        denied["content"].as_str().unwrap()
    );
    snapshot!(s, "error_results", text);
}

/// The ```json block of docs/GUIDE.md (the README's guide) that configures `mcp_servers`.
fn readme_mcp_example() -> Value {
    let readme = std::fs::read_to_string(sandbox::repo().join("docs/GUIDE.md")).unwrap();
    let block = readme
        .split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split("```").next())
        .find(|block| block.contains("\"mcp_servers\""))
        .expect("docs/GUIDE.md has a ```json example with mcp_servers");
    serde_json::from_str(block).unwrap()
}

#[test]
fn the_readme_example_pins_the_server_version_the_tests_install() {
    let example = readme_mcp_example();
    let args = example["mcp_servers"]["everything"]["args"]
        .as_array()
        .unwrap();
    let package = "@modelcontextprotocol/server-everything";
    let pinned = args
        .iter()
        .filter_map(Value::as_str)
        .find_map(|a| a.strip_prefix(&format!("{package}@")))
        .expect("the example pins a version: @modelcontextprotocol/server-everything@<version>");

    let pins = sandbox::repo().join("scripts/mcp-test-server");
    let read_json = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(pins.join(name)).unwrap()).unwrap()
    };
    assert_eq!(read_json("package.json")["dependencies"][package], pinned);
    assert_eq!(
        read_json("package-lock.json")["packages"][format!("node_modules/{package}")]["version"],
        pinned
    );
    let script =
        std::fs::read_to_string(sandbox::repo().join("scripts/install-mcp-test-server.sh"))
            .unwrap();
    let version = script
        .lines()
        .find_map(|l| l.strip_prefix("VERSION=\""))
        .and_then(|rest| rest.split('"').next());
    assert_eq!(version, Some(pinned));

    // And weft reads it as it is: no unknown key, the timeout a first `npx -y` needs.
    let s = Sandbox::new();
    let config = s.config(&example);
    let out = s
        .weft()
        .arg("--config")
        .arg(&config)
        .args([
            "config",
            "show",
            "mcp_servers.everything.startup_timeout_secs",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", sandbox::stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "120\n");
}
