//! The interactive session (`weft agent` without `-m`) driven through a pseudo-terminal, as a
//! person would use it, against a loopback OpenAI-compatible server: `/help`, `/skills`,
//! `/skill <name> args` (the request carries the rendered body), a plain message, `/agent
//! explore` then `/tools`, an unknown command (never sent), Ctrl-C during a slow answer (the
//! REPL goes on), and `/exit`; then the history file.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../weft-agents/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{Reply, ScriptServer, openai_messages, openai_stream};
use expectrl::session::OsSession as Session;
use expectrl::{ControlCode, Eof, Expect};
use serde_json::json;

/// Variables that would configure a provider or a project behind the test's back.
const PROVIDER_VARS: [&str; 6] = [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "WEFT_MODEL",
    "CLAWFT_PROJECT",
];

/// Generous: the machine running the tests may be busy.
const TIMEOUT: Duration = Duration::from_secs(20);

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `weft agent` in a pseudo-terminal with a temporary home and project.
fn spawn_repl(home: &Path, project: &Path, config: &Path) -> Session {
    spawn_weft(home, project, config, &["agent"])
}

/// `weft <args>` in a pseudo-terminal with a temporary home and project.
fn spawn_weft(home: &Path, project: &Path, config: &Path, args: &[&str]) -> Session {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
    cmd.current_dir(project)
        .env("HOME", home)
        .env("TERM", "xterm")
        .env("RUST_LOG", "error")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .args(["--home", home.to_str().unwrap()])
        .args(["--project", project.to_str().unwrap()])
        .args(["--config", config.to_str().unwrap()])
        .args(args);
    for var in PROVIDER_VARS {
        cmd.env_remove(var);
    }
    let mut session = Session::spawn(cmd).expect("spawn weft in a pty");
    session.set_expect_timeout(Some(TIMEOUT));
    session
}

/// A temporary home and project, and a config naming one provider at `url` (`local/m`) with
/// `extra` provider settings.
fn setup(url: &str, extra: &serde_json::Value) -> (tempfile::TempDir, PathBuf, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let mut provider = json!({"kind": "openai", "base_url": format!("{url}/v1"), "max_retries": 0});
    for (k, v) in extra.as_object().unwrap() {
        provider[k] = v.clone();
    }
    let config = tmp.path().join("config.json");
    write(
        &config,
        &json!({"providers": {"local": provider}, "model": "local/m"}).to_string(),
    );
    (tmp, home, project, config)
}

/// Types a line and presses Enter.
fn type_line(p: &mut Session, line: &str) {
    p.send(format!("{line}\r")).unwrap();
}

/// Waits for `text`, failing with what was seen.
fn expect(p: &mut Session, text: &str) {
    if let Err(e) = p.expect(text) {
        panic!("expected {text:?}: {e}");
    }
}

