//! Errors of the registry API (discovery problems are diagnostics, not errors).

use std::path::PathBuf;

use weft_types::Diagnostic;

/// What can go wrong when using the registry.
#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// No skill has this name.
    #[error("Skill '{name}' not found. Run `weft skills list` to see available skills.")]
    SkillNotFound {
        /// The name asked for.
        name: String,
    },
    /// `register` was called for a name that is already taken.
    #[error("Skill '{name}' is already registered; use override_version to replace it")]
    AlreadyRegistered {
        /// The name.
        name: String,
    },
    /// A skill given to `register` or `override_version` is not valid.
    #[error("skill '{name}' is invalid: {}", first_error(.diagnostics))]
    InvalidSkill {
        /// The skill's name.
        name: String,
        /// Why.
        diagnostics: Vec<Diagnostic>,
    },
    /// A resource path tries to leave the skill directory (absolute path, `..`, or a symlink
    /// pointing outside).
    #[error("Security error: Resource path '{path}' attempts traversal outside skill directory.")]
    PathTraversal {
        /// The path as requested.
        path: String,
    },
    /// The resource does not exist.
    #[error("Resource not found for skill '{skill}': {path}")]
    ResourceNotFound {
        /// The skill.
        skill: String,
        /// The path as requested.
        path: String,
    },
    /// The skill has no directory to load resources from (built-in or registered in memory).
    #[error("Skill '{skill}' has no directory of its own, so it has no resources")]
    NoSkillDirectory {
        /// The skill.
        skill: String,
    },
    /// Reading a file failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The skill file could not be parsed any more when its body was loaded.
    #[error("skill '{name}' can no longer be read: {}", first_error(.diagnostics))]
    Unreadable {
        /// The skill.
        name: String,
        /// Why.
        diagnostics: Vec<Diagnostic>,
    },
}

fn first_error(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .find(|d| d.is_error())
        .or_else(|| diagnostics.first())
        .map_or_else(|| "unknown problem".to_owned(), ToString::to_string)
}
