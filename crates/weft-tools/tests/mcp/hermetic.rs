//! The hermetic test server: listing, calls, `isError`, timeouts, crashes and restarts,
//! slow starts.

use std::time::{Duration, Instant};

use serde_json::json;
use weft_tools::{McpManager, McpServerConfig, McpServerState, ToolError};

use super::{Scratch, eventually, failed, hermetic, kill, process_exists, start};

#[tokio::test]
async fn lists_tools_with_the_servers_descriptions_and_schemas() {
    let scratch = Scratch::new();
    let (manager, registry) = start(vec![hermetic("hermetic", &scratch)]).await;
    let status = manager.status();
    assert_eq!(status.len(), 1);
    assert_eq!(status[0].name, "hermetic");
    assert_eq!(status[0].state, McpServerState::Running);
    assert_eq!(
        status[0].tools,
        [
            "hermetic__crash",
            "hermetic__echo",
            "hermetic__fail",
            "hermetic__slow"
        ]
    );
    assert!(status[0].pid.is_some());
    let names: Vec<&str> = registry.names().collect();
    assert_eq!(names, status[0].tools);
    let echo = registry.get("hermetic__echo").unwrap();
    assert_eq!(echo.description(), "Echoes the text back.");
    // The server's readOnlyHint is kept (a permission mode lets such a tool run unasked);
    // a tool without it is not read-only.
    assert!(echo.read_only_hint());
    assert!(!registry.get("hermetic__fail").unwrap().read_only_hint());
    assert_eq!(
        echo.input_schema(),
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
    );
    assert_eq!(scratch.log(), ["start"]);
}

#[tokio::test]
async fn calls_reach_the_server_and_is_error_results_are_errors() {
    let scratch = Scratch::new();
    let (_manager, registry) = start(vec![hermetic("h", &scratch)]).await;
    let out = registry
        .get("h__echo")
        .unwrap()
        .call(json!({"text": "hello"}))
        .await
        .unwrap();
    assert_eq!(out.content, "echo: hello");
    let err = registry.get("h__fail").unwrap().call(json!({})).await;
    assert_eq!(failed(err.unwrap_err()), "it failed on purpose");
    let err = registry.get("h__echo").unwrap().call(json!([1])).await;
    assert!(matches!(err, Err(ToolError::InvalidInput(_))), "{err:?}");
    assert_eq!(scratch.log(), ["start", "call echo", "call fail"]);
}

#[tokio::test]
async fn a_crash_gets_one_restart_and_then_the_tools_are_unavailable() {
    let scratch = Scratch::new();
    let (manager, registry) = start(vec![hermetic("h", &scratch)]).await;
    let crash = registry.get("h__crash").unwrap();
    let echo = registry.get("h__echo").unwrap();
    let first_pid = manager.status()[0].pid.unwrap();

    let err = failed(crash.call(json!({})).await.unwrap_err());
    assert!(
        err.starts_with("MCP server `h` crashed during the call to `crash`: "),
        "{err}"
    );
    assert!(
        err.contains("it was restarted; the call was not retried"),
        "{err}"
    );
    assert!(
        err.contains("test server: crashing on purpose"),
        "stderr tail: {err}"
    );
    let status = &manager.status()[0];
    assert_eq!(status.state, McpServerState::Running);
    assert_eq!(status.restarts, 1);
    assert_ne!(status.pid, Some(first_pid));
    let out = echo.call(json!({"text": "again"})).await.unwrap();
    assert_eq!(out.content, "echo: again");

    let err = failed(crash.call(json!({})).await.unwrap_err());
    assert!(err.contains("crashed again after its one restart"), "{err}");
    assert!(err.ends_with("its tools are unavailable"), "{err}");
    let status = &manager.status()[0];
    assert!(
        matches!(status.state, McpServerState::Failed(_)),
        "{status:?}"
    );
    assert_eq!(status.restarts, 1);
    let err = failed(echo.call(json!({"text": "x"})).await.unwrap_err());
    assert!(
        err.starts_with("MCP server `h` is not running: it crashed again after its one restart"),
        "{err}"
    );
    assert_eq!(scratch.count("start"), 2, "{:?}", scratch.log());
    assert_eq!(scratch.count("call echo"), 1);
}

#[tokio::test]
async fn a_failed_restart_leaves_the_tools_unavailable() {
    let scratch = Scratch::new();
    let marker = scratch.path("started");
    let config = hermetic("h", &scratch).with_args(["--once", marker.to_str().unwrap()]);
    let (manager, registry) = start(vec![config]).await;
    let err = failed(
        registry
            .get("h__crash")
            .unwrap()
            .call(json!({}))
            .await
            .unwrap_err(),
    );
    assert!(err.contains("it crashed and its restart failed"), "{err}");
    assert!(err.contains("refusing to start twice"), "{err}");
    assert!(matches!(
        manager.status()[0].state,
        McpServerState::Failed(_)
    ));
    let err = failed(
        registry
            .get("h__echo")
            .unwrap()
            .call(json!({"text": "x"}))
            .await
            .unwrap_err(),
    );
    assert!(
        err.starts_with("MCP server `h` is not running: it crashed and its restart failed"),
        "{err}"
    );
}