/// The content of the last message of a recorded request.
fn last_message(body: &serde_json::Value) -> String {
    openai_messages(body).last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn an_interactive_session_through_a_pseudo_terminal() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_stream(&["Hello, ", "Ada!"]),
        openai_stream(&["Four", "."]),
        Reply::Hang,
        openai_stream(&["Still ", "here."]),
    ]));

    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    write(
        &project.join(".clawft/skills/greet/SKILL.md"),
        "---\nname: greet\ndescription: Greet someone by name.\nargument-hint: \"[first] [last]\"\n---\nGreet $0 warmly. Full name: $ARGUMENTS.\n",
    );
    let config = tmp.path().join("config.json");
    write(
        &config,
        &json!({
            "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
            "model": "local/m"
        })
        .to_string(),
    );

    let mut p = spawn_repl(&home, &project, &config);
    expect(&mut p, "default (local/m)> ");

    // /help lists the commands.
    type_line(&mut p, "/help");
    expect(&mut p, "/skill <name> [args]");
    expect(&mut p, "Topics: /help <topic>");
    expect(&mut p, "default (local/m)> ");

    // /skills lists the project skill.
    type_line(&mut p, "/skills");
    expect(&mut p, "Greet someone by name.");
    expect(&mut p, "skill(s).");
    expect(&mut p, "default (local/m)> ");

    // /skill sends `[Skill: greet]`, a blank line and the rendered body.
    type_line(&mut p, "/skill greet Ada Lovelace");
    expect(&mut p, "Hello, Ada!");
    expect(&mut p, "default (local/m)> ");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        last_message(&bodies[0]),
        "[Skill: greet]\n\nGreet Ada warmly. Full name: Ada Lovelace."
    );

    // A plain message is answered by the server.
    type_line(&mut p, "what is 2+2?");
    expect(&mut p, "Four.");
    expect(&mut p, "default (local/m)> ");
    assert_eq!(last_message(&server.bodies()[1]), "what is 2+2?");

    // /agent explore, then /tools shows the narrowed set.
    type_line(&mut p, "/agent explore");
    expect(&mut p, "Switched to agent: explore (local/m)");
    expect(&mut p, "explore (local/m)> ");
    type_line(&mut p, "/tools");
    expect(&mut p, "Tools offered to agent explore");
    expect(&mut p, "read_file");
    expect(&mut p, "Hidden:");
    expect(&mut p, "- exec_shell");
    expect(&mut p, "(hidden by agent 'explore')");
    expect(&mut p, "explore (local/m)> ");

    // An unknown command is reported and never sent.
    type_line(&mut p, "/frobnicate now");
    expect(
        &mut p,
        "Unknown command: /frobnicate. Type /help for available commands.",
    );
    expect(&mut p, "explore (local/m)> ");
    assert_eq!(server.count(), 2);

    // A slow answer shows the status line; Ctrl-C cancels the turn; the REPL goes on.
    type_line(&mut p, "tell me a long story");
    assert!(
        rt.block_on(server.wait_for(3, TIMEOUT)),
        "the slow request never arrived"
    );
    expect(&mut p, "waiting for local/m");
    p.send(ControlCode::EndOfText).unwrap();
    expect(&mut p, "[cancelled]");
    expect(&mut p, "explore (local/m)> ");
    type_line(&mut p, "are you there?");
    expect(&mut p, "Still here.");
    expect(&mut p, "explore (local/m)> ");
    let bodies = server.bodies();
    assert_eq!(last_message(&bodies[3]), "are you there?");

    // /exit ends the process successfully.
    exit_cleanly(&mut p);

    // The history file in the workspace has what was typed.
    let history = std::fs::read_to_string(home.join(".clawft/workspace/history")).unwrap();
    assert!(history.contains("/skill greet Ada Lovelace"), "{history}");
    assert!(history.contains("/exit"), "{history}");
}

/// Types `/exit`: the session ends with status 0.
fn exit_cleanly(p: &mut Session) {
    type_line(p, "/exit");
    expect_eof(p);
    let status = p.get_process().wait().unwrap();
    assert!(
        matches!(status, expectrl::process::unix::WaitStatus::Exited(_, 0)),
        "{status:?}"
    );
}

fn expect_eof(p: &mut Session) {
    if let Err(e) = p.expect(Eof) {
        panic!("expected the end of the session: {e}");
    }
}

#[test]
fn a_one_shot_run_shows_a_status_line_and_announces_retries_on_a_terminal() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![Reply::Hang, Reply::Hang]));
    let (_tmp, home, project, config) =
        setup(&server.url, &json!({"timeout_secs": 1, "max_retries": 1}));
    let mut p = spawn_weft(&home, &project, &config, &["agent", "-m", "hi"]);
    // The spinner, then the retry above it, then the spinner again, then the error.
    expect(&mut p, "waiting for local/m");
    expect(&mut p, "weft: no answer in time, retrying in 500 ms (1/1)");
    expect(&mut p, "waiting for local/m");
    expect(&mut p, "error:");
    expect_eof(&mut p);
    assert_eq!(server.count(), 2);
}

#[test]
fn answers_are_rendered_on_a_terminal_and_control_characters_neutralised() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![openai_stream(&[
        "# Plan\n",
        "Use **bold** moves \u{1b}]0;pwned\u{7}",
    ])]));
    let (_tmp, home, project, config) = setup(&server.url, &json!({}));
    let mut p = spawn_weft(&home, &project, &config, &["agent", "-m", "hi"]);
    expect(&mut p, "\u{1b}[1;4mPlan\u{1b}[22;24m");
    expect(&mut p, "Use \u{1b}[1mbold\u{1b}[22m moves ^[]0;pwned^G");
    expect_eof(&mut p);
}

#[test]
fn bare_weft_on_a_terminal_starts_the_interactive_session() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![]));
    let (_tmp, home, project, config) = setup(&server.url, &json!({}));
    let mut p = spawn_weft(&home, &project, &config, &[]);
    expect(&mut p, "default (local/m)> ");
    exit_cleanly(&mut p);
    assert_eq!(server.count(), 0);
}
