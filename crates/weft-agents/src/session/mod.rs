//! The agent loop.
//!
//! A [`Session`] holds a conversation with one agent at a time. Each [`send`](Session::send)
//! appends the user's message, then repeats: ask the model (system prompt = agent prompt +
//! preloaded skills + skill catalog; tools = what the gate lets the agent see), execute every
//! tool call through the gate, append the results; until the model answers without tool calls
//! or `max_tool_iterations` rounds have run. Every message is appended to the transcript the
//! moment it exists.

mod always;
mod approval;
mod children;
mod dispatch;
mod dynamic;
mod error;
mod permissions;
mod prompt;
mod real_path;
mod refusal;
mod rules;
mod skill;
mod spawn;
mod subagent_error;
mod view;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use weft_llm::{ChatRequest, Message, ModelRef, RetryNotice, TextSink, ToolCall, Usage};
use weft_permissions::ToolGate;
use weft_registry::SkillRegistry;
use weft_registry::catalog::CatalogFormat;
use weft_tools::{ReadGrant, ReadGrants, ToolRegistry};
use weft_types::AgentDefinition;

use crate::ModelPool;
use crate::transcript::{
    LazyTranscript, SessionHistory, TranscriptRecord, TranscriptWriteError, now_millis,
};

pub use children::{ChildError, ChildStatus, ChildSummary};
pub use dynamic::{DynamicCommand, DynamicVerdict};
pub use error::SessionError;
pub use permissions::{ApprovalAnswer, ApprovalRequest, Approver, Permissions, RefusedCall};
pub use real_path::RealPath;
pub use rules::{CallJudgement, CallRules};
pub use skill::{Invoker, SkillInvocationError, USE_SKILL};
pub use spawn::ChildPlan;
pub use spawn::{
    SESSIONS_CANCEL, SESSIONS_LIST, SESSIONS_RESULT, SESSIONS_SPAWN, SpawnFailure, SpawnRequest,
    SpawnSettings, SubagentError,
};
pub use view::{AgentView, agent_gate, agent_mode};

/// Settings of a session that do not come from the agent definition.
#[derive(Debug, Clone)]
pub struct SessionOptions {
    /// Session id (transcript file name, `$SESSION_ID` in skills).
    pub session_id: String,
    /// Stream text to the events sink as it arrives.
    pub stream: bool,
    /// Tool-call rounds per message when the agent sets none.
    pub max_tool_iterations: u32,
    /// Temperature when the agent sets none.
    pub temperature: Option<f32>,
    /// Output token cap per model call.
    pub max_tokens: Option<u32>,
    /// Context window when the agent sets none (sizes the skill catalog budget).
    pub context_window: Option<u64>,
    /// How the skill catalog is rendered.
    pub catalog_format: CatalogFormat,
    /// SEC-SKILL-03: a rendered skill body longer than this is truncated (with a warning).
    pub max_skill_prompt_bytes: usize,
    /// Where `<session-id>.jsonl` is written; `None` keeps no transcript.
    pub transcript_dir: Option<PathBuf>,
    /// The project directory: `${CLAUDE_PROJECT_DIR}` and the base of relative paths in
    /// permission rules; named in the system prompt.
    pub project_dir: Option<PathBuf>,
    /// The directory the session works in (the project, else the current directory),
    /// recorded in the transcript so `--continue` finds a directory's latest session.
    pub cwd: Option<PathBuf>,
    /// An outer limit every agent view stays within (a parent's effective set, a
    /// configuration-wide deny list). Unrestricted by default.
    pub ceiling: ToolGate,
    /// Only these skills appear in the catalog and can be invoked (a subagent given
    /// `skills`); `None` means every skill.
    pub skill_filter: Option<Vec<String>>,
    /// Subagents: who can be spawned, how deep, how many at once.
    pub spawn: SpawnSettings,
    /// Reasoning effort for every request (a fork skill's child gets the skill's `effort`);
    /// an inline skill's effort beats it for its turn.
    pub effort: Option<String>,
    /// Where the session makes a loaded skill's directory readable (read-only) while the
    /// skill is loaded; the file tools' [`FsScope`](weft_tools::FsScope) must share it
    /// ([`FsScope::with_grants`](weft_tools::FsScope::with_grants)).
    pub read_grants: ReadGrants,
    /// The permission mode, pre-approval and who is asked (default: `ask`, nothing
    /// pre-approved, no one to ask: every call that may change something is refused).
    pub permissions: Permissions,
    /// Run skills' dynamic-context commands (`` !`cmd` ``, ```` ```! ````) when they load,
    /// each as an `exec_shell` call (default true; `skills.dynamic_context: false`).
    pub dynamic_context: bool,
}

