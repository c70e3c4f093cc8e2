//! Permission modes and approval through the agent loop, against a loopback OpenAI-compatible
//! server: who is asked, what the answers do, what is refused where no one can be asked, what
//! each mode offers and runs, how subagents inherit the mode, and path rules on real paths.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::VecDeque;
use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use common::{ScriptServer, openai_text, openai_tool, openai_tool_names, openai_tools};
use serde_json::{Value, json};
use weft_agents::transcript::{Transcript, TranscriptRecord};
use weft_agents::{
    AgentRegistry, ApprovalAnswer, ApprovalRequest, Approver, ModelPool, Permissions, Quiet,
    Session, SessionError, SessionOptions, SessionParts, SpawnRequest,
};
use weft_llm::{Message, ModelCatalog, ProviderConfig, ProviderKind, RetryPolicy, Role};
use weft_permissions::{Origin, PatternContext, PreApproval};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope, ShellLauncher, Tool, ToolError, ToolOutput};
use weft_types::{AgentDefinition, AgentFormat, PermissionMode, Scope, Source};

// --- Fixture ----------------------------------------------------------------------------------

/// Answers from a script and remembers every question.
#[derive(Default)]
struct Script {
    answers: Mutex<VecDeque<ApprovalAnswer>>,
    asked: Mutex<Vec<ApprovalRequest>>,
}

impl Script {
    fn new(answers: impl IntoIterator<Item = ApprovalAnswer>) -> Arc<Self> {
        Arc::new(Self {
            answers: Mutex::new(answers.into_iter().collect()),
            asked: Mutex::default(),
        })
    }

    fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().unwrap().clone()
    }
}

#[async_trait]
impl Approver for Script {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        self.asked.lock().unwrap().push(request.clone());
        self.answers
            .lock()
            .unwrap()
            .pop_front()
            .expect("asked more often than the script answers")
    }
}

/// A tool that only reads, as an MCP server annotated with `readOnlyHint` would present it.
struct LookUp;

#[async_trait]
impl Tool for LookUp {
    fn name(&self) -> &str {
        "docs__look_up"
    }

    fn description(&self) -> &str {
        "Looks something up."
    }

    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    }

    fn read_only_hint(&self) -> bool {
        true
    }

    async fn call(&self, _input: Value) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text("looked up"))
    }
}

struct Env {
    tmp: tempfile::TempDir,
    project: PathBuf,
}

impl Env {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        let project = project.canonicalize().unwrap();
        Self { tmp, project }
    }

    fn file(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.project.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn skills(&self) -> Arc<SkillRegistry> {
        let mut config = RegistryConfig::with_roots(vec![
            SkillRoot::new(self.project.join(".clawft/skills"), Scope::Project),
            SkillRoot::new(self.tmp.path().join("home/.clawft/skills"), Scope::User),
        ]);
        config.builtins = false;
        Arc::new(SkillRegistry::new(config))
    }

    fn options(&self, mode: PermissionMode, approver: Option<Arc<Script>>) -> SessionOptions {
        let mut permissions = Permissions::new(mode);
        permissions.approver = approver.map(|a| a as Arc<dyn Approver>);
        SessionOptions {
            project_dir: Some(self.project.clone()),
            transcript_dir: Some(self.tmp.path().join("sessions")),
            permissions,
            ..SessionOptions::default()
        }
    }

    fn session_with(
        &self,
        server: &ScriptServer,
        agent: AgentDefinition,
        options: SessionOptions,
    ) -> Result<Session, SessionError> {
        self.session_with_exec(server, agent, options, ExecConfig::default())
    }

    fn session_with_exec(
        &self,
        server: &ScriptServer,
        agent: AgentDefinition,
        options: SessionOptions,
        exec: ExecConfig,
    ) -> Result<Session, SessionError> {
        let mut tools = weft_tools::builtin_registry(&BuiltinConfig {
            scope: FsScope::new(self.project.clone(), vec![]).unwrap(),
            memory_file: self.tmp.path().join("memory.md"),
            exec,
            web_fetch: None,
        });
        tools.register(Arc::new(LookUp));
        let mut catalog = ModelCatalog::default();
        let mut provider =
            ProviderConfig::new("local", ProviderKind::OpenAi, format!("{}/v1", server.url));
        provider.timeout = Duration::from_secs(10);
        provider.retry = RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        };
        catalog.add_provider(provider);
        catalog.set_default("local/m");
        Session::new(SessionParts {
            models: Arc::new(ModelPool::new(catalog)),
            skills: self.skills(),
            tools,
            agent,
            model: None,
            options,
        })
    }

    fn session(
        &self,
        server: &ScriptServer,
        mode: PermissionMode,
        approver: Option<Arc<Script>>,
    ) -> Session {
        self.session_with(server, builtin("default"), self.options(mode, approver))
            .unwrap()
    }
}

