//! `weft skills compose|check-tool|select` through the real binary, with the built-in seed 003
//! skills and skills written to a temporary project.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use sandbox::{Sandbox, snapshot, stdout};

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

/// The built-in seed 003 skills compose into weft's own tools (the seed's `specKit` and
/// `opencode-executor` do not exist here; `check_tool_allows_and_denies_with_reasons` keeps
/// the seed's shape with project skills).
#[test]
fn compose_of_the_builtin_seed_003_skills_grants_weft_tools() {
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
            "allowed_tools": [
                "read_file", "grep", "glob", "list_directory", "edit_file", "write_file",
                "exec_shell"
            ],
            "forbidden_tools": [],
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
    // Seed 003's pair as the seed writes it, as project skills.
    let s = with_skills(&[
        (
            "git-helper",
            "---\nname: git-helper\ndescription: Git\nallowed-tools: Bash(git:*) Read\n---\n",
        ),
        (
            "spec-engine",
            "---\nname: spec-engine\ndescription: Specs\nallowed-tools: specKit\n---\n",
        ),
        (
            "implementer",
            "---\nname: implementer\ndescription: Implements\nallowed-tools: opencode-executor\nforbidden-tools: write edit\n---\n",
        ),
    ]);
    s.bare()
        .args(["skills", "check-tool", "write", "--skills"])
        .arg("spec-engine,implementer")
        .assert()
        .code(1)
        .stdout("denied: `write` is forbidden by skill 'implementer'\n");
    // In `auto` what the restriction allows runs; in `ask` (the default) it asks.
    s.bare()
        .args([
            "--permission-mode",
            "auto",
            "skills",
            "check-tool",
            "specKit",
        ])
        .args(["--skills", "spec-engine,implementer"])
        .assert()
        .success()
        .stdout("allowed\n");
    s.bare()
        .args(["skills", "check-tool", "specKit", "--skills"])
        .arg("spec-engine,implementer")
        .assert()
        .code(3)
        .stdout("ask: `specKit` may change something (no pre-approval pattern matches this `specKit` call)\n");
    s.bare()
        .args([
            "--permission-mode",
            "auto",
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
    // In `auto` the answer is the restriction's alone.
    let check = |command: &str, extra: &[&str]| {
        let mut cmd = s.bare();
        cmd.args(["--permission-mode", "auto"])
            .args(["skills", "check-tool", "Bash", "--skills", "git-helper"])
            .args(extra)
            .arg("--input")
            .arg(serde_json::json!({ "command": command }).to_string());
        cmd
    };
    check("git log --oneline | head -5", &[])
        .assert()
        .code(0)
        .stdout("allowed\n");
    check("git -c alias.x='!git log' x", &[])
        .assert()
        .code(3)
        .stdout("ask: `git -c` can run other programs, in `git -c 'alias.x=!git log' x`\n");
    check("git -c alias.x='!sh' x", &[])
        .assert()
        .code(1)
        .stdout("denied: `sh` (in `git -c alias.x`) matches none of the allowed `Bash(git:*)` from skill 'git-helper'\n");
    check("sh -c 'git -C . push'", &["--deny", "Bash(git push:*)"])
        .assert()
        .code(1)
        .stdout("denied: `git -C . push` (in `sh -c`) matches `Bash(git push:*)`, forbidden by `--deny`\n");
    check("git log | head -5; rm -rf build", &["-v"])
        .assert()
        .code(1)
        .stdout(concat!(
            "denied: `rm -rf build` matches none of the allowed `Bash(git:*)` from skill 'git-helper'\n",
            "permission mode: auto\n",
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
            "permission mode: auto\n",
            "not pre-approved: no pre-approval pattern matches this `Bash` call\n",
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

/// A user configuration with `tools.deny` and `permissions.allow`, a skill that restricts
/// nothing, and `weft skills check-tool` answering for each command as a session would.
#[test]
fn check_tool_decides_as_a_session_with_the_configuration() {
    let s = with_skills(&[(
        "plain",
        "---\nname: plain\ndescription: Restricts nothing\n---\n",
    )]);
    // Without the sandbox, so read-only commands ask as any other (`check_tool_says_read_only`).
    s.user_config(&serde_json::json!({
        "tools": {"deny": ["Bash(rm:*)"]},
        "permissions": {"allow": ["Bash(git status:*)", "Bash(cargo test:*)"]},
        "sandbox": {"enabled": false}
    }));
    let check = |mode: Option<&str>, tool: &str, input: serde_json::Value, verbose: bool| {
        let mut cmd = s.bare();
        if let Some(mode) = mode {
            cmd.args(["--permission-mode", mode]);
        }
        if verbose {
            cmd.arg("-v");
        }
        cmd.args(["skills", "check-tool", tool, "--skills", "plain", "--input"])
            .arg(input.to_string());
        let output = cmd.output().unwrap();
        let label = format!(
            "{}check-tool {tool}{} {input}",
            mode.map_or(String::new(), |m| format!("--permission-mode {m} ")),
            if verbose { " -v" } else { "" }
        );
        sandbox::render(&label, &output)
    };
    let bash = |c: &str| serde_json::json!({ "command": c });
    let mut out = String::new();
    // The audit's bypasses of the configuration's deny, in `auto` (where nothing else asks).
    for command in [
        "eval rm x",
        "time -o t.out rm v1",
        "env - rm v2",
        "sh /dev/stdin <<EOF\nrm v3\nEOF",
        "awk \"BEGIN{system(\\\"rm v4\\\")}\"",
        "git -c alias.x=\"!rm -f src/a.txt\" x",
        "git -c core.pager='rm x' log",
        "sed -n '1e rm x' f",
        "tar -xf a.tar --to-command='rm x'",
        "rsync -e 'rm x' a b",
        ". /dev/stdin <<< 'rm x'",
        "script -qc 'rm x' /dev/null",
        "flock /tmp/l rm x",
        "pkexec rm x",
    ] {
        out.push_str(&check(Some("auto"), "Bash", bash(command), false));
    }
    // `ask` (the default): pre-approved commands run, others ask, denied ones do not run.
    for command in [
        "git status",
        "cargo test 2>&1 | tail",
        "git status > status.txt",
        "git status > ../status.txt",
        "git log",
        "eval rm x",
    ] {
        out.push_str(&check(None, "Bash", bash(command), false));
    }
    out.push_str(&check(
        None,
        "read_file",
        serde_json::json!({"path": "README.md"}),
        false,
    ));
    out.push_str(&check(
        None,
        "write_file",
        serde_json::json!({"path": "notes.md", "content": "x"}),
        false,
    ));
    out.push_str(&check(
        Some("accept-edits"),
        "write_file",
        serde_json::json!({"path": "notes.md", "content": "x"}),
        false,
    ));
    out.push_str(&check(Some("plan"), "Bash", bash("git status"), false));
    // `-v`: which rule of which layer decided each simple command.
    out.push_str(&check(
        None,
        "Bash",
        bash("git status && git log | head -3; tar -xf a.tar --to-command='rm x'"),
        true,
    ));
    out.push_str(&check(None, "Bash", bash("git status | wc -l"), true));
    out.push_str(&check(
        Some("auto"),
        "Bash",
        bash("awk 'BEGIN{system(\"ls\")}'"),
        true,
    ));
    snapshot!(s, "check_tool_with_the_configuration", out);
}

/// Without `--skills`, `check-tool` answers for a session of the default agent with no skill
/// loaded: the configuration's deny and pre-approval still apply.
#[test]
fn check_tool_without_skills_answers_for_the_plain_session() {
    let s = with_skills(&[]);
    s.user_config(&serde_json::json!({
        "tools": {"deny": ["Bash(rm:*)"]},
        "permissions": {"allow": ["Bash(git status:*)"]},
        "sandbox": {"enabled": false}
    }));
    let mut out = String::new();
    for (mode, command) in [
        ("auto", "env - rm x"),
        ("auto", "git log"),
        ("ask", "git status"),
        ("ask", "git log"),
    ] {
        let output = s
            .bare()
            .args([
                "--permission-mode",
                mode,
                "skills",
                "check-tool",
                "Bash",
                "--input",
            ])
            .arg(serde_json::json!({ "command": command }).to_string())
            .output()
            .unwrap();
        out.push_str(&sandbox::render(
            &format!("--permission-mode {mode} check-tool Bash {command}"),
            &output,
        ));
    }
    snapshot!(s, "check_tool_without_skills", out);
}

/// `--format json` carries the mode and each command's rulings, pre-approval included.
#[test]
fn check_tool_json_names_the_mode_and_the_rulings() {
    let s = with_skills(&[(
        "plain",
        "---\nname: plain\ndescription: Restricts nothing\n---\n",
    )]);
    s.user_config(&serde_json::json!({
        "tools": {"deny": ["Bash(rm:*)"]},
        "permissions": {"allow": ["Bash(git status:*)"]},
        "sandbox": {"enabled": false}
    }));
    let output = s
        .bare()
        .args([
            "skills",
            "check-tool",
            "Bash",
            "--skills",
            "plain",
            "--format",
            "json",
        ])
        .args(["--input", r#"{"command": "git status; git log"}"#])
        .output()
        .unwrap();
    assert_eq!(sandbox::code(&output), 3);
    snapshot!(s, "check_tool_json", stdout(&output));
}

/// Whether this machine runs commands in the sandbox (`weft sandbox status`).
fn sandboxed_here(s: &Sandbox) -> bool {
    let output = s
        .bare()
        .args(["sandbox", "status", "--format", "json"])
        .output()
        .unwrap();
    sandbox::stdout_json(&output)["exec_shell"]["mode"] == "sandboxed"
}

/// A command that only reads inside the project runs without asking in `ask`, `accept-edits`
/// and `dont-ask`, in the read-only sandbox; restriction still wins, `plan` still refuses,
/// and what the table does not list asks. Where this machine has no sandbox, they ask.
#[test]
fn check_tool_says_read_only() {
    let s = with_skills(&[(
        "git-helper",
        "---\nname: git-helper\ndescription: Git\nallowed-tools: Bash(git:*) Read\n---\n",
    )]);
    s.user_config(&serde_json::json!({"tools": {"deny": ["Bash(rm:*)"]}}));
    let check = |mode: &str, command: &str, skills: bool| {
        let mut cmd = s.bare();
        cmd.args(["--permission-mode", mode, "skills", "check-tool", "Bash"]);
        if skills {
            cmd.args(["--skills", "git-helper"]);
        }
        cmd.arg("--input")
            .arg(serde_json::json!({ "command": command }).to_string());
        let output = cmd.output().unwrap();
        let label = format!(
            "--permission-mode {mode} check-tool Bash{} {command}",
            if skills { " --skills git-helper" } else { "" }
        );
        sandbox::render(&label, &output)
    };
    if !sandboxed_here(&s) {
        assert!(check("ask", "git log -3", false).contains("(exit 3)"));
        return;
    }
    let mut out = String::new();
    for (mode, command, skills) in [
        ("ask", "git log --oneline -3 | head", false),
        ("accept-edits", "ls -la src && rg -n fn src", false),
        ("dont-ask", "git status --short", false),
        ("ask", "cat README.md | wc -l", false),
        // Not on the table, a write, outside the project: as any command.
        ("ask", "cargo build", false),
        ("ask", "git log > log.txt", false),
        ("dont-ask", "cat ~/.ssh/id_rsa", false),
        // Restriction wins: a deny, a skill's allow list and its doubt.
        ("ask", "ls; rm x", false),
        ("ask", "find . -name '*.rs'", true),
        ("ask", "git -c core.pager=cat log", true),
        ("plan", "ls", false),
        // `auto` runs it anyway: the label is for what runs because it only reads.
        ("auto", "ls", false),
    ] {
        out.push_str(&check(mode, command, skills));
    }
    snapshot!(s, "check_tool_read_only", out);
}
