//! Seed 001 (Skill Injection System): the acceptance scenarios of US1–US3 (and US5's
//! permission checks) that concern permissions, composition and validation, and every edge
//! case. US4 (the selector) lives in `weft-agents`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{builtins, lookup, opencode_implementer, skill, specification_engine, with_rule};
use serde_json::json;
use weft_permissions::{
    CompositionMode, Effect, Origin, PatternContext, Policy, ToolGate, ValidationCode, compose,
    validate_and_compose, validate_skill_set,
};
use weft_types::ComposabilityKind;

// --- US1: define and register skills -----------------------------------------------------------

#[test]
fn us1_1_permission_sets_are_exactly_as_declared() {
    let s = skill("spec", Some(&["specKit"]), &["write", "edit"]);
    let policy = Policy::from_skill(&s, &PatternContext::new()).unwrap();
    let allow: Vec<&str> = policy
        .allow()
        .unwrap()
        .iter()
        .map(|(p, _)| p.as_str())
        .collect();
    let deny: Vec<&str> = policy.deny().iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(allow, ["specKit"]);
    assert_eq!(deny, ["write", "edit"]);
    assert!(
        policy
            .allow()
            .unwrap()
            .iter()
            .all(|(_, o)| *o == Origin::Skill("spec".into()))
    );
}

#[test]
fn us1_2_a_tool_not_in_allowed_tools_is_reported_unauthorized() {
    let s = specification_engine();
    let gate = ToolGate::new([Policy::from_skill(&s, &PatternContext::new()).unwrap()]);
    assert!(gate.check("specKit", &json!({})).is_allowed());
    assert_eq!(
        gate.check("exec_shell", &json!({"command": "ls"}))
            .to_string(),
        "denied: `exec_shell` is not in the tools allowed by skill 'specification-engine' (allowed: specKit)",
    );
    for tool in [
        "write",
        "Write",
        "write_file",
        "opencode-executor",
        "github__x",
    ] {
        assert!(!gate.check(tool, &json!({})).is_allowed(), "{tool}");
    }
}

#[test]
fn us1_4_missing_forbidden_tools_is_an_empty_set() {
    let s = skill("reader", Some(&["Read", "Grep"]), &[]);
    let policy = Policy::from_skill(&s, &PatternContext::new()).unwrap();
    assert!(policy.deny().is_empty());
    let composition = compose(&[&s], CompositionMode::Union).unwrap();
    assert!(composition.composed().forbidden_tools.is_empty());
    assert_eq!(composition.composed().allowed_tools, ["Read", "Grep"]);
    // No implicit permissions beyond allowed_tools.
    let gate = composition.gate();
    assert!(gate.check("read_file", &json!({"path": "a"})).is_allowed());
    assert!(gate.check("grep", &json!({"pattern": "x"})).is_allowed());
    for tool in ["write_file", "edit_file", "exec_shell", "glob", "web_fetch"] {
        assert!(!gate.check(tool, &json!({})).is_allowed(), "{tool}");
    }
}

// --- US2: compose skills, most restrictive wins ------------------------------------------------

#[test]
fn us2_1_a_forbid_in_one_skill_removes_the_allow_of_another() {
    let a = skill("a", Some(&["write", "opencode"]), &[]);
    let b = skill("b", None, &["write"]);
    let composition = compose(&[&a, &b], CompositionMode::Union).unwrap();
    assert_eq!(composition.composed().allowed_tools, ["opencode"]);
    assert_eq!(composition.composed().forbidden_tools, ["write"]);
    let gate = composition.gate();
    assert!(gate.check("opencode", &json!({})).is_allowed());
    assert_eq!(
        gate.check("write", &json!({})).to_string(),
        "denied: `write` is forbidden by skill 'b'"
    );
}

#[test]
fn us2_2_compatible_skills_compose_to_allowed_minus_forbidden() {
    let a = skill("a", Some(&["Read", "Grep", "specKit"]), &[]);
    let b = skill("b", Some(&["Read", "Grep", "opencode"]), &["Grep"]);
    // Seed 001's "intersection" is CompositionMode::Intersect.
    let strict = compose(&[&a, &b], CompositionMode::Intersect).unwrap();
    assert_eq!(strict.composed().allowed_tools, ["Read"]);
    let gate = strict.gate();
    assert!(gate.check("Read", &json!({})).is_allowed());
    for tool in ["grep", "specKit", "opencode"] {
        assert!(!gate.check(tool, &json!({})).is_allowed(), "{tool}");
    }
    // DESIGN §14: the default is union minus deny (seed 003's worked example needs it).
    let union = compose(&[&a, &b], CompositionMode::Union).unwrap();
    assert_eq!(
        union.composed().allowed_tools,
        ["Read", "specKit", "opencode"]
    );
    assert!(!union.gate().check("grep", &json!({})).is_allowed());
}

