//! A configured weft runtime, for the `weft` binary and for any other program.
//!
//! * [`Workspace`]: where things are — the project (detected from the current directory),
//!   the home directory, skill and agent roots, the header cache — resolved from
//!   [`Locations`] and an [`EnvSnapshot`] the caller takes;
//! * [`Config`]: `config.json` files merged (user, project, explicit), an untrusted project's
//!   keys outside [`PROJECT_KEYS`] dropped, and the model catalog from them and the
//!   environment snapshot; [`ProjectTrust`]: whether the project is trusted (the caller's
//!   flag, or the user's `projects` list);
//! * [`EffectiveConfig`]: every value in effect with its [`Origin`] (a file, an environment
//!   variable or the default), secrets masked;
//! * [`Runtime`]: the models, skills, agents, tools and session options wired together, built
//!   by [`Runtime::builder`] with what the caller chooses over the configuration (the
//!   permission mode, model clients and tools of its own); [`Runtime::session`] gives a ready
//!   [`Session`](session::Session);
//! * [`McpServers`]: the configured MCP servers, started on a thread of their own whose
//!   runtime keeps their sessions alive between turns.
//!
//! Like every weft library, this crate never reads the process environment or prints: the
//! caller passes the environment in ([`EnvSnapshot`]) and gets typed errors back.
//!
//! ```no_run
//! use weft_runtime::{EnvSnapshot, Locations, PermissionMode, Runtime, SessionSettings, Workspace};
//!
//! let env = EnvSnapshot::default()
//!     .with_var("HOME", "/home/me")
//!     .with_current_dir("/home/me/code/app");
//! let workspace = Workspace::resolve(&Locations::default(), env);
//! let runtime = Runtime::builder(&workspace)
//!     .permission_mode(PermissionMode::Plan)
//!     .build()?;
//! let session = runtime.session(&SessionSettings::default())?;
//! # Ok::<(), weft_runtime::RuntimeError>(())
//! ```
//!
//! # Embedding
//!
//! This crate is the only weft dependency a program needs: besides its own types it
//! re-exports, by area, what an embedding uses from the crates below it — [`session`] (the
//! session, its events, [`Quiet`](session::Quiet), approvers), [`llm`] (the
//! [`ChatModel`](llm::ChatModel) trait and messages, for a model client of the program's own),
//! [`tools`] (the [`Tool`](tools::Tool) trait, for tools of its own, and
//! [`FnTool`](tools::FnTool), a tool made of a closure), [`policy`] (skill sets
//! validated and composed, the gate and its decisions), [`skills`] (the registry),
//! [`sandbox`] (the helper the program's executable serves, [`sandbox::run_helper`]),
//! [`PermissionMode`], and [`async_trait`] and [`serde_json`], which implementing those traits
//! takes. Sessions run on a tokio runtime of the caller's. `examples/embed.rs` loads skills,
//! composes a set, checks a call and runs a recorded turn; `examples/custom_model.rs` runs a
//! scripted model of its own that calls a tool of its own (an `FnTool`); the tests run both.
//! [`Runtime::dry_run_session`] previews a session without a provider or key.
//!
//! # Code map
//!
//! The library front door: what the `weft` binary does before it runs a command, for any program.
//! `env.rs`: `EnvSnapshot`, the environment variables, current directory and running executable the
//! caller captured (its `Debug` shows names only). `workspace.rs`: `Locations` (explicit values)
//! resolved into a `Workspace` — the project (the git root, else the nearest ancestor with
//! `.clawft`/`.claude`/`.agents`/`.codex`, never the home directory), the home directory, skill
//! roots (`.clawft/skills`, `.claude/skills`, `.agents/skills`, `.codex/skills` at every level from
//! the current directory up to the project root, nearest first, then `.claude/commands`, the
//! user's, Codex's from `$CODEX_HOME`; an untrusted project's roots bounded by `link_boundary`, the
//! project) and agent roots, the host description for gating, the header cache (tied to a build
//! fingerprint the caller passes). `config/`: the `config.json` layers (read through weft-fs under
//! a 1 MiB cap) merged (`mod.rs`), the file's typed sections (`schema.rs`), and the model catalog
//! from them and the snapshot (`models.rs`: an environment key only for its kind's official
//! endpoint, its own base URL variable, or an `api_key_env` naming it; `key_variable` and
//! `base_url_variable` name those variables for each kind, for `weft doctor`'s hints too).
//! `trust.rs`: `ProjectTrust` (the caller's flag, else the `projects` list of the user's own files,
//! read before the project's) and `PROJECT_KEYS`, the allow-list of an untrusted project's
//! `config.json` (every other key dropped with an `IgnoredKey` warning naming it, so an unknown key
//! never stops weft); `Runtime::load` also keeps an untrusted project's agents within the user's
//! limits (`W178`/`W179`). `effective.rs`: `EffectiveConfig`, every value in effect as a `Setting`
//! with its `Origin` (a file, an environment variable, a command-line flag: `--permission-mode`,
//! the default) and the state of each file (found, trusted, the keys an untrusted one sets that are
//! ignored); file values are attributed by loading each file alone through `Config::load` (the same
//! allow-list), the rest comes from what the runtime uses (catalog, session options, MCP server
//! configurations), and secrets are masked here once (`mask_secret`). `runtime.rs`: `Runtime`
//! (models, skills, agents, built-in tools plus `create_skill`, session options, the `exec_shell`
//! process groups, one `ReadGrants` shared by the file tools' scope and the sessions;
//! `memory_file`, named `MEMORY_FILE_NAME`), `Runtime::session` (a provider whose key variable is
//! unset stops only the sessions that use it), `Runtime::ceiling` (`tools.deny`) and
//! `Runtime::call_rules` (the `CallRules` of a new session, for `weft skills check-tool`).
//! `tool_availability.rs`: `ToolAvailability`, the tools a session would have, known without
//! starting one (skills' readiness in `skills show`, `skills catalog`, `doctor`). `sandbox.rs`:
//! `exec_shell`'s scrubbed environment and launchers (the caller's hidden `sandbox exec` helper
//! with a policy for calls no person let out of the sandbox, and without one for those a person
//! did; direct when the caller names no executable; a refusal, so that only a person's approval
//! runs a command, where the sandbox is required but unavailable), decided from the `sandbox`
//! settings (on by default), the permission mode (`auto` forces the sandbox on, `bypass` off) and
//! the kernel probe; the session passes each call's choice to `exec_shell`
//! (`CallContext::outside_sandbox`); `Runtime` builds an `exec_shell` per narrower mode
//! (`Permissions::mode_shells`) so a subagent's shell follows its own mode. `permissions.rs`: the
//! `permissions` section (mode, `allow` compiled to `PreApproval`) and `project_pattern_context`
//! (the project as the directory of every configured pattern: `tools.deny`, `permissions.allow`,
//! check-tool's lists); an untrusted project file sets nothing there (`permissions` is not in
//! `PROJECT_KEYS`); `RuntimeBuilder::permission_mode` takes the command line's mode.
//! `user_only.rs`: what a project file never sets, trusted or not (`bypass`, and the sandbox keys that widen it),
//! dropped with a warning naming the key. `workspace.rs` makes the project (and the base directory)
//! absolute and canonical and compares the home directory by its real path. `mcp.rs`: `mcp_servers`
//! turned into server configurations with a small inherited environment (`enabled_servers` names
//! the ones that start), started on a thread whose runtime keeps their sessions alive between
//! turns. `config_key.rs`: an unknown key explained (its file and line, its dotted path, the
//! closest known key). With one provider and no model named, OpenAI's and Anthropic's own endpoints
//! get a documented default (`OPENAI_DEFAULT_MODEL`, `ANTHROPIC_DEFAULT_MODEL`). `resume.rs`:
//! `--continue` / `--resume` (`Resume`, `lookup_session`), the history read back and the agent and
//! model a resumed session uses (`Runtime::session_with`). `dry_run.rs`:
//! `Runtime::dry_run_session`, the session `--dry-run` shows, on a placeholder model that refuses
//! every call when none is configured. `error.rs`: `ConfigError`,
//! `RuntimeError`, `UsageError` (the binary maps usage and configuration errors to exit code 2).
//! `builder.rs`: `RuntimeBuilder` (the permission mode; model clients of the caller's, which
//! serve their provider without a configured one and without a key; a default model; extra tools
//! registered beside the built-in ones; `Runtime::load` is a builder with no choices). `lib.rs`
//! holds the re-export modules of the front door (see "Embedding"); `tests/embed.rs` runs the
//! examples. Depends on `weft-types`, `weft-fs`, `weft-parse`, `weft-registry`,
//! `weft-permissions`, `weft-llm`, `weft-tools`, `weft-agents`, `weft-sandbox`, `weft-shell`,
//! `weft-hooks`, `weft-plugin`, async-trait, serde, serde_json, thiserror, tokio, tracing. Never
//! reads the process environment, never prints.

