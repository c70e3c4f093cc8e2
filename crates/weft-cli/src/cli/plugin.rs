//! The arguments of `weft plugin`: Claude Code plugins and marketplaces (docs/PLUGINS.md).
//! Separate because they work on plugin stores and marketplaces, not on skills found.

use clap::{Args, Subcommand};

use super::{InstallScope, ListFormat, ReportFormat};

/// `weft plugin ...`
#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Add, list, update or remove marketplaces (.claude-plugin/marketplace.json).
    Marketplace {
        /// The marketplace command to run.
        #[command(subcommand)]
        command: MarketplaceCommand,
    },
    /// Install NAME@MARKETPLACE: fetched, scanned, and shown (what it can run: hooks, MCP
    /// servers, dynamic context) before you agree. With --scope project and no NAME: install the
    /// plugins the project declares (.claude/settings.json) or pins (.clawft/plugins.lock).
    Install(PluginInstallArgs),
    /// Every installed plugin (weft's, the project's and Claude Code's) with its scope and
    /// whether it is in use.
    List(PluginListArgs),
    /// Switch an installed plugin on.
    Enable(PluginIdArgs),
    /// Switch an installed plugin off: its skills, commands, agents, hooks and MCP servers
    /// are no longer used.
    Disable(PluginIdArgs),
    /// Fetch an installed plugin again from its marketplace, show what changed, and apply.
    Update(PluginUpdateArgs),
    /// Remove an installed plugin (its files, data and record).
    Remove(PluginIdArgs),
    /// Compare installed plugins' files with the hashes plugins.lock pins (exit 1 when any
    /// differs).
    Verify(PluginVerifyArgs),
}

/// `weft plugin marketplace ...`
#[derive(Debug, Subcommand)]
pub enum MarketplaceCommand {
    /// Add a marketplace: a directory, a git URL or owner/repo (GitHub) with
    /// .claude-plugin/marketplace.json at its root.
    Add(MarketplaceAddArgs),
    /// The marketplaces known, with their plugins.
    List(MarketplaceListArgs),
    /// Fetch marketplaces again (default: every one of the scope).
    Update(MarketplaceUpdateArgs),
    /// Forget a marketplace (refused while plugins from it are installed).
    Remove(MarketplaceRemoveArgs),
}

/// Arguments of `weft plugin marketplace add`.
#[derive(Debug, Args)]
pub struct MarketplaceAddArgs {
    /// A directory, a git URL (https, ssh, file://) or owner/repo.
    pub source: String,
    /// The git revision: branch, tag or commit (`update` follows it).
    #[arg(long = "ref", value_name = "REV")]
    pub reference: Option<String>,
    /// Whose: the user's, or the project's (declared in .claude/settings.json for the team).
    #[arg(long, value_enum, default_value = "user")]
    pub scope: InstallScope,
}

/// Arguments of `weft plugin marketplace list`.
#[derive(Debug, Args)]
pub struct MarketplaceListArgs {
    /// Whose marketplaces.
    #[arg(long, value_enum, default_value = "user")]
    pub scope: InstallScope,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of `weft plugin marketplace update`.
#[derive(Debug, Args)]
pub struct MarketplaceUpdateArgs {
    /// The marketplace (default: every one of the scope).
    pub name: Option<String>,
    /// Whose marketplace.
    #[arg(long, value_enum, default_value = "user")]
    pub scope: InstallScope,
}

/// Arguments of `weft plugin marketplace remove`.
#[derive(Debug, Args)]
pub struct MarketplaceRemoveArgs {
    /// The marketplace.
    pub name: String,
    /// Whose marketplace.
    #[arg(long, value_enum, default_value = "user")]
    pub scope: InstallScope,
    /// Remove the plugins installed from it without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
}

/// Arguments of `weft plugin install`.
#[derive(Debug, Args)]
pub struct PluginInstallArgs {
    /// NAME@MARKETPLACE. Without it (with --scope project): the project's declared and pinned
    /// plugins.
    #[arg(value_name = "NAME@MARKETPLACE")]
    pub id: Option<String>,
    /// For the user, or for the project (recorded in .claude/settings.json and
    /// .clawft/plugins.lock for the team).
    #[arg(long, value_enum, default_value = "user")]
    pub scope: InstallScope,
    /// Install without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Install despite high-severity findings.
    #[arg(long)]
    pub force: bool,
    /// Output format: with json, what it brings is shown on stderr and stdout has
    /// {"installed": [...], "not_installed": [...]}.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft plugin list`.
#[derive(Debug, Args)]
pub struct PluginListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// A plugin and, optionally, the project scope.
#[derive(Debug, Args)]
pub struct PluginIdArgs {
    /// NAME@MARKETPLACE, or NAME when only one installed plugin has it.
    #[arg(value_name = "PLUGIN")]
    pub id: String,
    /// Which install (default: wherever it is installed).
    #[arg(long, value_enum)]
    pub scope: Option<InstallScope>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft plugin update`.
#[derive(Debug, Args)]
pub struct PluginUpdateArgs {
    /// NAME@MARKETPLACE, or NAME when only one installed plugin has it.
    #[arg(value_name = "PLUGIN")]
    pub id: String,
    /// Which install (default: wherever it is installed).
    #[arg(long, value_enum)]
    pub scope: Option<InstallScope>,
    /// Apply without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Apply despite high-severity findings.
    #[arg(long)]
    pub force: bool,
    /// Output format: with json, the changes are shown on stderr and stdout has
    /// {"updates": [...]}.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft plugin verify`.
#[derive(Debug, Args)]
pub struct PluginVerifyArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}
