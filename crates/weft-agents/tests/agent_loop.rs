//! The agent loop against a real loopback chat server: the requests it sends (system prompt,
//! messages, the tools the gate lets the agent see), tool calls run through the gate and
//! answered, iteration caps, streaming, `use_skill` narrowing the gate for one turn, agent
//! switching, model strings, the transcript, and the Anthropic protocol.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use common::{
    Reply, ScriptServer, anthropic_text, anthropic_tool, openai_messages, openai_stream,
    openai_text, openai_tool, openai_tool_names, openai_tool_result, openai_tools,
};
use serde_json::{Value, json};
use weft_agents::transcript::{SessionHistory, Transcript, TranscriptRecord};
use weft_agents::{
    AgentRegistry, ModelPool, Permissions, Quiet, Session, SessionError, SessionEvents,
    SessionOptions, SessionParts, SkillInvocationError, TurnStop,
};
use weft_llm::{
    Message, ModelCatalog, ModelError, ProviderConfig, ProviderKind, RetryPolicy, Role, ToolCall,
    Usage,
};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope, ToolRegistry};
use weft_types::{AgentDefinition, AgentFormat, PermissionMode, Scope, Source};

// --- Fixture ----------------------------------------------------------------------------------

/// The built-in tools of a runtime without `web_fetch`, sorted as the registry lists them.
const ALL_TOOLS: [&str; 13] = [
    "edit_file",
    "exec_shell",
    "glob",
    "grep",
    "list_directory",
    "memory_read",
    "memory_write",
    "read_file",
    "write_file",
    "sessions_spawn",
    "sessions_result",
    "sessions_list",
    "sessions_cancel",
];

/// What the built-in `explore` agent may see (of the tools above), sorted.
const EXPLORE_TOOLS: [&str; 5] = ["glob", "grep", "list_directory", "memory_read", "read_file"];

/// A temporary project (file tools are confined to it, skills live in its `.clawft/skills`)
/// and a transcript directory.
struct Env {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    sessions: PathBuf,
    memory: PathBuf,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        // Canonical, so paths compare equal to what the tools report.
        let project = project.canonicalize().unwrap();
        Self {
            sessions: tmp.path().join("sessions"),
            memory: tmp.path().join("memory.md"),
            project,
            _tmp: tmp,
        }
    }

    /// Writes `<project>/<rel>`.
    fn file(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.project.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Writes a project skill `name` with extra frontmatter lines and a body.
    fn skill(&self, name: &str, frontmatter: &str, body: &str) {
        self.file(
            &format!(".clawft/skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: The {name} skill for tests\n{frontmatter}---\n\n{body}\n"),
        );
    }

    /// The project's skills only (no built-in skills, so the tool list is predictable).
    fn skills(&self) -> Arc<SkillRegistry> {
        let mut config = RegistryConfig::with_roots(vec![SkillRoot::new(
            self.project.join(".clawft/skills"),
            Scope::Project,
        )]);
        config.builtins = false;
        Arc::new(SkillRegistry::new(config))
    }

    fn tools(&self) -> ToolRegistry {
        weft_tools::builtin_registry(&BuiltinConfig {
            scope: FsScope::new(self.project.clone(), vec![]).unwrap(),
            memory_file: self.memory.clone(),
            exec: ExecConfig::default(),
            web_fetch: None,
        })
    }

    /// The loop's own behaviour is under test here, so calls run without asking (`auto`;
    /// the tools run unsandboxed: sandboxing is the runtime's launcher). tests/approval.rs
    /// tests the other modes.
    fn options(&self) -> SessionOptions {
        SessionOptions {
            transcript_dir: Some(self.sessions.clone()),
            project_dir: Some(self.project.clone()),
            permissions: Permissions::new(PermissionMode::Auto),
            ..SessionOptions::default()
        }
    }

    fn parts(&self, catalog: ModelCatalog, agent: AgentDefinition) -> SessionParts {
        SessionParts {
            models: Arc::new(ModelPool::new(catalog)),
            skills: self.skills(),
            tools: self.tools(),
            agent,
            model: None,
            options: self.options(),
        }
    }

    fn session(&self, catalog: ModelCatalog, agent: AgentDefinition) -> Session {
        Session::new(self.parts(catalog, agent)).unwrap()
    }
}

/// No retries and a short timeout: a scripted server answers at once or the test is wrong.
fn quick(mut provider: ProviderConfig) -> ProviderConfig {
    provider.timeout = Duration::from_secs(10);
    provider.retry = RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    };
    provider
}

/// One OpenAI-compatible provider `local` at the server, default model `local/test-model`.
fn openai_catalog(server: &ScriptServer) -> ModelCatalog {
    let mut catalog = ModelCatalog::default();
    catalog.add_provider(quick(ProviderConfig::new(
        "local",
        ProviderKind::OpenAi,
        format!("{}/v1", server.url),
    )));
    catalog.set_default("local/test-model");
    catalog
}

fn builtin(name: &str) -> AgentDefinition {
    AgentRegistry::builtins().get(name).unwrap().agent.clone()
}

fn custom_agent(name: &str) -> AgentDefinition {
    let mut agent = AgentDefinition::new(
        name,
        "An agent defined by the test",
        Source::in_memory(Scope::Project, AgentFormat::Yaml),
    );
    agent.system_prompt = Some(format!("You are the {name} test agent."));
    agent
}

fn names(tools: &[weft_llm::ToolSpec]) -> Vec<String> {
    tools.iter().map(|t| t.name.clone()).collect()
}

/// Records every event of a turn.
#[derive(Default)]
struct Recorder {
    text: Vec<String>,
    calls: Vec<ToolCall>,
    results: Vec<Message>,
    /// Every event but text, in order (what a status line is driven by).
    log: Vec<String>,
}

impl SessionEvents for Recorder {
    fn text(&mut self, delta: &str) {
        self.text.push(delta.to_owned());
    }

    fn tool_call(&mut self, call: &ToolCall) {
        self.log.push(format!("call {}", call.name));
        self.calls.push(call.clone());
    }

    fn tool_result(&mut self, _call: &ToolCall, result: &Message) {
        self.log.push("result".to_owned());
        self.results.push(result.clone());
    }

    fn model_call_started(&mut self, model: &weft_llm::ModelRef) {
        self.log.push(format!("waiting for {model}"));
    }

    fn model_call_finished(&mut self) {
        self.log.push("answered".to_owned());
    }

    fn retrying(&mut self, notice: &weft_llm::RetryNotice) {
        self.log.push(notice.to_string());
    }
}

/// The tool message in the session's conversation answering `call_id`.
fn result_of<'a>(session: &'a Session, call_id: &str) -> &'a Message {
    session
        .messages()
        .iter()
        .find(|m| m.role == Role::Tool && m.tool_call_id.as_deref() == Some(call_id))
        .unwrap_or_else(|| panic!("no result for {call_id}: {:#?}", session.messages()))
}

