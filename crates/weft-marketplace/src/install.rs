//! Installing and updating a plugin: fetched (from its marketplace's copy for a relative
//! source, from its own repository otherwise), planned (see [`crate::plan`]), then written
//! and recorded.

use std::time::SystemTime;

use weft_install::{
    FetchOptions, Resolved, Source, changes, fetch, file_entries, read_installed_tree, rfc3339,
    subtree,
};
use weft_plugin::{
    Marketplace, MarketplaceRecord, PluginRecord, PluginSource, RecordedSource, plugin_id, split_id,
};
use weft_scan::Package;

use crate::error::MarketplaceError;
use crate::marketplaces::{declared, known, parse_marketplace, read_copy, record_of};
use crate::plan::{PlanInput, PluginPlan, plan};
use crate::records::{self, recorded, source_of};
use crate::settings_edit::set_entry;
use crate::target::PluginTarget;

/// `name@marketplace`, both valid names.
pub(crate) fn parse_id(id: &str) -> Result<(&str, &str), MarketplaceError> {
    split_id(id).ok_or_else(|| MarketplaceError::BadId(id.to_owned()))
}

/// The files of the plugin `entry` names: a directory of the marketplace's tree, or its own
/// repository fetched; with where they came from and the commit.
async fn plugin_files(
    id: &str,
    marketplace: &Marketplace,
    marketplace_tree: &Package,
    marketplace_record: &MarketplaceRecord,
    entry_source: &PluginSource,
    options: &FetchOptions,
) -> Result<(Package, RecordedSource, Option<String>), MarketplaceError> {
    match entry_source {
        PluginSource::Relative { path } => {
            let dir = marketplace.relative_dir(path);
            let package = subtree(marketplace_tree, &dir, true)?;
            if package.files().is_empty() {
                return Err(weft_plugin::PluginError::invalid(
                    weft_plugin::MARKETPLACE_FILE,
                    format!("plugin `{id}`: its source ./{dir} holds no files"),
                )
                .into());
            }
            let mut source = marketplace_record.source.clone();
            source.subpath = dir;
            Ok((package, source, marketplace_record.commit.clone()))
        }
        PluginSource::Git { url, .. } => {
            // git takes the path of a repository as a URL; so does Claude Code's `url`.
            let source = match Source::parse(url, std::path::Path::new("/"))? {
                Source::Local(dir) if is_git_repository(&dir) => {
                    Source::Git(format!("file://{}", dir.display()))
                }
                other => other,
            };
            if !matches!(source, Source::Git(_)) {
                return Err(MarketplaceError::UnsupportedSource {
                    id: id.to_owned(),
                    source_form: format!("{url} (not a git repository)"),
                });
            }
            let rev = entry_source.revision();
            let fetched = fetch(&source, rev, options).await?;
            let commit = match fetched.resolved {
                Resolved::Commit(c) => Some(c),
                _ => None,
            };
            Ok((fetched.tree, recorded(&source, rev, ""), commit))
        }
        PluginSource::Unsupported { kind } => Err(MarketplaceError::UnsupportedSource {
            id: id.to_owned(),
            source_form: format!("a `{kind}` source"),
        }),
    }
}

/// A work tree with `.git`, or a bare repository (`HEAD` and `objects/`).
fn is_git_repository(dir: &std::path::Path) -> bool {
    dir.join(".git").exists() || (dir.join("HEAD").is_file() && dir.join("objects").is_dir())
}

/// Plans installing plugin `id` (`name@marketplace`) from the scope's copy of its
/// marketplace: fetched, resolved, scanned; nothing written.
pub async fn plan_install(
    target: &PluginTarget,
    id: &str,
    options: &FetchOptions,
) -> Result<PluginPlan, MarketplaceError> {
    let (name, marketplace_name) = parse_id(id)?;
    let lock = records::load(target)?;
    let record = known(&lock, marketplace_name)?;
    if let Some(installed) = lock.plugins.get(id) {
        return Err(MarketplaceError::AlreadyInstalled {
            id: id.to_owned(),
            path: target
                .store
                .plugin_dir(&installed.marketplace, &installed.name),
        });
    }
    let (tree, marketplace, _) = read_copy(target, marketplace_name, options)?;
    plan_from(target, name, &marketplace, &tree, &record, options).await
}

async fn plan_from(
    target: &PluginTarget,
    name: &str,
    marketplace: &Marketplace,
    tree: &Package,
    record: &MarketplaceRecord,
    options: &FetchOptions,
) -> Result<PluginPlan, MarketplaceError> {
    let id = plugin_id(name, &marketplace.name);
    let entry = marketplace
        .plugin(name)
        .ok_or_else(|| MarketplaceError::UnknownPlugin {
            name: name.to_owned(),
            marketplace: marketplace.name.clone(),
            available: marketplace.plugins.iter().map(|p| p.name.clone()).collect(),
        })?;
    let (package, source, commit) =
        plugin_files(&id, marketplace, tree, record, &entry.source, options).await?;
    plan(
        &target.install,
        PlanInput {
            name,
            marketplace: &marketplace.name,
            entry: Some(entry),
            package,
            source,
            commit,
        },
    )
}

