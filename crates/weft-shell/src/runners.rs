//! Programs that run strings as commands (`sh -c`, `bash -lc`, a shell reading a heredoc or
//! `/dev/stdin`, `source /dev/stdin`, `eval`, `trap`, `alias`) or run commands of their own
//! (`find -exec`): what they run is parsed and analysed too. And builtins that evaluate names
//! as arithmetic, where an array subscript can run a command.

use super::analysis::{Context, Kind, Unanalysable};
use super::dialect::Dialect;
use super::environment::{Scope, env_finding};
use super::parse::{RawCommand, parse_into};
use super::walk::{Redirections, Site, Walk};
use super::word::Word;

/// The shells the analyser recognises, each with the language it reads their `-c STRING` and
/// input in; `None` for a shell whose language it does not read (zsh's `=cmd` and glob
/// qualifiers, ksh's `${ cmd; }`...): what such a shell runs is unanalysable.
pub(crate) const SHELLS: &[(&str, Option<Dialect>)] = &[
    ("bash", Some(Dialect::Bash)),
    ("rbash", Some(Dialect::Bash)),
    ("sh", Some(Dialect::Posix)),
    ("dash", Some(Dialect::Posix)),
    ("ash", Some(Dialect::Posix)),
    ("posh", Some(Dialect::Posix)),
    ("zsh", None),
    ("ksh", None),
    ("ksh93", None),
    ("mksh", None),
    ("pdksh", None),
    ("oksh", None),
    ("yash", None),
    ("fish", None),
    ("csh", None),
    ("tcsh", None),
    ("xonsh", None),
    ("elvish", None),
    ("nu", None),
    ("pwsh", None),
];

/// The shell named `program`, if it is one: `Some(language)`, `None` inside when the analyser
/// does not read its language.
pub(crate) fn shell(program: &str) -> Option<Option<Dialect>> {
    SHELLS
        .iter()
        .find(|(name, _)| *name == program)
        .map(|&(_, dialect)| dialect)
}

const SUBSCRIPTS: &str = "array subscripts are evaluated as arithmetic and can run commands";
const RENAMES: &str = "it makes a command name run another program";
const ARITHMETIC: &str = "arithmetic on variables can run commands (through array subscripts)";

