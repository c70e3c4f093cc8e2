//! Paths a plugin or marketplace file names: relative, without `..`, and (once resolved)
//! inside the plugin's root with links resolved.

use std::path::{Path, PathBuf};

/// `path` as written in a manifest or marketplace (`./skills/x`, `skills/x/`, `.`),
/// normalised to `skills/x` (`""` for the root itself). Absolute paths, `..`, backslashes and
/// control characters are refused with the reason.
pub fn relative_path(path: &str) -> Result<String, String> {
    if path.starts_with('/') || path.starts_with('~') {
        return Err(format!(
            "{path:?} is absolute; paths are relative to the plugin (`./...`)"
        ));
    }
    if path.contains('\\') || path.chars().any(char::is_control) {
        return Err(format!("{path:?} has a backslash or a control character"));
    }
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(format!("{path:?}: `..` leaves the plugin")),
            p => parts.push(p),
        }
    }
    Ok(parts.join("/"))
}

/// Where `rel` (as a manifest names it) is under `root`, when it exists there and its real
/// path (links resolved) stays inside `root`'s. `Err` says why not.
pub fn resolve_within(root: &Path, rel: &str) -> Result<PathBuf, String> {
    let normal = relative_path(rel)?;
    let path = if normal.is_empty() {
        root.to_path_buf()
    } else {
        root.join(&normal)
    };
    let real = std::fs::canonicalize(&path)
        .map_err(|_| format!("{rel:?} does not exist in the plugin"))?;
    let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    if !real.starts_with(&real_root) {
        return Err(format!(
            "{rel:?} leads out of the plugin (to {})",
            real.display()
        ));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_refuses() {
        assert_eq!(relative_path("./skills/x/").unwrap(), "skills/x");
        assert_eq!(relative_path(".").unwrap(), "");
        assert_eq!(relative_path("a//b").unwrap(), "a/b");
        for bad in ["/etc", "~/x", "../x", "a/../../b", "a\\b", "a\u{1b}b"] {
            assert!(relative_path(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_link_out_of_the_plugin_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("plugin");
        std::fs::create_dir_all(root.join("skills")).unwrap();
        std::fs::create_dir_all(tmp.path().join("outside")).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("outside"), root.join("out")).unwrap();
        assert_eq!(
            resolve_within(&root, "./skills").unwrap(),
            root.join("skills")
        );
        assert!(
            resolve_within(&root, "./out")
                .unwrap_err()
                .contains("leads out")
        );
        assert!(
            resolve_within(&root, "./missing")
                .unwrap_err()
                .contains("does not exist")
        );
    }
}
