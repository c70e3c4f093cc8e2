//! Terminal etiquette through pipes (the pseudo-terminal side, colour included, is in
//! `repl_pty.rs`): tables keep full text unless `COLUMNS` asks for a width; no escape
//! sequence unless `CLICOLOR_FORCE` asks for colours (logs and errors included), and then only
//! colours; retries announced on stderr; no status line; answers printed as written,
//! neutralised.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

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

/// The escape sequences of `text`: each from ESC up to its final byte.
fn escapes(text: &str) -> Vec<&str> {
    text.match_indices('\u{1b}')
        .map(|(i, _)| {
            let rest = &text[i..];
            let end = rest[1..]
                .find(|c: char| c.is_ascii_alphabetic())
                .map_or(rest.len(), |e| e + 2);
            &rest[..end]
        })
        .collect()
}

#[test]
fn logs_and_errors_get_no_escape_sequence_through_a_pipe() {
    let s = warning_sandbox();
    for (vars, coloured) in [
        (&[][..], false),
        (&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")], false),
        (&[("CLICOLOR_FORCE", "1")], true),
        (&[("CLICOLOR_FORCE", "1"), ("TERM", "xterm-256color")], true),
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
        let found = escapes(&stderr);
        let plain = found.iter().fold(stderr.clone(), |t, e| t.replace(e, ""));
        assert!(
            plain.contains(" WARN") && plain.contains("error: "),
            "{vars:?}: {stderr}"
        );
        if coloured {
            // CLICOLOR_FORCE: weft's colours (SGR, ending in `m`) and nothing else.
            assert!(!found.is_empty(), "{vars:?}: {stderr:?}");
            assert!(
                found.iter().all(|e| e.ends_with('m')),
                "{vars:?}: {found:?}"
            );
        } else {
            assert!(found.is_empty(), "{vars:?}: {stderr:?}");
        }
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
    // As the model wrote it (no Markdown rendering through a pipe, even with colour forced),
    // with its control characters made visible.
    assert_eq!(stdout(&out), "# Title\n**bold** \\x1b[2J\n");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("weft: rate limited, retrying in 500 ms (1/2)"),
        "{stderr:?}"
    );
    // No status line through a pipe: nothing rewrites a line; colours at most.
    assert!(
        !stderr.contains('\r') && !stderr.contains("waiting for"),
        "{stderr:?}"
    );
    assert!(
        escapes(&stderr).iter().all(|e| e.ends_with('m')),
        "{stderr:?}"
    );
}
