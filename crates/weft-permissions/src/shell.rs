//! A minimal POSIX-shell lexer: where are the metacharacters, and what are the simple commands?
//!
//! A scoped `Bash(...)` allow must never be matched against a raw command string, or
//! `Bash(python3 scripts/*.py*)` would match `python3 scripts/x.py; rm -rf /`. Before a
//! command is split into words (with `shell-words`), this lexer looks for every character
//! that makes the shell do more than run one program with arguments: `;`, `&&`, `||`, `|`,
//! `&`, newlines, redirections `>` and `<`, subshells `(` `)`, and command substitution
//! (`` ` `` and `$(`, which also work inside double quotes). Quotes and backslash escapes are
//! honoured, so `git commit -m "a; b"` is one simple command.

use std::borrow::Cow;

/// What the lexer found in a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lexed<'a> {
    /// The first metacharacter found outside single quotes, as written (`;`, `&&`, `$(`...).
    pub(crate) first_meta: Option<&'static str>,
    /// True when the command runs code that cannot be seen from its words: command
    /// substitution or a subshell.
    pub(crate) opaque: bool,
    /// The simple commands between control operators (`;`, `&&`, `||`, `|`, `&`, newline).
    pub(crate) segments: Vec<&'a str>,
}

/// The command has an unclosed quote or a trailing backslash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unbalanced;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Plain,
    Single,
    Double,
}

/// Lexes `command`.
pub(crate) fn lex(command: &str) -> Result<Lexed<'_>, Unbalanced> {
    let mut segments = Vec::new();
    let (first_meta, opaque) = scan(command, Some(&mut segments))?;
    Ok(Lexed {
        first_meta,
        opaque,
        segments,
    })
}

/// The first metacharacter of `command`, without collecting segments (no allocation).
pub(crate) fn first_meta(command: &str) -> Result<Option<&'static str>, Unbalanced> {
    scan(command, None).map(|(meta, _)| meta)
}

/// The lexer: `(first metacharacter, opaque)`, pushing the segments when asked.
fn scan<'a>(
    command: &'a str,
    mut segments: Option<&mut Vec<&'a str>>,
) -> Result<(Option<&'static str>, bool), Unbalanced> {
    let bytes = command.as_bytes();
    let mut out = Lexed {
        first_meta: None,
        opaque: false,
        segments: Vec::new(),
    };
    let mut state = State::Plain;
    let mut start = 0;
    let mut i = 0;
    let note = |out: &mut Lexed<'_>, meta: &'static str| {
        if out.first_meta.is_none() {
            out.first_meta = Some(meta);
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match state {
            State::Single => {
                if b == b'\'' {
                    state = State::Plain;
                }
            }
            State::Double => match b {
                b'\\' => {
                    if next.is_none() {
                        return Err(Unbalanced);
                    }
                    i += 1;
                }
                b'"' => state = State::Plain,
                b'`' => {
                    note(&mut out, "`");
                    out.opaque = true;
                }
                b'$' if next == Some(b'(') => {
                    note(&mut out, "$(");
                    out.opaque = true;
                }
                _ => {}
            },
            State::Plain => {
                // (operator text, width, splits the command, opaque)
                let op: Option<(&'static str, usize, bool, bool)> = match b {
                    b'\\' => {
                        if next.is_none() {
                            return Err(Unbalanced);
                        }
                        i += 2;
                        continue;
                    }
                    b'\'' => {
                        state = State::Single;
                        None
                    }
                    b'"' => {
                        state = State::Double;
                        None
                    }
                    b';' => Some((";", 1, true, false)),
                    b'\n' => Some(("newline", 1, true, false)),
                    b'&' if next == Some(b'&') => Some(("&&", 2, true, false)),
                    b'&' if next == Some(b'>') => Some(("&>", 2, false, false)),
                    b'&' => Some(("&", 1, true, false)),
                    b'|' if next == Some(b'|') => Some(("||", 2, true, false)),
                    b'|' => Some(("|", 1, true, false)),
                    b'>' if next == Some(b'&') => Some((">&", 2, false, false)),
                    b'>' => Some((">", 1, false, false)),
                    b'<' if next == Some(b'&') => Some(("<&", 2, false, false)),
                    b'<' => Some(("<", 1, false, false)),
                    b'`' => Some(("`", 1, false, true)),
                    b'$' if next == Some(b'(') => Some(("$(", 2, false, true)),
                    b'(' => Some(("(", 1, false, true)),
                    b')' => Some((")", 1, false, true)),
                    _ => None,
                };
                if let Some((text, width, splits, opaque)) = op {
                    note(&mut out, text);
                    out.opaque |= opaque;
                    if splits {
                        if let Some(segments) = segments.as_deref_mut() {
                            segments.push(&command[start..i]);
                        }
                        start = i + width;
                    }
                    i += width;
                    continue;
                }
            }
        }
        i += 1;
    }
    if state != State::Plain {
        return Err(Unbalanced);
    }
    if let Some(segments) = segments {
        segments.push(&command[start..]);
    }
    Ok((out.first_meta, out.opaque))
}

/// Splits one simple command into words, with shell quoting rules. `None` when unbalanced.
///
/// Without quotes, backslashes or `#`, the words are borrowed (split at spaces, tabs and
/// newlines, as `shell-words` does); otherwise `shell-words` does the work.
pub(crate) fn words(command: &str) -> Option<Vec<Cow<'_, str>>> {
    if command.contains(['\'', '"', '\\', '#']) {
        let words = shell_words::split(command).ok()?;
        return Some(words.into_iter().map(Cow::Owned).collect());
    }
    Some(plain_words(command).map(Cow::Borrowed).collect())
}

