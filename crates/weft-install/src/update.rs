//! Updating: fetch each installed skill's source again (following the recorded `--ref`, so
//! a pinned commit stays put and a branch moves), compare, scan, and replace on request.

use std::time::SystemTime;

use weft_scan::{KnownSkill, Package, ScanReport};

use crate::candidate::find_skills;
use crate::changes::{Change, changes, changes_for_missing};
use crate::error::InstallError;
use crate::fetch::{FetchOptions, Fetched, Resolved, fetch};
use crate::hash::{file_entries, tree_hash};
use crate::install::{lock_entry, others, scan_candidate};
use crate::local::read_installed_tree;
use crate::lock::{LockEntry, LockedSource};
use crate::source::Source;
use crate::target::InstallTarget;
use crate::verify::{VerifyStatus, verify_skill};

/// What updating one skill would do.
#[derive(Debug, Clone)]
pub struct SkillUpdate {
    /// The skill.
    pub name: String,
    /// Its lock entry now.
    pub old: LockEntry,
    /// Where the new version comes from (the subpath may have moved).
    pub source: LockedSource,
    /// What the source resolved to now.
    pub resolved: Resolved,
    /// The new files.
    pub package: Package,
    /// The new files' tree hash.
    pub tree_sha256: String,
    /// The scan of the new files.
    pub scan: ScanReport,
    /// From the installed files to the new ones, sensitive changes first.
    pub changes: Vec<Change>,
    /// The installed files against the lock: what was changed here since the install, which
    /// the update would overwrite.
    pub local: VerifyStatus,
}

impl SkillUpdate {
    /// Nothing to do: the source has what is installed, and the installed files are intact.
    pub fn is_up_to_date(&self) -> bool {
        self.changes.is_empty() && self.tree_sha256 == self.old.tree_sha256
    }

    /// The local changes the update would overwrite (`modified SKILL.md`, `added x`,
    /// `removed y`); empty when the installed copy is as installed.
    pub fn local_changes(&self) -> Vec<String> {
        match &self.local {
            VerifyStatus::Tampered {
                modified,
                missing,
                extra,
            } => modified
                .iter()
                .map(|f| format!("modified {f}"))
                .chain(extra.iter().map(|f| format!("added {f}")))
                .chain(missing.iter().map(|f| format!("removed {f}")))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// What an update would do, skill by skill.
#[derive(Debug, Clone, Default)]
pub struct UpdatePlan {
    /// One entry per skill looked at, in name order.
    pub updates: Vec<SkillUpdate>,
}

impl UpdatePlan {
    /// The skills that would change.
    pub fn pending(&self) -> impl Iterator<Item = &SkillUpdate> {
        self.updates.iter().filter(|u| !u.is_up_to_date())
    }
}

/// Fetches the sources of `names` (every installed skill when empty) and compares.
pub async fn plan_update(
    target: &InstallTarget,
    names: &[String],
    options: &FetchOptions,
    known: &[KnownSkill],
) -> Result<UpdatePlan, InstallError> {
    let lock = target.load_lock()?;
    let chosen: Vec<(String, LockEntry)> = if names.is_empty() {
        lock.skills.clone().into_iter().collect()
    } else {
        names
            .iter()
            .map(|n| {
                lock.skills
                    .get(n)
                    .map(|e| (n.clone(), e.clone()))
                    .ok_or_else(|| InstallError::NotInstalled {
                        name: n.clone(),
                        lock: target.lock_path(),
                    })
            })
            .collect::<Result<_, _>>()?
    };
    let mut fetched: Vec<Fetched> = Vec::new();
    let mut updates = Vec::new();
    for (name, old) in chosen {
        let source = Source::from_locked(old.source.kind, &old.source.location)?;
        let reference = old.source.reference.clone();
        let index = match fetched
            .iter()
            .position(|f| f.source == source && f.requested_ref == reference)
        {
            Some(i) => i,
            None => {
                fetched.push(fetch(&source, reference.as_deref(), options).await?);
                fetched.len() - 1
            }
        };
        let current = &fetched[index];
        let known = others(
            known,
            &lock,
            &old.source.location,
            std::slice::from_ref(&name),
        );
        updates.push(compare(target, &name, old, current, options, known)?);
    }
    Ok(UpdatePlan { updates })
}

fn compare(
    target: &InstallTarget,
    name: &str,
    old: LockEntry,
    fetched: &Fetched,
    options: &FetchOptions,
    known: Vec<String>,
) -> Result<SkillUpdate, InstallError> {
    let candidates = find_skills(&fetched.tree, None, &fetched.source.natural_name(), true)?;
    let candidate = candidates
        .iter()
        .find(|c| c.dir == old.source.subpath && c.name() == name)
        .or_else(|| candidates.iter().find(|c| c.name() == name))
        .ok_or_else(|| InstallError::SkillGone {
            source_name: fetched.source.to_string(),
            name: name.to_owned(),
        })?;
    if !candidate.is_valid() {
        return Err(InstallError::InvalidSkill {
            name: name.to_owned(),
            dir: candidate.dir.clone(),
            diagnostics: candidate.parsed.diagnostics.clone(),
        });
    }
    let dir = target.skill_dir(name);
    let local = verify_skill(target, name, &old);
    let changes = if std::fs::symlink_metadata(&dir).is_ok() {
        let installed = read_installed_tree(&dir, options.limits).unwrap_or_default();
        changes(name, &installed, &candidate.package)
    } else {
        changes_for_missing(name, &candidate.package)
    };
    // The skill replaces its own installed copy: only typosquats are checked again (the
    // name itself was accepted when it was installed).
    let scan = scan_candidate(candidate, known, Vec::new());
    Ok(SkillUpdate {
        name: name.to_owned(),
        source: LockedSource {
            subpath: candidate.dir.clone(),
            ..old.source.clone()
        },
        old,
        resolved: fetched.resolved.clone(),
        tree_sha256: tree_hash(&file_entries(&candidate.package)),
        changes,
        local,
        package: candidate.package.clone(),
        scan,
    })
}

/// Applies the pending updates of `plan`: refuses (before writing anything) when one has
/// high-severity findings, or would overwrite files changed here since the install, and
/// `force` is not set; replaces each tree, then writes the lockfile once.
pub fn apply_update(
    target: &InstallTarget,
    plan: &UpdatePlan,
    force: bool,
    now: SystemTime,
) -> Result<Vec<String>, InstallError> {
    let _guard = target.exclusive()?;
    if !force && let Some(u) = plan.pending().find(|u| u.scan.blocks_install()) {
        return Err(InstallError::Refused {
            name: u.name.clone(),
            findings: u.scan.high().cloned().collect(),
        });
    }
    if !force && let Some(u) = plan.pending().find(|u| !u.local_changes().is_empty()) {
        return Err(InstallError::LocallyModified {
            name: u.name.clone(),
            files: u.local_changes(),
        });
    }
    let mut lock = target.load_lock()?;
    let mut written = Vec::new();
    let mut failure = None;
    for update in plan.pending() {
        if let Err(e) = target.put_tree(&update.name, &update.package, true) {
            failure = Some(e);
            break;
        }
        let entry = lock_entry(
            &update.source,
            &update.resolved,
            &update.package,
            &update.scan,
            force,
            now,
        );
        lock.skills.insert(update.name.clone(), entry);
        written.push(update.name.clone());
    }
    if !written.is_empty() {
        lock.save(&target.lock_path())?;
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(written),
    }
}
