//! Marketplaces: a repository or directory with `.claude-plugin/marketplace.json`, fetched
//! into the scope's store (`<clawft>/plugins/marketplaces/<name>`) and pinned in
//! `plugins.lock`. Plugins with relative sources are installed from this copy.

use std::path::PathBuf;
use std::time::SystemTime;

use serde::Serialize;
use weft_install::{
    FetchOptions, Fetched, Resolved, Source, fetch, file_entries, rfc3339, tree_hash,
};
use weft_plugin::{DeclaredSource, MARKETPLACE_FILE, Marketplace, MarketplaceRecord, PluginError};
use weft_scan::Package;

use crate::error::MarketplaceError;
use crate::manage::remove_together;
use crate::records::{self, recorded, source_of};
use crate::settings_edit::set_entry;
use crate::target::PluginTarget;

/// A marketplace added.
#[derive(Debug, Clone, Serialize)]
pub struct AddedMarketplace {
    /// Its file.
    pub marketplace: Marketplace,
    /// What was recorded.
    pub record: MarketplaceRecord,
    /// Where its copy is.
    pub dir: PathBuf,
}

/// A marketplace a scope knows.
#[derive(Debug, Clone, Serialize)]
pub struct KnownMarketplace {
    /// Its name.
    pub name: String,
    /// What is recorded.
    pub record: MarketplaceRecord,
    /// Its file, read from the copy (`None` when the copy does not load: `error` says why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marketplace: Option<Marketplace>,
    /// Why the copy does not load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where the copy is.
    pub dir: PathBuf,
}

/// A marketplace fetched again.
#[derive(Debug, Clone, Serialize)]
pub struct MarketplaceUpdate {
    /// Its name.
    pub name: String,
    /// The commit before (git).
    pub old_commit: Option<String>,
    /// The commit now.
    pub new_commit: Option<String>,
    /// False when nothing changed.
    pub changed: bool,
}

/// The marketplace file of a fetched tree.
pub(crate) fn parse_marketplace(
    tree: &Package,
    source: &Source,
) -> Result<Marketplace, MarketplaceError> {
    let path = PathBuf::from(format!("{source}/{MARKETPLACE_FILE}"));
    let file = tree.get(MARKETPLACE_FILE).and_then(weft_scan::PackageFile::bytes).ok_or_else(|| {
        PluginError::invalid(
            &path,
            "no marketplace file here (a marketplace has .claude-plugin/marketplace.json at its root)",
        )
    })?;
    Ok(Marketplace::from_bytes(file, &path)?)
}

/// The record of a fetched marketplace.
pub(crate) fn record_of(fetched: &Fetched, now: SystemTime) -> MarketplaceRecord {
    MarketplaceRecord {
        source: recorded(&fetched.source, fetched.requested_ref.as_deref(), ""),
        commit: match &fetched.resolved {
            Resolved::Commit(c) => Some(c.clone()),
            _ => None,
        },
        tree_sha256: tree_hash(&file_entries(&fetched.tree)),
        updated_at: rfc3339(now),
    }
}

/// How a team's settings file declares `source` (`extraKnownMarketplaces`).
pub(crate) fn declared(record: &MarketplaceRecord) -> DeclaredSource {
    match record.source.kind.as_str() {
        "git" => DeclaredSource::Git {
            url: record.source.location.clone(),
            reference: record.source.reference.clone(),
        },
        _ => DeclaredSource::Directory {
            path: record.source.location.clone(),
        },
    }
}

/// Fetches `source` (at `rev`, for git) and adds it to the scope as the marketplace its file
/// names. Refused when a marketplace of that name is known already.
pub async fn add_marketplace(
    target: &PluginTarget,
    source: &Source,
    rev: Option<&str>,
    options: &FetchOptions,
    now: SystemTime,
) -> Result<AddedMarketplace, MarketplaceError> {
    if !matches!(source, Source::Local(_) | Source::Git(_)) {
        return Err(MarketplaceError::UnsupportedSource {
            id: source.to_string(),
            source_form: "an archive".to_owned(),
        });
    }
    let fetched = fetch(source, rev, options).await?;
    let marketplace = parse_marketplace(&fetched.tree, source)?;
    let name = marketplace.name.clone();
    let _lock = target.install.exclusive()?;
    target.prepare()?;
    let mut lock = records::load(target)?;
    if let Some(known) = lock.marketplaces.get(&name) {
        return Err(MarketplaceError::MarketplaceExists {
            name,
            location: known.source.location.clone(),
        });
    }
    let record = record_of(&fetched, now);
    // A copy left without a record (an interrupted add) is replaced.
    let dir =
        target
            .install
            .put_tree_in(&target.store.marketplaces_dir(), &name, &fetched.tree, true)?;
    if let Some(settings) = target.shared_settings() {
        set_entry(
            &settings,
            "extraKnownMarketplaces",
            &name,
            Some(serde_json::json!({ "source": declared(&record).to_value() })),
        )?;
    }
    lock.marketplaces.insert(name.clone(), record.clone());
    records::save(target, &lock)?;
    tracing::info!(marketplace = %name, "marketplace added");
    Ok(AddedMarketplace {
        marketplace,
        record,
        dir,
    })
}

