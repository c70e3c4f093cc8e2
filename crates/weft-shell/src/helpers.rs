//! Read-only helpers: filters such as `head`, `wc` or `grep` that keep ordinary pipelines
//! usable (`git log --oneline | head -5` under `Bash(git log:*)`).
//!
//! A helper counts as allowed by any policy layer that allows some `Bash` command, and only
//! when it is used read-only: every option it is given is in its row of the table
//! (`helper_table.rs`; one the table does not list might read, write or run something), none
//! writes (`sort -o`, `sed -i`, `rg --pre`...), no output redirection to a file, no `sudo`,
//! and every file it reads inside the project. A file it reads outside the project (an operand,
//! `grep -f FILE`, `date -f FILE`, `jq --rawfile NAME FILE`, `diff --from-file=FILE`, the names
//! `wc --files0-from=FILE` lists) is a risk, like a write there: no pattern pre-approves it. A
//! deny pattern still matches a helper like any other command.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::paths::{Place, ShellContext, place};
use super::word::Word;

pub use super::helper_table::READ_ONLY_HELPERS;

/// How a helper's operands are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operands {
    /// Operands are not files (`echo`, `tr`, `test`).
    NotFiles,
    /// Every operand is a file.
    Files,
    /// The first operand is a pattern, script or filter, unless an option gave one (`grep -e`,
    /// `sed -e`, `jq -f`); the rest are files.
    PatternThenFiles,
    /// Operands are `+FORMAT` (`date`); any other sets the clock.
    Format,
}

/// One read-only helper: its options, by what their values are.
#[derive(Debug)]
pub struct Helper {
    /// The program's name.
    pub name: &'static str,
    pub(crate) operands: Operands,
    /// Options without a value.
    pub(crate) flags: &'static [&'static str],
    /// Options taking a value that is not a file.
    pub(crate) values: &'static [&'static str],
    /// Long options with an optional attached value (`--color[=WHEN]`).
    pub(crate) optional: &'static [&'static str],
    /// Options whose value is a file the helper reads.
    pub(crate) reads: &'static [&'static str],
    /// Options whose value is the pattern, script or filter.
    pub(crate) patterns: &'static [&'static str],
    /// Options taking a name and a value (`jq --arg NAME VALUE`).
    pub(crate) pairs: &'static [&'static str],
    /// Options taking a name and a file the helper reads (`jq --rawfile NAME FILE`).
    pub(crate) file_pairs: &'static [&'static str],
    /// Options whose value is a file listing the files the helper reads
    /// (`wc --files0-from=F`): what it reads cannot be known.
    pub(crate) names_files: &'static [&'static str],
    /// Options after which the operands are not files (`jq --args`).
    pub(crate) rest_not_files: &'static [&'static str],
    /// Options after which the helper is not read-only (`sort -o FILE` writes, `date -s`
    /// sets the clock, `rg --pre CMD` runs a program): the risky table judges them.
    pub(crate) disqualifying: &'static [&'static str],
    /// `-NUM` is an option (`head -5`, `grep -2`).
    pub(crate) numeric: bool,
    /// At most this many file operands (`uniq IN OUT` writes `OUT`).
    pub(crate) max_files: usize,
}

/// A helper without options.
pub(crate) const fn helper(name: &'static str, operands: Operands) -> Helper {
    Helper {
        name,
        operands,
        flags: &[],
        values: &[],
        optional: &[],
        reads: &[],
        patterns: &[],
        pairs: &[],
        file_pairs: &[],
        names_files: &[],
        rest_not_files: &[],
        disqualifying: &[],
        numeric: false,
        max_files: usize::MAX,
    }
}

/// The helper named `program`.
pub(crate) fn find(program: &str) -> Option<&'static Helper> {
    static INDEX: LazyLock<HashMap<&'static str, &'static Helper>> =
        LazyLock::new(|| READ_ONLY_HELPERS.iter().map(|x| (x.name, x)).collect());
    INDEX.get(program).copied()
}

