//! Claude Code's settings files, read next to weft's own configuration:
//! `~/.claude/settings.json` (the user's), `<project>/.claude/settings.json` (shared, in the
//! repository) and `<project>/.claude/settings.local.json` (personal; a checkout can hold one
//! too, so it counts as the project's).
//!
//! Precedence is Claude Code's: for a single value the most specific file wins (local, then
//! project, then user); lists (`permissions.allow`, `ask`, `deny`, `additionalDirectories`)
//! and `hooks` are joined across the files. What a project's file may do depends on trust:
//!
//! * `permissions.deny` and `permissions.ask` narrow: they apply from every file, trusted or
//!   not, and so does `disabledMcpjsonServers`;
//! * `permissions.allow`, `permissions.defaultMode`, `permissions.additionalDirectories`,
//!   `hooks`, `disableAllHooks` and the MCP approvals (`enabledMcpjsonServers`,
//!   `enableAllProjectMcpServers`) widen or run code: from a project's file only when the
//!   project is trusted; `defaultMode: bypassPermissions` never from a project's file;
//! * keys weft does not use (`env`, `model`, `statusLine`...) are noted once per file (`-v`
//!   shows them, `weft config show --origin` lists them), never an error.
//!
//! Each file is a regular UTF-8 JSON file of at most 1 MiB, read through weft-fs; a file that
//! is not valid JSON is an error naming the file, line and column.
//!
//! `rules.rs` turns the permission rules into weft's patterns; `mcp_json.rs` reads the
//! project's `.mcp.json`; `approvals.rs` keeps the servers a person approved by name.

mod approvals;
mod mcp_json;
mod rules;

use std::path::{Path, PathBuf};

use serde_json::Value;
use weft_types::{Diagnostic, HookGroup, PermissionMode};

use crate::error::ConfigError;

pub use approvals::{APPROVALS_FILE, McpApprovals};
pub use mcp_json::{McpJson, McpJsonServer, McpTransport, expand_vars};
pub use rules::{ClaudeRules, RuleNote};

/// Where Claude Code's settings files are, and what relative paths in them mean.
#[derive(Debug, Clone, Default)]
pub struct ClaudeSources {
    /// `~/.claude/settings.json`.
    pub user: Option<PathBuf>,
    /// `<project>/.claude/settings.json`.
    pub project: Option<PathBuf>,
    /// `<project>/.claude/settings.local.json`.
    pub local: Option<PathBuf>,
    /// The home directory (`~/` in rules, the root of `/path` rules in the user's file).
    pub home: Option<PathBuf>,
    /// The project directory (the root of `/path` rules in the project's files).
    pub project_dir: Option<PathBuf>,
}

/// Which settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SettingsScope {
    /// `~/.claude/settings.json`.
    User,
    /// `<project>/.claude/settings.json`.
    Project,
    /// `<project>/.claude/settings.local.json`.
    Local,
}

impl SettingsScope {
    /// `claude user`, `claude project`, `claude local`.
    pub fn label(self) -> &'static str {
        match self {
            Self::User => "claude user",
            Self::Project => "claude project",
            Self::Local => "claude local",
        }
    }

    /// True for the project's two files.
    pub fn is_project(self) -> bool {
        self != Self::User
    }
}

/// One settings file as read.
#[derive(Debug, Clone)]
pub struct SettingsFile {
    /// Its path.
    pub path: PathBuf,
    /// Which file.
    pub scope: SettingsScope,
    /// Everything it says counts (the user's file, or a trusted project's).
    pub trusted: bool,
    /// Its JSON, with what does not apply removed (see the module documentation).
    pub value: Value,
    /// Keys weft does not use, dotted (`env`, `permissions.disableBypassPermissionsMode`).
    pub unused: Vec<String>,
    /// Keys that do not apply from this file, with why (`permissions.allow`: the project is
    /// not trusted).
    pub ignored: Vec<crate::trust::IgnoredKey>,
    /// Its hooks (kept even when they may not run, to be listed and counted).
    pub hooks: Vec<HookGroup>,
    /// Problems in its `hooks`.
    pub hook_diagnostics: Vec<Diagnostic>,
}

