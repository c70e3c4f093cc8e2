//! Where weft keeps the plugins it installs, per scope (`~/.clawft` or `<project>/.clawft`),
//! and the record of them, `plugins.lock`: each marketplace's source and pinned commit, each
//! plugin's source, commit, tree hash, files and whether it is enabled. This crate reads the
//! record; weft-marketplace writes it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::PluginError;
use crate::json::{RECORD_CAP, read_json};

/// The lockfile's format version.
pub const PLUGIN_LOCK_VERSION: u32 = 1;

/// A scope's plugin store: `<clawft>/plugins.lock` and `<clawft>/plugins/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginStore {
    clawft: PathBuf,
}

impl PluginStore {
    /// The store under a `.clawft` directory.
    pub fn new(clawft_dir: impl Into<PathBuf>) -> Self {
        PluginStore {
            clawft: clawft_dir.into(),
        }
    }

    /// The `.clawft` directory.
    pub fn clawft_dir(&self) -> &Path {
        &self.clawft
    }

    /// `<clawft>/plugins.lock`.
    pub fn lock_path(&self) -> PathBuf {
        self.clawft.join("plugins.lock")
    }

    /// `<clawft>/plugins`: everything fetched (never committed: it holds a `.gitignore`).
    pub fn dir(&self) -> PathBuf {
        self.clawft.join("plugins")
    }

    /// `<clawft>/plugins/marketplaces`: one fetched copy per marketplace.
    pub fn marketplaces_dir(&self) -> PathBuf {
        self.dir().join("marketplaces")
    }

    /// The copy of marketplace `name`.
    pub fn marketplace_dir(&self, name: &str) -> PathBuf {
        self.marketplaces_dir().join(name)
    }

    /// `<clawft>/plugins/cache/<marketplace>`: the installed plugins of one marketplace.
    pub fn cache_dir(&self, marketplace: &str) -> PathBuf {
        self.dir().join("cache").join(marketplace)
    }

    /// The installed copy of plugin `name` from `marketplace`: `${CLAUDE_PLUGIN_ROOT}`.
    pub fn plugin_dir(&self, marketplace: &str, name: &str) -> PathBuf {
        self.cache_dir(marketplace).join(name)
    }

    /// The data directory of plugin `id` (`name@marketplace`), which survives updates:
    /// `${CLAUDE_PLUGIN_DATA}`.
    pub fn data_dir(&self, id: &str) -> PathBuf {
        self.dir().join("data").join(id)
    }

    /// The record (empty when there is none).
    pub fn load_lock(&self) -> Result<PluginLock, PluginError> {
        PluginLock::load(&self.lock_path())
    }
}

/// Where a marketplace or plugin was fetched from, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedSource {
    /// `git` or `local` (weft-install's source kinds).
    #[serde(rename = "type")]
    pub kind: String,
    /// The URL or absolute path.
    pub location: String,
    /// The revision asked for.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The directory inside the source (a plugin inside its marketplace).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subpath: String,
}

/// A marketplace a store knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketplaceRecord {
    /// Where it comes from.
    pub source: RecordedSource,
    /// The commit fetched (git).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The hash of the copy's files.
    pub tree_sha256: String,
    /// When it was last fetched (RFC 3339).
    pub updated_at: String,
}

/// An installed plugin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginRecord {
    /// Its name.
    pub name: String,
    /// The marketplace it was installed from.
    pub marketplace: String,
    /// Its version (the manifest's, else the marketplace entry's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Where its files came from.
    pub source: RecordedSource,
    /// The commit they were taken at (git).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The hash of its files (weft-install's tree hash).
    pub tree_sha256: String,
    /// When it was installed or last updated (RFC 3339).
    pub installed_at: String,
    /// Whether its skills, commands, agents, hooks and MCP servers are in use. In a
    /// project, `enabledPlugins` in `.claude/settings.json` (and `.local.json`) overrides it.
    pub enabled: bool,
    /// The scan's summary (weft-install's scan record).
    #[serde(default)]
    pub scan: Value,
    /// Every file with its hash (weft-install's file entries).
    #[serde(default)]
    pub files: Value,
}

