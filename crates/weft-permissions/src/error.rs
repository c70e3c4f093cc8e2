//! Errors: a malformed pattern, and a malformed pattern in a named definition.

use thiserror::Error;

use crate::Origin;

/// A tool pattern that cannot be compiled.
///
/// A malformed pattern is never read as "no restriction": the definition that holds it cannot
/// be used until it is fixed.
///
/// ```
/// use weft_permissions::{PatternErrorKind, ToolPattern};
///
/// let err = ToolPattern::parse("Bash(git status").unwrap_err();
/// assert_eq!(err.kind, PatternErrorKind::Unbalanced);
/// assert_eq!(err.to_string(), "invalid tool pattern `Bash(git status`: unbalanced parentheses");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid tool pattern `{pattern}`: {kind}")]
pub struct PatternError {
    /// The pattern as written.
    pub pattern: String,
    /// What is wrong with it.
    pub kind: PatternErrorKind,
}

/// What is wrong with a pattern.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PatternErrorKind {
    /// Empty or only whitespace.
    #[error("the pattern is empty")]
    Empty,
    /// A `(` without its `)`, a `)` without its `(`, or text after the closing `)`.
    #[error("unbalanced parentheses")]
    Unbalanced,
    /// Whitespace in the tool name (`Read Write` is two patterns, not one).
    #[error("the tool name contains whitespace")]
    Whitespace,
    /// `Tool()`: write `Tool` for every call, or give a specifier.
    #[error("the specifier in `()` is empty (write the tool name alone to allow every call)")]
    EmptySpecifier,
    /// `read_*(src/**)`: a scoped pattern must name exactly one tool.
    #[error("a scoped pattern must name one tool, not a glob")]
    ScopedGlob,
    /// The specifier does not fit the tool (`WebFetch(example.com)`, `specKit(x)`...).
    #[error("{0}")]
    Specifier(String),
    /// An unclosed quote in a `Bash(...)` specifier.
    #[error("unclosed quote in the command pattern")]
    UnclosedQuote,
    /// A path glob `globset` rejects.
    #[error("invalid path glob: {0}")]
    Glob(String),
    /// `${CLAUDE_SKILL_DIR}` or `${CLAUDE_PROJECT_DIR}` without a value to substitute.
    #[error("`{0}` is used but no value is known for it")]
    UnresolvedVariable(&'static str),
    /// A relative path pattern that climbs above its starting directory (`../x`).
    #[error("a relative path pattern must not climb above its starting directory")]
    PathClimbs,
}

/// A malformed pattern in a named definition (a skill, an agent...).
///
/// ```
/// use weft_permissions::{Origin, PatternContext, Policy};
/// use weft_types::ToolPolicy;
///
/// let policy = ToolPolicy::allow_only(["Bash()"]);
/// let err = Policy::from_tool_policy(&policy, Origin::Skill("x".into()), &PatternContext::new())
///     .unwrap_err();
/// assert!(err.to_string().starts_with("skill 'x': invalid tool pattern `Bash()`"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{origin}: {error}")]
pub struct PolicyError {
    /// The definition holding the pattern.
    pub origin: Origin,
    /// The pattern's error.
    pub error: PatternError,
}