fn builtin(name: &str) -> AgentDefinition {
    AgentRegistry::builtins().get(name).unwrap().agent.clone()
}

fn agent_with_mode(name: &str, mode: &str) -> AgentDefinition {
    let mut agent = AgentDefinition::new(
        name,
        "A test agent",
        Source::in_memory(Scope::Project, AgentFormat::Yaml),
    );
    agent.permission_mode = Some(mode.parse());
    agent
}

fn result_of<'a>(session: &'a Session, call_id: &str) -> &'a Message {
    session
        .messages()
        .iter()
        .find(|m| m.role == Role::Tool && m.tool_call_id.as_deref() == Some(call_id))
        .unwrap_or_else(|| panic!("no result for {call_id}: {:#?}", session.messages()))
}

fn shell(command: &str) -> Value {
    json!({ "command": command })
}

fn deny(message: Option<&str>) -> ApprovalAnswer {
    ApprovalAnswer::Deny {
        message: message.map(str::to_owned),
    }
}

// --- ask ------------------------------------------------------------------------------------

#[tokio::test]
async fn ask_mode_asks_before_anything_that_may_change_something() {
    let env = Env::new();
    env.file("a.txt", "A");
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            ("r", "read_file", json!({"path": "a.txt"})),
            ("l", "docs__look_up", json!({})),
            ("t1", "exec_shell", shell("touch once")),
            ("t2", "exec_shell", shell("touch once")),
        ]),
        openai_text("done"),
    ])
    .await;
    let script = Script::new([ApprovalAnswer::AllowOnce, deny(None)]);
    let mut session = env.session(&server, PermissionMode::Ask, Some(Arc::clone(&script)));
    session.send("go", &mut Quiet).await.unwrap();
    // Reading (and a tool annotated read-only) never asks.
    assert_eq!(result_of(&session, "r").content, "A");
    assert_eq!(result_of(&session, "l").content, "looked up");
    // Allow once: the first call ran; the same call asks again and was denied.
    let asked = script.asked();
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[0].summary, "exec_shell: touch once");
    assert_eq!(asked[0].agent, "default");
    assert_eq!(asked[0].always, "`touch:*` for this session");
    assert!(
        asked[0]
            .reason
            .starts_with("`exec_shell` may change something"),
        "{}",
        asked[0].reason
    );
    assert!(!result_of(&session, "t1").is_error);
    let denied = result_of(&session, "t2");
    assert!(denied.is_error);
    assert!(
        denied.content.starts_with("the user denied this call."),
        "{}",
        denied.content
    );
    assert!(env.project.join("once").exists());
    // The answers are in the transcript.
    let records = Transcript::read(session.transcript_path().unwrap()).unwrap();
    let answers: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            TranscriptRecord::Approval { answer, .. } => Some(answer.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(answers, ["allowed once", "denied"]);
}