// --- Plain answers and the request --------------------------------------------------------------

#[tokio::test]
async fn a_skill_installed_between_turns_is_in_the_next_turns_catalog_and_usable() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_text("first"),
        openai_tool("u", "use_skill", json!({"skill": "fresh"})),
        openai_text("second"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    session.send("one", &mut Quiet).await.unwrap();
    // Installed while the session runs (as `weft skills install` does).
    env.skill("fresh", "", "Fresh instructions.");
    session.send("two", &mut Quiet).await.unwrap();
    let bodies = server.bodies();
    let system = |body: &Value| {
        openai_messages(body)[0]["content"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        !system(&bodies[0]).contains("fresh"),
        "{}",
        system(&bodies[0])
    );
    assert!(
        system(&bodies[1]).contains("fresh"),
        "{}",
        system(&bodies[1])
    );
    let used = result_of(&session, "u");
    assert!(!used.is_error, "{}", used.content);
    assert!(
        used.content.contains("Fresh instructions."),
        "{}",
        used.content
    );
}

#[tokio::test]
async fn plain_answer_carries_prompt_message_and_the_allowed_tools() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![openai_text("Hello there.")]).await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));

    let outcome = session.send("hi", &mut Quiet).await.unwrap();
    assert_eq!(outcome.text, "Hello there.");
    assert_eq!(outcome.stop, TurnStop::Answered);
    assert_eq!(outcome.usage, Usage::new(12, 3));
    assert_eq!(outcome.model_calls, 1);
    assert_eq!(outcome.tool_calls, 0);
    assert_eq!(session.usage(), outcome.usage);

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/v1/chat/completions");
    let body = &requests[0].body;
    assert_eq!(body["model"], "test-model");
    let messages = openai_messages(body);
    assert_eq!(messages.len(), 2, "{body:#}");
    assert_eq!(messages[0]["role"], "system");
    let system = messages[0]["content"].as_str().unwrap();
    let prompt = builtin("default").system_prompt.unwrap();
    assert!(system.starts_with(prompt.trim()), "{system}");
    assert!(
        system.contains(&format!("Working directory: {}", env.project.display())),
        "{system}"
    );
    assert_eq!(messages[1], json!({"role": "user", "content": "hi"}));
    // `default` has every tool; without model-invocable skills there is no use_skill.
    assert_eq!(openai_tool_names(body), ALL_TOOLS);
    assert_eq!(names(&session.offered_tools()), ALL_TOOLS);
    for name in ALL_TOOLS {
        assert!(session.gate().tool_visible(name), "{name}");
    }
    // The conversation: the user message and the answer.
    assert_eq!(session.messages().len(), 2);
    assert_eq!(
        session.messages()[1],
        Message::assistant("Hello there.", vec![])
    );
}

#[tokio::test]
async fn tool_call_result_then_answer() {
    let env = Env::new();
    env.file("notes.txt", "alpha\nbeta\n");
    let server = ScriptServer::openai(vec![
        openai_tool("call_1", "read_file", json!({"path": "notes.txt"})),
        openai_text("It has two lines."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let mut events = Recorder::default();

    let outcome = session.send("How many lines?", &mut events).await.unwrap();
    assert_eq!(outcome.text, "It has two lines.");
    assert_eq!(outcome.stop, TurnStop::Answered);
    assert_eq!(outcome.model_calls, 2);
    assert_eq!(outcome.tool_calls, 1);
    assert_eq!(outcome.usage, Usage::new(24, 6));
    assert_eq!(events.calls.len(), 1);
    assert_eq!(events.calls[0].name, "read_file");
    assert_eq!(events.results.len(), 1);
    assert!(!events.results[0].is_error, "{:?}", events.results[0]);
    assert_eq!(
        events.log,
        [
            "waiting for local/test-model",
            "answered",
            "call read_file",
            "result",
            "waiting for local/test-model",
            "answered"
        ]
    );

    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    let second = openai_messages(&bodies[1]);
    assert_eq!(second.len(), 4, "{:#}", bodies[1]);
    assert_eq!(
        second[1],
        json!({"role": "user", "content": "How many lines?"})
    );
    assert_eq!(second[2]["role"], "assistant");
    assert_eq!(second[2]["tool_calls"][0]["id"], "call_1");
    assert_eq!(second[2]["tool_calls"][0]["function"]["name"], "read_file");
    let args: Value = serde_json::from_str(
        second[2]["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(args, json!({"path": "notes.txt"}));
    assert_eq!(second[3]["role"], "tool");
    assert_eq!(second[3]["tool_call_id"], "call_1");
    assert_eq!(second[3]["content"], "alpha\nbeta\n");
}

#[tokio::test]
async fn a_retry_is_announced_while_the_user_waits() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        Reply::Json(429, json!({"error": {"message": "slow down"}})),
        openai_text("Done."),
    ])
    .await;
    let mut catalog = openai_catalog(&server);
    let mut provider = catalog.provider("local").unwrap().clone();
    provider.retry = RetryPolicy {
        max_retries: 2,
        initial_backoff: Duration::from_millis(1),
        max_backoff: Duration::from_millis(1),
    };
    catalog.add_provider(provider);
    let mut session = env.session(catalog, builtin("default"));
    let mut events = Recorder::default();
    let outcome = session.send("hi", &mut events).await.unwrap();
    assert_eq!(outcome.text, "Done.");
    assert_eq!(
        events.log,
        [
            "waiting for local/test-model",
            "rate limited, retrying in 1 ms (1/2)",
            "answered"
        ]
    );
}

#[tokio::test]
async fn explore_is_refused_write_file_and_the_model_is_told_why() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_w",
            "write_file",
            json!({"path": "out.txt", "content": "pwned"}),
        ),
        openai_text("I cannot write files."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("explore"));
    let mut events = Recorder::default();

    let outcome = session.send("Write out.txt", &mut events).await.unwrap();
    assert_eq!(outcome.text, "I cannot write files.");
    assert_eq!(outcome.tool_calls, 1);
    assert!(!env.project.join("out.txt").exists());

    let sent = openai_tool_result(&server.bodies()[1], "call_w").to_owned();
    assert!(sent.starts_with("permission denied"), "{sent}");
    assert!(sent.contains("agent 'explore'"), "{sent}");
    assert!(sent.contains("write_file"), "{sent}");
    let result = result_of(&session, "call_w");
    assert!(result.is_error);
    assert_eq!(result.content, sent);
    assert_eq!(events.results, std::slice::from_ref(result));
}

