//! The interactive session (`weft agent` without `-m`) driven through a pseudo-terminal, as a
//! person would use it, against a loopback OpenAI-compatible server: `/help`, `/skills`,
//! `/skill <name> args` (the request carries the rendered body), a plain message, `/agent
//! explore` then `/tools`, an unknown command (never sent), Ctrl-C during a slow answer (the
//! REPL goes on), and `/exit`; then the history file. And the approval prompt of `ask` mode:
//! allow once, allow always (remembered as the rule the prompt shows: another call of the same
//! program and subcommand does not ask again), deny with a message, and
//! Ctrl-C while it waits. And `/plugin`: listing, switching a plugin off (for the next
//! session), completing `/plugin:name` and plugin ids.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{
    Reply, ScriptServer, openai_messages, openai_stream, openai_tool, openai_tool_result,
};
use expectrl::session::OsSession as Session;
use expectrl::{ControlCode, Eof, Expect};
use sandbox::Sandbox;
use sandbox::server as common;
use serde_json::json;

/// Generous: the machine running the tests may be busy.
const TIMEOUT: Duration = Duration::from_secs(20);

/// `weft agent` in a pseudo-terminal with the sandbox's home and project.
fn spawn_repl(s: &Sandbox, config: &Path) -> Session {
    spawn_repl_with(s, config, &[])
}

/// [`spawn_repl`] with more arguments for `weft agent`.
fn spawn_repl_with(s: &Sandbox, config: &Path, args: &[&str]) -> Session {
    let mut all = vec!["agent"];
    all.extend_from_slice(args);
    spawn_weft(s, config, &all)
}

/// `weft <args>` in a pseudo-terminal with the sandbox's home and project and `config`, on
/// a colour terminal (`TERM=xterm`, neither `NO_COLOR` nor `CLICOLOR_FORCE`).
fn spawn_weft(s: &Sandbox, config: &Path, args: &[&str]) -> Session {
    spawn_weft_with(s, config, args, &[])
}

/// [`spawn_weft`] with more environment variables (`vars`, set last).
fn spawn_weft_with(s: &Sandbox, config: &Path, args: &[&str], vars: &[(&str, &str)]) -> Session {
    let mut cmd = s.process();
    cmd.env("TERM", "xterm")
        .env("RUST_LOG", "error")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .arg("--home")
        .arg(&s.home)
        .arg("--project")
        .arg(&s.project)
        .arg("--config")
        .arg(config)
        .args(args)
        .envs(vars.iter().copied());
    let mut session = Session::spawn(cmd).expect("spawn weft in a pty");
    session.set_expect_timeout(Some(TIMEOUT));
    session
}