/// Plans installing exactly what the scope's lock pins for plugin `id` (a teammate's
/// `weft plugin install --project` after pulling): its recorded source at its recorded
/// commit, refused when the files' tree hash is not the pinned one.
pub async fn plan_locked(
    target: &PluginTarget,
    id: &str,
    options: &FetchOptions,
) -> Result<PluginPlan, MarketplaceError> {
    let lock = records::load(target)?;
    let record = lock
        .plugins
        .get(id)
        .cloned()
        .ok_or_else(|| MarketplaceError::NotInstalled {
            id: id.to_owned(),
            where_: target.scope.phrase().to_owned(),
        })?;
    let source = source_of(&record.source)?;
    let rev = record
        .commit
        .as_deref()
        .or(record.source.reference.as_deref());
    let fetched = fetch(
        &source,
        rev.filter(|_| matches!(source, Source::Git(_))),
        options,
    )
    .await?;
    let package = subtree(&fetched.tree, &record.source.subpath, true)?;
    // The marketplace entry, when its copy is here (a non-strict entry defines the plugin).
    let marketplace = if record.source.subpath.is_empty() {
        None
    } else {
        parse_marketplace(&fetched.tree, &source).ok()
    };
    let found = weft_install::tree_hash(&file_entries(&package));
    if found != record.tree_sha256 {
        return Err(MarketplaceError::PinMismatch {
            id: id.to_owned(),
            lock: target.store.lock_path(),
            expected: record.tree_sha256,
            found,
        });
    }
    let mut planned = plan(
        &target.install,
        PlanInput {
            name: &record.name,
            marketplace: &record.marketplace,
            entry: marketplace.as_ref().and_then(|m| m.plugin(&record.name)),
            package,
            source: record.source.clone(),
            commit: record.commit.clone(),
        },
    )?;
    // A teammate's checkout has the marketplace's record but not its copy: the copy at the
    // pinned commit comes with the plugin.
    if !target.store.marketplace_dir(&record.marketplace).is_dir()
        && marketplace
            .as_ref()
            .is_some_and(|m| m.name == record.marketplace)
    {
        let marketplace_record = lock
            .marketplaces
            .get(&record.marketplace)
            .cloned()
            .unwrap_or_else(|| record_of(&fetched, SystemTime::now()));
        planned.marketplace_refresh = Some((fetched.tree, marketplace_record));
    }
    Ok(planned)
}

/// Writes a planned plugin into the scope's store and records it (enabled). Refused when
/// the scan found high-severity problems, unless `force`. In the project scope, the plugin
/// and its marketplace are declared in `.claude/settings.json` for the team.
pub fn apply_install(
    target: &PluginTarget,
    plan: &PluginPlan,
    force: bool,
    now: SystemTime,
) -> Result<std::path::PathBuf, MarketplaceError> {
    if plan.blocks_install() && !force {
        return Err(MarketplaceError::Refused {
            id: plan.id.clone(),
            findings: plan.scan.high().cloned().collect(),
        });
    }
    let _lock = target.install.exclusive()?;
    target.prepare()?;
    let mut lock = records::load(target)?;
    let pinned = lock.plugins.get(&plan.id).cloned();
    if let Some(pinned) = &pinned
        && pinned.tree_sha256 != plan.tree_sha256
    {
        return Err(MarketplaceError::AlreadyInstalled {
            id: plan.id.clone(),
            path: target.store.plugin_dir(&plan.marketplace, &plan.name),
        });
    }
    write_marketplace_refresh(target, plan, &mut lock)?;
    // A directory left without a record (an interrupted install), or the pinned plugin a
    // teammate's checkout lacks, is replaced.
    let dir = target.install.put_tree_in(
        &target.store.cache_dir(&plan.marketplace),
        &plan.name,
        &plan.package,
        true,
    )?;
    let record = PluginRecord {
        name: plan.name.clone(),
        marketplace: plan.marketplace.clone(),
        version: plan.version.clone(),
        source: plan.source.clone(),
        commit: plan.commit.clone(),
        tree_sha256: plan.tree_sha256.clone(),
        installed_at: pinned
            .as_ref()
            .map_or_else(|| rfc3339(now), |p| p.installed_at.clone()),
        enabled: pinned.as_ref().is_none_or(|p| p.enabled),
        scan: serde_json::to_value(weft_install::ScanRecord::of(&plan.scan, force))
            .unwrap_or_default(),
        files: serde_json::to_value(file_entries(&plan.package)).unwrap_or_default(),
    };
    if let Some(settings) = target.shared_settings() {
        if let Some(m) = lock.marketplaces.get(&plan.marketplace) {
            set_entry(
                &settings,
                "extraKnownMarketplaces",
                &plan.marketplace,
                Some(serde_json::json!({ "source": declared(m).to_value() })),
            )?;
        }
        set_entry(
            &settings,
            "enabledPlugins",
            &plan.id,
            Some(serde_json::Value::Bool(record.enabled)),
        )?;
    }
    lock.plugins.insert(plan.id.clone(), record);
    records::save(target, &lock)?;
    tracing::info!(plugin = %plan.id, dir = %dir.display(), "plugin installed");
    Ok(dir)
}

