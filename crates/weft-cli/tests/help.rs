//! `weft help [topic]` and `weft completions <shell>` on the real binary: the topics are the
//! REPL's (`/help <topic>`), built from the same command registry.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

#[path = "help/readme.rs"]
mod readme;

use predicates::prelude::*;
use sandbox::{Sandbox, snapshot, stdout, write_skill};
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
    // `/agent` is the slash command; `agent` is the `weft agent` command (see below). The
    // context commands have pages like the others.
    let topics = TOPICS
        .iter()
        .map(|(name, _)| *name)
        .chain(["/agent", "/compact", "/context", "/cost", "/plugin"]);
    for topic in topics {
        let out = s.weft().args(["help", topic]).assert().success();
        let text = stdout(out.get_output());
        let name = topic.trim_start_matches('/');
        snapshot!(s, format!("topic_{name}"), text);
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

/// The subcommands `weft <path> --help` lists under `Commands:`.
fn subcommands(s: &Sandbox, path: &[String]) -> Vec<String> {
    let out = s.weft().args(path).arg("--help").assert().success();
    let text = stdout(out.get_output());
    text.split("\nCommands:\n")
        .nth(1)
        .map(|list| {
            list.lines()
                .take_while(|l| l.starts_with("  "))
                .filter_map(|l| l.split_whitespace().next())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Every command path, depth first: `[]`, `["skills"]`, `["skills", "list"]`, ...
fn command_paths(s: &Sandbox) -> Vec<Vec<String>> {
    let mut paths = vec![Vec::new()];
    let mut i = 0;
    while i < paths.len() {
        let path = paths[i].clone();
        for sub in subcommands(s, &path) {
            let mut child = path.clone();
            child.push(sub);
            paths.push(child);
        }
        i += 1;
    }
    paths
}

/// Flags that are global: `weft --help` lists them, no subcommand's help repeats them.
const GLOBAL_FLAGS: [&str; 7] = [
    "--verbose",
    "--project",
    "--home",
    "--skills-dir",
    "--trust-project",
    "--no-cache",
    "--config",
];

#[test]
fn every_help_is_a_snapshot_and_global_options_are_listed_once() {
    let s = Sandbox::new();
    let paths = command_paths(&s);
    assert!(paths.len() > 20, "{paths:?}");
    for path in paths {
        let out = s.weft().args(&path).arg("--help").assert().success();
        let text = stdout(out.get_output());
        let name = if path.is_empty() {
            "help_weft".to_owned()
        } else {
            format!("help_weft_{}", path.join("_"))
        };
        for flag in GLOBAL_FLAGS {
            // Option lines only (`  -v, --verbose...`, `      --project <DIR>`).
            let count = text
                .lines()
                .filter(|l| {
                    l.split([' ', ',', '<', '.'])
                        .filter(|w| !w.is_empty())
                        .take(2)
                        .any(|w| w == flag)
                })
                .count();
            if path.is_empty() {
                assert_eq!(count, 1, "{flag} in weft --help:\n{text}");
            } else {
                assert_eq!(count, 0, "{flag} repeated in {name}:\n{text}");
            }
        }
        if !path.is_empty() {
            assert!(text.contains("see `weft --help`"), "{name}:\n{text}");
        }
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn global_options_are_accepted_after_the_subcommand() {
    let s = Sandbox::new();
    let home = s.dir("elsewhere");
    write_skill(
        &home.join(".clawft/skills"),
        "late-flag",
        "Found through --home after the subcommand.",
    );
    let out = s
        .bare()
        .args(["skills", "list", "--no-cache", "-v", "--home"])
        .arg(&home)
        .assert()
        .success();
    let text = stdout(out.get_output());
    assert!(text.contains("late-flag"), "{text}");
}

#[test]
fn help_names_a_command_a_topic_or_a_slash_command() {
    let s = Sandbox::new();
    let shown = |args: &[&str]| {
        let out = s.weft().args(args).assert().success();
        stdout(out.get_output())
    };
    // `weft help agent` is `weft agent --help`; the slash command is `/agent`.
    assert_eq!(shown(&["help", "agent"]), shown(&["agent", "--help"]));
    assert!(shown(&["help", "agent"]).contains("Usage: weft agent"));
    assert!(shown(&["help", "/agent"]).starts_with("/agent <name>\n"));
    assert_eq!(
        shown(&["help", "skills", "list"]),
        shown(&["skills", "list", "--help"])
    );
    // A slash command no command shadows can be named without its slash.
    assert!(shown(&["help", "model"]).starts_with("/model "));
    let out = s.weft().args(["help", "skills", "nope"]).assert().code(2);
    let stderr = sandbox::stderr(out.get_output());
    assert!(stderr.contains("no help for `skills nope`"), "{stderr}");
}

#[test]
fn bare_weft_through_a_pipe_prints_the_help_on_stdout_and_exits_2() {
    let s = Sandbox::new();
    let out = s.weft().assert().code(2);
    let bare = stdout(out.get_output());
    let full = s.weft().arg("--help").assert().success();
    assert_eq!(bare, stdout(full.get_output()));
    assert!(bare.contains("Without a command, weft starts an interactive session"));
    assert!(out.get_output().stderr.is_empty());
}
