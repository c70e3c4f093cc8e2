//! Every plugin installed for this user and project, and which are in use: weft's own
//! installs (the project's, then the user's) and Claude Code's (read, never written), with
//! their components resolved. This is what the runtime turns into skill and agent roots, and
//! what the hook engine and the MCP manager get their plugins' hooks and servers from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use weft_types::PluginRef;

use crate::claude_code::{ClaudeScope, read_claude_code};
use crate::components::Components;
use crate::error::PluginWarning;
use crate::hooks::PluginHooks;
use crate::manifest::PluginManifest;
use crate::marketplace::Marketplace;
use crate::mcp::PluginMcpServer;
use crate::settings::{PluginSettings, project_settings_files};
use crate::store::{PluginLock, PluginStore, split_id};

/// Who installed a plugin, for which scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "by", content = "scope", rename_all = "kebab-case")]
pub enum PluginScope {
    /// weft, for the project (`<project>/.clawft/plugins.lock`).
    Project,
    /// weft, for the user (`~/.clawft/plugins.lock`).
    User,
    /// Claude Code (read-only), for the scope it names.
    ClaudeCode(ClaudeScope),
}

impl PluginScope {
    /// `project`, `user`, `claude-code (user)`.
    pub fn label(self) -> String {
        match self {
            PluginScope::Project => "project".to_owned(),
            PluginScope::User => "user".to_owned(),
            PluginScope::ClaudeCode(scope) => format!("claude-code ({})", scope.as_str()),
        }
    }

    /// True for Claude Code's installs, which weft never changes.
    pub fn is_read_only(self) -> bool {
        matches!(self, PluginScope::ClaudeCode(_))
    }
}

/// Why a plugin is not in use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Inactive {
    /// Switched off (`weft plugin disable`, `enabledPlugins: false`, or not enabled in
    /// Claude Code).
    Disabled,
    /// A project's plugin in a project that is not trusted.
    Untrusted,
    /// Its files do not load: the reason.
    Broken(String),
}

/// One installed plugin.
#[derive(Debug, Clone, Serialize)]
pub struct InstalledPlugin {
    /// `name@marketplace`.
    pub id: String,
    /// Its name: the namespace of its skills, commands and agents.
    pub name: String,
    /// The marketplace it came from.
    pub marketplace: String,
    /// Who installed it, for which scope.
    pub scope: PluginScope,
    /// Its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Its root: `${CLAUDE_PLUGIN_ROOT}`.
    pub root: PathBuf,
    /// Its data directory: `${CLAUDE_PLUGIN_DATA}` (weft's installs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<PathBuf>,
    /// `None` when it is in use; otherwise why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inactive: Option<Inactive>,
    /// Its manifest, when it loads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest: Option<PluginManifest>,
    /// Its components (empty when it does not load).
    pub components: Components,
}

impl InstalledPlugin {
    /// True when its skills, commands, agents, hooks and MCP servers are in use.
    pub fn is_active(&self) -> bool {
        self.inactive.is_none()
    }

    /// True when it is switched on (whether or not it loads or the project is trusted).
    pub fn is_enabled(&self) -> bool {
        !matches!(self.inactive, Some(Inactive::Disabled))
    }

    /// What its skills, commands and agents carry in their source.
    pub fn plugin_ref(&self) -> PluginRef {
        PluginRef {
            name: self.name.clone(),
            id: self.id.clone(),
            root: self.root.clone(),
            data: self.data.clone(),
        }
    }

    /// Its hooks, for the hook engine: `None` unless the plugin is in use. Hand
    /// [`PluginHooks::hooks_json`] (directories filled) to the engine, with
    /// `CLAUDE_PLUGIN_ROOT` set to [`PluginHooks::root`] in each hook's environment.
    pub fn hooks_json(&self) -> Option<&PluginHooks> {
        self.components.hooks.as_ref().filter(|_| self.is_active())
    }

