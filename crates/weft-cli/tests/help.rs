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

#[test]
fn help_without_a_topic_lists_commands_topics_and_slash_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let out = weft(tmp.path()).arg("help").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
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
    weft(tmp.path())
        .args(["help", "skills"])
        .assert()
        .stdout(predicate::str::starts_with(
            "Skills are reusable prompts that teach the agent specialized behaviors.",
        ))
        .stdout(predicate::str::contains("~/.clawft/skills/  (personal)"));
    weft(tmp.path())
        .args(["help", "commands"])
        .assert()
        .stdout(predicate::str::contains("/skill <name> [args]  "))
        .stdout(predicate::str::contains("Unknown command"));
    weft(tmp.path())
        .args(["help", "agent"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("/agent <name>\n"));
    weft(tmp.path())
        .args(["help", "nonsense"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no help topic `nonsense`"));
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
