//! `weft help [topic]` and `weft completions <shell>` on the real binary: the topics are the
//! REPL's (`/help <topic>`), built from the same command registry.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use predicates::prelude::*;
use weft_repl::CommandRegistry;
use weft_repl::help::TOPICS;

fn weft(home: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_weft"));
    cmd.current_dir(home)
        .env("HOME", home)
        .env_remove("CLAWFT_PROJECT")
        .arg("--home")
        .arg(home)
        .arg("--project")
        .arg(home.join("project"));
    cmd
}

/// `text` with `dir` written as `[TMP]`.
fn redact(text: &str, dir: &std::path::Path) -> String {
    text.replace(dir.to_str().unwrap(), "[TMP]")
}

#[test]
fn help_without_a_topic_lists_commands_topics_and_slash_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let out = weft(tmp.path()).arg("help").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    insta::assert_snapshot!("overview", text);
    for cli in ["skills", "agents", "agent", "help", "completions"] {
        assert!(
            text.contains(&format!("\n  {cli} ")),
            "{cli} missing:\n{text}"
        );
    }
    for (topic, summary) in TOPICS {
        assert!(
            text.contains(topic) && text.contains(summary),
            "{topic}:\n{text}"
        );
    }
    for (name, _) in CommandRegistry::builtin().list() {
        assert!(
            text.contains(&format!("/{name}")),
            "/{name} missing:\n{text}"
        );
    }
}

#[test]
fn every_topic_prints_and_an_unknown_one_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    for (topic, _) in TOPICS {
        weft(tmp.path())
            .args(["help", topic])
            .assert()
            .success()
            .stdout(predicate::str::is_empty().not());
    }
    for topic in ["skills", "commands", "agent"] {
        let out = weft(tmp.path()).args(["help", topic]).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        insta::assert_snapshot!(format!("topic_{topic}"), redact(&text, tmp.path()));
    }
    let out = weft(tmp.path()).args(["help", "nonsense"]).assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    insta::assert_snapshot!("unknown_topic", stderr);
}

#[test]
fn completions_are_generated_for_each_shell() {
    let tmp = tempfile::tempdir().unwrap();
    for (shell, marker) in [
        ("bash", "_weft()"),
        ("zsh", "#compdef weft"),
        ("fish", "complete -c weft"),
    ] {
        weft(tmp.path())
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains(marker));
    }
    weft(tmp.path())
        .args(["completions", "tcsh"])
        .assert()
        .code(2);
}
