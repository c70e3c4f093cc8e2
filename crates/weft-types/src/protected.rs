//! The paths of a project that later sessions trust: its configuration, skills, agents and
//! hooks (weft's, Claude Code's, Codex's and the shared `.agents/`), its MCP servers, and git's
//! configuration and hooks, which run programs. What a session writes there would be read by
//! the next session without a person having seen it, so no tool writes there without a
//! person's approval (every permission mode but `bypass`), and the sandbox keeps them
//! read-only.

use std::path::{Component, Path};

/// The protected paths, relative to the project (`/` separated).
pub const PROTECTED_PATHS: [&str; 7] = [
    ".clawft",
    ".claude",
    ".agents",
    ".codex",
    ".mcp.json",
    ".git/config",
    ".git/hooks",
];

/// The protected path that `relative` (a path inside the project, relative to it, `.` and `..`
/// already resolved) is or lies in, at any depth (`sub/.clawft/x` too: a nested project is a
/// project of its own once weft is started there). Names are compared without regard to ASCII
/// case, since a case-insensitive file system makes `.Clawft` the same directory.
///
/// ```
/// use std::path::Path;
/// use weft_types::protected::protected_entry;
///
/// assert_eq!(protected_entry(Path::new(".clawft/config.json")), Some(".clawft"));
/// assert_eq!(protected_entry(Path::new("sub/.GIT/hooks/pre-commit")), Some(".git/hooks"));
/// assert_eq!(protected_entry(Path::new(".git/HEAD")), None);
/// assert_eq!(protected_entry(Path::new("src/main.rs")), None);
/// ```
pub fn protected_entry(relative: &Path) -> Option<&'static str> {
    let names: Vec<&std::ffi::OsStr> = relative
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    PROTECTED_PATHS.into_iter().find(|entry| {
        let parts: Vec<&str> = entry.split('/').collect();
        names.windows(parts.len()).any(|window| {
            window
                .iter()
                .zip(&parts)
                .all(|(name, part)| name.to_str().is_some_and(|n| n.eq_ignore_ascii_case(part)))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_and_what_lies_beneath_it() {
        for entry in PROTECTED_PATHS {
            assert_eq!(protected_entry(Path::new(entry)), Some(entry));
            let beneath = format!("{entry}/x");
            assert_eq!(protected_entry(Path::new(&beneath)), Some(entry));
            let upper = entry.to_ascii_uppercase();
            assert_eq!(protected_entry(Path::new(&upper)), Some(entry));
        }
        for free in [
            ".git",
            ".git/HEAD",
            ".gitignore",
            "clawft",
            ".clawft-notes",
            "a/b.json",
        ] {
            assert_eq!(protected_entry(Path::new(free)), None, "{free}");
        }
        assert_eq!(
            protected_entry(Path::new("./a/.mcp.json")),
            Some(".mcp.json")
        );
    }
}
