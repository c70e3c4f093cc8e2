//! `create_skill`: a model-written skill is validated, written into the user skills directory,
//! and visible in the registry at once; invalid input and existing skills are refused without
//! touching the disk.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use serde_json::json;
use weft_agents::CreateSkill;
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{Tool, ToolError};
use weft_types::Scope;

fn setup() -> (tempfile::TempDir, Arc<SkillRegistry>, CreateSkill) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("skills");
    let registry = Arc::new(SkillRegistry::new(RegistryConfig {
        builtins: false,
        ..RegistryConfig::with_roots(vec![SkillRoot::new(&dir, Scope::User)])
    }));
    let tool = CreateSkill::new(Arc::clone(&registry), &dir);
    (tmp, registry, tool)
}

#[tokio::test]
async fn a_valid_skill_is_written_and_loaded() {
    let (tmp, registry, tool) = setup();
    assert!(registry.get("release-notes").is_none());
    let out = tool
        .call(json!({
            "name": "release-notes",
            "description": "Drafts release notes from the git log. Use when preparing a release.",
            "body": "# Release notes\n\nSummarise `git log $ARGUMENTS`.",
            "allowed_tools": ["Bash(git log:*)", "Read"],
            "user_invocable": true
        }))
        .await
        .unwrap();
    assert!(
        out.content.contains("created skill `release-notes`"),
        "{}",
        out.content
    );
    assert!(out.content.contains("now available"), "{}", out.content);
    let file = tmp.path().join("skills/release-notes/SKILL.md");
    assert!(file.is_file());
    let entry = registry.get("release-notes").unwrap();
    assert_eq!(
        entry.skill.tools.allow.as_deref().unwrap(),
        ["Bash(git log:*)".to_owned(), "Read".to_owned()]
    );
    assert!(entry.body().unwrap().text.contains("git log $ARGUMENTS"));
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["SKILL.md"]);
}

#[tokio::test]
async fn invalid_input_is_refused_with_the_diagnostics_and_nothing_is_written() {
    let (tmp, registry, tool) = setup();
    let err = tool
        .call(json!({"name": "Bad_Name", "description": "x", "body": "y"}))
        .await
        .unwrap_err();
    let ToolError::InvalidInput(message) = err else {
        panic!("expected InvalidInput, got {err:?}");
    };
    assert!(message.contains("nothing was written"), "{message}");
    assert!(message.contains("E1"), "names a rule code: {message}");
    assert!(!tmp.path().join("skills").exists());
    assert!(registry.list().is_empty());

    for bad in [
        json!({"name": "../escape", "description": "d", "body": "b"}),
        json!({"name": "ok", "description": 5, "body": "b"}),
        json!({"name": "ok", "description": "d"}),
        json!({"name": "ok", "description": "d", "body": "b", "allowed_tools": "Read"}),
    ] {
        assert!(
            matches!(
                tool.call(bad.clone()).await,
                Err(ToolError::InvalidInput(_))
            ),
            "{bad}"
        );
    }
    assert!(!tmp.path().join("skills").exists());
    assert!(!tmp.path().join("escape").exists());
}

#[tokio::test]
async fn an_existing_skill_is_only_replaced_when_asked() {
    let (tmp, registry, tool) = setup();
    let first =
        json!({"name": "notes", "description": "Takes notes. Use for notes.", "body": "v1"});
    tool.call(first.clone()).await.unwrap();
    let second =
        json!({"name": "notes", "description": "Takes notes. Use for notes.", "body": "v2"});
    let err = tool.call(second.clone()).await.unwrap_err();
    assert!(err.to_string().contains("replace: true"), "{err}");
    let file = tmp.path().join("skills/notes/SKILL.md");
    assert!(std::fs::read_to_string(&file).unwrap().contains("v1"));

    let mut replace = second;
    replace["replace"] = json!(true);
    tool.call(replace).await.unwrap();
    assert!(std::fs::read_to_string(&file).unwrap().contains("v2"));
    assert!(
        registry
            .get("notes")
            .unwrap()
            .body()
            .unwrap()
            .text
            .contains("v2")
    );
}
