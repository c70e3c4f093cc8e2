//! The interactive session (`weft agent` without `-m`) driven through a pseudo-terminal, as a
//! person would use it, against a loopback OpenAI-compatible server: `/help`, `/skills`,
//! `/skill <name> args` (the request carries the rendered body), a plain message, `/agent
//! explore` then `/tools`, an unknown command (never sent), Ctrl-C during a slow answer (the
//! REPL goes on), and `/exit`; then the history file. And the approval prompt of `ask` mode:
//! allow once, allow always (the same call does not ask again), deny with a message, and
//! Ctrl-C while it waits.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../weft-agents/tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{
    Reply, ScriptServer, openai_messages, openai_stream, openai_tool, openai_tool_result,
};
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

    // Ctrl-C during a slow answer cancels the turn; the REPL goes on.
    type_line(&mut p, "tell me a long story");
    assert!(
        rt.block_on(server.wait_for(3, TIMEOUT)),
        "the slow request never arrived"
    );
    p.send(ControlCode::EndOfText).unwrap();
    expect(&mut p, "[cancelled]");
    expect(&mut p, "explore (local/m)> ");
    type_line(&mut p, "are you there?");
    expect(&mut p, "Still here.");
    expect(&mut p, "explore (local/m)> ");
    let bodies = server.bodies();
    assert_eq!(last_message(&bodies[3]), "are you there?");

    // /exit ends the process successfully.
    type_line(&mut p, "/exit");
    expect_eof(&mut p);
    let status = p.get_process().wait().unwrap();
    assert!(
        matches!(status, expectrl::process::unix::WaitStatus::Exited(_, 0)),
        "{status:?}"
    );

    // The history file in the workspace has what was typed.
    let history = std::fs::read_to_string(home.join(".clawft/workspace/history")).unwrap();
    assert!(history.contains("/skill greet Ada Lovelace"), "{history}");
    assert!(history.contains("/exit"), "{history}");
}

/// Waits for `text` and returns what came before it.
fn expect_before(p: &mut Session, text: &str) -> String {
    match p.expect(text) {
        Ok(found) => String::from_utf8_lossy(found.before()).into_owned(),
        Err(e) => panic!("expected {text:?}: {e}"),
    }
}

#[test]
fn the_approval_prompt_allows_once_always_and_denies() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let touch = |id: &str, file: &str| {
        openai_tool(
            id,
            "exec_shell",
            json!({"command": format!("touch {file}")}),
        )
    };
    let server = rt.block_on(ScriptServer::openai(vec![
        touch("c1", "once"),
        openai_stream(&["ran once"]),
        touch("c2", "always"),
        touch("c3", "always"),
        openai_stream(&["ran twice"]),
        touch("c4", "denied"),
        openai_stream(&["not done"]),
        touch("c5", "never"),
    ]));
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(project.join(".clawft")).unwrap();
    let config = tmp.path().join("config.json");
    write(
        &config,
        &json!({
            "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
            "model": "local/m"
        })
        .to_string(),
    );
    let prompt = "default (local/m)> ";
    let question = "allow? [y/a/n] ";
    let mut p = spawn_repl(&home, &project, &config);
    expect(&mut p, "permission mode ask.");
    expect(&mut p, prompt);

    // Allow once.
    type_line(&mut p, "make one");
    expect(&mut p, "? exec_shell: touch once");
    expect(
        &mut p,
        "[a] allow always: exactly this command (`touch once`)",
    );
    expect(&mut p, question);
    type_line(&mut p, "y");
    expect(&mut p, "ran once");
    expect(&mut p, prompt);
    assert!(project.join("once").exists());

    // Allow always: the same command, asked for again in the same turn, runs without asking.
    type_line(&mut p, "make two");
    expect(&mut p, question);
    type_line(&mut p, "a");
    let between = expect_before(&mut p, "ran twice");
    assert!(!between.contains(question), "asked again: {between}");
    expect(&mut p, prompt);
    assert_eq!(server.count(), 5);
    assert_eq!(
        openai_tool_result(&server.bodies()[4], "c3"),
        "exit code: 0"
    );

    // Deny, saying why: the model reads it; nothing ran.
    type_line(&mut p, "make three");
    expect(&mut p, question);
    type_line(&mut p, "maybe");
    expect(&mut p, "please answer y (once), a (always) or n (deny)");
    expect(&mut p, question);
    type_line(&mut p, "n use ls instead");
    expect(&mut p, "not done");
    expect(&mut p, prompt);
    assert!(!project.join("denied").exists());
    assert_eq!(
        openai_tool_result(&server.bodies()[6], "c4"),
        "the user denied this call and said: use ls instead. The tool did not run."
    );

    // Ctrl-C while the question waits cancels the turn; the next line goes to the REPL, not
    // to a reader left behind.
    type_line(&mut p, "make four");
    expect(&mut p, question);
    p.send(ControlCode::EndOfText).unwrap();
    expect(&mut p, "[cancelled]");
    expect(&mut p, prompt);
    type_line(&mut p, "/permissions");
    expect(&mut p, "Permission mode: ask");
    expect(&mut p, "the command `touch always`");
    expect(&mut p, prompt);
    assert!(!project.join("never").exists());
    assert_eq!(server.count(), 8);

    type_line(&mut p, "/exit");
    expect_eof(&mut p);
}

#[test]
fn a_one_shot_run_on_a_terminal_asks_too() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_tool("c1", "exec_shell", json!({"command": "touch asked"})),
        openai_stream(&["made it"]),
    ]));
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(project.join(".clawft")).unwrap();
    let config = tmp.path().join("config.json");
    write(
        &config,
        &json!({
            "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
            "model": "local/m"
        })
        .to_string(),
    );
    let mut p = spawn_weft(&home, &project, &config, &["agent", "-m", "make it"]);
    expect(&mut p, "? exec_shell: touch asked");
    expect(&mut p, "allow? [y/a/n] ");
    type_line(&mut p, "y");
    expect(&mut p, "made it");
    expect_eof(&mut p);
    assert!(project.join("asked").exists());
}

fn expect_eof(p: &mut Session) {
    if let Err(e) = p.expect(Eof) {
        panic!("expected the end of the session: {e}");
    }
}