/// The keys weft reads; everything else is noted as unused.
const KNOWN: [&str; 7] = [
    "permissions",
    "hooks",
    "disableAllHooks",
    "enableAllProjectMcpServers",
    "enabledMcpjsonServers",
    "disabledMcpjsonServers",
    "$schema",
];

/// The `permissions` keys weft reads.
const KNOWN_PERMISSIONS: [&str; 5] = [
    "allow",
    "ask",
    "deny",
    "defaultMode",
    "additionalDirectories",
];

/// The keys of a project's file that apply only when the project is trusted.
const TRUSTED_ONLY: [&str; 7] = [
    "permissions.allow",
    "permissions.defaultMode",
    "permissions.additionalDirectories",
    "hooks",
    "disableAllHooks",
    "enabledMcpjsonServers",
    "enableAllProjectMcpServers",
];

/// Claude Code's settings files, read.
#[derive(Debug, Clone, Default)]
pub struct ClaudeSettings {
    /// The files that exist, user first.
    pub files: Vec<SettingsFile>,
    /// Where they are (also those that do not exist).
    pub sources: ClaudeSources,
}

impl ClaudeSettings {
    /// Reads the files of `sources`; `trusted` says whether the project is.
    pub fn load(sources: &ClaudeSources, trusted: bool) -> Result<Self, ConfigError> {
        let mut files = Vec::new();
        let layers = [
            (SettingsScope::User, &sources.user),
            (SettingsScope::Project, &sources.project),
            (SettingsScope::Local, &sources.local),
        ];
        for (scope, path) in layers {
            let Some(path) = path else { continue };
            let Some((_, value)) = crate::config::read_file(path, false)? else {
                continue;
            };
            files.push(read_settings(
                path,
                scope,
                value,
                trusted || !scope.is_project(),
            ));
        }
        Ok(Self {
            files,
            sources: sources.clone(),
        })
    }

    /// The files in effect, most specific first (local, project, user): where a single value
    /// is looked up.
    fn by_precedence(&self) -> impl Iterator<Item = &SettingsFile> {
        self.files.iter().rev()
    }

    /// The permission mode `defaultMode` chooses, with the file that sets it (Claude Code's
    /// names mapped to weft's); a value that is no mode is reported and skipped.
    pub fn default_mode(&self) -> Option<(PermissionMode, &Path)> {
        self.by_precedence().find_map(|file| {
            let text = file.value.pointer("/permissions/defaultMode")?.as_str()?;
            match text.parse::<PermissionMode>() {
                Ok(mode) => Some((mode, file.path.as_path())),
                Err(e) => {
                    tracing::warn!(file = %file.path.display(), "`permissions.defaultMode` ignored: {e}");
                    None
                }
            }
        })
    }

    /// A boolean the most specific file sets.
    fn flag(&self, key: &str) -> Option<(bool, &Path)> {
        self.by_precedence()
            .find_map(|f| Some((f.value.get(key)?.as_bool()?, f.path.as_path())))
    }

    /// `disableAllHooks: true` in effect, with its file.
    pub fn hooks_disabled(&self) -> Option<&Path> {
        self.flag("disableAllHooks")
            .and_then(|(on, path)| on.then_some(path))
    }

    /// `enableAllProjectMcpServers: true` in effect.
    pub fn all_project_servers_enabled(&self) -> bool {
        self.flag("enableAllProjectMcpServers")
            .is_some_and(|(on, _)| on)
    }

    /// Every string of the list at `pointer` in the files, with each one's file, in file
    /// order (user first), duplicates kept once.
    pub fn list(&self, pointer: &str) -> Vec<(String, &Path)> {
        let mut out: Vec<(String, &Path)> = Vec::new();
        for file in &self.files {
            let Some(items) = file.value.pointer(pointer).and_then(Value::as_array) else {
                continue;
            };
            for item in items.iter().filter_map(Value::as_str) {
                if !out.iter().any(|(s, _)| s == item) {
                    out.push((item.to_owned(), &file.path));
                }
            }
        }
        out
    }

