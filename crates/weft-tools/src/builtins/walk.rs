//! Walking a directory tree for the search tools: sorted, skipping build and VCS directories,
//! and never following a symlink out of the scope. Each file comes with the path the walk
//! reached it by and its real path, which the tools judge against the caller's permission
//! rules ([`CallContext`](crate::CallContext)).

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::FsScope;

/// Directories the search tools never enter: version control and build output, which are
/// large and rarely what the model is looking for.
pub(crate) const SKIPPED_DIRS: [&str; 3] = [".git", "target", "node_modules"];

/// A file met by [`walk_files`].
pub(crate) struct WalkedFile {
    /// The file's canonical path (through any symlinks).
    pub real: PathBuf,
    /// The path as reached from the walk's root (may pass through symlinked directories).
    pub seen: PathBuf,
    /// `seen` relative to the root, with `/` separators.
    pub rel: String,
}

struct Dir {
    seen: PathBuf,
    rel: String,
}

/// Calls `visit` for every file under `root` (a canonical directory), in sorted order per
/// directory, until it returns `Break`. Unreadable entries are skipped: a search reports what
/// it can read.
pub(crate) fn walk_files(
    root: &Path,
    scope: &FsScope,
    mut visit: impl FnMut(WalkedFile) -> ControlFlow<()>,
) {
    let mut visited: HashSet<PathBuf> = HashSet::from([root.to_path_buf()]);
    let mut stack = vec![Dir {
        seen: root.to_path_buf(),
        rel: String::new(),
    }];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<_> = match std::fs::read_dir(&dir.seen) {
            Ok(entries) => entries.filter_map(Result::ok).collect(),
            Err(err) => {
                tracing::debug!(dir = %dir.seen.display(), %err, "skipping unreadable directory");
                continue;
            }
        };
        entries.sort_by_key(|e| e.file_name());
        let mut subdirs = Vec::new();
        for entry in entries {
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                // A name that is not UTF-8 cannot be matched or shown faithfully.
                continue;
            };
            let seen = entry.path();
            let rel = if dir.rel.is_empty() {
                name.to_owned()
            } else {
                format!("{}/{name}", dir.rel)
            };
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let (is_dir, real) = if file_type.is_symlink() {
                let Ok(real) = std::fs::canonicalize(&seen) else {
                    continue;
                };
                if !scope.readable(&real) {
                    continue;
                }
                (real.is_dir(), real)
            } else {
                (file_type.is_dir(), seen.clone())
            };
            if is_dir {
                if SKIPPED_DIRS.contains(&name) {
                    continue;
                }
                // Only symlinks can form cycles; a real directory is entered once anyway.
                if file_type.is_symlink() && !visited.insert(real) {
                    continue;
                }
                subdirs.push(Dir { seen, rel });
            } else if real.is_file() && visit(WalkedFile { real, seen, rel }).is_break() {
                return;
            }
        }
        stack.extend(subdirs.into_iter().rev());
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    fn collect(root: &Path, scope: &FsScope) -> Vec<String> {
        let mut out = Vec::new();
        walk_files(root, scope, |f| {
            out.push(f.rel);
            ControlFlow::Continue(())
        });
        out
    }

    #[test]
    fn walks_sorted_skipping_build_dirs_and_outside_links() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s").unwrap();
        let base = dir.path();
        for d in ["a/b", ".git", "target", "node_modules/x"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        for f in [
            "z.txt",
            "a/1.txt",
            "a/b/2.txt",
            ".git/HEAD",
            "target/t",
            "node_modules/x/y",
        ] {
            std::fs::write(base.join(f), "x").unwrap();
        }
        symlink(outside.path(), base.join("out")).unwrap();
        symlink(outside.path().join("secret"), base.join("secret")).unwrap();
        // A cycle back to the root must not loop.
        symlink(base, base.join("a/loop")).unwrap();
        let scope = FsScope::new(base.to_path_buf(), vec![]).unwrap();
        let files = collect(scope.base(), &scope);
        assert_eq!(files, ["z.txt", "a/1.txt", "a/b/2.txt"]);
    }

    #[test]
    fn stops_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["1", "2", "3"] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        let scope = FsScope::new(dir.path().to_path_buf(), vec![]).unwrap();
        let mut seen = 0;
        walk_files(scope.base(), &scope, |_| {
            seen += 1;
            if seen == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(seen, 2);
    }
}
