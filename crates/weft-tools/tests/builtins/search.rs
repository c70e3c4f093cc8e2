//! glob and grep.

use serde_json::json;

use crate::{Workspace, is_invalid, is_outside};

#[tokio::test]
async fn glob_double_star_crosses_directories_single_star_does_not() {
    let ws = Workspace::new();
    for f in [
        "main.rs",
        "src/lib.rs",
        "src/deep/mod.rs",
        "src/notes.md",
        "target/debug/build.rs",
        ".git/hook.rs",
        "node_modules/pkg/index.rs",
    ] {
        ws.write(f, "");
    }
    assert_eq!(
        ws.ok("glob", json!({"pattern": "**/*.rs"})).await,
        "main.rs\nsrc/deep/mod.rs\nsrc/lib.rs"
    );
    assert_eq!(ws.ok("glob", json!({"pattern": "*.rs"})).await, "main.rs");
    assert_eq!(
        ws.ok("glob", json!({"pattern": "src/*.rs"})).await,
        "src/lib.rs"
    );
    assert_eq!(
        ws.ok("glob", json!({"pattern": "*.rs", "path": "src"}))
            .await,
        "src/lib.rs"
    );
    assert_eq!(
        ws.ok("glob", json!({"pattern": "*.py"})).await,
        "no files match *.py"
    );
    assert!(is_invalid(&ws.err("glob", json!({"pattern": "a[" })).await));
    assert!(is_outside(
        &ws.err("glob", json!({"pattern": "*", "path": "/"})).await
    ));
}

#[tokio::test]
async fn grep_filters_ignores_case_and_reports_bad_regexes() {
    let ws = Workspace::new();
    ws.write("src/lib.rs", "fn Main() {}\nlet x = 1;\n");
    ws.write("src/a/b.rs", "// nothing\nfn main() {}\n");
    ws.write("notes.txt", "main thing\n");
    ws.write("target/gen.rs", "fn main() {}\n");
    ws.write("blob.rs", b"fn main\0");
    ws.write("long.rs", format!("fn main {}\n", "x".repeat(1000)));

    assert_eq!(
        ws.ok("grep", json!({"pattern": "fn main\\(", "glob": "*.rs"}))
            .await,
        "src/a/b.rs:2:fn main() {}"
    );
    assert_eq!(
        ws.ok(
            "grep",
            json!({"pattern": "fn main\\(", "glob": "src/**/*.rs", "case_insensitive": true})
        )
        .await,
        "src/lib.rs:1:fn Main() {}\nsrc/a/b.rs:2:fn main() {}"
    );
    assert_eq!(
        ws.ok("grep", json!({"pattern": "thing", "path": "notes.txt"}))
            .await,
        "notes.txt:1:main thing"
    );
    let long = ws
        .ok("grep", json!({"pattern": "xxx", "glob": "long.rs"}))
        .await;
    assert!(long.starts_with("long.rs:1:fn main x"), "{long}");
    assert!(long.chars().count() < 330, "{}", long.len());

    let capped = ws
        .ok("grep", json!({"pattern": "main", "max_results": 1}))
        .await;
    assert_eq!(capped.lines().count(), 2, "{capped}");
    assert!(capped.contains("[stopped after 1 matches"), "{capped}");

    assert_eq!(
        ws.ok("grep", json!({"pattern": "zebra"})).await,
        "no matches"
    );
    let bad = ws.err("grep", json!({"pattern": "fn ("})).await;
    assert!(is_invalid(&bad), "{bad}");
    assert!(bad.to_string().contains("invalid regex"), "{bad}");
}