    /// Its MCP servers, for the MCP manager: empty unless the plugin is in use.
    pub fn mcp_servers(&self) -> &[PluginMcpServer] {
        if self.is_active() {
            &self.components.mcp_servers
        } else {
            &[]
        }
    }

    /// What its manifest says it does (else the empty string).
    pub fn description(&self) -> &str {
        self.manifest
            .as_ref()
            .and_then(|m| m.description.as_deref())
            .unwrap_or_default()
    }
}

/// A plugin a project's `.claude/settings.json` enables that is not installed for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeclaredPlugin {
    /// `name@marketplace`.
    pub id: String,
    /// True when the marketplace is declared too (`extraKnownMarketplaces`) or known.
    pub marketplace_known: bool,
}

/// Where plugins are looked for; the caller passes every directory in.
#[derive(Debug, Clone, Default)]
pub struct PluginSources {
    /// The user's `.clawft` directory (`~/.clawft`).
    pub user_clawft: Option<PathBuf>,
    /// The project directory.
    pub project: Option<PathBuf>,
    /// Whether the project is trusted: an untrusted project's plugins are listed, never used.
    pub project_trusted: bool,
    /// Claude Code's directory (`~/.claude`); `None` reads none of Claude Code's installs.
    pub claude_dir: Option<PathBuf>,
}

/// Every plugin found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PluginSet {
    /// The plugins: the project's, the user's, then Claude Code's; by id within each.
    pub plugins: Vec<InstalledPlugin>,
    /// Plugins the project declares and that are not installed for it.
    pub declared: Vec<DeclaredPlugin>,
    /// What could not be read.
    pub warnings: Vec<PluginWarning>,
}

impl PluginSet {
    /// Reads every record and resolves every plugin's components. Nothing here fails: what
    /// cannot be read is a warning or a plugin marked [`Inactive::Broken`].
    pub fn load(sources: &PluginSources) -> Self {
        let mut set = PluginSet::default();
        let mut marketplaces = MarketplaceCache::default();
        let project_settings = sources
            .project
            .as_deref()
            .map(|p| PluginSettings::read(&project_settings_files(p)))
            .unwrap_or_default();
        set.warnings
            .extend(project_settings.warnings.iter().cloned());
        let mut user_lock = PluginLock::default();
        if let Some(project) = &sources.project {
            let store = PluginStore::new(project.join(".clawft"));
            let lock = set.lock_of(&store);
            for record in lock.plugins.values() {
                let id = crate::store::plugin_id(&record.name, &record.marketplace);
                let enabled = project_settings.is_enabled(&id).unwrap_or(record.enabled);
                let gate = if !enabled {
                    Some(Inactive::Disabled)
                } else if !sources.project_trusted {
                    Some(Inactive::Untrusted)
                } else {
                    None
                };
                let plugin = set.weft_plugin(
                    &store,
                    record,
                    PluginScope::Project,
                    gate,
                    &mut marketplaces,
                );
                set.plugins.push(plugin);
            }
            for (id, on) in &project_settings.enabled {
                if *on && split_id(id).is_some() && !lock.plugins.contains_key(id) {
                    let marketplace = split_id(id).map(|(_, m)| m).unwrap_or_default();
                    set.declared.push(DeclaredPlugin {
                        id: id.clone(),
                        marketplace_known: project_settings.marketplaces.contains_key(marketplace)
                            || lock.marketplaces.contains_key(marketplace),
                    });
                }
            }
        }
        if let Some(clawft) = &sources.user_clawft {
            let store = PluginStore::new(clawft);
            user_lock = set.lock_of(&store);
            for record in user_lock.plugins.values() {
                let id = crate::store::plugin_id(&record.name, &record.marketplace);
                if set.has(&id) {
                    continue;
                }
                let gate = (!record.enabled).then_some(Inactive::Disabled);
                let plugin =
                    set.weft_plugin(&store, record, PluginScope::User, gate, &mut marketplaces);
                set.plugins.push(plugin);
            }
        }
        if let Some(claude) = &sources.claude_dir {
            set.claude_code(
                claude,
                sources,
                &project_settings,
                &user_lock,
                &mut marketplaces,
            );
        }
        // A project declaration Claude Code satisfies is not missing.
        let installed: Vec<String> = set.plugins.iter().map(|p| p.id.clone()).collect();
        set.declared.retain(|d| !installed.contains(&d.id));
        tracing::debug!(
            plugins = set.plugins.len(),
            active = set.active().count(),
            declared = set.declared.len(),
            "plugins read"
        );
        set
    }

