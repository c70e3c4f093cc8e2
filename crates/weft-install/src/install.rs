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

/// A skill of the source that does not pass validation.
#[derive(Debug, Clone)]
pub struct InvalidSkill {
    /// The best name known.
    pub name: String,
    /// Its directory inside the source.
    pub dir: String,
    /// Every diagnostic.
    pub diagnostics: Vec<weft_types::Diagnostic>,
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
    /// Every skill of the source was asked for ([`Selection::All`]): each is installed or
    /// refused on its own, instead of one refusal stopping them all.
    pub each_on_its_own: bool,
    /// The skills that do not pass validation (only when [`each_on_its_own`](Self::each_on_its_own);
    /// otherwise the first one is an error).
    pub invalid: Vec<InvalidSkill>,
}

/// A skill of an install that was not installed, and why (the error a lone install of it
/// would have been: [`InstallError::InvalidSkill`], [`InstallError::AlreadyInstalled`] or
/// [`InstallError::Refused`]).
#[derive(Debug)]
pub struct Refusal {
    /// The skill.
    pub name: String,
    /// Its directory inside the source.
    pub dir: String,
    /// Why.
    pub error: InstallError,
}

/// What an install did.
#[derive(Debug, Default)]
pub struct InstallOutcome {
    /// The skills written, in order.
    pub installed: Vec<String>,
    /// The skills refused (an install of every skill goes on without them).
    pub refused: Vec<Refusal>,
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
    let each_on_its_own = *selection == Selection::All;
    let mut skills = Vec::new();
    let mut invalid = Vec::new();
    for candidate in chosen {
        if !candidate.is_valid() {
            let skill = InvalidSkill {
                name: candidate.name(),
                dir: candidate.dir.clone(),
                diagnostics: candidate.parsed.diagnostics.clone(),
            };
            if each_on_its_own {
                invalid.push(skill);
                continue;
            }
            return Err(InstallError::InvalidSkill {
                name: skill.name,
                dir: skill.dir,
                diagnostics: skill.diagnostics,
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
        each_on_its_own,
        invalid,
    })
}

/// Writes the planned skills and records them in the lockfile. A skill that exists, or has
/// high-severity findings, is refused unless `force`: before anything is written when the
/// plan installs its skills together (one refusal is the error), or on its own when it
/// installs each on its own ([`InstallPlan::each_on_its_own`]: the others are written and the
/// refusals returned with them). The lockfile is written once, after the trees are in place
/// (with the skills written so far, if one of them fails).
pub fn apply_install(
    target: &InstallTarget,
    plan: &InstallPlan,
    force: bool,
    now: SystemTime,
) -> Result<InstallOutcome, InstallError> {
    let _guard = target.exclusive()?;
    let mut outcome = InstallOutcome {
        installed: Vec::new(),
        refused: plan
            .invalid
            .iter()
            .map(|skill| Refusal {
                name: skill.name.clone(),
                dir: skill.dir.clone(),
                error: InstallError::InvalidSkill {
                    name: skill.name.clone(),
                    dir: skill.dir.clone(),
                    diagnostics: skill.diagnostics.clone(),
                },
            })
            .collect(),
    };
    let mut chosen = Vec::new();
    for skill in &plan.skills {
        let dest = target.skill_dir(&skill.name);
        let refusal = if !force && std::fs::symlink_metadata(&dest).is_ok() {
            Some(InstallError::AlreadyInstalled {
                name: skill.name.clone(),
                path: dest,
            })
        } else if !force && skill.scan.blocks_install() {
            Some(InstallError::Refused {
                name: skill.name.clone(),
                findings: skill.scan.high().cloned().collect(),
            })
        } else {
            None
        };
        match refusal {
            None => chosen.push(skill),
            Some(error) if plan.each_on_its_own => outcome.refused.push(Refusal {
                name: skill.name.clone(),
                dir: skill.dir.clone(),
                error,
            }),
            Some(error) => return Err(error),
        }
    }
    let mut lock = target.load_lock()?;
    let mut failure = None;
    for skill in chosen {
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
        outcome.installed.push(skill.name.clone());
    }
    if !outcome.installed.is_empty() {
        lock.save(&target.lock_path())?;
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(outcome),
    }
}
