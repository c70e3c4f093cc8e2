//! Interpreters given code on the command line (`python3 -c`, `perl -e`, `node -e`,
//! `vim -c '!cmd'`, `gdb -ex 'shell cmd'`) or on their input (`python3 <<EOF`, `node < x`,
//! `curl ... | perl`, `| tclsh`: no script file named), and programs whose every input is a
//! language that can run commands (`sqlite3`'s `.shell`, `psql`'s `\!`, `ed`'s `!`, `m4`'s
//! `syscmd`): that code can run any program, and the analyser does not read these languages,
//! so a scoped deny denies such a call. A script file (`python3 tool.py`) is judged as the
//! interpreter itself, like `sh script.sh`.

use super::analysis::{Finding, Runs};
use super::word::Word;

/// Interpreters and the options that give them code: `(programs, short options that may be
/// clustered with others, whole-word options)`.
const INLINE_CODE: &[(&[&str], &[char], &[&str])] = &[
    (&["perl"], &['e', 'E'], &[]),
    (&["ruby", "jruby"], &['e'], &[]),
    (
        &["node", "nodejs", "bun"],
        &[],
        &["-e", "--eval", "-p", "--print"],
    ),
    (&["php"], &[], &["-r", "--run"]),
    (&["lua", "luajit"], &[], &["-e"]),
    (&["Rscript"], &[], &["-e"]),
    (&["expect"], &[], &["-c"]),
    (
        &["gdb"],
        &[],
        &[
            "-ex",
            "--ex",
            "-iex",
            "--eval-command",
            "--init-eval-command",
        ],
    ),
    (
        &["vim", "vi", "nvim", "ex", "view", "vimdiff"],
        &[],
        &["-c", "--cmd"],
    ),
    (&["emacs"], &[], &["--eval", "-eval"]),
    (&["deno"], &[], &["eval"]),
];

/// Programs whose commands, from their arguments or their input, can run other programs.
const COMMAND_LANGUAGES: &[&str] = &[
    "sqlite3",
    "psql",
    "mysql",
    "mariadb",
    "gnuplot",
    "ed",
    "ex",
    "dc",
    "m4",
    "gdb",
    "lldb",
    "expect",
    "osascript",
];

/// Interpreters that read their program from their input when no script file is named, with
/// their options that take a value (so the value is not taken for the script).
const STDIN_INTERPRETERS: &[(&[&str], &[&str])] = &[
    (
        &["perl"],
        &[
            "-I", "-M", "-m", "-C", "-x", "-i", "-0", "-l", "-F", "-d", "-D",
        ],
    ),
    (
        &["ruby", "jruby", "irb"],
        &["-I", "-r", "-C", "-E", "-F", "-K", "-T", "-W", "-x", "-0"],
    ),
    (
        &["node", "nodejs", "bun"],
        &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "--input-type",
            "--conditions",
            "-C",
        ],
    ),
    (&["php"], &["-c", "-d", "-z"]),
    (&["lua", "luajit"], &["-l"]),
    (&["tclsh", "wish", "jimsh"], &["-encoding"]),
    (&["Rscript", "R"], &[]),
    (
        &[
            "julia", "guile", "racket", "sbcl", "ghci", "ocaml", "swipl", "jshell", "groovy",
        ],
        &[],
    ),
];

/// Python's options with a value; `-m MODULE` runs a module, which is judged like a script.
const PYTHON_VALUES: &[&str] = &["-W", "-X", "--check-hash-based-pycs"];

/// The risk of `program` reading the code it runs from its input, or running commands of a
/// language that can run programs, if it does.
pub(super) fn input_code(program: &str, args: &[Word]) -> Option<Finding> {
    let interpreted = |reason: String| Finding {
        reason,
        runs: Runs::Interpreted,
        code: None,
        protected: false,
    };
    if COMMAND_LANGUAGES.contains(&program) {
        return Some(interpreted(format!(
            "`{program}` runs commands of a language that can run other programs"
        )));
    }
    let python = program.starts_with("python") || program.starts_with("pypy");
    let values: &[&str] = if python {
        PYTHON_VALUES
    } else {
        let (_, values) = STDIN_INTERPRETERS
            .iter()
            .find(|(p, _)| p.contains(&program))?;
        values
    };
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let text = word.text();
        if !word.is_literal() {
            break; // it may name a script, or be an option: judged as `inline_code` does
        }
        if text == "--" {
            break;
        }
        if matches!(text, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0") {
            return Some(interpreted(format!("`{program}` runs code from its input")));
        }
        if !text.starts_with('-') || (python && text == "-m") {
            return None; // a script (or a module), judged as the interpreter itself
        }
        if values.contains(&text) {
            i += 1;
        }
    }
    match args.get(i) {
        Some(script) if !matches!(script.text(), "-" | "/dev/stdin") => None,
        _ => Some(interpreted(format!(
            "`{program}` names no script, so it runs code from its input"
        ))),
    }
}

