//! Skills shared by the integration tests: seed 003's two built-ins and small builders.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use weft_types::{ComposabilityKind, ComposabilityRule, Scope, Skill, ToolPolicy};

/// A skill with the given allow list (`None`: declares none) and deny list.
pub fn skill(name: &str, allow: Option<&[&str]>, deny: &[&str]) -> Skill {
    let mut s = Skill::in_memory(name, format!("The {name} skill"), Scope::Builtin);
    s.tools = ToolPolicy {
        allow: allow.map(|a| a.iter().map(|t| (*t).to_owned()).collect()),
        deny: deny.iter().map(|t| (*t).to_owned()).collect(),
    };
    s
}

/// Adds a composability rule.
pub fn with_rule(mut s: Skill, kind: ComposabilityKind, other: &str, reason: &str) -> Skill {
    s.contract.composability_rules.push(ComposabilityRule {
        kind,
        skill: other.to_owned(),
        reason: Some(reason.to_owned()),
    });
    s
}

/// Seed 003's `specification-engine`.
pub fn specification_engine() -> Skill {
    let mut s = skill("specification-engine", Some(&["specKit"]), &[]);
    s.description = "Generates specifications for implementation tasks".to_owned();
    s.contract.execution_protocol = vec![
        "analyze-task".into(),
        "generate-spec".into(),
        "validate-spec".into(),
    ];
    with_rule(
        s,
        ComposabilityKind::Requires,
        "opencode-implementer",
        "Spec must be followed by implementation",
    )
}

/// Seed 003's `opencode-implementer`.
pub fn opencode_implementer() -> Skill {
    let mut s = skill(
        "opencode-implementer",
        Some(&["opencode-executor"]),
        &["write", "edit"],
    );
    s.description = "Executes code implementation based on specifications".to_owned();
    s.contract.execution_protocol = vec!["read-spec".into(), "implement".into(), "verify".into()];
    with_rule(
        s,
        ComposabilityKind::Requires,
        "specification-engine",
        "Implementation requires a spec",
    )
}

/// Both built-ins.
pub fn builtins() -> Vec<Skill> {
    vec![specification_engine(), opencode_implementer()]
}

/// A lookup over `skills` by name.
pub fn lookup<'a>(skills: &'a [Skill]) -> impl Fn(&str) -> Option<&'a Skill> + 'a {
    move |name| skills.iter().find(|s| s.name == name)
}