/// A config naming one OpenAI-compatible provider `local` at `server` (no retries, model
/// `local/m`) with `extra` provider settings.
fn provider_config(s: &Sandbox, server: &ScriptServer, extra: &serde_json::Value) -> PathBuf {
    let mut provider =
        json!({"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0});
    for (k, v) in extra.as_object().unwrap() {
        provider[k] = v.clone();
    }
    s.config(&json!({"providers": {"local": provider}, "model": "local/m"}))
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

    let s = Sandbox::new();
    s.file(
        ".clawft/skills/greet/SKILL.md",
        "---\nname: greet\ndescription: Greet someone by name.\nargument-hint: \"[first] [last]\"\n---\nGreet $0 warmly. Full name: $ARGUMENTS.\n",
    );
    let config = s.config(&json!({
        "providers": {"local": {"kind": "openai", "base_url": format!("{}/v1", server.url), "max_retries": 0}},
        "model": "local/m"
    }));

    let mut p = spawn_repl(&s, &config);
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
    let history = std::fs::read_to_string(s.home.join(".clawft/workspace/history")).unwrap();
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
    let mkdir = |id: &str, dir: &str| {
        openai_tool(
            id,
            "exec_shell",
            json!({"command": format!("mkdir -p {dir}")}),
        )
    };
    let server = rt.block_on(ScriptServer::openai(vec![
        touch("c1", "once"),
        openai_stream(&["ran once"]),
        mkdir("c2", "always"),
        mkdir("c3", "again"),
        openai_stream(&["ran twice"]),
        touch("c4", "denied"),
        openai_stream(&["not done"]),
        touch("c5", "never"),
    ]));
    let s = Sandbox::new();
    let config = provider_config(&s, &server, &json!({}));
    let prompt = "default (local/m)> ";
    let question = "allow? [y/o/a/n] ";
    let mut p = spawn_repl(&s, &config);
    expect(&mut p, "permission mode ask.");
    expect(&mut p, prompt);

    // Allow once.
    type_line(&mut p, "make one");
    expect(&mut p, "? exec_shell: touch once");
    expect(&mut p, "[a] allow `touch:*` for this session");
    expect(&mut p, question);
    type_line(&mut p, "y");
    expect(&mut p, "ran once");
    expect(&mut p, prompt);
    assert!(s.project.join("once").exists());

    // Allow always: remembered as the rule the prompt shows, so another `mkdir` in the same
    // turn runs without asking (and a `touch` later still asks).
    type_line(&mut p, "make two");
    expect(&mut p, "? exec_shell: mkdir -p always");
    expect(&mut p, "[a] allow `mkdir:*` for this session");
    expect(&mut p, question);
    type_line(&mut p, "a");
    let between = expect_before(&mut p, "ran twice");
    assert!(!between.contains(question), "asked again: {between}");
    expect(&mut p, prompt);
    assert!(s.project.join("always").is_dir() && s.project.join("again").is_dir());
    assert_eq!(server.count(), 5);
    assert_eq!(
        openai_tool_result(&server.bodies()[4], "c3"),
        "exit code: 0"
    );

    // Deny, saying why: the model reads it; nothing ran.
    type_line(&mut p, "make three");
    expect(&mut p, question);
    type_line(&mut p, "maybe");
    expect(
        &mut p,
        "please answer y (once, in the sandbox), o (once, outside the sandbox), a (always) or n (deny)",
    );
    expect(&mut p, question);
    type_line(&mut p, "n use ls instead");
    expect(&mut p, "not done");
    expect(&mut p, prompt);
    assert!(!s.project.join("denied").exists());
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
    expect(&mut p, "commands matching `Bash(mkdir:*)`");
    expect(&mut p, prompt);
    // /config shows the permission settings too, with where they come from.
    type_line(&mut p, "/config --origin permissions");
    expect(&mut p, "permissions.mode");
    expect(&mut p, "ask");
    expect(&mut p, "default");
    expect(&mut p, prompt);
    assert!(!s.project.join("never").exists());
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
    let s = Sandbox::new();
    let config = provider_config(&s, &server, &json!({}));
    let mut p = spawn_weft(&s, &config, &["agent", "-m", "make it"]);
    expect(&mut p, "? exec_shell: touch asked");
    expect(&mut p, "allow? [y/o/a/n] ");
    type_line(&mut p, "y");
    expect(&mut p, "made it");
    expect_eof(&mut p);
    assert!(s.project.join("asked").exists());
}

fn expect_eof(p: &mut Session) {
    if let Err(e) = p.expect(Eof) {
        panic!("expected the end of the session: {e}");
    }
}

#[test]
fn the_repl_resumes_a_session_and_suggests_what_was_meant() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![
        common::openai_text("The first answer."),
        openai_stream(&["The second ", "answer."]),
    ]));
    let s = Sandbox::new();
    s.file(
        ".clawft/skills/wip/SKILL.md",
        "---\nname: half-done\ndescription: [1, 2]\n---\nDo it.\n",
    );
    let config = s.loopback_config(&server);
    // A one-shot run first, then the REPL continues it.
    let first = s
        .weft()
        .arg("--config")
        .arg(&config)
        .args(["agent", "-m", "The first question."])
        .output()
        .unwrap();
    assert!(first.status.success());

    let mut p = spawn_repl_with(&s, &config, &["--continue"]);
    expect(&mut p, "Resumed session ");
    expect(&mut p, "(2 messages, agent default, model local/m)");
    expect(&mut p, "default (local/m)> ");

    for (line, answer) in [
        (
            "/skils",
            "Unknown command: /skils; did you mean `/skill` or `/skills`? Type /help",
        ),
        (
            "/agent explor",
            "Agent 'explor' not found; did you mean `explore`?",
        ),
        ("/model gpt-4o", "did you mean `local/gpt-4o`?"),
        ("/half-done", "Skill 'half-done' does not load: "),
    ] {
        type_line(&mut p, line);
        expect(&mut p, answer);
        expect(&mut p, "default (local/m)> ");
    }
    assert_eq!(server.count(), 1, "no mistake reached the model");

    type_line(&mut p, "The second question.");
    expect(&mut p, "The second answer.");
    expect(&mut p, "default (local/m)> ");
    let sent: Vec<String> = openai_messages(&server.bodies()[1])
        .iter()
        .filter(|m| m["role"] != "system")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        sent,
        [
            "The first question.",
            "The first answer.",
            "The second question."
        ]
    );
    type_line(&mut p, "/exit");
    expect_eof(&mut p);
    // One session, continued in its transcript.
    assert_eq!(s.transcripts().len(), 1);
}