#[tokio::test]
async fn a_server_killed_while_idle_is_restarted_by_the_next_call() {
    let scratch = Scratch::new();
    let (manager, registry) = start(vec![hermetic("h", &scratch)]).await;
    let pid = manager.status()[0].pid.unwrap();
    kill(pid);
    assert!(
        eventually(|| matches!(manager.status()[0].state, McpServerState::Crashed(_))).await,
        "{:?}",
        manager.status()
    );
    let out = registry
        .get("h__echo")
        .unwrap()
        .call(json!({"text": "back"}))
        .await
        .unwrap();
    assert_eq!(out.content, "echo: back");
    assert_eq!(manager.status()[0].restarts, 1);
    manager.shutdown().await;
    let new_pid = manager.status()[0].pid;
    assert_eq!(new_pid, None);
    let err = failed(
        registry
            .get("h__echo")
            .unwrap()
            .call(json!({"text": "x"}))
            .await
            .unwrap_err(),
    );
    assert_eq!(err, "MCP server `h` is not running: shut down");
}

#[tokio::test]
async fn shutdown_ends_the_process() {
    let scratch = Scratch::new();
    let (manager, _registry) = start(vec![hermetic("h", &scratch)]).await;
    let pid = manager.status()[0].pid.unwrap();
    assert!(process_exists(pid));
    manager.shutdown().await;
    assert!(
        eventually(|| !process_exists(pid)).await,
        "{pid} still runs"
    );
}

#[tokio::test]
async fn a_slow_call_times_out_and_the_server_keeps_working() {
    let scratch = Scratch::new();
    let config = hermetic("h", &scratch).with_call_timeout(Duration::from_millis(300));
    let (_manager, registry) = start(vec![config]).await;
    let started = Instant::now();
    let err = registry
        .get("h__slow")
        .unwrap()
        .call(json!({"ms": 5000}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::Timeout(d) if d == Duration::from_millis(300)));
    assert!(started.elapsed() < Duration::from_secs(3));
    let out = registry
        .get("h__slow")
        .unwrap()
        .call(json!({"ms": 10}))
        .await
        .unwrap();
    assert_eq!(out.content, "slept 10 ms");
}

#[tokio::test]
async fn a_slow_start_is_bounded_by_its_timeout_and_the_others_still_start() {
    let slow_scratch = Scratch::new();
    let scratch = Scratch::new();
    let slow = hermetic("slow", &slow_scratch)
        .with_args(["--slow-start", "20000"])
        .with_startup_timeout(Duration::from_millis(700));
    let fast = hermetic("fast", &scratch);
    let started = Instant::now();
    let (manager, registry) = start(vec![slow, fast]).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let status = manager.status();
    assert_eq!(status[0].name, "slow");
    assert!(
        matches!(&status[0].state, McpServerState::Failed(r) if r.starts_with("it did not start within 700 ms")
            && r.contains("raise `mcp_servers.slow.startup_timeout_secs`")),
        "{:?}",
        status[0].state
    );
    assert!(status[0].tools.is_empty());
    assert_eq!(status[1].state, McpServerState::Running);
    assert!(registry.contains("fast__echo"));
    assert!(!registry.names().any(|n| n.starts_with("slow__")));
}

#[tokio::test]
async fn bad_configurations_fail_alone() {
    let scratch = Scratch::new();
    let (manager, registry) = start(vec![
        McpServerConfig::new("a__b", "x"),
        McpServerConfig::new("missing", "/nonexistent/mcp-server"),
        hermetic("ok", &scratch),
        hermetic("ok", &scratch),
    ])
    .await;
    let status = manager.status();
    let reasons: Vec<String> = status.iter().map(|s| s.state.to_string()).collect();
    assert!(
        reasons[0].starts_with("failed: invalid MCP server name `a__b`"),
        "{reasons:?}"
    );
    assert!(
        reasons[1].starts_with("failed: cannot run `/nonexistent/mcp-server`"),
        "{reasons:?}"
    );
    assert_eq!(reasons[2], "running");
    assert_eq!(reasons[3], "failed: another MCP server is also called `ok`");
    assert_eq!(registry.len(), 4);
    assert_eq!(scratch.count("start"), 1);
}

#[tokio::test]
async fn no_servers_means_no_tools() {
    let manager = McpManager::start(Vec::new()).await;
    assert!(manager.is_empty());
    assert!(manager.tools().is_empty());
    assert!(manager.status().is_empty());
}

#[test]
fn sessions_run_on_the_runtime_that_started_them() {
    // The CLI starts the servers on a runtime of their own and calls from the agent's.
    let scratch = Scratch::new();
    let config = hermetic("h", &scratch);
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let manager = McpManager::start(vec![config]).await;
            ready_tx.send(manager.clone()).unwrap();
            let _ = stop_rx.await;
            manager.shutdown().await;
        });
    });
    let manager = ready_rx.recv().unwrap();
    let tools = manager.tools();
    let find = |name: &str| tools.iter().find(|t| t.name() == name).unwrap().clone();
    let agent_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    agent_rt.block_on(async {
        let out = find("h__echo").call(json!({"text": "a"})).await.unwrap();
        assert_eq!(out.content, "echo: a");
        let err = failed(find("h__crash").call(json!({})).await.unwrap_err());
        assert!(err.contains("it was restarted"), "{err}");
    });
    // Between turns the agent's runtime is idle; the restarted session still answers.
    agent_rt.block_on(async {
        let out = find("h__echo").call(json!({"text": "b"})).await.unwrap();
        assert_eq!(out.content, "echo: b");
    });
    stop_tx.send(()).unwrap();
    thread.join().unwrap();
    assert_eq!(scratch.count("start"), 2);
}
