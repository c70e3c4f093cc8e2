//! "Everything beneath a root except some paths", in a model that can only grant: the root
//! itself when nothing denied lies beneath it, else each of its entries, recursively, except
//! the denied ones. Entries created later in a directory that was carved are not covered by
//! any grant, so they stay inaccessible inside the sandbox.

use std::path::{Path, PathBuf};

/// Appends to `out` the paths that, granted with everything beneath them, cover everything
/// beneath `root` except the `denied` paths (canonical, absolute). Symbolic links are never
/// granted: following one is checked against its target, which is covered (or not) on its
/// own, while granting the link would grant its target's whole tree.
pub(crate) fn carve(root: &Path, denied: &[PathBuf], out: &mut Vec<PathBuf>) {
    if denied.iter().any(|d| root.starts_with(d)) {
        return;
    }
    if !denied.iter().any(|d| d.starts_with(root)) {
        out.push(root.to_path_buf());
        return;
    }
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        Err(err) => {
            // An unreadable directory on the way to a denied path: nothing in it is granted.
            tracing::debug!(dir = %root.display(), %err, "cannot list; nothing granted in it");
            return;
        }
    };
    let mut children: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| !t.is_symlink()))
        .map(|e| e.path())
        .collect();
    children.sort();
    for child in children {
        carve(&child, denied, out);
    }
}

/// `path` with symbolic links resolved, so a rule meets the real directory. A path that does
/// not exist (yet) is resolved as far as it exists and the rest appended: carving then
/// withholds the entries around where it would be created.
pub(crate) fn canonical_or_planned(path: &Path) -> PathBuf {
    let mut missing = Vec::new();
    let mut existing = path;
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            return missing.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn tree() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        for dir in ["home/.ssh", "home/proj/src", "home/.cache", "etc"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::fs::write(root.join("home/notes.txt"), "").unwrap();
        std::os::unix::fs::symlink(root.join("home/.ssh"), root.join("home/keys")).unwrap();
        (tmp, root)
    }

    fn relative(root: &Path, paths: &[PathBuf]) -> Vec<String> {
        paths
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn grants_the_siblings_along_the_way_to_a_denied_path() {
        let (_tmp, root) = tree();
        let mut out = Vec::new();
        carve(&root, &[root.join("home/.ssh")], &mut out);
        // Not `home` (it holds the denied path), not `.ssh`, not the `keys` link to it.
        assert_eq!(
            relative(&root, &out),
            ["etc", "home/.cache", "home/notes.txt", "home/proj"]
        );
    }

    #[test]
    fn no_denied_path_beneath_grants_the_root_and_a_denied_root_grants_nothing() {
        let (_tmp, root) = tree();
        let mut out = Vec::new();
        carve(&root.join("home/proj"), &[root.join("home/.ssh")], &mut out);
        assert_eq!(out, [root.join("home/proj")]);
        out.clear();
        carve(&root.join("home/.ssh"), &[root.join("home")], &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn a_missing_denied_path_withholds_only_its_future_place() {
        let (_tmp, root) = tree();
        let planned = canonical_or_planned(&root.join("home/.aws/credentials"));
        assert_eq!(planned, root.join("home/.aws/credentials"));
        let mut out = Vec::new();
        carve(&root, &[planned], &mut out);
        // Every existing entry of `home` is granted one by one; a `.aws` made later is not.
        assert_eq!(
            relative(&root, &out),
            [
                "etc",
                "home/.cache",
                "home/.ssh",
                "home/notes.txt",
                "home/proj"
            ]
        );
    }

    #[test]
    fn denied_paths_are_resolved_through_links() {
        let (_tmp, root) = tree();
        assert_eq!(
            canonical_or_planned(&root.join("home/keys")),
            root.join("home/.ssh")
        );
    }
}
