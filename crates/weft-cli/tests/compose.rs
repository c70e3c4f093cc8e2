//! `weft skills compose|check-tool|select` through the real binary, with the built-in seed 003
//! skills and skills written to a temporary project.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use predicates::prelude::*;

/// `weft` in an empty home and a temporary project holding `skills` (name, SKILL.md text).
fn weft_with(skills: &[(&str, &str)]) -> (tempfile::TempDir, impl Fn() -> Command) {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    for (name, text) in skills {
        let dir = project.join(".clawft/skills").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
    }
    std::fs::create_dir_all(project.join(".clawft")).unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let make = move || {
        let mut cmd = Command::cargo_bin("weft").unwrap();
        cmd.current_dir(&project)
            .env("HOME", &home)
            .env_remove("CLAWFT_PROJECT");
        cmd
    };
    (tmp, make)
}

#[test]
fn compose_produces_seed_003_composition_example() {
    let (_tmp, weft) = weft_with(&[]);
    let out = weft()
        .args([
            "skills",
            "compose",
            "specification-engine",
            "opencode-implementer",
            "--format",
            "json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "skills": ["specification-engine", "opencode-implementer"],
            "allowed_tools": ["specKit", "opencode-executor"],
            "forbidden_tools": ["write", "edit"],
            "execution_protocol": [
                "analyze-task", "generate-spec", "validate-spec",
                "read-spec", "implement", "verify"
            ]
        })
    );
}

#[test]
fn invalid_sets_exit_1_with_the_validation_result() {
    let (_tmp, weft) = weft_with(&[]);
    let out = weft()
        .args([
            "skills",
            "compose",
            "opencode-implementer",
            "--format",
            "json",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["valid"], false);
    assert_eq!(json["errors"][0]["code"], "V002");
    assert!(
        json["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("specification-engine")
    );
    weft()
        .args(["skills", "compose", "no-such-skill"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("V001"));
}

#[test]
fn compose_respects_the_ceiling_and_intersect_mode() {
    let (_tmp, weft) = weft_with(&[
        (
            "reader",
            "---\nname: reader\ndescription: Reads\nallowed-tools: read_file grep\n---\n",
        ),
        (
            "writer",
            "---\nname: writer\ndescription: Writes\nallowed-tools: read_file write_file\n---\n",
        ),
    ]);
    weft()
        .args(["skills", "compose", "reader", "writer"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "allowed tools: read_file, grep, write_file",
        ));
    weft()
        .args([
            "skills",
            "compose",
            "reader",
            "writer",
            "--mode",
            "intersect",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("allowed tools: read_file\n"));
    weft()
        .args([
            "skills",
            "compose",
            "reader",
            "writer",
            "--ceiling",
            "read_file,grep",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("allowed tools: read_file, grep\n"));
}

#[test]
fn check_tool_allows_and_denies_with_reasons() {
    let (_tmp, weft) = weft_with(&[(
        "git-helper",
        "---\nname: git-helper\ndescription: Git\nallowed-tools: Bash(git:*) Read\n---\n",
    )]);
    weft()
        .args(["skills", "check-tool", "write", "--skills"])
        .arg("specification-engine,opencode-implementer")
        .assert()
        .code(1)
        .stdout("denied: `write` is forbidden by skill 'opencode-implementer'\n");
    weft()
        .args(["skills", "check-tool", "specKit", "--skills"])
        .arg("specification-engine,opencode-implementer")
        .assert()
        .success()
        .stdout("allowed\n");
    weft()
        .args([
            "skills",
            "check-tool",
            "exec_shell",
            "--skills",
            "git-helper",
            "--input",
            r#"{"command": "git status"}"#,
        ])
        .assert()
        .success()
        .stdout("allowed\n");
    weft()
        .args([
            "skills",
            "check-tool",
            "Bash",
            "--skills",
            "git-helper",
            "--input",
            r#"{"command": "git status; rm -rf /"}"#,
        ])
        .assert()
        .code(1)
        .stdout("denied: `rm -rf /` matches none of the allowed `Bash(git:*)` from skill 'git-helper'\n");
    // A ceiling narrower than the skills wins.
    weft()
        .args([
            "skills",
            "check-tool",
            "read_file",
            "--skills",
            "git-helper",
            "--ceiling",
            "grep",
            "--input",
            r#"{"path": "README.md"}"#,
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("denied: "));
}

#[test]
fn select_gives_coding_tasks_both_coding_skills() {
    let (_tmp, weft) = weft_with(&[(
        "release-notes",
        "---\nname: release-notes\ndescription: Write release notes from merged pull requests. Use when preparing a release.\n---\n",
    )]);
    weft()
        .args([
            "skills",
            "select",
            "--description",
            "add a login page",
            "--coding",
        ])
        .assert()
        .success()
        .stdout("specification-engine\nopencode-implementer\n");
    weft()
        .args([
            "skills",
            "select",
            "--description",
            "write release notes for the merged pull requests",
            "--risk",
            "low",
        ])
        .assert()
        .success()
        .stdout("release-notes\n");
}

#[test]
fn check_tool_has_three_verdicts_and_explains_with_v() {
    let (_tmp, weft) = weft_with(&[(
        "git-helper",
        "---\nname: git-helper\ndescription: Git\nallowed-tools: Bash(git:*) Read\n---\n",
    )]);
    let check = |command: &str, extra: &[&str]| {
        let mut cmd = weft();
        cmd.args(["skills", "check-tool", "Bash", "--skills", "git-helper"])
            .args(extra)
            .arg("--input")
            .arg(serde_json::json!({ "command": command }).to_string());
        cmd
    };
    check("git log --oneline | head -5", &[])
        .assert()
        .code(0)
        .stdout("allowed\n");
    check("git -c alias.x='!sh' x", &[])
        .assert()
        .code(3)
        .stdout("ask: `git -c` can run other programs, in `git -c 'alias.x=!sh' x`\n");
    check("sh -c 'git -C . push'", &["--deny", "Bash(git push:*)"])
        .assert()
        .code(1)
        .stdout("denied: `git -C . push` (in `sh -c`) matches `Bash(git push:*)`, forbidden by the session\n");
    check("git log | head -5; rm -rf build", &["-v"])
        .assert()
        .code(1)
        .stdout(concat!(
            "denied: `rm -rf build` matches none of the allowed `Bash(git:*)` from skill 'git-helper'\n",
            "commands:\n",
            "  `git log`\n",
            "    allowed by `Bash(git:*)` from skill 'git-helper'\n",
            "  `head -5`\n",
            "    read-only helper, accepted by skill 'git-helper'\n",
            "  `rm -rf build`\n",
            "    matches no allow of skill 'git-helper'\n",
        ));
    check("$CMD x", &["-v"])
        .assert()
        .code(3)
        .stdout(concat!(
            "ask: the program name `$CMD` is not literal, so the command cannot be checked against `Bash(git:*)` from skill 'git-helper'\n",
            "commands:\n",
            "cannot analyse: the program name `$CMD` is not literal\n",
        ));
    weft()
        .args(["skills", "check-tool", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ask: <reason>      the patterns cannot pre-approve it",
        ));
}