#[tokio::test]
async fn explore_sees_read_only_tools_and_planner_none() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![openai_text("Looked."), openai_text("1. Plan.")]).await;
    let catalog = openai_catalog(&server);

    let mut explore = env.session(catalog.clone(), builtin("explore"));
    assert_eq!(names(&explore.offered_tools()), EXPLORE_TOOLS);
    explore.send("look", &mut Quiet).await.unwrap();
    let offered = openai_tool_names(&server.bodies()[0]);
    assert_eq!(offered, EXPLORE_TOOLS);
    for forbidden in ["write_file", "edit_file", "exec_shell", "memory_write"] {
        assert!(!offered.iter().any(|t| t == forbidden), "{forbidden}");
    }

    let mut planner = env.session(catalog, builtin("planner"));
    assert!(planner.offered_tools().is_empty());
    planner.send("plan it", &mut Quiet).await.unwrap();
    let body = &server.bodies()[1];
    assert!(body.get("tools").is_none(), "{body:#}");
    // Its temperature reaches the request.
    assert_eq!(body["temperature"], json!(0.8));
}

#[tokio::test]
async fn planner_is_refused_a_tool_it_was_not_offered() {
    let env = Env::new();
    env.file("a.txt", "secret");
    let server = ScriptServer::openai(vec![
        openai_tool("call_r", "read_file", json!({"path": "a.txt"})),
        openai_text("ok"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("planner"));
    session.send("read a.txt", &mut Quiet).await.unwrap();
    let result = result_of(&session, "call_r");
    assert!(result.is_error);
    assert!(
        result.content.starts_with("permission denied"),
        "{}",
        result.content
    );
    assert!(!result.content.contains("secret"));
}

#[tokio::test]
async fn an_unknown_tool_gets_an_error_listing_the_available_ones() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool("call_x", "frobnicate", json!({"level": 3})),
        openai_text("Sorry."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let outcome = session.send("frobnicate it", &mut Quiet).await.unwrap();
    assert_eq!(outcome.text, "Sorry.");
    let bodies = server.bodies();
    let sent = openai_tool_result(&bodies[1], "call_x");
    assert!(sent.starts_with("unknown tool `frobnicate`"), "{sent}");
    assert!(sent.contains("available tools:"), "{sent}");
    for tool in ALL_TOOLS {
        assert!(sent.contains(tool), "{tool} missing in {sent}");
    }
    assert!(result_of(&session, "call_x").is_error);
}

#[tokio::test]
async fn an_unknown_tool_for_explore_lists_only_what_explore_may_use() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool("call_x", "frobnicate", json!({})),
        openai_text("Sorry."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("explore"));
    session.send("frobnicate it", &mut Quiet).await.unwrap();
    let result = result_of(&session, "call_x");
    assert!(result.is_error);
    // Either refused by the gate or reported unknown; it never advertises tools explore cannot use.
    assert!(!result.content.contains("write_file"), "{}", result.content);
    assert!(!result.content.contains("exec_shell"), "{}", result.content);
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_refused_without_running() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        Reply::Json(
            200,
            common::openai_completion(
                json!({"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_b", "type": "function", "function": {"name": "write_file", "arguments": "{not json"}}
                ]}),
                "tool_calls",
            ),
        ),
        openai_text("retrying later"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    session.send("write", &mut Quiet).await.unwrap();
    let result = result_of(&session, "call_b");
    assert!(result.is_error);
    assert!(
        result.content.contains("must be a JSON object"),
        "{}",
        result.content
    );
    // The unparsed argument string goes back to the provider as the model wrote it.
    let second = openai_messages(&server.bodies()[1]).clone();
    assert_eq!(
        second[2]["tool_calls"][0]["function"]["arguments"],
        "{not json"
    );
}

