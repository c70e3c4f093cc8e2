//! `weft skills compose|check-tool|select` through the real binary, with the built-in seed 003
//! skills and skills written to a temporary project.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sandbox;

use sandbox::{Sandbox, stdout};

/// An empty home and a project holding `skills` (name, SKILL.md text); `weft` runs in the
/// project through [`Sandbox::bare`].
fn with_skills(skills: &[(&str, &str)]) -> Sandbox {
    let s = Sandbox::new();
    std::fs::create_dir_all(s.project.join(".clawft")).unwrap();
    for (name, text) in skills {
        s.file(&format!(".clawft/skills/{name}/SKILL.md"), text);
    }
    s
}

#[test]
fn compose_produces_seed_003_composition_example() {
    let s = with_skills(&[]);
    let out = s
        .bare()
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
    let s = with_skills(&[]);
    let out = s
        .bare()
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
    insta::assert_snapshot!(
        "invalid_set_message",
        json["errors"][0]["message"].as_str().unwrap()
    );
    let unknown = s
        .bare()
        .args(["skills", "compose", "no-such-skill"])
        .assert()
        .code(1);
    insta::assert_snapshot!("unknown_skill", stdout(unknown.get_output()));
}

#[test]
fn compose_respects_the_ceiling_and_intersect_mode() {
    let s = with_skills(&[
        (
            "reader",
            "---\nname: reader\ndescription: Reads\nallowed-tools: read_file grep\n---\n",
        ),
        (
            "writer",
            "---\nname: writer\ndescription: Writes\nallowed-tools: read_file write_file\n---\n",
        ),
    ]);
    let union = s
        .bare()
        .args(["skills", "compose", "reader", "writer"])
        .assert()
        .success();
    insta::assert_snapshot!("union", stdout(union.get_output()));
    let intersect = s
        .bare()
        .args([
            "skills",
            "compose",
            "reader",
            "writer",
            "--mode",
            "intersect",
        ])
        .assert()
        .success();
    insta::assert_snapshot!("intersect", stdout(intersect.get_output()));
    let ceiling = s
        .bare()
        .args([
            "skills",
            "compose",
            "reader",
            "writer",
            "--ceiling",
            "read_file,grep",
        ])
        .assert()
        .success();
    insta::assert_snapshot!("ceiling", stdout(ceiling.get_output()));
}

#[test]
fn check_tool_allows_and_denies_with_reasons() {
    let s = with_skills(&[(
        "git-helper",
        "---\nname: git-helper\ndescription: Git\nallowed-tools: Bash(git:*) Read\n---\n",
    )]);
    s.bare()
        .args(["skills", "check-tool", "write", "--skills"])
        .arg("specification-engine,opencode-implementer")
        .assert()
        .code(1)
        .stdout("denied: `write` is forbidden by skill 'opencode-implementer'\n");
    s.bare()
        .args(["skills", "check-tool", "specKit", "--skills"])
        .arg("specification-engine,opencode-implementer")
        .assert()
        .success()
        .stdout("allowed\n");
    s.bare()
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
    s.bare()
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
    let narrower = s
        .bare()
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
        .code(1);
    insta::assert_snapshot!("ceiling_denies", stdout(narrower.get_output()));
}

#[test]
fn select_gives_coding_tasks_both_coding_skills() {
    let s = with_skills(&[(
        "release-notes",
        "---\nname: release-notes\ndescription: Write release notes from merged pull requests. Use when preparing a release.\n---\n",
    )]);
    s.bare()
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
    s.bare()
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
    let s = with_skills(&[(
        "git-helper",
        "---\nname: git-helper\ndescription: Git\nallowed-tools: Bash(git:*) Read\n---\n",
    )]);
    let check = |command: &str, extra: &[&str]| {
        let mut cmd = s.bare();
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
    let help = s
        .bare()
        .args(["skills", "check-tool", "--help"])
        .assert()
        .success();
    insta::assert_snapshot!("check_tool_help", stdout(help.get_output()));
}
