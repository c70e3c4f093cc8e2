//! The agent loop.
//!
//! A [`Session`] holds a conversation with one agent at a time. Each [`send`](Session::send)
//! appends the user's message, then repeats: ask the model (system prompt = agent prompt +
//! preloaded skills + skill catalog; tools = what the gate lets the agent see), execute every
//! tool call through the gate, append the results; until the model answers without tool calls
//! or `max_tool_iterations` rounds have run. Every message is appended to the transcript the
//! moment it exists.
//!
//! This module holds the [`Session`] itself: how it is built or resumed, what it exposes, and
//! how it switches agent. `options.rs` holds what a session is built from, `turn.rs` one turn
//! of the loop and what it reports.

mod always;
mod approval;
mod callee;
mod children;
mod compact;
mod context;
mod dispatch;
mod dynamic;
mod error;
mod hooks;
mod options;
mod permissions;
mod prompt;
mod real_path;
mod refusal;
mod rules;
mod skill;
mod skill_news;
mod spawn;
mod spawn_tools;
mod spill;
mod subagent_error;
mod turn;
mod turn_state;
mod view;

use std::path::Path;
use std::sync::Arc;

use weft_llm::{Message, ModelRef, Usage};
use weft_permissions::ToolGate;
use weft_registry::SkillRegistry;
use weft_tools::{ReadGrant, ToolRegistry};
use weft_types::AgentDefinition;

use crate::ModelPool;
use crate::ledger::TokenLedger;
use crate::transcript::{
    LazyTranscript, SessionHistory, TranscriptRecord, TranscriptWriteError, now_millis,
};

pub use children::{ChildError, ChildStatus, ChildSummary};
pub use compact::{
    CompactStart, CompactTrigger, CompactionHook, CompactionReport, KEEP_TOKENS_MAX, SUMMARY_MARK,
};
pub use context::{
    BYTES_PER_TOKEN, ContextBreakdown, ContextUse, DEFAULT_CONTEXT_WINDOW, estimate_tokens,
};
pub use dynamic::{DynamicCommand, DynamicVerdict};
pub use error::SessionError;
pub use hooks::{MAX_STOP_BLOCKS, configured_hooks};
pub use options::{SessionOptions, SessionParts};
pub use permissions::{ApprovalAnswer, ApprovalRequest, Approver, Permissions, RefusedCall};
pub use real_path::RealPath;
pub use rules::{CallJudgement, CallRules};
pub use skill::{Invoker, SkillInvocationError, USE_SKILL};
pub use spawn::ChildPlan;
pub use spawn::{
    SESSIONS_CANCEL, SESSIONS_LIST, SESSIONS_RESULT, SESSIONS_SPAWN, SpawnFailure, SpawnRequest,
    SpawnSettings, SubagentError,
};
pub use turn::{Quiet, SessionEvents, TurnOutcome, TurnStop};
pub use view::{AgentView, agent_gate, agent_mode};
pub use weft_hooks::{EndReason, HookRun};

