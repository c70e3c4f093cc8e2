//! Issue 15 against a real loopback chat server: a conditional skill (`paths:`) joins the
//! catalog once a file tool touches a matching file; an inline skill's `model:` and `effort:`
//! hold for its turn only; a model alias no provider serves falls back with a notice.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use common::{ScriptServer, openai_messages, openai_text, openai_tool, openai_tool_result};
use serde_json::{Value, json};
use weft_agents::{
    AgentRegistry, ModelPool, Quiet, Session, SessionEvents, SessionOptions, SessionParts,
};
use weft_llm::{ModelCatalog, ProviderConfig, ProviderKind, RetryPolicy};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope};
use weft_types::Scope;

/// A project with skills in `.clawft/skills`, and a session on one OpenAI-compatible
/// provider `local` (default `local/test-model`) at the script server.
struct Project {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Project {
    fn new(skills: &[(&str, &str)]) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp
            .path()
            .join("project")
            .canonicalize()
            .unwrap_or_else(|_| {
                std::fs::create_dir_all(tmp.path().join("project")).unwrap();
                tmp.path().join("project").canonicalize().unwrap()
            });
        for (name, frontmatter) in skills {
            let file = dir.join(format!(".clawft/skills/{name}/SKILL.md"));
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(
                &file,
                format!("---\nname: {name}\ndescription: The {name} skill\n{frontmatter}---\n\nDo {name} at ${{CLAUDE_EFFORT}}.\n"),
            )
            .unwrap();
        }
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/lib.rs"), "pub fn f() {}\n").unwrap();
        Self { _tmp: tmp, dir }
    }

    fn session(&self, server: &ScriptServer) -> Session {
        let mut provider =
            ProviderConfig::new("local", ProviderKind::OpenAi, format!("{}/v1", server.url));
        provider.timeout = Duration::from_secs(10);
        provider.retry = RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        };
        let mut catalog = ModelCatalog::default();
        catalog.add_provider(provider);
        catalog.set_default("local/test-model");
        let mut config = RegistryConfig::with_roots(vec![SkillRoot::new(
            self.dir.join(".clawft/skills"),
            Scope::Project,
        )]);
        config.builtins = false;
        let tools = weft_tools::builtin_registry(&BuiltinConfig {
            scope: FsScope::new(self.dir.clone(), vec![]).unwrap(),
            memory_file: self.dir.join("memory.md"),
            exec: ExecConfig::default(),
            web_fetch: None,
        });
        Session::new(SessionParts {
            models: Arc::new(ModelPool::new(catalog)),
            skills: Arc::new(SkillRegistry::new(config)),
            tools,
            agent: AgentRegistry::builtins()
                .get("default")
                .unwrap()
                .agent
                .clone(),
            model: None,
            options: SessionOptions {
                project_dir: Some(self.dir.clone()),
                ..SessionOptions::default()
            },
        })
        .unwrap()
    }
}

