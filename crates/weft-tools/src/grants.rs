//! Directories file tools may read, but not write, for as long as someone holds a grant: the
//! directory of a skill while the skill is loaded in a session (its `refs/`, scripts,
//! templates), wherever the skill lives.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// A shared, changing set of read-only directories. Clones share the set: the session that
/// grants and the file tools that check hold the same one.
#[derive(Debug, Clone, Default)]
pub struct ReadGrants {
    /// Directories, one entry per live [`ReadGrant`] (a directory granted twice stays
    /// readable until both grants are dropped).
    dirs: Arc<Mutex<Vec<Granted>>>,
}

/// A granted directory: where it really is, and how it was named.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Granted {
    /// Canonical: links resolved.
    real: PathBuf,
    /// As named when granted (absolute, `.` and `..` applied), when it was absolute.
    spelled: Option<PathBuf>,
}

impl ReadGrants {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes `dir` (canonicalized: links resolved) readable until the returned grant is
    /// dropped. Fails when `dir` cannot be resolved.
    pub fn grant(&self, dir: &Path) -> io::Result<ReadGrant> {
        let granted = Granted {
            real: std::fs::canonicalize(dir)?,
            spelled: dir.is_absolute().then(|| crate::scope::normalize(dir)),
        };
        self.lock().push(granted.clone());
        Ok(ReadGrant {
            grants: self.clone(),
            granted,
        })
    }

    /// True when the canonical `path` lies inside a granted directory.
    pub fn contains(&self, path: &Path) -> bool {
        self.lock().iter().any(|g| path.starts_with(&g.real))
    }

    /// True when `path` as spelled (absolute, `.` and `..` applied, links not resolved) lies
    /// inside a granted directory as it was named or as it really is. Its real path must lie
    /// inside one as well ([`contains`](Self::contains)): both are checked.
    pub fn contains_spelled(&self, path: &Path) -> bool {
        self.lock().iter().any(|g| {
            path.starts_with(&g.real) || g.spelled.as_ref().is_some_and(|s| path.starts_with(s))
        })
    }

    /// The granted directories, each once, in the order they were granted.
    pub fn dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = Vec::new();
        for granted in self.lock().iter() {
            if !dirs.contains(&granted.real) {
                dirs.push(granted.real.clone());
            }
        }
        dirs
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Granted>> {
        // The list stays consistent whatever a panicking holder was doing: every change is a
        // single push or remove.
        self.dirs.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One directory made readable; dropping it takes the access back.
#[derive(Debug)]
pub struct ReadGrant {
    grants: ReadGrants,
    granted: Granted,
}

impl ReadGrant {
    /// The canonical directory.
    pub fn dir(&self) -> &Path {
        &self.granted.real
    }
}

impl Drop for ReadGrant {
    fn drop(&mut self) {
        let mut dirs = self.grants.lock();
        if let Some(i) = dirs.iter().position(|g| *g == self.granted) {
            dirs.remove(i);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_lasts_as_long_as_its_holder_and_counts_twice() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("skill");
        std::fs::create_dir(&dir).unwrap();
        let grants = ReadGrants::new();
        let file = std::fs::canonicalize(&dir).unwrap().join("refs/doc.md");
        assert!(!grants.contains(&file));
        let first = grants.grant(&dir).unwrap();
        let second = grants.clone().grant(&dir).unwrap();
        assert!(grants.contains(&file));
        assert_eq!(grants.dirs().len(), 1);
        drop(first);
        assert!(grants.contains(&file));
        drop(second);
        assert!(!grants.contains(&file));
        assert!(grants.grant(&tmp.path().join("missing")).is_err());
    }
}
