//! A scope's `.clawft` directory: where skills are installed, where the lockfile is, where
//! trees are staged; and the exclusive lock one operation holds while it changes them.

use std::fs::File;
use std::path::{Path, PathBuf};

use weft_scan::{FileContent, Package, PackageFile};

use crate::error::InstallError;
use crate::fetch::unique_dir;
use crate::lock::Lockfile;

/// Which `.clawft` directory skills are installed into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstallScope {
    /// `<project>/.clawft` (the current directory when there is no project yet).
    Project,
    /// `~/.clawft`.
    User,
}

/// Staging entries older than this are left from an interrupted run and are removed by the
/// next operation that takes the target's lock (a clone or a tree being built is younger).
pub const STALE_STAGING: std::time::Duration = std::time::Duration::from_secs(3600);

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

    /// The target of `scope`: `<project>/.clawft`, or `<cwd>/.clawft` when there is no
    /// project yet; `<home>/.clawft` for the user. `None` for the user scope without a home
    /// directory.
    pub fn for_scope(
        scope: InstallScope,
        project: Option<&Path>,
        cwd: &Path,
        home: Option<&Path>,
    ) -> Option<Self> {
        match scope {
            InstallScope::Project => Some(Self::new(project.unwrap_or(cwd).join(".clawft"))),
            InstallScope::User => home.map(|h| Self::new(h.join(".clawft"))),
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

    /// Creates the staging directory (with a `.gitignore` that keeps it out of commits) and
    /// checks that it is a real directory, not a link someone committed to send writes
    /// elsewhere.
    pub fn prepare_staging(&self) -> Result<PathBuf, InstallError> {
        let staging = self.staging_dir();
        std::fs::create_dir_all(&self.root).map_err(|e| InstallError::io(&self.root, e))?;
        real_dir(&staging)?;
        let ignore = staging.join(".gitignore");
        if std::fs::symlink_metadata(&ignore).is_err() {
            // Best effort: a missing .gitignore only risks a commit of leftovers.
            if let Err(e) = std::fs::write(&ignore, "# weft's staging area: never commit it\n*\n") {
                tracing::debug!(path = %ignore.display(), error = %e, "could not write .gitignore");
            }
        }
        Ok(staging)
    }

    /// Takes the target's exclusive lock (blocking until another weft is done with it), then
    /// removes what interrupted runs left in the staging directory. Skills and plugins of a
    /// scope share it; it is held until the returned file is dropped.
    pub fn exclusive(&self) -> Result<File, InstallError> {
        let staging = self.prepare_staging()?;
        let path = staging.join("lock");
        let file =
            weft_fs::open_lock_file(&path).map_err(|source| InstallError::TargetLock { source })?;
        file.lock().map_err(|e| InstallError::io(&path, e))?;
        remove_stale(&staging, STALE_STAGING);
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
        self.put_tree_in(&self.skills_dir(), name, package, replace)
    }

    /// Writes `package` as `<parent>/<name>` the way skills are written (staged, renamed
    /// into place, an existing tree replaced only when `replace` is set): for a plugin or a
    /// marketplace copy under this target's `.clawft` directory. `parent` is created when
    /// missing, and must not be a link.
    pub fn put_tree_in(
        &self,
        parent: &Path,
        name: &str,
        package: &Package,
        replace: bool,
    ) -> Result<PathBuf, InstallError> {
        let dest = parent.join(name);
        let exists = std::fs::symlink_metadata(&dest).is_ok();
        if exists && !replace {
            return Err(InstallError::AlreadyInstalled {
                name: name.to_owned(),
                path: dest,
            });
        }
        let staging = self.prepare_staging()?;
        self.real_dirs(parent)?;
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

    /// [`real_dir`] for `dir` and every directory between this target's `.clawft` directory
    /// and it: each is created when missing and refused when it is a link
    /// (`.clawft/plugins -> ~/.ssh`).
    fn real_dirs(&self, dir: &Path) -> Result<(), InstallError> {
        let Ok(rel) = dir.strip_prefix(&self.root) else {
            return real_dir(dir);
        };
        let mut at = self.root.clone();
        for part in rel.components() {
            at.push(part);
            real_dir(&at)?;
        }
        Ok(())
    }

    /// Moves skill `name`'s directory out of the skills directory and deletes it.
    pub(crate) fn delete_tree(&self, name: &str) -> Result<(), InstallError> {
        self.delete_tree_in(&self.skills_dir(), name)
    }

    /// Moves `<parent>/<name>` into the staging directory and deletes it (nothing when it is
    /// not there).
    pub fn delete_tree_in(&self, parent: &Path, name: &str) -> Result<(), InstallError> {
        if let Some(aside) = self.set_aside_in(parent, name)? {
            aside.discard();
        }
        Ok(())
    }

    /// Moves `<parent>/<name>` into the staging directory (a rename), to be deleted once
    /// everything it is removed with has succeeded ([`SetAside::discard`]) or put back when
    /// something failed ([`SetAside::restore`]); `None` when it is not there.
    pub fn set_aside_in(
        &self,
        parent: &Path,
        name: &str,
    ) -> Result<Option<SetAside>, InstallError> {
        let dest = parent.join(name);
        if std::fs::symlink_metadata(&dest).is_err() {
            return Ok(None);
        }
        let staging = self.prepare_staging()?;
        self.real_dirs(parent)?;
        let old = unique_dir(&staging, &format!("old-{name}"));
        std::fs::rename(&dest, &old).map_err(|e| InstallError::io(&dest, e))?;
        Ok(Some(SetAside {
            from: dest,
            at: old,
        }))
    }
}

/// A tree [`InstallTarget::set_aside_in`] moved out of its place.
#[derive(Debug)]
#[must_use = "a tree set aside is either restored or discarded"]
pub struct SetAside {
    from: PathBuf,
    at: PathBuf,
}

impl SetAside {
    /// Moves it back where it was.
    pub fn restore(self) -> Result<(), InstallError> {
        std::fs::rename(&self.at, &self.from).map_err(|e| InstallError::io(&self.from, e))
    }

    /// Deletes it (what is left is removed with the staging directory's other leftovers).
    pub fn discard(self) {
        remove_any(&self.at);
    }
}

/// Creates `dir` when it is missing and refuses it when it is a symbolic link or not a
/// directory: a committed `.clawft/skills -> ~/.ssh` must not receive a skill's files.
fn real_dir(dir: &Path) -> Result<(), InstallError> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(meta) if meta.file_type().is_symlink() => Err(InstallError::UnsafeTarget {
            path: dir.to_path_buf(),
            reason: "is a symbolic link; weft installs only into a real directory (replace the link with a directory)".to_owned(),
        }),
        Ok(_) => Err(InstallError::UnsafeTarget {
            path: dir.to_path_buf(),
            reason: "is not a directory".to_owned(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir(dir).map_err(|e| InstallError::io(dir, e))
        }
        Err(e) => Err(InstallError::io(dir, e)),
    }
}

/// Removes the staging entries (trees, clones) older than `age`: what a crash left behind.
fn remove_stale(staging: &Path, age: std::time::Duration) {
    let Ok(entries) = std::fs::read_dir(staging) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name == "lock" || name == ".gitignore" {
            continue;
        }
        let path = entry.path();
        let old = std::fs::symlink_metadata(&path)
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|d| d > age));
        if old {
            tracing::debug!(path = %path.display(), "removing a stale staging entry");
            remove_any(&path);
        }
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
            FileContent::Special { .. } | FileContent::Unsafe { .. } => {
                return Err(InstallError::unsafe_entry(
                    path,
                    "not a file a skill can ship",
                ));
            }
        }
    }
    Ok(())
}
