//! Seed 002 section 5.1 ("SKILL.md Parser Tests"), ported to the real API, plus the legacy
//! `skill.json` + `prompt.md` format and a seed 003 skill-injection definition.
//!
//! The seed's `parse_skill_md(content, dir_name)` becomes `parse_skill_md(bytes,
//! "<dir>/SKILL.md", &ParseOptions::default())`; `skill.prompt` is `ParsedSkill::body`;
//! `is_err()` is "no skill, with an error diagnostic".

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::{assert_codes, describe};
use weft_parse::{
    ParseOptions, ParsedSkill, Profile, parse_definition, parse_legacy, parse_skill_md,
};
use weft_types::{ComposabilityKind, ComposabilityRule, Skill, SkillContext, SkillFormat, Value};

fn parse_in(content: &str, dir: &str) -> ParsedSkill {
    parse_skill_md(
        content.as_bytes(),
        Path::new(&format!("{dir}/SKILL.md")),
        &ParseOptions::default(),
    )
}

/// The skill, or a panic showing why there is none.
fn skill_of(parsed: &ParsedSkill) -> Skill {
    parsed
        .skill
        .clone()
        .unwrap_or_else(|| panic!("no skill:\n{}", describe(&parsed.diagnostics)))
}

// --- seed 002, 5.1 -----------------------------------------------------------------------------

#[test]
fn parse_skill_md_full_frontmatter() {
    let content = r#"---
name: research
description: Deep research on a topic
version: 2.0.0
variables:
  - topic
  - depth
argument-hint: "[topic] [depth]"
disable-model-invocation: false
user-invocable: true
allowed-tools:
  - read_file
  - web_search
---

When researching $ARGUMENTS:

1. Start with a broad overview
2. Provide concrete examples
"#;
    let parsed = parse_in(content, "research");
    // `web_search` is OpenClaw's tool: weft has none of that name, and says so.
    assert_codes(&parsed.diagnostics, &["W136"]);
    let skill = skill_of(&parsed);
    assert_eq!(skill.name, "research");
    assert_eq!(skill.description, "Deep research on a topic");
    assert_eq!(skill.version.as_deref(), Some("2.0.0"));
    assert_eq!(skill.variables, vec!["topic", "depth"]);
    assert_eq!(skill.argument_hint.as_deref(), Some("[topic] [depth]"));
    assert!(!skill.disable_model_invocation);
    assert!(skill.user_invocable);
    assert_eq!(
        skill.tools.allow,
        Some(vec!["read_file".to_owned(), "web_search".to_owned()])
    );
    assert!(skill.tools.deny.is_empty());
    assert_eq!(skill.source.format, SkillFormat::SkillMd);
    let prompt = parsed.body.unwrap();
    assert!(prompt.contains("When researching $ARGUMENTS"));
    assert!(prompt.ends_with("2. Provide concrete examples"));
}

#[test]
fn parse_skill_md_minimal_frontmatter() {
    let content = "---\ndescription: A simple skill\n---\n\nDo the thing.";
    let parsed = parse_in(content, "simple");
    let skill = skill_of(&parsed);
    assert_eq!(skill.name, "simple"); // inferred from dir_name
    assert_eq!(skill.declared_name, None);
    assert_eq!(skill.description, "A simple skill");
    assert_eq!(parsed.body.as_deref(), Some("Do the thing."));
    assert_codes(&parsed.diagnostics, &[]);
}

#[test]
fn parse_skill_md_no_frontmatter() {
    let content = "Just instructions without any frontmatter.";
    let parsed = parse_in(content, "bare");
    let skill = skill_of(&parsed);
    assert_eq!(skill.name, "bare");
    assert_eq!(
        parsed.body.as_deref(),
        Some("Just instructions without any frontmatter.")
    );
    // DESIGN 3.1: the description defaults to the first paragraph.
    assert_eq!(
        skill.description,
        "Just instructions without any frontmatter."
    );
}

#[test]
fn parse_skill_md_unterminated_frontmatter() {
    let content = "---\nname: broken\n\nNo closing delimiter.";
    let result = parse_in(content, "broken");
    assert!(result.skill.is_none());
    assert!(!result.is_valid());
    assert_codes(&result.diagnostics, &["E006"]);
    assert_eq!(result.diagnostics[0].line, Some(1));
}

#[test]
fn parse_skill_md_empty_body() {
    let content = "---\nname: empty\ndescription: Empty body\n---\n";
    let parsed = parse_in(content, "empty");
    assert!(parsed.skill.is_some());
    assert!(parsed.body.is_none());
}