/// `text` split at spaces, tabs and newlines (the shell's default separators).
pub(crate) fn plain_words(text: &str) -> impl Iterator<Item = &str> {
    text.split([' ', '\t', '\n']).filter(|w| !w.is_empty())
}

/// True for a leading `NAME=value` word (an environment assignment before the program).
pub(crate) fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(cmd: &str) -> Option<&'static str> {
        lex(cmd).unwrap().first_meta
    }

    #[test]
    fn plain_commands_have_no_metacharacters() {
        for cmd in [
            "git status",
            "git commit -m \"a; b && c | d\"",
            "echo 'it''s $(fine) `too`'",
            "ls -la src/*.rs",
            "echo a\\;b",
            "grep -n 'x|y' file",
        ] {
            let lexed = lex(cmd).unwrap();
            assert_eq!(lexed.first_meta, None, "{cmd}");
            assert_eq!(lexed.segments, [cmd]);
        }
    }

    #[test]
    fn metacharacters_are_found_outside_quotes() {
        assert_eq!(meta("git status; rm -rf /"), Some(";"));
        assert_eq!(meta("git status && curl evil"), Some("&&"));
        assert_eq!(meta("a || b"), Some("||"));
        assert_eq!(meta("a | b"), Some("|"));
        assert_eq!(meta("a & b"), Some("&"));
        assert_eq!(meta("a\nb"), Some("newline"));
        assert_eq!(meta("a > b"), Some(">"));
        assert_eq!(meta("a < b"), Some("<"));
        assert_eq!(meta("a `b`"), Some("`"));
        assert_eq!(meta("a $(b)"), Some("$("));
        assert_eq!(meta("(a)"), Some("("));
    }

    #[test]
    fn substitution_inside_double_quotes_is_opaque() {
        let lexed = lex("git commit -m \"$(rm -rf /)\"").unwrap();
        assert_eq!(lexed.first_meta, Some("$("));
        assert!(lexed.opaque);
        assert!(lex("echo \"`id`\"").unwrap().opaque);
        assert!(!lex("echo '$(id)'").unwrap().opaque);
    }

    #[test]
    fn segments_split_at_control_operators() {
        let lexed = lex("ls | wc -l; rm -rf / && echo ok").unwrap();
        assert_eq!(lexed.segments, ["ls ", " wc -l", " rm -rf / ", " echo ok"]);
        assert!(!lexed.opaque);
        let lexed = lex("make 2>&1 > log").unwrap();
        assert_eq!(lexed.segments, ["make 2>&1 > log"]);
    }

    #[test]
    fn unbalanced_quotes_are_reported() {
        assert_eq!(lex("git commit -m \"oops"), Err(Unbalanced));
        assert_eq!(lex("echo 'x"), Err(Unbalanced));
        assert_eq!(lex("echo x\\"), Err(Unbalanced));
        assert_eq!(words("echo 'x"), None);
        assert_eq!(words("git  status").unwrap(), ["git", "status"]);
        assert_eq!(words("git\rstatus").unwrap(), ["git\rstatus"]);
        assert_eq!(words("git 'a b' #c").unwrap(), ["git", "a b"]);
        assert_eq!(first_meta("a; b"), Ok(Some(";")));
        assert_eq!(first_meta("a 'b"), Err(Unbalanced));
    }

    #[test]
    fn assignments_are_recognised() {
        assert!(is_assignment("FOO=1"));
        assert!(is_assignment("_x=a=b"));
        assert!(!is_assignment("1A=b"));
        assert!(!is_assignment("git"));
        assert!(!is_assignment("--opt=x"));
    }
}
