//! Switching installed plugins on and off, removing them, and verifying their files against
//! the lock.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use weft_install::{FileEntry, SetAside, VerifyStatus, tree_hash, verify_dir};
use weft_plugin::{PluginLock, PluginRecord};

use crate::error::MarketplaceError;
use crate::install::parse_id;
use crate::records;
use crate::settings_edit::{SettingsEdit, restore_settings, set_entries, set_entry};
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
/// its `enabledPlugins` entry too. All or nothing (see [`remove_together`]).
pub fn remove_plugin(target: &PluginTarget, id: &str) -> Result<PluginRecord, MarketplaceError> {
    parse_id(id)?;
    let _lock = target.install.exclusive()?;
    let mut lock = records::load(target)?;
    let record = lock
        .plugins
        .get(id)
        .cloned()
        .ok_or_else(|| not_installed(target, id))?;
    remove_together(target, &mut lock, &[id.to_owned()], None)?;
    Ok(record)
}

/// Removes the plugins `ids` and, when named, `marketplace` from the scope (the caller
/// holds its exclusive lock and passes its record, `lock`): their trees are moved aside
/// first, the team's settings file is edited in one write (`enabledPlugins`,
/// `extraKnownMarketplaces`) and the record written last; when a step fails, the steps
/// before it are undone, so nothing is half removed. The trees set aside are deleted at the
/// end.
pub(crate) fn remove_together(
    target: &PluginTarget,
    lock: &mut PluginLock,
    ids: &[String],
    marketplace: Option<&str>,
) -> Result<(), MarketplaceError> {
    let mut trees: Vec<SetAside> = Vec::new();
    let undo = |trees: Vec<SetAside>| {
        for tree in trees.into_iter().rev() {
            if let Err(e) = tree.restore() {
                tracing::warn!(error = %e, "could not put a plugin's files back");
            }
        }
    };
    let data = target.store.dir().join("data");
    let mut aside = |parent: &Path, entry: &str| -> Result<(), MarketplaceError> {
        if let Some(tree) = target.install.set_aside_in(parent, entry)? {
            trees.push(tree);
        }
        Ok(())
    };
    let moved = (|| {
        for id in ids {
            if let Some(plugin) = lock.plugins.get(id) {
                aside(&target.store.cache_dir(&plugin.marketplace), &plugin.name)?;
            }
            if data.is_dir() {
                aside(&data, id)?;
            }
        }
        match marketplace {
            Some(name) => aside(&target.store.marketplaces_dir(), name),
            None => Ok(()),
        }
    })();
    if let Err(e) = moved {
        undo(trees);
        return Err(e);
    }
    let settings = target.shared_settings();
    let mut edits: Vec<SettingsEdit<'_>> = ids
        .iter()
        .map(|id| ("enabledPlugins", id.as_str(), None))
        .collect();
    if let Some(name) = marketplace {
        edits.push(("extraKnownMarketplaces", name, None));
    }
    let before = match settings.as_deref().map(|s| set_entries(s, &edits)) {
        Some(Err(e)) => {
            undo(trees);
            return Err(e);
        }
        Some(Ok(before)) => before,
        None => None,
    };
    for id in ids {
        lock.plugins.remove(id);
    }
    if let Some(name) = marketplace {
        lock.marketplaces.remove(name);
    }
    if let Err(e) = records::save(target, lock) {
        if let Some(settings) = &settings {
            restore_settings(settings, before);
        }
        undo(trees);
        return Err(e);
    }
    for tree in trees {
        tree.discard();
    }
    Ok(())
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
