//! Installing: choose the skills of a fetched source, scan them, write them, pin them.
//!
//! [`plan_install`] does everything that can fail or refuse without touching the target
//! (selection, validation, scan, existence); [`apply_install`] writes the trees and then the
//! lockfile, under the target's exclusive lock.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::SystemTime;

use weft_scan::{KnownSkill, Package, ScanOptions, ScanReport, SkillFacts, scan};

use crate::candidate::{Candidate, find_skills};
use crate::error::InstallError;
use crate::fetch::{Fetched, Resolved};
use crate::hash::{file_entries, tree_hash};
use crate::lock::{LockEntry, LockedSource, Lockfile, ScanRecord};
use crate::target::InstallTarget;
use crate::timestamp::rfc3339;

/// Which skills of a source to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// The only skill; an error listing them when there are several.
    Single,
    /// These, by name.
    Named(Vec<String>),
    /// Every skill.
    All,
}

/// One skill ready to be written.
#[derive(Debug, Clone)]
pub struct PlannedSkill {
    /// Its name (the directory it gets).
    pub name: String,
    /// Its directory inside the source.
    pub dir: String,
    /// Its files.
    pub package: Package,
    /// What the scan found.
    pub scan: ScanReport,
    /// Warnings from validation.
    pub warnings: Vec<weft_types::Diagnostic>,
    /// A skill of that name is already installed in the target.
    pub exists: bool,
}

/// What an install would do.
#[derive(Debug, Clone)]
pub struct InstallPlan {
    /// The source.
    pub source: LockedSource,
    /// What it resolved to.
    pub resolved: Resolved,
    /// The skills.
    pub skills: Vec<PlannedSkill>,
}

impl InstallPlan {
    /// The skills whose scan refuses them unless forced.
    pub fn blocked(&self) -> impl Iterator<Item = &PlannedSkill> {
        self.skills.iter().filter(|s| s.scan.blocks_install())
    }
}

/// The lock entry of `skill`, installed from `source` at `now`.
pub(crate) fn lock_entry(
    source: &LockedSource,
    resolved: &Resolved,
    package: &Package,
    scan: &ScanReport,
    forced: bool,
    now: SystemTime,
) -> LockEntry {
    let files = file_entries(package);
    LockEntry {
        source: source.clone(),
        commit: match resolved {
            Resolved::Commit(c) => Some(c.clone()),
            _ => None,
        },
        archive_sha256: match resolved {
            Resolved::Archive(h) => Some(h.clone()),
            _ => None,
        },
        tree_sha256: tree_hash(&files),
        installed_at: rfc3339(now),
        scan: ScanRecord::of(scan, forced),
        files,
    }
}

