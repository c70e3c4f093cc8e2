//! `Bash(...)` specifiers: command patterns over the simple commands of a parsed command.
//!
//! * `Bash(git:*)` ≡ `Bash(git *)`: the command's words start with `git` (a word boundary:
//!   `git` and `git status` match, `gitk` does not). `:*` is recognised only at the end.
//! * `Bash(npm run *)`: the words start with `npm run`.
//! * `Bash(git status)`: exactly these words.
//! * any other `*` (`Bash(ls*)`, `Bash(python3 scripts/*.py*)`): a wildcard over the command's
//!   words joined by single spaces (`*` matches anything, `/` included).
//!
//! A pattern is compared with each [`SimpleCommand`] the analyser finds (see `shell/`), never
//! with the raw string: the program by its basename (`/bin/rm` is `rm`; a pattern whose program
//! has a `/` compares the path as written), its arguments without the program's known global
//! options (`git -C dir push` is `git push`). A word that is not literal (`$x`, `*.rs`) makes
//! the comparison uncertain where it matters. An allow matches a program path only in a system
//! directory (`/usr/bin/git` is `git`, `./git` is not); a deny matches any path.

use serde_json::Value;

use super::{Verdict, Why, scalar};
use crate::wildcard::Wildcard;
use crate::{Effect, PatternErrorKind};
use weft_shell::{ShellContext, SimpleCommand, Word, basename, without_global_options};