#[tokio::test]
async fn allow_always_is_remembered_as_the_rule_the_prompt_shows() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            ("a", "exec_shell", shell("touch x")),
            ("b", "exec_shell", shell("touch z")),
            ("c", "exec_shell", shell("rm y")),
            (
                "w",
                "write_file",
                json!({"path": "src/a.rs", "content": "a"}),
            ),
            (
                "w2",
                "write_file",
                json!({"path": "src/b.rs", "content": "b"}),
            ),
            (
                "e",
                "edit_file",
                json!({"path": "src/a.rs", "old": "a", "new": "c"}),
            ),
        ]),
        openai_text("done"),
    ])
    .await;
    let script = Script::new([
        ApprovalAnswer::AllowAlways,
        deny(Some("use y.txt instead")),
        ApprovalAnswer::AllowAlways,
    ]);
    let mut session = env.session(&server, PermissionMode::Ask, Some(Arc::clone(&script)));
    session.send("go", &mut Quiet).await.unwrap();
    let asked = script.asked();
    let always: Vec<&str> = asked.iter().map(|r| r.always.as_str()).collect();
    assert_eq!(
        always,
        [
            "`touch:*` for this session",
            "`rm:*` for this session",
            "every edit inside the project for this session"
        ]
    );
    let asked: Vec<String> = asked.into_iter().map(|r| r.summary).collect();
    // Another `touch` and the second edit inside the project were not asked.
    assert_eq!(
        asked,
        [
            "exec_shell: touch x",
            "exec_shell: rm y",
            "write_file: src/a.rs"
        ]
    );
    assert!(!result_of(&session, "b").is_error);
    assert_eq!(
        result_of(&session, "c").content,
        "the user denied this call and said: use y.txt instead. The tool did not run."
    );
    assert!(!result_of(&session, "w2").is_error);
    assert_eq!(
        session.remembered_approvals(),
        [
            "edits inside the project",
            "commands matching `Bash(touch:*)`"
        ]
    );
}

#[tokio::test]
async fn without_anyone_to_ask_a_call_is_refused_with_what_would_allow_it() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            ("t", "exec_shell", shell("cargo test --all 2>&1 | tail -3")),
            (
                "w",
                "write_file",
                json!({"path": "notes.md", "content": "x"}),
            ),
        ]),
        openai_text("done"),
    ])
    .await;
    let mut session = env.session(&server, PermissionMode::Ask, None);
    session.send("go", &mut Quiet).await.unwrap();
    let refused = result_of(&session, "t");
    assert!(refused.is_error);
    assert_eq!(
        refused.content,
        "approval needed: `exec_shell` may change something (no pre-approval pattern matches this `exec_shell` call). The tool did not run: no one can approve calls in this session (it is not interactive). Do not retry it; the user can allow such calls with the permission mode `auto` (`--permission-mode auto`) or the `permissions.allow` pattern `Bash(cargo test:*)`."
    );
    assert!(
        result_of(&session, "w")
            .content
            .contains("the permission mode `accept-edits` (`--permission-mode accept-edits`) or the `permissions.allow` pattern `Write(notes.md)`")
    );
    assert!(!env.project.join("notes.md").exists());
    let refused = session.refused_calls();
    assert_eq!(refused.len(), 2);
    assert_eq!(
        refused[0].summary,
        "exec_shell: cargo test --all 2>&1 | tail -3"
    );
    assert_eq!(refused[0].suggestions, ["Bash(cargo test:*)"]);
}

#[tokio::test]
async fn pre_approved_calls_run_without_asking() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            ("ok", "exec_shell", shell("touch a && touch b")),
            ("no", "exec_shell", shell("touch c; rm a")),
        ]),
        openai_text("done"),
    ])
    .await;
    let mut options = env.options(PermissionMode::Ask, None);
    options.permissions.pre_approval =
        PreApproval::compile(["Bash(touch:*)"], &Origin::Session, &PatternContext::new()).unwrap();
    let mut session = env
        .session_with(&server, builtin("default"), options)
        .unwrap();
    session.send("go", &mut Quiet).await.unwrap();
    assert!(!result_of(&session, "ok").is_error);
    assert!(env.project.join("b").exists());
    let no = result_of(&session, "no");
    assert!(
        no.content
            .starts_with("approval needed: `exec_shell` may change something (`rm a` matches none of the allowed `Bash(touch:*)` from the session)"),
        "{}",
        no.content
    );
    assert!(!env.project.join("c").exists());
}

// --- the other modes --------------------------------------------------------------------------

