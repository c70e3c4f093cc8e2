//! `weft skills validate`, run as a user would: the real binary on real files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn weft() -> Command {
    let mut cmd = Command::cargo_bin("weft").unwrap();
    cmd.current_dir(repo());
    cmd
}

fn write_skill(root: &Path, dir: &str, text: &str) -> PathBuf {
    let path = root.join(dir).join("SKILL.md");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn valid_fixtures_pass_strict() {
    weft()
        .args(["skills", "validate", "--strict", "fixtures/skills/valid"])
        .assert()
        .success()
        .stdout("4 skills: 4 valid, 0 with warnings, 0 invalid\n");
}

#[test]
fn repository_skills_pass_strict() {
    weft()
        .args([
            "skills",
            "validate",
            "--strict",
            ".claude/skills",
            ".clawft/skills",
        ])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("0 invalid\n"));
}

#[test]
fn warnings_do_not_fail() {
    weft()
        .args(["skills", "validate", "fixtures/skills/warnings"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "warning[W103]: name `name-mismatch` differs from its directory `name-mismatch-dir`\n --> fixtures/skills/warnings/name-mismatch-dir/SKILL.md:2:7\n",
        ))
        .stdout(predicate::str::contains("warning[W005]: UTF-8 byte-order mark stripped"))
        .stdout(predicate::str::ends_with(
            "3 skills: 0 valid, 3 with warnings, 0 invalid\n",
        ));
}

#[test]
fn every_invalid_fixture_is_explained_rustc_style() {
    let out = weft()
        .args(["skills", "validate", "fixtures/skills/invalid"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    for expected in [
        "error[E101]: name `Bad_Name` must be lowercase\n --> fixtures/skills/invalid/Bad_Name/SKILL.md:2:7",
        "error[E020]: invalid YAML: unclosed bracket '['\n --> fixtures/skills/invalid/bad-yaml/SKILL.md:3:14",
        "error[E025]: the value contains `: ` and is not quoted",
        "error[E021]: YAML exceeds a safety limit: nesting depth 65 exceeds the limit of 64",
        "error[E022]: invalid YAML: duplicate mapping key: description",
        " --> fixtures/skills/invalid/duplicate-key/SKILL.md:4:1",
        "error[E001]: file is not valid UTF-8: invalid byte sequence at byte 39\n --> fixtures/skills/invalid/invalid-utf8/SKILL.md:3:1",
        "error[E132]: `allowed-tools` has unbalanced parentheses",
        "error[E110]: no `description` and the body has no paragraph to use instead",
        "error[E006]: frontmatter opened with `---` is never closed by a `---` line\n --> fixtures/skills/invalid/unclosed/SKILL.md:1:1",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
    assert!(
        out.ends_with("9 skills: 0 valid, 0 with warnings, 9 invalid\n"),
        "{out}"
    );
}

#[test]
fn json_has_one_object_per_skill() {
    let out = weft()
        .args([
            "skills",
            "validate",
            "--format",
            "json",
            "fixtures/skills/valid",
            "fixtures/skills/invalid/unclosed",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let items = json.as_array().unwrap();
    assert_eq!(items.len(), 5);
    let research = items
        .iter()
        .find(|i| i["name"] == "research")
        .expect("research is reported");
    assert_eq!(research["valid"], true);
    assert_eq!(research["path"], "fixtures/skills/valid/research/SKILL.md");
    let unclosed = items.iter().find(|i| i["name"] == "unclosed").unwrap();
    assert_eq!(unclosed["valid"], false);
    assert_eq!(unclosed["diagnostics"][0]["code"], "E006");
    assert_eq!(unclosed["diagnostics"][0]["line"], 1);
}

#[test]
fn a_skill_file_can_be_named_directly() {
    weft()
        .args([
            "skills",
            "validate",
            "fixtures/skills/valid/research/SKILL.md",
            "fixtures/skills/valid/summarize/skill.json",
        ])
        .assert()
        .success()
        .stdout("2 skills: 2 valid, 0 with warnings, 0 invalid\n");
}

#[test]
fn strict_raises_reserved_words() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "claude-helper",
        "---\nname: claude-helper\ndescription: Helps.\n---\nBody\n",
    );
    Command::cargo_bin("weft")
        .unwrap()
        .args(["skills", "validate"])
        .arg(tmp.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("warning[W102]"));
    Command::cargo_bin("weft")
        .unwrap()
        .args(["skills", "validate", "--strict"])
        .arg(tmp.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "error[E102]: name `claude-helper` contains the reserved word `claude`",
        ));
}

#[test]
fn spec_profile_uses_reference_wording() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "versioned",
        "---\nname: versioned\ndescription: Has a version.\nversion: 1.0.0\n---\nBody\n",
    );
    Command::cargo_bin("weft")
        .unwrap()
        .args(["skills", "validate", "--profile", "spec"])
        .arg(tmp.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "error[E127]: Unexpected fields in frontmatter: version. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
        ));
    // The default profile accepts the extension key.
    Command::cargo_bin("weft")
        .unwrap()
        .args(["skills", "validate"])
        .arg(tmp.path())
        .assert()
        .success();
}

#[test]
fn missing_paths_and_empty_directories_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nope");
    Command::cargo_bin("weft")
        .unwrap()
        .args(["skills", "validate"])
        .arg(&missing)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[E015]: path does not exist"));
    Command::cargo_bin("weft")
        .unwrap()
        .args(["skills", "validate"])
        .arg(tmp.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "error[E014]: no SKILL.md or skill.json found",
        ));
}

#[test]
fn usage_errors_exit_2() {
    weft().args(["skills", "validate"]).assert().code(2);
    weft()
        .args(["skills", "validate", "--profile", "nope", "."])
        .assert()
        .code(2);
}

#[test]
fn corpus_runs_to_the_end_and_explains_every_rejection() {
    for corpus in weft_testkit::Corpus::available() {
        let out = Command::cargo_bin("weft")
            .unwrap()
            .args(["skills", "validate", "--format", "json"])
            .arg(&corpus.dir)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let items = json.as_array().unwrap();
        assert_eq!(items.len(), corpus.expected.files, "{} corpus", corpus.name);
        let invalid: Vec<_> = items.iter().filter(|i| i["valid"] == false).collect();
        assert_eq!(
            invalid.len(),
            corpus.expected.validate.2,
            "{} corpus",
            corpus.name
        );
        for item in invalid {
            let errors = item["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["severity"] == "error")
                .count();
            assert!(errors > 0, "{item} is invalid without an error");
        }
    }
}