/// What a helper call reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Only files inside the project (or none).
    Inside,
    /// A file outside the project, or files it cannot know: a risk, whose reason this is.
    Outside(String),
    /// Not read-only, for this reason (an option the table does not list, a write).
    NotReadOnly(String),
}

/// What an option is, in a helper's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Flag,
    Value,
    Optional,
    Reads,
    Pattern,
    Pair,
    FilePair,
    NamesFiles,
    RestNotFiles,
    Disqualifying,
}

impl Helper {
    /// What `name` (`-x` or `--long`) is to this helper; a long option may be abbreviated
    /// (GNU getopt takes any unambiguous prefix): a prefix of a dangerous option is that option.
    fn kind(&self, name: &str) -> Option<Kind> {
        let tables: [(&[&str], Kind); 10] = [
            (self.disqualifying, Kind::Disqualifying),
            (self.names_files, Kind::NamesFiles),
            (self.reads, Kind::Reads),
            (self.file_pairs, Kind::FilePair),
            (self.patterns, Kind::Pattern),
            (self.pairs, Kind::Pair),
            (self.rest_not_files, Kind::RestNotFiles),
            (self.values, Kind::Value),
            (self.optional, Kind::Optional),
            (self.flags, Kind::Flag),
        ];
        for (options, kind) in tables {
            if options.contains(&name) {
                return Some(kind);
            }
        }
        if name.len() > 3 && name.starts_with("--") {
            let mut found = None;
            for (options, kind) in tables {
                if options.iter().any(|o| o.starts_with(name)) {
                    if kind != Kind::Flag && kind != Kind::Value && kind != Kind::Optional {
                        return Some(kind);
                    }
                    found = found.or(Some(kind));
                }
            }
            return found;
        }
        None
    }

    /// What the helper reads when called with `args` (the words after its name);
    /// `appended`: `xargs` adds arguments.
    pub(crate) fn reading(&self, args: &[Word], appended: bool, ctx: &ShellContext) -> Reading {
        let no = |why: String| Reading::NotReadOnly(why);
        let name = self.name;
        if self.operands == Operands::NotFiles {
            return Reading::Inside;
        }
        if appended {
            return no(format!("`xargs` adds arguments to `{name}`"));
        }
        let mut state = State {
            helper: self,
            ctx,
            pattern_given: false,
            pattern_skipped: false,
            files: 0,
            operands_are_files: true,
        };
        let mut options_end = false;
        let mut i = 0;
        while let Some(word) = args.get(i) {
            i += 1;
            let text = word.text();
            // A word that may expand to an option (`*` in a directory holding a file named
            // `--files0-from=x`) could be any option; a glob in a directory cannot.
            if !word.is_literal() && word.may_be_option() && !options_end {
                return no(format!("`{text}` may expand to an option"));
            }
            if !options_end && text == "--" {
                options_end = true;
                continue;
            }
            if options_end || !text.starts_with('-') || text == "-" {
                if let Some(verdict) = state.operand(word) {
                    return verdict;
                }
                continue;
            }
            if self.numeric && text[1..].bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            match state.option(args, &mut i) {
                Some(verdict) => return verdict,
                None => continue,
            }
        }
        Reading::Inside
    }
}

/// Reading one helper call's words.
struct State<'a> {
    helper: &'a Helper,
    ctx: &'a ShellContext,
    pattern_given: bool,
    pattern_skipped: bool,
    files: usize,
    operands_are_files: bool,
}

