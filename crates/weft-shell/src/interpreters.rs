//! Interpreters given code on the command line (`python3 -c`, `perl -e`, `node -e`,
//! `vim -c '!cmd'`, `gdb -ex 'shell cmd'`): that code can run any program, and the analyser
//! does not read these languages, so a scoped deny denies such a call. A script file
//! (`python3 tool.py`) is judged as the interpreter itself, like `sh script.sh`.

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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(program: &str, args: &[&str]) -> bool {
        let words: Vec<Word> = args.iter().map(|a| Word::literal(*a)).collect();
        inline_code(program, &words).is_some()
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
