//! Subagents through `sessions_spawn`, against a scripted OpenAI-compatible server on
//! loopback: seed 001 user story 5, depth, background mode, parallel children, timeouts,
//! receipts and transcripts.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use common::{
    Reply, ScriptServer, openai_messages, openai_text, openai_tool, openai_tool_names, openai_tools,
};
use serde_json::{Value, json};
use weft_agents::transcript::{Transcript, TranscriptRecord};
use weft_agents::{
    AgentRegistry, ChildStatus, ModelPool, Quiet, Session, SessionOptions, SessionParts,
    SpawnRequest, SpawnSettings, SubagentError,
};
use weft_llm::{ModelCatalog, ProviderConfig, ProviderKind, RetryPolicy, Role};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope, Tool, ToolError, ToolOutput, ToolRegistry};
use weft_types::Scope;

/// A stand-in for the seed's `specKit` and `opencode-executor` tools.
struct Named(&'static str);

#[async_trait]
impl Tool for Named {
    fn name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &str {
        "A test tool."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object"})
    }
    async fn call(&self, _input: Value) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text(format!("{} ran", self.0)))
    }
}

struct Env {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    sessions: PathBuf,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        Self {
            project: project.canonicalize().unwrap(),
            sessions: tmp.path().join("sessions"),
            _tmp: tmp,
        }
    }

    fn skill(&self, name: &str, frontmatter: &str) {
        let dir = self.project.join(".clawft/skills").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: The {name} skill for tests\n{frontmatter}---\n\nBODY-OF-{name}\n"),
        )
        .unwrap();
    }

    /// Project skills plus seed 003's specification-engine and opencode-implementer, as the
    /// seed writes them (tools `specKit` and `opencode-executor`, which [`tools`](Self::tools)
    /// registers).
    fn skills(&self) -> Arc<SkillRegistry> {
        let registry = SkillRegistry::new(RegistryConfig {
            builtins: false,
            ..RegistryConfig::with_roots(vec![SkillRoot::new(
                self.project.join(".clawft/skills"),
                Scope::Project,
            )])
        });
        for (path, text) in weft_testkit::seed_definitions() {
            let skill = weft_parse::parse_definition(text.as_bytes(), &path, &Default::default())
                .skill
                .unwrap();
            registry.register(skill, None).unwrap();
        }
        Arc::new(registry)
    }

    fn tools(&self) -> ToolRegistry {
        let mut tools = weft_tools::builtin_registry(&BuiltinConfig {
            scope: FsScope::new(self.project.clone(), vec![]).unwrap(),
            memory_file: self.project.join("MEMORY.md"),
            exec: ExecConfig::default(),
            web_fetch: None,
        });
        tools.register(Arc::new(Named("specKit")));
        tools.register(Arc::new(Named("opencode-executor")));
        tools.register(Arc::new(Named("github__create_issue")));
        tools
    }

    fn session_with(&self, server: &ScriptServer, spawn: SpawnSettings) -> Session {
        let mut provider =
            ProviderConfig::new("local", ProviderKind::OpenAi, format!("{}/v1", server.url));
        provider.timeout = Duration::from_secs(10);
        provider.retry = RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        };
        let mut catalog = ModelCatalog::default();
        catalog.add_provider(provider);
        catalog.set_default("local/parent-model");
        Session::new(SessionParts {
            models: Arc::new(ModelPool::new(catalog)),
            skills: self.skills(),
            tools: self.tools(),
            agent: AgentRegistry::builtins()
                .get("default")
                .unwrap()
                .agent
                .clone(),
            model: None,
            options: SessionOptions {
                transcript_dir: Some(self.sessions.clone()),
                project_dir: Some(self.project.clone()),
                spawn,
                ..SessionOptions::default()
            },
        })
        .unwrap()
    }

    fn session(&self, server: &ScriptServer) -> Session {
        self.session_with(server, SpawnSettings::default())
    }

    fn transcripts(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.sessions)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

