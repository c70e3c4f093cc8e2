//! memory_read and memory_write.

use serde_json::json;

use super::{Workspace, is_invalid};

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

#[tokio::test]
async fn a_memory_file_that_is_a_fifo_or_too_large_is_refused_without_blocking() {
    let ws = Workspace::new();
    let file = ws.outside().join("state/memory.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&file)
        .status()
        .unwrap();
    assert!(made.success());
    let fifo = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        ws.err("memory_read", json!({})),
    )
    .await
    .expect("memory_read blocked on a FIFO")
    .to_string();
    assert!(
        fifo.ends_with("is a FIFO (named pipe), not a regular file"),
        "{fifo}"
    );

    std::fs::remove_file(&file).unwrap();
    std::fs::write(&file, vec![b'a'; 4 * 1024 * 1024 + 1]).unwrap();
    let big = ws.err("memory_read", json!({})).await.to_string();
    assert!(
        big.ends_with("is larger than the 4 MiB limit for memory files"),
        "{big}"
    );
}