    /// `permissions.additionalDirectories` in effect, resolved: `~/` under the home
    /// directory, a relative path under the file's root (the project for its files, the home
    /// directory for the user's).
    pub fn additional_directories(&self) -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        for file in &self.files {
            let Some(items) = file
                .value
                .pointer("/permissions/additionalDirectories")
                .and_then(Value::as_array)
            else {
                continue;
            };
            let root = self.root_of(file.scope);
            for item in items.iter().filter_map(Value::as_str) {
                let dir = match (item.strip_prefix("~/"), &self.sources.home) {
                    (Some(rest), Some(home)) => home.join(rest),
                    _ => match &root {
                        Some(root) => root.join(item),
                        None => PathBuf::from(item),
                    },
                };
                if !dirs.contains(&dir) {
                    dirs.push(dir);
                }
            }
        }
        dirs
    }

    /// The directory `/path` rules and relative paths of a file of `scope` start at.
    pub(crate) fn root_of(&self, scope: SettingsScope) -> Option<PathBuf> {
        match scope {
            SettingsScope::User => self.sources.home.clone(),
            _ => self.sources.project_dir.clone(),
        }
    }

    /// The hook groups of every file, with the file they come from.
    pub fn hooks(&self) -> impl Iterator<Item = (&SettingsFile, &HookGroup)> {
        self.files
            .iter()
            .flat_map(|f| f.hooks.iter().map(move |g| (f, g)))
    }
}

/// Reads one file: notes the keys weft does not use, drops what does not apply from it.
fn read_settings(
    path: &Path,
    scope: SettingsScope,
    mut value: Value,
    trusted: bool,
) -> SettingsFile {
    let mut unused = Vec::new();
    let mut ignored = Vec::new();
    if let Some(map) = value.as_object() {
        for (key, child) in map {
            if !KNOWN.contains(&key.as_str()) {
                unused.push(key.clone());
            } else if key == "permissions"
                && let Some(permissions) = child.as_object()
            {
                unused.extend(
                    permissions
                        .keys()
                        .filter(|k| !KNOWN_PERMISSIONS.contains(&k.as_str()))
                        .map(|k| format!("permissions.{k}")),
                );
            }
        }
    }
    if !unused.is_empty() {
        tracing::info!(file = %path.display(), "Claude Code settings weft does not use: {}", unused.join(", "));
    }
    // Hooks misplaced inside `permissions` (as some setup guides show them) run neither in
    // Claude Code nor here: a policy hook that silently does not run is worth a warning.
    if unused.iter().any(|k| k == "permissions.hooks") {
        tracing::warn!(file = %path.display(), "`permissions.hooks` is not where hooks go: they run from the top-level `hooks` key, so these hooks do not run (in Claude Code either)");
    }
    // Hooks are read before trust is applied: an untrusted project's are listed, not run.
    let (hooks, hook_diagnostics) = match value.get("hooks") {
        Some(hooks) => weft_parse::parse_hooks_value(hooks, path, weft_parse::Profile::Load),
        None => (Vec::new(), Vec::new()),
    };
    for d in &hook_diagnostics {
        tracing::warn!(file = %path.display(), "{}: {}", d.code, d.message);
    }
    if scope.is_project() {
        for key in TRUSTED_ONLY {
            if !trusted && remove(&mut value, key) {
                ignored.push(crate::trust::IgnoredKey {
                    key: key.to_owned(),
                    reason: "the project is not trusted".to_owned(),
                });
            }
        }
        let bypass = value
            .pointer("/permissions/defaultMode")
            .and_then(Value::as_str)
            .and_then(|m| m.parse::<PermissionMode>().ok())
            == Some(PermissionMode::Bypass);
        if bypass && remove(&mut value, "permissions.defaultMode") {
            ignored.push(crate::trust::IgnoredKey {
                key: "permissions.defaultMode".to_owned(),
                reason: "bypassPermissions is accepted only from the command line, ~/.clawft/config.json or ~/.claude/settings.json".to_owned(),
            });
        }
        for key in &ignored {
            tracing::warn!(file = %path.display(), "Claude Code setting `{}` ignored: {}", key.key, key.reason);
        }
    }
    SettingsFile {
        path: path.to_path_buf(),
        scope,
        trusted,
        value,
        unused,
        ignored,
        hooks,
        hook_diagnostics,
    }
}

