//! Level 3: files inside a skill's directory, loaded on demand through a checked path.

use std::path::{Component, Path, PathBuf};

use crate::error::SkillError;

/// Resolves `requested` (relative to `skill_dir`) to a file inside the skill directory.
///
/// Rejects absolute paths, `..` that leaves the directory, and symlinks whose target lies
/// outside it (both sides are canonicalized before the containment check). A path that
/// stays inside but names no file is [`SkillError::ResourceNotFound`].
pub fn resolve_resource(
    skill: &str,
    skill_dir: &Path,
    requested: &str,
) -> Result<PathBuf, SkillError> {
    let traversal = || SkillError::PathTraversal {
        path: requested.to_owned(),
    };
    let cleaned = requested
        .strip_prefix("{baseDir}/")
        .or_else(|| requested.strip_prefix("${CLAUDE_SKILL_DIR}/"))
        .unwrap_or(requested);
    let rel = Path::new(cleaned);
    if cleaned.is_empty() || rel.is_absolute() || cleaned.starts_with(['/', '\\']) {
        return Err(traversal());
    }
    // Lexical check first: `a/../../x` must fail even when nothing exists on disk.
    let mut depth: usize = 0;
    for part in rel.components() {
        match part {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth.checked_sub(1).ok_or_else(traversal)?;
            }
            Component::RootDir | Component::Prefix(_) => return Err(traversal()),
        }
    }
    let not_found = || SkillError::ResourceNotFound {
        skill: skill.to_owned(),
        path: requested.to_owned(),
    };
    let root = std::fs::canonicalize(skill_dir).map_err(|_| not_found())?;
    let target = std::fs::canonicalize(skill_dir.join(rel)).map_err(|_| not_found())?;
    if !target.starts_with(&root) {
        return Err(traversal());
    }
    if !target.is_file() {
        return Err(not_found());
    }
    Ok(target)
}

/// Files bundled with a skill (level 3): paths relative to `skill_dir`, sorted, at most
/// `limit`. Hidden entries, symlinks and the skill file itself are left out; the walk stops
/// four directories down (and after 200 files), so a huge tree costs little.
pub fn list_resources(skill_dir: &Path, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    collect_files(skill_dir, skill_dir, 0, &mut out);
    out.sort();
    out.truncate(limit);
    out
}

fn collect_files(root: &Path, dir: &Path, depth: usize, out: &mut Vec<String>) {
    if depth > 4 || out.len() >= 200 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(ft) = entry.file_type() else { continue };
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        if ft.is_dir() {
            collect_files(root, &path, depth + 1, out);
        } else if ft.is_file()
            && !(depth == 0 && (name.eq_ignore_ascii_case("SKILL.md") || name == "skill.json"))
            && let Ok(rel) = path.strip_prefix(root)
        {
            out.push(rel.display().to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_paths_resolve_and_escapes_fail() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("skill");
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(dir.join("references/doc.md"), "doc").unwrap();
        std::fs::write(tmp.path().join("secret.txt"), "s").unwrap();

        assert!(resolve_resource("s", &dir, "references/doc.md").is_ok());
        assert!(resolve_resource("s", &dir, "./references/../references/doc.md").is_ok());
        assert!(resolve_resource("s", &dir, "{baseDir}/references/doc.md").is_ok());
        for bad in [
            "../secret.txt",
            "/etc/passwd",
            "references/../../secret.txt",
            "",
        ] {
            assert!(
                matches!(
                    resolve_resource("s", &dir, bad),
                    Err(SkillError::PathTraversal { .. })
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            resolve_resource("s", &dir, "references/missing.md"),
            Err(SkillError::ResourceNotFound { .. })
        ));
        assert!(matches!(
            resolve_resource("s", &dir, "references"),
            Err(SkillError::ResourceNotFound { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_leaving_the_directory_fail() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("skill");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(tmp.path().join("secret.txt"), "s").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret.txt"), dir.join("link.txt")).unwrap();
        assert!(matches!(
            resolve_resource("s", &dir, "link.txt"),
            Err(SkillError::PathTraversal { .. })
        ));
    }

    #[test]
    fn resources_are_relative_sorted_and_skip_the_skill_file_and_hidden_entries() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        for rel in [
            "SKILL.md",
            "b.txt",
            "scripts/run.sh",
            ".hidden/x",
            "a/.secret",
        ] {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        assert_eq!(list_resources(dir, 50), ["b.txt", "scripts/run.sh"]);
        assert_eq!(list_resources(dir, 1), ["b.txt"]);
    }
}
