//! The built-in slash commands of DESIGN section 9, one file per group.

mod agents;
mod config;
mod context;
pub(crate) mod expand;
mod help;
mod hooks;
mod memory;
mod permissions;
mod plugin;
mod session;
pub(crate) mod skills;
mod tools;
mod workspace;

use std::sync::Arc;

use crate::command::SlashCommand;

pub use config::{config_keys, lookup, redact, unknown_key};
pub use context::{context_report, cost_report};

/// Every built-in command.
pub fn builtin_commands() -> Vec<Arc<dyn SlashCommand>> {
    vec![
        Arc::new(help::Help),
        Arc::new(skills::Skills),
        Arc::new(skills::SkillCommand),
        Arc::new(agents::Agents),
        Arc::new(agents::AgentCommand),
        Arc::new(agents::Model),
        Arc::new(tools::Tools),
        Arc::new(permissions::PermissionsCommand),
        Arc::new(hooks::HooksCommand),
        Arc::new(plugin::PluginCommand),
        Arc::new(memory::Memory),
        Arc::new(config::ConfigCommand),
        Arc::new(session::SessionInfo),
        Arc::new(expand::Expand),
        Arc::new(context::Context),
        Arc::new(context::Cost),
        Arc::new(context::Compact),
        Arc::new(workspace::WorkspaceCommand),
        Arc::new(workspace::Reload),
        Arc::new(session::Clear),
        Arc::new(session::Exit("exit")),
        Arc::new(session::Exit("quit")),
    ]
}