impl State<'_> {
    /// An operand; `Some` ends the reading.
    fn operand(&mut self, word: &Word) -> Option<Reading> {
        let helper = self.helper;
        match helper.operands {
            Operands::NotFiles => return None,
            Operands::Format if word.text().starts_with('+') => return None,
            Operands::Format => {
                return Some(Reading::NotReadOnly(format!(
                    "`{}` sets the clock to `{}`",
                    helper.name,
                    word.text()
                )));
            }
            Operands::PatternThenFiles if !self.pattern_given && !self.pattern_skipped => {
                self.pattern_skipped = true;
                return None;
            }
            _ => {}
        }
        if !self.operands_are_files {
            return None;
        }
        self.files += 1;
        if self.files > helper.max_files {
            return Some(Reading::NotReadOnly(format!(
                "`{}` writes its second operand",
                helper.name
            )));
        }
        self.read(word, "")
    }

    /// A file the helper reads (`via`: the option naming it, or empty).
    fn read(&self, file: &Word, via: &str) -> Option<Reading> {
        match place(file, self.ctx) {
            Place::Outside(why) => Some(Reading::Outside(format!(
                "`{}{via}` reads `{}`, which {why}",
                self.helper.name,
                file.text()
            ))),
            _ => None,
        }
    }

    /// The option at `args[*i - 1]`; advances `i` past its values. `Some` ends the reading.
    fn option(&mut self, args: &[Word], i: &mut usize) -> Option<Reading> {
        let word = &args[*i - 1];
        let text = word.text();
        let helper = self.helper;
        if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (&text[..n.len() + 2], Some(word.part(v))),
                None => (text, None),
            };
            let Some(kind) = helper.kind(name) else {
                return Some(self.unknown(name));
            };
            return self.apply(kind, name, inline, args, i);
        }
        // A cluster of short options: a value-taking one ends it (its value is the rest).
        for (at, c) in text.char_indices().skip(1) {
            let name = format!("-{c}");
            let Some(kind) = helper.kind(&name) else {
                return Some(self.unknown(&name));
            };
            if kind == Kind::Flag {
                continue;
            }
            let rest = &text[at + c.len_utf8()..];
            let inline = (!rest.is_empty()).then(|| word.part(rest));
            return self.apply(kind, &name, inline, args, i);
        }
        None
    }

    fn unknown(&self, name: &str) -> Reading {
        Reading::NotReadOnly(format!(
            "`{}` is not in the read-only table of `{}`",
            name, self.helper.name
        ))
    }

    /// An option of `kind` with its `inline` value (`--x=v`, `-xv`), if any.
    fn apply(
        &mut self,
        kind: Kind,
        name: &str,
        inline: Option<Word>,
        args: &[Word],
        i: &mut usize,
    ) -> Option<Reading> {
        let helper = self.helper.name;
        let mut value = || {
            inline.clone().or_else(|| {
                let next = args.get(*i).cloned();
                *i += 1;
                next
            })
        };
        match kind {
            Kind::Flag | Kind::Optional => {
                if kind == Kind::Flag && inline.is_some() && name.starts_with("--") {
                    return Some(self.unknown(&format!("{name}=")));
                }
                None
            }
            Kind::Value => value().is_none().then(|| self.missing(name)),
            Kind::Pattern => {
                self.pattern_given = true;
                value().is_none().then(|| self.missing(name))
            }
            Kind::Reads => {
                // `grep -f FILE`, `sed -f FILE`, `jq -f FILE`: the file is the pattern.
                self.pattern_given |= matches!(name, "-f" | "--file" | "--from-file");
                match value() {
                    None => Some(self.missing(name)),
                    Some(file) => self.read(&file, &format!(" {name}")),
                }
            }
            Kind::Pair => {
                *i += 2;
                (*i > args.len()).then(|| self.missing(name))
            }
            Kind::FilePair => {
                let file = args.get(*i + 1).cloned();
                *i += 2;
                match file {
                    None => Some(self.missing(name)),
                    Some(file) => self.read(&file, &format!(" {name}")),
                }
            }
            Kind::NamesFiles => Some(Reading::Outside(format!(
                "`{helper} {name}` reads the files another file names"
            ))),
            Kind::RestNotFiles => {
                self.operands_are_files = false;
                None
            }
            Kind::Disqualifying => Some(Reading::NotReadOnly(format!(
                "`{helper} {name}` is not read-only"
            ))),
        }
    }

    fn missing(&self, name: &str) -> Reading {
        Reading::NotReadOnly(format!("`{} {name}` has no value", self.helper.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(program: &str, args: &[&str]) -> Reading {
        let words: Vec<Word> = args.iter().map(|a| Word::literal(*a)).collect();
        find(program)
            .unwrap()
            .reading(&words, false, &ShellContext::new())
    }

    fn inside(program: &str, args: &[&str]) -> bool {
        reading(program, args) == Reading::Inside
    }

    fn outside(program: &str, args: &[&str]) -> bool {
        matches!(reading(program, args), Reading::Outside(_))
    }

    #[test]
    fn operands_must_stay_inside_the_project() {
        assert!(inside("head", &["-n", "5"]));
        assert!(inside("head", &["-5", "src/a.rs"]));
        assert!(outside("cat", &["/etc/passwd"]));
        assert!(outside("cat", &["../secret"]));
        assert!(inside("grep", &["-rn", "/etc/passwd", "src"]));
        assert!(outside("grep", &["-e", "x", "/etc/passwd"]));
        assert!(outside("grep", &["-f", "/etc/patterns", "src"]));
        assert!(inside("grep", &["-f", "patterns.txt", "src"]));
        assert!(inside("jq", &["--arg", "a", "/x", ".a", "data.json"]));
        assert!(inside("cut", &["-d", "/", "-f", "2"]));
        assert!(inside("echo", &["/etc/passwd"]));
        assert!(inside("sed", &["-n", "1,5p", "Cargo.toml"]));
        assert!(inside("uniq", &["-c", "in.txt"]));
        assert!(!inside("uniq", &["in.txt", "out.txt"]));
    }

    #[test]
    fn options_that_read_files_are_judged_like_operands() {
        assert!(outside("date", &["-f", "/root/.ssh/id_rsa"]));
        assert!(outside("date", &["--file=/etc/shadow"]));
        assert!(outside("date", &["-r", "/etc/shadow"]));
        assert!(inside("date", &["+%s"]));
        assert!(!inside("date", &["010100002030"]));
        assert!(outside("wc", &["--files0-from=list"]));
        assert!(outside("sort", &["--files0-from", "list"]));
        assert!(outside("sort", &["--random-source=/dev/../etc/x"]));
        assert!(outside(
            "jq",
            &["--rawfile", "k", "/home/me/.ssh/id_rsa", "."]
        ));
        assert!(outside("jq", &["--slurpfile", "k", "../x.json", "."]));
        assert!(inside("jq", &["-n", "--args", "$ARGS", "/etc/passwd"]));
        assert!(outside("diff", &["--from-file=/etc/passwd", "a"]));
        assert!(outside("diff", &["--to-file", "/etc/passwd", "a"]));
        assert!(outside("grep", &["--exclude-from=/etc/x", "y"]));
    }

    #[test]
    fn options_outside_the_table_or_that_write_are_not_read_only() {
        for (program, args) in [
            ("sort", &["-o", "sorted.txt"][..]),
            ("sort", &["--outp=sorted.txt"]),
            ("sort", &["-T", "/tmp"]),
            ("sort", &["--bogus"]),
            ("head", &["--bogus"]),
            ("cat", &["-Z"]),
            ("ls", &["--format=long", "--frobnicate"]),
            ("sed", &["-i", "s/a/b/", "f"]),
            ("sed", &["-ni", "s/a/b/", "f"]),
            ("rg", &["--pre", "x", "y"]),
            ("date", &["-s", "now"]),
            ("grep", &["--color=always", "--bogus=1", "x"]),
        ] {
            assert!(
                matches!(reading(program, args), Reading::NotReadOnly(_)),
                "{program} {args:?}"
            );
        }
        assert!(inside("grep", &["--color=always", "-C2", "x", "f"]));
        assert!(inside("ls", &["-la", "--color", "src"]));
        assert!(inside("tail", &["-n+2", "f"]));
    }
}
