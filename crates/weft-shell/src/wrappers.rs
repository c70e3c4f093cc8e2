//! Wrappers: programs that run the rest of their arguments as a command (`env`, `sudo`,
//! `timeout 5`, `xargs`...), or a string as shell commands (`su -c`, `flock FILE -c`,
//! `script -c`), or their words joined by a shell (`watch`, `parallel`). The analyser looks
//! through them, so `env rm x` is `rm x` and `su -c 'rm x'` runs `rm x`.
//!
//! Each wrapper's options are listed (the table is `wrapper_table.rs`); an option the table
//! does not know makes the command unanalysable rather than guessed at (it might take a
//! value, and then the program would be another word).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::word::Word;

pub(crate) use super::wrapper_table::WRAPPERS;

/// When a wrapper given no command starts a shell that reads commands from its input.
#[derive(Clone, Copy)]
pub(crate) enum ShellIf {
    /// Never: without a command it runs nothing (or fails).
    Never,
    /// Always (`chroot DIR`, `unshare`, `su`).
    Always,
    /// When one of these options is given (`sudo -s`, `doas -s`).
    With(&'static [&'static str]),
}

/// How a wrapper reads its arguments.
#[derive(Clone, Copy)]
pub(crate) enum Grammar {
    /// Options, then operands, then the command (getopt stopping at the first operand).
    Ordered,
    /// Options anywhere among the operands, no command of its own: what runs is the value of
    /// a `strings` option or, without one, a shell reading its input (`su`, `script`); with
    /// one of `argv_with` the operands are the command (`runuser -u USER -- cmd`).
    Permuting {
        /// At most this many operands (`su USER`, `script FILE`).
        max_operands: usize,
        /// Options after which the operands are a command.
        argv_with: &'static [&'static str],
    },
}

/// One wrapper's option grammar.
pub(crate) struct Wrapper {
    /// The program's name.
    pub(crate) name: &'static str,
    pub(crate) grammar: Grammar,
    /// Options without a value.
    pub(crate) flags: &'static [&'static str],
    /// Options taking a value (`-u NAME`, `--unset=NAME`).
    pub(crate) values: &'static [&'static str],
    /// Short options whose value, if any, is attached (`xargs -i{}`, `-l5`).
    pub(crate) attached: &'static [&'static str],
    /// Options after which the wrapper runs no command (`command -v`, `sudo -l`).
    pub(crate) no_command: &'static [&'static str],
    /// Options whose value is split into words that take the option's place (`env -S`).
    pub(crate) splits: &'static [&'static str],
    /// Options whose value is a string a shell runs (`su -c`, `script -c`).
    pub(crate) strings: &'static [&'static str],
    /// Words that, right after the operands, introduce a string a shell runs
    /// (`flock FILE -c STRING`).
    pub(crate) strings_after_operands: &'static [&'static str],
    /// Options naming the shell that runs the command (`su -s SHELL`).
    pub(crate) shell_choice: &'static [&'static str],
    /// Operands before the command (`timeout DURATION`, `chroot DIR`).
    pub(crate) operands: usize,
    /// `NAME=value` words may come before the command (`env`).
    pub(crate) assignments: bool,
    /// `-5` style numeric options (`nice -5`).
    pub(crate) numeric: bool,
    /// A lone `-` is an option (`env -` is `env -i`, `su -` is `su -l`).
    pub(crate) dash_option: bool,
    /// Every `--name` or `--name=value` is one word, whatever the name (`firejail`).
    pub(crate) long_words: bool,
    /// The command's words are joined and run by a shell (`watch`, `parallel`), unless one of
    /// these options is given (`watch -x`).
    pub(crate) joined: Option<&'static [&'static str]>,
    /// Words that end the command (`parallel CMD ::: ARGS`).
    pub(crate) ends: &'static [&'static str],
    /// Without a command it starts a shell reading its input.
    pub(crate) shell: ShellIf,
    /// Runs the command as another user.
    pub(crate) privileged: bool,
    /// Appends arguments read from its input to the command (`xargs`, `parallel`).
    pub(crate) appends: bool,
}

