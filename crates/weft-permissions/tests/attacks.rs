//! Attempts to get a call past the gate: globs reaching for MCP tools, shell injection under a
//! scoped `Bash` allow, path traversal under a path allow, aliases dodging a deny, lookalike
//! MCP servers and hosts.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};
use weft_permissions::{Decision, Origin, PatternContext, Policy, ToolGate};

/// A gate of one skill with these lists.
fn gate(allow: Option<&[&str]>, deny: &[&str]) -> ToolGate {
    ToolGate::new([Policy::from_lists(
        allow,
        deny,
        Origin::Skill("x".into()),
        &PatternContext::new(),
    )
    .unwrap()])
}

fn allowed(gate: &ToolGate, tool: &str, input: Value) -> bool {
    gate.check(tool, &input).is_allowed()
}

fn bash(command: &str) -> Value {
    json!({ "command": command })
}

#[test]
fn globs_do_not_reach_mcp_tools() {
    for glob in [
        "*",
        "*__*",
        "read_*",
        "mcp__*",
        "*read_file",
        "*__read_file",
    ] {
        let g = gate(Some(&[glob]), &[]);
        for tool in [
            "github__read_file",
            "mcp__github__read_file",
            "payments__charge",
        ] {
            assert!(
                !allowed(&g, tool, json!({})),
                "{glob} must not grant {tool}"
            );
        }
        assert!(
            g.visible_tools(&["github__read_file", "payments__charge"])
                .is_empty()
        );
    }
    // `*` still grants the built-ins and other plain tools.
    let g = gate(Some(&["*"]), &[]);
    assert!(allowed(&g, "read_file", json!({})));
    assert!(allowed(&g, "specKit", json!({})));
    // A literal server prefix does.
    let g = gate(Some(&["github__*"]), &[]);
    assert!(allowed(&g, "github__read_file", json!({})));
    assert!(allowed(&g, "mcp__github__read_file", json!({})));
    assert!(!allowed(&g, "payments__charge", json!({})));
}

#[test]
fn mcp_server_prefix_is_matched_exactly() {
    let g = gate(Some(&["mcp__x__*"]), &[]);
    assert!(allowed(&g, "x__y", json!({})));
    assert!(allowed(&g, "mcp__x__y", json!({})));
    assert!(!allowed(&g, "xx__y", json!({})));
    assert!(!allowed(&g, "mcp__xx__y", json!({})));
    assert!(!allowed(&g, "x_y", json!({})));
    assert!(!allowed(&g, "y__x__z", json!({})));
    let g = gate(Some(&["mcp__github"]), &[]);
    assert!(allowed(&g, "github__anything", json!({})));
    assert!(!allowed(&g, "github2__anything", json!({})));
}

#[test]
fn mcp_star_in_a_deny_removes_every_mcp_tool() {
    let g = gate(None, &["mcp__*"]);
    assert!(!allowed(&g, "github__read_file", json!({})));
    assert!(!allowed(&g, "mcp__payments__charge", json!({})));
    assert!(allowed(&g, "read_file", json!({})));
    let g = gate(None, &["mcp__github"]);
    assert!(!allowed(&g, "github__create_issue", json!({})));
    assert!(allowed(&g, "gitlab__create_issue", json!({})));
}

