//! Switching installed plugins on and off, removing them, and verifying their files against
//! the lock.

use std::collections::BTreeMap;

use serde::Serialize;
use weft_install::{FileEntry, VerifyStatus, tree_hash, verify_dir};
use weft_plugin::PluginRecord;

use crate::error::MarketplaceError;
use crate::install::parse_id;
use crate::records;
use crate::settings_edit::set_entry;
use crate::target::PluginTarget;

fn not_installed(target: &PluginTarget, id: &str) -> MarketplaceError {
    MarketplaceError::NotInstalled {
        id: id.to_owned(),
        where_: target.scope.phrase().to_owned(),
    }
}

/// Switches weft's install of plugin `id` on or off. In the project scope the team's
/// `.claude/settings.json` says it too (`enabledPlugins`), since that is what decides there.
pub fn set_enabled(target: &PluginTarget, id: &str, on: bool) -> Result<(), MarketplaceError> {
    parse_id(id)?;
    let _lock = target.install.exclusive()?;
    let mut lock = records::load(target)?;
    let record = lock
        .plugins
        .get_mut(id)
        .ok_or_else(|| not_installed(target, id))?;
    record.enabled = on;
    if let Some(settings) = target.shared_settings() {
        set_entry(
            &settings,
            "enabledPlugins",
            id,
            Some(serde_json::Value::Bool(on)),
        )?;
    }
    records::save(target, &lock)
}

/// Switches a plugin Claude Code installed on or off for weft only (recorded in the user's
/// `plugins.lock`; Claude Code's files are never written).
pub fn set_claude_code_enabled(
    target: &PluginTarget,
    id: &str,
    on: bool,
) -> Result<(), MarketplaceError> {
    parse_id(id)?;
    let _lock = target.install.exclusive()?;
    let mut lock = records::load(target)?;
    lock.claude_code.insert(id.to_owned(), on);
    target.prepare()?;
    records::save(target, &lock)
}

/// Removes plugin `id`: its files, its data directory and its record; in the project scope
/// its `enabledPlugins` entry too.
pub fn remove_plugin(target: &PluginTarget, id: &str) -> Result<PluginRecord, MarketplaceError> {
    parse_id(id)?;
    let _lock = target.install.exclusive()?;
    let mut lock = records::load(target)?;
    let record = lock
        .plugins
        .remove(id)
        .ok_or_else(|| not_installed(target, id))?;
    target
        .install
        .delete_tree_in(&target.store.cache_dir(&record.marketplace), &record.name)?;
    let data = target.store.dir().join("data");
    if data.is_dir() {
        target.install.delete_tree_in(&data, id)?;
    }
    if let Some(settings) = target.shared_settings().filter(|s| s.is_file()) {
        set_entry(&settings, "enabledPlugins", id, None)?;
    }
    records::save(target, &lock)?;
    Ok(record)
}

/// One plugin's files compared with its record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PluginVerification {
    /// `name@marketplace`.
    pub id: String,
    /// The result.
    #[serde(flatten)]
    pub status: VerifyStatus,
}

/// Compares every installed plugin's files with the hashes its record pins, in id order.
/// A record whose file list does not hash to its own tree hash is reported as unreadable:
/// the lock itself was edited.
pub fn verify_plugins(target: &PluginTarget) -> Result<Vec<PluginVerification>, MarketplaceError> {
    let lock = records::load(target)?;
    Ok(lock
        .plugins
        .iter()
        .map(|(id, record)| PluginVerification {
            id: id.clone(),
            status: verify_record(target, record),
        })
        .collect())
}

fn verify_record(target: &PluginTarget, record: &PluginRecord) -> VerifyStatus {
    let files: BTreeMap<String, FileEntry> = match serde_json::from_value(record.files.clone()) {
        Ok(files) => files,
        Err(e) => {
            return VerifyStatus::Unreadable {
                reason: format!("the record's file list is not readable: {e}"),
            };
        }
    };
    if tree_hash(&files) != record.tree_sha256 {
        return VerifyStatus::Unreadable {
            reason: "the record's file list does not match its tree hash (the lock was edited)"
                .to_owned(),
        };
    }
    verify_dir(
        &target.store.plugin_dir(&record.marketplace, &record.name),
        &files,
    )
}