#[test]
fn parse_skill_md_openclaw_metadata() {
    let content = r#"---
name: api-skill
description: Call an API
metadata:
  openclaw:
    requires:
      bins: [curl]
      env: [API_KEY]
    primaryEnv: API_KEY
---

Use curl to call the API.
"#;
    let parsed = parse_in(content, "api-skill");
    let skill = skill_of(&parsed);
    assert!(skill.metadata.is_some());
    let meta = skill.metadata.unwrap();
    let openclaw = meta.get("openclaw").expect("openclaw block");
    assert_eq!(
        openclaw.get("primaryEnv").and_then(Value::as_str),
        Some("API_KEY")
    );
    assert_eq!(
        serde_json::to_string(openclaw).unwrap(),
        r#"{"requires":{"bins":["curl"],"env":["API_KEY"]},"primaryEnv":"API_KEY"}"#
    );
}

#[test]
fn parse_skill_md_fork_context() {
    let content = "---\nname: forked\ncontext: fork\nagent: explore\n---\n\nRun in isolation.";
    let parsed = parse_in(content, "forked");
    let skill = skill_of(&parsed);
    assert!(matches!(skill.context, SkillContext::Fork));
    assert_eq!(skill.agent.as_deref(), Some("explore"));
    assert_eq!(skill.description, "Run in isolation.");
}

// --- legacy skill.json + prompt.md (DESIGN 3.2) -----------------------------------------------

#[test]
fn legacy_skill_json_with_prompt() {
    let json = br#"{
  "name": "research",
  "description": "Deep research on a topic",
  "version": "2.0.0",
  "variables": ["topic", "depth"],
  "allowed_tools": ["read_file", "web_search"],
  "argument_hint": "[topic] [depth]"
}"#;
    let parsed = parse_legacy(
        json,
        Some(b"When researching $ARGUMENTS:\r\n\r\n1. Start broad\r\n"),
        Path::new("research/skill.json"),
        &ParseOptions::new(Profile::Validate),
    );
    assert_codes(&parsed.diagnostics, &[]);
    let skill = skill_of(&parsed);
    assert_eq!(skill.name, "research");
    assert_eq!(skill.description, "Deep research on a topic");
    assert_eq!(skill.version.as_deref(), Some("2.0.0"));
    assert_eq!(skill.variables, ["topic", "depth"]);
    assert_eq!(
        skill.tools.allow,
        Some(vec!["read_file".to_owned(), "web_search".to_owned()])
    );
    assert_eq!(skill.argument_hint.as_deref(), Some("[topic] [depth]"));
    assert_eq!(skill.source.format, SkillFormat::Legacy);
    assert_eq!(
        parsed.body.as_deref(),
        Some("When researching $ARGUMENTS:\n\n1. Start broad")
    );
}

#[test]
fn legacy_skill_json_problems() {
    // No prompt.md: loads, with a warning under validate.
    let json = br#"{"description": "d"}"#;
    let path = Path::new("bare/skill.json");
    let loaded = parse_legacy(json, None, path, &ParseOptions::default());
    assert_eq!(skill_of(&loaded).name, "bare");
    assert!(loaded.body.is_none());
    let checked = parse_legacy(json, None, path, &ParseOptions::new(Profile::Validate));
    assert_codes(&checked.diagnostics, &["W104", "W162"]);

    // Invalid JSON is an error with a position.
    let broken = parse_legacy(
        b"{\n  \"name\": \"x\",\n}",
        None,
        path,
        &ParseOptions::default(),
    );
    assert!(broken.skill.is_none());
    assert_codes(&broken.diagnostics, &["E160"]);
    assert_eq!(broken.diagnostics[0].line, Some(3));

    // Not an object.
    let list = parse_legacy(b"[1, 2]", None, path, &ParseOptions::default());
    assert_codes(&list.diagnostics, &["E023"]);

    // Same rules as SKILL.md: an invalid name falls back to the directory when loading.
    let named = parse_legacy(
        br#"{"name": "Bad Name", "description": "d"}"#,
        Some(b"Body"),
        path,
        &ParseOptions::default(),
    );
    assert_eq!(skill_of(&named).name, "bare");
}

// --- seed 003 skill-injection definitions ----------------------------------------------------

const OPENCODE_IMPLEMENTER: &str = r#"{
  "name": "opencode-implementer",
  "description": "Executes code implementation based on specifications",
  "allowed_tools": ["opencode-executor"],
  "forbidden_tools": ["write", "edit"],
  "execution_protocol": ["read-spec", "implement", "verify"],
  "composability_rules": [
    {
      "type": "requires",
      "skill": "specification-engine",
      "reason": "Implementation requires a spec"
    }
  ]
}"#;

const OPENCODE_IMPLEMENTER_YAML: &str = "name: opencode-implementer
description: Executes code implementation based on specifications
allowed-tools: [opencode-executor]
forbidden-tools:
  - write
  - edit
execution-protocol:
  - read-spec
  - implement
  - verify
composability-rules:
  - type: requires
    skill: specification-engine
    reason: Implementation requires a spec
";