fn system(body: &Value) -> String {
    openai_messages(body)[0]["content"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Collects notices.
#[derive(Default)]
struct Notices(Vec<String>);

impl SessionEvents for Notices {
    fn notice(&mut self, text: &str) {
        self.0.push(text.to_owned());
    }
}

/// A conditional skill (`paths:`) is not in the catalog until a file tool touches a match;
/// then the tool's result announces it, and the system prompt stays as it was (a stable
/// prefix for the prompt cache).
#[tokio::test]
async fn conditional_skill_is_announced_by_the_result_that_reveals_it() {
    let project = Project::new(&[("plain", ""), ("rust-style", "paths: \"src/**/*.rs\"\n")]);
    let server = ScriptServer::openai(vec![
        openai_tool("call_r", "read_file", json!({"path": "src/lib.rs"})),
        openai_text("Read it."),
        openai_text("Again."),
    ])
    .await;
    let mut session = project.session(&server);
    session
        .send("Look at src/lib.rs", &mut Quiet)
        .await
        .unwrap();
    session.send("And again", &mut Quiet).await.unwrap();
    let bodies = server.bodies();
    let (before, after) = (system(&bodies[0]), system(&bodies[1]));
    assert!(before.contains("- plain:"), "{before}");
    assert!(!before.contains("rust-style"), "{before}");
    assert_eq!(before, after);
    let result = openai_tool_result(&bodies[1], "call_r");
    assert!(
        result.ends_with(
            "\n\n[skill `rust-style` applies to this file: The rust-style skill; use_skill loads it]"
        ),
        "{result}"
    );
    // Told once: the next user message carries no announcement of it.
    let last = openai_messages(&bodies[2]).last().unwrap().clone();
    assert_eq!(last["content"], "And again");
}

#[tokio::test]
async fn inline_skill_model_and_effort_hold_for_its_turn_only() {
    let project = Project::new(&[("think", "model: local/o3-mini\neffort: low\n")]);
    let server = ScriptServer::openai(vec![openai_text("Thought."), openai_text("Plain.")]).await;
    let mut session = project.session(&server);
    let outcome = session
        .run_skill("think", vec![], &mut Quiet)
        .await
        .unwrap();
    assert_eq!(outcome.text, "Thought.");
    session.send("And now?", &mut Quiet).await.unwrap();
    let bodies = server.bodies();
    assert_eq!(bodies[0]["model"], "o3-mini");
    assert_eq!(bodies[0]["reasoning_effort"], "low");
    let skill_message = openai_messages(&bodies[0])[1]["content"].as_str().unwrap();
    assert!(
        skill_message.contains("Do think at low."),
        "{skill_message}"
    );
    // The next turn is the session's again.
    assert_eq!(bodies[1]["model"], "test-model");
    assert_eq!(bodies[1].get("reasoning_effort"), None);
}

#[tokio::test]
async fn a_model_alias_no_provider_serves_falls_back_with_a_notice() {
    let project = Project::new(&[("quick", "model: haiku\n"), ("keep", "model: inherit\n")]);
    let server = ScriptServer::openai(vec![openai_text("Done."), openai_text("Kept.")]).await;
    let mut session = project.session(&server);
    let mut notices = Notices::default();
    session
        .run_skill("quick", vec![], &mut notices)
        .await
        .unwrap();
    assert_eq!(server.bodies()[0]["model"], "test-model");
    assert_eq!(
        notices.0,
        [
            "skill `quick` asks for model `haiku`, which no configured provider serves (an `anthropic` provider or an alias in the config would); using local/test-model"
        ]
    );
    let mut quiet = Notices::default();
    session.run_skill("keep", vec![], &mut quiet).await.unwrap();
    assert_eq!(server.bodies()[1]["model"], "test-model");
    assert!(quiet.0.is_empty(), "{:?}", quiet.0);
}

/// A skill whose `allowed-tools` names a tool this session does not have is not ready: the
/// model is not offered it, and `use_skill` refuses it saying why; the user can still run it.
#[tokio::test]
async fn a_skill_naming_a_tool_the_session_lacks_is_not_offered_to_the_model() {
    let project = Project::new(&[
        ("reads", "allowed-tools: Read Grep\n"),
        ("specs", "allowed-tools: Read specKit\n"),
    ]);
    let server = ScriptServer::openai(vec![
        openai_tool("call_u", "use_skill", json!({"skill": "specs"})),
        openai_text("Done."),
    ])
    .await;
    let mut session = project.session(&server);
    let snapshot = session.skills().snapshot();
    assert!(session.skill_ready(snapshot.get("reads").unwrap()));
    assert!(!session.skill_ready(snapshot.get("specs").unwrap()));
    session.send("Use a skill", &mut Quiet).await.unwrap();
    let bodies = server.bodies();
    let prompt = system(&bodies[0]);
    assert!(prompt.contains("- reads:"), "{prompt}");
    assert!(!prompt.contains("specs"), "{prompt}");
    let messages = openai_messages(&bodies[1]);
    let result = messages.last().unwrap()["content"].as_str().unwrap();
    assert!(
        result.contains("skill `specs` is not ready here: its allowed-tools name specKit"),
        "{result}"
    );
    // The user may still run it (what it has works; the rest is refused by the gate).
    let server = ScriptServer::openai(vec![openai_text("Ran.")]).await;
    let mut session = project.session(&server);
    let outcome = session
        .run_skill("specs", Vec::new(), &mut Quiet)
        .await
        .unwrap();
    assert_eq!(outcome.text, "Ran.");
}