#[tokio::test]
async fn accept_edits_runs_edits_inside_the_project_and_asks_for_the_rest() {
    let env = Env::new();
    let outside = env.tmp.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    symlink(&outside, env.project.join("out")).unwrap();
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            (
                "in",
                "write_file",
                json!({"path": "src/lib.rs", "content": "x"}),
            ),
            (
                "link",
                "write_file",
                json!({"path": "out/x.rs", "content": "x"}),
            ),
            ("sh", "exec_shell", shell("touch z")),
        ]),
        openai_text("done"),
    ])
    .await;
    let script = Script::new([deny(None)]);
    let mut session = env.session(
        &server,
        PermissionMode::AcceptEdits,
        Some(Arc::clone(&script)),
    );
    session.send("go", &mut Quiet).await.unwrap();
    assert!(!result_of(&session, "in").is_error);
    assert!(env.project.join("src/lib.rs").exists());
    // A path inside the project that leads outside it (and outside the file tools' reach) is
    // refused by the tool before anyone is asked: no answer could let it run.
    let link = result_of(&session, "link");
    assert!(link.is_error);
    assert!(
        link.content
            .starts_with("tool `write_file` failed: out/x.rs is outside the workspace"),
        "{}",
        link.content
    );
    let asked = script.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].summary, "exec_shell: touch z");
    assert!(!outside.join("x.rs").exists());
}

#[tokio::test]
async fn plan_mode_offers_and_runs_only_what_cannot_change_anything() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool("w", "write_file", json!({"path": "a", "content": "x"})),
        openai_text("done"),
    ])
    .await;
    let script = Script::new([]);
    let mut session = env.session(&server, PermissionMode::Plan, Some(Arc::clone(&script)));
    session.send("go", &mut Quiet).await.unwrap();
    let offered = openai_tool_names(&server.bodies()[0]);
    assert_eq!(
        offered,
        [
            "docs__look_up",
            "glob",
            "grep",
            "list_directory",
            "memory_read",
            "read_file",
            "sessions_spawn",
            "sessions_result",
            "sessions_list",
            "sessions_cancel"
        ]
    );
    assert_eq!(
        result_of(&session, "w").content,
        "permission denied: plan mode: only read-only tools run, and `write_file` may change something. The tool did not run."
    );
    assert!(script.asked().is_empty());
}

#[tokio::test]
async fn dont_ask_refuses_what_would_ask_even_with_someone_to_ask() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tool("t", "exec_shell", shell("touch a")),
        openai_text("done"),
    ])
    .await;
    let script = Script::new([]);
    let mut session = env.session(&server, PermissionMode::DontAsk, Some(Arc::clone(&script)));
    session.send("go", &mut Quiet).await.unwrap();
    assert!(
        result_of(&session, "t")
            .content
            .ends_with("dont-ask mode refuses what it would have to ask. The tool did not run.")
    );
    assert!(script.asked().is_empty());
}

#[tokio::test]
async fn auto_and_bypass_run_without_asking_but_a_restriction_that_asks_still_asks() {
    let env = Env::new();
    env.file(
        ".clawft/skills/git/SKILL.md",
        "---\nname: git\ndescription: Git only\nallowed-tools: Bash(git:*), Bash(touch:*)\n---\n\nUse git.\n",
    );
    for (mode, expect_asked) in [(PermissionMode::Auto, 1), (PermissionMode::Bypass, 0)] {
        let server = ScriptServer::openai(vec![
            openai_tools(&[
                ("t", "exec_shell", shell("touch free")),
                ("s", "use_skill", json!({"skill": "git"})),
            ]),
            openai_tool("g", "exec_shell", shell("git -c core.pager=cat log")),
            openai_text("done"),
        ])
        .await;
        let script = Script::new([deny(None)]);
        let mut session = env.session(&server, mode, Some(Arc::clone(&script)));
        session.send("go", &mut Quiet).await.unwrap();
        assert!(!result_of(&session, "t").is_error, "{mode}");
        let git = result_of(&session, "g");
        assert!(git.is_error, "{mode}");
        assert_eq!(script.asked().len(), expect_asked, "{mode}");
        if mode == PermissionMode::Bypass {
            assert!(
                git.content.contains(
                    "this restriction comes from a skill or agent, and bypass mode does not ask"
                ),
                "{}",
                git.content
            );
        } else {
            assert_eq!(
                script.asked()[0].reason,
                "`git -c` can run other programs, in `git -c core.pager=cat log`"
            );
        }
    }
}

// --- precedence -------------------------------------------------------------------------------

