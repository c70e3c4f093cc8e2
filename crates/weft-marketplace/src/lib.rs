//! Claude Code marketplaces and plugins, installed by weft (docs/PLUGINS.md).
//!
//! - [`add_marketplace`], [`update_marketplace`], [`remove_marketplace`],
//!   [`list_marketplaces`]: a marketplace's repository or directory, fetched with
//!   weft-install (git with hooks off, directories read file by file), copied into the
//!   scope's store and pinned (commit and tree hash) in `plugins.lock`;
//! - [`plan_install`] / [`apply_install`]: a plugin of a known marketplace, fetched, its
//!   components resolved in a staging directory, everything it brings scanned (skill and
//!   command text, agent prompts, hook commands and scripts, MCP server commands), and
//!   [`RunsCode`] — what will be able to run code once it is enabled — for the caller to
//!   show and confirm before anything is written;
//! - [`plan_update`] / [`apply_update`], [`plan_locked`] (what a project's lock pins, for a
//!   teammate), [`set_enabled`], [`remove_plugin`], [`verify_plugins`];
//! - [`find_installed`] and [`PluginTargets::switch`]: a plugin a person names (`NAME@MKT`,
//!   or a name only one plugin has) and switching it on or off, shared by `weft plugin` and
//!   the REPL's `/plugin`.
//!
//! The project scope records what a team shares in `.claude/settings.json`
//! (`enabledPlugins`, `extraKnownMarketplaces`), edited in place ([`set_entry`]). Every
//! location comes from the caller ([`PluginTarget`]); nothing here reads the environment,
//! prints or prompts. Every operation that writes holds the scope's exclusive lock (shared
//! with skill installs) and writes the lockfile last, atomically.

mod error;
mod install;
mod manage;
mod marketplaces;
mod plan;
mod records;
mod settings_edit;
mod switch;
mod target;

pub use error::MarketplaceError;
pub use install::{
    PluginUpdate, apply_install, apply_update, plan_install, plan_locked, plan_update,
};
pub use manage::{
    PluginVerification, remove_plugin, set_claude_code_enabled, set_enabled, verify_plugins,
};
pub use marketplaces::{
    AddedMarketplace, KnownMarketplace, MarketplaceUpdate, RemovedMarketplace, add_marketplace,
    installed_from, list_marketplaces, remove_marketplace, update_marketplace,
};
pub use plan::{DynamicCommand, PluginPlan, RunsCode};
pub use settings_edit::set_entry;
pub use switch::{NamedPlugin, PluginTargets, Switched, find_installed};
pub use target::{PluginTarget, Scope};
