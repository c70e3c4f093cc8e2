//! What a plugin brings, resolved against its root: the skill, command and agent paths
//! (Claude Code's defaults and what the manifest and a marketplace entry add or replace), its
//! hooks and its MCP servers. Every path stays inside the plugin; what names nothing is a
//! warning, what is malformed an error.

use std::path::{Path, PathBuf};

use serde::Serialize;
use weft_types::PluginRef;

use crate::error::{PluginError, PluginWarning};
use crate::hooks::{PluginHooks, merge_events, parse_hooks};
use crate::json::{PLUGIN_FILE_CAP, read_json};
use crate::manifest::{ComponentFields, ComponentSpec, ManifestKind, PluginManifest};
use crate::marketplace::MarketplaceEntry;
use crate::mcp::{PluginMcpServer, merge_servers, parse_servers};
use crate::paths::{relative_path, resolve_within};

/// The default hooks file.
pub const HOOKS_FILE: &str = "hooks/hooks.json";
/// The default MCP servers file.
pub const MCP_FILE: &str = ".mcp.json";

/// Parts of Claude Code plugins weft does not use, and why, when a plugin has them.
const UNUSED_PARTS: [(&str, &str); 5] = [
    ("output-styles", "output styles are not used by weft"),
    ("bin", "weft does not add a plugin's `bin/` to PATH"),
    (".lsp.json", "LSP servers are not started by weft"),
    ("monitors", "monitors are not supported"),
    (
        "settings.json",
        "a plugin's default settings are not applied",
    ),
];

/// A plugin's components.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Components {
    /// Directories of skills (each holding `<name>/SKILL.md`, or a skill itself).
    pub skill_dirs: Vec<PathBuf>,
    /// Command directories or single command files.
    pub command_paths: Vec<PathBuf>,
    /// Agent directories or single agent files.
    pub agent_paths: Vec<PathBuf>,
    /// Its hooks, when it has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hooks: Option<PluginHooks>,
    /// Its MCP servers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<PluginMcpServer>,
    /// What was ignored, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<PluginWarning>,
}

impl Components {
    /// Resolves the components of the plugin at `plugin.root` from its `manifest` and, when
    /// it was installed from a marketplace, its `entry` there: with `strict` (the default)
    /// the entry's components merge into the manifest's; without, the entry is the whole
    /// definition and a manifest that declares components too is an error (as in Claude
    /// Code).
    pub fn resolve(
        plugin: &PluginRef,
        manifest: &PluginManifest,
        entry: Option<&MarketplaceEntry>,
    ) -> Result<Components, PluginError> {
        let root = plugin.root.as_path();
        let manifest_file = manifest.file(root).unwrap_or_else(|| root.to_path_buf());
        let fields: ComponentFields = match entry {
            Some(entry) if !entry.strict => {
                if manifest.kind != ManifestKind::None && !manifest.components.is_empty() {
                    return Err(PluginError::invalid(
                        &manifest_file,
                        format!(
                            "the marketplace entry of `{}` is not strict (it defines the plugin), and this manifest declares components too; Claude Code does not load such a plugin",
                            entry.name
                        ),
                    ));
                }
                entry.components.clone()
            }
            Some(entry) => manifest.components.clone().merged_with(&entry.components),
            None => manifest.components.clone(),
        };
        let mut warnings = manifest.warnings(&manifest_file);
        if let Some(entry) = entry {
            warnings.extend(entry_warnings(entry, root));
        }
        let mut out = Components {
            warnings,
            ..Components::default()
        };
        // Skills: `skills/` and whatever the manifest adds.
        let mut skills = vec!["skills".to_owned()];
        skills.extend(fields.skills.iter().flatten().cloned());
        out.skill_dirs = out.paths(root, &skills, 1, &manifest_file);
        // Commands and agents: the manifest's paths replace the default folder.
        let commands = fields
            .commands
            .clone()
            .unwrap_or_else(|| vec!["commands".to_owned()]);
        let command_default = usize::from(fields.commands.is_none());
        out.command_paths = out.paths(root, &commands, command_default, &manifest_file);
        let agents = fields
            .agents
            .clone()
            .unwrap_or_else(|| vec!["agents".to_owned()]);
        let agent_default = usize::from(fields.agents.is_none());
        out.agent_paths = out.paths(root, &agents, agent_default, &manifest_file);
        out.hooks = hooks(plugin, &fields.hooks, &manifest_file, &mut out.warnings)?;
        out.mcp_servers = mcp_servers(
            plugin,
            &fields.mcp_servers,
            &manifest_file,
            &mut out.warnings,
        )?;
        for (part, why) in UNUSED_PARTS {
            if std::fs::symlink_metadata(root.join(part)).is_ok() {
                out.warnings.push(PluginWarning::at(root.join(part), why));
            }
        }
        Ok(out)
    }