/// The inline-code risk of `program` with `args`, if it runs code given on the command line.
/// Every word up to `--` is looked at (an option's value, `-W ignore`, is not told from the
/// script's name), so a script's own `-c` counts too: a deny errs on the side of denying.
pub(super) fn inline_code(program: &str, args: &[Word]) -> Option<Finding> {
    let python = program.starts_with("python") || program.starts_with("pypy");
    let (shorts, words): (&[char], &[&str]) = if python {
        (&['c'], &[])
    } else {
        let (_, shorts, words) = INLINE_CODE.iter().find(|(p, _, _)| p.contains(&program))?;
        (shorts, words)
    };
    let vim = words.contains(&"--cmd");
    let found = args.iter().take_while(|w| w.text() != "--").find(|word| {
        let text = word.text();
        let name = text.split_once('=').map_or(text, |(n, _)| n);
        words.contains(&name)
            || (vim && text.starts_with('+') && !text[1..].bytes().all(|b| b.is_ascii_digit()))
            || (!shorts.is_empty()
                && text.starts_with('-')
                && !text.starts_with("--")
                && text[1..].chars().any(|c| shorts.contains(&c)))
            || (!word.is_literal() && word.may_be_option())
    })?;
    let option = found
        .text()
        .split_once('=')
        .map_or(found.text(), |(n, _)| n);
    Some(Finding {
        reason: format!(
            "`{program} {}` runs code that can run other programs",
            super::shorten(option)
        ),
        runs: Runs::Interpreted,
        code: None,
        protected: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(program: &str, args: &[&str]) -> bool {
        let words: Vec<Word> = args.iter().map(|a| Word::literal(*a)).collect();
        inline_code(program, &words).is_some()
    }

    fn from_input(program: &str, args: &[&str]) -> bool {
        let words: Vec<Word> = args.iter().map(|a| Word::literal(*a)).collect();
        input_code(program, &words).is_some()
    }

    #[test]
    fn code_from_the_input_is_found() {
        assert!(from_input("python3", &[]));
        assert!(from_input("python3", &["-u", "-"]));
        assert!(from_input("python3", &["-W", "ignore"]));
        assert!(from_input("perl", &["-I", "lib"]));
        assert!(from_input("node", &["-r", "x"]));
        assert!(from_input("tclsh", &[]));
        assert!(from_input("ruby", &["/dev/stdin"]));
        assert!(from_input("sqlite3", &["db.sqlite", "select 1"]));
        assert!(!from_input("python3", &["tool.py", "-"]));
        assert!(!from_input("python3", &["-m", "http.server"]));
        assert!(!from_input("perl", &["-I", "lib", "x.pl"]));
        assert!(!from_input("node", &["server.js"]));
        assert!(!from_input("rustc", &[]));
    }

    #[test]
    fn inline_code_is_found() {
        assert!(runs("python3", &["-c", "import os"]));
        assert!(runs("python3.12", &["-Sc", "x"]));
        assert!(runs("perl", &["-lne", "print"]));
        assert!(runs("node", &["--eval=1"]));
        assert!(runs("vim", &["+!rm x"]));
        assert!(runs("gdb", &["-batch", "-ex", "shell id"]));
        // Options are read past the script's name too: `-W ignore -c` has to be found.
        assert!(runs("python3", &["-W", "ignore", "-c", "x"]));
        assert!(!runs("vim", &["+10", "f"]));
        assert!(!runs("perl", &["script.pl"]));
        assert!(!runs("node", &["server.js"]));
        assert!(!runs("rustc", &["-e", "x"]));
    }
}