fn tool_result(session: &Session, id: &str) -> (String, bool) {
    let m = session
        .messages()
        .iter()
        .find(|m| m.role == Role::Tool && m.tool_call_id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no result for {id}: {:#?}", session.messages()));
    (m.content.clone(), m.is_error)
}

fn receipt(session: &Session, id: &str) -> Value {
    let (text, _) = tool_result(session, id);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn request(task: &str) -> SpawnRequest {
    SpawnRequest {
        task: task.into(),
        ..SpawnRequest::default()
    }
}

// --- Seed 001, user story 5 ----------------------------------------------------------------

#[tokio::test]
async fn us5_1_skills_define_the_childs_tools() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_s",
            "sessions_spawn",
            json!({"task": "implement the spec", "skills": ["specification-engine", "opencode-implementer"]}),
        ),
        openai_text("child done"),
        openai_text("parent done"),
    ])
    .await;
    let mut session = env.session(&server);
    session.send("delegate", &mut Quiet).await.unwrap();

    let receipt = receipt(&session, "call_s");
    assert_eq!(receipt["status"], "completed");
    assert_eq!(receipt["result"], "child done");
    assert_eq!(receipt["agent"], "general-purpose");
    assert_eq!(receipt["model"], "local/parent-model");
    assert_eq!(receipt["tools"], json!(["opencode-executor", "specKit"]));
    assert_eq!(
        receipt["skills"],
        json!(["specification-engine", "opencode-implementer"])
    );
    assert!(receipt["id"].as_str().unwrap().starts_with(session.id()));
    assert!(receipt["duration_ms"].is_u64());
    assert_eq!(receipt["usage"]["input_tokens"], 12);

    let bodies = server.bodies();
    let child = &bodies[1];
    assert_eq!(openai_tool_names(child), ["opencode-executor", "specKit"]);
    let messages = openai_messages(child);
    // A fresh context: the system prompt and the task, nothing of the parent's conversation.
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[1]["content"], "implement the spec");
    let system = messages[0]["content"].as_str().unwrap();
    assert!(system.contains("## Preloaded skills"), "{system}");
    assert!(system.contains("### specification-engine"), "{system}");
    assert!(system.contains("### opencode-implementer"), "{system}");
}

#[tokio::test]
async fn us5_2_without_skills_a_child_has_the_default_tools() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let session = env.session(&server);
    let plan = session.prepare_child(request("look around")).unwrap();
    // SC-007: a default spawn sees what the parent sees, minus spawning (depth 1) and the
    // registry writer.
    let parent: Vec<String> = session
        .offered_tools()
        .into_iter()
        .map(|t| t.name)
        .filter(|n| !n.starts_with("sessions_") && n != "create_skill")
        .collect();
    assert_eq!(plan.summary().tools, parent);
    assert!(plan.summary().skills.is_empty());
    assert_eq!(server.count(), 0);
}

#[tokio::test]
async fn us5_3_an_invalid_skill_set_creates_no_child() {
    let env = Env::new();
    env.skill("needs-x", "x-compatibility:\n  requires: [missing-skill]\n");
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_bad",
            "sessions_spawn",
            json!({"task": "t", "skills": ["no-such-skill"]}),
        ),
        openai_text("understood"),
    ])
    .await;
    let mut session = env.session(&server);
    session.send("delegate", &mut Quiet).await.unwrap();
    let (text, is_error) = tool_result(&session, "call_bad");
    assert!(is_error);
    assert!(text.starts_with("SpawnFailed"), "{text}");
    assert!(text.contains("no-such-skill"), "{text}");
    // Two requests, both the parent's: no child ever talked to the model ...
    assert_eq!(server.count(), 2);
    // ... and no child transcript exists.
    assert_eq!(env.transcripts(), [format!("{}.jsonl", session.id())]);
    assert!(session.children().is_empty());

    // The same through the API: validation fails before anything exists.
    let err = session
        .prepare_child(SpawnRequest {
            skills: Some(vec!["specification-engine".into(), "ghost".into()]),
            ..request("t")
        })
        .unwrap_err();
    assert!(matches!(err, SubagentError::SpawnFailed { .. }), "{err}");
    // An incomplete set: specification-engine requires opencode-implementer.
    let err = session
        .prepare_child(SpawnRequest {
            skills: Some(vec!["specification-engine".into()]),
            ..request("t")
        })
        .unwrap_err();
    assert!(err.to_string().contains("opencode-implementer"), "{err}");
    assert_eq!(env.transcripts(), [format!("{}.jsonl", session.id())]);
}

