//! Terminal etiquette through pipes (the pseudo-terminal side, colour included, is in
//! `repl_pty.rs`): tables keep full text unless `COLUMNS` asks for a width; no escape
//! sequence at all, whatever `CLICOLOR_FORCE` says (logs and errors included); retries
//! announced on stderr; no status line; answers printed as written, neutralised.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sandbox;

use sandbox::server::{Reply, ScriptServer, openai_text};
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
fn logs_and_errors_get_no_escape_sequence_through_a_pipe() {
    let s = warning_sandbox();
    for vars in [
        &[][..],
        &[("CLICOLOR_FORCE", "1")],
        &[("CLICOLOR_FORCE", "1"), ("TERM", "xterm-256color")],
    ] {
        let mut cmd = s.weft();
        cmd.args(["agents", "show", "nope"]);
        for var in ["NO_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
            cmd.env_remove(var);
        }
        cmd.envs(vars.iter().copied());
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains(" WARN") && stderr.contains("error: "),
            "{vars:?}: {stderr}"
        );
        assert!(!stderr.contains('\u{1b}'), "{vars:?}: {stderr:?}");
    }
}

#[test]
fn retries_are_announced_and_answers_are_neutralised_through_a_pipe() {
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
    // As the model wrote it (no Markdown rendering, no colour even when forced), with its
    // control characters made visible.
    assert_eq!(stdout(&out), "# Title\n**bold** \\x1b[2J\n");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("weft: rate limited, retrying in 500 ms (1/2)"),
        "{stderr:?}"
    );
    // No status line through a pipe: nothing rewrites a line.
    assert!(
        !stderr.contains('\r') && !stderr.contains("waiting for") && !stderr.contains('\u{1b}'),
        "{stderr:?}"
    );
}
