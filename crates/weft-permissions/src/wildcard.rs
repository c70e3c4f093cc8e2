//! `*`-only wildcards, for tool names, shell commands and input fields.
//!
//! Claude Code's permission grammar has one wildcard outside paths: `*`, matching any run of
//! characters (including none, and including `/`). Every other character is literal, so `?`,
//! `[` and `{` in a command pattern mean themselves. Paths use `globset` instead (see
//! `spec/path.rs`).

/// A compiled `*` wildcard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wildcard {
    /// The pattern split at `*`: `a*b*c` is `["a", "b", "c"]`; no `*` gives one part.
    parts: Vec<Box<str>>,
}

impl Wildcard {
    /// Compiles `pattern`.
    pub(crate) fn new(pattern: &str) -> Self {
        Self {
            parts: pattern.split('*').map(Box::from).collect(),
        }
    }

    /// True when `pattern` contains a wildcard.
    pub(crate) fn has_wildcard(pattern: &str) -> bool {
        pattern.contains('*')
    }

    /// True when `text` matches the whole pattern.
    pub(crate) fn matches(&self, text: &str) -> bool {
        let (first, rest) = match self.parts.split_first() {
            Some(split) => split,
            None => return text.is_empty(),
        };
        let Some((last, middle)) = rest.split_last() else {
            return text == &**first;
        };
        if text.len() < first.len() + last.len()
            || !text.starts_with(&**first)
            || !text.ends_with(&**last)
        {
            return false;
        }
        // Leftmost-first search of the middle parts is exact for `*`-only patterns.
        let mut window = &text[first.len()..text.len() - last.len()];
        for part in middle {
            match window.find(&**part) {
                Some(at) => window = &window[at + part.len()..],
                None => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        Wildcard::new(pattern).matches(text)
    }

    #[test]
    fn literal_patterns_match_exactly() {
        assert!(m("read_file", "read_file"));
        assert!(!m("read_file", "read_files"));
        assert!(m("", ""));
        assert!(!m("", "x"));
    }

    #[test]
    fn stars_match_any_run() {
        assert!(m("*", ""));
        assert!(m("*", "anything/at all"));
        assert!(m("read_*", "read_file"));
        assert!(m("read_*", "read_"));
        assert!(!m("read_*", "rea"));
        assert!(m("*_file", "write_file"));
        assert!(m("a*b*c", "abc"));
        assert!(m("a*b*c", "axxbyyc"));
        assert!(!m("a*b*c", "axxcyyb"));
        assert!(m("python3 scripts/*.py*", "python3 scripts/x.py --flag"));
        assert!(!m("ab*ba", "aba"));
        assert!(m("*a*", "bab"));
    }

    #[test]
    fn other_glob_characters_are_literal() {
        assert!(m("a?c", "a?c"));
        assert!(!m("a?c", "abc"));
        assert!(m("[x]*", "[x]yz"));
        assert!(!m("{a,b}", "a"));
    }

    #[test]
    fn wildcards_are_recognised() {
        assert!(Wildcard::has_wildcard("a*"));
        assert!(!Wildcard::has_wildcard("a"));
    }
}