impl Default for SessionOptions {
    fn default() -> Self {
        Self {
            session_id: crate::transcript::new_session_id(),
            stream: false,
            max_tool_iterations: 20,
            temperature: None,
            max_tokens: None,
            context_window: None,
            catalog_format: CatalogFormat::Weft,
            max_skill_prompt_bytes: 32 * 1024,
            transcript_dir: None,
            project_dir: None,
            cwd: None,
            ceiling: ToolGate::unrestricted(),
            skill_filter: None,
            spawn: SpawnSettings::default(),
            effort: None,
            read_grants: ReadGrants::new(),
            permissions: Permissions::default(),
            dynamic_context: true,
        }
    }
}

/// What a session is built from.
#[derive(Debug, Clone)]
pub struct SessionParts {
    /// Models and their clients.
    pub models: Arc<ModelPool>,
    /// Skills (catalog, `use_skill`, preloaded skills).
    pub skills: Arc<SkillRegistry>,
    /// Every tool the runtime has; the agent and skills see a filtered view.
    pub tools: ToolRegistry,
    /// The starting agent.
    pub agent: AgentDefinition,
    /// A model chosen explicitly (`--model`), beating the agent's.
    pub model: Option<String>,
    /// Everything else.
    pub options: SessionOptions,
}

/// Why a turn stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnStop {
    /// The model answered without asking for tools.
    Answered,
    /// The model hit its output token cap.
    MaxTokens,
    /// The model still wanted tools after `limit` rounds; those calls were not run.
    IterationLimit {
        /// The cap.
        limit: u32,
    },
}

/// The result of one [`Session::send`].
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    /// The model's last text.
    pub text: String,
    /// Why the turn ended.
    pub stop: TurnStop,
    /// Tokens used by this turn.
    pub usage: Usage,
    /// Tool calls the model made (run or refused).
    pub tool_calls: usize,
    /// Model calls made.
    pub model_calls: u32,
}

/// Observes a turn as it happens (the CLI prints from here).
pub trait SessionEvents: Send {
    /// Streamed assistant text.
    fn text(&mut self, _delta: &str) {}
    /// The model asked for a tool.
    fn tool_call(&mut self, _call: &ToolCall) {}
    /// A tool call finished (or was refused).
    fn tool_result(&mut self, _call: &ToolCall, _result: &Message) {}
    /// The model answered one request: its whole message (text and tool calls) and the
    /// tokens of that call.
    fn model_reply(&mut self, _message: &Message, _usage: &Usage) {}
    /// Something the user should know that changes how the turn runs (a model alias that no
    /// provider serves, replaced by the session's model); one line.
    fn notice(&mut self, _text: &str) {}
    /// A request is going to `model`; until [`model_call_finished`](Self::model_call_finished)
    /// (or the first [`text`](Self::text)) the user is waiting for it.
    fn model_call_started(&mut self, _model: &ModelRef) {}
    /// The model's answer is complete, or the request failed. Not called when the turn is
    /// cancelled while waiting (the caller knows it cancelled).
    fn model_call_finished(&mut self) {}
    /// The request failed and is about to be sent again.
    fn retrying(&mut self, _notice: &RetryNotice) {}
}

/// Events that go nowhere.
#[derive(Debug, Default, Clone, Copy)]
pub struct Quiet;

impl SessionEvents for Quiet {}

struct TextEvents<'a>(&'a mut dyn SessionEvents);

impl TextSink for TextEvents<'_> {
    fn text(&mut self, delta: &str) {
        self.0.text(delta);
    }

    fn retrying(&mut self, notice: &RetryNotice) {
        self.0.retrying(notice);
    }
}