/// The error for an unknown tool lists what the model may call instead: that includes
/// `use_skill` whenever it is offered.
#[tokio::test]
async fn an_unknown_tool_error_lists_use_skill_when_it_is_offered() {
    let env = Env::new();
    env.skill("summarize", "", "Summarize.");
    let server = ScriptServer::openai(vec![
        openai_tool("call_x", "frobnicate", json!({})),
        openai_text("ok"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let offered = names(&session.offered_tools());
    assert!(offered.iter().any(|t| t == "use_skill"), "{offered:?}");
    session.send("summarize", &mut Quiet).await.unwrap();
    let result = result_of(&session, "call_x");
    assert!(result.is_error);
    let listed = result
        .content
        .split_once("available tools: ")
        .map(|(_, list)| list.split(", ").map(str::to_owned).collect::<Vec<_>>())
        .unwrap_or_else(|| panic!("{}", result.content));
    assert_eq!(listed, offered, "{}", result.content);
}

#[tokio::test]
async fn a_length_stop_is_reported() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![Reply::Json(
        200,
        common::openai_completion(
            json!({"role": "assistant", "content": "The answer is cut"}),
            "length",
        ),
    )])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let outcome = session
        .send("long answer please", &mut Quiet)
        .await
        .unwrap();
    assert_eq!(outcome.stop, TurnStop::MaxTokens);
    assert_eq!(outcome.text, "The answer is cut");
}

#[tokio::test]
async fn a_failed_model_call_keeps_the_conversation_and_restores_the_gate() {
    let env = Env::new();
    env.skill("reader", "allowed-tools: Read\n", "Only read.");
    let server = ScriptServer::openai(vec![
        openai_tool("call_s", "use_skill", json!({"skill": "reader"})),
        Reply::Json(
            401,
            json!({"error": {"message": "bad key", "type": "invalid_request_error"}}),
        ),
        openai_text("Recovered."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let err = session.send("read only", &mut Quiet).await.unwrap_err();
    assert!(
        matches!(
            &err,
            SessionError::Llm(weft_llm::LlmError::Auth { status: 401, .. })
        ),
        "{err:?}"
    );
    // The skill's narrowing ended with the failed turn.
    assert!(session.active_skills().is_empty());
    assert_eq!(names(&session.offered_tools()).len(), ALL_TOOLS.len() + 1);
    // The messages so far were kept (and each tool call has its result) ...
    let roles: Vec<Role> = session.messages().iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool]);
    let records = Transcript::read(session.transcript_path().unwrap()).unwrap();
    let recorded = records
        .iter()
        .filter(|r| matches!(r, TranscriptRecord::Message { .. }))
        .count();
    assert_eq!(recorded, 3);
    // ... and the next message continues the conversation.
    let outcome = session.send("try again", &mut Quiet).await.unwrap();
    assert_eq!(outcome.text, "Recovered.");
    let third = server.bodies()[2].clone();
    let messages = openai_messages(&third);
    assert_eq!(messages.len(), 5, "{third:#}");
    assert_eq!(messages[4], json!({"role": "user", "content": "try again"}));
    assert_eq!(openai_tool_names(&third).len(), ALL_TOOLS.len() + 1);
}

// --- Gates from several places ------------------------------------------------------------------

#[tokio::test]
async fn a_skill_never_widens_the_agents_tools() {
    let env = Env::new();
    env.skill("writer", "allowed-tools: Write, Bash\n", "Write things.");
    let server = ScriptServer::openai(vec![
        openai_tool("call_s", "use_skill", json!({"skill": "writer"})),
        openai_tool(
            "call_w",
            "write_file",
            json!({"path": "w.txt", "content": "x"}),
        ),
        openai_tool("call_b", "exec_shell", json!({"command": "touch b.txt"})),
        openai_text("I could not."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("explore"));
    session.send("write", &mut Quiet).await.unwrap();
    let skill = result_of(&session, "call_s");
    assert!(!skill.is_error, "{}", skill.content);
    assert!(
        skill.content.contains("tools are limited to none"),
        "{}",
        skill.content
    );
    for id in ["call_w", "call_b"] {
        let result = result_of(&session, id);
        assert!(result.is_error, "{id}");
        assert!(
            result.content.starts_with("permission denied"),
            "{}",
            result.content
        );
    }
    assert!(!env.project.join("w.txt").exists());
    assert!(!env.project.join("b.txt").exists());
    // The tools offered stay the agent's while the skill is active (the prompt cache holds);
    // its gate refused the rest.
    assert_eq!(
        openai_tool_names(&server.bodies()[1]),
        openai_tool_names(&server.bodies()[0])
    );
}

#[tokio::test]
async fn a_scoped_skill_allows_only_matching_calls() {
    let env = Env::new();
    env.file("docs/a.md", "doc a");
    env.file("secret.txt", "SECRET");
    env.skill(
        "docs",
        "allowed-tools: Read(docs/**), Bash(echo:*)\n",
        "Read the docs.",
    );
    let server = ScriptServer::openai(vec![
        openai_tool("s", "use_skill", json!({"skill": "docs"})),
        openai_tools(&[
            ("r1", "read_file", json!({"path": "docs/a.md"})),
            ("r2", "read_file", json!({"path": "secret.txt"})),
            ("r3", "read_file", json!({"path": "docs/../secret.txt"})),
            ("e1", "exec_shell", json!({"command": "echo hi"})),
            (
                "e2",
                "exec_shell",
                json!({"command": "echo hi; touch pwned"}),
            ),
            ("e3", "exec_shell", json!({"command": "echo hi > ../pwned"})),
        ]),
        openai_text("done"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    session.send("read the docs", &mut Quiet).await.unwrap();
    assert_eq!(result_of(&session, "r1").content, "doc a");
    for id in ["r2", "r3", "e2"] {
        let result = result_of(&session, id);
        assert!(result.is_error, "{id}");
        assert!(
            result.content.starts_with("permission denied"),
            "{}",
            result.content
        );
        assert!(!result.content.contains("SECRET"));
    }
    let echo = result_of(&session, "e1");
    assert!(!echo.is_error, "{}", echo.content);
    assert!(echo.content.contains("hi"), "{}", echo.content);
    assert!(!env.project.join("pwned").exists());
    // A write outside the project cannot be pre-approved: it needs approval, and no one can
    // be asked here.
    let outside = result_of(&session, "e3");
    assert!(outside.is_error);
    assert!(
        outside.content.starts_with(
            "approval needed: `> ../pwned` writes to a path that climbs out of the project"
        ),
        "{}",
        outside.content
    );
    assert!(!env.project.parent().unwrap().join("pwned").exists());
    // The list offered is the agent's, the same as before the skill.
    assert_eq!(
        openai_tool_names(&server.bodies()[1]),
        openai_tool_names(&server.bodies()[0])
    );
}

#[tokio::test]
async fn the_session_ceiling_and_disallowed_tools_hide_and_refuse() {
    let env = Env::new();
    env.skill("shell", "allowed-tools: Bash\n", "Use the shell.");
    let server = ScriptServer::openai(vec![
        openai_tool("c1", "exec_shell", json!({"command": "touch one"})),
        openai_tool("c2", "use_skill", json!({"skill": "shell"})),
        openai_tool("c3", "exec_shell", json!({"command": "touch two"})),
        openai_tool(
            "c4",
            "edit_file",
            json!({"path": "x", "old_string": "a", "new_string": "b"}),
        ),
        openai_text("no shell"),
    ])
    .await;
    let mut agent = custom_agent("careful");
    agent.disallowed_tools = vec!["Edit".into()];
    let mut parts = env.parts(openai_catalog(&server), agent);
    parts.options.ceiling =
        weft_permissions::ToolGate::new([weft_permissions::Policy::from_lists::<String>(
            None,
            &["Bash".to_owned()],
            weft_permissions::Origin::Session,
            &weft_permissions::PatternContext::new(),
        )
        .unwrap()]);
    let mut session = Session::new(parts).unwrap();
    let offered = names(&session.offered_tools());
    assert!(
        !offered
            .iter()
            .any(|t| t == "exec_shell" || t == "edit_file"),
        "{offered:?}"
    );
    session.send("shell", &mut Quiet).await.unwrap();
    for id in ["c1", "c3", "c4"] {
        let result = result_of(&session, id);
        assert!(result.is_error, "{id}");
        assert!(
            result.content.starts_with("permission denied"),
            "{}",
            result.content
        );
    }
    assert!(result_of(&session, "c1").content.contains("the session"));
    assert!(
        result_of(&session, "c4")
            .content
            .contains("agent 'careful'")
    );
    assert!(!env.project.join("one").exists());
    assert!(!env.project.join("two").exists());
    for body in server.bodies() {
        let offered = openai_tool_names(&body);
        assert!(
            !offered
                .iter()
                .any(|t| t == "exec_shell" || t == "edit_file"),
            "{offered:?}"
        );
    }
}

// --- More skills -----------------------------------------------------------------------------------

#[tokio::test]
async fn a_skill_created_by_the_model_is_usable_at_once() {
    let env = Env::new();
    let user_skills = env.project.parent().unwrap().join("user-skills");
    let mut config = RegistryConfig::with_roots(vec![SkillRoot::new(&user_skills, Scope::User)]);
    config.builtins = false;
    let skills = Arc::new(SkillRegistry::new(config));
    let mut tools = env.tools();
    tools.register(Arc::new(weft_agents::CreateSkill::new(
        Arc::clone(&skills),
        &user_skills,
    )));
    let server = ScriptServer::openai(vec![
        openai_tool(
            "c1",
            "create_skill",
            json!({"name": "greet", "description": "Greets someone by name", "body": "Say hello to $ARGUMENTS."}),
        ),
        openai_tool("c2", "use_skill", json!({"skill": "greet", "args": "Bob"})),
        openai_text("Hello, Bob."),
    ])
    .await;
    let mut session = Session::new(SessionParts {
        skills,
        tools,
        ..env.parts(openai_catalog(&server), builtin("default"))
    })
    .unwrap();
    assert!(
        !names(&session.offered_tools())
            .iter()
            .any(|t| t == "use_skill")
    );
    session
        .send("make a greeting skill", &mut Quiet)
        .await
        .unwrap();
    let created = result_of(&session, "c1");
    assert!(!created.is_error, "{}", created.content);
    assert!(
        created.content.contains("now available"),
        "{}",
        created.content
    );
    assert!(user_skills.join("greet/SKILL.md").is_file());
    assert_eq!(result_of(&session, "c2").content, "Say hello to Bob.");
    // The next request offered use_skill and listed the new skill in the catalog.
    let second = server.bodies()[1].clone();
    assert!(openai_tool_names(&second).iter().any(|t| t == "use_skill"));
    let system = openai_messages(&second)[0]["content"].as_str().unwrap();
    assert!(system.contains("greet: Greets someone by name"), "{system}");
}

#[tokio::test]
async fn preloaded_skills_are_in_the_system_prompt() {
    let env = Env::new();
    env.skill("style", "", "Always answer in haiku. Session: $SESSION_ID.");
    let server = ScriptServer::openai(vec![openai_text("Autumn moonlight")]).await;
    let mut agent = custom_agent("poet");
    agent.skills = vec!["style".into(), "missing-skill".into()];
    let mut session = env.session(openai_catalog(&server), agent);
    session.send("hi", &mut Quiet).await.unwrap();
    let body = server.bodies()[0].clone();
    let system = openai_messages(&body)[0]["content"].as_str().unwrap();
    assert!(
        system.starts_with("You are the poet test agent."),
        "{system}"
    );
    assert!(system.contains("## Preloaded skills"), "{system}");
    assert!(
        system.contains(&format!(
            "Always answer in haiku. Session: {}.",
            session.id()
        )),
        "{system}"
    );
    assert!(!system.contains("missing-skill"), "{system}");
}

#[tokio::test]
async fn a_long_skill_is_truncated_to_the_configured_size() {
    let env = Env::new();
    env.skill("big", "", &format!("BEGIN {} END", "x".repeat(500)));
    let server = ScriptServer::openai(vec![
        openai_tool("c", "use_skill", json!({"skill": "big"})),
        openai_text("ok"),
    ])
    .await;
    let mut parts = env.parts(openai_catalog(&server), builtin("default"));
    parts.options.max_skill_prompt_bytes = 64;
    let mut session = Session::new(parts).unwrap();
    session.send("big", &mut Quiet).await.unwrap();
    let result = result_of(&session, "c");
    assert!(result.content.starts_with("BEGIN "), "{}", result.content);
    assert!(!result.content.contains("END"), "{}", result.content);
    assert!(result.content.contains("truncated"), "{}", result.content);
    assert!(result.content.len() < 200, "{}", result.content.len());
}

#[tokio::test]
async fn a_skill_hidden_from_users_runs_for_the_model_only() {
    let env = Env::new();
    env.skill(
        "internal",
        "user-invocable: false\n",
        "Internal steps for $ARGUMENTS.",
    );
    let server = ScriptServer::openai(vec![
        openai_tool("c", "use_skill", json!({"skill": "internal", "args": "x"})),
        openai_text("ok"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let err = session
        .run_skill("internal", vec![], &mut Quiet)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, SessionError::Skill(SkillInvocationError::NotUserInvocable(n)) if n == "internal"),
        "{err:?}"
    );
    assert_eq!(server.count(), 0);
    session.send("do it", &mut Quiet).await.unwrap();
    assert_eq!(result_of(&session, "c").content, "Internal steps for x.");
}

// --- Iteration cap ------------------------------------------------------------------------------

#[tokio::test]
async fn the_iteration_cap_stops_the_turn_and_every_call_gets_a_result() {
    let env = Env::new();
    // Always two more tool calls, with fresh ids.
    let server = ScriptServer::start(common::OPENAI_PATH, |n| {
        openai_tools(&[
            (&format!("ls_{n}"), "list_directory", json!({})),
            (&format!("glob_{n}"), "glob", json!({"pattern": "*"})),
        ])
    })
    .await;
    let mut agent = custom_agent("looper");
    agent.max_tool_iterations = Some(2);
    let mut session = env.session(openai_catalog(&server), agent);
    let mut events = Recorder::default();

    let outcome = session.send("loop forever", &mut events).await.unwrap();
    assert_eq!(outcome.stop, TurnStop::IterationLimit { limit: 2 });
    assert_eq!(outcome.model_calls, 3);
    assert_eq!(server.count(), 3);
    assert_eq!(outcome.tool_calls, 6);
    // Two rounds ran; the third round's calls were answered without running.
    assert_eq!(events.calls.len(), 4);
    assert_eq!(events.results.len(), 6);

    let messages = session.messages();
    let call_ids: Vec<&str> = messages
        .iter()
        .flat_map(|m| m.tool_calls.iter().map(|c| c.id.as_str()))
        .collect();
    assert_eq!(call_ids.len(), 6);
    for id in &call_ids {
        assert_eq!(
            messages
                .iter()
                .filter(|m| m.role == Role::Tool && m.tool_call_id.as_deref() == Some(id))
                .count(),
            1,
            "{id}"
        );
    }
    for id in ["ls_2", "glob_2"] {
        let result = result_of(&session, id);
        assert!(result.is_error);
        assert!(result.content.contains("limit of 2"), "{}", result.content);
    }
    assert!(!result_of(&session, "ls_1").is_error);
    // The conversation ends with the unrun calls' results, so a next message is valid.
    assert_eq!(messages.last().unwrap().role, Role::Tool);
}

#[tokio::test]
async fn the_session_cap_applies_when_the_agent_sets_none() {
    let env = Env::new();
    let server = ScriptServer::start(common::OPENAI_PATH, |n| {
        openai_tool(&format!("c{n}"), "list_directory", json!({}))
    })
    .await;
    let mut parts = env.parts(openai_catalog(&server), custom_agent("plain"));
    parts.options.max_tool_iterations = 1;
    let mut session = Session::new(parts).unwrap();
    let outcome = session.send("go", &mut Quiet).await.unwrap();
    assert_eq!(outcome.stop, TurnStop::IterationLimit { limit: 1 });
    assert_eq!(server.count(), 2);
}

// --- Streaming ------------------------------------------------------------------------------------

#[tokio::test]
async fn streamed_pieces_add_up_to_the_final_text() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![openai_stream(&["Hel", "lo, ", "wor", "ld"])]).await;
    let mut parts = env.parts(openai_catalog(&server), builtin("default"));
    parts.options.stream = true;
    let mut session = Session::new(parts).unwrap();
    let mut events = Recorder::default();

    let outcome = session.send("greet", &mut events).await.unwrap();
    assert_eq!(outcome.text, "Hello, world");
    assert_eq!(events.text, ["Hel", "lo, ", "wor", "ld"]);
    assert_eq!(events.text.concat(), outcome.text);
    assert_eq!(outcome.usage, Usage::new(7, 5));
    let body = &server.bodies()[0];
    assert_eq!(body["stream"], json!(true));
}

// --- use_skill ------------------------------------------------------------------------------------

#[tokio::test]
async fn use_skill_renders_the_body_and_narrows_the_gate_for_this_turn_only() {
    let env = Env::new();
    env.file("notes.txt", "some notes\n");
    env.skill(
        "summarize",
        "allowed-tools: Read\n",
        "Summarize $ARGUMENTS carefully.",
    );
    let server = ScriptServer::openai(vec![
        // Turn 1: the skill, then a write it does not allow.
        openai_tool(
            "call_s",
            "use_skill",
            json!({"skill": "summarize", "args": "notes.txt"}),
        ),
        openai_tool(
            "call_w1",
            "write_file",
            json!({"path": "summary.txt", "content": "first"}),
        ),
        openai_text("Summary: notes."),
        // Turn 2: the same write, now allowed again.
        openai_tool(
            "call_w2",
            "write_file",
            json!({"path": "summary.txt", "content": "second"}),
        ),
        openai_text("Written."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let before = names(&session.offered_tools());
    assert!(before.iter().any(|t| t == "use_skill"), "{before:?}");
    // The catalog in the system prompt names the skill.
    let first = session
        .send("Summarize notes.txt", &mut Quiet)
        .await
        .unwrap();
    assert_eq!(first.text, "Summary: notes.");
    let bodies = server.bodies();
    let system = openai_messages(&bodies[0])[0]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(system.contains("summarize"), "{system}");

    let skill_result = result_of(&session, "call_s").clone();
    assert!(!skill_result.is_error, "{}", skill_result.content);
    assert!(
        skill_result
            .content
            .contains("Summarize notes.txt carefully."),
        "{}",
        skill_result.content
    );
    // After the skill, the next request of the same turn offers the same tools (a stable
    // prefix for the prompt cache); the skill's gate allows only `read_file`, and says so.
    assert_eq!(openai_tool_names(&bodies[1]), before);
    assert!(
        skill_result
            .content
            .starts_with("[skill `summarize` is active: tools are limited to read_file until"),
        "{}",
        skill_result.content
    );
    let denied = result_of(&session, "call_w1").clone();
    assert!(denied.is_error);
    assert!(
        denied.content.starts_with("permission denied"),
        "{}",
        denied.content
    );
    assert!(denied.content.contains("summarize"), "{}", denied.content);
    assert!(!env.project.join("summary.txt").exists());
    // The turn is over: the gate is the agent's again.
    assert!(session.active_skills().is_empty());
    assert_eq!(names(&session.offered_tools()), before);

    let second = session.send("Now write it", &mut Quiet).await.unwrap();
    assert_eq!(second.text, "Written.");
    let allowed = result_of(&session, "call_w2");
    assert!(!allowed.is_error, "{}", allowed.content);
    assert_eq!(
        std::fs::read_to_string(env.project.join("summary.txt")).unwrap(),
        "second"
    );
    assert_eq!(openai_tool_names(&server.bodies()[3]), before);
}

#[tokio::test]
async fn use_skill_with_an_unknown_name_suggests_close_names() {
    let env = Env::new();
    env.skill("summarize", "", "Summarize.");
    env.skill("deploy", "", "Deploy.");
    let server = ScriptServer::openai(vec![
        openai_tool("call_u", "use_skill", json!({"skill": "sumarize"})),
        openai_text("ok"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    session.send("summarize", &mut Quiet).await.unwrap();
    let result = result_of(&session, "call_u");
    assert!(result.is_error);
    assert!(
        result.content.contains("unknown skill `sumarize`"),
        "{}",
        result.content
    );
    assert!(
        result.content.contains("did you mean `summarize`?"),
        "{}",
        result.content
    );
    assert!(!result.content.contains("deploy"), "{}", result.content);
    assert!(session.active_skills().is_empty());
}

#[tokio::test]
async fn a_user_only_skill_is_refused_to_the_model_but_runs_for_the_user() {
    let env = Env::new();
    env.skill("helper", "", "Help.");
    env.skill(
        "deploy",
        "disable-model-invocation: true\n",
        "Deploy $ARGUMENTS now.",
    );
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_d",
            "use_skill",
            json!({"skill": "deploy", "args": "prod"}),
        ),
        openai_text("I may not deploy."),
        openai_text("Deployed."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    session.send("deploy to prod", &mut Quiet).await.unwrap();
    let refused = result_of(&session, "call_d");
    assert!(refused.is_error);
    assert!(
        refused.content.contains("can only be run by the user"),
        "{}",
        refused.content
    );
    assert!(!refused.content.contains("Deploy prod now."));
    // Not in the catalog the model sees.
    let system = openai_messages(&server.bodies()[0])[0]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!system.contains("deploy"), "{system}");

    let outcome = session
        .run_skill("deploy", vec!["prod".into()], &mut Quiet)
        .await
        .unwrap();
    assert_eq!(outcome.text, "Deployed.");
    let third = openai_messages(&server.bodies()[2]).clone();
    let last = third.last().unwrap();
    assert_eq!(last["role"], "user");
    assert!(
        last["content"]
            .as_str()
            .unwrap()
            .contains("Deploy prod now."),
        "{last}"
    );
}

#[tokio::test]
async fn a_fork_skill_runs_in_a_subagent_and_returns_its_result() {
    let env = Env::new();
    env.skill(
        "research",
        "context: fork\nagent: explore\n",
        "FORKED-BODY research $ARGUMENTS",
    );
    let server = ScriptServer::openai(vec![
        // parent: invoke the fork skill
        openai_tool(
            "call_f",
            "use_skill",
            json!({"skill": "research", "args": "x"}),
        ),
        // the child's whole turn
        openai_text("child found x"),
        // parent: answer with the result
        openai_text("ok"),
        // the user runs the fork skill: only the child talks to the model
        openai_text("child found y"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    session.send("research x", &mut Quiet).await.unwrap();
    let result = result_of(&session, "call_f");
    assert!(!result.is_error, "{}", result.content);
    assert!(
        result.content.contains("child found x"),
        "{}",
        result.content
    );
    assert!(result.content.contains("explore"), "{}", result.content);
    assert!(
        !result.content.contains("FORKED-BODY"),
        "{}",
        result.content
    );
    assert!(session.active_skills().is_empty());

    let bodies = server.bodies();
    // The child's request: a fresh context whose only user message is the rendered body,
    // with explore's tools (no write_file, no spawning at depth 1).
    let child = openai_messages(&bodies[1]);
    assert_eq!(child.len(), 2, "{:#}", bodies[1]);
    assert_eq!(child[1]["content"], "FORKED-BODY research x");
    let mut expected: Vec<&str> = EXPLORE_TOOLS.to_vec();
    expected.push("use_skill");
    assert_eq!(openai_tool_names(&bodies[1]), expected);
    // The parent's follow-up never carried the skill body, only the child's answer.
    assert!(!bodies[2].to_string().contains("FORKED-BODY"));

    let outcome = session
        .run_skill("research", vec!["y".into()], &mut Quiet)
        .await
        .unwrap();
    assert_eq!(outcome.text, "child found y");
    assert_eq!(server.count(), 4);
    assert_eq!(
        openai_messages(&server.bodies()[3])[1]["content"],
        "FORKED-BODY research y"
    );
    let children = session.children();
    assert_eq!(children.len(), 2);
    assert!(
        children
            .iter()
            .all(|c| c.agent == "explore" && !c.background)
    );
}

// --- Agents and models ----------------------------------------------------------------------------

#[tokio::test]
async fn switching_to_explore_and_back_restores_the_tools() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![openai_text("a"), openai_text("b")]).await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let original = names(&session.offered_tools());
    assert_eq!(original, ALL_TOOLS);

    session.apply_agent(builtin("explore"), None).unwrap();
    assert_eq!(session.agent().name, "explore");
    assert_eq!(names(&session.offered_tools()), EXPLORE_TOOLS);
    session.send("look", &mut Quiet).await.unwrap();
    assert_eq!(openai_tool_names(&server.bodies()[0]), EXPLORE_TOOLS);

    session.apply_agent(builtin("default"), None).unwrap();
    assert_eq!(names(&session.offered_tools()), original);
    session.send("again", &mut Quiet).await.unwrap();
    let body = &server.bodies()[1];
    assert_eq!(openai_tool_names(body), original);
    let system = openai_messages(body)[0]["content"].as_str().unwrap();
    assert!(
        system.starts_with(builtin("default").system_prompt.unwrap().trim()),
        "{system}"
    );

    // A switch that fails leaves the agent in place.
    let mut evil = custom_agent("evil");
    evil.model = Some("evil/x".into());
    assert!(session.apply_agent(evil, None).is_err());
    assert_eq!(session.agent().name, "default");
    assert_eq!(names(&session.offered_tools()), original);
}

#[tokio::test]
async fn an_agent_with_an_unconfigured_provider_is_rejected() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let mut agent = custom_agent("sneaky");
    agent.model = Some("evil/x".into());
    let err = Session::new(env.parts(openai_catalog(&server), agent)).unwrap_err();
    match err {
        SessionError::Model(ModelError::UnknownProvider {
            provider, model, ..
        }) => {
            assert_eq!(provider, "evil");
            assert_eq!(model, "evil/x");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 0);
}

#[tokio::test]
async fn aliases_resolve_and_an_explicit_model_beats_the_agents() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![openai_text("one"), openai_text("two")]).await;
    let mut catalog = openai_catalog(&server);
    catalog.add_alias("fast", "local/fast-model");
    let mut agent = custom_agent("quick");
    agent.model = Some("fast".into());

    let mut session = env.session(catalog.clone(), agent.clone());
    assert_eq!(session.model().to_string(), "local/fast-model");
    session.send("hi", &mut Quiet).await.unwrap();
    assert_eq!(server.bodies()[0]["model"], "fast-model");

    let mut parts = env.parts(catalog, agent);
    parts.model = Some("local/other-model".into());
    let mut session = Session::new(parts).unwrap();
    assert_eq!(session.model().to_string(), "local/other-model");
    session.send("hi", &mut Quiet).await.unwrap();
    assert_eq!(server.bodies()[1]["model"], "other-model");
}

// --- Transcript -----------------------------------------------------------------------------------

#[tokio::test]
async fn the_transcript_holds_the_turn_in_order() {
    let env = Env::new();
    env.file("notes.txt", "alpha\n");
    let server = ScriptServer::openai(vec![
        openai_tool("call_1", "read_file", json!({"path": "notes.txt"})),
        openai_text("Read it."),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("explore"));
    session.send("read notes", &mut Quiet).await.unwrap();

    let path = session.transcript_path().unwrap().to_path_buf();
    assert_eq!(path, env.sessions.join(format!("{}.jsonl", session.id())));
    let records = Transcript::read(&path).unwrap();
    // Every line of the file is a record (nothing torn or unparsable).
    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
    assert_eq!(records.len(), lines);

    match &records[0] {
        TranscriptRecord::Session {
            session_id,
            agent,
            model,
            ..
        } => {
            assert_eq!(session_id, session.id());
            assert_eq!(agent, "explore");
            assert_eq!(model, "local/test-model");
        }
        other => panic!("first record: {other:?}"),
    }
    let messages: Vec<&Message> = records
        .iter()
        .filter_map(|r| match r {
            TranscriptRecord::Message { message, .. } => Some(message),
            _ => None,
        })
        .collect();
    assert_eq!(messages.len(), 4, "{records:#?}");
    assert_eq!(*messages[0], Message::user("read notes"));
    assert_eq!(messages[1].role, Role::Assistant);
    assert_eq!(messages[1].tool_calls.len(), 1);
    assert_eq!(messages[1].tool_calls[0].id, "call_1");
    assert_eq!(messages[1].tool_calls[0].name, "read_file");
    assert_eq!(messages[2].role, Role::Tool);
    assert_eq!(messages[2].tool_call_id.as_deref(), Some("call_1"));
    assert_eq!(messages[2].content, "alpha\n");
    assert_eq!(*messages[3], Message::assistant("Read it.", vec![]));
    // The messages are the session's conversation, in the same order.
    let in_memory: Vec<&Message> = session.messages().iter().collect();
    assert_eq!(messages, in_memory);
    let usage: u64 = records
        .iter()
        .filter_map(|r| match r {
            TranscriptRecord::Usage { usage, .. } => Some(usage.input_tokens),
            _ => None,
        })
        .sum();
    assert_eq!(usage, 24);
}

#[tokio::test]
async fn the_transcript_records_skills_and_agent_switches() {
    let env = Env::new();
    env.skill("summarize", "", "Summarize $ARGUMENTS.");
    let server = ScriptServer::openai(vec![
        openai_tool(
            "call_s",
            "use_skill",
            json!({"skill": "summarize", "args": "a b"}),
        ),
        openai_text("done"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    session.send("summarize a b", &mut Quiet).await.unwrap();
    session.apply_agent(builtin("explore"), None).unwrap();
    let records = Transcript::read(session.transcript_path().unwrap()).unwrap();
    assert!(records.iter().any(|r| matches!(
        r,
        TranscriptRecord::Skill { skill, args, .. } if skill == "summarize" && args == &["a", "b"]
    )));
    assert!(matches!(
        records.last().unwrap(),
        TranscriptRecord::Agent { agent, model, .. } if agent == "explore" && model == "local/test-model"
    ));
}

#[tokio::test]
async fn a_session_that_never_reaches_the_model_leaves_no_transcript() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    assert!(session.run_skill("nope", vec![], &mut Quiet).await.is_err());
    session.apply_agent(builtin("explore"), None).unwrap();
    session.clear().unwrap();
    assert!(!session.transcript_path().unwrap().exists());
    assert!(!env.sessions.exists());
    assert_eq!(server.count(), 0);
}

#[tokio::test]
async fn a_resumed_session_continues_the_conversation_in_the_same_transcript() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_text("first answer"),
        openai_text("second answer"),
    ])
    .await;
    let mut first = env.session(openai_catalog(&server), builtin("default"));
    first.send("first question", &mut Quiet).await.unwrap();
    let path = first.transcript_path().unwrap().to_path_buf();
    let id = first.id().to_owned();
    drop(first);

    let history = SessionHistory::read(&path).unwrap();
    assert_eq!(history.agent, "default");
    let mut resumed = Session::resume(
        env.parts(openai_catalog(&server), builtin("default")),
        history,
    )
    .unwrap();
    assert_eq!(resumed.id(), id);
    assert_eq!(resumed.messages().len(), 2);
    resumed.send("second question", &mut Quiet).await.unwrap();
    // The model saw the whole conversation.
    let sent = server.bodies()[1]["messages"].clone();
    let contents: Vec<&str> = sent
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert_eq!(
        contents[1..],
        ["first question", "first answer", "second question"]
    );
    // One transcript, the resumption marked, the new turn appended.
    assert_eq!(std::fs::read_dir(&env.sessions).unwrap().count(), 1);
    let records = Transcript::read(&path).unwrap();
    assert!(
        matches!(&records[0], TranscriptRecord::Session { session_id, .. } if *session_id == id)
    );
    assert!(
        records
            .iter()
            .any(|r| matches!(r, TranscriptRecord::Resumed { agent, .. } if agent == "default"))
    );
    let again = SessionHistory::read(&path).unwrap();
    assert_eq!(again.messages.len(), 4);
    assert_eq!(again.usage.input_tokens, 24);
}

// --- Anthropic ------------------------------------------------------------------------------------

fn anthropic_catalog(server: &ScriptServer) -> ModelCatalog {
    let mut catalog = ModelCatalog::default();
    catalog.add_provider(quick(ProviderConfig::new(
        "claude",
        ProviderKind::Anthropic,
        server.url.clone(),
    )));
    catalog.set_default("claude/claude-test");
    catalog
}

#[tokio::test]
async fn anthropic_tool_round_trip() {
    let env = Env::new();
    env.file("notes.txt", "alpha\nbeta\n");
    let server = ScriptServer::anthropic(vec![
        anthropic_tool("toolu_1", "read_file", json!({"path": "notes.txt"})),
        anthropic_text("Two lines."),
    ])
    .await;
    let mut session = env.session(anthropic_catalog(&server), builtin("explore"));
    let outcome = session.send("How many lines?", &mut Quiet).await.unwrap();
    assert_eq!(outcome.text, "Two lines.");
    assert_eq!(outcome.model_calls, 2);
    assert_eq!(outcome.usage, Usage::new(60, 8));

    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests.iter().all(|r| r.path == "/v1/messages"));
    let first = &requests[0].body;
    assert_eq!(first["model"], "claude-test");
    // The system prompt is one block, with a cache breakpoint.
    let system = first["system"][0]["text"].as_str().unwrap();
    assert_eq!(
        first["system"][0]["cache_control"],
        json!({"type": "ephemeral"})
    );
    assert!(
        system.starts_with(builtin("explore").system_prompt.unwrap().trim()),
        "{system}"
    );
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, EXPLORE_TOOLS);

    let second = &requests[1].body;
    assert_eq!(
        second["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "How many lines?", "cache_control": {"type": "ephemeral"}}]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "notes.txt"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "alpha\nbeta\n", "cache_control": {"type": "ephemeral"}}
            ]},
        ])
    );
}

#[tokio::test]
async fn anthropic_denied_call_is_an_error_result() {
    let env = Env::new();
    let server = ScriptServer::anthropic(vec![
        anthropic_tool("toolu_x", "exec_shell", json!({"command": "touch pwned"})),
        anthropic_text("Not allowed."),
    ])
    .await;
    let mut session = env.session(anthropic_catalog(&server), builtin("explore"));
    session.send("run it", &mut Quiet).await.unwrap();
    assert!(!env.project.join("pwned").exists());
    let second = &server.bodies()[1];
    let result = &second["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["tool_use_id"], "toolu_x");
    assert_eq!(result["is_error"], json!(true));
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .starts_with("permission denied"),
        "{result}"
    );
}

// --- Claude Code tool names and explicit models ---------------------------------------------

#[tokio::test]
async fn claude_code_tool_names_reach_the_built_in_tools_through_the_same_gate() {
    let env = Env::new();
    env.file("notes.txt", "alpha\n");
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            ("call_1", "Read", json!({"path": "notes.txt"})),
            ("call_2", "Bash", json!({"command": "touch made.txt"})),
        ]),
        openai_text("done"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("explore"));
    session.send("read it", &mut Quiet).await.unwrap();
    let read = result_of(&session, "call_1");
    assert!(!read.is_error, "{read:?}");
    assert_eq!(read.content, "alpha\n");
    let bash = result_of(&session, "call_2");
    assert!(bash.is_error);
    assert!(
        bash.content.starts_with("permission denied"),
        "{}",
        bash.content
    );
    assert!(!env.project.join("made.txt").exists());
}

#[tokio::test]
async fn an_explicit_model_survives_agent_switches() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let mut parts = env.parts(openai_catalog(&server), builtin("default"));
    parts.model = Some("local/chosen".into());
    let mut session = Session::new(parts).unwrap();
    assert_eq!(session.model().model, "chosen");
    session.apply_agent(builtin("explore"), None).unwrap();
    assert_eq!(session.model().model, "chosen");
    session
        .apply_agent(builtin("default"), Some("local/other"))
        .unwrap();
    assert_eq!(session.model().model, "other");
}

#[tokio::test]
async fn a_turn_dropped_mid_tool_call_leaves_a_valid_conversation() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool("call_slow", "exec_shell", json!({"command": "sleep 5"})),
        openai_text("recovered"),
    ])
    .await;
    let mut session = env.session(openai_catalog(&server), builtin("default"));
    let interrupted = tokio::time::timeout(
        Duration::from_millis(500),
        session.send("run it", &mut Quiet),
    )
    .await;
    assert!(interrupted.is_err(), "the turn should still be running");

    let outcome = session.send("again", &mut Quiet).await.unwrap();
    assert_eq!(outcome.text, "recovered");
    let bodies = server.bodies();
    let messages = openai_messages(&bodies[1]);
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "user"]);
    assert_eq!(messages[3]["tool_call_id"], "call_slow");
    assert!(
        messages[3]["content"]
            .as_str()
            .unwrap()
            .starts_with("cancelled"),
        "{:#}",
        messages[3]
    );
}
