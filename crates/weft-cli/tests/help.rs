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
    // `/agent` is the slash command; `agent` (below) is the `weft agent` command.
    let topics = TOPICS.iter().map(|(name, _)| *name).chain(["/agent"]);
    for topic in topics {
        let out = weft(tmp.path()).args(["help", topic]).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let name = topic.trim_start_matches('/');
        insta::assert_snapshot!(format!("topic_{name}"), redact(&text, tmp.path()));
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

/// The subcommands `weft <path> --help` lists under `Commands:`.
fn subcommands(path: &[String]) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let out = weft(tmp.path()).args(path).arg("--help").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
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
fn command_paths() -> Vec<Vec<String>> {
    let mut paths = vec![Vec::new()];
    let mut i = 0;
    while i < paths.len() {
        let path = paths[i].clone();
        for sub in subcommands(&path) {
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
    "--trust-project-skills",
    "--no-cache",
    "--config",
];

#[test]
fn every_help_is_a_snapshot_and_global_options_are_listed_once() {
    let tmp = tempfile::tempdir().unwrap();
    let paths = command_paths();
    assert!(paths.len() > 20, "{paths:?}");
    for path in paths {
        let out = weft(tmp.path())
            .args(&path)
            .arg("--help")
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
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
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let skills = home.join(".clawft/skills/late-flag");
    std::fs::create_dir_all(&skills).unwrap();
    std::fs::write(
        skills.join("SKILL.md"),
        "---\nname: late-flag\ndescription: Found through --home after the subcommand.\n---\nBody.\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(tmp.path())
        .env("HOME", tmp.path())
        .env_remove("CLAWFT_PROJECT")
        .args(["skills", "list", "--no-cache", "-v", "--home"])
        .arg(&home)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("late-flag"), "{text}");
}

#[test]
fn help_names_a_command_a_topic_or_a_slash_command() {
    let tmp = tempfile::tempdir().unwrap();
    let stdout = |args: &[&str]| {
        let out = weft(tmp.path()).args(args).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    // `weft help agent` is `weft agent --help`; the slash command is `/agent`.
    assert_eq!(stdout(&["help", "agent"]), stdout(&["agent", "--help"]));
    assert!(stdout(&["help", "agent"]).contains("Usage: weft agent"));
    assert!(stdout(&["help", "/agent"]).starts_with("/agent <name>\n"));
    assert_eq!(
        stdout(&["help", "skills", "list"]),
        stdout(&["skills", "list", "--help"])
    );
    // A slash command no command shadows can be named without its slash.
    assert!(stdout(&["help", "model"]).starts_with("/model "));
    let out = weft(tmp.path())
        .args(["help", "skills", "nope"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("no help for `skills nope`"), "{stderr}");
}

#[test]
fn bare_weft_through_a_pipe_prints_the_help_on_stdout_and_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = weft(tmp.path()).assert().code(2);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let full = weft(tmp.path()).arg("--help").assert().success();
    assert_eq!(
        stdout,
        String::from_utf8(full.get_output().stdout.clone()).unwrap()
    );
    assert!(stdout.contains("Without a command, weft starts an interactive session"));
    assert!(out.get_output().stderr.is_empty());
}
