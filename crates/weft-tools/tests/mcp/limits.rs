//! Both outputs of a server read with caps, against the hermetic server flooding them: a
//! stderr line of 64 MiB is logged cut at 2,000 bytes while calls go on, and a message on
//! stdout that never ends closes the session at the message limit with an error naming it
//! (the server is then restarted like after a crash). The memory of the `weft` binary under
//! an endless stderr line is measured in weft-cli's `limits_cli` tests.

use serde_json::json;
use weft_tools::McpServerState;

use super::{Scratch, eventually, failed, hermetic, process_exists, start};

#[tokio::test]
async fn a_long_stderr_line_is_cut_and_calls_go_on_meanwhile() {
    let scratch = Scratch::new();
    let config = hermetic("h", &scratch).with_args(["--flood-stderr", "64"]);
    let (_manager, registry) = start(vec![config]).await;
    let echo = registry.get("h__echo").unwrap();
    for i in 0..3 {
        let out = echo.call(json!({"text": i.to_string()})).await.unwrap();
        assert_eq!(out.content, format!("echo: {i}"));
    }
    // The whole line was read (the server could write all of it) and the next one too.
    assert!(
        eventually(|| scratch.count("flooded") == 1).await,
        "{:?}",
        scratch.log()
    );
    let err = failed(
        registry
            .get("h__crash")
            .unwrap()
            .call(json!({}))
            .await
            .unwrap_err(),
    );
    let cut = format!("{} [line cut at 2000 bytes]", "e".repeat(2000));
    let tail = format!(
        "its stderr ends with: {cut} | test server: flood over | test server: crashing on purpose"
    );
    assert!(err.contains(&tail), "{}", &err[..err.len().min(400)]);
}

#[tokio::test]
async fn a_message_that_never_ends_closes_the_session_at_the_limit() {
    let scratch = Scratch::new();
    let config = hermetic("h", &scratch)
        .with_args(["--flood-tool"])
        .with_max_message_bytes(1 << 20);
    let (manager, registry) = start(vec![config]).await;
    let pid = manager.status()[0].pid.unwrap();
    let err = failed(
        registry
            .get("h__flood")
            .unwrap()
            .call(json!({}))
            .await
            .unwrap_err(),
    );
    assert!(
        err.starts_with(
            "MCP server `h` crashed during the call to `flood`: MCP server `h` sent a message larger than the 1 MiB limit for one message, so weft closed the connection; `limits.mcp_message_bytes` in the configuration raises the limit"
        ),
        "{err}"
    );
    assert!(
        err.contains("it was restarted; the call was not retried"),
        "{err}"
    );
    // The flooding process was killed at once; its successor answers.
    assert!(
        eventually(|| !process_exists(pid)).await,
        "{pid} still runs"
    );
    assert_eq!(manager.status()[0].state, McpServerState::Running);
    let out = registry
        .get("h__echo")
        .unwrap()
        .call(json!({"text": "after"}))
        .await
        .unwrap();
    assert_eq!(out.content, "echo: after");
}