/// Names the typosquat check compares against: `known` minus the skills that come from the
/// same source (siblings are not impostors of each other).
pub(crate) fn others(
    known: &[KnownSkill],
    lock: &Lockfile,
    location: &str,
    skip: &[String],
) -> Vec<String> {
    let same_source: BTreeSet<&str> = lock
        .skills
        .iter()
        .filter(|(_, e)| e.source.location == location)
        .map(|(n, _)| n.as_str())
        .collect();
    let mut names: Vec<String> = known
        .iter()
        .map(|k| k.name.clone())
        .filter(|n| !same_source.contains(n.as_str()) && !skip.contains(n))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The skills whose name `name` may not take: every known skill of that name except the one
/// in `replaced` (the directory being installed over).
pub(crate) fn taken(known: &[KnownSkill], name: &str, replaced: &Path) -> Vec<KnownSkill> {
    known
        .iter()
        .filter(|k| k.name == name && !k.dir.as_deref().is_some_and(|d| same_dir(d, replaced)))
        .cloned()
        .collect()
}

/// True when `a` and `b` are the same directory (as spelled, or once links are resolved).
pub(crate) fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// Scans a candidate against the names the user already has (`known_names`, for typosquats)
/// and the skills whose exact name it may not take.
pub(crate) fn scan_candidate(
    candidate: &Candidate,
    known_names: Vec<String>,
    taken: Vec<KnownSkill>,
) -> ScanReport {
    let facts = candidate.parsed.skill.as_ref().map(SkillFacts::of);
    let options = ScanOptions {
        known_names,
        taken,
        ..ScanOptions::default()
    };
    scan(&candidate.package, facts.as_ref(), &options)
}

fn select(
    fetched: &Fetched,
    candidates: Vec<Candidate>,
    selection: &Selection,
) -> Result<Vec<Candidate>, InstallError> {
    let source_name = fetched.source.to_string();
    let mut seen = BTreeSet::new();
    for c in &candidates {
        if !seen.insert(c.name()) {
            return Err(InstallError::DuplicateName(c.name()));
        }
    }
    match selection {
        Selection::All => Ok(candidates),
        Selection::Single if candidates.len() == 1 => Ok(candidates),
        Selection::Single => Err(InstallError::ChooseSkills {
            source_name,
            available: candidates
                .iter()
                .map(|c| (c.name(), c.dir.clone()))
                .collect(),
        }),
        Selection::Named(names) => {
            let available: Vec<String> = candidates.iter().map(Candidate::name).collect();
            for name in names {
                if !available.contains(name) {
                    return Err(InstallError::UnknownSkill {
                        source_name,
                        name: name.clone(),
                        available,
                    });
                }
            }
            Ok(candidates
                .into_iter()
                .filter(|c| names.contains(&c.name()))
                .collect())
        }
    }
}

/// Chooses, validates and scans the skills of `fetched` (under `subpath`) for `target`.
/// `known` are the skills the user already has (every scope and root, shadowed copies and
/// built-ins included): a name one edit from one of them is a typosquat, and the exact name
/// of one (other than the skill being replaced in `target`) would shadow it; both are high.
pub fn plan_install(
    target: &InstallTarget,
    fetched: &Fetched,
    subpath: Option<&str>,
    selection: &Selection,
    known: &[KnownSkill],
) -> Result<InstallPlan, InstallError> {
    let candidates = find_skills(&fetched.tree, subpath, &fetched.source.natural_name(), true)?;
    if candidates.is_empty() {
        let place = match subpath {
            Some(p) => format!("{}/{p}", fetched.source),
            None => fetched.source.to_string(),
        };
        return Err(InstallError::NoSkills(place));
    }
    let chosen = select(fetched, candidates, selection)?;
    let lock = target.load_lock()?;
    let location = fetched.source.location();
    let names: Vec<String> = chosen.iter().map(Candidate::name).collect();
    let mut skills = Vec::new();
    for candidate in chosen {
        if !candidate.is_valid() {
            return Err(InstallError::InvalidSkill {
                name: candidate.name(),
                dir: candidate.dir.clone(),
                diagnostics: candidate.parsed.diagnostics.clone(),
            });
        }
        let name = candidate.name();
        let dest = target.skill_dir(&name);
        let scan = scan_candidate(
            &candidate,
            others(known, &lock, &location, &names),
            taken(known, &name, &dest),
        );
        let exists = std::fs::symlink_metadata(target.skill_dir(&name)).is_ok();
        skills.push(PlannedSkill {
            exists,
            dir: candidate.dir.clone(),
            warnings: candidate.parsed.diagnostics.clone(),
            package: candidate.package,
            scan,
            name,
        });
    }
    Ok(InstallPlan {
        source: LockedSource {
            kind: fetched.source.kind(),
            location,
            reference: fetched.requested_ref.clone(),
            subpath: String::new(),
        },
        resolved: fetched.resolved.clone(),
        skills,
    })
}

/// Writes the planned skills and records them in the lockfile. Refuses, before writing
/// anything, when a skill exists or has high-severity findings and `force` is not set. The
/// lockfile is written once, after the trees are in place (with the skills written so far,
/// if one of them fails).
pub fn apply_install(
    target: &InstallTarget,
    plan: &InstallPlan,
    force: bool,
    now: SystemTime,
) -> Result<Vec<String>, InstallError> {
    let _guard = target.exclusive()?;
    for skill in &plan.skills {
        let dest = target.skill_dir(&skill.name);
        if !force && std::fs::symlink_metadata(&dest).is_ok() {
            return Err(InstallError::AlreadyInstalled {
                name: skill.name.clone(),
                path: dest,
            });
        }
        if !force && skill.scan.blocks_install() {
            return Err(InstallError::Refused {
                name: skill.name.clone(),
                findings: skill.scan.high().cloned().collect(),
            });
        }
    }
    let mut lock = target.load_lock()?;
    let mut written = Vec::new();
    let mut failure = None;
    for skill in &plan.skills {
        if let Err(e) = target.put_tree(&skill.name, &skill.package, force) {
            failure = Some(e);
            break;
        }
        let source = LockedSource {
            subpath: skill.dir.clone(),
            ..plan.source.clone()
        };
        let entry = lock_entry(
            &source,
            &plan.resolved,
            &skill.package,
            &skill.scan,
            force,
            now,
        );
        lock.skills.insert(skill.name.clone(), entry);
        written.push(skill.name.clone());
    }
    if !written.is_empty() {
        lock.save(&target.lock_path())?;
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(written),
    }
}