#[test]
fn us2_3_forbidden_tools_never_appear_in_the_effective_allowed_list() {
    let a = skill("a", Some(&["write", "edit", "Bash", "Read"]), &[]);
    let b = skill("b", Some(&["Write", "exec_shell"]), &["edit"]);
    let c = skill("c", None, &["write", "Bash", "write_file"]);
    for mode in [CompositionMode::Union, CompositionMode::Intersect] {
        let composition = compose(&[&a, &b, &c], mode).unwrap();
        let composed = composition.composed();
        for forbidden in &composed.forbidden_tools {
            assert!(!composed.allowed_tools.contains(forbidden), "{forbidden}");
        }
        let gate = composition.gate();
        for tool in ["write", "edit", "Bash", "exec_shell", "Write", "write_file"] {
            assert!(
                !gate.check(tool, &json!({"command": "ls"})).is_allowed(),
                "{tool}"
            );
        }
    }
    let union = compose(&[&a, &b, &c], CompositionMode::Union).unwrap();
    assert_eq!(union.composed().allowed_tools, ["Read"]);
}

// --- US3: validate skill sets before a spawn ----------------------------------------------------

#[test]
fn us3_1_implementer_alone_is_rejected_for_its_missing_companion() {
    let skills = builtins();
    let result = validate_skill_set(&["opencode-implementer"], lookup(&skills), &[]);
    assert!(!result.valid);
    assert_eq!(result.errors.len(), 1);
    let error = &result.errors[0];
    assert_eq!(error.code, ValidationCode::MissingCompanion);
    assert_eq!(error.skill.as_deref(), Some("opencode-implementer"));
    assert_eq!(
        error.message,
        "skill 'opencode-implementer' requires skill 'specification-engine', which is not in the set (Implementation requires a spec)"
    );
    // Nothing to spawn with.
    let (_, composition) = validate_and_compose(
        &["opencode-implementer"],
        lookup(&skills),
        &[],
        CompositionMode::Union,
        &PatternContext::new(),
    );
    assert!(composition.is_none());
}

#[test]
fn us3_2_an_unknown_skill_is_rejected_by_name() {
    let skills = builtins();
    let result = validate_skill_set(
        &[
            "specification-engine",
            "opencode-implementer",
            "does-not-exist",
        ],
        lookup(&skills),
        &[],
    );
    assert!(!result.valid);
    assert_eq!(result.errors.len(), 1);
    assert_eq!(result.errors[0].code, ValidationCode::UnknownSkill);
    assert_eq!(result.errors[0].skill.as_deref(), Some("does-not-exist"));
    assert!(result.errors[0].message.contains("'does-not-exist'"));
}

#[test]
fn us3_3_a_valid_set_returns_valid_with_no_errors_or_warnings() {
    let skills = builtins();
    let result = validate_skill_set(
        &["specification-engine", "opencode-implementer"],
        lookup(&skills),
        &["read_file", "exec_shell", "specKit", "opencode-executor"],
    );
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"valid": true, "errors": [], "warnings": []})
    );
}

#[test]
fn us3_4_a_declared_incompatibility_is_rejected() {
    let solo = with_rule(
        skill("solo-coder", Some(&["write"]), &[]),
        ComposabilityKind::Forbids,
        "opencode-implementer",
        "writes files directly",
    );
    let mut skills = builtins();
    skills.push(solo);
    let result = validate_skill_set(
        &["specification-engine", "opencode-implementer", "solo-coder"],
        lookup(&skills),
        &[],
    );
    assert!(!result.valid);
    assert_eq!(result.errors.len(), 1);
    assert_eq!(result.errors[0].code, ValidationCode::Incompatible);
    assert_eq!(
        result.errors[0].message,
        "skill 'solo-coder' is incompatible with skill 'opencode-implementer'; they cannot be in one set (writes files directly)"
    );
}

// --- US5: the spawned child's tools (permission side only) -------------------------------------

#[test]
fn us5_1_the_child_has_the_composed_tools_and_nothing_forbidden() {
    let skills = builtins();
    let (result, composition) = validate_and_compose(
        &["specification-engine", "opencode-implementer"],
        lookup(&skills),
        &[],
        CompositionMode::Union,
        &PatternContext::new(),
    );
    assert!(result.valid);
    let parent = ToolGate::unrestricted();
    let child = composition.unwrap().gate_within(&parent);
    let available = [
        "specKit",
        "opencode-executor",
        "write",
        "edit",
        "read_file",
        "exec_shell",
    ];
    assert_eq!(
        child.visible_tools(&available),
        ["specKit", "opencode-executor"]
    );
}

