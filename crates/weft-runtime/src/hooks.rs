//! The hooks of a run (docs/HOOKS.md): those of Claude Code's settings files, run by every
//! session, and for listing also those of skills and agents, which a session runs while
//! they are active.
//!
//! A project's hooks (its settings files, its skills and agents) run only in a trusted
//! project; when the project is not trusted, a session says once how many were skipped and
//! how to trust it. User hooks run as the user, outside the sandbox, as in Claude Code (see
//! docs/HOOKS.md for why). `--no-hooks` ([`Runtime::set_hooks_disabled`]) and
//! `disableAllHooks` in a settings file switch every hook off (they are still listed).

use std::path::PathBuf;

use weft_hooks::{HookEntry, HookSettings, HookSource, Hooks};

use crate::claude::SettingsScope;
use crate::error::RuntimeError;
use crate::runtime::Runtime;

/// The hooks of a settings file.
fn settings_source(scope: SettingsScope, path: PathBuf) -> HookSource {
    match scope {
        SettingsScope::User => HookSource::UserSettings(path),
        SettingsScope::Project => HookSource::ProjectSettings(path),
        SettingsScope::Local => HookSource::LocalSettings(path),
    }
}

impl Runtime {
    /// Switches every hook off for this run (`--no-hooks`).
    pub fn set_hooks_disabled(&mut self, off: bool) {
        self.hooks_off = off;
    }

    /// Why no hook runs: `--no-hooks`, or the settings file that says `disableAllHooks`.
    pub fn hooks_disabled(&self) -> Option<String> {
        if self.hooks_off {
            return Some("--no-hooks".to_owned());
        }
        self.config
            .claude
            .hooks_disabled()
            .map(|path| format!("`disableAllHooks` in {}", path.display()))
    }

    /// The hooks of the settings files and of the plugins in use (docs/PLUGINS.md), each
    /// with whether it may run. A plugin's hooks are read only while it is enabled (and, for
    /// a project's plugin, while the project is trusted: [`weft_plugin::PluginSet`] decides);
    /// they run with `CLAUDE_PLUGIN_ROOT` set to the plugin's directory.
    pub fn settings_hooks(&self) -> Vec<HookEntry> {
        let trusted = self.workspace.trust.is_trusted();
        let mut entries: Vec<HookEntry> = self
            .config
            .claude
            .hooks()
            .flat_map(|(file, group)| {
                let source = settings_source(file.scope, file.path.clone());
                HookEntry::from_groups(std::slice::from_ref(group), source, trusted)
            })
            .collect();
        for plugin in self.workspace.plugins().hooks() {
            let value = serde_json::Value::Object(match plugin.hooks_json() {
                serde_json::Value::Object(events) => events,
                _ => serde_json::Map::new(),
            });
            let file = plugin.plugin.root.join("hooks/hooks.json");
            let (groups, diagnostics) =
                weft_parse::parse_hooks_value(&value, &file, weft_parse::Profile::Load);
            for diagnostic in &diagnostics {
                tracing::warn!(plugin = %plugin.plugin.id, "{diagnostic}");
            }
            let source = HookSource::Plugin {
                name: plugin.plugin.id.clone(),
                root: plugin.plugin.root.clone(),
            };
            entries.extend(HookEntry::from_groups(&groups, source, trusted));
        }
        entries
    }

    /// Every configured hook: the settings files', then the skills' and the agents' (which
    /// run only while their skill or agent is active), each with whether it may run.
    pub fn all_hooks(&self) -> Vec<HookEntry> {
        let hooks = Hooks::new(
            self.settings_hooks(),
            self.hook_settings(PathBuf::new()),
            self.workspace.trust.is_trusted(),
        );
        weft_agents::configured_hooks(&hooks, &self.skills.snapshot(), &self.agents)
    }

    /// What hook commands run with: `exec_shell`'s environment (secrets removed), the project
    /// as `CLAUDE_PROJECT_DIR`, the run's process groups.
    fn hook_settings(&self, project_dir: PathBuf) -> HookSettings {
        HookSettings {
            env: crate::sandbox::child_env(&self.config, &self.workspace.env)
                .into_iter()
                .collect(),
            project_dir,
            groups: self.process_groups().clone(),
        }
    }

    /// The hooks a session runs.
    pub fn hooks(&self) -> Result<Hooks, RuntimeError> {
        let base = self.base_dir()?;
        let hooks = Hooks::new(
            self.settings_hooks(),
            self.hook_settings(base),
            self.workspace.trust.is_trusted(),
        );
        Ok(match self.hooks_disabled() {
            Some(reason) => hooks.disabled(reason),
            None => hooks,
        })
    }

    /// Said once when a session starts: the project's hooks that will not run because it is
    /// not trusted, and hooks that cannot run as written.
    pub(crate) fn announce_hooks(&self) {
        if self.hooks_disabled().is_some() {
            return;
        }
        let entries = self.all_hooks();
        for entry in &entries {
            if let Some(problem) = entry.problem() {
                tracing::warn!(source = %entry.source, "{} hook `{}`: {problem}", entry.event, entry.command_line());
            }
        }
        let skipped: Vec<&HookEntry> = entries.iter().filter(|e| !e.trusted).collect();
        if skipped.is_empty() {
            return;
        }
        let mut by_source: Vec<(String, usize)> = Vec::new();
        for entry in &skipped {
            let label = entry.source.to_string();
            match by_source.iter_mut().find(|(l, _)| *l == label) {
                Some((_, n)) => *n += 1,
                None => by_source.push((label, 1)),
            }
        }
        let detail: Vec<String> = by_source.iter().map(|(l, n)| format!("{l}: {n}")).collect();
        let project = self
            .workspace
            .project
            .as_ref()
            .map_or_else(|| "<project>".to_owned(), |p| p.display().to_string());
        tracing::warn!(
            "{} hook(s) of this project will not run: the project is not trusted ({}); trust it with --trust-project, or for good with \"projects\": {{\"{project}\": {{\"trust_level\": \"trusted\"}}}} in ~/.clawft/config.json",
            skipped.len(),
            detail.join(", ")
        );
    }
}
