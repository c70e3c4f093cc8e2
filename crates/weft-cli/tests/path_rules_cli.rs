//! Path rules through the real `weft` binary against a loopback model: a `Read(...)` deny in
//! the user's configuration refuses that file and nothing else, and the search tools (`grep`,
//! `glob`, `list_directory`) withhold, and count, every file `read_file` would refuse, on the
//! path they reached it by and on its real path (a link in `src` to `../.env`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use sandbox::server::{ScriptServer, openai_text, openai_tool_result, openai_tools};
use sandbox::{Sandbox, snapshot};
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

/// A project with an ordinary file, a secret `.env`, and `src/notes.txt -> ../.env`.
fn project() -> Sandbox {
    let s = Sandbox::new();
    s.file("src/a.txt", "alpha TOPSECRET-free line\n");
    s.file(".env", "TOPSECRET=hunter2\n");
    std::os::unix::fs::symlink("../.env", s.project.join("src/notes.txt")).unwrap();
    s
}

/// Runs `args` with a model that makes `calls` (one round), then answers `ok`; returns each
/// call's result, labelled, for a snapshot.
fn results(s: &Sandbox, args: &[&str], calls: &[(&str, &str, Value)]) -> String {
    let rt = runtime();
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_tools(calls),
        openai_text("ok"),
    ]));
    let config = s.config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m",
    }));
    let output = run(s, &config, args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let second = &server.bodies()[1];
    let mut text = String::new();
    for (id, tool, input) in calls {
        writeln!(
            text,
            "$ {tool} {input}\n{}\n",
            openai_tool_result(second, id)
        )
        .unwrap();
    }
    text
}

fn run(s: &Sandbox, config: &Path, args: &[&str]) -> Output {
    s.weft()
        .arg("--config")
        .arg(config)
        .args(args)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap()
}

#[test]
fn a_read_deny_in_the_user_config_refuses_that_file_in_every_tool_and_nothing_else() {
    let s = project();
    s.user_config(&json!({"tools": {"deny": ["Read(.env)"]}}));
    let text = results(
        &s,
        &["agent", "-m", "go", "--no-transcript"],
        &[
            ("a", "read_file", json!({"path": "src/a.txt"})),
            ("b", "read_file", json!({"path": ".env"})),
            ("c", "read_file", json!({"path": "src/notes.txt"})),
            ("d", "grep", json!({"pattern": "TOPSECRET"})),
            (
                "e",
                "grep",
                json!({"pattern": "TOPSECRET", "path": "src/notes.txt"}),
            ),
            ("f", "glob", json!({"pattern": "**/*"})),
            ("g", "list_directory", json!({})),
            ("h", "list_directory", json!({"path": "src"})),
        ],
    );
    assert!(!text.contains("hunter2"), "{text}");
    snapshot!(s, "read_deny_in_user_config", text);
}

#[test]
fn a_skill_limited_to_src_cannot_read_a_link_out_of_it_through_grep() {
    let s = project();
    s.file(
        ".clawft/skills/reader/SKILL.md",
        "---\nname: reader\ndescription: Reads sources\nallowed-tools: Read(src/**) Grep(src/**)\n---\n\nRead the sources.\n",
    );
    let text = results(
        &s,
        &[
            "--trust-project",
            "skills",
            "run",
            "reader",
            "--no-transcript",
        ],
        &[
            ("a", "read_file", json!({"path": "src/notes.txt"})),
            ("b", "grep", json!({"pattern": "TOPSECRET", "path": "src"})),
        ],
    );
    assert!(!text.contains("hunter2"), "{text}");
    snapshot!(s, "skill_read_scope_in_grep", text);
}
