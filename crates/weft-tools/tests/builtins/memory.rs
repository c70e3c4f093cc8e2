//! memory_read and memory_write.

use serde_json::json;

use crate::{Workspace, is_invalid};

#[tokio::test]
async fn memory_append_read_query_replace() {
    let ws = Workspace::new();
    assert_eq!(ws.ok("memory_read", json!({})).await, "(memory is empty)");
    let out = ws
        .ok("memory_write", json!({"content": "User prefers tabs."}))
        .await;
    assert!(out.contains("appended"), "{out}");
    ws.ok(
        "memory_write",
        json!({"content": "Project uses Rust 2024.\nTests run with cargo."}),
    )
    .await;
    assert_eq!(
        ws.ok("memory_read", json!({})).await,
        "User prefers tabs.\n\nProject uses Rust 2024.\nTests run with cargo.\n"
    );
    assert_eq!(
        ws.ok("memory_read", json!({"query": "RUST"})).await,
        "Project uses Rust 2024."
    );
    let none = ws.ok("memory_read", json!({"query": "python"})).await;
    assert!(none.contains("no memory lines"), "{none}");

    let out = ws
        .ok(
            "memory_write",
            json!({"content": "Only this.", "mode": "replace"}),
        )
        .await;
    assert!(out.contains("replaced"), "{out}");
    assert_eq!(ws.ok("memory_read", json!({})).await, "Only this.\n");
    // The memory file lives where the config says, outside the workspace.
    assert!(ws.outside().join("state/memory.md").exists());

    assert!(is_invalid(
        &ws.err("memory_write", json!({"content": "x", "mode": "prepend"}))
            .await
    ));
    assert!(is_invalid(
        &ws.err("memory_write", json!({"content": ""})).await
    ));
}
