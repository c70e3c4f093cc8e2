//! The plugin keys of Claude Code's settings files: `enabledPlugins` (`{"name@mkt": bool}`)
//! and `extraKnownMarketplaces` (`{name: {source: {...}}}`), which a team commits in
//! `.claude/settings.json` to share plugins. Only these keys are read here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::error::{PluginError, PluginWarning};
use crate::json::{RECORD_CAP, read_json};

/// Where a declared marketplace comes from (`extraKnownMarketplaces.<name>.source`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "source", rename_all = "kebab-case")]
pub enum DeclaredSource {
    /// `{"source": "github", "repo": "owner/repo", "ref"?}`.
    Github {
        /// `owner/repo`.
        repo: String,
        /// A branch or tag.
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        reference: Option<String>,
    },
    /// `{"source": "git", "url", "ref"?}`.
    Git {
        /// The repository URL.
        url: String,
        /// A branch or tag.
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        reference: Option<String>,
    },
    /// `{"source": "directory", "path"}`.
    Directory {
        /// The directory.
        path: String,
    },
    /// A form weft does not fetch (`url` of a bare marketplace.json, `npm`, ...).
    Unsupported {
        /// Its name.
        kind: String,
    },
}

impl DeclaredSource {
    /// What weft-install's `Source::parse` takes for it (a GitHub repository as its URL), and
    /// the revision; `None` for an unsupported form.
    pub fn location(&self) -> Option<(String, Option<String>)> {
        match self {
            DeclaredSource::Github { repo, reference } => Some((
                format!("https://github.com/{}.git", repo.trim_end_matches(".git")),
                reference.clone(),
            )),
            DeclaredSource::Git { url, reference } => Some((url.clone(), reference.clone())),
            DeclaredSource::Directory { path } => Some((path.clone(), None)),
            DeclaredSource::Unsupported { .. } => None,
        }
    }

    /// The JSON Claude Code writes for it.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn read(value: &Value) -> Result<Self, String> {
        let map = value.as_object().ok_or("`source` must be an object")?;
        let text = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_owned);
        let kind = text("source").ok_or("`source.source` is required")?;
        let reference = text("ref");
        Ok(match kind.as_str() {
            "github" => DeclaredSource::Github {
                repo: text("repo").ok_or("`source.repo` is required")?,
                reference,
            },
            "git" => DeclaredSource::Git {
                url: text("url").ok_or("`source.url` is required")?,
                reference,
            },
            "directory" => DeclaredSource::Directory {
                path: text("path").ok_or("`source.path` is required")?,
            },
            other => DeclaredSource::Unsupported {
                kind: other.to_owned(),
            },
        })
    }
}

/// The plugin keys of one or more settings files.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PluginSettings {
    /// `enabledPlugins`: id to on or off (a later file's value wins).
    pub enabled: BTreeMap<String, bool>,
    /// `extraKnownMarketplaces`: name to source (a later file's entry is taken whole).
    pub marketplaces: BTreeMap<String, DeclaredSource>,
    /// The files read.
    pub files: Vec<PathBuf>,
    /// What could not be read or used.
    pub warnings: Vec<PluginWarning>,
}

impl PluginSettings {
    /// Reads `files` in order (lowest precedence first, e.g. `.claude/settings.json` then
    /// `.claude/settings.local.json`); a missing file is skipped, one that cannot be read is
    /// a warning.
    pub fn read(files: &[PathBuf]) -> Self {
        let mut out = PluginSettings::default();
        for path in files {
            match read_json(path, None, RECORD_CAP) {
                Ok(value) => out.apply(&value, path),
                Err(e) if e.is_missing() => {}
                Err(e) => out
                    .warnings
                    .push(PluginWarning::new(format!("plugin settings not read: {e}"))),
            }
        }
        out
    }

    fn apply(&mut self, value: &Value, path: &Path) {
        self.files.push(path.to_path_buf());
        if let Some(enabled) = value.get("enabledPlugins") {
            match enabled.as_object() {
                Some(map) => {
                    for (id, on) in map {
                        match on.as_bool() {
                            Some(on) => {
                                self.enabled.insert(id.clone(), on);
                            }
                            None => self.warnings.push(PluginWarning::at(
                                path,
                                format!("`enabledPlugins.{id}` is not true or false; ignored"),
                            )),
                        }
                    }
                }
                None => self.warnings.push(PluginWarning::at(
                    path,
                    "`enabledPlugins` is not an object; ignored",
                )),
            }
        }
        if let Some(Value::Object(map)) = value.get("extraKnownMarketplaces") {
            for (name, entry) in map {
                match entry.get("source").map(DeclaredSource::read) {
                    Some(Ok(source)) => {
                        self.marketplaces.insert(name.clone(), source);
                    }
                    Some(Err(reason)) => self.warnings.push(PluginWarning::at(
                        path,
                        format!("`extraKnownMarketplaces.{name}`: {reason}; ignored"),
                    )),
                    None => self.warnings.push(PluginWarning::at(
                        path,
                        format!("`extraKnownMarketplaces.{name}` has no `source`; ignored"),
                    )),
                }
            }
        }
    }

    /// Whether `id` is switched on (`Some(true)`), off, or not mentioned (`None`).
    pub fn is_enabled(&self, id: &str) -> Option<bool> {
        self.enabled.get(id).copied()
    }
}

/// A project's settings files that can enable plugins, lowest precedence first.
pub fn project_settings_files(project: &Path) -> Vec<PathBuf> {
    vec![
        project.join(".claude/settings.json"),
        project.join(".claude/settings.local.json"),
    ]
}

/// Reads the `source` of a marketplace declaration for a caller that builds one
/// (`weft plugin marketplace add --project`).
pub fn declared_source(value: &Value) -> Result<DeclaredSource, PluginError> {
    DeclaredSource::read(value).map_err(|r| PluginError::invalid("extraKnownMarketplaces", r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_files_win_and_bad_values_are_warned() {
        let tmp = tempfile::tempdir().unwrap();
        let shared = tmp.path().join("settings.json");
        let local = tmp.path().join("settings.local.json");
        std::fs::write(
            &shared,
            r#"{"permissions": {"allow": []}, "enabledPlugins": {"fmt@acme": true, "lint@acme": true, "bad@acme": "yes"},
                "extraKnownMarketplaces": {"acme": {"source": {"source": "github", "repo": "acme/plugins"}},
                                          "broken": {"source": {"source": "git"}}}}"#,
        )
        .unwrap();
        std::fs::write(&local, r#"{"enabledPlugins": {"lint@acme": false}}"#).unwrap();
        let settings = PluginSettings::read(&[shared, local, tmp.path().join("missing.json")]);
        assert_eq!(settings.is_enabled("fmt@acme"), Some(true));
        assert_eq!(settings.is_enabled("lint@acme"), Some(false));
        assert_eq!(settings.is_enabled("other@acme"), None);
        assert_eq!(
            settings.marketplaces["acme"].location(),
            Some(("https://github.com/acme/plugins.git".into(), None))
        );
        assert_eq!(settings.warnings.len(), 2, "{:?}", settings.warnings);
        assert_eq!(
            DeclaredSource::Github {
                repo: "a/b".into(),
                reference: None
            }
            .to_value(),
            serde_json::json!({"source": "github", "repo": "a/b"})
        );
    }
}
