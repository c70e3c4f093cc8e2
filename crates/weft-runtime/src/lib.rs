//! A configured weft runtime, for the `weft` binary and for any other program.
//!
//! * [`Workspace`]: where things are — the project (detected from the current directory),
//!   the home directory, skill and agent roots, the header cache — resolved from
//!   [`Locations`] and an [`EnvSnapshot`] the caller takes;
//! * [`Config`]: `config.json` files merged (user, project, explicit), untrusted project keys
//!   dropped, and the model catalog from them and the environment snapshot;
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

mod config;
mod env;
mod error;
mod mcp;
mod permissions;
mod runtime;
pub mod sandbox;
mod workspace;

pub use config::{
    AgentSettings, Config, ConfigFile, ConfigSources, McpServerFile, ProviderFile, SkillSettings,
    ToolSettings, WebFetchSettings,
};
pub use env::EnvSnapshot;
pub use error::{ConfigError, RuntimeError, UsageError};
pub use mcp::{INHERITED_ENV, McpServers, server_configs};
pub use permissions::PermissionSettings;
pub use runtime::{NO_PROVIDER, Runtime, SessionSettings};
pub use workspace::{Locations, Workspace, detect_project};
