//! Editor backups and swap files of a denied file: a copy of `config.json` named
//! `config.json~`, `.config.json.swp` or `#config.json#` holds the same keys.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// `paths` and, for each, the backups and swap files of it that exist now (Emacs `F~` and
/// `#F#`, Vim `.F.swp` / `.F.swo` / `.F.swn` / `.F.un~`, `F.bak`, `F.orig`, `F.old`, `F.save`).
/// Only existing ones: a missing path would be carved around, keeping its directory from
/// getting new entries.
pub(crate) fn with_backups(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut all = paths.to_vec();
    for path in paths {
        all.extend(
            candidates(path)
                .into_iter()
                .filter(|p| std::fs::symlink_metadata(p).is_ok()),
        );
    }
    all
}

/// Where an editor would put a copy of `path`.
fn candidates(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let with = |prefix: &str, suffix: &str| {
        let mut n = OsString::from(prefix);
        n.push(name);
        n.push(suffix);
        dir.join(n)
    };
    vec![
        with("", "~"),
        with("#", "#"),
        with(".", ".swp"),
        with(".", ".swo"),
        with(".", ".swn"),
        with(".", ".un~"),
        with("", ".bak"),
        with("", ".orig"),
        with("", ".old"),
        with("", ".save"),
    ]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn existing_backups_are_added() {
        let tmp = tempfile::tempdir().unwrap();
        let config = tmp.path().join("config.json");
        for name in [
            "config.json",
            "config.json~",
            ".config.json.swp",
            "#config.json#",
            "config.json.bak",
            "other~",
        ] {
            std::fs::write(tmp.path().join(name), "k").unwrap();
        }
        let mut got: Vec<String> = with_backups(std::slice::from_ref(&config))
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        got.sort();
        assert_eq!(
            got,
            [
                "#config.json#",
                ".config.json.swp",
                "config.json",
                "config.json.bak",
                "config.json~"
            ]
        );
    }
}
