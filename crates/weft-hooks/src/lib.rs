//! Claude Code's hooks for weft: a hook written for Claude Code (in `~/.claude/settings.json`,
//! `.claude/settings.json`, a skill's or an agent's `hooks:`) runs in weft unchanged.
//!
//! * [`HookEntry`]: one configured handler with its [`HookSource`] and compiled
//!   [`Matcher`] (Claude Code's syntax: exact names, or an unanchored regular expression);
//! * [`claude_tool_name`], [`claude_tool_input`], [`weft_tool_input`]: weft's tools in
//!   Claude Code's terms (`exec_shell` is `Bash` with a `command`), so matchers and scripts
//!   written for Claude Code work;
//! * [`HookInput`]: an event, given to each hook as JSON on standard input in Claude Code's
//!   field names;
//! * [`Hooks`]: the session's hooks; [`Hooks::run`] runs the ones an event selects in
//!   parallel (an identical command once), each with a timeout, in its own process group,
//!   with exactly the environment the caller gives plus `CLAUDE_PROJECT_DIR`;
//! * [`HookOutcome`]: what they answered, read with Claude Code's rules (exit codes, the
//!   JSON fields), for the session to act on.
//!
//! The crate decides nothing about permissions: a hook's `allow` is handed back as a
//! [`PermissionDecision`], and the session treats it as a pre-approval, which never lifts a
//! restriction. It never reads the process environment or prints: the caller passes the
//! environment (already free of secrets) and the directories in ([`HookSettings`]).
//!
//! ```no_run
//! use std::path::PathBuf;
//! use serde_json::json;
//! use weft_hooks::{EventData, HookEntry, HookInput, HookSettings, HookSource, Hooks};
//! use weft_types::{HookEvent, HookGroup, HookHandler};
//!
//! # async fn demo() {
//! let group = HookGroup {
//!     event: HookEvent::PreToolUse,
//!     matcher: Some("Bash".into()),
//!     handlers: vec![HookHandler::new("./policy.sh")],
//! };
//! let entries = HookEntry::from_groups(&[group], HookSource::UserSettings("/home/me/.claude/settings.json".into()), false);
//! let settings = HookSettings { env: vec![], project_dir: "/code/app".into(), groups: Default::default() };
//! let hooks = Hooks::new(entries, settings, false);
//! let input = HookInput {
//!     event: HookEvent::PreToolUse,
//!     session_id: "s-1".into(),
//!     transcript_path: None,
//!     cwd: PathBuf::from("/code/app"),
//!     permission_mode: Some("default".into()),
//!     data: EventData::Tool { tool: "exec_shell".into(), input: json!({"command": "rm -rf /"}), tool_use_id: "c1".into(), response: None },
//! };
//! let outcome = hooks.run(&input, &[], &|_| true).await;
//! if let Some(block) = &outcome.block {
//!     println!("blocked: {}", block.reason);
//! }
//! # }
//! ```

mod command;
mod engine;
mod input;
mod matcher;
mod names;
mod outcome;
mod source;

pub use command::{OUTPUT_CAP, RunEnd};
pub use engine::{
    DEFAULT_TIMEOUT, HookSettings, Hooks, PROMPT_TIMEOUT, SESSION_END_TIMEOUT, default_timeout,
};
pub use input::{EndReason, EventData, HookInput, StartSource};
pub use matcher::{Matcher, MatcherError};
pub use names::{claude_tool_input, claude_tool_name, weft_tool_input};
pub use outcome::{
    CONTEXT_CAP, HookBlock, HookFailure, HookOutcome, HookRun, Permission, PermissionDecision,
};
pub use source::{HookEntry, HookSource};
