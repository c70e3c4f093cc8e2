//! Whether the skill files a registry was built from may have changed since: what
//! [`SkillRegistry::refresh`](crate::SkillRegistry::refresh) checks before it walks the roots
//! again.
//!
//! The check costs one `stat` per path: every root, every directory between a root and a
//! skill's directory, each skill's directory and its file (the winners, the switched-off and the
//! broken ones). A skill installed, removed or renamed changes its root's (or parent
//! directory's) times; a file rewritten changes its own; a root that appears or disappears
//! changes from missing to present. A file created inside a directory that holds no skill yet,
//! below another such directory, is seen by the next change above it, or `reload`.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::discover::{Discovered, SkillRoot};

/// What `stat` says of one path, as far as change goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    /// For a directory, changes when a subdirectory (a skill) is added or removed, even
    /// within one tick of the file-system clock.
    nlink: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    /// The stamp of `path` (links followed); `None` when it does not exist or cannot be read.
    fn of(path: &Path) -> Option<Self> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            nlink: meta.nlink(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }
}

/// The paths a discovery depended on and their stamps when it ran.
#[derive(Debug, Clone, Default)]
pub(crate) struct Watched {
    paths: Vec<(PathBuf, Option<Stamp>)>,
}

impl Watched {
    /// Stamps what `discovered` came from under `roots`. Called right after the discovery, so
    /// a change during the walk shows up at the next check (the walk saw the old or the new
    /// state; at worst it is walked once more).
    pub(crate) fn of(roots: &[SkillRoot], discovered: &Discovered) -> Self {
        let mut paths: Vec<PathBuf> = roots.iter().map(|r| r.path.clone()).collect();
        let files = discovered
            .entries
            .values()
            .chain(discovered.disabled.values())
            .filter_map(|e| e.file())
            .chain(discovered.broken.iter().map(|b| b.path.as_path()));
        for file in files {
            paths.push(file.to_path_buf());
            // The skill's directory and the ones above it, up to its root.
            for dir in file.ancestors().skip(1) {
                if roots.iter().any(|r| r.path == dir)
                    || !roots.iter().any(|r| dir.starts_with(&r.path))
                {
                    break;
                }
                paths.push(dir.to_path_buf());
            }
        }
        paths.sort();
        paths.dedup();
        Self {
            paths: paths
                .into_iter()
                .map(|p| {
                    let stamp = Stamp::of(&p);
                    (p, stamp)
                })
                .collect(),
        }
    }

    /// True when some path's stamp differs from the one taken.
    pub(crate) fn changed(&self) -> bool {
        self.paths
            .iter()
            .any(|(path, stamp)| Stamp::of(path) != *stamp)
    }
}