#[tokio::test]
async fn us5_4_a_child_call_outside_its_skills_is_blocked_with_the_reason() {
    let env = Env::new();
    env.skill("read-only", "allowed-tools: [Read, Grep]\n");
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_s",
            "sessions_spawn",
            json!({"task": "edit things", "skills": ["read-only"]}),
        ),
        // the child tries to write
        openai_tool(
            "call_w",
            "write_file",
            json!({"path": "x.txt", "content": "nope"}),
        ),
        openai_text("I could not write"),
        openai_text("parent done"),
    ])
    .await;
    let mut session = env.session(&server);
    session.send("delegate", &mut Quiet).await.unwrap();
    assert!(!env.project.join("x.txt").exists());
    let bodies = server.bodies();
    let child_follow_up = openai_messages(&bodies[2]);
    let result = child_follow_up.last().unwrap();
    assert_eq!(result["role"], "tool");
    let text = result["content"].as_str().unwrap();
    assert!(text.starts_with("permission denied"), "{text}");
    assert!(text.contains("write_file"), "{text}");
    assert!(text.contains("read-only"), "names the skill: {text}");
    assert_eq!(receipt(&session, "call_s")["result"], "I could not write");
}

// --- Depth --------------------------------------------------------------------------------

#[tokio::test]
async fn a_child_has_no_sessions_spawn_at_the_default_depth() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let session = env.session(&server);
    assert!(session.can_spawn());
    let plan = session.prepare_child(request("t")).unwrap();
    let child = plan.session();
    assert!(!child.can_spawn());
    assert!(
        !plan
            .summary()
            .tools
            .iter()
            .any(|t| t.starts_with("sessions_"))
    );
    let err = child.prepare_child(request("grandchild")).unwrap_err();
    assert!(matches!(err, SubagentError::SpawnBlocked { .. }), "{err}");
}

#[tokio::test]
async fn a_grandchild_never_exceeds_its_parent() {
    let env = Env::new();
    env.skill("reader", "allowed-tools: [Read, Grep, sessions_spawn]\n");
    env.skill("writer", "allowed-tools: [Read, Write]\n");
    let server = ScriptServer::openai(vec![]).await;
    let session = env.session_with(
        &server,
        SpawnSettings {
            max_depth: 2,
            ..SpawnSettings::default()
        },
    );
    let child_plan = session
        .prepare_child(SpawnRequest {
            skills: Some(vec!["reader".into()]),
            ..request("t")
        })
        .unwrap();
    let child = child_plan.session();
    assert!(child.can_spawn());
    assert_eq!(
        child_plan.summary().tools,
        [
            "grep",
            "read_file",
            "sessions_spawn",
            "sessions_result",
            "sessions_list",
            "sessions_cancel"
        ]
    );
    // The child cannot hand `writer` to a grandchild: it is outside the child's skills.
    let err = child
        .prepare_child(SpawnRequest {
            skills: Some(vec!["writer".into()]),
            ..request("t")
        })
        .unwrap_err();
    assert!(err.to_string().contains("not available"), "{err}");
    // A default grandchild stays within the child's set, and cannot spawn (depth 2).
    let grandchild = child.prepare_child(request("t")).unwrap();
    assert_eq!(grandchild.summary().tools, ["grep", "read_file"]);
    assert!(
        !grandchild
            .session()
            .gate()
            .check("write_file", &json!({"path": "a", "content": ""}))
            .is_allowed()
    );
}

// --- Background -----------------------------------------------------------------------------

