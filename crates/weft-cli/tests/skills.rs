//! `weft skills list|show` on real directories: project detection, every scope, shadowing,
//! JSON output, and the repository's own skills.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::sandbox;

use assert_cmd::Command;
use sandbox::{Sandbox, render, repo, snapshot, write_skill};

/// `weft` run in `<project>/src/deep` with only `HOME` set: the project is detected.
fn weft(s: &Sandbox) -> Command {
    let dir = s.project.join("src/deep");
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = s.bare();
    cmd.current_dir(dir);
    cmd
}

#[test]
fn list_shows_every_scope_in_the_seed_layout() {
    let s = Sandbox::project_under_home();
    write_skill(
        &s.project.join(".clawft/skills"),
        "deploy",
        "Deploy to production",
    );
    write_skill(
        &s.project.join(".claude/skills"),
        "code-review",
        "Review code for quality",
    );
    write_skill(
        &s.home.join(".clawft/skills"),
        "research",
        "Deep research on topics",
    );
    write_skill(
        &s.home.join(".clawft/workspace/skills"),
        "summarize",
        "Summarize documents",
    );
    let extra = s.home.join("extra");
    write_skill(&extra, "plugin-skill", "From a plugin dir");
    let rows = [
        ("NAME", "DESCRIPTION", "SCOPE", "FORMAT"),
        (
            "code-review",
            "Review code for quality",
            "project",
            "SKILL.md",
        ),
        ("deploy", "Deploy to production", "project", "SKILL.md"),
        (
            "opencode-implementer",
            "Executes code implementation based on specifications",
            "builtin",
            "definition",
        ),
        ("plugin-skill", "From a plugin dir", "plugin", "SKILL.md"),
        ("research", "Deep research on topics", "user", "SKILL.md"),
        (
            "specification-engine",
            "Generates specifications for implementation tasks",
            "builtin",
            "definition",
        ),
        ("summarize", "Summarize documents", "workspace", "SKILL.md"),
    ];
    // Columns are as wide as their widest cell plus two spaces.
    let expected: String = rows
        .iter()
        .map(|(n, d, s, f)| format!("{n:<22}{d:<54}{s:<11}{f}\n"))
        .collect();
    weft(&s)
        .args(["skills", "list", "--skills-dir"])
        .arg(&extra)
        .assert()
        .success()
        .stdout(expected);
}

