//! A loaded skill's own files (`${CLAUDE_SKILL_DIR}/refs/doc.md`) are readable by the file
//! tools while the skill is loaded, whatever its scope, read-only and inside its directory
//! after links are resolved; the access ends with the turn (or the agent) that loaded it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use common::{ScriptServer, openai_text, openai_tool};
use serde_json::json;
use weft_agents::{AgentRegistry, ModelPool, Quiet, Session, SessionOptions, SessionParts};
use weft_llm::{Message, ModelCatalog, ProviderConfig, ProviderKind, RetryPolicy};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope, ReadGrants};
use weft_types::Scope;

/// A project, and a user skill `helper` outside it with `refs/doc.md`, a link out of the
/// skill and a secret beside it.
struct Env {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    skill: PathBuf,
    user_root: PathBuf,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        let user_root = tmp.path().join("home/.claude/skills");
        let skill = user_root.join("helper");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(skill.join("refs")).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: helper\ndescription: Helps with the reference. Use it.\n---\n\nRead ${CLAUDE_SKILL_DIR}/refs/doc.md first.\n",
        )
        .unwrap();
        std::fs::write(skill.join("refs/doc.md"), "the reference text\n").unwrap();
        std::fs::write(tmp.path().join("home/secret"), "not for the model\n").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("home/secret"), skill.join("refs/leak"))
            .unwrap();
        Self {
            _tmp: tmp,
            project,
            skill,
            user_root,
        }
    }

    fn session(&self, server: &ScriptServer, preload: &[&str]) -> Session {
        let grants = ReadGrants::new();
        let mut catalog = ModelCatalog::default();
        let mut provider =
            ProviderConfig::new("local", ProviderKind::OpenAi, format!("{}/v1", server.url));
        provider.timeout = Duration::from_secs(10);
        provider.retry = RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        };
        catalog.add_provider(provider);
        catalog.set_default("local/test-model");
        let mut skills =
            RegistryConfig::with_roots(vec![SkillRoot::new(&self.user_root, Scope::User)]);
        skills.builtins = false;
        let mut agent = AgentRegistry::builtins()
            .get("default")
            .unwrap()
            .agent
            .clone();
        agent.skills = preload.iter().map(|s| (*s).to_owned()).collect();
        Session::new(SessionParts {
            models: Arc::new(ModelPool::new(catalog)),
            skills: Arc::new(SkillRegistry::new(skills)),
            tools: weft_tools::builtin_registry(&BuiltinConfig {
                scope: FsScope::new(self.project.clone(), vec![])
                    .unwrap()
                    .with_grants(grants.clone()),
                memory_file: self.project.join("memory.md"),
                exec: ExecConfig::default(),
                web_fetch: None,
            }),
            agent,
            model: None,
            options: SessionOptions {
                project_dir: Some(self.project.clone()),
                read_grants: grants,
                ..SessionOptions::default()
            },
        })
        .unwrap()
    }

    fn path(&self, rel: &str) -> String {
        self.skill.join(rel).display().to_string()
    }
}

fn result<'a>(session: &'a Session, id: &str) -> &'a Message {
    session
        .messages()
        .iter()
        .find(|m| m.tool_call_id.as_deref() == Some(id))
        .unwrap()
}

fn read(id: &str, path: &str) -> common::Reply {
    openai_tool(id, "read_file", json!({"path": path}))
}

#[tokio::test]
async fn a_user_skills_files_are_readable_only_while_it_is_loaded() {
    let env = Env::new();
    let doc = env.path("refs/doc.md");
    let server = ScriptServer::openai(vec![
        read("before", &doc),
        openai_tool("use", "use_skill", json!({"skill": "helper"})),
        read("during", &doc),
        openai_tool("list", "list_directory", json!({"path": env.path("refs")})),
        openai_tool(
            "grep",
            "grep",
            json!({"pattern": "reference", "path": env.path(".")}),
        ),
        openai_tool(
            "write",
            "write_file",
            json!({"path": env.path("refs/new.md"), "content": "x"}),
        ),
        read("leak", &env.path("refs/leak")),
        read("up", &env.path("../../secret")),
        openai_text("Done."),
        // The next turn: the skill is no longer loaded.
        read("after", &doc),
        openai_text("Gone."),
    ])
    .await;
    let mut session = env.session(&server, &[]);
    session.send("Use the helper", &mut Quiet).await.unwrap();
    let refused = |session: &Session, id: &str| {
        let r = result(session, id);
        assert!(r.is_error, "{id}: {}", r.content);
        assert!(r.content.contains("outside"), "{id}: {}", r.content);
    };
    refused(&session, "before");
    // The rendered body names the directory the model then reads from.
    assert!(
        result(&session, "use")
            .content
            .contains(&format!("Read {doc} first.")),
        "{}",
        result(&session, "use").content
    );
    let during = result(&session, "during");
    assert!(!during.is_error, "{}", during.content);
    assert!(
        during.content.contains("the reference text"),
        "{}",
        during.content
    );
    assert!(result(&session, "list").content.contains("doc.md"));
    assert!(result(&session, "grep").content.contains("doc.md"));
    // Read-only, and confined to the skill's own directory after resolving links.
    refused(&session, "write");
    assert!(!Path::new(&env.path("refs/new.md")).exists());
    refused(&session, "leak");
    refused(&session, "up");

    session.send("Again", &mut Quiet).await.unwrap();
    refused(&session, "after");
}

#[tokio::test]
async fn a_preloaded_skills_files_are_readable_for_the_whole_session() {
    let env = Env::new();
    let doc = env.path("refs/doc.md");
    let server = ScriptServer::openai(vec![
        read("one", &doc),
        openai_text("Read."),
        read("two", &doc),
        openai_text("Read again."),
        read("three", &doc),
        openai_text("Refused."),
    ])
    .await;
    let mut session = env.session(&server, &["helper"]);
    session.send("Read it", &mut Quiet).await.unwrap();
    session.send("And again", &mut Quiet).await.unwrap();
    for id in ["one", "two"] {
        let r = result(&session, id);
        assert!(!r.is_error, "{id}: {}", r.content);
    }
    // Switching to an agent without it takes the access back.
    let explore = AgentRegistry::builtins()
        .get("explore")
        .unwrap()
        .agent
        .clone();
    session.apply_agent(explore, None).unwrap();
    session.send("Once more", &mut Quiet).await.unwrap();
    let three = result(&session, "three");
    assert!(three.is_error, "{}", three.content);
    assert!(three.content.contains("outside"), "{}", three.content);
}
