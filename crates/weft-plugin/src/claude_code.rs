//! What Claude Code installed: its record of installed plugins under `~/.claude/plugins/`,
//! read and never written. The record's format is not documented (only observed:
//! `installed_plugins.json`, `{"version": 2, "plugins": {"name@mkt": [{scope, projectPath?,
//! installPath, version, ...}]}}`, and version 1's single object per plugin), so anything
//! else is a warning and no plugin, never a guess.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::error::PluginWarning;
use crate::json::{RECORD_CAP, read_json};
use crate::store::split_id;

/// The record, relative to Claude Code's directory (`~/.claude`).
pub const INSTALLED_PLUGINS: &str = "plugins/installed_plugins.json";

/// The settings scope a Claude Code install belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaudeScope {
    /// Enabled in `~/.claude/settings.json`.
    User,
    /// Enabled in a project's `.claude/settings.json`.
    Project,
    /// Enabled in a project's `.claude/settings.local.json`.
    Local,
    /// Enabled by managed settings.
    Managed,
}

impl ClaudeScope {
    fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "user" => ClaudeScope::User,
            "project" => ClaudeScope::Project,
            "local" => ClaudeScope::Local,
            "managed" => ClaudeScope::Managed,
            _ => return None,
        })
    }

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            ClaudeScope::User => "user",
            ClaudeScope::Project => "project",
            ClaudeScope::Local => "local",
            ClaudeScope::Managed => "managed",
        }
    }
}

/// One plugin Claude Code installed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClaudeCodePlugin {
    /// `name@marketplace`.
    pub id: String,
    /// The scope it was installed for.
    pub scope: ClaudeScope,
    /// The project it was installed for (project and local scopes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<PathBuf>,
    /// Its directory in Claude Code's cache.
    pub install_path: PathBuf,
    /// Its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// Claude Code's installed plugins, as far as its record could be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ClaudeCodeInstall {
    /// The plugins, in the record's order.
    pub plugins: Vec<ClaudeCodePlugin>,
    /// Why some or all of them are not listed.
    pub warnings: Vec<PluginWarning>,
    /// True when the record exists (read or not).
    pub has_record: bool,
}

/// Reads Claude Code's record under `claude_dir` (`~/.claude`; the caller passes it in).
pub fn read_claude_code(claude_dir: &Path) -> ClaudeCodeInstall {
    let path = claude_dir.join(INSTALLED_PLUGINS);
    let mut out = ClaudeCodeInstall::default();
    let value = match read_json(&path, None, RECORD_CAP) {
        Ok(value) => value,
        Err(e) if e.is_missing() => return out,
        Err(e) => {
            out.has_record = true;
            out.warnings.push(PluginWarning::new(format!(
                "Claude Code's plugins are not read: {e}"
            )));
            return out;
        }
    };
    out.has_record = true;
    let unreadable = |why: &str| {
        PluginWarning::at(
            &path,
            format!(
                "Claude Code's plugin record is not in a format weft knows ({why}); its plugins are not read"
            ),
        )
    };
    let version = value.get("version").and_then(Value::as_u64);
    let Some(plugins) = value.get("plugins").and_then(Value::as_object) else {
        out.warnings.push(unreadable("no `plugins` object"));
        return out;
    };
    if !matches!(version, Some(1 | 2)) {
        out.warnings.push(unreadable(&format!(
            "version {}",
            version.map_or_else(|| "missing".to_owned(), |v| v.to_string())
        )));
        return out;
    }
    for (id, entries) in plugins {
        if split_id(id).is_none() {
            out.warnings.push(PluginWarning::at(
                &path,
                format!("{id:?} is not a plugin id; skipped"),
            ));
            continue;
        }
        // Version 2: an array of installs; version 1: one install, for the user.
        let installs: Vec<&Value> = match entries {
            Value::Array(items) => items.iter().collect(),
            Value::Object(_) => vec![entries],
            _ => {
                out.warnings.push(PluginWarning::at(
                    &path,
                    format!("`{id}` is not a list of installs; skipped"),
                ));
                continue;
            }
        };
        for install in installs {
            match read_install(id, install) {
                Ok(plugin) => out.plugins.push(plugin),
                Err(why) => out
                    .warnings
                    .push(PluginWarning::at(&path, format!("`{id}`: {why}; skipped"))),
            }
        }
    }
    out
}

fn read_install(id: &str, install: &Value) -> Result<ClaudeCodePlugin, String> {
    let text = |k: &str| install.get(k).and_then(Value::as_str);
    let scope = match text("scope") {
        None => ClaudeScope::User,
        Some(s) => ClaudeScope::parse(s).ok_or_else(|| format!("unknown scope {s:?}"))?,
    };
    let install_path = text("installPath").ok_or("no `installPath`")?;
    let install_path = PathBuf::from(install_path);
    if !install_path.is_absolute() {
        return Err("`installPath` is not absolute".to_owned());
    }
    Ok(ClaudeCodePlugin {
        id: id.to_owned(),
        scope,
        project: text("projectPath").map(PathBuf::from),
        install_path,
        version: text("version").map(str::to_owned),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(dir: &Path, text: &str) {
        std::fs::create_dir_all(dir.join("plugins")).unwrap();
        std::fs::write(dir.join(INSTALLED_PLUGINS), text).unwrap();
    }

    #[test]
    fn both_observed_versions_are_read_and_others_degrade() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        assert_eq!(read_claude_code(dir), ClaudeCodeInstall::default());
        record(
            dir,
            r#"{"version": 2, "plugins": {
                "fmt@acme": [{"scope": "user", "installPath": "/c/fmt/1.0.0", "version": "1.0.0"},
                             {"scope": "project", "projectPath": "/work/app", "installPath": "/c/fmt/1.1.0"}],
                "odd@acme": [{"scope": "galaxy", "installPath": "/x"}],
                "../bad": []}}"#,
        );
        let read = read_claude_code(dir);
        assert_eq!(read.plugins.len(), 2);
        assert_eq!(read.plugins[1].scope, ClaudeScope::Project);
        assert_eq!(
            read.plugins[1].project.as_deref(),
            Some(Path::new("/work/app"))
        );
        assert_eq!(read.warnings.len(), 2, "{:?}", read.warnings);
        record(
            dir,
            r#"{"version": 1, "plugins": {"fmt@acme": {"installPath": "/c/fmt", "version": "0.9"}}}"#,
        );
        assert_eq!(read_claude_code(dir).plugins[0].scope, ClaudeScope::User);
        record(dir, r#"{"version": 3, "plugins": {}}"#);
        let read = read_claude_code(dir);
        assert!(read.plugins.is_empty());
        assert!(
            read.warnings[0].message.contains("version 3"),
            "{:?}",
            read.warnings
        );
        record(dir, "not json");
        assert!(
            read_claude_code(dir).warnings[0]
                .message
                .contains("not valid JSON")
        );
    }
}