#[test]
fn scope_filter_all_and_json() {
    let s = Sandbox::project_under_home();
    write_skill(
        &s.project.join(".claude/skills"),
        "shared",
        "Project version",
    );
    write_skill(&s.home.join(".claude/skills"), "shared", "User version");
    let run = |args: &[&str]| {
        let out = weft(&s).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        render(&args.join(" "), &out)
    };
    // Built-ins only; the override is reported (SEC-SKILL-06), -v shows the warning itself,
    // and not once the project is trusted; --all shows the shadowed copy.
    let text: String = [
        run(&["skills", "list", "--scope", "builtin"]),
        run(&["-v", "skills", "list"]),
        run(&["--trust-project-skills", "-v", "skills", "list"]),
        run(&["skills", "list", "--all"]),
    ]
    .concat();
    snapshot!(s, "scopes_override_shadowed", text);
    let out = weft(&s)
        .args(["skills", "list", "--all", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let shared = json
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "shared")
        .unwrap();
    assert_eq!(shared["scope"], "project");
    assert_eq!(shared["description"], "Project version");
    assert_eq!(shared["shadows"][0]["scope"], "user");
    assert_eq!(shared["shadows"][0]["description"], "User version");
}

#[test]
fn clawft_project_env_and_flags_choose_the_project() {
    let s = Sandbox::project_under_home();
    let other = s.home.join("other");
    write_skill(
        &other.join(".clawft/skills"),
        "elsewhere",
        "In another project",
    );
    let names = |cmd: &mut assert_cmd::Command| -> Vec<String> {
        let out = cmd
            .args(["skills", "list", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json.as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let from_env = names(weft(&s).env("CLAWFT_PROJECT", &other));
    assert!(from_env.iter().any(|n| n == "elsewhere"), "{from_env:?}");
    let from_flag = names(weft(&s).arg("--project").arg(&other));
    assert_eq!(from_flag, from_env);
    // Without a marker the project is not found, and the home directory never counts.
    std::fs::create_dir_all(s.home.join(".claude")).unwrap();
    let none = names(&mut weft(&s));
    assert!(!none.iter().any(|n| n == "elsewhere"), "{none:?}");
    assert_eq!(none.len() + 1, from_env.len(), "only `elsewhere` differs");
}

#[test]
fn a_linked_home_is_never_the_project() {
    // HOME=<tmp>/hlink -> <tmp>/hreal, working in <tmp>/hreal/proj (no marker, no git).
    let s = Sandbox::new();
    let real = s.dir("hreal");
    let link = s.root.join("hlink");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let work = s.dir("hreal/proj");
    write_skill(&real.join(".claude/skills"), "mine", "A user skill");
    std::fs::create_dir_all(real.join(".clawft")).unwrap();
    std::fs::write(
        real.join(".clawft/config.json"),
        r#"{"permissions":{"mode":"plan"}}"#,
    )
    .unwrap();
    let mut cmd = s.bare();
    cmd.current_dir(&work).env("HOME", &link);
    let skills = cmd
        .args(["skills", "list", "--scope", "user"])
        .output()
        .unwrap();
    // The user's file is read as theirs (no "project config key ignored" warning) and the
    // skill keeps the user scope.
    let mut config = s.bare();
    config.current_dir(&work).env("HOME", &link);
    let origin = config
        .args(["config", "show", "--origin"])
        .output()
        .unwrap();
    let text = [
        render("skills list --scope user", &skills),
        render("config show --origin", &origin),
    ]
    .concat();
    snapshot!(s, "linked_home_is_not_the_project", text);
}

#[test]
fn show_prints_every_field() {
    let s = Sandbox::project_under_home();
    let dir = s.project.join(".clawft/skills/research");
    std::fs::create_dir_all(dir.join("references")).unwrap();
    std::fs::write(dir.join("references/sources.md"), "sources").unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: research\ndescription: Deep research on a topic\nversion: 1.0.0\nvariables: [topic, depth]\nargument-hint: \"[topic] [depth]\"\nallowed-tools: read_file, web_search, web_fetch\nforbidden-tools: exec_shell\n---\n\nResearch $ARGUMENTS.\n",
    )
    .unwrap();
    write_skill(&s.home.join(".clawft/skills"), "research", "User copy");
    let out = weft(&s)
        .args(["--trust-project-skills", "skills", "show", "research"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let tmp = std::fs::canonicalize(s.tmp.path()).unwrap();
    let out = s.redact(&out).replace(tmp.to_str().unwrap(), "[TMP]");
    insta::assert_snapshot!("show_research", out);
}

#[test]
fn show_unknown_skill_fails_with_a_hint() {
    let s = Sandbox::project_under_home();
    weft(&s)
        .args(["skills", "show", "nope"])
        .assert()
        .code(2)
        .stderr("error: Skill 'nope' not found. Run `weft skills list` to see available skills.\n");
}

#[test]
fn repository_lists_its_own_skills() {
    let s = Sandbox::new();
    let out = s
        .bare()
        .current_dir(repo())
        .args(["skills", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(&str, &str)> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["name"].as_str().unwrap(), i["scope"].as_str().unwrap()))
        .collect();
    for skill in [
        "code-review",
        "commit",
        "crate-audit",
        "add-diagnostic-rule",
    ] {
        assert!(found.contains(&(skill, "project")), "{skill}: {found:?}");
    }
}

#[test]
fn catalog_is_what_the_model_sees() {
    let s = Sandbox::project_under_home();
    let skills = s.project.join(".claude/skills");
    write_skill(&skills, "code-review", "Review code changes for bugs");
    let commit = skills.join("commit");
    std::fs::create_dir_all(&commit).unwrap();
    std::fs::write(
        commit.join("SKILL.md"),
        "---\nname: commit\ndescription: Commit changes\ndisable-model-invocation: true\n---\nCommit.\n",
    )
    .unwrap();
    weft(&s)
        .args(["skills", "catalog"])
        .assert()
        .success()
        .stdout(
            "## Skills\n\n\
             Skills are instructions for specific tasks. When a task matches a skill's description, call the use_skill tool with the skill's name before starting; its instructions come back as the tool result.\n\n\
             - code-review: Review code changes for bugs\n\
             - opencode-implementer: Executes code implementation based on specifications\n\
             - specification-engine: Generates specifications for implementation tasks\n",
        )
        .stderr("");
    // A small budget: names only, and the report on stderr.
    let small = weft(&s)
        .args(["skills", "catalog", "--budget", "300"])
        .output()
        .unwrap();
    assert!(small.status.success());
    // The XML block of the reference implementation, with resolved absolute locations.
    let xml = weft(&s)
        .args(["skills", "catalog", "--format", "xml"])
        .output()
        .unwrap();
    assert!(xml.status.success());
    let text = render("skills catalog --budget 300", &small)
        + &render("skills catalog --format xml", &xml);
    snapshot!(s, "catalog_small_and_xml", text);
}

#[test]
fn match_ranks_and_never_auto_loads_manual_skills() {
    let s = Sandbox::project_under_home();
    let skills = s.project.join(".claude/skills");
    write_skill(
        &skills,
        "code-review",
        "Review code changes and pull requests for bugs. Use when reviewing a diff.",
    );
    let commit = skills.join("commit");
    std::fs::create_dir_all(&commit).unwrap();
    std::fs::write(
        commit.join("SKILL.md"),
        "---\nname: commit\ndescription: Commit staged changes to git\ndisable-model-invocation: true\n---\nCommit.\n",
    )
    .unwrap();
    let out = weft(&s)
        .args([
            "skills",
            "match",
            "please review the diff of my pull request",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    snapshot!(s, "match_review", render("skills match", &out));
    let out = weft(&s)
        .args([
            "skills",
            "match",
            "commit my changes to git",
            "--format",
            "json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["matches"][0]["name"], "commit");
    assert_eq!(json["matches"][0]["model_invocable"], false);
    assert_eq!(json["best"], serde_json::Value::Null);
}

/// One validator: a tool pattern that does not compile is the same `E132` (file, line,
/// reason) in `validate`, `list`, `show`, `compose` and `run`.
#[test]
fn a_bad_tool_pattern_is_one_error_in_every_command() {
    let s = Sandbox::new();
    s.file(
        ".claude/skills/fetchy/SKILL.md",
        "---\nname: fetchy\ndescription: Fetch pages from example.com\nallowed-tools: WebFetch(example.com)\n---\n\nFetch.\n",
    );
    let mut shown = String::new();
    for args in [
        &["skills", "validate", ".claude/skills/fetchy"][..],
        &["skills", "list"][..],
        &["skills", "show", "fetchy"][..],
        &["skills", "compose", "fetchy"][..],
        &["skills", "run", "fetchy", "--dry-run"][..],
    ] {
        let out = s
            .weft()
            .current_dir(&s.project)
            .args(args)
            .output()
            .unwrap();
        let text = render(&args.join(" "), &out);
        assert!(
            text.contains("`allowed-tools` pattern `WebFetch(example.com)` does not compile: a WebFetch specifier is `domain:<host>`"),
            "{text}"
        );
        assert_ne!(sandbox::code(&out), 2, "{text}");
        shown.push_str(&text);
    }
    snapshot!(s, "bad_tool_pattern_everywhere", shown);
}

/// A skill whose allowed tools a session would not have is not ready: `show` says which,
/// the catalog leaves it out; the built-in skills grant weft's own tools and are ready.
#[test]
fn readiness_judges_the_tools_a_skill_names() {
    let s = Sandbox::new();
    s.file(
        ".claude/skills/specs/SKILL.md",
        "---\nname: specs\ndescription: Write specs with specKit\nallowed-tools: Read specKit\n---\n\nSpec it.\n",
    );
    let show = s.weft().args(["skills", "show", "specs"]).output().unwrap();
    let builtin = s
        .weft()
        .args(["skills", "show", "specification-engine"])
        .output()
        .unwrap();
    let catalog = s.weft().args(["skills", "catalog"]).output().unwrap();
    let compose = s
        .weft()
        .args([
            "skills",
            "compose",
            "specification-engine",
            "opencode-implementer",
        ])
        .output()
        .unwrap();
    let text = [
        render("skills show specs", &show),
        render("skills show specification-engine", &builtin),
        render("skills catalog", &catalog),
        render(
            "skills compose specification-engine opencode-implementer",
            &compose,
        ),
    ]
    .concat();
    assert!(!sandbox::stdout(&catalog).contains("specs"), "{text}");
    snapshot!(s, "readiness_of_tools", text);
}

/// A command naming, beside tools weft has, one of Claude Code's that weft lacks (Anthropic's
/// own plugins name `TodoWrite` and `AskUserQuestion`) is ready and in the catalog: no
/// session could have that tool, and the command works with the others; `show` still warns
/// (`W136`) that the name grants nothing.
#[test]
fn a_claude_code_tool_weft_lacks_does_not_hide_a_command() {
    let s = Sandbox::new();
    s.file(
        ".claude/commands/tidy.md",
        "---\ndescription: Tidy the imports\nallowed-tools: Read, Edit, TodoWrite, AskUserQuestion\n---\n\nTidy them.\n",
    );
    let catalog = s.weft().args(["skills", "catalog"]).output().unwrap();
    assert!(catalog.status.success(), "{catalog:?}");
    assert!(sandbox::stdout(&catalog).contains("tidy"), "{catalog:?}");
    let show = s.weft().args(["skills", "show", "tidy"]).output().unwrap();
    let shown = sandbox::stdout(&show);
    assert!(!shown.contains("not ready"), "{shown}");
    let warnings = String::from_utf8_lossy(&show.stderr).into_owned() + &shown;
    assert!(warnings.contains("`TodoWrite`"), "{warnings}");
}

/// `weft skills new`: a skill (and with --agent an agent) that validates clean under every
/// profile, where Claude Code looks; never over an existing one; names by the spec's rule.
#[test]
fn skills_new_writes_a_skill_that_validates_clean() {
    let s = Sandbox::new();
    let mut shown = String::new();
    for args in [
        &["skills", "new", "review-diff"][..],
        &[
            "skills",
            "new",
            "team-check",
            "--scope",
            "project",
            "-d",
            "Check: the team's rules",
        ][..],
        &["skills", "new", "reviewer", "--agent"][..],
        &["skills", "new", "review-diff"][..],
        &["skills", "new", "Bad_Name"][..],
    ] {
        let out = s.weft().args(args).output().unwrap();
        shown.push_str(&render(&args.join(" "), &out));
    }
    let user_skill = s.home.join(".claude/skills/review-diff/SKILL.md");
    let project_skill = s.project.join(".claude/skills/team-check/SKILL.md");
    shown.push_str(&std::fs::read_to_string(&user_skill).unwrap());
    shown.push_str(&std::fs::read_to_string(&project_skill).unwrap());
    shown.push_str(&std::fs::read_to_string(s.home.join(".claude/agents/reviewer.md")).unwrap());
    for profile in ["default", "spec"] {
        for path in [&user_skill, &project_skill] {
            let out = s
                .weft()
                .args(["skills", "validate", "--profile", profile])
                .arg(path.parent().unwrap())
                .output()
                .unwrap();
            assert_eq!(
                sandbox::stdout(&out),
                "1 skill: 1 valid, 0 with warnings, 0 invalid\n",
                "{profile} {}",
                path.display()
            );
        }
    }
    let out = s
        .weft()
        .args(["skills", "validate", "--strict"])
        .arg(user_skill.parent().unwrap())
        .output()
        .unwrap();
    assert_eq!(sandbox::code(&out), 0);
    let agents = s
        .weft()
        .args(["agents", "show", "reviewer"])
        .output()
        .unwrap();
    assert!(
        sandbox::stderr(&agents).is_empty(),
        "{}",
        sandbox::stderr(&agents)
    );
    let listed = s.weft().args(["skills", "list"]).output().unwrap();
    assert!(sandbox::stdout(&listed).contains("review-diff"));
    assert!(sandbox::stdout(&listed).contains("team-check"));
    snapshot!(s, "skills_new", shown);
}