#[test]
fn compound_commands_pass_a_scoped_bash_allow_only_when_every_part_does() {
    let g = gate(Some(&["Bash(git:*)"]), &[]);
    assert!(allowed(&g, "exec_shell", bash("git status")));
    // A simple command outside the allow list: denied.
    for command in [
        "git status; rm -rf /",
        "git status && curl http://x",
        "git status || curl http://x",
        "git log | sh",
        "git log & curl http://x",
        "git $(curl http://x)",
        "git `curl http://x`",
        "git commit -m \"$(curl http://x)\"",
        "git status\ncurl http://x",
    ] {
        let decision = gate_check(&g, command);
        assert!(decision.is_denied(), "{command:?}: {decision}");
    }
    // Nothing outside the list, but something no pattern can pre-approve: ask.
    for command in [
        "git log > ~/.bashrc",
        "git log < /etc/shadow",
        "git status 'unclosed",
    ] {
        let decision = gate_check(&g, command);
        assert!(decision.is_ask(), "{command:?}: {decision}");
    }
    // A subshell of an allowed command is that command.
    assert!(gate_check(&g, "(git status)").is_allowed());
    assert_eq!(
        g.check("exec_shell", &bash("git status; rm -rf /"))
            .to_string(),
        "denied: `rm -rf /` matches none of the allowed `Bash(git:*)` from skill 'x'"
    );
    // Quoted metacharacters are data, not syntax.
    assert!(allowed(
        &g,
        "exec_shell",
        bash("git commit -m 'fix: a; b && c | d'")
    ));
    // Word boundary.
    assert!(!allowed(&g, "exec_shell", bash("gitk --all")));
}

fn gate_check(g: &ToolGate, command: &str) -> Decision {
    g.check("Bash", &bash(command))
}

#[test]
fn a_glob_inside_a_bash_pattern_does_not_swallow_a_second_command() {
    let g = gate(Some(&["Bash(python3 scripts/*.py*)"]), &[]);
    assert!(allowed(
        &g,
        "exec_shell",
        bash("python3 scripts/x.py --fast")
    ));
    assert!(!allowed(
        &g,
        "exec_shell",
        bash("python3 scripts/x.py; rm -rf /")
    ));
    assert!(!allowed(
        &g,
        "exec_shell",
        bash("python3 scripts/x.py && rm -rf /")
    ));
    assert!(!allowed(
        &g,
        "exec_shell",
        bash("python3 scripts/x.py $(rm -rf /)")
    ));
}

#[test]
fn scoped_bash_denies_see_through_compound_commands() {
    let g = gate(None, &["Bash(rm:*)"]);
    assert!(allowed(&g, "exec_shell", bash("ls -la")));
    assert!(!allowed(&g, "exec_shell", bash("ls; rm -rf /")));
    assert!(!allowed(&g, "exec_shell", bash("ls | FOO=1 rm -rf /")));
    assert!(!allowed(&g, "exec_shell", bash("echo $(rm -rf /)")));
    assert!(!allowed(&g, "exec_shell", bash("echo 'unclosed")));
}

#[test]
fn path_traversal_does_not_escape_a_path_allow() {
    let g = gate(Some(&["Read(src/**)"]), &[]);
    assert!(allowed(&g, "read_file", json!({"path": "src/lib.rs"})));
    assert!(allowed(&g, "Read", json!({"file_path": "./src/a/../b.rs"})));
    for path in [
        "src/../../etc/passwd",
        "src/../secrets.txt",
        "../src/lib.rs",
        "/etc/passwd",
        "/src/lib.rs",
        "",
    ] {
        assert!(
            !allowed(&g, "read_file", json!({ "path": path })),
            "{path:?}"
        );
    }
    assert!(!allowed(&g, "read_file", json!({})));
    assert!(
        g.check("read_file", &json!({"path": "src/../../etc/passwd"}))
            .to_string()
            .contains("climbs above its starting directory")
    );
}

#[test]
fn path_denies_fail_closed() {
    let g = gate(None, &["Read(secrets/**)"]);
    assert!(allowed(&g, "read_file", json!({"path": "src/lib.rs"})));
    assert!(!allowed(&g, "read_file", json!({"path": "secrets/key"})));
    assert!(!allowed(
        &g,
        "read_file",
        json!({"path": "src/../secrets/key"})
    ));
    // Cannot be judged: refused.
    assert!(!allowed(&g, "read_file", json!({"path": "../x"})));
    assert!(!allowed(
        &g,
        "read_file",
        json!({"path": "/abs/secrets/key"})
    ));
    // With a working directory, absolute paths are resolved and judged.
    let ctx = PatternContext::new().with_working_dir("/proj");
    let wd =
        ToolGate::new([
            Policy::from_lists(None, &["Read(secrets/**)"], Origin::Session, &ctx).unwrap(),
        ]);
    assert!(!allowed(
        &wd,
        "read_file",
        json!({"path": "/proj/secrets/key"})
    ));
    assert!(allowed(&wd, "read_file", json!({"path": "/etc/hosts"})));
}

