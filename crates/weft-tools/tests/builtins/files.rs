//! read_file, write_file, edit_file, list_directory.

use serde_json::json;
use weft_tools::ToolError;

use super::{Workspace, is_invalid, is_outside};

#[tokio::test]
async fn read_file_whole_and_by_lines() {
    let ws = Workspace::new();
    ws.write("notes.txt", "one\ntwo\nthree\nfour\n");
    assert_eq!(
        ws.ok("read_file", json!({"path": "notes.txt"})).await,
        "one\ntwo\nthree\nfour\n"
    );
    assert_eq!(
        ws.ok(
            "read_file",
            json!({"path": "notes.txt", "offset": 2, "limit": 2})
        )
        .await,
        "two\nthree\n"
    );
    assert_eq!(
        ws.ok("read_file", json!({"path": "notes.txt", "offset": 4}))
            .await,
        "four\n"
    );
    let past = ws
        .ok("read_file", json!({"path": "notes.txt", "offset": 9}))
        .await;
    assert!(
        past.contains("past the end") && past.contains("4 lines"),
        "{past}"
    );
    let absolute = ws.base().join("notes.txt");
    assert_eq!(
        ws.ok("read_file", json!({"path": absolute, "limit": 1}))
            .await,
        "one\n"
    );
    assert!(is_invalid(
        &ws.err("read_file", json!({"path": "notes.txt", "offset": 0}))
            .await
    ));
    assert!(is_invalid(&ws.err("read_file", json!({})).await));
    assert!(is_invalid(
        &ws.err("read_file", json!({"path": "notes.txt", "lines": 3}))
            .await
    ));
}

#[tokio::test]
async fn read_file_refuses_directories_binaries_and_missing_files_and_caps_output() {
    let ws = Workspace::new();
    ws.write("dir/x", "x");
    ws.write("blob.bin", b"abc\0def");
    ws.write("latin1.txt", b"caf\xe9\n");
    ws.write("big.txt", "0123456789\n".repeat(30_000));
    let dir = ws
        .err("read_file", json!({"path": "dir"}))
        .await
        .to_string();
    assert!(dir.contains("is a directory"), "{dir}");
    let bin = ws
        .err("read_file", json!({"path": "blob.bin"}))
        .await
        .to_string();
    assert!(bin.contains("binary"), "{bin}");
    let made = std::process::Command::new("mkfifo")
        .arg(ws.base().join("pipe"))
        .status()
        .unwrap();
    assert!(made.success());
    let fifo = ws
        .err("read_file", json!({"path": "pipe"}))
        .await
        .to_string();
    assert!(
        fifo.ends_with("pipe is a FIFO (named pipe), not a regular file"),
        "{fifo}"
    );
    // edit_file and grep open it the same way: refused, never waited on.
    let edit = ws
        .err(
            "edit_file",
            json!({"path": "pipe", "old_string": "a", "new_string": "b"}),
        )
        .await
        .to_string();
    assert!(
        edit.ends_with("is a FIFO (named pipe), not a regular file"),
        "{edit}"
    );
    let missing = ws.err("read_file", json!({"path": "nope.txt"})).await;
    assert!(matches!(missing, ToolError::Io { .. }), "{missing}");
    assert_eq!(
        ws.ok("read_file", json!({"path": "latin1.txt"})).await,
        "caf\u{FFFD}\n"
    );
    let big = ws.ok("read_file", json!({"path": "big.txt"})).await;
    assert!(big.len() < 256 * 1024 + 100);
    let more = 330_000 - 256 * 1024;
    assert!(
        big.ends_with(&format!("[truncated: {more} more bytes; use offset/limit]")),
        "{}",
        &big[big.len() - 80..]
    );
}

#[tokio::test]
async fn write_then_read_creating_parents() {
    let ws = Workspace::new();
    let out = ws
        .ok(
            "write_file",
            json!({"path": "a/b/c.txt", "content": "héllo\n"}),
        )
        .await;
    assert_eq!(out, "wrote 7 bytes to a/b/c.txt");
    assert_eq!(
        ws.ok("read_file", json!({"path": "a/b/c.txt"})).await,
        "héllo\n"
    );
    ws.ok("write_file", json!({"path": "a/b/c.txt", "content": "new"}))
        .await;
    assert_eq!(ws.read("a/b/c.txt"), "new");
    // Nothing but the file itself is left in its directory (no temporary files).
    assert_eq!(std::fs::read_dir(ws.base().join("a/b")).unwrap().count(), 1);
}

