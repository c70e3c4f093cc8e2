//! The README's commands, run: every command of its `sh` blocks that needs no model runs
//! against the real binary in a fresh home and project, in order, and must exit as the
//! README says (0, or the `exit N` its comment starts with), so a statement of the README
//! cannot drift from what weft does. What is left out is said on the line itself ("needs a
//! model") or is a `cargo` command (building and testing weft is what this test is part of);
//! the test prints the list. `export` lines set the environment of the commands after them;
//! a line that is a comment is not a command. The links to `docs/` must lead somewhere, and
//! CONFIG.md's full example of the configuration loads.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::sandbox::{HOST_VARS, Sandbox, repo};

/// One command line of the README, with the comment that follows it.
#[derive(Debug)]
struct Line {
    command: String,
    comment: String,
}

/// Why a line is left out, when it is.
fn skipped(line: &Line) -> Option<&'static str> {
    if line.comment.contains("needs a model") {
        Some("needs a model")
    } else if line.command.starts_with("cargo ") {
        Some("builds or tests weft itself")
    } else {
        None
    }
}

/// The exit status the README promises: `exit N` at the start of the comment, else 0.
fn expected_status(line: &Line) -> i32 {
    line.comment
        .strip_prefix("exit ")
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The command lines of every ```sh block of `text`, in order: the command, and its comment
/// (after `  # `). Quotes are respected when looking for the comment.
fn sh_lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut inside = false;
    for raw in text.lines() {
        if raw.starts_with("```") {
            inside = !inside && raw.trim() == "```sh";
            continue;
        }
        let trimmed = raw.trim();
        if !inside || trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (command, comment) = split_comment(trimmed);
        out.push(Line {
            command: command.trim().to_owned(),
            comment: comment.trim().to_owned(),
        });
    }
    out
}

/// `cmd   # comment` split at the first `#` outside quotes that follows whitespace.
fn split_comment(line: &str) -> (&str, &str) {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if previous.is_whitespace() => return (&line[..i], &line[i + 1..]),
            _ => {}
        }
        previous = c;
    }
    (line, "")
}

/// `export A=1 B=2` as its assignments.
fn exports(command: &str) -> Option<Vec<(String, String)>> {
    let rest = command.strip_prefix("export ")?;
    Some(
        rest.split_whitespace()
            .filter_map(|a| a.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect(),
    )
}

#[test]
fn every_readme_command_that_needs_no_model_runs_as_the_readme_says() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let lines = sh_lines(&readme);
    assert!(lines.len() > 10, "{lines:?}");
    let s = Sandbox::new();
    // `weft` on the PATH is the binary under test.
    let bin = Path::new(env!("CARGO_BIN_EXE_weft")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), super::sandbox::SYSTEM_PATH);
    let mut env: Vec<(String, String)> = Vec::new();
    let mut left_out = Vec::new();
    for line in &lines {
        if let Some(why) = skipped(line) {
            left_out.push(format!("{}  ({why})", line.command));
            continue;
        }
        if let Some(assignments) = exports(&line.command) {
            env.extend(assignments);
            continue;
        }
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(&line.command)
            .current_dir(&s.project)
            .env("HOME", &s.home)
            .env("PATH", &path)
            .stdin(std::process::Stdio::null());
        for var in HOST_VARS {
            cmd.env_remove(var);
        }
        cmd.envs(env.iter().map(|(k, v)| (k, v)));
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(expected_status(line)),
            "README: `{}` (# {})\nstdout:\n{}\nstderr:\n{}",
            line.command,
            line.comment,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // A comment that quotes the output is what the output says.
        if line.comment.starts_with("1 skill:") {
            assert!(
                String::from_utf8_lossy(&out.stdout).contains(&line.comment),
                "README: `{}` should print `{}`",
                line.command,
                line.comment
            );
        }
    }
    println!("README commands left out:\n  {}", left_out.join("\n  "));
    // Only what is marked, and the cargo commands, are left out.
    assert!(
        left_out
            .iter()
            .all(|l| l.contains("needs a model") || l.starts_with("cargo "))
    );
}

#[test]
fn readme_links_to_docs_lead_to_files() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let mut checked = 0;
    for part in readme.split("](").skip(1) {
        let target = part.split([')', '#']).next().unwrap_or("");
        if target.starts_with("http") || target.is_empty() {
            continue;
        }
        assert!(
            repo().join(target).exists(),
            "README links to {target}, which does not exist"
        );
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
    let lines = readme.lines().count();
    assert!(
        lines <= 150,
        "the README has {lines} lines; it should stay under about 150"
    );
}

/// CONFIG.md's example of every key loads as it is written (with its keys' variables set and
/// the replay recording it names beside it), and a dry run works with it.
#[test]
fn config_md_full_example_loads() {
    let config = std::fs::read_to_string(repo().join("docs/CONFIG.md")).unwrap();
    let section = config.split("\n## Keys\n").nth(1).unwrap();
    let json = section
        .split("```json\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .unwrap();
    serde_json::from_str::<serde_json::Value>(json).unwrap();
    let s = Sandbox::new();
    let file: PathBuf = s.outside("keys/config.json", json);
    s.outside("keys/recording.jsonl", "");
    for args in [
        vec!["config", "show"],
        vec!["agent", "--dry-run", "-m", "hello"],
    ] {
        let out = s
            .weft()
            .arg("--config")
            .arg(&file)
            .args(&args)
            .env("OPENAI_API_KEY", "sk-test")
            .env("ANTHROPIC_API_KEY", "sk-ant-test")
            .env("OPENROUTER_API_KEY", "sk-or-test")
            .env("GITHUB_TOKEN", "ghp-test")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
