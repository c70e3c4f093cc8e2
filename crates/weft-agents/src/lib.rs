//! The agent layer of weft.
//!
//! * [`AgentRegistry`]: agent definitions from files (`.clawft/agents`, `.claude/agents`, ...)
//!   and the built-ins, with skill-like precedence.
//! * [`Session`]: the agent loop. The model sees the agent's prompt, preloaded skills and the
//!   skill catalog, and only the tools the gate lets the agent see; every tool call goes
//!   through the gate; `use_skill` narrows the gate while a skill is active; the transcript is
//!   appended after every message.
//! * [`CreateSkill`]: the tool that lets a model write a validated SKILL.md.
//! * [`SkillInjection`] and [`select_skills`]: the skill-injection API of seeds 001 and 003 and
//!   the context-aware skill selector.

mod agent_registry;
mod builtin_agents;
mod create_skill;
mod injection;
mod ledger;
mod model_pool;
mod selector;
mod session;
pub mod transcript;

pub use agent_registry::{
    AgentEntry, AgentLimits, AgentRegistry, AgentRoot, CLAUDE_CODE_AGENTS, ShadowedAgent,
    is_trust_warning,
};
pub use builtin_agents::builtin_agents;
pub use create_skill::CreateSkill;
pub use injection::SkillInjection;
pub use ledger::{Cost, ModelTokens, TokenLedger, price_of};
pub use model_pool::{ModelPool, WELL_KNOWN_ALIASES};
pub use selector::{
    CODING_SKILLS, MAX_MATCHED_SKILLS, RiskLevel, TaskContext, UnknownRiskLevel, select_skills,
};
pub use session::{
    AgentView, ApprovalAnswer, ApprovalRequest, Approver, BYTES_PER_TOKEN, CallJudgement,
    CallRules, ChildError, ChildPlan, ChildStatus, ChildSummary, CompactStart, CompactTrigger,
    CompactionHook, CompactionReport, ContextBreakdown, ContextUse, DEFAULT_CONTEXT_WINDOW,
    DynamicCommand, DynamicVerdict, EndReason, HookRun, Invoker, KEEP_TOKENS_MAX, MAX_STOP_BLOCKS,
    Permissions, Quiet, RealPath, RefusedCall, SESSIONS_CANCEL, SESSIONS_LIST, SESSIONS_RESULT,
    SESSIONS_SPAWN, SUMMARY_MARK, Session, SessionError, SessionEvents, SessionOptions,
    SessionParts, SkillInvocationError, SpawnFailure, SpawnRequest, SpawnSettings, SubagentError,
    TurnOutcome, TurnStop, USE_SKILL, agent_gate, agent_mode, configured_hooks, estimate_tokens,
};