/// The input fields holding the command, in order of preference.
pub(crate) const KEYS: &[&str] = &["command", "cmd"];

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
        /// The first word (compared with the program alone first).
        head: String,
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
            body.split([' ', '\t', '\n'])
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect()
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
                head: words[0].clone(),
                text,
            }
        } else if prefix {
            Matcher::Prefix(words)
        } else {
            Matcher::Exact(words)
        };
        Ok(Some(Self { matcher }))
    }

    /// Compares the call's command with this pattern alone (a gate compares every pattern of
    /// a layer at once, see `gate/shell.rs`): an allow matches when every simple command
    /// matches it (or is a read-only helper) and nothing is unanalysable or risky; a deny when
    /// any simple command could match it or something is unanalysable.
    pub(crate) fn verdict(&self, input: &Value, effect: Effect) -> Verdict {
        let command = match scalar(input, KEYS) {
            Ok(command) => command,
            Err(why) => return Verdict::Unjudgeable(why),
        };
        let analysis = weft_shell::analyse_command(&command, &ShellContext::new());
        match effect {
            Effect::Allow => {
                for command in analysis.commands() {
                    if command.calls_defined_function()
                        || (command.runs_analysed_string() && command.other_user().is_none())
                    {
                        continue;
                    }
                    match self.judge(command, Effect::Allow) {
                        Judgement::Match => {}
                        _ if command.is_read_only_helper() => {}
                        Judgement::NoMatch => return Verdict::NoMatch,
                        Judgement::Unsure(why) => return Verdict::Unjudgeable(Why::Shell(why)),
                    }
                }
                if let Some(part) = analysis.unanalysable().first() {
                    return Verdict::Unjudgeable(Why::Shell(part.to_string()));
                }
                match analysis.risks().iter().find(|r| r.needs_approval()) {
                    Some(risk) => Verdict::Unjudgeable(Why::Shell(risk.to_string())),
                    None => Verdict::Match,
                }
            }
            Effect::Deny => {
                let mut unsure = None;
                for command in analysis.commands() {
                    match self.judge(command, Effect::Deny) {
                        Judgement::Match => return Verdict::Match,
                        Judgement::Unsure(why) => unsure = unsure.or(Some(why)),
                        Judgement::NoMatch => {}
                    }
                }
                if let Some(part) = analysis.unanalysable().first() {
                    return Verdict::Unjudgeable(Why::Shell(part.to_string()));
                }
                if let Some(risk) = analysis.risks().iter().find(|r| r.runs_unseen_program()) {
                    return Verdict::Unjudgeable(Why::Shell(risk.to_string()));
                }
                unsure.map_or(Verdict::NoMatch, |why| {
                    Verdict::Unjudgeable(Why::Shell(why))
                })
            }
        }
    }

    /// Compares one simple command with the pattern.
    ///
    /// A deny matches when any program level (a wrapper or the program it runs) matches. An
    /// allow matches at the outermost level that matches; a `sudo` outside that level makes it
    /// uncertain (the pattern did not name it).
    pub(crate) fn judge(&self, command: &SimpleCommand, effect: Effect) -> Judgement {
        let mut unsure = None;
        for level in 0..command.level_count() {
            match self.judge_level(command, level, effect) {
                Judgement::Match => {
                    if effect == Effect::Allow
                        && let Some(p) = command.privileged_level().filter(|p| *p < level)
                    {
                        let wrapper = command.level(p).first().map_or("", |w| basename(w.text()));
                        return Judgement::Unsure(format!("`{wrapper}` runs it as another user"));
                    }
                    if effect == Effect::Allow
                        && command.privileged_level().is_none()
                        && let Some(wrapper) = command.other_user()
                    {
                        return Judgement::Unsure(format!("`{wrapper}` runs it as another user"));
                    }
                    return Judgement::Match;
                }
                Judgement::Unsure(why) => unsure = unsure.or(Some(why)),
                Judgement::NoMatch => {}
            }
        }
        if effect == Effect::Deny
            && unsure.is_none()
            && command.may_run_its_arguments()
            && let Some(named) = self.named_in_arguments(command)
        {
            return Judgement::Unsure(format!(
                "`{}` is not known to the analyser and its arguments name `{named}`",
                command.program()
            ));
        }
        unsure.map_or(Judgement::NoMatch, Judgement::Unsure)
    }

    /// The word of `command`'s arguments that names this pattern's program, if one does (for
    /// a program the analyser does not know, which may run it: `setarch x86_64 rm -rf v`).
    fn named_in_arguments<'c>(&self, command: &'c SimpleCommand) -> Option<&'c str> {
        let head = match &self.matcher {
            Matcher::Exact(words) | Matcher::Prefix(words) => words.first()?.as_str(),
            Matcher::Glob { head, .. } => head.as_str(),
        };
        let head = basename(head);
        command
            .argument_words()
            .into_iter()
            .find(|word| program_matches(head, &Word::literal(*word), Effect::Deny))
    }

    fn judge_level(&self, command: &SimpleCommand, level: usize, effect: Effect) -> Judgement {
        let words = command.level(level);
        let Some((program, args)) = words.split_first() else {
            return Judgement::NoMatch;
        };
        let (args, globals) = without_global_options(basename(program.text()), args);
        let appended = command.appends_input_arguments();
        let judgement = match &self.matcher {
            Matcher::Exact(expected) => compare(expected, program, args, appended, false, effect),
            Matcher::Prefix(expected) => compare(expected, program, args, appended, true, effect),
            Matcher::Glob {
                glob,
                without_tail,
                head,
                ..
            } => {
                if !program_matches(head, program, effect) {
                    return Judgement::NoMatch;
                }
                if let Some(word) = args.iter().find(|w| !w.is_literal()) {
                    Judgement::Unsure(format!("`{}` is not literal", word.text()))
                } else if appended {
                    Judgement::Unsure("`xargs` appends arguments from its input".to_owned())
                } else {
                    let mut joined = shown_program(head, program).to_owned();
                    for arg in args {
                        joined.push(' ');
                        joined.push_str(arg.text());
                    }
                    if glob.matches(&joined)
                        || without_tail.as_ref().is_some_and(|w| w.matches(&joined))
                    {
                        Judgement::Match
                    } else {
                        Judgement::NoMatch
                    }
                }
            }
        };
        // After an unknown global option the subcommand's position is unknown: a pattern
        // that compares arguments can only be unsure.
        match globals {
            Some(why) if self.compares_arguments() => Judgement::Unsure(why),
            _ => judgement,
        }
    }

    /// True when the pattern looks at more than the program.
    fn compares_arguments(&self) -> bool {
        match &self.matcher {
            Matcher::Exact(_) => true,
            Matcher::Prefix(words) => words.len() > 1,
            Matcher::Glob { text, .. } => text.contains(' '),
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

/// How a pattern compares with one simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Judgement {
    Match,
    NoMatch,
    /// It may or may not match, and why (a word that is not literal, appended arguments...).
    Unsure(String),
}

/// Directories whose programs an allow pattern naming a bare program accepts.
const SYSTEM_BIN_DIRS: &[&str] = &[
    "/bin",
    "/usr/bin",
    "/usr/local/bin",
    "/sbin",
    "/usr/sbin",
    "/usr/local/sbin",
];

/// The text a pattern's program is compared with: the path as written when the pattern has
/// a `/`, else the basename.
fn shown_program<'w>(pattern: &str, program: &'w Word) -> &'w str {
    if pattern.contains('/') {
        program.text()
    } else {
        basename(program.text())
    }
}

