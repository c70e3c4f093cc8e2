//! Wrappers: programs that run the rest of their arguments as a command (`env`, `sudo`,
//! `timeout 5`, `xargs`...). The analyser looks through them, so `env rm x` is `rm x`.
//!
//! Each wrapper's options are listed; an option the table does not know makes the command
//! unanalysable rather than guessed at (it might take a value, and then the program would
//! be another word).

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::name::FxBuild;

use super::word::Word;

/// One wrapper's option grammar.
pub(crate) struct Wrapper {
    /// The program's name.
    pub(crate) name: &'static str,
    /// Options without a value.
    flags: &'static [&'static str],
    /// Options taking a value (`-u NAME`, `--unset=NAME`).
    values: &'static [&'static str],
    /// Short options whose value, if any, is attached (`xargs -i{}`, `-l5`).
    attached: &'static [&'static str],
    /// Options after which the wrapper runs no command (`command -v`, `sudo -l`).
    no_command: &'static [&'static str],
    /// Options the analyser refuses (`env -S` splits a string into a command).
    refused: &'static [&'static str],
    /// Operands before the command (`timeout DURATION`).
    operands: usize,
    /// `NAME=value` words may come before the command (`env`).
    pub(crate) assignments: bool,
    /// `-5` style numeric options (`nice -5`).
    numeric: bool,
    /// Runs the command as another user.
    pub(crate) privileged: bool,
    /// Appends arguments read from its input to the command (`xargs`).
    pub(crate) appends: bool,
}

const fn wrapper(name: &'static str) -> Wrapper {
    Wrapper {
        name,
        flags: &[],
        values: &[],
        attached: &[],
        no_command: &[],
        refused: &[],
        operands: 0,
        assignments: false,
        numeric: false,
        privileged: false,
        appends: false,
    }
}

/// The wrappers the analyser looks through.
pub(crate) const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        flags: &[
            "-i",
            "--ignore-environment",
            "-0",
            "--null",
            "-v",
            "--debug",
            "--default-signal",
            "--ignore-signal",
            "--block-signal",
            "--list-signal-handling",
        ],
        values: &["-u", "--unset", "-C", "--chdir"],
        refused: &["-S", "--split-string"],
        no_command: &["--help", "--version"],
        assignments: true,
        ..wrapper("env")
    },
    Wrapper {
        flags: &["-p"],
        no_command: &["-v", "-V"],
        ..wrapper("command")
    },
    wrapper("builtin"),
    Wrapper {
        flags: &["-c", "-l"],
        values: &["-a"],
        ..wrapper("exec")
    },
    Wrapper {
        values: &["-n", "--adjustment"],
        no_command: &["--help", "--version"],
        numeric: true,
        ..wrapper("nice")
    },
    Wrapper {
        no_command: &["--help", "--version"],
        ..wrapper("nohup")
    },
    Wrapper {
        flags: &["--preserve-status", "--foreground", "-v", "--verbose", "-f"],
        values: &["-k", "--kill-after", "-s", "--signal"],
        no_command: &["--help", "--version"],
        operands: 1,
        ..wrapper("timeout")
    },
    Wrapper {
        flags: &[
            "-p",
            "--portability",
            "-v",
            "--verbose",
            "-a",
            "--append",
            "-q",
            "--quiet",
        ],
        values: &["-f", "--format", "-o", "--output"],
        no_command: &["--help", "-V", "--version"],
        ..wrapper("time")
    },
    Wrapper {
        flags: &[
            "-A",
            "--askpass",
            "-b",
            "--background",
            "-E",
            "--preserve-env",
            "-H",
            "--set-home",
            "-i",
            "--login",
            "-K",
            "--remove-timestamp",
            "-k",
            "--reset-timestamp",
            "-n",
            "--non-interactive",
            "-P",
            "--preserve-groups",
            "-S",
            "--stdin",
            "-s",
            "--shell",
            "-B",
            "--bell",
            "-N",
            "--no-update",
        ],
        values: &[
            "-C",
            "--close-from",
            "-D",
            "--chdir",
            "-g",
            "--group",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-R",
            "--chroot",
            "-r",
            "--role",
            "-T",
            "--command-timeout",
            "-t",
            "--type",
            "-U",
            "--other-user",
            "-u",
            "--user",
        ],
        no_command: &[
            "-e",
            "--edit",
            "-l",
            "--list",
            "-v",
            "--validate",
            "-V",
            "--version",
            "--help",
        ],
        privileged: true,
        ..wrapper("sudo")
    },
    Wrapper {
        flags: &["-n", "-s", "-L"],
        values: &["-u", "-C"],
        privileged: true,
        ..wrapper("doas")
    },
    Wrapper {
        flags: &[
            "-0",
            "--null",
            "-r",
            "--no-run-if-empty",
            "-t",
            "--verbose",
            "-p",
            "--interactive",
            "-x",
            "--exit",
            "-o",
            "--open-tty",
            "--eof",
            "--replace",
            "--max-lines",
        ],
        values: &[
            "-a",
            "--arg-file",
            "-d",
            "--delimiter",
            "-E",
            "-I",
            "-L",
            "-n",
            "--max-args",
            "-P",
            "--max-procs",
            "-s",
            "--max-chars",
            "--process-slot-var",
        ],
        attached: &["-e", "-i", "-l"],
        no_command: &["--help", "--version", "--show-limits"],
        appends: true,
        ..wrapper("xargs")
    },
    Wrapper {
        values: &["-i", "--input", "-o", "--output", "-e", "--error"],
        no_command: &["--help", "--version"],
        ..wrapper("stdbuf")
    },
    Wrapper {
        flags: &["-c", "--ctty", "-f", "--fork", "-w", "--wait"],
        no_command: &["--help", "--version"],
        ..wrapper("setsid")
    },
    Wrapper {
        flags: &["-t", "--ignore"],
        values: &["-c", "--class", "-n", "--classdata"],
        no_command: &["-p", "--pid", "-P", "--pgid", "-u", "--uid", "--help"],
        ..wrapper("ionice")
    },
    wrapper("busybox"),
    wrapper("toybox"),
    Wrapper {
        flags: &["-p"],
        ..wrapper("unbuffer")
    },
    Wrapper {
        flags: &["-e", "-v"],
        ..wrapper("chronic")
    },
];

