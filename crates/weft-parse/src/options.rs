//! What a parse is allowed to read and which rules it applies.

use weft_types::Scope;

use crate::rules::Profile;
use crate::yaml::YamlLimits;

/// Size and shape limits (DESIGN 3.4, SEC-SKILL-01/03/07).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest skill or agent file that is read at all (256 KiB).
    pub max_file_bytes: usize,
    /// Largest body kept; longer bodies are truncated at a character boundary (32 KiB,
    /// `max_skill_prompt_bytes`).
    pub max_body_bytes: usize,
    /// Largest `metadata` value, measured as compact JSON (8 KiB).
    pub max_metadata_bytes: usize,
    /// Deepest `metadata` nesting (10).
    pub max_metadata_depth: usize,
    /// Limits of the YAML parser.
    pub yaml: YamlLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_file_bytes: 256 * 1024,
            max_body_bytes: 32 * 1024,
            max_metadata_bytes: 8 * 1024,
            max_metadata_depth: 10,
            yaml: YamlLimits::default(),
        }
    }
}

/// Options of every parse function.
///
/// ```
/// use weft_parse::{ParseOptions, Profile};
///
/// let strict = ParseOptions::new(Profile::Strict);
/// assert_eq!(strict.limits.max_file_bytes, 256 * 1024);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// Which rules apply and how seriously.
    pub profile: Profile,
    /// Size limits.
    pub limits: Limits,
    /// The scope recorded in the parsed item's source.
    pub scope: Scope,
}

impl ParseOptions {
    /// Options with `profile` and default limits, for the project scope.
    pub fn new(profile: Profile) -> Self {
        Self {
            profile,
            limits: Limits::default(),
            scope: Scope::Project,
        }
    }

    /// Sets the scope recorded in parsed items.
    #[must_use]
    pub fn with_scope(mut self, scope: Scope) -> Self {
        self.scope = scope;
        self
    }
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self::new(Profile::Load)
    }
}
