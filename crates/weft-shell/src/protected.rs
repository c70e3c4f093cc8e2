//! Protected paths: what decides what later sessions may do (weft's and the other agents'
//! configuration and skills, the project's MCP servers, git's configuration and hooks). A
//! command that may write, move or delete one asks in every mode but `bypass`, and no pattern
//! pre-approves it ([`Risk::writes_protected_path`](crate::Risk::writes_protected_path)).
//!
//! Paths are compared after normalisation, relative to the project root (`sub/../.claude/x`,
//! `/project/.git/config`). A target that is not literal (`"$F"`, `{.claude,x}`) may be one,
//! unless it is a plain glob none of whose names is hidden (`build/*.o`): every protected path
//! starts with a hidden name, which a glob matches only when it is spelled out.

use super::analysis::Finding;
use super::paths::{ShellContext, is_plain_glob, project_path};
use super::word::Word;

/// The protected paths, relative to the project root.
pub const PROTECTED_PATHS: &[&str] = &[
    ".clawft",
    ".claude",
    ".agents",
    ".codex",
    ".mcp.json",
    ".git/config",
    ".git/config.worktree",
    ".git/hooks",
];

/// How a write reaches what it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// The path itself (a redirection, `touch`, `tee`).
    Path,
    /// The path and everything below it (`rm -r`, `mv`, `chmod -R`, `cp` into a directory):
    /// the project root or `.git` reach the protected paths in them.
    Tree,
}

/// The protected path `target` may write, if any: `Some(path)`, or `Some("")` when it cannot
/// be known.
fn protected(target: &Word, ctx: &ShellContext, reach: Reach) -> Option<&'static str> {
    if !target.is_literal() {
        // Every protected path starts with a hidden name, which a plain glob matches only
        // when it is spelled out (`.git/*`).
        if !is_plain_glob(target) {
            return Some("");
        }
        let hidden =
            project_path(target, ctx).is_none_or(|parts| parts.iter().any(|p| p.starts_with('.')));
        return hidden.then_some("");
    }
    let parts = project_path(target, ctx)?;
    PROTECTED_PATHS.iter().copied().find(|path| {
        let protected: Vec<&str> = path.split('/').collect();
        parts.starts_with(&protected) || (reach == Reach::Tree && protected.starts_with(&parts))
    })
}

/// The risk of `what` (`` `> x` ``, `` `rm` operand `x` ``: it names the target) writing
/// `target`, if it may write a protected path.
pub(crate) fn protected_write(
    what: &str,
    target: &Word,
    ctx: &ShellContext,
    reach: Reach,
) -> Option<Finding> {
    let path = protected(target, ctx, reach)?;
    Some(Finding::protected(if path.is_empty() {
        format!("{what} may write a protected path (it is not literal)")
    } else if reach == Reach::Tree && !target.text().contains(path) {
        format!("{what} may reach the protected path `{path}`")
    } else {
        format!("{what} writes the protected path `{path}`")
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(target: &str, reach: Reach) -> Option<&'static str> {
        let ctx = ShellContext::new().with_project_root("/p").with_cwd("sub");
        protected(&Word::literal(target), &ctx, reach)
    }

    #[test]
    fn protected_paths_after_normalisation() {
        assert_eq!(
            hits("../.claude/settings.json", Reach::Path),
            Some(".claude")
        );
        assert_eq!(hits("/p/.git/config", Reach::Path), Some(".git/config"));
        assert_eq!(
            hits("../.git/hooks/pre-commit", Reach::Path),
            Some(".git/hooks")
        );
        assert_eq!(hits("../.mcp.json", Reach::Path), Some(".mcp.json"));
        assert_eq!(hits("../x/../.codex/a", Reach::Path), Some(".codex"));
        assert_eq!(hits(".claude/x", Reach::Path), None); // sub/.claude is not the project's
        assert_eq!(hits("../.git/HEAD", Reach::Path), None);
        assert_eq!(hits("../.git", Reach::Tree), Some(".git/config"));
        assert_eq!(hits("..", Reach::Tree), Some(".clawft"));
        assert_eq!(hits("..", Reach::Path), None);
        assert_eq!(hits("/etc/x", Reach::Path), None);
        let ctx = ShellContext::new();
        assert_eq!(
            protected(&Word::placeholder("$F"), &ctx, Reach::Path),
            Some("")
        );
        assert_eq!(
            protected(&Word::placeholder("*.o"), &ctx, Reach::Path),
            None
        );
        assert_eq!(
            protected(&Word::placeholder("build/*.o"), &ctx, Reach::Path),
            None
        );
        assert_eq!(
            protected(&Word::placeholder(".c*"), &ctx, Reach::Path),
            Some("")
        );
        assert_eq!(
            protected(&Word::placeholder(".git/*"), &ctx, Reach::Path),
            Some("")
        );
        assert_eq!(
            protected(&Word::placeholder("a/../*"), &ctx, Reach::Path),
            Some("")
        );
    }
}
