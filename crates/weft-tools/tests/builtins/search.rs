//! glob and grep.

use serde_json::json;

use super::{Workspace, is_invalid, is_outside};

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

/// Refuses every file whose real path ends in `.env`, like a `Read(.env)` deny.
struct NoEnv;

impl weft_tools::FileFilter for NoEnv {
    fn admits(&self, _spelled: &std::path::Path, real: &std::path::Path) -> bool {
        !real.ends_with(".env")
    }
}

#[tokio::test]
async fn searches_withhold_the_files_the_filter_refuses_and_say_how_many() {
    let ws = Workspace::new();
    ws.write("src/a.txt", "TOKEN here\n");
    ws.write(".env", "TOKEN=secret\n");
    std::os::unix::fs::symlink(ws.base().join(".env"), ws.base().join("src/notes.txt")).unwrap();
    let context = weft_tools::CallContext {
        files: Some(std::sync::Arc::new(NoEnv)),
        ..weft_tools::CallContext::default()
    };
    let call = |tool: &'static str, input: serde_json::Value| {
        let tool = ws.registry.get(tool).unwrap().clone();
        let context = context.clone();
        async move { tool.call_in(input, &context).await.unwrap().content }
    };
    let note = |n: usize| match n {
        1 => {
            "[1 file withheld: this session's permission rules do not allow reading it]".to_owned()
        }
        n => format!(
            "[{n} files withheld: this session's permission rules do not allow reading them]"
        ),
    };
    assert_eq!(
        call("grep", json!({"pattern": "TOKEN"})).await,
        format!("src/a.txt:1:TOKEN here\n{}", note(2))
    );
    // Only files the glob filter wants count.
    assert_eq!(
        call("grep", json!({"pattern": "TOKEN", "glob": "*.txt"})).await,
        format!("src/a.txt:1:TOKEN here\n{}", note(1))
    );
    assert_eq!(
        call("grep", json!({"pattern": "TOKEN", "path": "src/notes.txt"})).await,
        format!("no matches\n{}", note(1))
    );
    assert_eq!(
        call("glob", json!({"pattern": "**/*.txt"})).await,
        format!("src/a.txt\n{}", note(1))
    );
    assert_eq!(
        call("list_directory", json!({})).await,
        format!("src/\n{}", note(1))
    );
    // Without a filter, everything in scope is shown.
    assert!(
        ws.ok("grep", json!({"pattern": "TOKEN"}))
            .await
            .contains("secret")
    );
}