#[test]
fn a_one_shot_run_shows_a_status_line_and_announces_retries_on_a_terminal() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![Reply::Hang, Reply::Hang]));
    let s = Sandbox::new();
    let config = provider_config(&s, &server, &json!({"timeout_secs": 1, "max_retries": 1}));
    let mut p = spawn_weft(&s, &config, &["agent", "-m", "hi"]);
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
    let s = Sandbox::new();
    let config = s.loopback_config(&server);
    let mut p = spawn_weft(&s, &config, &["agent", "-m", "hi"]);
    expect(&mut p, "\u{1b}[1;4mPlan\u{1b}[22;24m");
    expect(
        &mut p,
        "Use \u{1b}[1mbold\u{1b}[22m moves \\x1b]0;pwned\\x07",
    );
    expect_eof(&mut p);
}

#[test]
fn bare_weft_on_a_terminal_starts_the_interactive_session() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![]));
    let s = Sandbox::new();
    let config = s.loopback_config(&server);
    let mut p = spawn_weft(&s, &config, &[]);
    expect(&mut p, "default (local/m)> ");
    exit_cleanly(&mut p);
    assert_eq!(server.count(), 0);
}

#[test]
fn errors_and_log_levels_are_coloured_on_a_terminal_as_the_variables_say() {
    let s = Sandbox::new();
    // An untrusted project's `providers` is ignored with a warning (a log line).
    s.project_config(&json!({"providers": {"evil": {"base_url": "http://evil.example/v1"}}}));
    let config = s.config(&json!({}));
    let screen = |vars: &[(&str, &str)]| {
        let mut vars = vars.to_vec();
        vars.push(("RUST_LOG", "warn"));
        let mut p = spawn_weft_with(&s, &config, &["agents", "show", "nope"], &vars);
        let seen = p.expect(Eof).unwrap();
        String::from_utf8_lossy(seen.as_bytes()).into_owned()
    };
    let red_error = "\u{1b}[1;31merror:\u{1b}[22;39m unknown agent";
    let yellow_warn = " \u{1b}[1;33mWARN\u{1b}[22;39m ";
    let coloured = screen(&[]);
    assert!(
        coloured.contains(red_error) && coloured.contains(yellow_warn),
        "{coloured:?}"
    );
    // Only the level is coloured: the quoted key and the file name are not.
    assert_eq!(coloured.matches('\u{1b}').count(), 4, "{coloured:?}");
    for plain in [
        screen(&[("NO_COLOR", "1")]),
        screen(&[("TERM", "dumb")]),
        screen(&[("CLICOLOR", "0")]),
        screen(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]),
    ] {
        assert!(
            plain.contains("error: unknown agent") && plain.contains(" WARN "),
            "{plain:?}"
        );
        assert!(!plain.contains('\u{1b}'), "{plain:?}");
    }
    // CLICOLOR_FORCE colours a terminal that TERM=dumb would leave plain.
    let forced = screen(&[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")]);
    assert!(forced.contains(red_error), "{forced:?}");
}

/// Claude Code's habits on a terminal: `weft "question"` starts the session with it; each
/// tool call shows a preview of its result, `/expand N` the whole; `weft -r` offers this
/// project's sessions to pick from, and the resumed session shows its last turns first.
#[test]
fn a_first_question_tool_previews_and_a_picked_session_with_its_recap() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![
        openai_tool("c1", "read_file", json!({"path": "notes.txt"})),
        openai_stream(&["It lists three things."]),
        openai_stream(&["Welcome back."]),
    ]));
    let s = Sandbox::new();
    s.file("notes.txt", "first thing\nsecond thing\nthird thing\n");
    let config = provider_config(&s, &server, &json!({}));
    let prompt = "default (local/m)> ";

    let mut p = spawn_weft(&s, &config, &["What is in notes.txt?"]);
    expect(&mut p, "→ read_file");
    expect(&mut p, "← first thing");
    expect(&mut p, "(1 more line)  [/expand 1]");
    expect(&mut p, "It lists three things.");
    expect(&mut p, prompt);
    assert_eq!(last_message(&server.bodies()[0]), "What is in notes.txt?");
    type_line(&mut p, "/expand 1");
    expect(&mut p, "[1] → read_file");
    expect(&mut p, "third thing");
    expect(&mut p, prompt);
    exit_cleanly(&mut p);

    let mut p = spawn_weft(&s, &config, &["-r"]);
    expect(&mut p, "FIRST PROMPT");
    expect(&mut p, "Resume which session? [1-1, Enter for 1] ");
    type_line(&mut p, "1");
    expect(&mut p, "Resumed session");
    expect(&mut p, "the conversation so far: the last 1 of 1 turn");
    expect(&mut p, "> What is in notes.txt?");
    expect(&mut p, "→ read_file");
    expect(&mut p, "It lists three things.");
    expect(&mut p, prompt);
    type_line(&mut p, "hello again");
    expect(&mut p, "Welcome back.");
    expect(&mut p, prompt);
    exit_cleanly(&mut p);
    // The resumed session went on with the earlier conversation.
    let bodies = server.bodies();
    let messages = openai_messages(&bodies[2]);
    assert_eq!(messages[1]["content"], "What is in notes.txt?");
    assert_eq!(last_message(&bodies[2]), "hello again");
}

