//! Scope names as listings print them.

use weft_types::Scope;

/// A scope as agent and skill listings print it (seed 002: `built-in`, not `builtin`).
///
/// ```
/// use weft_term::scope_label;
/// use weft_types::Scope;
///
/// assert_eq!(scope_label(Scope::Builtin), "built-in");
/// assert_eq!(scope_label(Scope::User), "user");
/// ```
pub fn scope_label(scope: Scope) -> &'static str {
    match scope {
        Scope::Builtin => "built-in",
        other => other.as_str(),
    }
}

/// What a skill root of this scope is, in words (the help's list of locations).
///
/// ```
/// use weft_term::scope_root_label;
/// use weft_types::Scope;
///
/// assert_eq!(scope_root_label(Scope::User), "personal");
/// assert_eq!(scope_root_label(Scope::Plugin), "extra (--skills-dir)");
/// ```
pub fn scope_root_label(scope: Scope) -> &'static str {
    match scope {
        Scope::Project => "project",
        Scope::User => "personal",
        Scope::Workspace => "workspace",
        Scope::Plugin => "extra (--skills-dir)",
        Scope::Builtin => "built-in",
    }
}
