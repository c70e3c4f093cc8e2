//! The directories file tools may touch, and how a model-supplied path is checked against them.

use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::{ReadGrants, ToolError};

/// How many symlinks one resolution may follow by hand before it gives up (the kernel's own
/// limit is 40; a cycle of dangling links would otherwise never end).
const MAX_LINK_HOPS: u32 = 40;

/// The directories file tools may touch: a base directory (where relative paths start) and
/// any extra roots, plus directories granted for reading only ([`ReadGrants`]: a loaded
/// skill's own files). A path must lie inside as spelled and as it resolves: it is
/// canonicalized before it is checked, so a symlink cannot lead a tool outside, and a path
/// spelled outside does not come in through a link either. Grants are judged the same way.
#[derive(Debug, Clone)]
pub struct FsScope {
    base: PathBuf,
    roots: Vec<PathBuf>,
    /// The roots as given (absolute, `.` and `..` applied), for paths spelled through a
    /// linked spelling of a root.
    spelled_roots: Vec<PathBuf>,
    grants: ReadGrants,
}

impl FsScope {
    /// A scope rooted at `base` plus `extra_roots`; all of them must exist (they are
    /// canonicalized here, so later checks compare real paths). `base` is always a root.
    pub fn new(base: PathBuf, extra_roots: Vec<PathBuf>) -> io::Result<Self> {
        let mut spelled_roots: Vec<PathBuf> = Vec::new();
        let mut roots: Vec<PathBuf> = Vec::new();
        for root in std::iter::once(&base).chain(&extra_roots) {
            if root.is_absolute() {
                spelled_roots.push(normalize(root));
            }
            let root = std::fs::canonicalize(root)?;
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        Ok(Self {
            base: roots[0].clone(),
            roots,
            spelled_roots,
            grants: ReadGrants::new(),
        })
    }

    /// The same scope, also readable wherever `grants` says (shared: grants made later count).
    pub fn with_grants(mut self, grants: ReadGrants) -> Self {
        self.grants = grants;
        self
    }

    /// The read-only grants this scope honours.
    pub fn grants(&self) -> &ReadGrants {
        &self.grants
    }

    /// The canonical base directory.
    pub fn base(&self) -> &Path {
        &self.base
    }

    /// Every canonical root, the base first.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// True when the canonical `path` lies inside some root (writable).
    pub fn contains(&self, path: &Path) -> bool {
        self.roots.iter().any(|root| path.starts_with(root))
    }

    /// True when the canonical `path` may be read: inside a root or a granted directory.
    pub fn readable(&self, path: &Path) -> bool {
        self.contains(path) || self.grants.contains(path)
    }

    /// Resolves a model-supplied path to a canonical path inside the scope, for writing.
    ///
    /// Relative paths start at the base; `~` is an ordinary name; `.` and `..` are applied
    /// lexically, and that spelling must lie inside a root (as canonicalized or as given);
    /// then the deepest existing ancestor is canonicalized (following symlinks, also for a
    /// file that does not exist yet) and the result must lie inside a root too.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, ToolError> {
        let lexical = self.spelled(path)?;
        if !self.spelled_inside(&lexical) {
            return Err(self.outside(path));
        }
        let resolved = real(path, &lexical)?;
        if self.contains(&resolved) {
            Ok(resolved)
        } else {
            Err(self.outside(path))
        }
    }

    /// As [`resolve`](Self::resolve), for reading: a granted directory counts too, as
    /// spelled and as resolved (a link inside a skill's directory that leads out of it is
    /// refused, and so is a path spelled outside that leads into it).
    pub fn resolve_read(&self, path: &str) -> Result<PathBuf, ToolError> {
        let lexical = self.spelled(path)?;
        if !self.spelled_inside(&lexical) && !self.grants.contains_spelled(&lexical) {
            return Err(self.outside(path));
        }
        let resolved = real(path, &lexical)?;
        if self.readable(&resolved) {
            Ok(resolved)
        } else {
            Err(self.outside(path))
        }
    }

    /// `path` from the base with `.` and `..` applied: the path as spelled.
    pub(crate) fn spelled(&self, path: &str) -> Result<PathBuf, ToolError> {
        if path.is_empty() {
            return Err(ToolError::InvalidInput("path is empty".to_owned()));
        }
        Ok(normalize(&self.base.join(path)))
    }

    /// True when the spelled `lexical` path lies inside a root, canonical or as given.
    fn spelled_inside(&self, lexical: &Path) -> bool {
        self.contains(lexical) || self.spelled_roots.iter().any(|r| lexical.starts_with(r))
    }

