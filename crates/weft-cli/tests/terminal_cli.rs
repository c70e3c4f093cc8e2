//! Terminal etiquette through pipes (the pseudo-terminal side is in `repl_pty.rs`): tables keep
//! full text unless `COLUMNS` asks for a width, colour (logs and errors included) only when
//! `CLICOLOR_FORCE` asks and `NO_COLOR` does not forbid it, retries announced on stderr, no
//! status line, and answers printed raw.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../weft-agents/tests/common/mod.rs"]
mod common;
mod sandbox;

use common::{Reply, ScriptServer, openai_text};
use sandbox::{Sandbox, stdout, write_skill};
use serde_json::json;

const LONG: &str = "Reviews a pull request for correctness, style, security and test coverage, then writes a summary with concrete suggestions for every file it touched";

fn skills_sandbox() -> Sandbox {
    let s = Sandbox::new();
    let root = s.project.join(".clawft/skills");
    write_skill(&root, "review", LONG);
    write_skill(&root, "a-skill-with-a-rather-long-name", "Short.");
    s
}

#[test]
fn tables_keep_full_text_through_a_pipe_and_fit_columns() {
    let s = skills_sandbox();
    let list = |columns: Option<&str>| {
        let mut cmd = s.weft();
        cmd.args(["skills", "list", "--scope", "project"])
            .env_remove("COLUMNS");
        if let Some(c) = columns {
            cmd.env("COLUMNS", c);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        stdout(&out)
    };
    let piped = list(None);
    assert!(piped.contains(LONG), "{piped}");
    insta::assert_snapshot!("skills_list_piped", piped);
    let narrow = list(Some("80"));
    assert!(narrow.lines().all(|l| l.chars().count() <= 80), "{narrow}");
    assert!(narrow.contains("Reviews a pull request") && narrow.contains('…'));
    insta::assert_snapshot!("skills_list_80_columns", narrow);
}

/// A project file with `providers` makes weft log a warning (untrusted project).
fn warning_sandbox() -> Sandbox {
    let s = Sandbox::new();
    s.project_config(&json!({"providers": {"evil": {"base_url": "http://evil.example/v1"}}}));
    s
}

#[test]
fn logs_and_errors_are_coloured_only_when_asked() {
    let s = warning_sandbox();
    let stderr = |vars: &[(&str, &str)]| {
        let mut cmd = s.weft();
        cmd.args(["agents", "show", "nope"]);
        for var in ["NO_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
            cmd.env_remove(var);
        }
        cmd.envs(vars.iter().copied());
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap()
    };
    let plain = stderr(&[]);
    assert!(
        plain.contains("WARN") && plain.contains("error: "),
        "{plain}"
    );
    assert!(!plain.contains('\u{1b}'), "{plain:?}");

    let forced = stderr(&[("CLICOLOR_FORCE", "1")]);
    assert!(
        forced.contains("\u{1b}[1;31merror:\u{1b}[22;39m"),
        "{forced:?}"
    );
    assert!(
        forced
            .lines()
            .any(|l| l.contains("WARN") && l.contains('\u{1b}')),
        "the log line is coloured too: {forced:?}"
    );

    let refused = stderr(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!refused.contains('\u{1b}'), "{refused:?}");
}

#[test]
fn retries_are_announced_and_answers_are_raw_through_a_pipe() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![
        Reply::Json(429, json!({"error": {"message": "slow down"}})),
        openai_text("# Title\n**bold** \u{1b}[2J"),
    ]));
    let s = Sandbox::new();
    s.user_config(&json!({
        "providers": {"local": {"base_url": format!("{}/v1", server.url), "max_retries": 2}},
        "model": "local/m"
    }));
    let out = s
        .weft()
        .args(["agent", "-m", "hi", "--no-transcript"])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // Raw: a script gets exactly what the model wrote, escape included.
    assert_eq!(stdout(&out), "# Title\n**bold** \u{1b}[2J\n");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("weft: rate limited, retrying in 500 ms (1/2)"),
        "{stderr:?}"
    );
    // No status line through a pipe: nothing rewrites a line.
    assert!(
        !stderr.contains('\r') && !stderr.contains("waiting for"),
        "{stderr:?}"
    );
}