    fn has(&self, id: &str) -> bool {
        self.plugins.iter().any(|p| p.id == id)
    }

    fn lock_of(&mut self, store: &PluginStore) -> PluginLock {
        store.load_lock().unwrap_or_else(|e| {
            self.warnings
                .push(PluginWarning::new(format!("plugins not read: {e}")));
            PluginLock::default()
        })
    }

    fn weft_plugin(
        &mut self,
        store: &PluginStore,
        record: &crate::store::PluginRecord,
        scope: PluginScope,
        gate: Option<Inactive>,
        marketplaces: &mut MarketplaceCache,
    ) -> InstalledPlugin {
        let id = crate::store::plugin_id(&record.name, &record.marketplace);
        let root = store.plugin_dir(&record.marketplace, &record.name);
        let marketplace = marketplaces.get(&store.marketplace_dir(&record.marketplace));
        load_plugin(LoadPlugin {
            id,
            name: record.name.clone(),
            marketplace_name: record.marketplace.clone(),
            scope,
            version: record.version.clone(),
            data: Some(store.data_dir(&crate::store::plugin_id(&record.name, &record.marketplace))),
            root,
            gate,
            marketplace,
        })
    }

    fn claude_code(
        &mut self,
        claude: &Path,
        sources: &PluginSources,
        project_settings: &PluginSettings,
        user_lock: &PluginLock,
        marketplaces: &mut MarketplaceCache,
    ) {
        let install = read_claude_code(claude);
        self.warnings.extend(install.warnings);
        if install.plugins.is_empty() {
            return;
        }
        let user_settings = PluginSettings::read(&[claude.join("settings.json")]);
        self.warnings.extend(user_settings.warnings.iter().cloned());
        let project = sources.project.as_deref().map(canonical);
        for found in install.plugins {
            let Some((name, marketplace_name)) = split_id(&found.id) else {
                continue;
            };
            if self.has(&found.id) {
                continue;
            }
            let enabled_in_claude = match found.scope {
                ClaudeScope::User => user_settings.is_enabled(&found.id) == Some(true),
                ClaudeScope::Project | ClaudeScope::Local => {
                    let here = found
                        .project
                        .as_deref()
                        .is_some_and(|p| project.as_deref() == Some(canonical(p).as_path()));
                    if !here {
                        continue;
                    }
                    project_settings.is_enabled(&found.id) == Some(true)
                }
                // Managed settings are not read: their plugins are not listed.
                ClaudeScope::Managed => continue,
            };
            if !found.install_path.is_dir() {
                self.warnings.push(PluginWarning::at(
                    &found.install_path,
                    format!(
                        "Claude Code records `{}` here, but there is no such directory; skipped",
                        found.id
                    ),
                ));
                continue;
            }
            let enabled = user_lock
                .claude_code
                .get(&found.id)
                .copied()
                .unwrap_or(enabled_in_claude);
            let project_scoped = found.scope != ClaudeScope::User;
            let gate = if !enabled {
                Some(Inactive::Disabled)
            } else if project_scoped && !sources.project_trusted {
                Some(Inactive::Untrusted)
            } else {
                None
            };
            let marketplace =
                marketplaces.get(&claude.join("plugins/marketplaces").join(marketplace_name));
            let plugin = load_plugin(LoadPlugin {
                id: found.id.clone(),
                name: name.to_owned(),
                marketplace_name: marketplace_name.to_owned(),
                scope: PluginScope::ClaudeCode(found.scope),
                version: found.version.clone(),
                data: None,
                root: found.install_path.clone(),
                gate,
                marketplace,
            });
            self.plugins.push(plugin);
        }
    }