    /// The error for `path` lying outside every root.
    pub fn outside(&self, path: &str) -> ToolError {
        ToolError::OutsideWorkspace {
            path: path.to_owned(),
            roots: self
                .roots
                .iter()
                .map(|r| r.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// `path` relative to the base when it lies inside it (`.` for the base itself),
    /// otherwise the path as is; used to name files in tool output.
    pub fn display(&self, path: &Path) -> String {
        match path.strip_prefix(&self.base) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}

/// The real path of `path` (relative paths start at `base`): `.` and `..` applied, then
/// every symbolic link resolved, also for a file that does not exist yet (where a dangling
/// link would create it). Nothing is checked: the caller compares the result (permission
/// rules judge a call on its spelled and its real path).
pub fn real_path(base: &Path, path: &str) -> io::Result<PathBuf> {
    canonicalize_lenient(&normalize(&base.join(path)), 0)
}

/// The real path of the spelled (normalized) `lexical`; `path` names it in the error.
fn real(path: &str, lexical: &Path) -> Result<PathBuf, ToolError> {
    canonicalize_lenient(lexical, 0).map_err(|source| ToolError::Io {
        path: PathBuf::from(path),
        source,
    })
}

/// Applies `.` and `..` without touching the file system; `..` at the root stays at the root.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Canonicalizes the deepest existing ancestor of an absolute, normalized `path` and appends
/// the rest. A dangling symlink on the way is followed by hand, so a file created through it
/// is judged by where it would land.
fn canonicalize_lenient(path: &Path, hops: u32) -> io::Result<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut rest: Vec<OsString> = Vec::new();
    loop {
        match std::fs::canonicalize(&existing) {
            Ok(mut canonical) => {
                canonical.extend(rest.iter().rev());
                return Ok(canonical);
            }
            Err(err) => {
                let is_link = std::fs::symlink_metadata(&existing)
                    .map(|m| m.file_type().is_symlink())
                    .unwrap_or(false);
                if is_link {
                    if hops >= MAX_LINK_HOPS {
                        return Err(io::Error::other("too many levels of symbolic links"));
                    }
                    let target = std::fs::read_link(&existing)?;
                    let parent = existing.parent().unwrap_or(Path::new("/"));
                    let mut next = std::fs::canonicalize(parent)?.join(target);
                    next.extend(rest.iter().rev());
                    return canonicalize_lenient(&normalize(&next), hops + 1);
                }
                match existing.file_name() {
                    Some(name) => {
                        rest.push(name.to_owned());
                        existing.pop();
                    }
                    None => return Err(err),
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    fn setup() -> (tempfile::TempDir, tempfile::TempDir, FsScope) {
        let inside = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(inside.path().join("src")).unwrap();
        std::fs::write(inside.path().join("src/a.txt"), "a").unwrap();
        std::fs::write(outside.path().join("secret.txt"), "s").unwrap();
        let scope = FsScope::new(inside.path().to_path_buf(), vec![]).unwrap();
        (inside, outside, scope)
    }

    fn assert_outside(result: Result<PathBuf, ToolError>) {
        match result {
            Err(ToolError::OutsideWorkspace { .. }) => {}
            other => panic!("expected OutsideWorkspace, got {other:?}"),
        }
    }

    #[test]
    fn relative_paths_start_at_base() {
        let (_i, _o, scope) = setup();
        let p = scope.resolve("src/./a.txt").unwrap();
        assert_eq!(p, scope.base().join("src/a.txt"));
        assert_eq!(scope.display(&p), "src/a.txt");
        assert_eq!(scope.display(scope.base()), ".");
        assert_eq!(scope.resolve(".").unwrap(), scope.base());
    }

    #[test]
    fn dot_dot_escape_is_refused() {
        let (_i, _o, scope) = setup();
        assert_outside(scope.resolve("../x"));
        assert_outside(scope.resolve("src/../../x"));
        // A `..` that stays inside is fine.
        assert_eq!(
            scope.resolve("src/../src/a.txt").unwrap(),
            scope.base().join("src/a.txt")
        );
    }

    #[test]
    fn absolute_outside_path_is_refused() {
        let (_i, outside, scope) = setup();
        assert_outside(scope.resolve(outside.path().join("secret.txt").to_str().unwrap()));
        assert_outside(scope.resolve("/etc/passwd"));
    }

    #[test]
    fn tilde_is_not_expanded() {
        let (_i, _o, scope) = setup();
        assert_eq!(scope.resolve("~/x").unwrap(), scope.base().join("~/x"));
    }

    #[test]
    fn symlink_pointing_outside_is_refused() {
        let (inside, outside, scope) = setup();
        symlink(outside.path(), inside.path().join("out")).unwrap();
        symlink(
            outside.path().join("secret.txt"),
            inside.path().join("secret"),
        )
        .unwrap();
        assert_outside(scope.resolve("out/secret.txt"));
        assert_outside(scope.resolve("out/new/file.txt"));
        assert_outside(scope.resolve("secret"));
    }

    #[test]
    fn dangling_symlink_pointing_outside_is_refused() {
        let (inside, outside, scope) = setup();
        symlink(
            outside.path().join("new.txt"),
            inside.path().join("dangling"),
        )
        .unwrap();
        assert_outside(scope.resolve("dangling"));
    }

    #[test]
    fn symlink_within_scope_is_followed() {
        let (inside, _o, scope) = setup();
        symlink(inside.path().join("src"), inside.path().join("alias")).unwrap();
        assert_eq!(
            scope.resolve("alias/a.txt").unwrap(),
            scope.base().join("src/a.txt")
        );
    }

    #[test]
    fn new_nested_file_inside_is_accepted() {
        let (_i, _o, scope) = setup();
        assert_eq!(
            scope.resolve("src/new/deeper/file.rs").unwrap(),
            scope.base().join("src/new/deeper/file.rs")
        );
    }

    #[test]
    fn extra_roots_are_allowed() {
        let (inside, outside, _) = setup();
        let scope = FsScope::new(
            inside.path().to_path_buf(),
            vec![outside.path().to_path_buf()],
        )
        .unwrap();
        assert_eq!(scope.roots().len(), 2);
        let secret = scope
            .resolve(outside.path().join("secret.txt").to_str().unwrap())
            .unwrap();
        assert!(secret.ends_with("secret.txt"));
        assert!(scope.display(&secret).starts_with('/'));
    }

    #[test]
    fn a_granted_directory_is_readable_not_writable_and_links_out_of_it_are_refused() {
        let (inside, outside, scope) = setup();
        let skill = outside.path().join("skill");
        std::fs::create_dir_all(skill.join("refs")).unwrap();
        std::fs::write(skill.join("refs/doc.md"), "d").unwrap();
        symlink(outside.path().join("secret.txt"), skill.join("refs/leak")).unwrap();
        let doc = skill.join("refs/doc.md");
        let doc = doc.to_str().unwrap();
        assert_outside(scope.resolve_read(doc));
        let grants = ReadGrants::new();
        let scope = scope.with_grants(grants.clone());
        let grant = grants.grant(&skill).unwrap();
        assert!(scope.resolve_read(doc).unwrap().ends_with("refs/doc.md"));
        assert_outside(scope.resolve(doc));
        assert_outside(scope.resolve_read(skill.join("refs/leak").to_str().unwrap()));
        assert_outside(scope.resolve_read(skill.join("../secret.txt").to_str().unwrap()));
        // The workspace stays readable and writable as before.
        assert!(scope.resolve_read("src/a.txt").is_ok());
        assert!(inside.path().join("src/a.txt").is_file());
        drop(grant);
        assert_outside(scope.resolve_read(doc));
    }

    #[test]
    fn a_grant_is_judged_as_spelled_and_as_resolved() {
        let (_inside, outside, scope) = setup();
        let skill = outside.path().join("skill");
        std::fs::create_dir_all(skill.join("refs")).unwrap();
        std::fs::write(skill.join("refs/doc.md"), "d").unwrap();
        // A skill directory named through a link (~/.clawft/skills -> elsewhere) is readable
        // under either name.
        let linked = outside.path().join("skills-link");
        symlink(&skill, &linked).unwrap();
        let grants = ReadGrants::new();
        let scope = scope.with_grants(grants.clone());
        let _grant = grants.grant(&linked).unwrap();
        for spelled in [linked.join("refs/doc.md"), skill.join("refs/doc.md")] {
            assert!(
                scope
                    .resolve_read(spelled.to_str().unwrap())
                    .unwrap()
                    .ends_with("skill/refs/doc.md")
            );
        }
        // A path spelled outside every grant does not come in through a link into one.
        let side_door = outside.path().join("side-door");
        symlink(&skill, &side_door).unwrap();
        assert_outside(scope.resolve_read(side_door.join("refs/doc.md").to_str().unwrap()));
    }

    #[test]
    fn a_path_spelled_outside_is_refused_even_when_it_leads_inside() {
        let (inside, outside, scope) = setup();
        symlink(inside.path().join("src"), outside.path().join("in")).unwrap();
        assert_outside(scope.resolve(outside.path().join("in/a.txt").to_str().unwrap()));
        // The base spelled through a link of its own is still the base.
        let link = outside.path().join("base-link");
        symlink(inside.path(), &link).unwrap();
        let linked = FsScope::new(link.clone(), vec![]).unwrap();
        assert_eq!(
            linked
                .resolve(link.join("src/a.txt").to_str().unwrap())
                .unwrap(),
            linked.base().join("src/a.txt")
        );
    }

    #[test]
    fn real_paths_resolve_links_without_judging() {
        let (inside, outside, _) = setup();
        symlink(
            outside.path().join("secret.txt"),
            inside.path().join("src/notes.txt"),
        )
        .unwrap();
        let real = real_path(inside.path(), "src/notes.txt").unwrap();
        assert_eq!(
            real,
            outside.path().canonicalize().unwrap().join("secret.txt")
        );
        let new = real_path(inside.path(), "src/new/x.rs").unwrap();
        assert_eq!(
            new,
            inside.path().canonicalize().unwrap().join("src/new/x.rs")
        );
    }

    #[test]
    fn empty_path_is_invalid() {
        let (_i, _o, scope) = setup();
        assert!(matches!(scope.resolve(""), Err(ToolError::InvalidInput(_))));
    }
}