#[tokio::test]
async fn an_agent_permission_mode_only_narrows() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![]).await;
    let cases = [
        (
            PermissionMode::Ask,
            "bypassPermissions",
            PermissionMode::Ask,
        ),
        (
            PermissionMode::Auto,
            "acceptEdits",
            PermissionMode::AcceptEdits,
        ),
        (PermissionMode::Bypass, "auto", PermissionMode::Auto),
        (PermissionMode::Auto, "plan", PermissionMode::Plan),
        (PermissionMode::Ask, "default", PermissionMode::Ask),
        (PermissionMode::Auto, "dontAsk", PermissionMode::DontAsk),
    ];
    for (session_mode, agent_mode, want) in cases {
        let session = env
            .session_with(
                &server,
                agent_with_mode("a", agent_mode),
                env.options(session_mode, None),
            )
            .unwrap();
        assert_eq!(
            session.permission_mode(),
            want,
            "{session_mode} + {agent_mode}"
        );
    }
    let err = env
        .session_with(
            &server,
            agent_with_mode("typo", "acceptedits"),
            env.options(PermissionMode::Ask, None),
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("agent `typo`: permissionMode: unknown permission mode `acceptedits`"),
        "{err}"
    );
}

#[tokio::test]
async fn subagents_inherit_the_mode_narrow_it_and_in_the_background_never_ask() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        // The foreground child's one call, then its answer.
        openai_tool("c", "exec_shell", shell("touch child")),
        openai_text("child done"),
    ])
    .await;
    let script = Script::new([ApprovalAnswer::AllowOnce]);
    let mut agents = AgentRegistry::builtins();
    agents.register(agent_with_mode("wide", "bypassPermissions"));
    agents.register(agent_with_mode("narrow", "plan"));
    let agents = Arc::new(agents);
    let options = |mode| {
        let mut o = env.options(mode, Some(Arc::clone(&script)));
        o.spawn.agents = Arc::clone(&agents);
        o
    };
    let request = |agent: &str, background: bool| SpawnRequest {
        task: "t".into(),
        agent: Some(agent.into()),
        run_in_background: background,
        ..SpawnRequest::default()
    };
    let mut session = env
        .session_with(&server, builtin("default"), options(PermissionMode::Ask))
        .unwrap();
    let mode_of = |session: &Session, agent: &str, background: bool| {
        let child = session.prepare_child(request(agent, background)).unwrap();
        (child.session().permission_mode(), child.session().can_ask())
    };
    // A child's agent cannot widen the parent's mode; it can narrow it.
    assert_eq!(
        mode_of(&session, "wide", false),
        (PermissionMode::Ask, true)
    );
    assert_eq!(
        mode_of(&session, "narrow", false),
        (PermissionMode::Plan, true)
    );
    // Background children never ask.
    assert_eq!(
        mode_of(&session, "general-purpose", true),
        (PermissionMode::Ask, false)
    );
    // A foreground child asks the same person, naming itself.
    let done = session
        .spawn(request("general-purpose", false))
        .await
        .unwrap();
    assert_eq!(done.status.text(), "child done");
    let asked = script.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].session_id, done.id);
    assert!(env.project.join("child").exists());
    // Under a parent in plan mode, every child plans, whatever its agent says.
    let planning = env
        .session_with(&server, builtin("default"), options(PermissionMode::Plan))
        .unwrap();
    assert_eq!(mode_of(&planning, "wide", false).0, PermissionMode::Plan);
    let child = planning
        .prepare_child(request("general-purpose", false))
        .unwrap();
    assert!(
        !child
            .session()
            .offered_tools()
            .iter()
            .any(|t| t.name == "exec_shell" || t.name == "write_file")
    );
}

// --- path rules on real paths ------------------------------------------------------------------

