//! The fixture the REPL tests share: a session over an in-process model and three skills.

// Each test binary uses a different part of this module.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::json;
use weft_agents::{AgentRegistry, ModelPool, Permissions, Session, SessionOptions, SessionParts};
use weft_llm::{
    ChatModel, ChatRequest, ChatResponse, LlmError, Message, ModelCatalog, Role, StopReason,
    TextSink, ToolCall, Usage,
};
use weft_registry::{RegistryConfig, SkillRegistry, SkillRoot};
use weft_repl::{CommandContext, Dispatch, Interrupt, PluginEnv, Repl, ReplEnv, WorkspaceInfo};
use weft_tools::{BuiltinConfig, ExecConfig, FsScope};
use weft_types::{PermissionMode, Scope};

/// Answers `echo: <last user message>`; hangs on "hang", fails on "fail", calls `exec_shell`
/// with the rest of a message starting `shell: `; records requests.
/// The in-process model.
#[derive(Default)]
pub struct FakeModel {
    pub requests: Mutex<Vec<ChatRequest>>,
}

#[async_trait]
impl ChatModel for FakeModel {
    fn provider(&self) -> &str {
        "fake"
    }

    async fn chat(
        &self,
        request: &ChatRequest,
        _stream: bool,
        _sink: &mut dyn TextSink,
    ) -> Result<ChatResponse, LlmError> {
        self.requests.lock().unwrap().push(request.clone());
        let last = request
            .messages
            .iter()
            .rev()
            .find(|m| m.role == Role::User)
            .map(|m| m.content.clone())
            .unwrap_or_default();
        if last == "hang" {
            std::future::pending::<()>().await;
        }
        if last == "fail" {
            return Err(LlmError::Config("fake: the provider is down".to_owned()));
        }
        let answered = request
            .messages
            .last()
            .is_some_and(|m| m.role == Role::Tool);
        if let Some(command) = last.strip_prefix("shell: ")
            && !answered
        {
            let call = ToolCall {
                id: "call_shell".to_owned(),
                name: "exec_shell".to_owned(),
                arguments: json!({"command": command}),
            };
            return Ok(ChatResponse {
                message: Message::assistant(String::new(), vec![call]),
                stop_reason: StopReason::ToolUse,
                usage: Usage::default(),
            });
        }
        Ok(ChatResponse {
            message: Message::assistant(format!("echo: {last}"), Vec::new()),
            stop_reason: StopReason::EndTurn,
            usage: Usage::new(10, 2),
        })
    }
}

/// Writes `<root>/<name>/SKILL.md`.
pub fn write_skill(root: &Path, name: &str, frontmatter: &str, body: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: The {name} skill.\n{frontmatter}---\n{body}\n"),
    )
    .unwrap();
}

/// A REPL over the fake model.
pub struct Fixture {
    pub _tmp: tempfile::TempDir,
    pub model: Arc<FakeModel>,
    pub repl: Repl,
    /// The width commands fit listings to (`None`: not a terminal).
    pub width: Option<usize>,
}

/// A fixture whose turns Ctrl-C cancels.
pub fn fixture() -> Fixture {
    fixture_with(Interrupt::CtrlC)
}

/// A fixture whose turns `interrupt` cancels.
pub fn fixture_with(interrupt: Interrupt) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let skills_dir = tmp.path().join("skills");
    write_skill(
        &skills_dir,
        "research",
        "argument-hint: \"[topic] [depth]\"\nallowed-tools: read_file\n",
        "Research $0 to depth $1.",
    );
    write_skill(
        &skills_dir,
        "deploy",
        "context: fork\n",
        "Deploy $ARGUMENTS.",
    );
    write_skill(
        &skills_dir,
        "background-only",
        "user-invocable: false\n",
        "Model only.",
    );
    let mut config = RegistryConfig::with_roots(vec![SkillRoot::new(&skills_dir, Scope::Project)]);
    config.builtins = false;
    let skills = Arc::new(SkillRegistry::new(config));
    let model = Arc::new(FakeModel::default());
    let client: Arc<dyn ChatModel> = model.clone();
    let models = Arc::new(ModelPool::new(ModelCatalog::default()).with_client("fake", client));
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let memory_file = tmp.path().join("MEMORY.md");
    std::fs::write(
        &memory_file,
        "# Notes\nThe deploy key rotates monthly.\nuse tabs\n",
    )
    .unwrap();
    let tools = weft_tools::builtin_registry(&BuiltinConfig {
        scope: FsScope::new(project.clone(), vec![]).unwrap(),
        memory_file: memory_file.clone(),
        exec: ExecConfig::default(),
        web_fetch: None,
    });
    let agents = AgentRegistry::builtins();
    let session = Session::new(SessionParts {
        models: Arc::clone(&models),
        skills,
        tools,
        agent: agents.get("default").unwrap().agent.clone(),
        model: Some("fake/m".to_owned()),
        // Commands run without asking (the approval prompt has its own PTY test in weft-cli).
        options: SessionOptions {
            project_dir: Some(project.clone()),
            permissions: Permissions::new(PermissionMode::Auto),
            ..SessionOptions::default()
        },
    })
    .unwrap();
    let env = ReplEnv {
        agents,
        models,
        config: json!({
            "model": "fake/m",
            "agent": {"temperature": 0.2},
            "providers": {"fake": {"base_url": "http://127.0.0.1:9", "api_key": "sk-secret"}}
        }),
        config_origins: vec![
            vec![
                "agent.temperature".to_owned(),
                "0.2".to_owned(),
                "~/.clawft/config.json".to_owned(),
            ],
            vec![
                "model".to_owned(),
                "fake/m".to_owned(),
                "env WEFT_MODEL".to_owned(),
            ],
        ],
        workspace: WorkspaceInfo {
            project: Some(project),
            home: Some(tmp.path().to_path_buf()),
            memory_file: Some(memory_file),
            ..WorkspaceInfo::default()
        },
        plugins: PluginEnv::default(),
    };
    Fixture {
        _tmp: tmp,
        model,
        repl: Repl::new(session, env).with_interrupt(interrupt),
        width: None,
    }
}

impl Fixture {
    /// Dispatches `line` and returns the result and what was printed.
    pub async fn dispatch(&mut self, line: &str) -> (Dispatch, String) {
        let mut out = Vec::new();
        let repl = &mut self.repl;
        let mut ctx = CommandContext {
            commands: &repl.commands,
            session: &mut repl.session,
            env: &mut repl.env,
            out: &mut out,
            width: self.width,
        };
        let result = repl.commands.dispatch(line, &mut ctx).await.unwrap();
        (result, String::from_utf8(out).unwrap())
    }

    /// Runs `line` through the REPL (dispatch and turn) and returns what was printed.
    pub async fn line(&mut self, line: &str) -> (bool, String) {
        let mut out = Vec::new();
        let go_on = self.repl.handle_line(line, &mut out).await.unwrap();
        (go_on, String::from_utf8(out).unwrap())
    }

    pub fn requests(&self) -> Vec<ChatRequest> {
        self.model.requests.lock().unwrap().clone()
    }
}