fn assert_opencode_implementer(skill: &Skill) {
    assert_eq!(skill.name, "opencode-implementer");
    assert_eq!(
        skill.description,
        "Executes code implementation based on specifications"
    );
    assert_eq!(
        skill.tools.allow,
        Some(vec!["opencode-executor".to_owned()])
    );
    assert_eq!(skill.tools.deny, ["write", "edit"]);
    assert_eq!(
        skill.contract.execution_protocol,
        ["read-spec", "implement", "verify"]
    );
    assert_eq!(
        skill.contract.composability_rules,
        [ComposabilityRule {
            kind: ComposabilityKind::Requires,
            skill: "specification-engine".to_owned(),
            reason: Some("Implementation requires a spec".to_owned()),
        }]
    );
    assert_eq!(skill.source.format, SkillFormat::Definition);
}

#[test]
fn seed_003_definition_json() {
    let parsed = parse_definition(
        OPENCODE_IMPLEMENTER.as_bytes(),
        Path::new("opencode-implementer.json"),
        &ParseOptions::new(Profile::Validate),
    );
    assert_codes(&parsed.diagnostics, &[]);
    assert_eq!(parsed.name.as_deref(), Some("opencode-implementer"));
    assert_opencode_implementer(&skill_of(&parsed));
}

#[test]
fn seed_003_definition_yaml_spelling_is_the_same_skill() {
    let json = skill_of(&parse_definition(
        OPENCODE_IMPLEMENTER.as_bytes(),
        Path::new("opencode-implementer.json"),
        &ParseOptions::default(),
    ));
    let parsed = parse_definition(
        OPENCODE_IMPLEMENTER_YAML.as_bytes(),
        Path::new("opencode-implementer.yaml"),
        &ParseOptions::new(Profile::Validate),
    );
    assert_codes(&parsed.diagnostics, &[]);
    let yaml = skill_of(&parsed);
    assert_opencode_implementer(&yaml);
    let mut yaml_same_source = yaml;
    yaml_same_source.source = json.source.clone();
    assert_eq!(yaml_same_source, json);
}

#[test]
fn seed_003_definition_round_trips_through_serde() {
    let skill = skill_of(&parse_definition(
        OPENCODE_IMPLEMENTER.as_bytes(),
        Path::new("opencode-implementer.json"),
        &ParseOptions::default(),
    ));
    let json = serde_json::to_string(&skill).unwrap();
    let back: Skill = serde_json::from_str(&json).unwrap();
    assert_eq!(back, skill);
    assert_opencode_implementer(&back);

    // The specification-engine companion names the implementer back.
    let spec = skill_of(&parse_definition(
        br#"{
  "name": "specification-engine",
  "description": "Generates specifications for implementation tasks",
  "allowed_tools": ["specKit"],
  "execution_protocol": ["analyze-task", "generate-spec", "validate-spec"],
  "composability_rules": [
    {"type": "requires", "skill": "opencode-implementer", "reason": "Spec must be followed by implementation"}
  ]
}"#,
        Path::new("specification-engine.json"),
        &ParseOptions::default(),
    ));
    assert_eq!(spec.tools.allow, Some(vec!["specKit".to_owned()]));
    assert_eq!(
        spec.contract.composability_rules[0].skill,
        "opencode-implementer"
    );
}

#[test]
fn seed_003_definition_problems() {
    // An unknown rule type is an error; a definition without tools is a validate warning.
    let bad_rule = parse_definition(
        br#"{"name": "x", "description": "d", "allowed_tools": [], "execution_protocol": ["a"],
             "composability_rules": [{"type": "likes", "skill": "y"}]}"#,
        Path::new("x.json"),
        &ParseOptions::default(),
    );
    assert!(bad_rule.skill.is_none());
    assert!(
        bad_rule.diagnostics.iter().any(|d| d.code == "E150"),
        "{}",
        describe(&bad_rule.diagnostics)
    );

    let bare = parse_definition(
        br#"{"name": "x", "description": "d"}"#,
        Path::new("x.json"),
        &ParseOptions::new(Profile::Validate),
    );
    assert_codes(&bare.diagnostics, &["W151", "W152"]);
    let skill = skill_of(&bare);
    assert_eq!(
        skill.tools.allow, None,
        "declares nothing: grants nothing when composed"
    );

    // An explicit empty allow list is zero capability, not "no restriction".
    let empty = parse_definition(
        br#"{"name": "x", "description": "d", "allowed_tools": [], "execution_protocol": ["a"]}"#,
        Path::new("x.json"),
        &ParseOptions::default(),
    );
    assert_eq!(skill_of(&empty).tools.allow, Some(Vec::new()));

    // A definition has no directory: without a name it is an error.
    let nameless = parse_definition(
        br#"{"description": "d"}"#,
        Path::new("x.json"),
        &ParseOptions::default(),
    );
    assert!(nameless.skill.is_none());
    assert_codes(&nameless.diagnostics, &["E108"]);
}
