//! Seed 001's acceptance scenarios that go through the injection API and the selector
//! (US1, US3 via the facade, US4), plus its edge cases about registration. The permission
//! scenarios themselves are tested in weft-permissions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use weft_agents::{CODING_SKILLS, RiskLevel, SkillInjection, TaskContext};
use weft_registry::{RegistryConfig, SkillError, SkillRegistry, SkillRoot};
use weft_types::{ComposabilityKind, ComposabilityRule, Scope, Skill};

/// The injection API over a registry holding seed 003's two definitions as the seed writes
/// them (the built-ins of the same names grant weft's own tools instead).
fn api() -> SkillInjection {
    let registry = SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::default()
    });
    for (path, text) in weft_testkit::seed_definitions() {
        let skill = weft_parse::parse_definition(text.as_bytes(), &path, &Default::default())
            .skill
            .unwrap();
        registry.register(skill, None).unwrap();
    }
    SkillInjection::new(Arc::new(registry))
}

fn skill(name: &str, description: &str) -> Skill {
    Skill::in_memory(name, description, Scope::User)
}

fn task(description: &str, risk: RiskLevel, coding: bool) -> TaskContext {
    TaskContext {
        description: description.to_owned(),
        risk_level: risk,
        coding,
    }
}

// --- US1: define and register ----------------------------------------------------------------

#[test]
fn us1_1_registered_skill_is_returned_unmodified() {
    let api = api();
    let mut s = skill("spec-writer", "Writes specs");
    s.tools.allow = Some(vec!["specKit".into()]);
    s.tools.deny = vec!["write".into(), "edit".into()];
    api.register_skill(s.clone()).unwrap();
    assert_eq!(api.get_skill("spec-writer").unwrap(), s);
}

#[test]
fn us1_3_override_version_replaces_later_lookups() {
    let api = api();
    let mut v1 = skill("triage", "Triage bugs");
    v1.version = Some("1.0.0".into());
    api.register_skill(v1.clone()).unwrap();
    let mut v2 = v1.clone();
    v2.version = Some("2.0.0".into());
    api.override_skill_version(v2).unwrap();
    assert_eq!(
        api.get_skill("triage").unwrap().version.as_deref(),
        Some("2.0.0")
    );
}

#[test]
fn us1_4_no_forbidden_tools_means_an_empty_set() {
    let api = api();
    let mut s = skill("reader", "Reads");
    s.tools.allow = Some(vec!["read_file".into()]);
    api.register_skill(s).unwrap();
    assert!(api.get_skill("reader").unwrap().tools.deny.is_empty());
}

#[test]
fn edge_override_of_an_unregistered_skill_registers_it() {
    let api = api();
    api.override_skill_version(skill("fresh", "New")).unwrap();
    assert!(api.get_skill("fresh").is_some());
}

#[test]
fn edge_registering_a_taken_name_is_refused() {
    let api = api();
    api.register_skill(skill("dup", "One")).unwrap();
    assert!(matches!(
        api.register_skill(skill("dup", "Two")),
        Err(SkillError::AlreadyRegistered { .. })
    ));
}

#[test]
fn edge_protocol_step_naming_an_unallowed_tool_warns_at_registration() {
    let api = api().with_known_tools(["read_file", "write_file"]);
    let mut s = skill("careful", "Careful");
    s.tools.allow = Some(vec!["read_file".into()]);
    s.contract.execution_protocol = vec!["read the spec".into(), "tool:write_file".into()];
    let warnings = api.register_skill(s).unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("write_file") && w.contains("careful")),
        "{warnings:?}"
    );
}

#[test]
fn sc_005_new_skills_are_usable_at_once() {
    let api = api();
    let mut a = skill("alpha", "A");
    a.tools.allow = Some(vec!["read_file".into()]);
    api.register_skill(a).unwrap();
    let composed = api.compose_skills(&["alpha"]).unwrap();
    assert_eq!(composed.composed().allowed_tools, ["read_file"]);
    assert!(api.validate_skill_set(&["alpha"]).valid);
}