/// A wrapper with no options, read in order: the base of every table row.
pub(crate) const fn wrapper(name: &'static str) -> Wrapper {
    Wrapper {
        name,
        grammar: Grammar::Ordered,
        flags: &[],
        values: &[],
        attached: &[],
        no_command: &[],
        splits: &[],
        strings: &[],
        strings_after_operands: &[],
        shell_choice: &[],
        operands: 0,
        assignments: false,
        numeric: false,
        dash_option: false,
        long_words: false,
        joined: None,
        ends: &[],
        shell: ShellIf::Never,
        privileged: false,
        appends: false,
    }
}

/// The wrapper named `program`, if it is one.
pub(crate) fn find(program: &str) -> Option<&'static Wrapper> {
    static INDEX: LazyLock<HashMap<&'static str, &'static Wrapper>> =
        LazyLock::new(|| WRAPPERS.iter().map(|x| (x.name, x)).collect());
    INDEX.get(program).copied()
}

/// A wrapper's arguments, read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// The options seen (`-o`, `--output`), each with its value if it has one.
    pub(crate) options: Vec<(String, Option<Word>)>,
    /// The indices of the operands (`timeout`'s duration, `script`'s file).
    pub(crate) operands: Vec<usize>,
    /// What the wrapper runs.
    pub(crate) then: Then,
}

/// What a wrapper runs, from its arguments.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Then {
    /// The command that starts at this index.
    Command(usize),
    /// The words from `start` to `end` (exclusive), joined by spaces and run by a shell.
    Joined {
        /// The first word.
        start: usize,
        /// The index after the last word.
        end: usize,
    },
    /// This string, run by a shell.
    String(Word),
    /// The words of `text` take the place of `len` words at `at` (`env -S STRING`); the
    /// wrapper's arguments are then read again.
    Split {
        /// Where the option is.
        at: usize,
        /// How many words it spans (the option and its value).
        len: usize,
        /// The string to split.
        text: Word,
    },
    /// A shell that reads commands from its input.
    Shell,
    /// Nothing.
    Nothing,
}

/// The next step after one option.
enum Step {
    Next(usize),
    NoCommand,
    Split { len: usize, text: Word },
}

/// What has been read so far.
#[derive(Default)]
struct State {
    options: Vec<(String, Option<Word>)>,
    operands: Vec<usize>,
    string: Option<Word>,
}

impl State {
    fn finish(self, then: Then) -> Parsed {
        Parsed {
            options: self.options,
            operands: self.operands,
            then,
        }
    }

    fn has(&self, names: &[&str]) -> bool {
        self.options
            .iter()
            .any(|(n, _)| names.contains(&n.as_str()))
    }
}