    /// `paths` resolved inside `root`, without repeats; the first `defaults` of them are
    /// Claude Code's default folders, which may be missing without a word.
    fn paths(
        &mut self,
        root: &Path,
        paths: &[String],
        defaults: usize,
        manifest: &Path,
    ) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for (i, rel) in paths.iter().enumerate() {
            match resolve_within(root, rel) {
                Ok(path) if !out.contains(&path) => out.push(path),
                Ok(_) => {}
                Err(_) if i < defaults && std::fs::symlink_metadata(root.join(rel)).is_err() => {}
                Err(reason) => self
                    .warnings
                    .push(PluginWarning::at(manifest, format!("{reason}; ignored"))),
            }
        }
        out
    }

    /// True when the plugin can run code once enabled: hooks or MCP servers.
    pub fn runs_code(&self) -> bool {
        self.hooks.as_ref().is_some_and(|h| !h.is_empty()) || !self.mcp_servers.is_empty()
    }
}

/// `hooks/hooks.json` and the manifest's `hooks`, merged.
fn hooks(
    plugin: &PluginRef,
    specs: &[ComponentSpec],
    manifest: &Path,
    warnings: &mut Vec<PluginWarning>,
) -> Result<Option<PluginHooks>, PluginError> {
    let root = plugin.root.as_path();
    let mut events = serde_json::Map::new();
    let mut sources = Vec::new();
    let default = root.join(HOOKS_FILE);
    if std::fs::symlink_metadata(&default).is_ok() {
        let value = read_json(&default, Some(root), PLUGIN_FILE_CAP)?;
        merge_events(&mut events, parse_hooks(&value, &default, warnings)?);
        sources.push(HOOKS_FILE.to_owned());
    }
    for spec in specs {
        match spec {
            ComponentSpec::Path(rel) => {
                let normal = relative_path(rel)
                    .map_err(|r| PluginError::invalid(manifest, format!("`hooks`: {r}")))?;
                if sources.contains(&normal) {
                    warnings.push(PluginWarning::at(
                        manifest,
                        format!("`hooks` names {rel:?}, which is loaded already (Claude Code reports a duplicate hooks file); read once"),
                    ));
                    continue;
                }
                let path = resolve_within(root, rel)
                    .map_err(|r| PluginError::invalid(manifest, format!("`hooks`: {r}")))?;
                let value = read_json(&path, Some(root), PLUGIN_FILE_CAP)?;
                merge_events(&mut events, parse_hooks(&value, &path, warnings)?);
                sources.push(normal);
            }
            ComponentSpec::Inline(value) => {
                merge_events(&mut events, parse_hooks(value, manifest, warnings)?);
                sources.push(format!("{} (inline)", display_rel(root, manifest)));
            }
        }
    }
    Ok((!events.is_empty()).then(|| PluginHooks {
        plugin: plugin.clone(),
        events,
        sources,
    }))
}

/// `.mcp.json` and the manifest's `mcpServers`, merged by name (the first definition wins).
fn mcp_servers(
    plugin: &PluginRef,
    specs: &[ComponentSpec],
    manifest: &Path,
    warnings: &mut Vec<PluginWarning>,
) -> Result<Vec<PluginMcpServer>, PluginError> {
    let root = plugin.root.as_path();
    let mut servers = Vec::new();
    let mut read = Vec::new();
    for spec in specs {
        let (value, path, source) = match spec {
            ComponentSpec::Path(rel) => {
                let path = resolve_within(root, rel)
                    .map_err(|r| PluginError::invalid(manifest, format!("`mcpServers`: {r}")))?;
                let source = display_rel(root, &path);
                if read.contains(&source) {
                    continue;
                }
                (read_json(&path, Some(root), PLUGIN_FILE_CAP)?, path, source)
            }
            ComponentSpec::Inline(value) => (
                value.clone(),
                manifest.to_path_buf(),
                format!("{} (inline)", display_rel(root, manifest)),
            ),
        };
        let more = parse_servers(&value, &path, plugin, &source)?;
        read.push(source);
        merge_servers(&mut servers, more, warnings);
    }
    let default = root.join(MCP_FILE);
    if !read.iter().any(|r| r == MCP_FILE) && std::fs::symlink_metadata(&default).is_ok() {
        let value = read_json(&default, Some(root), PLUGIN_FILE_CAP)?;
        let more = parse_servers(&value, &default, plugin, MCP_FILE)?;
        merge_servers(&mut servers, more, warnings);
    }
    Ok(servers)
}

/// `path` relative to `root` for messages (`.claude-plugin/plugin.json`).
fn display_rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// The keys a marketplace entry may carry besides `plugin.json`'s (Claude Code's marketplace
/// format): never reported as ignored.
const ENTRY_KEYS: [&str; 4] = ["source", "strict", "category", "tags"];

/// What the marketplace entry sets that weft ignores (an entry may carry any `plugin.json`
/// field, `lspServers` among them), each once, at the plugin's root: the entry of a
/// `strict: false` plugin is its whole definition, so its ignored fields are the plugin's.
fn entry_warnings(entry: &MarketplaceEntry, root: &Path) -> Vec<PluginWarning> {
    entry
        .manifest
        .unsupported
        .iter()
        .filter(|(key, _)| !ENTRY_KEYS.contains(&key.as_str()))
        .map(|(key, why)| PluginWarning::at(root, format!("marketplace entry `{key}`: {why}")))
        .collect()
}