#[tokio::test]
async fn a_background_child_gets_read_only_tools_and_is_blocked_from_the_rest() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_bg",
            "sessions_spawn",
            json!({"task": "scan", "run_in_background": true, "label": "scan"}),
        ),
        openai_text("started it"),
        // the child (in the background) tries to write, exec and use MCP
        openai_tools(&[
            ("w", "write_file", json!({"path": "bg.txt", "content": "x"})),
            ("e", "exec_shell", json!({"command": "touch bg2.txt"})),
            ("m", "github__create_issue", json!({"title": "x"})),
        ]),
        openai_text("read-only, as expected"),
        // the parent's next turn
        openai_text("noted"),
    ])
    .await;
    let mut session = env.session(&server);
    session
        .send("scan in the background", &mut Quiet)
        .await
        .unwrap();
    let receipt = receipt(&session, "call_bg");
    assert_eq!(receipt["status"], "running");
    assert_eq!(receipt["background"], true);
    assert_eq!(receipt["label"], "scan");
    assert_eq!(
        receipt["tools"],
        json!(["glob", "grep", "list_directory", "read_file"])
    );
    let id = receipt["id"].as_str().unwrap().to_owned();

    session.wait_for_children().await;
    assert!(!env.project.join("bg.txt").exists());
    assert!(!env.project.join("bg2.txt").exists());
    let bodies = server.bodies();
    let results: Vec<&Value> = openai_messages(&bodies[3])
        .iter()
        .filter(|m| m["role"] == "tool")
        .collect();
    assert_eq!(results.len(), 3);
    for r in results {
        assert!(
            r["content"]
                .as_str()
                .unwrap()
                .starts_with("permission denied"),
            "{r}"
        );
    }

    // The result reaches the parent on its next turn.
    session.send("what did it find?", &mut Quiet).await.unwrap();
    let next = openai_messages(&server.bodies()[4]).last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        next.starts_with("[Background subagents finished]"),
        "{next}"
    );
    assert!(next.contains(&id), "{next}");
    assert!(next.contains("read-only, as expected"), "{next}");
    assert!(next.ends_with("what did it find?"), "{next}");
}

#[tokio::test]
async fn background_children_that_name_mcp_tools_are_refused_before_starting() {
    let env = Env::new();
    env.skill("gh", "allowed-tools: [github__create_issue, Read]\n");
    let server = ScriptServer::openai(vec![]).await;
    let session = env.session(&server);
    let err = session
        .prepare_child(SpawnRequest {
            skills: Some(vec!["gh".into()]),
            run_in_background: true,
            ..request("t")
        })
        .unwrap_err();
    assert!(
        matches!(
            &err,
            SubagentError::BackgroundMcpBlocked { tool } if tool == "github__create_issue"
        ),
        "{err}"
    );
    // In the foreground the same skill set is fine.
    let plan = session
        .prepare_child(SpawnRequest {
            skills: Some(vec!["gh".into()]),
            ..request("t")
        })
        .unwrap();
    assert_eq!(plan.summary().tools, ["github__create_issue", "read_file"]);
}

#[tokio::test]
async fn two_background_children_run_in_parallel_and_are_listed() {
    let env = Env::new();
    // Both children answer after the parent's turn; the order they arrive in does not matter.
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            (
                "a",
                "sessions_spawn",
                json!({"task": "first", "run_in_background": true, "label": "one"}),
            ),
            (
                "b",
                "sessions_spawn",
                json!({"task": "second", "run_in_background": true, "label": "two"}),
            ),
        ]),
        openai_text("both started"),
        openai_text("a child answer"),
        openai_text("a child answer"),
    ])
    .await;
    let mut session = env.session(&server);
    session.send("go", &mut Quiet).await.unwrap();
    assert_eq!(session.children().len(), 2);
    session.wait_for_children().await;
    let children = session.children();
    assert_eq!(children.len(), 2);
    for child in &children {
        assert_eq!(
            child.status,
            ChildStatus::Completed {
                result: "a child answer".into()
            }
        );
    }
    let labels: Vec<_> = children.iter().map(|c| c.label.clone().unwrap()).collect();
    assert_eq!(labels, ["one", "two"]);
    // Each child wrote its own transcript beside the parent's.
    let names = env.transcripts();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[tokio::test]
async fn the_concurrency_cap_refuses_an_extra_background_child() {
    let env = Env::new();
    let server = ScriptServer::start(common::OPENAI_PATH, |_| Reply::Hang).await;
    let mut session = env.session_with(
        &server,
        SpawnSettings {
            max_concurrent: 1,
            ..SpawnSettings::default()
        },
    );
    let first = session
        .spawn(SpawnRequest {
            run_in_background: true,
            ..request("one")
        })
        .await
        .unwrap();
    assert_eq!(first.status, ChildStatus::Running);
    let err = session
        .spawn(SpawnRequest {
            run_in_background: true,
            ..request("two")
        })
        .await
        .unwrap_err();
    assert!(err.to_string().contains("already running"), "{err}");
    // Cancelling frees the slot.
    let cancelled = session.cancel_child(&first.id).unwrap();
    assert_eq!(cancelled.status, ChildStatus::Cancelled);
    assert_eq!(session.running_children(), 0);
}

// --- Timeouts, receipts, transcripts -------------------------------------------------------

