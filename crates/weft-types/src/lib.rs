//! The shared vocabulary of weft.
//!
//! Plain data only: skills ([`Skill`]), agent definitions ([`AgentDefinition`]), tool policies in
//! string form ([`ToolPolicy`]), invocation values for templates ([`InvocationContext`]), open-ended
//! values ([`Value`]), diagnostics ([`Diagnostic`]), hooks as configured ([`HookGroup`]), permission modes ([`PermissionMode`]), the
//! names of the built-in tools ([`tool_names`]) and which characters can drive a terminal
//! ([`is_terminal_control`]). Every other weft crate speaks in these types. [`suggest`] ranks
//! the names closest to a mistyped one, for the "did you mean" of every error; [`time`] turns
//! seconds into calendar dates and [`net`] says whether a URL leads to this machine.
//!
//! The crate has no dependencies. With the `serde` feature every type implements serde's
//! `Serialize` and `Deserialize` (the other weft crates turn it on).
//!
//! ```
//! use weft_types::{Scope, Skill};
//!
//! let skill = Skill::in_memory("specification-engine", "Generates specifications", Scope::Builtin);
//! assert!(skill.model_invocable());
//! assert!(skill.tools.allow.is_none());
//! ```
//!
//! # Code map
//!
//! The vocabulary: `Skill` (level-1 data: everything but the body), `SkillContract` (the
//! skill-injection fields: execution protocol, compatibility and composability rules),
//! `AgentDefinition`, `ToolPolicy` (allow: `None` = unrestricted, `Some([])` = nothing; deny),
//! `InvocationContext`, `Scope` (whose `Ord` is the precedence order), `Value` (open-ended metadata
//! whose scalars keep their source text), `Diagnostic` (code, severity, message, path, line,
//! column, byte offset) and `PermissionMode` (`plan` < `dont-ask` < `ask` < `accept-edits` < `auto`
//! < `bypass`, so narrowing is `min`; weft's and Claude Code's spellings parse).
//! `is_terminal_control` is the one definition of the characters that can drive a terminal
//! (weft-parse refuses them in decoded values, weft-term neutralises them on output). `tool_names`
//! is the one tool vocabulary: a constant per built-in tool, the workspace and session tool lists,
//! Claude Code's aliases, the categories the crates act on, each documented once
//! (`READ_ONLY_TOOLS`, which is also the background subagents' set; `READ_ONLY_CALLS`,
//! `CONTROL_TOOLS` and `EDIT_TOOLS`, the permission modes' kinds of call; `FILE_TOOLS` and
//! `PATH_TOOLS`, the tools whose `path` names what they touch; `SUBAGENT_TOOLS`;
//! `EXPLORING_AGENT_TOOLS`, the read-only built-in agents' set), `MCP_PREFIX` and `MCP_SEPARATOR`;
//! weft-tools names its tools with it, weft-permissions canonicalises and classifies calls with it,
//! weft-agents uses it for its own tools, dispatch and built-in agents, and a test in weft-agents
//! checks it against the tools a full session offers, both ways; it also knows the tools of Claude
//! Code, OpenClaw and Codex that weft lacks (`is_known_tool`, for validation). `time` turns seconds
//! into calendar fields (`UtcTime`, the one date algorithm: weft-term's `utc_datetime` and
//! weft-install's lockfile times use it); `net::is_local_url` says whether a URL's host is this
//! machine (a model server there needs no key; an install source there may use plain HTTP).
//! `suggest` is the one "did you mean" ranking (edit distance and containment, case-insensitive, at
//! most three names, best first) and its sentence, used for every unknown name: skills, agents,
//! slash commands, models and providers, configuration keys, frontmatter keys and tool names. **No
//! dependencies**: serde's derives sit behind the optional `serde` feature, which weft-parse,
//! weft-registry and weft-cli turn on. No behaviour beyond constructors and small queries.

mod agent;
mod control;
mod diagnostic;
mod hooks;
mod invocation;
pub mod net;
mod permission_mode;
pub mod protected;
mod scope;
mod skill;
pub mod suggest;
pub mod time;
pub mod tool_names;
mod tools;
mod value;
#[cfg(feature = "serde")]
mod value_serde;

pub use agent::AgentDefinition;
pub use control::is_terminal_control;
pub use diagnostic::{Diagnostic, Position, Severity, has_errors};
pub use hooks::{
    HookEvent, HookGroup, HookHandler, UNSUPPORTED_HOOK_EVENTS, UnknownHookEvent,
    is_claude_code_hook_event,
};
pub use invocation::InvocationContext;
pub use permission_mode::{PermissionMode, UnknownPermissionMode, WrittenPermissionMode};
pub use scope::{AgentFormat, PluginRef, Scope, SkillFormat, Source};
pub use skill::{
    CompatibilityKind, CompatibilityRule, ComposabilityKind, ComposabilityRule, DescriptionSource,
    OutputContract, Skill, SkillContext, SkillContract,
};
pub use tools::ToolPolicy;
pub use value::Value;