/// True when the pattern's first word (maybe a wildcard) accepts the program word.
fn program_matches(pattern: &str, program: &Word, effect: Effect) -> bool {
    let shown = shown_program(pattern, program);
    let same = if Wildcard::has_wildcard(pattern) {
        Wildcard::new(pattern).matches(shown)
    } else {
        shown == pattern
    };
    if !same || pattern.contains('/') || effect == Effect::Deny {
        return same;
    }
    match program.text().rsplit_once('/') {
        None => true,
        Some((dir, _)) => SYSTEM_BIN_DIRS.contains(&dir),
    }
}

/// Compares the pattern's words with a program and its arguments.
fn compare(
    expected: &[String],
    program: &Word,
    args: &[Word],
    appended: bool,
    prefix: bool,
    effect: Effect,
) -> Judgement {
    let Some((first, rest)) = expected.split_first() else {
        return Judgement::NoMatch;
    };
    if !program_matches(first, program, effect) {
        return Judgement::NoMatch;
    }
    let mut unsure: Option<String> = None;
    let mut shifted = false;
    for (i, want) in rest.iter().enumerate() {
        match args.get(i) {
            None if shifted || appended => {
                return Judgement::Unsure(
                    unsure.unwrap_or_else(|| "`xargs` appends arguments from its input".to_owned()),
                );
            }
            None => return Judgement::NoMatch,
            Some(word) if word.is_literal() => {
                if word.text() != want {
                    if !shifted {
                        return Judgement::NoMatch;
                    }
                    unsure.get_or_insert_with(|| "a word before it is not literal".to_owned());
                }
            }
            Some(word) => {
                unsure.get_or_insert_with(|| format!("`{}` is not literal", word.text()));
                shifted |= word.splits();
            }
        }
    }
    if !prefix {
        let extra = args.get(rest.len()..).unwrap_or(&[]);
        if appended {
            unsure.get_or_insert_with(|| "`xargs` appends arguments from its input".to_owned());
        } else if !extra.is_empty() {
            if extra.iter().all(|w| w.splits()) || shifted {
                unsure.get_or_insert_with(|| format!("`{}` is not literal", extra[0].text()));
            } else {
                return Judgement::NoMatch;
            }
        }
    }
    unsure.map_or(Judgement::Match, Judgement::Unsure)
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
            assert!(!allows(pattern, "make git"), "{pattern}");
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
    fn every_simple_command_must_match_an_allow() {
        for command in [
            "git status; rm -rf /",
            "git status && curl http://x",
            "git log | sh",
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
        assert!(allows("git:*", "git log | head -5 && git status"));
        assert!(allows("git:*", "/usr/bin/git log"));
        assert!(!allows("git:*", "./git log"));
        assert!(!allows("git:*", "git log > /etc/x"));
    }

    #[test]
    fn unparseable_and_missing_commands_never_match_an_allow() {
        let s = spec("git:*");
        assert!(matches!(
            s.verdict(&json!({"command": "git commit -m \"x"}), Effect::Allow),
            Verdict::Unjudgeable(Why::Shell(_))
        ));
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
        assert!(denies("rm:*", "echo $(rm x)"));
        assert!(denies("rm:*", "echo 'x"));
        assert!(denies("rm:*", "sh -c 'rm x'"));
        assert!(denies("rm:*", "/bin/rm x"));
        assert!(denies("git push:*", "git -C . push"));
        assert!(denies("git push:*", "git $x"));
        assert!(!denies("git push:*", "git log $x"));
        assert!(!denies("rm:*", "echo $(ls)"));
        assert!(!denies("rm:*", "ls -la | wc -l"));
        assert!(!denies("rm:*", "echo rm"));
    }

    #[test]
    fn unknown_programs_that_name_a_denied_one_are_denied() {
        for command in [
            "setarch x86_64 rm -rf v",
            "prlimit --nofile=64 rm x",
            "valgrind -q /bin/rm x",
            "npx rm x",
            "make --eval='x: ; rm -f v' x",
            "nix-shell --run 'rm -rf v'",
        ] {
            assert!(denies("rm:*", command), "{command}");
        }
        for command in [
            "echo rm",
            "grep -r rm .",
            "git commit -m 'rm x'",
            "cargo test rm",
            "setarch x86_64 ls",
        ] {
            assert!(!denies("rm:*", command), "{command}");
        }
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
