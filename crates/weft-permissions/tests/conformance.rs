//! CONFORMANCE.md rows E11–E16 and I02–I05, SPEC_RULES.md §6.3 (Claude Code's permission
//! grammar), and SEC-SKILL-04 / SEC-SKILL-08 of seed 002.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};
use weft_permissions::{
    Effect, Origin, PatternContext, Policy, ToolGate, ToolPattern, canonical_tool_name,
};
use weft_types::{AgentDefinition, AgentFormat, Scope, Source};

fn bash(command: &str) -> Value {
    json!({ "command": command })
}

fn allows(pattern: &str, tool: &str, input: &Value) -> bool {
    ToolPattern::parse(pattern)
        .unwrap()
        .matches(tool, input, Effect::Allow)
}

fn agent(tools: Option<&[&str]>, disallowed: &[&str]) -> ToolGate {
    let mut a = AgentDefinition::new(
        "reviewer",
        "Reviews code",
        Source::in_memory(Scope::Project, AgentFormat::Markdown),
    );
    a.tools = tools.map(|t| t.iter().map(|s| (*s).to_owned()).collect());
    a.disallowed_tools = disallowed.iter().map(|s| (*s).to_owned()).collect();
    ToolGate::new([Policy::from_agent(&a, &PatternContext::new()).unwrap()])
}

#[test]
fn e11_comma_separated_tokens_compile() {
    // weft-parse splits `Read, Grep, Bash(git status:*)` into three tokens.
    for token in ["Read", "Grep", "Bash(git status:*)"] {
        ToolPattern::parse(token).unwrap();
    }
    assert!(allows(
        "Bash(git status:*)",
        "Bash",
        &bash("git status --short")
    ));
    assert!(!allows("Bash(git status:*)", "Bash", &bash("git push")));
}

#[test]
fn e12_tokens_with_spaces_inside_parentheses() {
    let gate = ToolGate::new([Policy::from_lists(
        Some(&["Bash(git add *)", "Bash(git commit *)", "Read"][..]),
        &[],
        Origin::Skill("committer".into()),
        &PatternContext::new(),
    )
    .unwrap()]);
    assert!(gate.check("Bash", &bash("git add src/lib.rs")).is_allowed());
    assert!(gate.check("Bash", &bash("git commit -m 'x'")).is_allowed());
    assert!(!gate.check("Bash", &bash("git push")).is_allowed());
    assert!(gate.check("Read", &json!({"path": "x"})).is_allowed());
}

#[test]
fn e13_colon_star_equals_space_star_only_at_the_end() {
    let colon = ToolPattern::parse("Bash(git:*)").unwrap();
    let space = ToolPattern::parse("Bash(git *)").unwrap();
    assert_eq!(colon.key(), space.key());
    for command in ["git", "git status", "git log --oneline", "gitk", "git;ls"] {
        assert_eq!(
            colon.matches("Bash", &bash(command), Effect::Allow),
            space.matches("Bash", &bash(command), Effect::Allow),
            "{command}"
        );
    }
    // `Bash(git:* push)`: `:*` is not special in the middle.
    assert!(!allows("Bash(git:* push)", "Bash", &bash("git status")));
    assert!(!allows("Bash(git:* push)", "Bash", &bash("git push")));
}

#[test]
fn e14_skill_dir_is_substituted_before_matching() {
    let ctx = PatternContext::new().with_skill_dir("/home/u/.claude/skills/render");
    let p = ToolPattern::parse_with("Bash(${CLAUDE_SKILL_DIR}/scripts/render.sh *)", &ctx).unwrap();
    assert!(p.matches(
        "Bash",
        &bash("/home/u/.claude/skills/render/scripts/render.sh in.md"),
        Effect::Allow
    ));
    assert!(!p.matches("Bash", &bash("/tmp/render.sh in.md"), Effect::Allow));
    assert!(ToolPattern::parse("Bash(${CLAUDE_SKILL_DIR}/x.sh)").is_err());
}

#[test]
fn e15_an_empty_allow_list_is_no_tools() {
    let policy = Policy::from_lists(
        Some(&[] as &[&str]),
        &[],
        Origin::Skill("empty".into()),
        &PatternContext::new(),
    )
    .unwrap();
    assert!(!policy.check("read_file", &json!({})).is_allowed());
    let absent = Policy::from_lists(
        None,
        &[] as &[&str],
        Origin::Skill("absent".into()),
        &PatternContext::new(),
    )
    .unwrap();
    assert!(absent.is_unrestricted());
    assert!(absent.check("read_file", &json!({})).is_allowed());
}

#[test]
fn e16_mcp_globs_need_a_literal_server() {
    let gate = ToolGate::new([Policy::from_lists(
        Some(&["mcp__github__*", "Read"][..]),
        &[],
        Origin::Skill("gh".into()),
        &PatternContext::new(),
    )
    .unwrap()]);
    assert!(
        gate.check("mcp__github__create_issue", &json!({}))
            .is_allowed()
    );
    assert!(gate.check("github__create_issue", &json!({})).is_allowed());
    assert!(!gate.check("mcp__slack__post", &json!({})).is_allowed());
    assert!(gate.check("Read", &json!({})).is_allowed());
}

