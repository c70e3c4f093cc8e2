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
//! * [`Runtime`]: the models, skills, agents, tools and session options wired together;
//!   [`Runtime::session`] gives a ready [`Session`](weft_agents::Session);
//! * [`McpServers`]: the configured MCP servers, started on a thread of their own whose
//!   runtime keeps their sessions alive between turns.
//!
//! Like every weft library, this crate never reads the process environment or prints: the
//! caller passes the environment in ([`EnvSnapshot`]) and gets typed errors back.
//!
//! ```no_run
//! use weft_runtime::{EnvSnapshot, Locations, Runtime, SessionSettings, Workspace};
//!
//! let env = EnvSnapshot::default()
//!     .with_var("HOME", "/home/me")
//!     .with_current_dir("/home/me/code/app");
//! let workspace = Workspace::resolve(&Locations::default(), env);
//! let runtime = Runtime::load(&workspace)?;
//! let session = runtime.session(&SessionSettings::default())?;
//! # Ok::<(), weft_runtime::RuntimeError>(())
//! ```

mod claude;
mod config;
mod config_key;
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
