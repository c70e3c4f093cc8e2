//! A scope's `.clawft` directory: where skills are installed, where the lockfile is, where
//! trees are staged; and the exclusive lock one operation holds while it changes them.

use std::fs::File;
use std::path::{Path, PathBuf};

use weft_scan::{FileContent, Package, PackageFile};

use crate::error::InstallError;
use crate::fetch::unique_dir;
use crate::lock::Lockfile;

/// The `.clawft` directory of the project (`<project>/.clawft`) or the user (`~/.clawft`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallTarget {
    root: PathBuf,
}

impl InstallTarget {
    /// The target whose `.clawft` directory is `clawft_dir`.
    pub fn new(clawft_dir: impl Into<PathBuf>) -> Self {
        InstallTarget {
            root: clawft_dir.into(),
        }
    }

    /// `<root>/skills`: one directory per installed skill, named like the skill.
    pub fn skills_dir(&self) -> PathBuf {
        self.root.join("skills")
    }

    /// `<root>/skills.lock`.
    pub fn lock_path(&self) -> PathBuf {
        self.root.join("skills.lock")
    }

    /// `<root>/.staging`: trees are built here, beside the skills directory, so moving them
    /// into place is a rename on one file system; discovery never looks here.
    pub fn staging_dir(&self) -> PathBuf {
        self.root.join(".staging")
    }

    /// The directory of skill `name`.
    pub fn skill_dir(&self, name: &str) -> PathBuf {
        self.skills_dir().join(name)
    }

    /// The lockfile (empty when there is none).
    pub fn load_lock(&self) -> Result<Lockfile, InstallError> {
        Lockfile::load(&self.lock_path())
    }

    /// Takes the target's exclusive lock (blocking until another weft is done with it).
    pub(crate) fn exclusive(&self) -> Result<File, InstallError> {
        let staging = self.staging_dir();
        std::fs::create_dir_all(&staging).map_err(|e| InstallError::io(&staging, e))?;
        let path = staging.join("lock");
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| InstallError::io(&path, e))?;
        file.lock().map_err(|e| InstallError::io(&path, e))?;
        Ok(file)
    }

    /// Writes `package` as skill `name`: built under the staging directory, then renamed into
    /// place. An existing directory is replaced only when `replace` is set, and then by
    /// moving it aside first and deleting it once the new one is in place.
    pub(crate) fn put_tree(
        &self,
        name: &str,
        package: &Package,
        replace: bool,
    ) -> Result<PathBuf, InstallError> {
        let dest = self.skill_dir(name);
        let exists = std::fs::symlink_metadata(&dest).is_ok();
        if exists && !replace {
            return Err(InstallError::AlreadyInstalled {
                name: name.to_owned(),
                path: dest,
            });
        }
        let staging = self.staging_dir();
        let skills = self.skills_dir();
        for dir in [&staging, &skills] {
            std::fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
        }
        let staged = unique_dir(&staging, &format!("new-{name}"));
        if let Err(e) = write_tree(&staged, package) {
            let _ = std::fs::remove_dir_all(&staged);
            return Err(e);
        }
        let result = if exists {
            swap_in(&staged, &dest, &staging, name)
        } else {
            std::fs::rename(&staged, &dest).map_err(|e| InstallError::io(&dest, e))
        };
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&staged);
        }
        result.map(|()| dest)
    }

    /// Moves skill `name`'s directory out of the skills directory and deletes it.
    pub(crate) fn delete_tree(&self, name: &str) -> Result<(), InstallError> {
        let dest = self.skill_dir(name);
        if std::fs::symlink_metadata(&dest).is_err() {
            return Ok(());
        }
        let staging = self.staging_dir();
        std::fs::create_dir_all(&staging).map_err(|e| InstallError::io(&staging, e))?;
        let old = unique_dir(&staging, &format!("old-{name}"));
        std::fs::rename(&dest, &old).map_err(|e| InstallError::io(&dest, e))?;
        remove_any(&old);
        Ok(())
    }
}

/// Renames `dest` aside, `staged` into its place, then deletes the old tree; puts the old
/// tree back when the second rename fails.
fn swap_in(staged: &Path, dest: &Path, staging: &Path, name: &str) -> Result<(), InstallError> {
    let old = unique_dir(staging, &format!("old-{name}"));
    std::fs::rename(dest, &old).map_err(|e| InstallError::io(dest, e))?;
    if let Err(e) = std::fs::rename(staged, dest) {
        let _ = std::fs::rename(&old, dest);
        return Err(InstallError::io(dest, e));
    }
    remove_any(&old);
    Ok(())
}

fn remove_any(path: &Path) {
    let result = match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(_) => return,
    };
    if let Err(e) = result {
        tracing::warn!(path = %path.display(), error = %e, "could not remove an old skill tree");
    }
}

/// Writes every entry of `package` under the new directory `dir`: files created new (never
/// through an existing path), `0644` or `0755`, flushed to disk; links as links.
fn write_tree(dir: &Path, package: &Package) -> Result<(), InstallError> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::create_dir(dir).map_err(|e| InstallError::io(dir, e))?;
    for PackageFile { path, content } in package.files() {
        let full = dir.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| InstallError::io(parent, e))?;
        }
        match content {
            FileContent::Regular { bytes, executable } => {
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(if *executable { 0o755 } else { 0o644 })
                    .open(&full)
                    .map_err(|e| InstallError::io(&full, e))?;
                file.write_all(bytes)
                    .and_then(|()| file.sync_all())
                    .map_err(|e| InstallError::io(&full, e))?;
            }
            FileContent::Symlink { target, .. } => {
                std::os::unix::fs::symlink(target, &full)
                    .map_err(|e| InstallError::io(&full, e))?;
            }
            FileContent::Special { .. } => {
                return Err(InstallError::unsafe_entry(
                    path,
                    "not a file a skill can ship",
                ));
            }
        }
    }
    Ok(())
}