#[test]
fn i02_an_agent_tool_list_is_an_allowlist() {
    let gate = agent(Some(&["Read", "Grep", "Glob"]), &[]);
    assert_eq!(
        gate.visible_tools(&["read_file", "grep", "glob", "write_file", "exec_shell"]),
        ["read_file", "grep", "glob"]
    );
}

#[test]
fn i03_no_tool_list_inherits_everything() {
    let gate = agent(None, &[]);
    for tool in ["read_file", "exec_shell", "github__x", "specKit"] {
        assert!(
            gate.check(tool, &json!({"command": "ls"})).is_allowed(),
            "{tool}"
        );
    }
}

#[test]
fn i04_disallowed_is_removed_first() {
    let gate = agent(Some(&["Read", "Write"]), &["Write"]);
    assert_eq!(gate.visible_tools(&["Read", "Write", "Grep"]), ["Read"]);
    assert_eq!(
        gate.check("Write", &json!({})).to_string(),
        "denied: `Write` is forbidden by agent 'reviewer'"
    );
}

#[test]
fn i05_disallowing_a_server_or_all_mcp() {
    let gate = agent(None, &["mcp__github"]);
    assert!(!gate.check("github__create_issue", &json!({})).is_allowed());
    assert!(gate.check("slack__post", &json!({})).is_allowed());
    let gate = agent(None, &["mcp__*"]);
    assert!(!gate.check("github__create_issue", &json!({})).is_allowed());
    assert!(!gate.check("slack__post", &json!({})).is_allowed());
    assert!(gate.check("read_file", &json!({})).is_allowed());
}

#[test]
fn grammar_6_3_specifier_forms() {
    // `Bash(*)` ≡ `Bash`.
    let star = ToolPattern::parse("Bash(*)").unwrap();
    assert!(!star.is_scoped());
    assert_eq!(star.key(), ToolPattern::parse("Bash").unwrap().key());
    // "The space before `*` matters".
    assert!(allows("Bash(ls *)", "Bash", &bash("ls -la")));
    assert!(!allows("Bash(ls *)", "Bash", &bash("lsof")));
    assert!(allows("Bash(ls*)", "Bash", &bash("ls -la")));
    assert!(allows("Bash(ls*)", "Bash", &bash("lsof")));
    assert!(allows("Bash(ls:*)", "Bash", &bash("ls -la")));
    // Read(./.env), WebFetch(domain:...), Skill(name), Agent(name).
    assert!(allows("Read(./.env)", "Read", &json!({"path": ".env"})));
    assert!(allows(
        "WebFetch(domain:example.com)",
        "WebFetch",
        &json!({"url": "https://example.com"})
    ));
    assert!(allows(
        "Skill(deploy)",
        "use_skill",
        &json!({"skill": "deploy", "args": "prod"})
    ));
    assert!(!allows(
        "Skill(deploy)",
        "use_skill",
        &json!({"skill": "destroy"})
    ));
    assert!(allows(
        "Agent(worker, researcher)",
        "Task",
        &json!({"agent": "researcher"})
    ));
    assert!(!allows(
        "Agent(worker, researcher)",
        "Task",
        &json!({"agent": "coder"})
    ));
}

#[test]
fn sec_skill_04_a_skill_cannot_escalate_beyond_the_session() {
    let session = ToolGate::new([Policy::from_lists(
        Some(&["Read", "Grep"][..]),
        &[],
        Origin::Session,
        &PatternContext::new(),
    )
    .unwrap()]);
    let skill = Policy::from_lists(
        Some(&["Read", "Write", "Bash"][..]),
        &[],
        Origin::Skill("greedy".into()),
        &PatternContext::new(),
    )
    .unwrap();
    let effective = ToolGate::new([skill]).intersect(&session);
    assert!(effective.check("Read", &json!({})).is_allowed());
    assert!(!effective.check("Write", &json!({})).is_allowed());
    assert!(!effective.check("Bash", &bash("ls")).is_allowed());
    assert!(!effective.check("Grep", &json!({})).is_allowed());
}

#[test]
fn sec_skill_08_project_skills_get_mcp_tools_only_by_name() {
    let project = ToolGate::new([Policy::from_lists(
        Some(&["read_file", "web_fetch", "rvf__*"][..]),
        &[],
        Origin::Skill("project-skill".into()),
        &PatternContext::new(),
    )
    .unwrap()]);
    assert!(project.check("rvf__query", &json!({})).is_allowed());
    assert!(!project.check("payments__charge", &json!({})).is_allowed());
    assert_eq!(canonical_tool_name("mcp__rvf__query"), "rvf__query");
}
