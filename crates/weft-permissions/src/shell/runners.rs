//! Programs that run strings as commands (`sh -c`, `bash -lc`, a shell reading a heredoc,
//! `eval`, `trap`, `alias`) or run commands of their own (`find -exec`): what they run is
//! parsed and analysed too. And builtins that evaluate names as arithmetic, where an array
//! subscript can run a command.

use super::analysis::{Context, Kind, Risk, Unanalysable};
use super::environment::env_risk;
use super::parse::{RawCommand, parse_into};
use super::walk::{Redirections, Walk};
use super::word::Word;

const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh",
];

const SUBSCRIPTS: &str = "array subscripts are evaluated as arithmetic and can run commands";
const RENAMES: &str = "it makes a command name run another program";
const LOADS: &str = "it loads a builtin from a shared library";
const ARITHMETIC: &str = "arithmetic on variables can run commands (through array subscripts)";

impl Walk<'_> {
    /// Analyses what shells, `eval`, `trap`, `alias` and `find -exec` run; the command's kind.
    pub(super) fn runs(
        &mut self,
        program: &str,
        args: &[Word],
        redirections: &Redirections,
        context: &[Context],
        depth: usize,
    ) -> Kind {
        let nested = |extra: Context| {
            let mut chain = context.to_vec();
            chain.push(extra);
            chain
        };
        match program {
            p if SHELLS.contains(&p) => match shell_mode(args) {
                ShellMode::Command(i) => {
                    let chain = nested(Context::ShellString {
                        shell: p.to_owned(),
                    });
                    self.run_string(&args[i], chain, depth, &format!("`{p} -c`"))
                }
                ShellMode::Stdin => match &redirections.input {
                    Some(input) => {
                        let chain = nested(Context::ShellInput {
                            shell: p.to_owned(),
                        });
                        self.run_string(input, chain, depth, &format!("the input of `{p}`"))
                    }
                    None => {
                        self.note(format!("`{p}` reads commands from its input"), context);
                        Kind::Plain
                    }
                },
                ShellMode::File => Kind::Plain,
                ShellMode::Unknown(why) => {
                    self.note(why, context);
                    Kind::Plain
                }
            },
            "eval" => {
                let text = args.iter().map(Word::text).collect::<Vec<_>>().join(" ");
                let word = if args.iter().all(Word::is_literal) {
                    Word::literal(text)
                } else {
                    Word::placeholder(text)
                };
                self.run_string(&word, nested(Context::Eval), depth, "`eval`")
            }
            "trap" => match args {
                [handler, _, ..] if !handler.text().starts_with('-') => {
                    self.run_string(handler, nested(Context::Trap), depth, "`trap`")
                }
                _ => Kind::Plain,
            },
            "alias" => {
                for arg in args {
                    if let Some((_, value)) = arg.text().split_once('=') {
                        let word = if arg.is_literal() {
                            Word::literal(value)
                        } else {
                            Word::placeholder(value)
                        };
                        self.run_string(&word, nested(Context::Alias), depth, "`alias`");
                    }
                }
                Kind::Runner
            }
            "find" => {
                self.find_exec(args, nested(Context::FindExec), depth);
                Kind::Plain
            }
            _ => Kind::Plain,
        }
    }

    /// Parses `word` as commands, or records why it cannot be.
    fn run_string(&mut self, word: &Word, context: Vec<Context>, depth: usize, what: &str) -> Kind {
        if word.is_literal() {
            parse_into(word.text(), self.sink, context, depth + 1);
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
                    });
                }
            }
            i += 1;
        }
    }

    /// Builtins that evaluate names as arithmetic (array subscripts run commands).
    pub(super) fn builtin_checks(&mut self, program: &str, args: &[Word], context: &[Context]) {
        let has_subscript = |w: &Word| w.text().contains('[');
        let reason = match program {
            "let" => args.iter().any(|w| !is_integer(w)).then_some(ARITHMETIC),
            // `hash -p /bin/rm ls` makes `ls` run `rm`; `enable -f lib.so x` loads code.
            "hash" => has_flag(args, 'p').then_some(RENAMES),
            "enable" => has_flag(args, 'f').then_some(LOADS),
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
            self.note(format!("`{program}`: {reason}"), context);
        }
        if matches!(
            program,
            "export" | "declare" | "typeset" | "local" | "readonly"
        ) {
            for w in args {
                if let Some(why) = w.assignment().and_then(|(n, _)| env_risk(n)) {
                    self.out
                        .risks
                        .push(Risk::new(Some(self.out.commands.len()), why));
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
    /// From a script file.
    File,
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
        ShellMode::File
    }
}
