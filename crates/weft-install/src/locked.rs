//! Installing exactly what the lockfile pins (`weft skills install` without a SOURCE): each
//! locked skill's source is fetched at its recorded commit (or its archive checked against
//! the recorded SHA-256), the skill's tree must hash to the recorded tree hash, and only then
//! is it written. The lockfile itself is never rewritten: what a team commits is what every
//! member gets. `update` is what moves a skill to what its source has now.

use weft_scan::{KnownSkill, Package, ScanReport};

use crate::candidate::find_skills;
use crate::error::InstallError;
use crate::fetch::{FetchOptions, Fetched, Resolved, fetch};
use crate::hash::{file_entries, tree_hash};
use crate::install::{others, scan_candidate, taken};
use crate::lock::LockEntry;
use crate::source::{Source, SourceKind};
use crate::target::InstallTarget;
use crate::verify::{VerifyStatus, verify_skill};

/// What installing one locked skill would do.
#[derive(Debug, Clone)]
pub enum LockedAction {
    /// Installed and identical to the lock: nothing to do.
    Present,
    /// The pinned files, fetched and checked against the lock, to be written.
    Write {
        /// The files.
        package: Package,
        /// The scan of the files.
        scan: ScanReport,
        /// How the installed copy differs from the lock (`Missing` when there is none);
        /// anything but `Missing` is replaced only with `--force`.
        installed: VerifyStatus,
    },
}

/// One skill of the lockfile.
#[derive(Debug, Clone)]
pub struct LockedSkill {
    /// The skill (its directory name).
    pub name: String,
    /// Its lock entry.
    pub entry: LockEntry,
    /// What installing it does.
    pub action: LockedAction,
}

/// What installing from the lockfile would do, skill by skill (in name order).
#[derive(Debug, Clone, Default)]
pub struct LockedPlan {
    /// The skills.
    pub skills: Vec<LockedSkill>,
}

impl LockedPlan {
    /// The skills to write.
    pub fn pending(&self) -> impl Iterator<Item = &LockedSkill> {
        self.skills
            .iter()
            .filter(|s| matches!(s.action, LockedAction::Write { .. }))
    }
}

/// Fetches what the lockfile of `target` pins for `names` (every locked skill when empty)
/// whose installed copy is missing or differs, and checks it against the lock: the commit
/// (git), the archive's SHA-256, the skill's tree hash. Nothing is written. `known` are the
/// skills the user has, for the typosquat and shadowing checks of the scan.
pub async fn plan_locked(
    target: &InstallTarget,
    names: &[String],
    options: &FetchOptions,
    known: &[KnownSkill],
) -> Result<LockedPlan, InstallError> {
    let lock = target.load_lock()?;
    for name in names {
        if !lock.skills.contains_key(name) {
            return Err(InstallError::NotInstalled {
                name: name.clone(),
                lock: target.lock_path(),
            });
        }
    }
    let mut fetched: Vec<(Source, Option<String>, Fetched)> = Vec::new();
    let mut skills = Vec::new();
    for (name, entry) in &lock.skills {
        if !names.is_empty() && !names.contains(name) {
            continue;
        }
        let installed = verify_skill(target, name, entry);
        if installed.is_intact() {
            skills.push(LockedSkill {
                name: name.clone(),
                entry: entry.clone(),
                action: LockedAction::Present,
            });
            continue;
        }
        let source = Source::from_locked(entry.source.kind, &entry.source.location)?;
        let pin = pinned_revision(name, entry, &target.lock_path())?;
        let index = match fetched
            .iter()
            .position(|(s, p, _)| *s == source && *p == pin)
        {
            Some(i) => i,
            None => {
                let got = fetch(&source, pin.as_deref(), options).await?;
                fetched.push((source, pin, got));
                fetched.len() - 1
            }
        };
        let current = &fetched[index].2;
        check_resolved(name, entry, &current.resolved)?;
        let candidates = find_skills(&current.tree, None, &current.source.natural_name(), true)?;
        let candidate = candidates
            .iter()
            .find(|c| c.dir == entry.source.subpath)
            .ok_or_else(|| InstallError::SkillGone {
                source_name: current.source.to_string(),
                name: name.clone(),
            })?;
        let found = tree_hash(&file_entries(&candidate.package));
        if found != entry.tree_sha256 {
            return Err(InstallError::PinMismatch {
                name: name.clone(),
                what: "the skill's tree SHA-256",
                expected: entry.tree_sha256.clone(),
                found,
            });
        }
        if !candidate.is_valid() {
            return Err(InstallError::InvalidSkill {
                name: name.clone(),
                dir: candidate.dir.clone(),
                diagnostics: candidate.parsed.diagnostics.clone(),
            });
        }
        let scan = scan_candidate(
            candidate,
            others(
                known,
                &lock,
                &entry.source.location,
                std::slice::from_ref(name),
            ),
            taken(known, name, &target.skill_dir(name)),
        );
        skills.push(LockedSkill {
            name: name.clone(),
            entry: entry.clone(),
            action: LockedAction::Write {
                package: candidate.package.clone(),
                scan,
                installed,
            },
        });
    }
    Ok(LockedPlan { skills })
}

/// The revision to fetch: a git entry's commit (which it must have); nothing for the others.
fn pinned_revision(
    name: &str,
    entry: &LockEntry,
    lock: &std::path::Path,
) -> Result<Option<String>, InstallError> {
    if entry.source.kind != SourceKind::Git {
        return Ok(None);
    }
    match &entry.commit {
        Some(c) if c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(Some(c.clone())),
        _ => Err(InstallError::InvalidLockfile {
            path: lock.to_path_buf(),
            reason: format!("`{name}` comes from git but has no full commit id to fetch"),
        }),
    }
}

/// The fetched source must be the one the lock recorded: the same commit, the same archive.
fn check_resolved(name: &str, entry: &LockEntry, resolved: &Resolved) -> Result<(), InstallError> {
    let (what, expected, found) = match resolved {
        Resolved::Commit(c) => ("the commit", entry.commit.clone(), c),
        Resolved::Archive(h) => ("the archive SHA-256", entry.archive_sha256.clone(), h),
        Resolved::Local => return Ok(()),
    };
    match expected {
        Some(e) if e == *found => Ok(()),
        expected => Err(InstallError::PinMismatch {
            name: name.to_owned(),
            what,
            expected: expected.unwrap_or_else(|| "nothing".to_owned()),
            found: found.clone(),
        }),
    }
}

/// Writes the pending skills of `plan`. Refuses, before writing anything, a skill with
/// high-severity findings and a skill whose installed copy differs from the lock (both
/// unless `force`). The lockfile is not written.
pub fn apply_locked(
    target: &InstallTarget,
    plan: &LockedPlan,
    force: bool,
) -> Result<Vec<String>, InstallError> {
    let _guard = target.exclusive()?;
    for skill in plan.pending() {
        let LockedAction::Write {
            scan, installed, ..
        } = &skill.action
        else {
            continue;
        };
        if !force && !matches!(installed, VerifyStatus::Missing) {
            return Err(InstallError::AlreadyInstalled {
                name: skill.name.clone(),
                path: target.skill_dir(&skill.name),
            });
        }
        if !force && scan.blocks_install() {
            return Err(InstallError::Refused {
                name: skill.name.clone(),
                findings: scan.high().cloned().collect(),
            });
        }
    }
    let mut written = Vec::new();
    for skill in plan.pending() {
        if let LockedAction::Write { package, .. } = &skill.action {
            target.put_tree(&skill.name, package, true)?;
            written.push(skill.name.clone());
        }
    }
    Ok(written)
}