impl Walk<'_> {
    /// Analyses what shells, `source`, `eval`, `trap`, `alias` and `find -exec` run; the
    /// command's kind.
    pub(super) fn runs(
        &mut self,
        program: &str,
        args: &[Word],
        redirections: &Redirections,
        at: &Site<'_>,
    ) -> Kind {
        if let Some(language) = shell(program) {
            let p = program;
            return match (shell_mode(args), language) {
                (ShellMode::File(i), _) => self.script_file(p, &args[i], redirections, at),
                (ShellMode::Unknown(why), _) => {
                    self.note(why, at.context);
                    Kind::Plain
                }
                (ShellMode::Command(_) | ShellMode::Stdin, None) => {
                    self.note(
                        format!("the analyser does not read the language of `{p}`"),
                        at.context,
                    );
                    Kind::Plain
                }
                (ShellMode::Command(i), Some(dialect)) => {
                    let chain = at.inner(Context::ShellString {
                        shell: p.to_owned(),
                    });
                    self.run_string(&args[i], chain, at.depth, &format!("`{p} -c`"), dialect)
                }
                (ShellMode::Stdin, Some(dialect)) => {
                    self.input_commands(p, redirections, at, None, dialect)
                }
            };
        }
        match program {
            "source" | "." => {
                let file = args.iter().find(|w| w.text() != "--");
                match file {
                    Some(file) => self.script_file(program, file, redirections, at),
                    None => Kind::Plain,
                }
            }
            "eval" => {
                let text = args.iter().map(Word::text).collect::<Vec<_>>().join(" ");
                let word = if args.iter().all(Word::is_literal) {
                    Word::literal(text)
                } else {
                    Word::placeholder(text)
                };
                self.run_string(
                    &word,
                    at.inner(Context::Eval),
                    at.depth,
                    "`eval`",
                    at.dialect,
                )
            }
            "trap" => match args {
                [handler, _, ..] if !handler.text().starts_with('-') => {
                    let chain = at.inner(Context::Trap);
                    self.run_string(handler, chain, at.depth, "`trap`", at.dialect)
                }
                _ => Kind::Plain,
            },
            // `/bin/sh` expands aliases in scripts (dash does), where each use of the name
            // becomes the value: not something a pattern can follow.
            "alias" if at.dialect == Dialect::Posix && !args.is_empty() => {
                self.note(
                    "`alias` defines words `/bin/sh` replaces in the commands after it".to_owned(),
                    at.context,
                );
                Kind::Plain
            }
            // bash without `expand_aliases` never uses them: the values are analysed all the
            // same, as what they would run.
            "alias" => {
                for arg in args {
                    if let Some((_, value)) = arg.text().split_once('=') {
                        let word = arg.part(value);
                        let chain = at.inner(Context::Alias);
                        self.run_string(&word, chain, at.depth, "`alias`", at.dialect);
                    }
                }
                Kind::Runner
            }
            "find" => {
                self.find_exec(args, at.inner(Context::FindExec), at.depth);
                Kind::Plain
            }
            _ => Kind::Plain,
        }
    }

    /// The commands a shell reads from its input: a heredoc or here-string is analysed;
    /// anything else (a pipe, a file) cannot be. `file` names where it reads them, if not
    /// from its input itself (`sh /dev/stdin`).
    fn input_commands(
        &mut self,
        shell: &str,
        redirections: &Redirections,
        at: &Site<'_>,
        file: Option<&str>,
        dialect: Dialect,
    ) -> Kind {
        match &redirections.input {
            Some(input) => {
                let chain = at.inner(Context::ShellInput {
                    shell: shell.to_owned(),
                });
                let what = format!("the input of `{shell}`");
                self.run_string(input, chain, at.depth, &what, dialect)
            }
            None => {
                let from = file.map_or_else(|| "its input".to_owned(), |f| format!("`{f}`"));
                self.note(format!("`{shell}` reads commands from {from}"), at.context);
                Kind::Plain
            }
        }
    }

    /// A script a shell or `source` reads from `file`. `/dev/stdin` is its input (a heredoc is
    /// analysed); a name that is not literal (`<(curl ...)`, `$F`) or another device cannot be
    /// analysed; a file's contents are not read (the program is judged as itself).
    fn script_file(
        &mut self,
        shell: &str,
        file: &Word,
        redirections: &Redirections,
        at: &Site<'_>,
    ) -> Kind {
        let text = file.text();
        if !file.is_literal() {
            let shown = super::shorten(text);
            self.note(
                format!("the script `{shell}` runs (`{shown}`) is not literal"),
                at.context,
            );
            return Kind::Plain;
        }
        if matches!(text, "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0") {
            // `source /dev/stdin` reads in the current shell's language.
            let dialect = match self::shell(shell) {
                Some(Some(dialect)) => dialect,
                Some(None) => {
                    self.note(
                        format!("the analyser does not read the language of `{shell}`"),
                        at.context,
                    );
                    return Kind::Plain;
                }
                None => at.dialect,
            };
            return self.input_commands(shell, redirections, at, Some(text), dialect);
        }
        if text.starts_with("/dev/") || text.starts_with("/proc/") {
            self.note(
                format!("`{shell}` reads commands from `{text}`"),
                at.context,
            );
        }
        Kind::Plain
    }

    /// Parses `word` as commands a shell of `dialect` runs, or records why it cannot be.
    pub(super) fn run_string(
        &mut self,
        word: &Word,
        context: Vec<Context>,
        depth: usize,
        what: &str,
        dialect: Dialect,
    ) -> Kind {
        if word.is_literal() {
            parse_into(word.text(), self.sink, context, depth + 1, dialect);
        } else {
            let shown = super::shorten(word.text());
            self.sink.unanalysable.push(Unanalysable::new(
                format!("the string {what} runs (`{shown}`) is not literal"),
                context,
            ));
        }
        Kind::Runner
    }

    /// The commands of `-exec`, `-execdir`, `-ok` and `-okdir`.
    fn find_exec(&mut self, args: &[Word], context: Vec<Context>, depth: usize) {
        let mut i = 0;
        while i < args.len() {
            if matches!(args[i].text(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                let mut words: Vec<Word> = Vec::new();
                i += 1;
                while let Some(w) = args.get(i) {
                    let end = w.text() == ";"
                        || (w.text() == "+" && words.last().is_some_and(|l| l.text() == "{}"));
                    if end {
                        break;
                    }
                    words.push(if w.text().contains("{}") {
                        Word::placeholder(w.text())
                    } else {
                        w.clone()
                    });
                    i += 1;
                }
                if !words.is_empty() {
                    self.sink.commands.push(RawCommand {
                        words,
                        redirects: Vec::new(),
                        context: context.clone(),
                        depth: depth + 1,
                        dialect: Dialect::Posix,
                    });
                }
            }
            i += 1;
        }
    }

    /// Builtins that evaluate names as arithmetic (array subscripts run commands).
    pub(super) fn builtin_checks(
        &mut self,
        program: &str,
        args: &[Word],
        at: &Site<'_>,
        index: Option<usize>,
    ) {
        let has_subscript = |w: &Word| w.text().contains('[');
        let reason = match program {
            "let" => args.iter().any(|w| !is_integer(w)).then_some(ARITHMETIC),
            // `hash -p /bin/rm ls` makes `ls` run `rm`.
            "hash" => has_flag(args, 'p').then_some(RENAMES),
            "declare" | "typeset" | "local" | "export" | "readonly" | "unset" | "read"
            | "mapfile" | "readarray" => args
                .iter()
                .any(|w| !w.text().starts_with('-') && has_subscript(w))
                .then_some(SUBSCRIPTS),
            "printf" | "test" | "[" | "[[" => {
                let after_flag = args
                    .windows(2)
                    .any(|pair| pair[0].text() == "-v" && has_subscript(&pair[1]));
                let arithmetic = program == "[["
                    && args.windows(3).any(|t| {
                        matches!(t[1].text(), "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge")
                            && !(is_integer(&t[0]) && is_integer(&t[2]))
                    });
                if after_flag {
                    Some(SUBSCRIPTS)
                } else if arithmetic {
                    Some(ARITHMETIC)
                } else {
                    None
                }
            }
            _ => None,
        };
        if let Some(reason) = reason {
            self.note(format!("`{program}`: {reason}"), at.context);
        }
        if let Some(reason) = super::language::switch(program, args) {
            self.note(reason, at.context);
        }
        if matches!(
            program,
            "export" | "declare" | "typeset" | "local" | "readonly"
        ) {
            // `export` and `-x` put the variable in programs' environment.
            let scope = if program == "export" || has_flag(args, 'x') {
                Scope::Environment
            } else {
                Scope::Shell
            };
            for w in args {
                if at.dialect == Dialect::Bash
                    && let Some((name, _)) = w.assignment()
                    && super::language::LANGUAGE_SWITCHES.contains(&name)
                {
                    self.note(
                        format!("`{name}=` changes how bash reads the commands after it"),
                        at.context,
                    );
                }
                if let Some(finding) = env_finding(w, self.ctx, scope) {
                    self.record(index, finding, Some(at));
                }
            }
        }
    }
}