/// A conversation with one agent at a time.
pub struct Session {
    options: SessionOptions,
    models: Arc<ModelPool>,
    skills: Arc<SkillRegistry>,
    tools: ToolRegistry,
    view: AgentView,
    /// The model chosen explicitly for the session (`--model`): it beats every agent's.
    explicit_model: Option<String>,
    /// The view's gate narrowed by skills active in this turn.
    gate: ToolGate,
    active_skills: Vec<String>,
    /// Conditional skills (`paths:`) the session's file tools revealed: listed from then on.
    revealed: std::collections::BTreeSet<String>,
    /// The model of this turn when an active skill chose one (`model:`); cleared at its end.
    turn_model: Option<ModelRef>,
    /// The reasoning effort of this turn when an active skill set one (`effort:`).
    turn_effort: Option<String>,
    /// What the active skill's body left unfilled (for `--dry-run`).
    unfilled: Vec<String>,
    /// The last loaded skill's dynamic-context commands and what became of them.
    dynamic: Vec<DynamicCommand>,
    /// Nothing runs: dynamic-context commands are judged, not run (`--dry-run`).
    dry_run: bool,
    /// Notices not yet shown (see [`SessionEvents::notice`]).
    notices: Vec<String>,
    /// The directories of the skills active in this turn, readable until it ends.
    turn_grants: Vec<ReadGrant>,
    /// The directories of the agent's preloaded skills (and a fork skill's, in its
    /// subagent), readable while the view lasts.
    view_grants: Vec<ReadGrant>,
    messages: Vec<Message>,
    transcript: Option<LazyTranscript>,
    usage: Usage,
    prompt_cache: prompt::PromptCache,
    /// Subagents this session started.
    children: Arc<children::Children>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("id", &self.options.session_id)
            .field("agent", &self.view.agent.name)
            .field("model", &self.view.model.to_string())
            .field("messages", &self.messages.len())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Builds a session: resolves the model and compiles the agent's tool policy. Nothing is
    /// sent, and nothing is written until the session does something (see
    /// [`LazyTranscript`]).
    pub fn new(parts: SessionParts) -> Result<Self, SessionError> {
        Self::build(parts, |view, options| TranscriptRecord::Session {
            session_id: options.session_id.clone(),
            agent: view.agent.name.clone(),
            model: view.model.to_string(),
            at: now_millis(),
            parent: options.spawn.parent.clone(),
            cwd: options.cwd.clone(),
        })
    }

    /// Resumes the session `history` was read from: its id, conversation, tokens and
    /// subagent count, with the agent and model of `parts` (the caller chooses: the ones the
    /// transcript ended with, or the user's). It appends to the same transcript, starting
    /// with a `resumed` record, once it does something.
    pub fn resume(mut parts: SessionParts, history: SessionHistory) -> Result<Self, SessionError> {
        parts.options.session_id.clone_from(&history.session_id);
        let mut session = Self::build(parts, |view, _| TranscriptRecord::Resumed {
            at: now_millis(),
            agent: view.agent.name.clone(),
            model: view.model.to_string(),
        })?;
        session.messages = history.messages;
        session.usage = history.usage;
        session.children.skip_numbers(history.children);
        Ok(session)
    }

    fn build(
        parts: SessionParts,
        header: impl FnOnce(&AgentView, &SessionOptions) -> TranscriptRecord,
    ) -> Result<Self, SessionError> {
        let SessionParts {
            models,
            skills,
            tools,
            agent,
            model,
            options,
        } = parts;
        let mut options = options;
        // Paths are compared after symbolic links are resolved: the project's too.
        if let Some(dir) = &options.project_dir
            && let Ok(real) = std::fs::canonicalize(dir)
        {
            options.project_dir = Some(real);
        }
        let view = AgentView::build(agent, model.as_deref(), None, &models, &options)?;
        let mut tools = tools;
        options.permissions.tools_for_mode(&mut tools, view.mode);
        let explicit_model = model;
        let transcript = options
            .transcript_dir
            .as_ref()
            .map(|dir| LazyTranscript::new(dir, &options.session_id, header(&view, &options)));
        let notices = view.notice.iter().cloned().collect();
        let view_grants = skill::grant_dirs(&skills, &options.read_grants, &view.agent.skills);
        Ok(Self {
            gate: view.gate.clone(),
            turn_grants: Vec::new(),
            view_grants,
            options,
            models,
            skills,
            tools,
            view,
            explicit_model,
            active_skills: Vec::new(),
            revealed: std::collections::BTreeSet::new(),
            turn_model: None,
            turn_effort: None,
            unfilled: Vec::new(),
            dynamic: Vec::new(),
            dry_run: false,
            notices,
            messages: Vec::new(),
            transcript,
            usage: Usage::default(),
            prompt_cache: prompt::PromptCache::default(),
            children: Arc::default(),
        })
    }

    /// The session id.
    pub fn id(&self) -> &str {
        &self.options.session_id
    }

    /// The agent in effect.
    pub fn agent(&self) -> &AgentDefinition {
        &self.view.agent
    }