mod builder;
mod claude;
mod config;
mod config_key;
mod dry_run;
mod effective;
mod env;
mod error;
mod hooks;
mod mcp;
mod permissions;
mod plugins;
mod resume;
mod runtime;
pub mod sandbox;
mod shell_program;
mod tool_availability;
mod trust;
mod user_only;
mod workspace;

pub use builder::RuntimeBuilder;
pub use claude::{
    APPROVALS_FILE, ClaudeRules, ClaudeSettings, ClaudeSources, McpApprovals, McpJson,
    McpJsonServer, McpTransport, RuleNote, SettingsFile, SettingsScope, expand_vars,
};
pub use config::{
    ANTHROPIC_DEFAULT_MODEL, AgentSettings, Config, ConfigFile, ConfigSources, LimitSettings,
    McpServerFile, OPENAI_DEFAULT_MODEL, ProviderFile, SkillSettings, ToolSettings,
    WebFetchSettings, base_url_variable, key_variable,
};
pub use effective::{
    ConfigFileState, EffectiveConfig, FileRole, Origin, Setting, mask_secret, settings_json,
};
pub use env::EnvSnapshot;
pub use error::{ConfigError, RuntimeError, UsageError};
pub use mcp::{
    INHERITED_ENV, IdleServer, McpJsonConsent, McpPlan, McpServers, ServerSource, plan as plan_mcp,
    server_configs,
};
pub use permissions::{PermissionSettings, project_pattern_context};
pub use resume::{Resume, lookup_session};
pub use runtime::{MEMORY_FILE_NAME, NO_PROVIDER, Runtime, SessionSettings, unknown_agent};
pub use shell_program::choose_shell;
pub use tool_availability::ToolAvailability;
pub use trust::{IgnoredKey, KeyType, PROJECT_KEYS, ProjectSettings, ProjectTrust, TrustLevel};
pub use workspace::{Locations, Workspace, detect_project};