// --- US3 through the facade -----------------------------------------------------------------

#[test]
fn us3_1_implementer_alone_is_rejected_naming_the_companion() {
    let result = api().validate_skill_set(&["opencode-implementer"]);
    assert!(!result.valid);
    assert!(
        result
            .errors
            .iter()
            .any(|e| e.message.contains("specification-engine")),
        "{result:?}"
    );
}

#[test]
fn us3_2_unknown_skill_is_rejected() {
    let result = api().validate_skill_set(&["no-such-skill"]);
    assert!(!result.valid);
    assert!(
        result
            .errors
            .iter()
            .any(|e| e.message.contains("no-such-skill"))
    );
}

#[test]
fn us3_3_valid_pair_is_valid_with_no_errors_or_warnings() {
    let result = api().validate_skill_set(&CODING_SKILLS);
    assert!(result.valid, "{result:?}");
    assert!(result.errors.is_empty());
    assert!(result.warnings.is_empty());
}

#[test]
fn seed_003_composition_example_through_the_registry() {
    let composed = api().compose_skills(&CODING_SKILLS).unwrap();
    let json = serde_json::to_value(composed.composed()).unwrap();
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

// --- US4: context-aware selection -------------------------------------------------------------

fn selector_api() -> SkillInjection {
    let api = api();
    api.register_skill(skill(
        "code-review",
        "Review code changes and pull requests for bugs. Use when reviewing a diff.",
    ))
    .unwrap();
    api.register_skill(skill(
        "release-notes",
        "Write release notes from merged pull requests. Use when preparing a release.",
    ))
    .unwrap();
    let mut tests = skill(
        "test-writer",
        "Write unit tests for code changes. Use when adding tests.",
    );
    tests.contract.composability_rules = vec![ComposabilityRule {
        kind: ComposabilityKind::Requires,
        skill: "opencode-implementer".into(),
        reason: None,
    }];
    api.register_skill(tests).unwrap();
    api
}

#[test]
fn us4_1_coding_tasks_get_both_coding_skills() {
    for risk in [RiskLevel::Low, RiskLevel::Medium, RiskLevel::High] {
        let selected = selector_api().select_skills(&task("add a login page", risk, true));
        for s in CODING_SKILLS {
            assert!(selected.iter().any(|n| n == s), "{risk}: {selected:?}");
        }
    }
}

#[test]
fn us4_2_low_risk_non_coding_tasks_get_no_coding_skills() {
    let selected = selector_api().select_skills(&task(
        "write unit tests and release notes for the merged pull requests",
        RiskLevel::Low,
        false,
    ));
    assert!(
        selected.iter().any(|n| n == "release-notes"),
        "{selected:?}"
    );
    for coding in CODING_SKILLS.iter().chain(&["test-writer"]) {
        assert!(!selected.iter().any(|n| n == coding), "{selected:?}");
    }
}

#[test]
fn us4_3_companions_are_added_by_closure() {
    // A coding task matched to test-writer brings its companion chain, never half of it.
    let selected = selector_api().select_skills(&task(
        "write unit tests for the parser changes",
        RiskLevel::Low,
        true,
    ));
    assert!(selected.iter().any(|n| n == "test-writer"), "{selected:?}");
    for s in CODING_SKILLS {
        assert!(selected.iter().any(|n| n == s), "{selected:?}");
    }
    // Every selection validates.
    let api = selector_api();
    assert!(api.validate_skill_set(&selected).valid);
}

#[test]
fn selection_is_deterministic_and_respects_discovered_skills() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pdf-tools");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files\n---\nBody\n",
    )
    .unwrap();
    let registry = SkillRegistry::new(RegistryConfig::with_roots(vec![SkillRoot::new(
        tmp.path(),
        Scope::Project,
    )]));
    let api = SkillInjection::new(Arc::new(registry));
    let t = task("extract the tables from this pdf", RiskLevel::Low, false);
    assert_eq!(api.select_skills(&t), ["pdf-tools"]);
    assert_eq!(api.select_skills(&t), api.select_skills(&t));
}