impl Wrapper {
    /// Reads the wrapper's arguments (the words after its program word); `Err` says why they
    /// cannot be read with certainty.
    pub(crate) fn unwrap(&self, args: &[Word]) -> Result<Parsed, String> {
        let permuting = matches!(self.grammar, Grammar::Permuting { .. });
        let mut state = State::default();
        let mut i = 0;
        let mut ended = false;
        while let Some(word) = args.get(i) {
            let text = word.text();
            if !ended && !word.is_literal() && word.may_be_option() {
                return Err(format!(
                    "`{text}` after `{}` is not literal (it may be an option)",
                    self.name
                ));
            }
            if !ended && text == "--" {
                i += 1;
                ended = true;
                if permuting {
                    continue;
                }
                break;
            }
            let option = !ended && text.starts_with('-') && (text != "-" || self.dash_option);
            if !option {
                if permuting {
                    state.operands.push(i);
                    i += 1;
                    continue;
                }
                break;
            }
            match self.option(args, i, &mut state)? {
                Step::Next(next) => i = next,
                Step::NoCommand => return Ok(state.finish(Then::Nothing)),
                Step::Split { len, text } => {
                    return Ok(state.finish(Then::Split { at: i, len, text }));
                }
            }
        }
        if let Grammar::Permuting {
            max_operands,
            argv_with,
        } = self.grammar
        {
            return self.permuted(args, state, max_operands, argv_with);
        }
        if self.assignments {
            while args.get(i).is_some_and(|w| w.assignment().is_some()) {
                i += 1;
            }
        }
        for _ in 0..self.operands {
            if i >= args.len() {
                return Ok(state.finish(Then::Nothing));
            }
            state.operands.push(i);
            i += 1;
        }
        if let Some(after) = args.get(i)
            && self.strings_after_operands.contains(&after.text())
        {
            return match args.get(i + 1) {
                Some(string) if i + 2 == args.len() => {
                    let string = string.clone();
                    Ok(state.finish(Then::String(string)))
                }
                _ => Err(format!(
                    "`{} {}` takes exactly one command string",
                    self.name,
                    after.text()
                )),
            };
        }
        if i >= args.len() {
            let then = if self.starts_shell(&state) {
                Then::Shell
            } else {
                Then::Nothing
            };
            return Ok(state.finish(then));
        }
        if let Some(argv) = self.joined
            && !state.has(argv)
        {
            let end = args[i..]
                .iter()
                .position(|w| self.ends.contains(&w.text()))
                .map_or(args.len(), |p| i + p);
            return Ok(state.finish(Then::Joined { start: i, end }));
        }
        Ok(state.finish(Then::Command(i)))
    }

    fn starts_shell(&self, state: &State) -> bool {
        match self.shell {
            ShellIf::Never => false,
            ShellIf::Always => true,
            ShellIf::With(options) => state.has(options),
        }
    }

    /// The end of a permuting wrapper (`su`, `runuser`, `script`).
    fn permuted(
        &self,
        args: &[Word],
        state: State,
        max_operands: usize,
        argv_with: &[&str],
    ) -> Result<Parsed, String> {
        if let Some((option, shell)) = state
            .options
            .iter()
            .find(|(n, _)| self.shell_choice.contains(&n.as_str()))
        {
            let shell = shell.as_ref().map_or("", Word::text);
            let known = super::runners::shell(super::basename(shell)).is_some_and(|d| d.is_some());
            if !known || shell.contains(['$', '`']) {
                return Err(format!(
                    "`{} {option}` makes `{shell}` the shell that runs the command",
                    self.name
                ));
            }
        }
        if let Some(string) = state.string.clone() {
            return Ok(state.finish(Then::String(string)));
        }
        if state.has(argv_with) {
            let Some(&first) = state.operands.first() else {
                return Ok(state.finish(Then::Shell));
            };
            let contiguous = state
                .operands
                .iter()
                .enumerate()
                .all(|(k, &at)| at == first + k)
                && first + state.operands.len() == args.len();
            if !contiguous {
                return Err(format!(
                    "`{}` reads options among its command's words",
                    self.name
                ));
            }
            return Ok(state.finish(Then::Command(first)));
        }
        if state.operands.len() > max_operands {
            return Err(format!("`{}` passes its arguments to a shell", self.name));
        }
        Ok(state.finish(Then::Shell))
    }