/// True when a short option cluster among `args` holds `flag`.
fn has_flag(args: &[Word], flag: char) -> bool {
    args.iter().any(|w| {
        let t = w.text();
        !w.is_literal() || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains(flag))
    })
}

fn is_integer(word: &Word) -> bool {
    let text = word.text().trim();
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    word.is_literal() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// How a shell's arguments say it gets its commands.
#[derive(Debug, PartialEq, Eq)]
enum ShellMode {
    /// `-c STRING`: the index of the string.
    Command(usize),
    /// From its input (no operand, or `-s`).
    Stdin,
    /// From a script file: the index of its name.
    File(usize),
    /// Arguments the analyser cannot read.
    Unknown(String),
}

fn shell_mode(args: &[Word]) -> ShellMode {
    const LONG_FLAGS: &[&str] = &[
        "--norc",
        "--noprofile",
        "--login",
        "--posix",
        "--noediting",
        "--restricted",
        "--verbose",
        "--debugger",
        "--version",
        "--help",
    ];
    let mut i = 0;
    let mut command = false;
    let mut stdin = false;
    while let Some(word) = args.get(i) {
        let text = word.text();
        if !word.is_literal() && word.may_be_option() {
            // After `-c` it is most likely the string; either way it cannot be analysed.
            if command {
                return ShellMode::Command(i);
            }
            return ShellMode::Unknown(format!("`{text}` after the shell is not literal"));
        }
        if text == "--" || text == "-" {
            i += 1;
            break;
        }
        if text.starts_with("--") {
            if matches!(text, "--rcfile" | "--init-file") {
                i += 2;
            } else if LONG_FLAGS.contains(&text) {
                i += 1;
            } else {
                return ShellMode::Unknown(format!("unknown shell option `{text}`"));
            }
            continue;
        }
        if (text.starts_with('-') || text.starts_with('+')) && text.len() > 1 {
            for c in text[1..].chars() {
                match c {
                    'c' => command = true,
                    's' => stdin = true,
                    'o' | 'O' => i += 1,
                    _ => {}
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    if command {
        return if i < args.len() {
            ShellMode::Command(i)
        } else {
            ShellMode::Unknown("`-c` without a command string".to_owned())
        };
    }
    if stdin || i >= args.len() {
        ShellMode::Stdin
    } else {
        ShellMode::File(i)
    }
}
