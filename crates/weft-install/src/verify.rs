//! Verifying: the installed files against the hashes in the lockfile.

use serde::Serialize;

use crate::error::InstallError;
use std::collections::BTreeMap;

use crate::hash::{FileEntry, file_entries};
use crate::local::read_installed_tree;
use crate::lock::LockEntry;
use crate::target::InstallTarget;
use crate::tree::Limits;

/// How an installed skill compares with its lock entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum VerifyStatus {
    /// Every file matches.
    Intact,
    /// Files differ.
    Tampered {
        /// Files whose bytes, mode or link target changed.
        modified: Vec<String>,
        /// Files in the lock but not on disk.
        missing: Vec<String>,
        /// Files on disk but not in the lock.
        extra: Vec<String>,
    },
    /// The skill's directory is gone.
    Missing,
    /// The directory could not be read as a package (a link leaving it, a FIFO, too large).
    Unreadable {
        /// Why.
        reason: String,
    },
}

impl VerifyStatus {
    /// True for [`VerifyStatus::Intact`].
    pub fn is_intact(&self) -> bool {
        matches!(self, VerifyStatus::Intact)
    }
}

/// One skill's verification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verification {
    /// The skill.
    pub name: String,
    /// The result.
    #[serde(flatten)]
    pub status: VerifyStatus,
}

/// Compares skill `name`'s directory in `target` with `entry`.
pub fn verify_skill(target: &InstallTarget, name: &str, entry: &LockEntry) -> VerifyStatus {
    verify_dir(&target.skill_dir(name), &entry.files)
}

/// Compares the tree at `dir` (read as it is, `.git` included) with the file entries a lock
/// recorded for it: a skill's, or a plugin's.
pub fn verify_dir(dir: &std::path::Path, files: &BTreeMap<String, FileEntry>) -> VerifyStatus {
    if std::fs::symlink_metadata(dir).is_err() {
        return VerifyStatus::Missing;
    }
    let package = match read_installed_tree(dir, Limits::default()) {
        Ok(p) => p,
        Err(e) => {
            return VerifyStatus::Unreadable {
                reason: e.to_string(),
            };
        }
    };
    let actual = file_entries(&package);
    let mut modified = Vec::new();
    let mut missing = Vec::new();
    for (path, expected) in files {
        match actual.get(path) {
            None => missing.push(path.clone()),
            Some(found) if found != expected => modified.push(path.clone()),
            Some(_) => {}
        }
    }
    let extra: Vec<String> = actual
        .keys()
        .filter(|p| !files.contains_key(*p))
        .cloned()
        .collect();
    if modified.is_empty() && missing.is_empty() && extra.is_empty() {
        VerifyStatus::Intact
    } else {
        VerifyStatus::Tampered {
            modified,
            missing,
            extra,
        }
    }
}

/// Verifies every skill in the target's lockfile, in name order.
pub fn verify(target: &InstallTarget) -> Result<Vec<Verification>, InstallError> {
    let lock = target.load_lock()?;
    Ok(lock
        .skills
        .iter()
        .map(|(name, entry)| Verification {
            name: name.clone(),
            status: verify_skill(target, name, entry),
        })
        .collect())
}
