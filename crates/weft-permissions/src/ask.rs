//! Ask rules: calls a person must approve whatever the mode and whatever pre-approves them
//! (Claude Code's `permissions.ask`, and a hook answering `ask`).
//!
//! Claude Code checks deny, then ask, then allow, and the first match decides: an ask rule
//! beats every allow rule. A rule is read as broadly as a deny (a shell command is asked
//! about when any simple command in it may match), because asking too often is the safe
//! mistake.

use serde_json::Value;

use crate::{Effect, Origin, PatternContext, PatternSet, PolicyError};

/// Compiled ask rules.
///
/// ```
/// use serde_json::json;
/// use weft_permissions::{AskRules, Origin, PatternContext};
///
/// let rules = AskRules::compile(["Bash(git push:*)"], &Origin::Other("~/.claude/settings.json".into()), &PatternContext::new())?;
/// assert_eq!(
///     rules.check("Bash", &json!({"command": "git add . && git push"})).as_deref(),
///     Some("`Bash(git push:*)` from ~/.claude/settings.json asks for this call"),
/// );
/// assert_eq!(rules.check("Bash", &json!({"command": "git status"})), None);
/// # Ok::<(), weft_permissions::PolicyError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AskRules {
    patterns: PatternSet,
}

impl AskRules {
    /// Compiles `patterns` from `origin`.
    pub fn compile<I>(
        patterns: I,
        origin: &Origin,
        ctx: &PatternContext,
    ) -> Result<Self, PolicyError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        Ok(Self {
            patterns: PatternSet::compile(patterns, origin, ctx)?,
        })
    }

    /// Adds `other`'s rules.
    pub fn extend(&mut self, other: &AskRules) {
        self.patterns.extend_from(&other.patterns);
    }

    /// True when there is no rule.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The rules.
    pub fn patterns(&self) -> &PatternSet {
        &self.patterns
    }

    /// Why the call must be asked about, when a rule matches it.
    pub fn check(&self, tool: &str, input: &Value) -> Option<String> {
        self.patterns
            .iter()
            .find(|(pattern, _)| pattern.matches(tool, input, Effect::Deny))
            .map(|(pattern, origin)| format!("`{pattern}` from {origin} asks for this call"))
    }

    /// [`check`](Self::check) on the path as spelled in `input` and on `real` (the same input
    /// with its real path): either matching asks.
    pub fn check_resolved(
        &self,
        tool: &str,
        input: &Value,
        real: Option<&Value>,
    ) -> Option<String> {
        self.check(tool, input)
            .or_else(|| real.and_then(|real| self.check(tool, real)))
    }
}
