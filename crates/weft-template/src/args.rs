//! Splitting a raw argument string into arguments.

use std::borrow::Cow;
use std::fmt;

/// Why [`split_args`](crate::split_args) could not split an argument string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SplitError {
    /// A single or double quote (or a backslash inside double quotes) is not closed.
    UnclosedQuote,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::UnclosedQuote => f.write_str("unclosed quote in argument string"),
        }
    }
}

impl std::error::Error for SplitError {}

/// Splits a raw argument string with shell-word rules (quotes respected).
///
/// Whitespace separates arguments; single quotes keep everything literal; double quotes keep
/// whitespace and honour `\"`, `\\`, `` \` `` and `\$`; outside quotes a backslash makes the next
/// character literal. Unlike a shell, `#` does **not** start a comment: `fix #42` is two
/// arguments, `fix` and `#42`.
///
/// # Errors
///
/// [`SplitError::UnclosedQuote`] when a quote is left open.
///
/// ```
/// use weft_template::{SplitError, split_args};
///
/// assert_eq!(split_args(r#"a "b c" 'd e'"#)?, ["a", "b c", "d e"]);
/// assert_eq!(split_args("fix #42")?, ["fix", "#42"]);
/// assert_eq!(split_args("it's"), Err(SplitError::UnclosedQuote));
/// # Ok::<(), SplitError>(())
/// ```
pub fn split_args(raw: &str) -> Result<Vec<String>, SplitError> {
    shell_words::split(&protect_comments(raw)).map_err(|_| SplitError::UnclosedQuote)
}

/// Escapes every `#` that would start a shell comment (one at the start of a word, outside
/// quotes), so `shell_words` keeps it as text. Follows `shell_words`' own quoting states.
fn protect_comments(raw: &str) -> Cow<'_, str> {
    if !raw.contains('#') {
        return Cow::Borrowed(raw);
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        Delimiter,
        Unquoted,
        Single,
        Double,
    }

    let mut out = String::with_capacity(raw.len() + 4);
    let mut state = State::Delimiter;
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match (state, c) {
            (State::Delimiter, '#') => {
                out.push_str("\\#");
                state = State::Unquoted;
                continue;
            }
            (State::Delimiter | State::Unquoted, ' ' | '\t' | '\n') => state = State::Delimiter,
            (State::Delimiter | State::Unquoted, '\'') => state = State::Single,
            (State::Delimiter | State::Unquoted, '"') => state = State::Double,
            (State::Delimiter | State::Unquoted, '\\') => {
                out.push(c);
                match chars.next() {
                    // A backslash-newline outside quotes is a line continuation: it leaves the
                    // state as it was.
                    Some('\n') => out.push('\n'),
                    Some(next) => {
                        out.push(next);
                        state = State::Unquoted;
                    }
                    None => {}
                }
                continue;
            }
            (State::Delimiter | State::Unquoted, _) => state = State::Unquoted,
            (State::Single, '\'') | (State::Double, '"') => state = State::Unquoted,
            (State::Double, '\\') => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
                continue;
            }
            (State::Single | State::Double, _) => {}
        }
        out.push(c);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(raw: &str) -> Vec<String> {
        split_args(raw).unwrap_or_else(|e| panic!("{raw:?}: {e}"))
    }

    #[test]
    fn splits_on_whitespace() {
        assert_eq!(split("a b\tc\nd"), ["a", "b", "c", "d"]);
        assert_eq!(split("  a   b  "), ["a", "b"]);
    }

    #[test]
    fn empty_and_blank_give_no_arguments() {
        assert!(split("").is_empty());
        assert!(split("   \t\n").is_empty());
    }

    #[test]
    fn quotes_are_respected() {
        assert_eq!(split(r#"a "b c" 'd e'"#), ["a", "b c", "d e"]);
        assert_eq!(split(r#"x"y z"w"#), ["xy zw"]);
        assert_eq!(split(r#""" ''"#), ["", ""]);
        assert_eq!(split(r#""say \"hi\"""#), [r#"say "hi""#]);
        assert_eq!(split(r"a\ b"), ["a b"]);
    }

    #[test]
    fn unclosed_quotes_error() {
        assert_eq!(split_args("'abc"), Err(SplitError::UnclosedQuote));
        assert_eq!(split_args(r#"a "b c"#), Err(SplitError::UnclosedQuote));
        assert_eq!(split_args(r#""\"#), Err(SplitError::UnclosedQuote));
    }

    #[test]
    fn hash_is_not_a_comment() {
        assert_eq!(split("fix #42"), ["fix", "#42"]);
        assert_eq!(split("#a #b"), ["#a", "#b"]);
        assert_eq!(split("a#b"), ["a#b"]);
        assert_eq!(split("'#x' \"#y\""), ["#x", "#y"]);
        assert_eq!(split("'a # b' # c"), ["a # b", "#", "c"]);
        assert_eq!(split(r"\# x"), ["#", "x"]);
        assert_eq!(split(r#""a \" #b" #c"#), [r#"a " #b"#, "#c"]);
    }

    #[test]
    fn unclosed_quote_after_hash_still_errors() {
        assert_eq!(split_args("#a 'b"), Err(SplitError::UnclosedQuote));
    }

    #[test]
    fn multibyte_arguments() {
        assert_eq!(split("héllo 'wörld ü' #€"), ["héllo", "wörld ü", "#€"]);
    }

    #[test]
    fn error_displays() {
        let e = SplitError::UnclosedQuote;
        assert_eq!(e.to_string(), "unclosed quote in argument string");
        let _: &dyn std::error::Error = &e;
    }
}