fn write_marketplace_refresh(
    target: &PluginTarget,
    plan: &PluginPlan,
    lock: &mut weft_plugin::PluginLock,
) -> Result<(), MarketplaceError> {
    if let Some((tree, record)) = &plan.marketplace_refresh {
        target.install.put_tree_in(
            &target.store.marketplaces_dir(),
            &plan.marketplace,
            tree,
            true,
        )?;
        lock.marketplaces
            .insert(plan.marketplace.clone(), record.clone());
    }
    Ok(())
}

/// An update found for an installed plugin.
#[derive(Debug)]
pub struct PluginUpdate {
    /// The plugin as it would be.
    pub plan: PluginPlan,
    /// What it is now.
    pub old: PluginRecord,
    /// The changes, the ones that widen what it can do first.
    pub changes: Vec<weft_install::Change>,
}

impl PluginUpdate {
    /// True when the files are the ones installed.
    pub fn is_up_to_date(&self) -> bool {
        self.plan.tree_sha256 == self.old.tree_sha256
    }
}

/// Plans updating plugin `id`: its marketplace fetched again (a relative source) or its own
/// repository (a git source), resolved and scanned; nothing written.
pub async fn plan_update(
    target: &PluginTarget,
    id: &str,
    options: &FetchOptions,
    now: SystemTime,
) -> Result<PluginUpdate, MarketplaceError> {
    parse_id(id)?;
    let lock = records::load(target)?;
    let old = lock
        .plugins
        .get(id)
        .cloned()
        .ok_or_else(|| MarketplaceError::NotInstalled {
            id: id.to_owned(),
            where_: target.scope.phrase().to_owned(),
        })?;
    let record = known(&lock, &old.marketplace)?;
    let source = source_of(&record.source)?;
    let fetched = fetch(&source, record.source.reference.as_deref(), options).await?;
    let marketplace = parse_marketplace(&fetched.tree, &source)?;
    let new_record = record_of(&fetched, now);
    let mut planned = plan_from(
        target,
        &old.name,
        &marketplace,
        &fetched.tree,
        &new_record,
        options,
    )
    .await?;
    if new_record.tree_sha256 != record.tree_sha256 {
        planned.marketplace_refresh = Some((fetched.tree, new_record));
    }
    let dir = target.store.plugin_dir(&old.marketplace, &old.name);
    let changes = match read_installed_tree(&dir, options.limits) {
        Ok(current) => changes(&old.name, &current, &planned.package),
        Err(_) => weft_install::changes_for_missing(&old.name, &planned.package),
    };
    Ok(PluginUpdate {
        plan: planned,
        old,
        changes,
    })
}

/// Writes an update (and the marketplace copy fetched for it), keeping whether the plugin is
/// enabled. Refused on high-severity findings unless `force`.
pub fn apply_update(
    target: &PluginTarget,
    update: &PluginUpdate,
    force: bool,
    now: SystemTime,
) -> Result<(), MarketplaceError> {
    let plan = &update.plan;
    if plan.blocks_install() && !force {
        return Err(MarketplaceError::Refused {
            id: plan.id.clone(),
            findings: plan.scan.high().cloned().collect(),
        });
    }
    let _lock = target.install.exclusive()?;
    let mut lock = records::load(target)?;
    let Some(current) = lock.plugins.get(&plan.id).cloned() else {
        return Err(MarketplaceError::NotInstalled {
            id: plan.id.clone(),
            where_: target.scope.phrase().to_owned(),
        });
    };
    write_marketplace_refresh(target, plan, &mut lock)?;
    target.install.put_tree_in(
        &target.store.cache_dir(&plan.marketplace),
        &plan.name,
        &plan.package,
        true,
    )?;
    lock.plugins.insert(
        plan.id.clone(),
        PluginRecord {
            version: plan.version.clone(),
            source: plan.source.clone(),
            commit: plan.commit.clone(),
            tree_sha256: plan.tree_sha256.clone(),
            installed_at: rfc3339(now),
            scan: serde_json::to_value(weft_install::ScanRecord::of(&plan.scan, force))
                .unwrap_or_default(),
            files: serde_json::to_value(file_entries(&plan.package)).unwrap_or_default(),
            ..current
        },
    );
    records::save(target, &lock)?;
    Ok(())
}
