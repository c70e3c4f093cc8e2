//! `weft help [topic]` and `weft completions <shell>` on the real binary: the topics are the
//! REPL's (`/help <topic>`), built from the same command registry.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sandbox;

use predicates::prelude::*;
use sandbox::{Sandbox, snapshot, stdout};
use weft_repl::CommandRegistry;
use weft_repl::help::TOPICS;

#[test]
fn help_without_a_topic_lists_commands_topics_and_slash_commands() {
    let s = Sandbox::new();
    let out = s.weft().arg("help").assert().success();
    let text = stdout(out.get_output());
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
    let s = Sandbox::project_under_home();
    for (topic, _) in TOPICS {
        s.weft()
            .args(["help", topic])
            .assert()
            .success()
            .stdout(predicate::str::is_empty().not());
    }
    for topic in ["skills", "commands", "agent"] {
        let out = s.weft().args(["help", topic]).assert().success();
        let text = stdout(out.get_output());
        snapshot!(s, format!("topic_{topic}"), text);
    }
    let out = s.weft().args(["help", "nonsense"]).assert().code(2);
    insta::assert_snapshot!("unknown_topic", sandbox::stderr(out.get_output()));
}

#[test]
fn completions_are_generated_for_each_shell() {
    let s = Sandbox::new();
    for (shell, marker) in [
        ("bash", "_weft()"),
        ("zsh", "#compdef weft"),
        ("fish", "complete -c weft"),
    ] {
        s.weft()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains(marker));
    }
    s.weft().args(["completions", "tcsh"]).assert().code(2);
}