// The front door's re-exports: what a program embedding weft needs from the crates below,
// so that `weft-runtime` is its only weft dependency.
pub use async_trait::async_trait;
pub use serde_json;
pub use weft_types::PermissionMode;

/// Sessions: the agent loop a [`Runtime`] builds ([`Runtime::session`]), what it reports as a
/// turn runs ([`SessionEvents`](session::SessionEvents); [`Quiet`](session::Quiet) ignores
/// everything), and who approves a call when the permission mode asks
/// ([`Approver`](session::Approver); without one such calls are refused).
pub mod session {
    pub use weft_agents::{
        ApprovalAnswer, ApprovalRequest, Approver, CallRules, EndReason, Quiet, RefusedCall,
        Session, SessionError, SessionEvents, TurnOutcome, TurnStop,
    };
}

/// Models: the [`ChatModel`](llm::ChatModel) trait a client of the caller's implements
/// ([`RuntimeBuilder::model_client`]) and the provider-neutral messages it exchanges.
pub mod llm {
    pub use weft_llm::{
        ChatModel, ChatRequest, ChatResponse, LlmError, Message, ModelRef, NoStream, ReplayModel,
        RetryNotice, Role, StopReason, TextSink, ToolCall, ToolSpec, Usage,
    };
}

/// Tools: the [`Tool`](tools::Tool) trait a tool of the caller's implements
/// ([`RuntimeBuilder::tool`]), what it is told about each call and what it returns.
pub mod tools {
    pub use weft_tools::{
        CallContext, FnTool, Sandboxing, Tool, ToolError, ToolOutput, ToolRegistry,
    };
}

/// Tool policies: skill sets validated and composed
/// ([`validate_and_compose_compiled`](policy::validate_and_compose_compiled), in a
/// [`CompositionMode`](policy::CompositionMode)), the gate that checks a call against them
/// ([`ToolGate`](policy::ToolGate) → [`Decision`](policy::Decision)), and
/// [`decide`](policy::decide), the rule of permission modes.
pub mod policy {
    pub use weft_permissions::{
        CallKind, Composition, CompositionMode, Decision, Origin, Policy, Step, ToolGate,
        ValidationResult, decide, validate_and_compose_compiled,
    };
}

/// Skills: the registry a [`Runtime`] loads ([`Runtime::skills`]) and the snapshots it
/// publishes.
pub mod skills {
    pub use weft_registry::{SkillEntry, SkillRegistry, Snapshot};
    pub use weft_types::Skill;
}