#[test]
fn us5_4_a_call_outside_allowed_tools_is_blocked_with_an_explanation() {
    let skills = builtins();
    let composition = compose(&[&skills[0], &skills[1]], CompositionMode::Union).unwrap();
    let gate = composition.gate();
    assert_eq!(
        gate.check("exec_shell", &json!({"command": "ls"}))
            .to_string(),
        "denied: `exec_shell` is not in the tools allowed by skill 'opencode-implementer', skill 'specification-engine' (allowed: opencode-executor, specKit)"
    );
}

// --- Edge cases --------------------------------------------------------------------------------

#[test]
fn edge_compose_of_an_empty_list_is_zero_capability_not_an_error() {
    let composition = compose(&[], CompositionMode::Union).unwrap();
    assert_eq!(
        serde_json::to_value(composition.composed()).unwrap(),
        json!({"skills": [], "allowed_tools": [], "forbidden_tools": [], "execution_protocol": []})
    );
    let gate = composition.gate();
    for tool in ["read_file", "specKit", "github__x", "exec_shell"] {
        assert!(!gate.check(tool, &json!({})).is_allowed(), "{tool}");
    }
    assert!(gate.visible_tools(&["read_file", "specKit"]).is_empty());
    let validation = validate_skill_set(&[] as &[&str], |_| None, &[]);
    assert!(validation.valid);
}

#[test]
fn edge_a_skill_listed_twice_counts_once() {
    let skills = builtins();
    let names = [
        "specification-engine",
        "opencode-implementer",
        "specification-engine",
    ];
    let (result, composition) = validate_and_compose(
        &names,
        lookup(&skills),
        &[],
        CompositionMode::Union,
        &PatternContext::new(),
    );
    assert!(result.valid);
    assert!(result.errors.is_empty());
    assert_eq!(
        result.warnings,
        ["V006: skill 'specification-engine' is listed 2 times; it counts once"]
    );
    let composed = composition.unwrap().into_composed();
    assert_eq!(
        composed.skills,
        ["specification-engine", "opencode-implementer"]
    );
    assert_eq!(composed.execution_protocol.len(), 6);
    let twice = compose(&[&skills[0], &skills[0]], CompositionMode::Union).unwrap();
    assert_eq!(twice.composed().skills, ["specification-engine"]);
}

#[test]
fn edge_allowed_and_forbidden_overlap_in_one_skill_forbidden_wins() {
    let s = skill("torn", Some(&["write", "Read"]), &["write"]);
    let result = validate_skill_set(&["torn"], lookup(std::slice::from_ref(&s)), &[]);
    assert!(result.valid);
    assert_eq!(
        result.warnings,
        ["V004: skill 'torn' lists `write` as both allowed and forbidden; forbidden wins"]
    );
    let composition = compose(&[&s], CompositionMode::Union).unwrap();
    assert_eq!(composition.composed().allowed_tools, ["Read"]);
    assert_eq!(
        composition.gate().check("write", &json!({})).to_string(),
        "denied: `write` is forbidden by skill 'torn'"
    );
    let policy = Policy::from_skill(&s, &PatternContext::new()).unwrap();
    assert!(policy.allow().unwrap().matches_tool("write", Effect::Allow));
    assert!(!policy.check("write", &json!({})).is_allowed());
}

#[test]
fn edge_a_protocol_step_needing_a_tool_that_is_not_allowed_is_a_warning() {
    let mut s = skill("planner", Some(&["specKit"]), &["write"]);
    s.contract.execution_protocol = vec![
        "analyze-task".into(),
        "tool:write".into(),
        "exec_shell".into(),
        "tool:specKit".into(),
    ];
    let result = validate_skill_set(
        &["planner"],
        lookup(std::slice::from_ref(&s)),
        &["exec_shell", "read_file"],
    );
    assert!(result.valid);
    assert_eq!(
        result.warnings,
        [
            "skill 'planner': execution_protocol step 'tool:write' needs tool `write`, which the skill set does not allow",
            "skill 'planner': execution_protocol step 'exec_shell' needs tool `exec_shell`, which the skill set does not allow",
        ]
    );
}

#[test]
fn edge_a_child_cannot_spawn_with_broader_skills_than_its_own() {
    // The parent (a subagent) may use specKit only; the nested spawn asks for more.
    let parent = compose(&[&specification_engine()], CompositionMode::Union)
        .unwrap()
        .gate();
    let broad = skill("broad", Some(&["*", "github__*"]), &[]);
    let child = compose(&[&broad, &opencode_implementer()], CompositionMode::Union)
        .unwrap()
        .gate_within(&parent);
    assert!(child.check("specKit", &json!({})).is_allowed());
    for tool in [
        "opencode-executor",
        "read_file",
        "github__create_issue",
        "write",
    ] {
        assert!(!child.check(tool, &json!({})).is_allowed(), "{tool}");
    }
}
