//! npm's `@modelcontextprotocol/server-everything`, the reference server: listing, calls,
//! `isError` results, a crash. Installed on first use by `weft_testkit::mcp`.

use std::time::Duration;

use serde_json::json;
use weft_tools::{McpServerConfig, McpServerState, ToolError};

use super::{eventually, kill, start};

use weft_testkit::mcp::{everything_server as everything_js, node};

#[allow(clippy::disallowed_methods)] // the server needs PATH and HOME to run
fn everything() -> McpServerConfig {
    let mut config = McpServerConfig::new("everything", node().to_str().unwrap())
        .with_args([everything_js().to_str().unwrap(), "stdio"])
        .with_startup_timeout(Duration::from_secs(20))
        .with_call_timeout(Duration::from_secs(10));
    for key in ["PATH", "HOME"] {
        if let Ok(value) = std::env::var(key) {
            config = config.with_env(key, value);
        }
    }
    config
}

#[tokio::test]
async fn lists_calls_and_reports_is_error() {
    let (manager, registry) = start(vec![everything()]).await;
    let status = &manager.status()[0];
    assert_eq!(status.state, McpServerState::Running, "{status:?}");
    for tool in ["everything__echo", "everything__get-sum"] {
        assert!(status.tools.iter().any(|t| t == tool), "{:?}", status.tools);
    }
    let echo = registry.get("everything__echo").unwrap();
    assert_eq!(echo.description(), "Echoes back the input string");
    assert_eq!(
        echo.input_schema()["properties"]["message"]["type"],
        "string"
    );

    let out = echo.call(json!({"message": "hi"})).await.unwrap();
    assert_eq!(out.content, "Echo: hi");
    let sum = registry.get("everything__get-sum").unwrap();
    let out = sum.call(json!({"a": 2, "b": 3})).await.unwrap();
    assert_eq!(out.content, "The sum of 2 and 3 is 5.");

    // Arguments the server rejects come back as an `isError` result.
    let err = echo.call(json!({})).await.unwrap_err();
    let ToolError::Failed(text) = err else {
        panic!("{err:?}")
    };
    assert!(text.contains("Invalid arguments for tool echo"), "{text}");
    manager.shutdown().await;
}

#[tokio::test]
async fn a_crashed_server_is_restarted_once() {
    let (manager, registry) = start(vec![everything()]).await;
    let pid = manager.status()[0].pid.unwrap();
    kill(pid);
    assert!(eventually(|| !manager.status()[0].state.is_running()).await);
    let out = registry
        .get("everything__echo")
        .unwrap()
        .call(json!({"message": "again"}))
        .await
        .unwrap();
    assert_eq!(out.content, "Echo: again");
    let status = &manager.status()[0];
    assert_eq!(status.restarts, 1);
    kill(status.pid.unwrap());
    assert!(eventually(|| !manager.status()[0].state.is_running()).await);
    let err = registry
        .get("everything__echo")
        .unwrap()
        .call(json!({"message": "x"}))
        .await
        .unwrap_err();
    let ToolError::Failed(text) = err else {
        panic!("{err:?}")
    };
    assert!(
        text.starts_with(
            "MCP server `everything` is not running: it crashed again after its one restart"
        ),
        "{text}"
    );
}