/// The marketplaces the scope knows, by name.
pub fn list_marketplaces(target: &PluginTarget) -> Result<Vec<KnownMarketplace>, MarketplaceError> {
    let lock = records::load(target)?;
    Ok(lock
        .marketplaces
        .into_iter()
        .map(|(name, record)| {
            let dir = target.store.marketplace_dir(&name);
            let (marketplace, error) = match Marketplace::load(&dir) {
                Ok(m) => (Some(m), None),
                Err(e) => (None, Some(e.to_string())),
            };
            KnownMarketplace {
                name,
                record,
                marketplace,
                error,
                dir,
            }
        })
        .collect())
}

/// The recorded marketplace `name`.
pub(crate) fn known(
    lock: &weft_plugin::PluginLock,
    name: &str,
) -> Result<MarketplaceRecord, MarketplaceError> {
    lock.marketplaces
        .get(name)
        .cloned()
        .ok_or_else(|| MarketplaceError::UnknownMarketplace {
            name: name.to_owned(),
            known: lock.marketplaces.keys().cloned().collect(),
        })
}

/// Fetches marketplace `name` again from its recorded source (following its recorded ref)
/// and replaces the copy. Its installed plugins are not changed (`update` them).
pub async fn update_marketplace(
    target: &PluginTarget,
    name: &str,
    options: &FetchOptions,
    now: SystemTime,
) -> Result<MarketplaceUpdate, MarketplaceError> {
    let record = known(&records::load(target)?, name)?;
    let source = source_of(&record.source)?;
    let fetched = fetch(&source, record.source.reference.as_deref(), options).await?;
    let marketplace = parse_marketplace(&fetched.tree, &source)?;
    if marketplace.name != name {
        return Err(MarketplaceError::NameMismatch {
            expected: name.to_owned(),
            found: marketplace.name,
        });
    }
    let new = record_of(&fetched, now);
    let changed =
        new.tree_sha256 != record.tree_sha256 || !target.store.marketplace_dir(name).is_dir();
    if changed {
        let _lock = target.install.exclusive()?;
        let mut lock = records::load(target)?;
        target.prepare()?;
        target
            .install
            .put_tree_in(&target.store.marketplaces_dir(), name, &fetched.tree, true)?;
        lock.marketplaces.insert(name.to_owned(), new.clone());
        records::save(target, &lock)?;
    }
    Ok(MarketplaceUpdate {
        name: name.to_owned(),
        old_commit: record.commit,
        new_commit: new.commit,
        changed,
    })
}

/// A marketplace removed, with the plugins that were installed from it.
#[derive(Debug, Clone, Serialize)]
pub struct RemovedMarketplace {
    /// Its name.
    pub name: String,
    /// Its record.
    pub record: MarketplaceRecord,
    /// The plugins removed with it (`name@marketplace`).
    pub plugins: Vec<String>,
}

/// The plugins installed from marketplace `name` in this scope: what removing it removes.
pub fn installed_from(target: &PluginTarget, name: &str) -> Result<Vec<String>, MarketplaceError> {
    let lock = records::load(target)?;
    known(&lock, name)?;
    Ok(plugins_of(&lock, name))
}

fn plugins_of(lock: &weft_plugin::PluginLock, name: &str) -> Vec<String> {
    lock.plugins
        .iter()
        .filter(|(_, p)| p.marketplace == name)
        .map(|(id, _)| id.clone())
        .collect()
}

/// Removes marketplace `name` from the scope and, as Claude Code does, the plugins installed
/// from it (their files, data directories, records and, in the project scope, their
/// `enabledPlugins` entries). `agreed` is what the caller showed and the person agreed to
/// lose ([`installed_from`]): when the marketplace has other plugins by now, nothing is
/// removed. Every tree is moved aside first, the settings file edited in one write and the
/// lock written last; when a step fails, the steps before it are undone.
pub fn remove_marketplace(
    target: &PluginTarget,
    name: &str,
    agreed: &[String],
) -> Result<RemovedMarketplace, MarketplaceError> {
    let _lock = target.install.exclusive()?;
    let mut lock = records::load(target)?;
    let record = known(&lock, name)?;
    let plugins = plugins_of(&lock, name);
    let unexpected: Vec<String> = plugins
        .iter()
        .filter(|id| !agreed.contains(id))
        .cloned()
        .collect();
    if !unexpected.is_empty() {
        return Err(MarketplaceError::MarketplaceInUse {
            name: name.to_owned(),
            plugins: unexpected,
        });
    }
    remove_together(target, &mut lock, &plugins, Some(name))?;
    Ok(RemovedMarketplace {
        name: name.to_owned(),
        record,
        plugins,
    })
}

/// Reads marketplace `name`'s copy as a package (for relative plugin sources).
pub(crate) fn read_copy(
    target: &PluginTarget,
    name: &str,
    options: &FetchOptions,
) -> Result<(Package, Marketplace, PathBuf), MarketplaceError> {
    let dir = target.store.marketplace_dir(name);
    let tree = weft_install::read_dir_tree(&dir, options.limits)?;
    let marketplace = parse_marketplace(&tree, &Source::Local(dir.clone()))?;
    Ok((tree, marketplace, dir))
}
