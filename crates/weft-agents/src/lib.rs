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
//!
//! # Code map
//!
//! The agent layer. `agent_registry.rs` + `builtin_agents.rs`: agent files from the roots the
//! caller passes plus the six built-ins, project > user > built-in, shadows recorded, broken files
//! reported and skipped, names that are not UTF-8 reported (`W185`); `restrain_project_agents` (for
//! an untrusted project) warns about each project agent overriding a user or built-in one (`W178`)
//! and lowers its limits to the user's (`W179`). `session/`: the agent loop (`error.rs`:
//! `SessionError`). `mod.rs` is the `Session`: built or resumed from `options.rs`'s `SessionParts`
//! and `SessionOptions`, its state, the agent switch, and every message appended to the transcript
//! before it is kept in memory; `turn_state.rs` is what holds for one turn only (`TurnState`: the
//! active skills, the gate they narrowed, their model, effort, grants and pre-approvals), reset by
//! replacing it with its default; `turn.rs` runs a turn (request, model, tool calls, results, until
//! an answer or `max_tool_iterations`; `send` and the user's skill runs start one) and reports it
//! through `SessionEvents`; `view.rs` applies an agent definition over the session options as a
//! view (model, temperature, cap, gate), so switching back restores; `prompt.rs` builds the system
//! prompt (agent prompt, preloaded skills, catalog) and the tool list the gate lets the model see;
//! `dispatch.rs` runs one call through the gate (the tool looked up by `callee.rs`: a registered
//! tool, or one of the session's own, `use_skill` and the spawn tools, on the same path;
//! `check_resolved`, with `real_path.rs` resolving
//! the call's path; a search tool gets the gate's `FileRules` as its file filter, and what a tool
//! would refuse anyway, `Tool::check_reach`, is answered before anyone is asked), then
//! `approval.rs` (the permission mode via `decide`, `permissions.allow` and remembered answers; an
//! `Approver` asks a person: allow once, allow always, deny; without one the call is refused with
//! advice and recorded for the caller's summary; every answer is an `approval` transcript record),
//! then the tool; `refusal.rs`: `Refusal`, why a call did not run, and `Advice`, what would let it
//! (a mode only when one would, patterns checked to pre-approve the call, else a person), turned
//! into text only for the tool message; `always.rs`: what "allow always" remembers (`Bash(program
//! subcommand:*)` rules derived by the analyser, an exact command when none can be, edits, tools)
//! and `Remembered`, shared with subagents; `permissions.rs` holds `Permissions` (mode,
//! pre-approval, approver, `mode_shells`: the `exec_shell` of each mode, so a session whose agent
//! narrows the mode runs the shell of its own mode); the agent's `permissionMode` narrows the mode
//! in `view.rs` (which also keeps `mode_cap`, the narrowest of the agents above, for advice), and
//! `prompt.rs` offers only harmless tools in `plan`. Every turn starts with
//! `SkillRegistry::refresh`, so skills installed meanwhile are seen. `rules.rs`: `CallRules`, the
//! gate, pre-approval and mode a new session applies before anyone is asked, usable without a
//! session (`weft skills check-tool` through `Runtime::call_rules`). `SessionEvents` tells the
//! caller about text, tool calls and results, each model call's start and end, retries, compactions
//! and how full the context window is (what a status line is driven by); `context.rs` is the window
//! (the agent's or configuration's `context_window`, the model catalog's, a request the provider
//! refused) and the estimate of the next request, anchored on the provider's count of the last one
//! (`/context`'s breakdown too); `compact.rs` replaces the older messages by a summary the model
//! writes, on request, past `compact_threshold` and once after the provider refuses a conversation
//! as too long (then the request is sent again), keeping the recent messages and the active skills'
//! bodies, with a `compaction` transcript record and a `CompactionHook` for the hook engine;
//! `spill.rs` cuts a tool result past `tool_result_max_bytes` and keeps the whole in a file under
//! the session's directory, granted to the file tools; `prompt.rs` keeps the request's prefix
//! byte-stable (the agent's tools whatever a skill narrows, the system prompt and catalog written
//! once per view) and `skill_news.rs` announces skills that changed meanwhile in the next user
//! message; `ledger.rs` (`TokenLedger`) is the tokens by model, the session's and its subagents';
//! `dynamic.rs` runs a loaded skill's dynamic context: each command an `exec_shell` call through
//! the skill's gate, `approval.rs` and the session's `exec_shell` (nothing of its own), a note in
//! place of each that does not run, a `dynamic_context` transcript record each, verdicts only in a
//! dry run; `skill.rs` is `use_skill` and user skill runs (render, SEC-SKILL-03 cap, gate narrowed
//! by the skill's `allowed-tools` until the turn ends, the skill's directory granted to the file
//! tools read-only for as long (`SessionOptions::read_grants`; an agent's preloaded skills for the
//! life of the view); `context: fork` skills go to a subagent, which holds the grant); `spawn.rs`
//! is `sessions_spawn`: every check (agent, depth, skill set, model, background rules) runs before
//! the child session exists (a `ChildPlan`), then the child starts; the child's ceiling is the
//! parent's gate ∩ the composed skills (∩ the background gate), and it never gets `create_skill`;
//! failures are `SubagentError`s whose `SpawnFailed` carries a typed `SpawnFailure`; a child starts
//! in its parent's mode and asks no one in the background. `spawn_tools.rs` is the four tools as
//! the model sees and calls them, with the companions (`sessions_result`, `sessions_list`,
//! `sessions_cancel`) and the parent's side of a child's life (results collected and recorded,
//! cancelled, waited for). `children.rs` tracks the children, their background tasks and
//! undelivered results, and wakes waiters through a `watch` channel (no polling). `model_pool.rs`:
//! one client per provider, shared, and the fallback of a model alias (`haiku`, `sonnet`, `opus`)
//! no provider serves to the session's model, with a notice. A skill's `model:` and `effort:` hold
//! for its turn (the client is chosen per round), or for its fork's child; a conditional skill
//! (`paths:`) joins the catalog once a file tool touches a match. `transcript/`: JSONL records
//! (`mod.rs`, with `new_session_id`: random hex first, then the time); `read.rs` reads one back as
//! untrusted input (through weft-fs, capped per file and per line, a bad line a `TranscriptError`
//! with file and line, only a torn last line forgiven); `index.rs` summarises a directory
//! (`read_sessions` with what it left out, `find_session` by unique prefix, `latest_session` of a
//! working directory); `history.rs` turns a transcript into a `SessionHistory` for
//! `Session::resume` (conversation since the last `clear`, from the last compaction's summary on,
//! read record by record so summarised messages are never all held; last agent and model, tokens by
//! model, subagent count); `lazy.rs` is the writer a session uses, which creates the file at the
//! first record that matters (a message, a model call, a subagent), so a run that never got that
//! far leaves nothing while the user's message is still on disk before the model call; when that
//! call gets no answer (a refused connection, retries run out) and the file holds nothing else,
//! `withdraw` removes it again (a resumed session's file is never removed), and the records are
//! written if the session goes on. `transcript::path` is the one spelling of `<dir>/<id>.jsonl`.
//! Agent files are read through `weft_fs::read_within` (a link must stay in its directory) under
//! `AGENT_FILE_CAP`. `create_skill.rs`: the tool that writes a validated SKILL.md and reloads the
//! registry (a name any scope already has is refused unless `replace`, and the answer names the
//! copy in use). Also `SkillInjection` (the seed 001/003 API) and the context-aware selector.
//! Depends on `weft-types`, `weft-fs`, `weft-parse`, `weft-template`, `weft-registry`,
//! `weft-permissions`, `weft-llm`, `weft-tools`, `weft-hooks`, async-trait, tokio, serde,
//! serde_json, thiserror, tracing.

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
