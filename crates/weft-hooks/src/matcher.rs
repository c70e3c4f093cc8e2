//! Claude Code's matcher syntax: what a hook group's `matcher` selects.
//!
//! * omitted, `""` or `"*"`: everything;
//! * only letters, digits, spaces and `_ - , |`: exact names, separated by `|` or `,`
//!   (`Edit|Write`, `Bash`);
//! * anything else: an unanchored regular expression (`Edit.*` also hits `NotebookEdit`,
//!   `mcp__memory__.*`). Claude Code's are JavaScript regexes; weft compiles them with the
//!   `regex` crate, which accepts the common syntax and refuses look-around and
//!   backreferences (such a matcher is reported and matches nothing).

use std::fmt;

use regex::Regex;

/// The most a matcher's compiled program may take (a hostile settings file cannot make weft
/// build a huge automaton).
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A compiled matcher.
///
/// ```
/// use weft_hooks::Matcher;
///
/// let names = Matcher::compile(Some("Edit|Write")).unwrap();
/// assert!(names.matches("Write"));
/// assert!(!names.matches("MultiEdit"));
/// let regex = Matcher::compile(Some("Edit.*")).unwrap();
/// assert!(regex.matches("NotebookEdit"));
/// assert!(Matcher::compile(None).unwrap().matches("anything"));
/// assert!(Matcher::compile(Some("(?=x)")).is_err());
/// ```
#[derive(Debug, Clone)]
pub enum Matcher {
    /// Everything.
    All,
    /// These exact names.
    Names(Vec<String>),
    /// An unanchored regular expression.
    Regex(Regex),
}

/// A matcher that is neither a list of names nor a regular expression weft can compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatcherError {
    /// The matcher as written.
    pub matcher: String,
    /// Why it does not compile.
    pub reason: String,
}

impl fmt::Display for MatcherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "matcher `{}` is not a regular expression weft can use ({}); the hook never runs",
            self.matcher, self.reason
        )
    }
}

impl std::error::Error for MatcherError {}

impl Matcher {
    /// Compiles a matcher as written (`None`: no `matcher` key).
    pub fn compile(text: Option<&str>) -> Result<Self, MatcherError> {
        let Some(text) = text.map(str::trim).filter(|t| !t.is_empty() && *t != "*") else {
            return Ok(Matcher::All);
        };
        let plain = text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '-' | ',' | '|'));
        if plain {
            let names = text
                .split(['|', ','])
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect();
            return Ok(Matcher::Names(names));
        }
        regex::RegexBuilder::new(text)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map(Matcher::Regex)
            .map_err(|e| MatcherError {
                matcher: text.to_owned(),
                reason: e
                    .to_string()
                    .lines()
                    .last()
                    .unwrap_or_default()
                    .trim()
                    .to_owned(),
            })
    }

    /// True when the matcher selects `subject` (a tool name, a session source...).
    pub fn matches(&self, subject: &str) -> bool {
        match self {
            Matcher::All => true,
            Matcher::Names(names) => names.iter().any(|n| n == subject),
            Matcher::Regex(regex) => regex.is_match(subject),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms() {
        for all in [None, Some(""), Some("*"), Some("  ")] {
            assert!(matches!(Matcher::compile(all), Ok(Matcher::All)));
        }
        let names = Matcher::compile(Some("Bash, Read | mcp__gh__x")).unwrap();
        assert!(names.matches("Bash") && names.matches("Read") && names.matches("mcp__gh__x"));
        assert!(!names.matches("Bas") && !names.matches("ReadX"));
        // A bare server name is a name, so it matches nothing but itself (as in Claude Code).
        assert!(
            !Matcher::compile(Some("mcp__memory"))
                .unwrap()
                .matches("mcp__memory__read")
        );
        let regex = Matcher::compile(Some("mcp__memory__.*")).unwrap();
        assert!(regex.matches("mcp__memory__read"));
        assert!(Matcher::compile(Some("^Bash$")).unwrap().matches("Bash"));
        assert!(!Matcher::compile(Some("^Bash$")).unwrap().matches("xBash"));
        let err = Matcher::compile(Some("a(?!b)")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("matcher `a(?!b)` is not a regular expression weft can use"),
            "{err}"
        );
    }
}