/// `plugins.lock`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginLock {
    /// Format version.
    pub version: u32,
    /// Known marketplaces, by name.
    #[serde(default)]
    pub marketplaces: BTreeMap<String, MarketplaceRecord>,
    /// Installed plugins, by id (`name@marketplace`).
    #[serde(default)]
    pub plugins: BTreeMap<String, PluginRecord>,
    /// Claude Code's plugins switched on or off for weft (user scope only): weft never
    /// writes Claude Code's own files.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub claude_code: BTreeMap<String, bool>,
}

impl Default for PluginLock {
    fn default() -> Self {
        PluginLock {
            version: PLUGIN_LOCK_VERSION,
            marketplaces: BTreeMap::new(),
            plugins: BTreeMap::new(),
            claude_code: BTreeMap::new(),
        }
    }
}

impl PluginLock {
    /// Reads `path` (a regular file of at most 32 MiB; none is an empty record). Names in
    /// it must be valid (a lockfile may come from someone else's commit).
    pub fn load(path: &Path) -> Result<Self, PluginError> {
        let value = match read_json(path, None, RECORD_CAP) {
            Ok(v) => v,
            Err(e) if e.is_missing() => return Ok(PluginLock::default()),
            Err(e) => return Err(e),
        };
        let lock: PluginLock = serde_json::from_value(value)
            .map_err(|e| PluginError::invalid(path, format!("not a plugins.lock: {e}")))?;
        if lock.version != PLUGIN_LOCK_VERSION {
            return Err(PluginError::invalid(
                path,
                format!(
                    "format version {} is not one this weft reads ({PLUGIN_LOCK_VERSION})",
                    lock.version
                ),
            ));
        }
        for name in lock.marketplaces.keys() {
            crate::manifest::check_name(name)
                .map_err(|r| PluginError::invalid(path, format!("marketplace name {r}")))?;
        }
        for (id, record) in &lock.plugins {
            crate::manifest::check_name(&record.name)
                .and_then(|()| crate::manifest::check_name(&record.marketplace))
                .map_err(|r| PluginError::invalid(path, format!("plugin `{id}`: {r}")))?;
            if *id != plugin_id(&record.name, &record.marketplace) {
                return Err(PluginError::invalid(
                    path,
                    format!(
                        "plugin `{id}` is recorded as {}",
                        plugin_id(&record.name, &record.marketplace)
                    ),
                ));
            }
        }
        Ok(lock)
    }

    /// The JSON text: pretty, keys sorted, final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// `name@marketplace`.
pub fn plugin_id(name: &str, marketplace: &str) -> String {
    format!("{name}@{marketplace}")
}

/// `name@marketplace` split, both parts valid names; `None` otherwise.
pub fn split_id(id: &str) -> Option<(&str, &str)> {
    let (name, marketplace) = id.split_once('@')?;
    (crate::manifest::check_name(name).is_ok() && crate::manifest::check_name(marketplace).is_ok())
        .then_some((name, marketplace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_round_trips_and_hostile_names_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let store = PluginStore::new(tmp.path());
        assert_eq!(store.load_lock().unwrap(), PluginLock::default());
        let mut lock = PluginLock::default();
        lock.plugins.insert(
            "fmt@acme".into(),
            PluginRecord {
                name: "fmt".into(),
                marketplace: "acme".into(),
                version: Some("1.0.0".into()),
                source: RecordedSource {
                    kind: "git".into(),
                    location: "https://example.com/m.git".into(),
                    reference: None,
                    subpath: "plugins/fmt".into(),
                },
                commit: Some("a".repeat(40)),
                tree_sha256: "b".repeat(64),
                installed_at: "2026-11-27T00:00:00Z".into(),
                enabled: true,
                scan: Value::Null,
                files: Value::Null,
            },
        );
        std::fs::write(store.lock_path(), lock.to_json()).unwrap();
        assert_eq!(store.load_lock().unwrap(), lock);
        let text = lock
            .to_json()
            .replace("\"name\": \"fmt\"", "\"name\": \"../x\"");
        std::fs::write(store.lock_path(), text).unwrap();
        let err = store.load_lock().unwrap_err().to_string();
        assert!(err.contains("plugin `fmt@acme`"), "{err}");
        assert_eq!(split_id("fmt@acme"), Some(("fmt", "acme")));
        assert_eq!(split_id("fmt"), None);
        assert_eq!(split_id("../x@acme"), None);
    }
}