#[tokio::test]
async fn write_outside_the_workspace_is_refused_and_creates_nothing() {
    let ws = Workspace::new();
    let absolute = ws.outside().join("escape.txt");
    let err = ws
        .err("write_file", json!({"path": absolute, "content": "x"}))
        .await;
    assert!(is_outside(&err), "{err}");
    assert!(!absolute.exists());
    let err = ws
        .err(
            "write_file",
            json!({"path": "../escape2/x.txt", "content": "x"}),
        )
        .await;
    assert!(is_outside(&err), "{err}");
    assert!(!ws.outside().join("escape2").exists());
    std::os::unix::fs::symlink(ws.outside(), ws.base().join("link")).unwrap();
    let err = ws
        .err(
            "write_file",
            json!({"path": "link/escape3.txt", "content": "x"}),
        )
        .await;
    assert!(is_outside(&err), "{err}");
    assert!(!ws.outside().join("escape3.txt").exists());
}

#[tokio::test]
async fn edit_file_replaces_exactly_once_or_all() {
    let ws = Workspace::new();
    let original = "let a = 1;\nlet b = 1;\nlet c = 2;\n";
    ws.write("src.rs", original);

    let none = ws
        .err(
            "edit_file",
            json!({"path": "src.rs", "old_string": "let d", "new_string": "x"}),
        )
        .await
        .to_string();
    assert_eq!(none, "old_string not found in src.rs");
    let many = ws
        .err(
            "edit_file",
            json!({"path": "src.rs", "old_string": "= 1", "new_string": "= 9"}),
        )
        .await
        .to_string();
    assert_eq!(
        many,
        "old_string matches 2 times in src.rs; include more context or set replace_all"
    );
    assert_eq!(ws.read("src.rs"), original);
    assert!(is_invalid(
        &ws.err(
            "edit_file",
            json!({"path": "src.rs", "old_string": "", "new_string": "x"})
        )
        .await
    ));
    assert!(is_invalid(
        &ws.err(
            "edit_file",
            json!({"path": "src.rs", "old_string": "a", "new_string": "a"})
        )
        .await
    ));

    let one = ws
        .ok(
            "edit_file",
            json!({"path": "src.rs", "old_string": "let c = 2", "new_string": "let c = 3"}),
        )
        .await;
    assert_eq!(one, "replaced 1 occurrence(s) in src.rs");
    assert_eq!(ws.read("src.rs"), "let a = 1;\nlet b = 1;\nlet c = 3;\n");

    let all = ws
        .ok(
            "edit_file",
            json!({"path": "src.rs", "old_string": "= 1", "new_string": "= 9", "replace_all": true}),
        )
        .await;
    assert_eq!(all, "replaced 2 occurrence(s) in src.rs");
    assert_eq!(ws.read("src.rs"), "let a = 9;\nlet b = 9;\nlet c = 3;\n");
}

#[tokio::test]
async fn list_directory_sorted_with_directories_marked() {
    let ws = Workspace::new();
    ws.write("b.txt", "");
    ws.write("a.txt", "");
    ws.write("sub/inner.txt", "");
    assert_eq!(
        ws.ok("list_directory", json!({})).await,
        "a.txt\nb.txt\nsub/"
    );
    assert_eq!(
        ws.ok("list_directory", json!({"path": "sub"})).await,
        "inner.txt"
    );
    std::fs::create_dir(ws.base().join("empty")).unwrap();
    assert_eq!(
        ws.ok("list_directory", json!({"path": "empty"})).await,
        "(empty directory)"
    );
    let file = ws.err("list_directory", json!({"path": "a.txt"})).await;
    assert!(file.to_string().contains("not a directory"), "{file}");
    assert!(is_outside(
        &ws.err("list_directory", json!({"path": ".."})).await
    ));
}
