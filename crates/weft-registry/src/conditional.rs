//! Conditional skills (`paths:`, as in Claude Code): a skill with path globs stays out of the
//! catalog until the session reads or edits a file they match.
//!
//! Globs are relative to the project root, `/` is literal (`*.md` is a file at the root,
//! `**/*.md` any Markdown file, `src/**` everything under `src/`), and a glob that does not
//! compile is logged and never matches.

use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The compiled `paths:` of one skill.
#[derive(Debug, Clone)]
pub struct PathMatcher {
    set: Option<GlobSet>,
}

impl PathMatcher {
    /// Compiles `globs` (those that do not compile are skipped with a log line).
    pub fn new(skill: &str, globs: &[String]) -> Self {
        if globs.is_empty() {
            return Self { set: None };
        }
        let mut builder = GlobSetBuilder::new();
        for glob in globs {
            match compile(glob) {
                Ok(g) => {
                    builder.add(g);
                }
                Err(e) => {
                    tracing::warn!(%skill, %glob, error = %e, "`paths` glob does not compile; ignored");
                }
            }
        }
        Self {
            set: builder.build().ok(),
        }
    }

    /// True when `relative` (a path relative to the project root) matches a glob.
    pub fn matches(&self, relative: &Path) -> bool {
        self.set.as_ref().is_some_and(|s| s.is_match(relative))
    }
}

/// One `paths:` glob as it is matched: relative to the project, `./` dropped, `/` literal.
fn compile(glob: &str) -> Result<globset::Glob, globset::Error> {
    let pattern = glob.trim().trim_start_matches("./");
    GlobBuilder::new(pattern).literal_separator(true).build()
}

/// Why a `paths:` glob does not compile (`skills validate` reports it), or `None`.
pub fn glob_problem(glob: &str) -> Option<String> {
    compile(glob).err().map(|e| e.kind().to_string())
}

/// `file` relative to `project` for matching: a relative path is taken as relative to the
/// project already; `.` and `..` are resolved lexically. `None` for a path outside the
/// project.
pub fn project_relative(file: &Path, project: Option<&Path>) -> Option<PathBuf> {
    let absolute = match project {
        Some(p) if file.is_relative() => p.join(file),
        _ => file.to_path_buf(),
    };
    let mut clean = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    match project {
        Some(p) => clean.strip_prefix(p).ok().map(Path::to_path_buf),
        None if clean.is_relative() => Some(clean),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_of_globs_that_do_not_compile() {
        assert_eq!(glob_problem("src/**/*.{ts,tsx}"), None);
        assert_eq!(
            glob_problem("src/{a,b").as_deref(),
            Some("unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)")
        );
        assert!(glob_problem("src/[a").is_some());
    }

    fn m(globs: &[&str]) -> PathMatcher {
        PathMatcher::new(
            "t",
            &globs.iter().map(|g| (*g).to_owned()).collect::<Vec<_>>(),
        )
    }

    #[test]
    fn globs_are_relative_to_the_project_with_literal_slashes() {
        let rust = m(&["src/**/*.rs", "*.toml"]);
        assert!(rust.matches(Path::new("src/lib.rs")));
        assert!(rust.matches(Path::new("src/a/b/c.rs")));
        assert!(rust.matches(Path::new("Cargo.toml")));
        assert!(!rust.matches(Path::new("crates/x/Cargo.toml")));
        assert!(!rust.matches(Path::new("tests/a.rs")));
        assert!(m(&["**/*.md"]).matches(Path::new("docs/a/b.md")));
        assert!(!m(&[]).matches(Path::new("a")));
        assert!(!m(&["[unclosed"]).matches(Path::new("[unclosed")));
    }

    #[test]
    fn paths_are_made_project_relative() {
        let p = Path::new("/repo");
        assert_eq!(
            project_relative(Path::new("src/../src/./lib.rs"), Some(p)),
            Some(PathBuf::from("src/lib.rs"))
        );
        assert_eq!(
            project_relative(Path::new("/repo/a.md"), Some(p)),
            Some(PathBuf::from("a.md"))
        );
        assert_eq!(project_relative(Path::new("/etc/passwd"), Some(p)), None);
        assert_eq!(
            project_relative(Path::new("a/b"), None),
            Some(PathBuf::from("a/b"))
        );
    }
}
