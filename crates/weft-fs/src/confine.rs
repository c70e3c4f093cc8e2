//! Keeping symbolic links inside the directory they belong to.

use std::path::{Path, PathBuf};

use crate::cap::Cap;
use crate::error::ReadError;
use crate::regular::{Follow, RegularFile};

/// The canonical path of `path`, which must lie inside `root` (both are resolved, so links
/// anywhere along either path are followed before comparing).
///
/// ```
/// use weft_fs::{ReadError, canonical_within};
///
/// let dir = tempfile::tempdir().unwrap();
/// let root = dir.path().join("skill");
/// std::fs::create_dir(&root).unwrap();
/// std::fs::write(root.join("a.md"), "").unwrap();
/// std::fs::write(dir.path().join("secret"), "").unwrap();
/// assert!(canonical_within(&root.join("a.md"), &root).is_ok());
/// assert!(matches!(
///     canonical_within(&root.join("../secret"), &root),
///     Err(ReadError::OutsideRoot { .. })
/// ));
/// ```
pub fn canonical_within(path: &Path, root: &Path) -> Result<PathBuf, ReadError> {
    let root = std::fs::canonicalize(root).map_err(|e| ReadError::io(root, e))?;
    let target = std::fs::canonicalize(path).map_err(|e| ReadError::io(path, e))?;
    if target.starts_with(&root) {
        Ok(target)
    } else {
        Err(ReadError::OutsideRoot {
            path: path.to_path_buf(),
            target,
            root,
        })
    }
}

/// Opens `path` like [`RegularFile::open`], except that when `path` is itself a symbolic
/// link, its target must lie inside `root` ([`ReadError::OutsideRoot`] otherwise). A file
/// that is not a link is opened without following one, so it cannot turn into a link between
/// the check and the open.
///
/// This is how skill files (root: the skill's directory) and agent files (root: the agents
/// directory) are read: `SKILL.md -> /proc/self/environ` or `-> ~/.ssh/id_ed25519` is refused.
pub fn open_within(path: &Path, root: &Path, cap: Cap) -> Result<RegularFile, ReadError> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| ReadError::io(path, e))?;
    if !meta.file_type().is_symlink() {
        return RegularFile::open_checked(path, path, &meta, cap, Follow::No);
    }
    let target = canonical_within(path, root)?;
    let meta = std::fs::symlink_metadata(&target).map_err(|e| ReadError::io(path, e))?;
    RegularFile::open_checked(path, &target, &meta, cap, Follow::No)
}

/// Reads the whole file at `path` under `cap`, refusing a link that leaves `root` (see
/// [`open_within`]).
pub fn read_within(path: &Path, root: &Path, cap: Cap) -> Result<Vec<u8>, ReadError> {
    open_within(path, root, cap)?.read_all()
}