/// A marketplace directory `acme` with the plugin `fmt` (a skill `lint`, a command `run`),
/// added and installed for the user with `weft plugin`.
fn install_fmt_plugin(s: &Sandbox) {
    let market = s.dir("market");
    sandbox::write(
        &market.join(".claude-plugin/marketplace.json"),
        r#"{"name": "acme", "owner": {"name": "Acme"}, "plugins": [{"name": "fmt", "source": "./fmt"}]}"#,
    );
    sandbox::write(
        &market.join("fmt/.claude-plugin/plugin.json"),
        r#"{"name": "fmt", "version": "1.0.0", "description": "Formats code"}"#,
    );
    sandbox::write(
        &market.join("fmt/skills/lint/SKILL.md"),
        "---\nname: lint\ndescription: Lint the code\n---\nLint $ARGUMENTS with the plugin linter.\n",
    );
    sandbox::write(
        &market.join("fmt/commands/run.md"),
        "---\ndescription: Run the formatter\n---\nFormat $ARGUMENTS.\n",
    );
    for args in [
        vec!["plugin", "marketplace", "add", market.to_str().unwrap()],
        vec!["plugin", "install", "fmt@acme", "--yes"],
    ] {
        let out = s.weft().args(&args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", sandbox::stderr(&out));
    }
}

#[test]
fn plugin_lists_switches_and_completes_plugin_names() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(ScriptServer::openai(vec![openai_stream(&["Linted."])]));
    let s = Sandbox::new();
    install_fmt_plugin(&s);
    let config = s.loopback_config(&server);
    let mut p = spawn_repl(&s, &config);
    expect(&mut p, "default (local/m)> ");

    // /plugin lists it; its skill completes from `/fmt:` and runs under its qualified name.
    type_line(&mut p, "/plugin");
    expect(&mut p, "fmt@acme");
    expect(&mut p, "enabled");
    expect(&mut p, "default (local/m)> ");
    p.send("/fmt:l\t").unwrap();
    expect(&mut p, "/fmt:lint");
    type_line(&mut p, " src");
    expect(&mut p, "Linted.");
    expect(&mut p, "default (local/m)> ");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 1);
    assert_eq!(
        last_message(&bodies[0]),
        "[Skill: fmt:lint]\n\nLint src with the plugin linter."
    );

    // `/plugin dis<Tab> fmt@<Tab>` completes the subcommand and the plugin's id.
    p.send("/plugin dis\t").unwrap();
    expect(&mut p, "/plugin disable");
    p.send(" fmt@\t").unwrap();
    expect(&mut p, "fmt@acme");
    type_line(&mut p, "");
    expect(
        &mut p,
        "Disabled fmt@acme for the user. It applies from the next session",
    );
    expect(&mut p, "default (local/m)> ");
    type_line(&mut p, "/plugin");
    expect(&mut p, "disabled");
    expect(&mut p, "default (local/m)> ");
    type_line(&mut p, "/plugin enable nothing");
    expect(&mut p, "no installed plugin is named `nothing`");
    expect(&mut p, "default (local/m)> ");
    exit_cleanly(&mut p);
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(s.home.join(".clawft/plugins.lock")).unwrap())
            .unwrap();
    assert_eq!(lock["plugins"]["fmt@acme"]["enabled"], false);

    // The next session goes without it.
    let mut p = spawn_repl(&s, &config);
    expect(&mut p, "default (local/m)> ");
    type_line(&mut p, "/fmt:lint");
    expect(&mut p, "Unknown command");
    expect(&mut p, "default (local/m)> ");
    exit_cleanly(&mut p);
    assert_eq!(server.count(), 1);
}
