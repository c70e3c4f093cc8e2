//! What a sandboxed command changed among the read-only paths that the sandbox could not keep
//! as they were: a path that did not exist when the command started (nothing to mount or
//! carve there, or carving it would have kept the command from creating anything beside it),
//! and a symbolic link (the mount or the carving protects its target; the link itself can be
//! replaced). The helper takes a [`ReadOnlyWatch`] before the command starts and, once the
//! command and everything it started have ended, [`restore`](ReadOnlyWatch::restore)s: what
//! appeared is moved aside under a name no session reads, a replaced link is put back, and
//! each is reported, so nothing the command left there is trusted by a later session without
//! a person.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// How many `<name>.weft-quarantine-N` names are tried before giving up.
const MAX_QUARANTINE_NAMES: u32 = 100;

/// The suffix of a moved-aside path.
pub const QUARANTINE_SUFFIX: &str = ".weft-quarantine";

/// The read-only paths as a command found them.
#[derive(Debug, Clone, Default)]
pub struct ReadOnlyWatch {
    entries: Vec<(PathBuf, Before)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Before {
    Missing,
    Link(PathBuf),
    Present,
}

/// One path the command changed and what was done about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The read-only path.
    pub path: PathBuf,
    /// Where what the command left there now is (`None`: it could not be moved, see
    /// [`error`](Self::error)).
    pub moved_to: Option<PathBuf>,
    /// Why it could not be moved or the link not put back.
    pub error: Option<String>,
}

impl std::fmt::Display for Restored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} was created or replaced by a sandboxed command, but it configures later sessions and only a person may change it; ",
            self.path.display()
        )?;
        match (&self.moved_to, &self.error) {
            (Some(to), None) => write!(f, "moved to {}", to.display()),
            (Some(to), Some(e)) => write!(f, "moved to {}, but {e}", to.display()),
            (None, Some(e)) => write!(f, "it could not be moved aside: {e}"),
            (None, None) => write!(f, "left as it is"),
        }
    }
}

impl ReadOnlyWatch {
    /// Notes how each of `paths` is now.
    pub fn new(paths: &[PathBuf]) -> Self {
        let entries = paths
            .iter()
            .map(|path| {
                let before = match std::fs::symlink_metadata(path) {
                    Err(_) => Before::Missing,
                    Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(path) {
                        Ok(target) => Before::Link(target),
                        Err(_) => Before::Present,
                    },
                    Ok(_) => Before::Present,
                };
                (path.clone(), before)
            })
            .collect();
        Self { entries }
    }

    /// Moves aside what appeared where nothing was, and puts back replaced links. Call it once
    /// nothing the command started runs any more.
    pub fn restore(&self) -> Vec<Restored> {
        let mut restored = Vec::new();
        for (path, before) in &self.entries {
            let now = std::fs::symlink_metadata(path);
            let changed = match (before, &now) {
                (Before::Missing, Ok(_)) => true,
                (Before::Link(target), Ok(meta)) => {
                    !meta.file_type().is_symlink()
                        || std::fs::read_link(path).ok().as_ref() != Some(target)
                }
                (Before::Link(_), Err(_)) => {
                    // Removed: put the link back.
                    restored.push(Restored {
                        path: path.clone(),
                        moved_to: None,
                        error: relink(path, before).err(),
                    });
                    continue;
                }
                _ => false,
            };
            if !changed {
                continue;
            }
            let (moved_to, mut error) = match move_aside(path) {
                Ok(to) => (Some(to), None),
                Err(e) => (None, Some(e)),
            };
            if moved_to.is_some()
                && let Err(e) = relink(path, before)
            {
                error = Some(e);
            }
            restored.push(Restored {
                path: path.clone(),
                moved_to,
                error,
            });
        }
        restored
    }
}

/// Renames `path` to the first free `<path>.weft-quarantine[-N]`.
fn move_aside(path: &Path) -> Result<PathBuf, String> {
    let mut name = path.as_os_str().to_owned();
    name.push(QUARANTINE_SUFFIX);
    for n in 1..=MAX_QUARANTINE_NAMES {
        let mut candidate = name.clone();
        if n > 1 {
            candidate.push(format!("-{n}"));
        }
        let candidate = PathBuf::from(candidate);
        if std::fs::symlink_metadata(&candidate).is_ok() {
            continue;
        }
        return match std::fs::rename(path, &candidate) {
            Ok(()) => Ok(candidate),
            Err(e) => Err(format!("cannot rename it: {e}")),
        };
    }
    Err(format!("no free name {}-N", PathBuf::from(name).display()))
}

/// Puts back the link `path` was before the command, if it was one.
fn relink(path: &Path, before: &Before) -> Result<(), String> {
    let Before::Link(target) = before else {
        return Ok(());
    };
    match std::os::unix::fs::symlink(target, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            Err("the link could not be put back: the path is taken".to_owned())
        }
        Err(e) => Err(format!("the link could not be put back: {e}")),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn what_appeared_is_moved_aside_and_links_are_put_back() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir(root.join(".claude")).unwrap();
        std::fs::create_dir(root.join("real")).unwrap();
        std::os::unix::fs::symlink("real", root.join(".agents")).unwrap();
        let paths: Vec<PathBuf> = [".clawft", ".claude", ".agents", ".codex"]
            .iter()
            .map(|p| root.join(p))
            .collect();
        let watch = ReadOnlyWatch::new(&paths);
        assert!(watch.restore().is_empty(), "nothing changed yet");
        // The command creates `.clawft/config.json`, adds to `.claude` (its contents were
        // read-only: not this module's business) and points `.agents` elsewhere.
        std::fs::create_dir(root.join(".clawft")).unwrap();
        std::fs::write(root.join(".clawft/config.json"), "{}").unwrap();
        std::fs::remove_file(root.join(".agents")).unwrap();
        std::os::unix::fs::symlink("/etc", root.join(".agents")).unwrap();
        let restored = watch.restore();
        assert_eq!(restored.len(), 2, "{restored:?}");
        assert_eq!(
            restored[0].moved_to.as_deref(),
            Some(root.join(".clawft.weft-quarantine").as_path())
        );
        assert!(!root.join(".clawft").exists());
        assert!(root.join(".clawft.weft-quarantine/config.json").exists());
        assert_eq!(
            std::fs::read_link(root.join(".agents")).unwrap(),
            PathBuf::from("real")
        );
        assert_eq!(
            std::fs::read_link(root.join(".agents.weft-quarantine")).unwrap(),
            PathBuf::from("/etc")
        );
        // Again: the next free name.
        std::fs::write(root.join(".codex"), "").unwrap();
        std::fs::create_dir(root.join(".clawft")).unwrap();
        let again = watch.restore();
        assert_eq!(
            again[0].moved_to.as_deref(),
            Some(root.join(".clawft.weft-quarantine-2").as_path())
        );
        assert_eq!(again.len(), 2);
        assert!(
            again[0].to_string().ends_with(&format!(
                "only a person may change it; moved to {}",
                root.join(".clawft.weft-quarantine-2").display()
            )),
            "{}",
            again[0]
        );
    }
}