/// Removes the dotted `key` from `value`; true when it was there.
fn remove(value: &mut Value, key: &str) -> bool {
    let (parent, last) = match key.rsplit_once('.') {
        Some((parent, last)) => (
            value.pointer_mut(&format!("/{}", parent.replace('.', "/"))),
            last,
        ),
        None => (Some(value), key),
    };
    parent
        .and_then(Value::as_object_mut)
        .is_some_and(|map| map.remove(last).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(dir: &Path, name: &str, value: &Value) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, value.to_string()).unwrap();
        path
    }

    fn sources(dir: &Path) -> ClaudeSources {
        ClaudeSources {
            user: Some(dir.join("user.json")),
            project: Some(dir.join("project.json")),
            local: Some(dir.join("local.json")),
            home: Some(dir.join("home")),
            project_dir: Some(dir.join("proj")),
        }
    }

    #[test]
    fn a_bash_rule_holding_an_operator_is_noted_as_never_matching() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        write(
            dir,
            "project.json",
            &json!({"permissions": {"deny": ["Bash(curl * | bash)", "Bash(rm:*)", "Bash(make && make install)"]}}),
        );
        let settings = ClaudeSettings::load(&sources(dir), false).unwrap();
        let rules = ClaudeRules::compile(&settings, dir);
        let noted: Vec<&str> = rules.notes.iter().map(|n| n.rule.as_str()).collect();
        assert_eq!(noted, ["Bash(curl * | bash)", "Bash(make && make install)"]);
        assert!(
            rules.notes[0].what.contains("never matches"),
            "{:?}",
            rules.notes
        );
    }

    #[test]
    fn narrowing_keys_apply_from_any_file_and_widening_ones_need_trust() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        write(
            dir,
            "user.json",
            &json!({"permissions": {"deny": ["Read(./.env)"], "defaultMode": "acceptEdits"}, "model": "opus", "env": {"A": "1"}}),
        );
        write(
            dir,
            "project.json",
            &json!({"permissions": {"deny": ["Bash(rm:*)"], "ask": ["Bash(git push:*)"], "allow": ["Bash"], "defaultMode": "bypassPermissions", "additionalDirectories": ["../x"], "disableBypassPermissionsMode": "disable"}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}),
        );
        write(
            dir,
            "local.json",
            &json!({"permissions": {"defaultMode": "plan"}}),
        );
        let untrusted = ClaudeSettings::load(&sources(dir), false).unwrap();
        let deny: Vec<String> = untrusted
            .list("/permissions/deny")
            .into_iter()
            .map(|(r, _)| r)
            .collect();
        assert_eq!(deny, ["Read(./.env)", "Bash(rm:*)"]);
        assert_eq!(untrusted.list("/permissions/ask").len(), 1);
        assert!(untrusted.list("/permissions/allow").is_empty());
        assert_eq!(
            untrusted.default_mode().map(|(m, _)| m),
            Some(PermissionMode::AcceptEdits)
        );
        assert!(untrusted.additional_directories().is_empty());
        assert_eq!(untrusted.files[0].unused, ["env", "model"]);
        assert_eq!(
            untrusted.files[1].unused,
            ["permissions.disableBypassPermissionsMode"]
        );
        let ignored: Vec<&str> = untrusted.files[1]
            .ignored
            .iter()
            .map(|k| k.key.as_str())
            .collect();
        assert_eq!(
            ignored,
            [
                "permissions.allow",
                "permissions.defaultMode",
                "permissions.additionalDirectories",
                "hooks"
            ]
        );
        // The hooks are kept to be listed, marked untrusted.
        assert_eq!(untrusted.files[1].hooks.len(), 1);
        assert!(!untrusted.files[1].trusted);

        let trusted = ClaudeSettings::load(&sources(dir), true).unwrap();
        assert_eq!(trusted.list("/permissions/allow").len(), 1);
        // The local file's `plan` wins; the project's bypass never counts.
        assert_eq!(
            trusted.default_mode().map(|(m, _)| m),
            Some(PermissionMode::Plan)
        );
        assert_eq!(trusted.additional_directories(), [dir.join("proj/../x")]);
        assert_eq!(trusted.files[1].ignored[0].key, "permissions.defaultMode");
    }

    #[test]
    fn bad_json_names_the_file_line_and_column() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("user.json");
        std::fs::write(&path, "{\n  \"permissions\": {\n}").unwrap();
        let err = ClaudeSettings::load(
            &ClaudeSources {
                user: Some(path.clone()),
                ..Default::default()
            },
            false,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with(&format!("{}:3:1: invalid JSON: ", path.display())),
            "{err}"
        );
    }
}