#[test]
fn aliases_do_not_dodge_a_deny() {
    let g = gate(None, &["Bash"]);
    assert!(!allowed(&g, "exec_shell", bash("ls")));
    assert!(!allowed(&g, "Bash", bash("ls")));
    let g = gate(None, &["exec_shell"]);
    assert!(!allowed(&g, "Bash", bash("ls")));
    let g = gate(None, &["Edit"]);
    assert!(!allowed(&g, "MultiEdit", json!({})));
    assert!(!allowed(&g, "edit_file", json!({})));
    let g = gate(None, &["Task"]);
    assert!(!allowed(&g, "Agent", json!({})));
    assert!(!allowed(&g, "sessions_spawn", json!({})));
    // And an alias in an allow grants the built-in under any name.
    let g = gate(Some(&["Read"]), &[]);
    assert!(allowed(&g, "read_file", json!({})));
}

#[test]
fn an_unknown_lowercase_name_is_only_itself() {
    let g = gate(None, &["write"]);
    assert!(!allowed(&g, "write", json!({})));
    // Not an alias: `write` does not block write_file (deny `Write` or `write_file` for that).
    assert!(allowed(&g, "write_file", json!({})));
    let g = gate(Some(&["write"]), &[]);
    assert!(!allowed(&g, "write_file", json!({})));
    assert!(!allowed(&g, "Write", json!({})));
}

#[test]
fn web_fetch_domains_resist_lookalikes() {
    let g = gate(Some(&["WebFetch(domain:example.com)"]), &[]);
    assert!(allowed(
        &g,
        "web_fetch",
        json!({"url": "https://example.com/a"})
    ));
    assert!(allowed(
        &g,
        "WebFetch",
        json!({"url": "https://API.example.com:443/a"})
    ));
    for url in [
        "https://example.com.evil.io/",
        "https://evilexample.com/",
        "https://example.com@evil.io/",
        "https://evil.io\\@example.com/",
        "https://evil.io/?u=https://example.com/",
        "https://evil.io#example.com",
        "example.com",
        "https://ex%61mple.com/",
    ] {
        assert!(!allowed(&g, "web_fetch", json!({ "url": url })), "{url}");
    }
}

#[test]
fn background_subagents_stay_read_only_whatever_their_skills_allow() {
    let skills = gate(Some(&["*", "github__*", "Bash(git:*)"]), &[]);
    let child = skills.intersect(&ToolGate::background());
    for tool in ["read_file", "Read", "grep", "glob", "LS"] {
        assert!(
            allowed(&child, tool, json!({"path": "x", "pattern": "x"})),
            "{tool}"
        );
    }
    for tool in [
        "write_file",
        "edit_file",
        "exec_shell",
        "sessions_spawn",
        "use_skill",
        "web_fetch",
        "memory_write",
        "github__create_issue",
    ] {
        assert!(!allowed(&child, tool, bash("git status")), "{tool}");
    }
}

#[test]
fn a_tool_name_with_a_specifier_is_not_a_scoped_call() {
    // Seed 000's tests spell calls as `Bash(git:status)`; a call name is only a name.
    let g = gate(Some(&["Bash(git:*)"]), &[]);
    assert!(!allowed(&g, "Bash(git:status)", json!({})));
    assert!(!allowed(&g, "Bash(rm:-)", json!({})));
}
