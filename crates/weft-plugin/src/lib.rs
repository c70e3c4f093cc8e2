//! Claude Code plugins and marketplaces, read: the formats, what each plugin brings, and which
//! plugins are installed and in use.
//!
//! - [`PluginManifest`]: `.claude-plugin/plugin.json` (or Codex's `.codex-plugin/plugin.json`
//!   as far as its format is public); [`Marketplace`]: `.claude-plugin/marketplace.json`;
//! - [`Components`]: a plugin's skill, command and agent paths (the default folders and what
//!   the manifest or a marketplace entry adds or replaces), its [`PluginHooks`] and its
//!   [`PluginMcpServer`]s, each checked, every path kept inside the plugin, and
//!   `${CLAUDE_PLUGIN_ROOT}` filled through weft-template;
//! - [`PluginStore`] and [`PluginLock`]: where weft keeps the plugins it installs and its
//!   record of them; [`PluginSettings`]: `enabledPlugins` and `extraKnownMarketplaces` of
//!   Claude Code's settings files; [`read_claude_code`]: what Claude Code installed;
//! - [`PluginSet`]: every installed plugin, weft's and Claude Code's, with whether it is in
//!   use; [`InstalledPlugin::hooks_json`] and [`InstalledPlugin::mcp_servers`] give the hook
//!   engine and the MCP manager what an enabled plugin brings.
//!
//! Every file is read through weft-fs (regular files, capped; links inside a plugin stay in
//! it). Nothing here runs, fetches or writes anything; weft-marketplace installs. The caller
//! passes every directory in: the crate never reads the environment or `~`.
//!
//! # Code map
//!
//! Claude Code's plugins and marketplaces, read (docs/PLUGINS.md). `manifest.rs`:
//! `.claude-plugin/plugin.json` (and Codex's `.codex-plugin/plugin.json`), the component fields
//! shared with marketplace entries, `check_name` (kebab-case: names become directories and
//! namespaces); `marketplace.rs`: `.claude-plugin/marketplace.json` and its plugin sources;
//! `components.rs`: a plugin's skill, command and agent paths (default folders, what the manifest
//! or a strict or non-strict marketplace entry adds or replaces), hooks (`hooks.rs`: checked,
//! merged, kept as JSON; `hooks_json()` with `${CLAUDE_PLUGIN_ROOT}` filled through weft-template's
//! `fill_directories`) and MCP servers (`mcp.rs`, filled the same way), every path inside the
//! plugin (`paths.rs`); `store.rs`: a scope's plugin store and `plugins.lock`; `settings.rs`:
//! `enabledPlugins` and `extraKnownMarketplaces` of Claude Code's settings files; `claude_code.rs`:
//! Claude Code's `installed_plugins.json` (observed format; anything else degrades to a warning);
//! `set.rs`: `PluginSet`, every installed plugin with whether it is in use (trust, enablement,
//! broken files), and `InstalledPlugin::hooks_json` / `mcp_servers`, what the hook engine and the
//! MCP manager get from enabled plugins. Reads through weft-fs; writes, fetches and runs nothing.
//! Depends on `weft-types`, `weft-fs`, `weft-template`, serde, serde_json, thiserror, tracing.

mod claude_code;
mod components;
mod error;
mod hooks;
mod json;
mod manifest;
mod marketplace;
mod mcp;
pub mod paths;
mod set;
mod settings;
mod store;

pub use claude_code::{
    ClaudeCodeInstall, ClaudeCodePlugin, ClaudeScope, INSTALLED_PLUGINS, read_claude_code,
};
pub use components::{Components, HOOKS_FILE, MCP_FILE};
pub use error::{PluginError, PluginWarning};
pub use hooks::{HookCommand, PluginHooks, parse_hooks};
pub use json::{PLUGIN_FILE_CAP, RECORD_CAP};
pub use manifest::{
    CLAUDE_MANIFEST, CODEX_MANIFEST, ComponentFields, ComponentSpec, ManifestKind, Person,
    PluginManifest, UNSUPPORTED_FIELDS, check_name,
};
pub use marketplace::{MARKETPLACE_FILE, Marketplace, MarketplaceEntry, PluginSource};
pub use mcp::{PluginMcpServer, parse_servers};
pub use set::{DeclaredPlugin, Inactive, InstalledPlugin, PluginScope, PluginSet, PluginSources};
pub use settings::{DeclaredSource, PluginSettings, declared_source, project_settings_files};
pub use store::{
    MarketplaceRecord, PLUGIN_LOCK_VERSION, PluginLock, PluginRecord, PluginStore, RecordedSource,
    plugin_id, split_id,
};