    /// Reads the option at `args[i]`.
    fn option(&self, args: &[Word], i: usize, state: &mut State) -> Result<Step, String> {
        let word = &args[i];
        let text = word.text();
        let known = |set: &[&str], o: &str| set.contains(&o);
        if text == "-" {
            state.options.push(("-".to_owned(), None));
            return Ok(Step::Next(i + 1));
        }
        if text.starts_with("--") {
            let (name, value) = match text.split_once('=') {
                Some((name, value)) => (name, Some(word.part(value))),
                None => (text, None),
            };
            if known(self.no_command, name) {
                return Ok(Step::NoCommand);
            }
            if known(self.splits, name) || known(self.strings, name) {
                let (value, next) = match value {
                    Some(v) => (v, i + 1),
                    None => match args.get(i + 1) {
                        Some(v) => (v.clone(), i + 2),
                        None => return Err(format!("`{} {name}` has no value", self.name)),
                    },
                };
                if known(self.splits, name) {
                    return Ok(Step::Split {
                        len: next - i,
                        text: value,
                    });
                }
                state.options.push((name.to_owned(), Some(value.clone())));
                state.string = Some(value);
                return Ok(Step::Next(next));
            }
            if known(self.values, name) {
                let (value, next) = match value {
                    Some(v) => (Some(v), i + 1),
                    None => (args.get(i + 1).cloned(), i + 2),
                };
                state.options.push((name.to_owned(), value));
                return Ok(Step::Next(next));
            }
            if known(self.flags, name) || self.long_words {
                state.options.push((name.to_owned(), value));
                return Ok(Step::Next(i + 1));
            }
            return Err(self.unknown(name));
        }
        if self.numeric && text[1..].bytes().all(|b| b.is_ascii_digit()) {
            return Ok(Step::Next(i + 1));
        }
        for (at, c) in text.char_indices().skip(1) {
            let mut buf = [0u8; 4];
            let name = format!("-{}", c.encode_utf8(&mut buf));
            let rest = &text[at + c.len_utf8()..];
            if known(self.no_command, &name) {
                return Ok(Step::NoCommand);
            }
            if known(self.splits, &name) || known(self.strings, &name) {
                let (value, next) = if rest.is_empty() {
                    match args.get(i + 1) {
                        Some(v) => (v.clone(), i + 2),
                        None => return Err(format!("`{} {name}` has no value", self.name)),
                    }
                } else {
                    (word.part(rest), i + 1)
                };
                if known(self.splits, &name) {
                    return Ok(Step::Split {
                        len: next - i,
                        text: value,
                    });
                }
                state.options.push((name, Some(value.clone())));
                state.string = Some(value);
                return Ok(Step::Next(next));
            }
            if known(self.attached, &name) {
                let value = (!rest.is_empty()).then(|| word.part(rest));
                state.options.push((name, value));
                return Ok(Step::Next(i + 1));
            }
            if known(self.values, &name) {
                if rest.is_empty() {
                    state.options.push((name, args.get(i + 1).cloned()));
                    return Ok(Step::Next(i + 2));
                }
                state.options.push((name, Some(word.part(rest))));
                return Ok(Step::Next(i + 1));
            }
            if !known(self.flags, &name) {
                return Err(self.unknown(&name));
            }
            state.options.push((name, None));
        }
        Ok(Step::Next(i + 1))
    }

    fn unknown(&self, option: &str) -> String {
        format!("unknown option `{option}` of `{}`", self.name)
    }
}

