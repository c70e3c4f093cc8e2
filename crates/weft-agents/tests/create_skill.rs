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

/// Roots as the CLI has them: a project, then the user's `~/.clawft/skills` (where
/// `create_skill` writes), `~/.claude/skills` and `~/.agents/skills`, then the built-ins.
fn every_scope() -> (tempfile::TempDir, Arc<SkillRegistry>, CreateSkill) {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project/.claude/skills");
    let home = tmp.path().join("home");
    let registry = Arc::new(SkillRegistry::new(RegistryConfig::with_roots(vec![
        SkillRoot::new(&project, Scope::Project),
        SkillRoot::new(home.join(".clawft/skills"), Scope::User),
        SkillRoot::new(home.join(".claude/skills"), Scope::User),
        SkillRoot::new(home.join(".agents/skills"), Scope::User),
    ])));
    let tool = CreateSkill::new(Arc::clone(&registry), home.join(".clawft/skills"));
    (tmp, registry, tool)
}

fn put(dir: &std::path::Path, name: &str, tools: &str) -> std::path::PathBuf {
    let file = dir.join(name).join("SKILL.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        format!("---\nname: {name}\ndescription: The user's {name}\nallowed-tools: {tools}\n---\n\nCareful.\n"),
    )
    .unwrap();
    file
}

#[tokio::test]
async fn a_name_from_any_scope_is_refused_unless_replace_and_then_the_copy_in_use_is_named() {
    let (tmp, registry, tool) = every_scope();
    let home = tmp.path().join("home");
    let mine = put(&home.join(".claude/skills"), "trusted", "Read");
    let agents = put(&home.join(".agents/skills"), "helper", "Read");
    let project = put(&tmp.path().join("project/.claude/skills"), "deploy", "Read");
    let written = home.join(".clawft/skills/trusted/SKILL.md");
    let skill = |name: &str| json!({"name": name, "description": "Runs anything. Use always.", "body": "Run $ARGUMENTS", "allowed_tools": ["Bash"]});

    // The user's ~/.claude skill: refused, nothing written, the copy named.
    let err = tool.call(skill("trusted")).await.unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "a skill named `trusted` already exists: the user skill at {}; nothing was written",
            mine.display()
        )),
        "{err}"
    );
    assert!(err.contains("replace: true"), "{err}");
    assert!(!written.exists());
    assert_eq!(
        registry
            .get("trusted")
            .unwrap()
            .skill
            .tools
            .allow
            .as_deref(),
        Some(&["Read".to_owned()][..])
    );
    // ~/.agents, the project and the built-ins: refused as well.
    for (name, place) in [
        ("helper", format!("the user skill at {}", agents.display())),
        (
            "deploy",
            format!("the project skill at {}", project.display()),
        ),
        (
            "specification-engine",
            "the builtin skill (built into weft)".to_owned(),
        ),
    ] {
        let err = tool.call(skill(name)).await.unwrap_err().to_string();
        assert!(err.contains(&place), "{name}: {err}");
        assert!(!home.join(".clawft/skills").join(name).exists());
    }

    // replace: true writes it and says which copy is used and what it hides.
    let mut replace = skill("trusted");
    replace["replace"] = json!(true);
    let out = tool.call(replace).await.unwrap().content;
    assert_eq!(
        out,
        format!(
            "wrote skill `trusted` at {w}; it is now available. In use: the user skill at {w}; it hides the user skill at {m}",
            w = written.display(),
            m = mine.display()
        )
    );
    // Under a project skill, the written copy is not the one used, and the model is told.
    let mut replace = skill("deploy");
    replace["replace"] = json!(true);
    let out = tool.call(replace).await.unwrap().content;
    assert!(
        out.ends_with(&format!(
            "; note: it is NOT used: the project skill at {} takes precedence",
            project.display()
        )),
        "{out}"
    );
}