#[tokio::test]
async fn read_patterns_are_decided_on_the_spelled_and_the_real_path() {
    let env = Env::new();
    env.file(".env", "API_KEY=secret");
    env.file("src/main.rs", "fn main() {}");
    symlink(env.project.join(".env"), env.project.join("src/notes.txt")).unwrap();
    symlink(
        env.project.join("src/main.rs"),
        env.project.join("main-link.rs"),
    )
    .unwrap();
    env.file(
        ".clawft/skills/src-reader/SKILL.md",
        "---\nname: src-reader\ndescription: Reads sources\nallowed-tools: Read(src/**)\n---\n\nRead.\n",
    );
    let server = ScriptServer::openai(vec![
        openai_tool("s", "use_skill", json!({"skill": "src-reader"})),
        openai_tools(&[
            ("ok", "read_file", json!({"path": "src/main.rs"})),
            ("link", "read_file", json!({"path": "src/notes.txt"})),
            ("spelled", "read_file", json!({"path": "main-link.rs"})),
        ]),
        openai_text("done"),
    ])
    .await;
    let mut session = env.session(&server, PermissionMode::Ask, None);
    session.send("go", &mut Quiet).await.unwrap();
    assert_eq!(result_of(&session, "ok").content, "fn main() {}");
    let link = result_of(&session, "link");
    assert!(link.is_error);
    assert_eq!(
        link.content,
        format!(
            "permission denied: `src/notes.txt` resolves to `{}`: `read_file` call `{0}` is outside the allowed `Read(src/**)` from skill 'src-reader'. The tool did not run.",
            env.project.join(".env").display()
        )
    );
    assert!(!link.content.contains("secret"));
    // A path spelled outside the pattern is refused even though it leads inside.
    assert!(
        result_of(&session, "spelled")
            .content
            .starts_with("permission denied:")
    );
}

// --- The sandbox, per call ------------------------------------------------------------------

/// A launcher that marks where the command ran: `env WHERE=<place> <shell> -c ...`.
fn marking(place: &str) -> ShellLauncher {
    ShellLauncher::Wrapper {
        program: PathBuf::from("/usr/bin/env"),
        args: vec![format!("WHERE={place}").into()],
        note: String::new(),
    }
}