#[tokio::test]
async fn a_child_that_runs_out_of_time_is_reported_as_execution_timeout() {
    let env = Env::new();
    let server = ScriptServer::start(common::OPENAI_PATH, |n| match n {
        0 => openai_tool(
            "call_t",
            "sessions_spawn",
            json!({"task": "slow", "timeout_secs": 1}),
        ),
        1 => Reply::Hang,
        _ => openai_text("gave up"),
    })
    .await;
    let mut session = env.session(&server);
    session.send("try", &mut Quiet).await.unwrap();
    let (text, is_error) = tool_result(&session, "call_t");
    assert!(is_error);
    let receipt: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(receipt["status"], "timed_out");
    assert!(
        receipt["error"]
            .as_str()
            .unwrap()
            .starts_with("ExecutionTimeout"),
        "{receipt}"
    );
}

#[tokio::test]
async fn unknown_agent_types_and_models_are_rejected_before_the_child_exists() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let session = env.session(&server);
    let err = session
        .prepare_child(SpawnRequest {
            agent: Some("ghost".into()),
            ..request("t")
        })
        .unwrap_err();
    assert!(
        matches!(err, SubagentError::SubagentNotFound { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("explore"), "{err}");
    let err = session
        .prepare_child(SpawnRequest {
            model: Some("evil/x".into()),
            ..request("t")
        })
        .unwrap_err();
    assert!(err.to_string().contains("unknown provider `evil`"), "{err}");
    // No child transcript; the parent, which has not done anything yet, has none either.
    assert!(env.transcripts().is_empty());
}

#[tokio::test]
async fn the_parent_transcript_records_spawn_and_result_and_the_child_its_parent() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_s",
            "sessions_spawn",
            json!({"task": "t", "agent": "explore"}),
        ),
        openai_text("child answer"),
        openai_text("done"),
    ])
    .await;
    let mut session = env.session(&server);
    session.send("go", &mut Quiet).await.unwrap();
    let parent = Transcript::read(session.transcript_path().unwrap()).unwrap();
    let spawn = parent
        .iter()
        .find_map(|r| match r {
            TranscriptRecord::Spawn {
                child_id, agent, ..
            } => Some((child_id.clone(), agent.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(spawn.1, "explore");
    assert!(parent.iter().any(|r| matches!(r, TranscriptRecord::ChildResult { status, text, .. } if status == "completed" && text == "child answer")));
    let child = Transcript::read(&env.sessions.join(format!("{}.jsonl", spawn.0))).unwrap();
    assert!(matches!(
        &child[0],
        TranscriptRecord::Session { parent: Some(p), agent, .. } if p == session.id() && agent == "explore"
    ));
}

#[tokio::test]
async fn explore_cannot_spawn_and_create_skill_never_reaches_a_child() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let mut session = env.session(&server);
    session
        .apply_agent(
            AgentRegistry::builtins()
                .get("explore")
                .unwrap()
                .agent
                .clone(),
            None,
        )
        .unwrap();
    assert!(!session.can_spawn());
    let names: Vec<String> = session
        .offered_tools()
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with("sessions_")),
        "{names:?}"
    );
}

#[tokio::test]
async fn background_children_are_in_flight_at_the_same_time() {
    let env = Env::new();
    // Nothing is ever answered: both requests can only be pending together if the children
    // run concurrently.
    let server = ScriptServer::start(common::OPENAI_PATH, |_| Reply::Hang).await;
    let mut session = env.session(&server);
    let mut ids = Vec::new();
    for task in ["one", "two"] {
        let child = session
            .spawn(SpawnRequest {
                run_in_background: true,
                ..request(task)
            })
            .await
            .unwrap();
        ids.push(child.id);
    }
    assert!(server.wait_for(2, Duration::from_secs(10)).await);
    assert_eq!(session.running_children(), 2);
    for id in &ids {
        session.cancel_child(id).unwrap();
    }
    assert_eq!(session.running_children(), 0);
    let listed = session.children();
    assert!(listed.iter().all(|c| c.status == ChildStatus::Cancelled));
    // A cancelled child's result is in the parent's transcript.
    let records = Transcript::read(session.transcript_path().unwrap()).unwrap();
    let cancelled = records
        .iter()
        .filter(
            |r| matches!(r, TranscriptRecord::ChildResult { status, .. } if status == "cancelled"),
        )
        .count();
    assert_eq!(cancelled, 2);
}
