//! Seed 003 (Skill Injection data model): the composition example, the result shapes, and the
//! validation rules V001–V006.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{builtins, lookup, opencode_implementer, skill, specification_engine, with_rule};
use serde_json::json;
use weft_permissions::{
    ComposeError, ComposedSkill, CompositionMode, PatternContext, ValidationCode, ValidationResult,
    compose, compose_names, validate_skill_set,
};
use weft_types::{CompatibilityKind, CompatibilityRule, ComposabilityKind};

/// Seed 003's "Composition Example", verbatim.
const COMPOSITION_EXAMPLE: &str = r#"{
  "skills": ["specification-engine", "opencode-implementer"],
  "allowed_tools": ["specKit", "opencode-executor"],
  "forbidden_tools": ["write", "edit"],
  "execution_protocol": [
    "analyze-task",
    "generate-spec",
    "validate-spec",
    "read-spec",
    "implement",
    "verify"
  ]
}"#;

#[test]
fn composition_example_matches_the_seed_exactly() {
    let skills = builtins();
    let composition = compose_names(
        &["specification-engine", "opencode-implementer"],
        lookup(&skills),
        CompositionMode::Union,
        &PatternContext::new(),
    )
    .unwrap();
    let expected: serde_json::Value = serde_json::from_str(COMPOSITION_EXAMPLE).unwrap();
    assert_eq!(
        serde_json::to_value(composition.composed()).unwrap(),
        expected
    );
    // And it reads back.
    let back: ComposedSkill = serde_json::from_str(COMPOSITION_EXAMPLE).unwrap();
    assert_eq!(&back, composition.composed());
}

#[test]
fn composition_example_gate_allows_exactly_the_composed_tools() {
    let composition = compose(
        &[&specification_engine(), &opencode_implementer()],
        CompositionMode::Union,
    )
    .unwrap();
    let gate = composition.gate();
    assert!(gate.check("specKit", &json!({})).is_allowed());
    assert!(gate.check("opencode-executor", &json!({})).is_allowed());
    assert_eq!(
        gate.check("write", &json!({})).to_string(),
        "denied: `write` is forbidden by skill 'opencode-implementer'"
    );
    assert_eq!(
        gate.check("edit", &json!({})).to_string(),
        "denied: `edit` is forbidden by skill 'opencode-implementer'"
    );
    // Seed 003's lowercase `write`/`edit` are tools of their own, not aliases of
    // write_file/edit_file; those are simply not allowed.
    assert!(
        gate.check("write_file", &json!({}))
            .to_string()
            .contains("is not in the tools allowed by")
    );
}

#[test]
fn validation_result_shape() {
    let skills = builtins();
    let result = validate_skill_set(&["opencode-implementer", "ghost"], lookup(&skills), &[]);
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({
            "valid": false,
            "errors": [
                {
                    "code": "V001",
                    "message": "unknown skill 'ghost': no skill of that name is registered",
                    "skill": "ghost"
                },
                {
                    "code": "V002",
                    "message": "skill 'opencode-implementer' requires skill 'specification-engine', which is not in the set (Implementation requires a spec)",
                    "skill": "opencode-implementer"
                }
            ],
            "warnings": []
        })
    );
    let back: ValidationResult = serde_json::to_value(&result)
        .and_then(serde_json::from_value)
        .unwrap();
    assert_eq!(back, result);
}

#[test]
fn v001_every_name_must_exist() {
    let skills = builtins();
    let result = validate_skill_set(&["a", "specification-engine", "b"], lookup(&skills), &[]);
    let unknown: Vec<_> = result
        .errors
        .iter()
        .filter(|e| e.code == ValidationCode::UnknownSkill)
        .map(|e| e.skill.as_deref().unwrap())
        .collect();
    assert_eq!(unknown, ["a", "b"]);
    let err = compose_names(
        &["a"],
        lookup(&skills),
        CompositionMode::Union,
        &PatternContext::new(),
    )
    .unwrap_err();
    assert_eq!(err, ComposeError::UnknownSkill("a".into()));
}

#[test]
fn v002_required_companions_from_both_rule_kinds() {
    let mut a = skill("a", Some(&["x"]), &[]);
    a.contract.compatibility_rules.push(CompatibilityRule {
        kind: CompatibilityKind::Requires,
        skill: "b".into(),
        reason: None,
    });
    let c = with_rule(
        skill("c", None, &[]),
        ComposabilityKind::Requires,
        "d",
        "needs d",
    );
    let skills = [a, skill("b", None, &[]), c, skill("d", None, &[])];
    let result = validate_skill_set(&["a", "c"], lookup(&skills), &[]);
    let messages: Vec<&str> = result.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "skill 'a' requires skill 'b', which is not in the set",
            "skill 'c' requires skill 'd', which is not in the set (needs d)",
        ]
    );
    assert!(validate_skill_set(&["a", "b", "c", "d"], lookup(&skills), &[]).valid);
}

#[test]
fn v003_incompatible_skills_cannot_be_present_together() {
    let mut a = skill("a", None, &[]);
    a.contract.compatibility_rules.push(CompatibilityRule {
        kind: CompatibilityKind::Incompatible,
        skill: "b".into(),
        reason: Some("both edit the lockfile".into()),
    });
    let skills = [a, skill("b", None, &[])];
    let result = validate_skill_set(&["b", "a"], lookup(&skills), &[]);
    assert_eq!(result.errors.len(), 1);
    assert_eq!(result.errors[0].code, ValidationCode::Incompatible);
    assert!(result.errors[0].message.contains("'a'") && result.errors[0].message.contains("'b'"));
    assert!(validate_skill_set(&["a"], lookup(&skills), &[]).valid);
}

#[test]
fn v004_forbidden_tools_are_not_allowed_regardless_of_allowed_tools() {
    let s = skill("s", Some(&["Bash", "Read"]), &["exec_shell"]);
    let result = validate_skill_set(&["s"], lookup(std::slice::from_ref(&s)), &[]);
    assert!(result.valid);
    assert_eq!(
        result.warnings,
        ["V004: skill 's' lists `Bash` as both allowed and forbidden; forbidden wins"]
    );
    let gate = compose(&[&s], CompositionMode::Union).unwrap().gate();
    assert!(!gate.check("Bash", &json!({"command": "ls"})).is_allowed());
    assert!(gate.check("Read", &json!({"path": "x"})).is_allowed());
}

#[test]
fn v005_an_empty_allowed_tools_is_a_valid_zero_capability_skill() {
    let s = skill("nothing", Some(&[]), &[]);
    let result = validate_skill_set(&["nothing"], lookup(std::slice::from_ref(&s)), &[]);
    assert!(result.valid);
    assert!(result.errors.is_empty());
    assert_eq!(
        result.warnings,
        ["V005: skill 'nothing' allows no tools (valid: a zero-capability skill)"]
    );
    let gate = compose(&[&s], CompositionMode::Union).unwrap().gate();
    assert!(!gate.check("read_file", &json!({})).is_allowed());
}

#[test]
fn v006_duplicate_names_are_deduplicated() {
    let skills = builtins();
    let result = validate_skill_set(
        &[
            "opencode-implementer",
            "specification-engine",
            "opencode-implementer",
            "opencode-implementer",
        ],
        lookup(&skills),
        &[],
    );
    assert!(result.valid);
    assert_eq!(
        result.warnings,
        ["V006: skill 'opencode-implementer' is listed 3 times; it counts once"]
    );
}
