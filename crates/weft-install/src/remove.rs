//! Removing an installed skill: its directory and its lock entry.

use crate::error::InstallError;
use crate::lock::LockEntry;
use crate::target::InstallTarget;

/// Removes skill `name` from `target`: only a skill with a lock entry (a skill weft did not
/// install is the user's own and is left alone). The directory is moved out of the skills
/// directory before it is deleted, and the lockfile is written without the entry. Returns
/// the removed entry.
pub fn remove(target: &InstallTarget, name: &str) -> Result<LockEntry, InstallError> {
    let _guard = target.exclusive()?;
    let mut lock = target.load_lock()?;
    let Some(entry) = lock.skills.remove(name) else {
        return Err(InstallError::NotInstalled {
            name: name.to_owned(),
            lock: target.lock_path(),
        });
    };
    target.delete_tree(name)?;
    lock.save(&target.lock_path())?;
    Ok(entry)
}
