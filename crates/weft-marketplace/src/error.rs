//! Why a marketplace or plugin operation did not happen; nothing is half-applied.

use std::path::PathBuf;

use weft_install::InstallError;
use weft_plugin::PluginError;
use weft_scan::Finding;

use crate::target::Scope;

/// A marketplace or plugin operation that failed or was refused.
#[derive(Debug, thiserror::Error)]
pub enum MarketplaceError {
    /// Fetching, writing or verifying files failed (weft-install's errors).
    #[error(transparent)]
    Install(#[from] InstallError),
    /// A plugin, marketplace or record file is wrong.
    #[error(transparent)]
    Plugin(#[from] PluginError),
    /// No marketplace of that name is known in this scope.
    #[error("no marketplace `{name}` is known{}; add it with `weft plugin marketplace add SOURCE`", known_list(.known))]
    UnknownMarketplace {
        /// The name asked for.
        name: String,
        /// The marketplaces that are known.
        known: Vec<String>,
    },
    /// The marketplace lists no such plugin.
    #[error("marketplace `{marketplace}` has no plugin `{name}`{}", available_list(.available))]
    UnknownPlugin {
        /// The plugin asked for.
        name: String,
        /// The marketplace.
        marketplace: String,
        /// What it lists.
        available: Vec<String>,
    },
    /// `NAME@MARKETPLACE` was not given in that form.
    #[error("{0:?} is not NAME@MARKETPLACE (both kebab-case)")]
    BadId(String),
    /// The plugin is not installed in this scope.
    #[error("plugin `{id}` is not installed{where_}")]
    NotInstalled {
        /// The plugin.
        id: String,
        /// ` for the project`, ` for the user`.
        where_: String,
    },
    /// No installed plugin has that name, or several have it.
    #[error("{}", no_such_plugin(.name, .candidates))]
    NoSuchPlugin {
        /// The name asked for.
        name: String,
        /// The installed plugins of that name (several: the name is ambiguous).
        candidates: Vec<String>,
    },
    /// There is no store for that scope (no home directory, no project).
    #[error("{}", no_store(*.0))]
    NoStore(Scope),
    /// A marketplace of that name is known already.
    #[error(
        "a marketplace named `{name}` is known already (from {location}); `weft plugin marketplace update {name}` fetches it again"
    )]
    MarketplaceExists {
        /// Its name.
        name: String,
        /// Where it comes from.
        location: String,
    },
    /// Plugins from the marketplace were installed that the removal did not list.
    #[error("marketplace `{name}` has installed plugins that were not listed for removal ({}); nothing was removed", plugins.join(", "))]
    MarketplaceInUse {
        /// The marketplace.
        name: String,
        /// Its installed plugins.
        plugins: Vec<String>,
    },
    /// It is installed already.
    #[error("plugin `{id}` is installed already at {}; use `weft plugin update {id}`", path.display())]
    AlreadyInstalled {
        /// The plugin.
        id: String,
        /// Where.
        path: PathBuf,
    },
    /// Claude Code installed it; weft does not change Claude Code's files.
    #[error(
        "plugin `{id}` was installed by Claude Code; weft only reads it (`claude plugin {action} {id}` changes it there)"
    )]
    ClaudeCodeOwned {
        /// The plugin.
        id: String,
        /// What was asked (`update`, `uninstall`).
        action: String,
    },
    /// The source is a form weft does not fetch.
    #[error("plugin `{id}` comes from {source_form}, which weft does not fetch")]
    UnsupportedSource {
        /// The plugin.
        id: String,
        /// The source, described.
        source_form: String,
    },
    /// The fetched plugin's manifest names another plugin.
    #[error("the marketplace lists `{expected}`, but the plugin's manifest names it `{found}`")]
    NameMismatch {
        /// The marketplace's name for it.
        expected: String,
        /// The manifest's.
        found: String,
    },
    /// High-severity findings.
    #[error("refused: plugin `{id}` has {} high-severity finding(s); rerun with --force to install anyway", findings.len())]
    Refused {
        /// The plugin.
        id: String,
        /// The findings.
        findings: Vec<Finding>,
    },
    /// The project is not trusted, so its plugins are neither installed nor used.
    #[error("the project {} is not trusted, so the plugins it declares are neither installed nor used; trust it (--trust-project, or \"projects\": {{\"{}\": {{\"trust_level\": \"trusted\"}}}} in ~/.clawft/config.json) and run this again", project.display(), project.display())]
    Untrusted {
        /// The project.
        project: PathBuf,
    },
    /// The files on disk differ from what the project's lock pins.
    #[error("refused: plugin `{id}`'s tree SHA-256 is {found}, but {} pins {expected}; nothing was written", lock.display())]
    PinMismatch {
        /// The plugin.
        id: String,
        /// The lockfile.
        lock: PathBuf,
        /// Pinned.
        expected: String,
        /// Fetched.
        found: String,
    },
}

fn no_store(scope: Scope) -> &'static str {
    match scope {
        Scope::User => {
            "there is no home directory to keep the user's plugins in (set HOME or pass --home)"
        }
        Scope::Project => "there is no project here to keep the project's plugins in",
    }
}

fn no_such_plugin(name: &str, candidates: &[String]) -> String {
    if candidates.is_empty() {
        format!("no installed plugin is named `{name}`; `weft plugin list` lists them")
    } else {
        format!(
            "several installed plugins are named `{name}` ({}); name one as NAME@MARKETPLACE",
            candidates.join(", ")
        )
    }
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        String::new()
    } else {
        format!(" (known: {})", known.join(", "))
    }
}

fn available_list(available: &[String]) -> String {
    if available.is_empty() {
        "; it lists none".to_owned()
    } else {
        format!("; it lists: {}", available.join(", "))
    }
}

impl MarketplaceError {
    /// True for a mistake in what was asked (exit status 2 at the command line), as opposed
    /// to a failure or refusal.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            MarketplaceError::UnknownMarketplace { .. }
                | MarketplaceError::UnknownPlugin { .. }
                | MarketplaceError::BadId(_)
                | MarketplaceError::NotInstalled { .. }
                | MarketplaceError::NoSuchPlugin { .. }
                | MarketplaceError::NoStore(_)
                | MarketplaceError::ClaudeCodeOwned { .. }
        ) || matches!(
            self,
            MarketplaceError::Install(InstallError::BadSource(_) | InstallError::RefWithoutGit(_))
        )
    }
}