/// The words of an `env -S` string, when they can be known. `env` splits it at blanks with
/// quotes and `#` comments as `shell_words` does, and passes `;`, `|`, `*` on as text; `None`
/// for backslash escapes and `${VAR}`, which `env` reads in its own way.
pub(crate) fn split_string(text: &Word) -> Option<Vec<Word>> {
    let t = text.text();
    if !text.is_literal() || t.contains(['\\', '$']) {
        return None;
    }
    let words = shell_words::split(t).ok()?;
    Some(words.into_iter().map(Word::literal).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Word> {
        text.split(' ')
            .filter(|w| !w.is_empty())
            .map(Word::literal)
            .collect()
    }

    fn read(program: &str, args: &str) -> Result<Parsed, String> {
        find(program).unwrap().unwrap(&words(args))
    }

    fn start(program: &str, args: &str) -> Option<usize> {
        match read(program, args).ok()?.then {
            Then::Command(start) => Some(start),
            _ => None,
        }
    }

    #[test]
    fn options_are_skipped() {
        assert_eq!(start("env", "-i A=b rm x"), Some(2));
        assert_eq!(start("env", "- rm x"), Some(1));
        assert_eq!(start("env", "-u HOME -- rm"), Some(3));
        assert_eq!(start("nice", "-n 5 rm"), Some(2));
        assert_eq!(start("nice", "-5 rm"), Some(1));
        assert_eq!(start("timeout", "-s KILL 5 rm"), Some(3));
        assert_eq!(start("timeout", "--signal=KILL 5 rm"), Some(2));
        assert_eq!(start("sudo", "-u x rm"), Some(2));
        assert_eq!(start("sudo", "-uroot rm"), Some(1));
        assert_eq!(start("xargs", "-0 -n1 rm"), Some(2));
        assert_eq!(start("xargs", "-i{} rm {}"), Some(1));
        assert_eq!(start("command", "-p rm"), Some(1));
        assert_eq!(start("time", "-p rm"), Some(1));
        assert_eq!(start("time", "-o t.out -f %e rm"), Some(4));
        assert_eq!(start("flock", "-n /tmp/l rm"), Some(2));
        assert_eq!(start("chroot", "--userspec=a:b / rm"), Some(2));
        assert_eq!(start("taskset", "-c 0 rm"), Some(2));
        assert_eq!(start("chrt", "-f 10 rm"), Some(2));
        assert_eq!(start("firejail", "--quiet --net=none rm"), Some(2));
        assert_eq!(start("strace", "-f -e trace=file rm"), Some(3));
        assert_eq!(start("runuser", "-u nobody -- rm x"), Some(3));
        assert_eq!(start("watch", "-x rm x"), Some(1));
    }

    #[test]
    fn strings_shells_and_joined_commands() {
        let then = |p: &str, a: &str| read(p, a).map(|p| p.then);
        assert_eq!(
            then("su", "- root -c ls"),
            Ok(Then::String(Word::literal("ls")))
        );
        assert_eq!(
            then("su", "--command=ls"),
            Ok(Then::String(Word::literal("ls")))
        );
        assert_eq!(
            then("flock", "/tmp/l -c ls"),
            Ok(Then::String(Word::literal("ls")))
        );
        assert_eq!(
            then("script", "-qc ls /dev/null"),
            Ok(Then::String(Word::literal("ls")))
        );
        assert_eq!(then("su", "root"), Ok(Then::Shell));
        assert_eq!(then("chroot", "/"), Ok(Then::Shell));
        assert_eq!(then("sudo", "-s"), Ok(Then::Shell));
        assert_eq!(then("sudo", "-v"), Ok(Then::Nothing));
        assert_eq!(
            then("watch", "-n 1 ls -l"),
            Ok(Then::Joined { start: 2, end: 4 })
        );
        assert_eq!(
            then("parallel", "-j2 rm ::: a b"),
            Ok(Then::Joined { start: 1, end: 2 })
        );
        assert_eq!(
            then("env", "-i -S x"),
            Ok(Then::Split {
                at: 1,
                len: 2,
                text: Word::literal("x")
            })
        );
        assert!(then("su", "-s /bin/rm -c x").is_err());
        assert!(then("su", "root script.sh").is_err());
    }

    #[test]
    fn no_command_and_unknown_options() {
        let w = |p: &str, a: &str| read(p, a).map(|p| p.then);
        assert_eq!(w("command", "-v rm"), Ok(Then::Nothing));
        assert_eq!(w("env", ""), Ok(Then::Nothing));
        assert_eq!(w("timeout", "5"), Ok(Then::Nothing));
        assert!(w("sudo", "--bogus rm").is_err());
        assert!(w("nice", "-x rm").is_err());
        assert!(w("time", "--bogus rm").is_err());
        assert!(w("unshare", "--bogus rm").is_err());
    }

    #[test]
    fn env_split_strings() {
        let split = |t: &str| split_string(&Word::literal(t));
        assert_eq!(
            split("rm -f 'a b'"),
            Some(vec![
                Word::literal("rm"),
                Word::literal("-f"),
                Word::literal("a b")
            ])
        );
        assert_eq!(split("rm\\_x"), None);
        assert_eq!(split("a;b").map(|w| w.len()), Some(1));
        assert_eq!(split("${X}"), None);
    }
}