/// A conversation with one agent at a time.
pub struct Session {
    options: SessionOptions,
    models: Arc<ModelPool>,
    skills: Arc<SkillRegistry>,
    tools: ToolRegistry,
    view: AgentView,
    /// The model chosen explicitly for the session (`--model`): it beats every agent's.
    explicit_model: Option<String>,
    /// The active skills and what they brought, until the turn ends.
    turn: turn_state::TurnState,
    /// What the last skill loaded left unfilled and its dynamic-context commands.
    last_skill: turn_state::LastSkill,
    /// Conditional skills (`paths:`) the session's file tools revealed: listed from then on.
    revealed: std::collections::BTreeSet<String>,
    /// Nothing runs: dynamic-context commands are judged, not run (`--dry-run`).
    dry_run: bool,
    /// Notices not yet shown (see [`SessionEvents::notice`]).
    notices: Vec<String>,
    /// The directories of the agent's preloaded skills (and a fork skill's, in its
    /// subagent), readable while the view lasts.
    view_grants: Vec<ReadGrant>,
    messages: Vec<Message>,
    transcript: Option<LazyTranscript>,
    /// Tokens of the session's own model calls.
    usage: Usage,
    /// The same by model, and the subagents'.
    ledger: TokenLedger,
    /// The provider's count of the last request (the context estimate's anchor).
    measured: Option<context::Measured>,
    /// The model that answered it.
    measured_model: String,
    /// Compactions since the start (or the last `/clear`).
    compactions: u32,
    /// The size of a request the provider refused as too long: the window is smaller.
    window_cap: Option<u64>,
    /// The skills the model has been told about (the catalog, then announcements), with
    /// their descriptions.
    skills_known: std::collections::BTreeMap<String, String>,
    /// Where whole tool results go once one was cut.
    spill: Option<spill::SpillDir>,
    prompt_cache: prompt::PromptCache,
    /// Subagents this session started.
    children: Arc<children::Children>,
    /// When hooks run next, and what they reported.
    hooks: hooks::HookState,
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
        session.hooks.pending_start = Some(weft_hooks::StartSource::Resume);
        session.messages = history.messages;
        session.usage = history.usage;
        session.ledger = history.ledger;
        session.compactions = history.compactions;
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
            turn: turn_state::TurnState::default(),
            last_skill: turn_state::LastSkill::default(),
            view_grants,
            options,
            models,
            skills,
            tools,
            view,
            explicit_model,
            revealed: std::collections::BTreeSet::new(),
            dry_run: false,
            notices,
            messages: Vec::new(),
            transcript,
            usage: Usage::default(),
            ledger: TokenLedger::default(),
            measured: None,
            measured_model: String::new(),
            compactions: 0,
            window_cap: None,
            skills_known: std::collections::BTreeMap::new(),
            spill: None,
            prompt_cache: prompt::PromptCache::default(),
            children: Arc::default(),
            hooks: hooks::HookState {
                pending_start: Some(weft_hooks::StartSource::Startup),
                ..hooks::HookState::default()
            },
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
        self.turn.model.as_ref().unwrap_or(&self.view.model)
    }

    /// The placeholders the last activated skill's body left unfilled.
    pub fn unfilled_placeholders(&self) -> &[String] {
        &self.last_skill.unfilled
    }

    /// The notices not yet shown (a model alias replaced by the session's model...); a turn
    /// shows them through [`SessionEvents::notice`], a dry run takes them here.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// The gate calls are checked against right now (the agent's, narrowed by active skills).
    pub fn gate(&self) -> &ToolGate {
        self.turn.gate.as_ref().unwrap_or(&self.view.gate)
    }

    /// The conversation so far.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Tokens of the session's own model calls since it started (a resumed session's
    /// count includes the earlier runs').
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// Tokens by model, the session's own calls and its subagents' (`/cost`).
    pub fn ledger(&self) -> &TokenLedger {
        &self.ledger
    }

    /// The models and their clients (and the catalog's prices and windows).
    pub fn models(&self) -> &Arc<ModelPool> {
        &self.models
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
        &self.turn.active_skills
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
        self.options
            .permissions
            .tools_for_mode(&mut self.tools, view.mode);
        self.notices.extend(view.notice.clone());
        self.view_grants =
            skill::grant_dirs(&self.skills, &self.options.read_grants, &view.agent.skills);
        self.view = view;
        // The new agent's gate, without the skills of this turn (their model and effort
        // hold until it ends).
        self.turn = turn_state::TurnState {
            model: self.turn.model.take(),
            effort: self.turn.effort.take(),
            ..turn_state::TurnState::default()
        };
        self.prompt_cache = prompt::PromptCache::default();
        self.measured = None;
        self.window_cap = None;
        Ok(())
    }

    /// Forgets the conversation (the transcript keeps it, and marks the point so a resumed
    /// session starts after it). SessionStart hooks (`clear`) run before the next turn; call
    /// [`end`](Self::end) with [`EndReason::Clear`] first for the SessionEnd hooks.
    pub fn clear(&mut self) -> Result<(), SessionError> {
        self.record(TranscriptRecord::Clear { at: now_millis() })?;
        self.messages.clear();
        self.end_turn();
        self.hooks.pending_start = Some(weft_hooks::StartSource::Clear);
        self.measured = None;
        self.compactions = 0;
        // A new conversation gets a catalog of the skills as they are now.
        self.prompt_cache = prompt::PromptCache::default();
        Ok(())
    }

    /// Counts one model call of `model` (`provider/model`): the session's tokens, the
    /// ledger, and a `usage` record in the transcript.
    fn count_call(&mut self, model: &str, usage: Usage) -> Result<(), TranscriptWriteError> {
        self.usage += usage;
        self.ledger.add_call(model, usage);
        self.record(TranscriptRecord::Usage {
            at: now_millis(),
            model: Some(model.to_owned()),
            usage,
        })
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