    /// The resolved view of the agent (model, gate, temperature, iteration cap).
    pub fn view(&self) -> &AgentView {
        &self.view
    }

    /// The agent's model (see [`turn_model`](Self::turn_model) for the current turn's).
    pub fn model(&self) -> &ModelRef {
        &self.view.model
    }

    /// The model the next request goes to: an active skill's `model:`, else the agent's.
    pub fn turn_model(&self) -> &ModelRef {
        self.turn_model.as_ref().unwrap_or(&self.view.model)
    }

    /// The placeholders the last activated skill's body left unfilled.
    pub fn unfilled_placeholders(&self) -> &[String] {
        &self.unfilled
    }

    /// The notices not yet shown (a model alias replaced by the session's model...); a turn
    /// shows them through [`SessionEvents::notice`], a dry run takes them here.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// The gate calls are checked against right now (the agent's, narrowed by active skills).
    pub fn gate(&self) -> &ToolGate {
        &self.gate
    }

    /// The conversation so far.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Tokens used since the session started.
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// The skill registry.
    pub fn skills(&self) -> &Arc<SkillRegistry> {
        &self.skills
    }

    /// Every tool the runtime has (unfiltered).
    pub fn tools(&self) -> &ToolRegistry {
        &self.tools
    }

    /// The transcript file, when one is kept (it exists once the session has done
    /// something).
    pub fn transcript_path(&self) -> Option<&Path> {
        self.transcript.as_ref().map(LazyTranscript::path)
    }

    /// Skills active in the current turn.
    pub fn active_skills(&self) -> &[String] {
        &self.active_skills
    }

    /// Switches agent: model, temperature, iteration cap, tools, preloaded skills and system
    /// prompt all come from `agent` over the session's options, so switching back to
    /// `default` restores the original view. `model` beats the agent's model; without it the
    /// session's explicit model (if it was started with one) does. On error the current
    /// agent stays.
    pub fn apply_agent(
        &mut self,
        agent: AgentDefinition,
        model: Option<&str>,
    ) -> Result<(), SessionError> {
        let model = model.or(self.explicit_model.as_deref());
        let view = AgentView::build(agent, model, None, &self.models, &self.options)?;
        self.record(TranscriptRecord::Agent {
            at: now_millis(),
            agent: view.agent.name.clone(),
            model: view.model.to_string(),
        })?;
        self.gate = view.gate.clone();
        self.options
            .permissions
            .tools_for_mode(&mut self.tools, view.mode);
        self.notices.extend(view.notice.clone());
        self.view_grants =
            skill::grant_dirs(&self.skills, &self.options.read_grants, &view.agent.skills);
        self.view = view;
        self.active_skills.clear();
        self.turn_grants.clear();
        self.prompt_cache = prompt::PromptCache::default();
        Ok(())
    }

    /// Forgets the conversation (the transcript keeps it, and marks the point so a resumed
    /// session starts after it).
    pub fn clear(&mut self) -> Result<(), SessionError> {
        self.record(TranscriptRecord::Clear { at: now_millis() })?;
        self.messages.clear();
        self.end_turn();
        Ok(())
    }

    /// The request the next model call would send after `user_text` (for `--dry-run`).
    pub fn preview(&mut self, user_text: &str) -> ChatRequest {
        let mut request = self.request();
        request.messages.push(Message::user(user_text));
        request
    }

    /// Sends a user message and runs the loop until the model answers.
    ///
    /// Cancel-safe: if the future is dropped mid-turn (Ctrl-C), the next turn first answers
    /// any tool call left without a result and drops the interrupted turn's skills, so the
    /// conversation stays valid for the providers and the gate is the agent's again.
    pub async fn send(
        &mut self,
        text: impl Into<String>,
        events: &mut dyn SessionEvents,
    ) -> Result<TurnOutcome, SessionError> {
        self.begin_turn()?;
        let text = self.with_child_results(text.into())?;
        let result = self.run_turn(Message::user(text), events).await;
        self.end_turn();
        result
    }

