//! `Bash(...)` specifiers: command patterns over shell words.
//!
//! * `Bash(git:*)` ≡ `Bash(git *)`: the command's words start with `git` (a word boundary:
//!   `git` and `git status` match, `gitk` does not). `:*` is recognised only at the end.
//! * `Bash(npm run *)`: the words start with `npm run`.
//! * `Bash(git status)`: exactly these words.
//! * any other `*` (`Bash(ls*)`, `Bash(python3 scripts/*.py*)`): a wildcard over the command's
//!   words joined by single spaces (`*` matches anything, `/` included).
//!
//! An allow never matches a command with shell metacharacters outside quotes (see
//! `shell.rs`) or an unclosed quote. A deny is checked against every simple command of a
//! compound one (`ls | rm -rf x` is denied by `Bash(rm:*)`), with leading `NAME=value`
//! assignments skipped, and matches whenever the command substitutes or opens a subshell.

use std::borrow::Cow;

use serde_json::Value;

use super::{Verdict, Why, scalar};
use crate::shell::{self, Unbalanced};
use crate::wildcard::Wildcard;
use crate::{Effect, PatternErrorKind};

/// The input fields holding the command, in order of preference.
pub(super) const KEYS: &[&str] = &["command", "cmd"];

/// A compiled command pattern.
#[derive(Debug, Clone)]
pub(crate) struct CommandSpec {
    matcher: Matcher,
}

#[derive(Debug, Clone)]
enum Matcher {
    /// Exactly these words.
    Exact(Vec<String>),
    /// These words, then anything (possibly nothing).
    Prefix(Vec<String>),
    /// A wildcard over the joined words; `without_tail`, the pattern without its trailing
    /// ` *`, also matches (so `ls* *` matches `ls`).
    Glob {
        glob: Wildcard,
        without_tail: Option<Wildcard>,
        text: String,
    },
}

impl CommandSpec {
    /// Compiles a specifier (variables already substituted). `None` admits every command.
    pub(crate) fn compile(spec: &str) -> Result<Option<Self>, PatternErrorKind> {
        let spec = spec.trim();
        let (body, trailing) = match spec.strip_suffix(":*") {
            Some(body) => (body, true),
            None => (spec, false),
        };
        let mut words = if body.contains(['\'', '"', '\\', '#']) {
            shell_words::split(body).map_err(|_| PatternErrorKind::UnclosedQuote)?
        } else {
            shell::plain_words(body).map(str::to_owned).collect()
        };
        let mut prefix = trailing;
        if !prefix && words.last().is_some_and(|w| w == "*") {
            words.pop();
            prefix = true;
        }
        if words.is_empty() {
            return if prefix {
                Ok(None)
            } else {
                Err(PatternErrorKind::EmptySpecifier)
            };
        }
        let matcher = if words.iter().any(|w| Wildcard::has_wildcard(w)) {
            let joined = words.join(" ");
            let text = if prefix {
                format!("{joined} *")
            } else {
                joined.clone()
            };
            Matcher::Glob {
                glob: Wildcard::new(&text),
                without_tail: prefix.then(|| Wildcard::new(&joined)),
                text,
            }
        } else if prefix {
            Matcher::Prefix(words)
        } else {
            Matcher::Exact(words)
        };
        Ok(Some(Self { matcher }))
    }

    /// Compares the call's command with the pattern.
    pub(crate) fn verdict(&self, input: &Value, effect: Effect) -> Verdict {
        let command = match scalar(input, KEYS) {
            Ok(command) => command,
            Err(why) => return Verdict::Unjudgeable(why),
        };
        match effect {
            Effect::Allow => {
                match shell::first_meta(&command) {
                    Ok(None) => {}
                    Ok(Some(meta)) => return Verdict::Unjudgeable(Why::Metachar(meta)),
                    Err(Unbalanced) => return Verdict::Unjudgeable(Why::Unparseable),
                }
                match shell::words(&command) {
                    Some(words) if self.matches_words(&words) => Verdict::Match,
                    Some(_) => Verdict::NoMatch,
                    None => Verdict::Unjudgeable(Why::Unparseable),
                }
            }
            Effect::Deny => {
                let lexed = match shell::lex(&command) {
                    Ok(lexed) => lexed,
                    Err(Unbalanced) => return Verdict::Unjudgeable(Why::Unparseable),
                };
                if lexed.opaque {
                    return Verdict::Unjudgeable(Why::Metachar(lexed.first_meta.unwrap_or("$(")));
                }
                for segment in &lexed.segments {
                    let Some(words) = shell::words(segment) else {
                        return Verdict::Unjudgeable(Why::Unparseable);
                    };
                    let start = words.iter().take_while(|w| shell::is_assignment(w)).count();
                    if self.matches_words(&words[start..]) {
                        return Verdict::Match;
                    }
                }
                Verdict::NoMatch
            }
        }
    }

