//! MCP tools under the permission gate, with the names a real server gives them: a denied
//! call never reaches the server, background subagents get no MCP tools, and globs reach MCP
//! tools only when they name the server (SEC-SKILL-08), for project skills too.

use serde_json::{Value, json};
use weft_permissions::{
    Decision, Origin, PatternContext, Policy, ToolGate, canonical_tool_name, is_mcp_tool, mcp_parts,
};
use weft_tools::ToolRegistry;
use weft_types::{Scope, Skill, ToolPolicy};

use super::{Scratch, hermetic, start};

/// What the session's dispatch does: the gate first, then the tool (by canonical name).
async fn dispatch(
    gate: &ToolGate,
    registry: &ToolRegistry,
    name: &str,
    input: Value,
) -> Result<String, String> {
    if let Decision::Denied { reason } = gate.check(name, &input) {
        return Err(reason.to_string());
    }
    let tool = registry
        .get(name)
        .or_else(|| registry.get(canonical_tool_name(name)))
        .ok_or_else(|| format!("unknown tool {name}"))?;
    tool.call(input)
        .await
        .map(|o| o.content)
        .map_err(|e| e.to_string())
}

fn deny(patterns: &[&str]) -> ToolGate {
    ToolGate::new([
        Policy::from_lists(None, patterns, Origin::Session, &PatternContext::new()).unwrap(),
    ])
}

fn skill(scope: Scope, allow: &[&str]) -> ToolGate {
    let mut skill = Skill::in_memory("helper", "Helps", scope);
    skill.tools = ToolPolicy::allow_only(allow.iter().copied());
    ToolGate::new([Policy::from_skill(&skill, &PatternContext::new()).unwrap()])
}

fn visible(gate: &ToolGate, registry: &ToolRegistry) -> Vec<String> {
    let names: Vec<&str> = registry.names().collect();
    gate.visible_tools(&names)
}

#[tokio::test]
async fn a_denied_call_never_reaches_the_server() {
    let scratch = Scratch::new();
    let (_manager, registry) = start(vec![hermetic("h", &scratch)]).await;
    for name in registry.names() {
        assert!(is_mcp_tool(name), "{name}");
        assert_eq!(mcp_parts(name).unwrap().0, "h");
    }
    for pattern in ["h__echo", "mcp__h__echo", "h__*", "mcp__h", "mcp__*", "*"] {
        let gate = deny(&[pattern]);
        for name in ["h__echo", "mcp__h__echo"] {
            let err = dispatch(&gate, &registry, name, json!({"text": "x"}))
                .await
                .unwrap_err();
            assert!(err.starts_with("denied: "), "{pattern} {name}: {err}");
        }
    }
    assert_eq!(scratch.log(), ["start"], "a denied call reached the server");
    let gate = deny(&["h__echo"]);
    let out = dispatch(&gate, &registry, "mcp__h__slow", json!({"ms": 1})).await;
    assert_eq!(out.unwrap(), "slept 1 ms");
    assert_eq!(scratch.log(), ["start", "call slow"]);
}

#[tokio::test]
async fn background_subagents_get_no_mcp_tools() {
    let scratch = Scratch::new();
    let (_manager, registry) = start(vec![hermetic("h", &scratch)]).await;
    let background = ToolGate::background();
    assert!(visible(&background, &registry).is_empty());
    let parent = ToolGate::unrestricted().intersect(&background);
    for name in ["h__echo", "mcp__h__echo"] {
        let err = dispatch(&parent, &registry, name, json!({"text": "x"})).await;
        assert!(err.unwrap_err().starts_with("denied"), "{name}");
    }
    assert_eq!(scratch.log(), ["start"]);
}

#[tokio::test]
async fn globs_reach_mcp_tools_only_when_they_name_the_server() {
    let scratch = Scratch::new();
    let (_manager, registry) = start(vec![hermetic("h", &scratch)]).await;
    let all = ["h__crash", "h__echo", "h__fail", "h__slow"];
    for scope in [Scope::Project, Scope::User, Scope::Builtin] {
        for allow in [
            &["*"][..],
            &["*__*"],
            &["mcp__*"],
            &["h_*"],
            &["*echo"],
            &["read_*", "Bash"],
        ] {
            assert!(
                visible(&skill(scope, allow), &registry).is_empty(),
                "{scope:?} {allow:?}"
            );
        }
        assert_eq!(visible(&skill(scope, &["h__*"]), &registry), all);
        assert_eq!(visible(&skill(scope, &["mcp__h"]), &registry), all);
        assert_eq!(visible(&skill(scope, &["mcp__h__*"]), &registry), all);
        assert_eq!(visible(&skill(scope, &["h__echo"]), &registry), ["h__echo"]);
        assert_eq!(
            visible(&skill(scope, &["mcp__h__echo"]), &registry),
            ["h__echo"]
        );
        assert_eq!(
            visible(&skill(scope, &["mcp__h__e*", "*"]), &registry),
            ["h__echo"]
        );
    }
    let gate = skill(Scope::Project, &["*"]);
    let err = dispatch(&gate, &registry, "h__echo", json!({"text": "x"})).await;
    assert!(err.unwrap_err().starts_with("denied"));
    assert_eq!(scratch.log(), ["start"]);
}