/// The wrapper named `program`, if it is one.
pub(crate) fn find(program: &str) -> Option<&'static Wrapper> {
    static INDEX: LazyLock<HashMap<&'static str, &'static Wrapper, FxBuild>> =
        LazyLock::new(|| WRAPPERS.iter().map(|x| (x.name, x)).collect());
    INDEX.get(program).copied()
}

/// What a wrapper's arguments say.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unwrap {
    /// The command starts at `args[start]`; `options` are the options seen with their values.
    Inner {
        start: usize,
        options: Vec<(String, Option<usize>)>,
    },
    /// The wrapper runs no command here.
    NoCommand,
    /// The arguments cannot be read with certainty.
    Unknown(String),
}

impl Wrapper {
    /// Reads the wrapper's arguments (the words after its program word).
    pub(crate) fn unwrap(&self, args: &[Word]) -> Unwrap {
        let mut options = Vec::new();
        let mut i = 0;
        while let Some(word) = args.get(i) {
            let text = word.text();
            if !word.is_literal() && word.may_be_option() {
                return Unwrap::Unknown(format!(
                    "`{text}` after `{}` is not literal (it may be an option)",
                    self.name
                ));
            }
            if text == "--" {
                i += 1;
                break;
            }
            if !text.starts_with('-') || text == "-" {
                break;
            }
            match self.option(text, i, &mut options) {
                Ok(next) => i = next,
                Err(stop) => return stop,
            }
        }
        if self.assignments {
            while args.get(i).is_some_and(|w| w.assignment().is_some()) {
                i += 1;
            }
        }
        i += self.operands;
        if i >= args.len() {
            return Unwrap::NoCommand;
        }
        Unwrap::Inner { start: i, options }
    }

    /// Reads the option at `args[i]`; the index after it, or how to stop.
    fn option(
        &self,
        text: &str,
        i: usize,
        options: &mut Vec<(String, Option<usize>)>,
    ) -> Result<usize, Unwrap> {
        let known = |set: &[&str], o: &str| set.contains(&o);
        if text.starts_with("--") {
            let (name, inline) = match text.split_once('=') {
                Some((name, _)) => (name, true),
                None => (text, false),
            };
            if known(self.refused, name) {
                return Err(self.refuse(name));
            }
            if known(self.no_command, name) {
                return Err(Unwrap::NoCommand);
            }
            if known(self.values, name) {
                options.push((name.to_owned(), Some(if inline { i } else { i + 1 })));
                return Ok(if inline { i + 1 } else { i + 2 });
            }
            if known(self.flags, name) {
                options.push((name.to_owned(), inline.then_some(i)));
                return Ok(i + 1);
            }
            return Err(self.unknown(name));
        }
        if self.numeric && text[1..].bytes().all(|b| b.is_ascii_digit()) {
            return Ok(i + 1);
        }
        for (at, c) in text.char_indices().skip(1) {
            let mut buf = [0u8; 4];
            let name = format!("-{}", c.encode_utf8(&mut buf));
            let rest = &text[at + c.len_utf8()..];
            if known(self.refused, &name) {
                return Err(self.refuse(&name));
            }
            if known(self.no_command, &name) {
                return Err(Unwrap::NoCommand);
            }
            if known(self.attached, &name) {
                options.push((name, (!rest.is_empty()).then_some(i)));
                return Ok(i + 1);
            }
            if known(self.values, &name) {
                let value = if rest.is_empty() { i + 1 } else { i };
                options.push((name, Some(value)));
                return Ok(value + 1);
            }
            if !known(self.flags, &name) {
                return Err(self.unknown(&name));
            }
            options.push((name, None));
        }
        Ok(i + 1)
    }

    fn refuse(&self, option: &str) -> Unwrap {
        Unwrap::Unknown(format!(
            "`{} {option}` builds its command from a string",
            self.name
        ))
    }

    fn unknown(&self, option: &str) -> Unwrap {
        Unwrap::Unknown(format!("unknown option `{option}` of `{}`", self.name))
    }
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

    fn start(program: &str, args: &str) -> Option<usize> {
        match find(program).unwrap().unwrap(&words(args)) {
            Unwrap::Inner { start, .. } => Some(start),
            _ => None,
        }
    }

    #[test]
    fn options_are_skipped() {
        assert_eq!(start("env", "-i A=b rm x"), Some(2));
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
    }

    #[test]
    fn no_command_and_unknown_options() {
        let w = |p: &str, a: &str| find(p).unwrap().unwrap(&words(a));
        assert_eq!(w("command", "-v rm"), Unwrap::NoCommand);
        assert_eq!(w("env", ""), Unwrap::NoCommand);
        assert_eq!(w("timeout", "5"), Unwrap::NoCommand);
        assert!(matches!(w("env", "-S 'rm x'"), Unwrap::Unknown(_)));
        assert!(matches!(w("sudo", "--bogus rm"), Unwrap::Unknown(_)));
        assert!(matches!(w("nice", "-x rm"), Unwrap::Unknown(_)));
    }
}
