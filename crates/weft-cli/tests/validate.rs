//! `weft skills validate`, run as a user would: the real binary on real files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use predicates::prelude::*;
use sandbox::{Sandbox, repo, stdout};

#[test]
fn valid_fixtures_pass_strict() {
    let s = Sandbox::new();
    s.weft_in_repo()
        .args(["skills", "validate", "--strict", "fixtures/skills/valid"])
        .assert()
        .success()
        .stdout("4 skills: 4 valid, 0 with warnings, 0 invalid\n");
}

#[test]
fn repository_skills_pass_strict() {
    let s = Sandbox::new();
    s.weft_in_repo()
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
    let s = Sandbox::new();
    let out = s
        .weft_in_repo()
        .args(["skills", "validate", "fixtures/skills/warnings"])
        .assert()
        .success();
    insta::assert_snapshot!("warnings", stdout(out.get_output()));
}

#[test]
fn every_invalid_fixture_is_explained_rustc_style() {
    let s = Sandbox::new();
    let out = s
        .weft_in_repo()
        .args(["skills", "validate", "fixtures/skills/invalid"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!("invalid", String::from_utf8(out).unwrap());
}

#[test]
fn json_has_one_object_per_skill() {
    let s = Sandbox::new();
    let out = s
        .weft_in_repo()
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
    let s = Sandbox::new();
    s.weft_in_repo()
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
    let s = Sandbox::new();
    s.outside(
        "claude-helper/SKILL.md",
        "---\nname: claude-helper\ndescription: Helps.\n---\nBody\n",
    );
    let default = s
        .weft()
        .args(["skills", "validate"])
        .arg(&s.root)
        .assert()
        .success();
    insta::assert_snapshot!("reserved_default", s.redact(&stdout(default.get_output())));
    let strict = s
        .weft()
        .args(["skills", "validate", "--strict"])
        .arg(&s.root)
        .assert()
        .code(1);
    insta::assert_snapshot!("reserved_strict", s.redact(&stdout(strict.get_output())));
}

#[test]
fn spec_profile_uses_reference_wording() {
    let s = Sandbox::new();
    s.outside(
        "versioned/SKILL.md",
        "---\nname: versioned\ndescription: Has a version.\nversion: 1.0.0\n---\nBody\n",
    );
    let spec = s
        .weft()
        .args(["skills", "validate", "--profile", "spec"])
        .arg(&s.root)
        .assert()
        .code(1);
    insta::assert_snapshot!("spec_wording", s.redact(&stdout(spec.get_output())));
    // The default profile accepts the extension key.
    s.weft()
        .args(["skills", "validate"])
        .arg(&s.root)
        .assert()
        .success();
}

#[test]
fn missing_paths_and_empty_directories_are_errors() {
    let s = Sandbox::new();
    let missing = s.root.join("nope");
    let missing = s
        .weft()
        .args(["skills", "validate"])
        .arg(&missing)
        .assert()
        .code(1);
    insta::assert_snapshot!("missing_path", s.redact(&stdout(missing.get_output())));
    let empty = s
        .weft()
        .args(["skills", "validate"])
        .arg(&s.root)
        .assert()
        .code(1);
    insta::assert_snapshot!("empty_directory", s.redact(&stdout(empty.get_output())));
}

#[test]
fn usage_errors_exit_2() {
    let s = Sandbox::new();
    s.weft_in_repo()
        .args(["skills", "validate"])
        .assert()
        .code(2);
    s.weft_in_repo()
        .args(["skills", "validate", "--profile", "nope", "."])
        .assert()
        .code(2);
}

/// The summary the sample's README states, between backticks after the command that prints
/// it: `100 skills: N valid, N with warnings, N invalid`.
fn readme_summary(readme: &str) -> String {
    let after = readme
        .split("`weft skills validate fixtures/corpus-sample` ends with")
        .nth(1)
        .expect("the sample's README states what `weft skills validate` prints");
    after.split('`').nth(1).unwrap().to_owned()
}

#[test]
fn the_corpus_sample_readme_states_what_validate_prints() {
    let s = Sandbox::new();
    let out = s
        .weft_in_repo()
        .args(["skills", "validate", "fixtures/corpus-sample"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let printed = String::from_utf8(out).unwrap();
    let summary = printed.lines().last().unwrap();
    let readme = std::fs::read_to_string(repo().join("fixtures/corpus-sample/README.md")).unwrap();
    assert_eq!(readme_summary(&readme), summary);
    // And the counts the corpus tests hold it to.
    let sample = weft_testkit::Corpus::available_under(&repo())
        .into_iter()
        .find(|c| c.name == "sample")
        .unwrap();
    let (clean, warned, invalid) = sample.expected.validate;
    assert_eq!(
        summary,
        format!(
            "{} skills: {clean} valid, {warned} with warnings, {invalid} invalid",
            sample.expected.files
        )
    );
}

#[test]
fn corpus_runs_to_the_end_and_explains_every_rejection() {
    let s = Sandbox::new();
    for corpus in weft_testkit::Corpus::available() {
        let out = s
            .weft()
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