/// The approval answers recorded in the session's transcript.
fn recorded_answers(session: &Session) -> Vec<String> {
    Transcript::read(session.transcript_path().unwrap())
        .unwrap()
        .iter()
        .filter_map(|r| match r {
            TranscriptRecord::Approval { answer, .. } => Some(answer.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_pre_approved_command_runs_sandboxed_and_only_a_person_lets_one_out() {
    let env = Env::new();
    let server = ScriptServer::openai(vec![
        openai_tools(&[
            ("pre", "exec_shell", shell("echo $WHERE")),
            ("once", "exec_shell", shell("touch a && echo $WHERE")),
            ("out", "exec_shell", shell("touch b && echo $WHERE")),
        ]),
        openai_text("done"),
    ])
    .await;
    let exec = ExecConfig {
        launcher: marking("sandbox"),
        unsandboxed: Some(marking("outside")),
        env: [("PATH".into(), "/usr/bin:/bin".into())].into(),
        ..ExecConfig::default()
    };
    let script = Script::new([
        ApprovalAnswer::AllowOnce,
        ApprovalAnswer::AllowOutsideSandbox,
    ]);
    let mut options = env.options(PermissionMode::Ask, Some(Arc::clone(&script)));
    options.permissions.pre_approval =
        PreApproval::compile(["Bash(echo:*)"], &Origin::Session, &PatternContext::new()).unwrap();
    let mut session = env
        .session_with_exec(&server, builtin("default"), options, exec)
        .unwrap();
    session.send("go", &mut Quiet).await.unwrap();
    // Pre-approved: no question, in the sandbox.
    assert_eq!(
        result_of(&session, "pre").content,
        "exit code: 0\n--- stdout ---\nsandbox"
    );
    // A person's plain yes keeps it in the sandbox; only the separate answer lets it out.
    assert_eq!(
        result_of(&session, "once").content,
        "exit code: 0\n--- stdout ---\nsandbox"
    );
    assert_eq!(
        result_of(&session, "out").content,
        "exit code: 0\n--- stdout ---\noutside"
    );
    let asked = script.asked();
    assert_eq!(asked.len(), 2);
    assert!(asked.iter().all(|a| a.sandboxed), "the choice was offered");
    assert_eq!(
        recorded_answers(&session),
        ["allowed once", "allowed once outside the sandbox"]
    );
}

#[tokio::test]
async fn where_the_sandbox_is_unavailable_even_a_pre_approved_command_asks() {
    let env = Env::new();
    let why = "the sandbox is required (sandbox.required) but unavailable: no Landlock";
    let exec = || ExecConfig {
        launcher: ShellLauncher::Refuse(why.to_owned()),
        unsandboxed: Some(marking("outside")),
        env: [("PATH".into(), "/usr/bin:/bin".into())].into(),
        ..ExecConfig::default()
    };
    let pre = || {
        PreApproval::compile(["Bash(echo:*)"], &Origin::Session, &PatternContext::new()).unwrap()
    };
    // A person approves it: it runs, unsandboxed (there is no sandbox), and no outside choice
    // is offered.
    let server = ScriptServer::openai(vec![
        openai_tools(&[("pre", "exec_shell", shell("echo $WHERE"))]),
        openai_text("done"),
    ])
    .await;
    let script = Script::new([ApprovalAnswer::AllowOnce]);
    let mut options = env.options(PermissionMode::Auto, Some(Arc::clone(&script)));
    options.permissions.pre_approval = pre();
    let mut session = env
        .session_with_exec(&server, builtin("default"), options, exec())
        .unwrap();
    session.send("go", &mut Quiet).await.unwrap();
    assert_eq!(
        result_of(&session, "pre").content,
        "exit code: 0\n--- stdout ---\noutside"
    );
    let asked = script.asked();
    assert_eq!(asked.len(), 1);
    assert!(!asked[0].sandboxed);
    assert_eq!(
        asked[0].reason,
        format!("{why}; a command runs only once a person approves it")
    );
    // No one to ask: refused, and no mode or pattern is advised.
    let server = ScriptServer::openai(vec![
        openai_tools(&[("pre", "exec_shell", shell("echo $WHERE"))]),
        openai_text("done"),
    ])
    .await;
    let mut options = env.options(PermissionMode::Auto, None);
    options.permissions.pre_approval = pre();
    let mut session = env
        .session_with_exec(&server, builtin("default"), options, exec())
        .unwrap();
    session.send("go", &mut Quiet).await.unwrap();
    let refused = result_of(&session, "pre");
    assert!(refused.is_error);
    assert!(
        refused
            .content
            .starts_with(&format!("approval needed: {why}"))
            && refused.content.contains(
                "the sandbox is unavailable here, so a command runs only once a person approves it"
            ),
        "{}",
        refused.content
    );
}

/// A launcher that prints `place` before it runs the shell.
fn announcing(place: &str) -> ShellLauncher {
    ShellLauncher::Wrapper {
        program: PathBuf::from("/bin/sh"),
        args: vec![
            "-c".into(),
            format!("echo {place}; exec \"$@\"").into(),
            "launcher".into(),
        ],
        note: String::new(),
    }
}

#[tokio::test]
async fn read_only_commands_run_without_asking_in_the_read_only_sandbox() {
    for mode in [
        PermissionMode::Ask,
        PermissionMode::AcceptEdits,
        PermissionMode::DontAsk,
    ] {
        let env = Env::new();
        env.file("src/main.rs", "fn main() {}");
        let server = ScriptServer::openai(vec![
            openai_tools(&[
                ("ls", "exec_shell", shell("ls src | wc -l")),
                ("Bash", "Bash", shell("cat src/main.rs")),
                ("touch", "exec_shell", shell("touch a")),
                ("outside", "exec_shell", shell("cat /etc/hostname")),
            ]),
            openai_text("done"),
        ])
        .await;
        let exec = ExecConfig {
            launcher: announcing("sandbox"),
            unsandboxed: Some(announcing("outside")),
            reading: Some(announcing("reading")),
            env: [("PATH".into(), "/usr/bin:/bin".into())].into(),
            ..ExecConfig::default()
        };
        // No one to ask: what would need a person is refused.
        let mut session = env
            .session_with_exec(&server, builtin("default"), env.options(mode, None), exec)
            .unwrap();
        session.send("go", &mut Quiet).await.unwrap();
        assert_eq!(
            result_of(&session, "ls").content,
            "exit code: 0\n--- stdout ---\nreading\n1",
            "{mode}"
        );
        assert_eq!(
            result_of(&session, "Bash").content,
            "exit code: 0\n--- stdout ---\nreading\nfn main() {}",
            "{mode}"
        );
        for id in ["touch", "outside"] {
            let refused = result_of(&session, id);
            assert!(refused.is_error, "{mode} {id}: {}", refused.content);
            assert!(!env.project.join("a").exists());
        }
        // `dont-ask` refuses them itself; the others for want of someone to ask.
        let unasked = if mode == PermissionMode::DontAsk {
            0
        } else {
            2
        };
        assert_eq!(session.refused_calls().len(), unasked, "{mode}");
    }
}

#[tokio::test]
async fn without_a_read_only_sandbox_a_read_only_command_asks() {
    let why = "the sandbox is required (sandbox.required) but unavailable: no Landlock";
    // No sandbox to read in (switched off), and a required sandbox that is unavailable.
    let configs = [
        ExecConfig {
            launcher: announcing("unsandboxed"),
            ..ExecConfig::default()
        },
        ExecConfig {
            launcher: ShellLauncher::Refuse(why.to_owned()),
            unsandboxed: Some(announcing("outside")),
            reading: Some(announcing("reading")),
            ..ExecConfig::default()
        },
    ];
    for exec in configs {
        let env = Env::new();
        let server = ScriptServer::openai(vec![
            openai_tools(&[("ls", "exec_shell", shell("ls"))]),
            openai_text("done"),
        ])
        .await;
        let script = Script::new([ApprovalAnswer::AllowOnce]);
        let options = env.options(PermissionMode::Ask, Some(Arc::clone(&script)));
        let mut session = env
            .session_with_exec(&server, builtin("default"), options, exec)
            .unwrap();
        session.send("go", &mut Quiet).await.unwrap();
        assert_eq!(script.asked().len(), 1);
        // A person's yes runs it as any approved command: never in the reading launcher.
        let result = &result_of(&session, "ls").content;
        assert!(!result.contains("reading"), "{result}");
    }
}

/// A skill's `allowed-tools` pre-approves what it matches while the skill is active, when the
/// skill is trusted: the user's own, and a project's only when the project is trusted. It
/// still restricts, and after the turn the same call asks again.
#[tokio::test]
async fn a_trusted_active_skills_allowed_tools_pre_approve_until_the_turn_ends() {
    const SKILL: &str =
        "---\nname: tidy\ndescription: Tidy up\nallowed-tools: Bash(touch:*)\n---\n\nTidy.\n";
    // (where the skill is, the project trusted, whether it pre-approves)
    for (place, trusted, pre_approves) in [
        ("user", false, true),
        ("project", false, false),
        ("project", true, true),
    ] {
        let env = Env::new();
        match place {
            "user" => {
                write_at(
                    &env.tmp.path().join("home/.clawft/skills/tidy/SKILL.md"),
                    SKILL,
                );
            }
            _ => {
                env.file(".clawft/skills/tidy/SKILL.md", SKILL);
            }
        }
        let server = ScriptServer::openai(vec![
            openai_tool("s", "use_skill", json!({"skill": "tidy"})),
            openai_tools(&[
                ("a", "exec_shell", shell("touch a")),
                ("x", "exec_shell", shell("mkdir x")),
            ]),
            openai_text("done"),
            openai_tool("b", "exec_shell", shell("touch b")),
            openai_text("done"),
        ])
        .await;
        let mut options = env.options(PermissionMode::Ask, None);
        options.permissions.project_skills_pre_approve = trusted;
        let mut session = env
            .session_with(&server, builtin("default"), options)
            .unwrap();
        session.send("go", &mut Quiet).await.unwrap();
        let label = format!("{place} trusted={trusted}");
        let a = result_of(&session, "a");
        assert_eq!(
            env.project.join("a").exists(),
            pre_approves,
            "{label}: {}",
            a.content
        );
        if !pre_approves {
            assert!(
                a.content.starts_with("approval needed: "),
                "{label}: {}",
                a.content
            );
        }
        // It still restricts: `mkdir` is not among its tools.
        let x = result_of(&session, "x");
        assert!(
            x.content.starts_with("permission denied: "),
            "{label}: {}",
            x.content
        );
        // The turn is over, the skill inactive: the same kind of call asks (and is refused).
        session.send("again", &mut Quiet).await.unwrap();
        let b = result_of(&session, "b");
        assert!(
            b.content.starts_with("approval needed: "),
            "{label}: {}",
            b.content
        );
        assert!(!env.project.join("b").exists());
    }
}

fn write_at(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}