    /// True when the words of one simple command match.
    fn matches_words(&self, words: &[Cow<'_, str>]) -> bool {
        if words.is_empty() {
            return false;
        }
        let same = |a: &[Cow<'_, str>], b: &[String]| a.iter().zip(b).all(|(a, b)| *a == **b);
        match &self.matcher {
            Matcher::Exact(expected) => words.len() == expected.len() && same(words, expected),
            Matcher::Prefix(prefix) => words.len() >= prefix.len() && same(words, prefix),
            Matcher::Glob {
                glob, without_tail, ..
            } => {
                let joined = words.join(" ");
                glob.matches(&joined) || without_tail.as_ref().is_some_and(|w| w.matches(&joined))
            }
        }
    }

    /// The pattern in canonical form (`git:*` and `git *` give `git *`).
    pub(crate) fn write_key(&self, out: &mut String) {
        let words = match &self.matcher {
            Matcher::Exact(words) | Matcher::Prefix(words) => words,
            Matcher::Glob { text, .. } => return out.push_str(text),
        };
        for (i, word) in words.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&shell_words::quote(word));
        }
        if matches!(self.matcher, Matcher::Prefix(_)) {
            out.push_str(" *");
        }
    }

    #[cfg(test)]
    fn key(&self) -> String {
        let mut out = String::new();
        self.write_key(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn spec(text: &str) -> CommandSpec {
        CommandSpec::compile(text).unwrap().unwrap()
    }

    fn allows(pattern: &str, command: &str) -> bool {
        spec(pattern).verdict(&json!({ "command": command }), Effect::Allow) == Verdict::Match
    }

    fn denies(pattern: &str, command: &str) -> bool {
        spec(pattern).verdict(&json!({ "command": command }), Effect::Deny) != Verdict::NoMatch
    }

    #[test]
    fn colon_star_is_a_word_prefix() {
        for pattern in ["git:*", "git *"] {
            assert!(allows(pattern, "git status"), "{pattern}");
            assert!(allows(pattern, "git"), "{pattern}");
            assert!(allows(pattern, "  git   log --oneline"), "{pattern}");
            assert!(!allows(pattern, "gitk"), "{pattern}");
            assert!(!allows(pattern, "echo git"), "{pattern}");
        }
        assert_eq!(spec("git:*").key(), spec("git *").key());
    }

    #[test]
    fn colon_star_only_at_the_end() {
        // `git:* push` is a wildcard over the joined words, not a prefix.
        assert!(allows("git:* push", "git:x push"));
        assert!(!allows("git:* push", "git status"));
    }

    #[test]
    fn multi_word_prefix_and_exact() {
        assert!(allows("npm run *", "npm run build"));
        assert!(allows("npm run *", "npm run"));
        assert!(!allows("npm run *", "npm install"));
        assert!(allows("git status", "git status"));
        assert!(!allows("git status", "git status -s"));
        assert!(allows("git commit -m \"a b\"", "git commit -m 'a b'"));
    }

    #[test]
    fn wildcards_inside_words() {
        assert!(allows("ls*", "ls -la"));
        assert!(allows("ls*", "lsof"));
        assert!(allows(
            "python3 scripts/*.py*",
            "python3 scripts/x.py --fast"
        ));
        assert!(!allows("python3 scripts/*.py*", "python3 other/x.py"));
        assert!(allows("git * --oneline *", "git log --oneline"));
    }

    #[test]
    fn metacharacters_never_match_an_allow() {
        for command in [
            "git status; rm -rf /",
            "git status && curl http://x",
            "git log | sh",
            "git log > /etc/passwd",
            "git $(rm -rf /)",
            "git commit -m \"$(id)\"",
            "git `id`",
            "git status\nrm -rf /",
        ] {
            assert!(!allows("git:*", command), "{command}");
        }
        assert!(!allows(
            "python3 scripts/*.py*",
            "python3 scripts/x.py; rm -rf /"
        ));
        assert!(allows("git:*", "git commit -m 'a; b'"));
    }

    #[test]
    fn unparseable_and_missing_commands_never_match_an_allow() {
        let s = spec("git:*");
        assert_eq!(
            s.verdict(&json!({"command": "git commit -m \"x"}), Effect::Allow),
            Verdict::Unjudgeable(Why::Unparseable)
        );
        assert_eq!(
            s.verdict(&json!({}), Effect::Allow),
            Verdict::Unjudgeable(Why::Missing("command".into()))
        );
        assert_eq!(
            s.verdict(&json!({"cmd": "git status"}), Effect::Allow),
            Verdict::Match
        );
    }

    #[test]
    fn denies_check_every_simple_command() {
        assert!(denies("rm:*", "rm -rf /"));
        assert!(denies("rm:*", "ls | rm -rf x"));
        assert!(denies("rm:*", "ls && FOO=1 rm -rf x"));
        assert!(denies("rm:*", "echo $(ls)"));
        assert!(denies("rm:*", "echo 'x"));
        assert!(!denies("rm:*", "ls -la | wc -l"));
        assert!(!denies("rm:*", "echo rm"));
    }

    #[test]
    fn malformed_specs() {
        assert_eq!(
            CommandSpec::compile("git 'x").unwrap_err(),
            PatternErrorKind::UnclosedQuote
        );
        assert!(CommandSpec::compile(":*").unwrap().is_none());
        assert!(CommandSpec::compile("*").unwrap().is_none());
    }
}