    /// The plugins in use.
    pub fn active(&self) -> impl Iterator<Item = &InstalledPlugin> {
        self.plugins.iter().filter(|p| p.is_active())
    }

    /// The plugin `id` (`name@marketplace`), or the one plugin named `id`.
    pub fn get(&self, id: &str) -> Option<&InstalledPlugin> {
        if let Some(p) = self.plugins.iter().find(|p| p.id == id) {
            return Some(p);
        }
        let mut named = self.plugins.iter().filter(|p| p.name == id);
        match (named.next(), named.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    }

    /// The hooks of every plugin in use, for the hook engine.
    pub fn hooks(&self) -> Vec<&PluginHooks> {
        self.plugins
            .iter()
            .filter_map(InstalledPlugin::hooks_json)
            .collect()
    }

    /// The MCP servers of every plugin in use, for the MCP manager.
    pub fn mcp_servers(&self) -> Vec<&PluginMcpServer> {
        self.plugins
            .iter()
            .flat_map(InstalledPlugin::mcp_servers)
            .collect()
    }
}

/// Marketplace files read once per load.
#[derive(Default)]
struct MarketplaceCache {
    read: BTreeMap<PathBuf, Option<Marketplace>>,
}

impl MarketplaceCache {
    fn get(&mut self, dir: &Path) -> Option<Marketplace> {
        self.read
            .entry(dir.to_path_buf())
            .or_insert_with(|| {
                if dir.is_dir() {
                    Marketplace::load(dir).ok()
                } else {
                    None
                }
            })
            .clone()
    }
}

struct LoadPlugin {
    id: String,
    name: String,
    marketplace_name: String,
    scope: PluginScope,
    version: Option<String>,
    data: Option<PathBuf>,
    root: PathBuf,
    gate: Option<Inactive>,
    marketplace: Option<Marketplace>,
}

/// Reads one plugin's manifest and components; a plugin whose files do not load is kept,
/// marked broken, so it is listed with the reason.
fn load_plugin(load: LoadPlugin) -> InstalledPlugin {
    let mut plugin = InstalledPlugin {
        id: load.id,
        name: load.name,
        marketplace: load.marketplace_name,
        scope: load.scope,
        version: load.version,
        root: load.root,
        data: load.data,
        inactive: load.gate,
        manifest: None,
        components: Components::default(),
    };
    if !plugin.root.is_dir() {
        plugin.inactive = Some(Inactive::Broken(format!(
            "{} is missing (reinstall it)",
            plugin.root.display()
        )));
        return plugin;
    }
    let entry = load
        .marketplace
        .as_ref()
        .and_then(|m| m.plugin(&plugin.name));
    let manifest = match PluginManifest::load(&plugin.root) {
        Ok(m) if m.name == plugin.name => m,
        Ok(m) => {
            plugin.inactive = Some(Inactive::Broken(format!(
                "its manifest names it `{}`, not `{}`",
                m.name, plugin.name
            )));
            return plugin;
        }
        // A strict-false entry may be the plugin's only definition.
        Err(e) if entry.is_some_and(|e| !e.strict) && e.is_missing() => {
            PluginManifest::implicit(plugin.name.clone())
        }
        Err(e) => {
            plugin.inactive = Some(Inactive::Broken(e.to_string()));
            return plugin;
        }
    };
    if plugin.version.is_none() {
        plugin.version = manifest.version.clone();
    }
    // A marketplace entry may carry any manifest field: its description stands in for a
    // missing one (a plugin a `strict: false` entry defines has no manifest at all).
    let mut manifest = manifest;
    if manifest.description.is_none() {
        manifest.description = entry.and_then(|e| e.description.clone());
    }
    match Components::resolve(&plugin.plugin_ref(), &manifest, entry) {
        Ok(components) => plugin.components = components,
        Err(e) => plugin.inactive = Some(Inactive::Broken(e.to_string())),
    }
    plugin.manifest = Some(manifest);
    plugin
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