    /// Prepares a skill run by the user (`weft skills run`, `/name args`): starts a turn,
    /// activates the skill (its allowed tools narrow the gate until the turn ends) and returns
    /// the user message, `[Skill: <name>]`, a blank line and the rendered body (seed 004).
    /// [`run_skill`](Self::run_skill) sends it; a dry run can [`preview`](Self::preview) it.
    pub async fn prepare_user_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
    ) -> Result<String, SessionError> {
        self.begin_turn()?;
        match self.activate_skill(name, args, Invoker::User).await {
            Ok(text) => Ok(format!("[Skill: {name}]\n\n{text}")),
            Err(e) => {
                self.end_turn();
                Err(e.into())
            }
        }
    }

    /// Runs a skill as the user: [`prepare_user_skill`](Self::prepare_user_skill), then the
    /// loop.
    pub async fn run_skill(
        &mut self,
        name: &str,
        args: Vec<String>,
        events: &mut dyn SessionEvents,
    ) -> Result<TurnOutcome, SessionError> {
        if self.is_fork_skill(name) {
            return self.run_user_fork(name, args).await;
        }
        let text = self.prepare_user_skill(name, args).await?;
        let text = self.with_child_results(text)?;
        let result = self.run_turn(Message::user(text), events).await;
        self.end_turn();
        result
    }

    /// A fork skill run by the user: the subagent does the work; the parent's conversation
    /// gets the invocation and the subagent's final message, so later turns can build on it.
    async fn run_user_fork(
        &mut self,
        name: &str,
        args: Vec<String>,
    ) -> Result<TurnOutcome, SessionError> {
        self.begin_turn()?;
        let child = self.run_fork_skill(name, args, Invoker::User).await?;
        let text = match &child.status {
            ChildStatus::Completed { result } => result.clone(),
            ChildStatus::TimedOut { .. } => {
                let timeout_ms = child.duration_ms;
                return Err(SubagentError::ExecutionTimeout {
                    subagent_type: child.agent,
                    timeout_ms,
                }
                .into());
            }
            other => {
                return Err(SubagentError::SpawnFailed {
                    subagent_type: child.agent.clone(),
                    source: SpawnFailure::ChildEnded(other.text().to_owned()),
                }
                .into());
            }
        };
        self.push(Message::user(format!(
            "[Skill: {name}] (run in subagent {} with agent {})",
            child.id, child.agent
        )))?;
        self.push(Message::assistant(text.clone(), Vec::new()))?;
        Ok(TurnOutcome {
            text,
            stop: TurnStop::Answered,
            usage: child.usage,
            tool_calls: 0,
            model_calls: 0,
        })
    }

    /// `text` preceded by the results of background subagents that ended since the last
    /// turn (the parent learns of them here, and through `sessions_result`).
    fn with_child_results(&mut self, text: String) -> Result<String, SessionError> {
        let finished = self.collect_finished_children()?;
        if finished.is_empty() {
            return Ok(text);
        }
        let mut out = String::from("[Background subagents finished]\n");
        for child in &finished {
            out.push_str(&format!(
                "\n## {} ({}, {}, {} ms)\n{}\n",
                child.id,
                child.agent,
                child.status.label(),
                child.duration_ms,
                child.status.text()
            ));
        }
        out.push_str("\n---\n\n");
        out.push_str(&text);
        Ok(out)
    }

    /// Starts a turn: closes an interrupted one, drops its skills, and sees skills installed,
    /// changed or removed since the last one ([`refresh_skills`](Self::refresh_skills)).
    fn begin_turn(&mut self) -> Result<(), SessionError> {
        self.end_turn();
        self.refresh_skills();
        self.close_interrupted_turn()
    }

    /// Reloads the skill registry when a skill file or directory changed since it was last
    /// read (a `stat` per skill when nothing did; see
    /// [`SkillRegistry::refresh`](weft_registry::SkillRegistry::refresh)). Every turn starts
    /// with it, so the catalog, `use_skill` and `/name` see what `weft skills install` (or an
    /// editor) did meanwhile. True when something changed.
    pub fn refresh_skills(&self) -> bool {
        self.skills.refresh().is_some()
    }

    async fn run_turn(
        &mut self,
        message: Message,
        events: &mut dyn SessionEvents,
    ) -> Result<TurnOutcome, SessionError> {
        self.push(message)?;
        let limit = self.view.max_tool_iterations;
        let mut outcome = TurnOutcome {
            text: String::new(),
            stop: TurnStop::Answered,
            usage: Usage::default(),
            tool_calls: 0,
            model_calls: 0,
        };
        let mut rounds = 0u32;
        loop {
            for notice in self.notices.drain(..) {
                events.notice(&notice);
            }
            // Per round: a skill activated by the model (`use_skill`) may switch the model.
            let client = match self.models.client(self.turn_model()) {
                Ok(client) => client,
                Err(e) => return Err(self.unanswered(e.into())),
            };
            let request = self.request();
            events.model_call_started(self.turn_model());
            let response = client
                .chat(&request, self.options.stream, &mut TextEvents(events))
                .await;
            events.model_call_finished();
            let response = match response {
                Ok(response) => response,
                Err(e) => return Err(self.unanswered(e.into())),
            };
            outcome.model_calls += 1;
            events.model_reply(&response.message, &response.usage);
            outcome.usage += response.usage;
            self.usage += response.usage;
            self.record(TranscriptRecord::Usage {
                at: now_millis(),
                usage: response.usage,
            })?;
            let calls = response.message.tool_calls.clone();
            outcome.text.clone_from(&response.message.content);
            self.push(response.message)?;
            outcome.tool_calls += calls.len();
            if calls.is_empty() {
                if response.stop_reason == weft_llm::StopReason::MaxTokens {
                    outcome.stop = TurnStop::MaxTokens;
                }
                return Ok(outcome);
            }
            if rounds >= limit {
                // Every tool call needs a result before the next user message, or the
                // providers reject the conversation.
                for call in &calls {
                    let result = Message::tool_result(
                        &call.id,
                        format!(
                            "not run: the limit of {limit} tool-call rounds for one message was reached"
                        ),
                        true,
                    );
                    events.tool_result(call, &result);
                    self.push(result)?;
                }
                outcome.stop = TurnStop::IterationLimit { limit };
                return Ok(outcome);
            }
            rounds += 1;
            for call in &calls {
                events.tool_call(call);
                let result = self.dispatch(call).await;
                events.tool_result(call, &result);
                self.push(result)?;
            }
        }
    }

    /// The request for the conversation as it stands.
    fn request(&mut self) -> ChatRequest {
        let tools = self.offered_tools();
        let system = self.system_prompt(&tools);
        ChatRequest {
            model: self.turn_model().model.clone(),
            system: Some(system),
            messages: self.messages.clone(),
            tools,
            temperature: self.view.temperature,
            max_tokens: self.options.max_tokens,
            reasoning_effort: self
                .turn_effort
                .clone()
                .or_else(|| self.options.effort.clone()),
        }
    }

    /// Gives every tool call of the last assistant message that has no result a "cancelled"
    /// result (a turn that was interrupted).
    fn close_interrupted_turn(&mut self) -> Result<(), SessionError> {
        let Some(last_assistant) = self
            .messages
            .iter()
            .rposition(|m| m.role == weft_llm::Role::Assistant)
        else {
            return Ok(());
        };
        let answered: Vec<String> = self.messages[last_assistant..]
            .iter()
            .filter_map(|m| m.tool_call_id.clone())
            .collect();
        let missing: Vec<String> = self.messages[last_assistant]
            .tool_calls
            .iter()
            .filter(|c| !answered.contains(&c.id))
            .map(|c| c.id.clone())
            .collect();
        for id in missing {
            self.push(Message::tool_result(
                id,
                "cancelled: the turn was interrupted",
                true,
            ))?;
        }
        Ok(())
    }

    /// Deactivates the turn's skills: the gate returns to the agent's, their directories are
    /// no longer readable.
    fn end_turn(&mut self) {
        self.turn_model = None;
        self.turn_effort = None;
        self.turn_grants.clear();
        if !self.active_skills.is_empty() {
            self.active_skills.clear();
            self.gate = self.view.gate.clone();
        }
    }

    /// A model call failed with `error`. If the session never got an answer and recorded
    /// nothing else, its transcript is taken back (a run that never reached the model leaves
    /// no session behind); the conversation stays in memory and is written if it goes on.
    fn unanswered(&mut self, error: SessionError) -> SessionError {
        if let Some(t) = self.transcript.as_mut() {
            match t.withdraw() {
                Ok(true) => {
                    tracing::info!(path = %t.path().display(), "no answer; transcript removed")
                }
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(path = %t.path().display(), error = %e, "cannot remove the transcript of a session without an answer")
                }
            }
        }
        error
    }

    fn push(&mut self, message: Message) -> Result<(), SessionError> {
        self.record(TranscriptRecord::Message {
            at: now_millis(),
            message: message.clone(),
        })?;
        self.messages.push(message);
        Ok(())
    }

    fn record(&mut self, record: TranscriptRecord) -> Result<(), TranscriptWriteError> {
        if let Some(t) = self.transcript.as_mut() {
            t.append(record).map_err(|source| TranscriptWriteError {
                path: t.path().to_path_buf(),
                source,
            })?;
        }
        Ok(())
    }
}
