//! Builtins that change the language the shell reads the rest of the command in: `shopt`
//! (`expand_aliases`, `extglob`...), `set` beyond a short list of flags (`-o posix` turns on
//! alias expansion, `-k` makes any `NAME=value` word an environment variable, `-a` exports
//! every assignment), `enable` (loads builtins from a shared library, or hides them so that a
//! program of the same name runs), and `POSIXLY_CORRECT=` (bash's POSIX mode). The analyser
//! reads the command as the shell starts it, so after any of these the rest is unanalysable.

use super::word::Word;

/// `set` flags that leave the language as it is: `-e`, `-u`, `-x` (with `PS4` removed from the
/// environment), `-v`, `-f` (no globs: words are already not literal), `-n`, `-C`, `-h`.
const SAFE_SET_FLAGS: &[char] = &['e', 'u', 'x', 'v', 'f', 'n', 'C', 'h'];

/// `set -o` names of the same flags, and `pipefail`.
const SAFE_SET_OPTIONS: &[&str] = &[
    "errexit",
    "nounset",
    "xtrace",
    "verbose",
    "noglob",
    "noexec",
    "noclobber",
    "hashall",
    "pipefail",
];

/// Variables whose assignment changes bash's language.
pub(crate) const LANGUAGE_SWITCHES: &[&str] =
    &["POSIXLY_CORRECT", "SHELLOPTS", "BASHOPTS", "BASH_COMPAT"];

/// Why `program` with `args` changes the language the shell reads the commands after it in,
/// if it does.
pub(crate) fn switch(program: &str, args: &[Word]) -> Option<String> {
    let changes = match program {
        "shopt" => shopt_changes(args),
        "set" => set_changes(args),
        "enable" => !args.is_empty(),
        _ => false,
    };
    changes.then(|| {
        let shown: Vec<&str> = args.iter().map(Word::text).collect();
        format!(
            "`{}` changes how the shell reads the commands after it",
            super::shorten(&format!("{program} {}", shown.join(" ")))
        )
    })
}

/// `shopt -s NAME`, `-u`, `-o`: anything but printing (`shopt`, `shopt -p`, `shopt -q NAME`).
fn shopt_changes(args: &[Word]) -> bool {
    args.iter().any(|w| {
        let t = w.text();
        !w.is_literal() || (t.starts_with('-') && t[1..].contains(['s', 'u', 'o']))
    })
}

/// `set` with a flag or `-o` name outside the safe lists (its positional arguments after `--`
/// or the first operand are not options).
fn set_changes(args: &[Word]) -> bool {
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let text = word.text();
        if !word.is_literal() {
            return true;
        }
        if text == "--" || text == "-" || !(text.starts_with('-') || text.starts_with('+')) {
            return false;
        }
        for flag in text[1..].chars() {
            if flag != 'o' {
                if !SAFE_SET_FLAGS.contains(&flag) {
                    return true;
                }
                continue;
            }
            // `-o NAME` (in a cluster too: `-euo pipefail`); `set -o` alone prints them.
            match args.get(i) {
                None => return false,
                Some(name) if name.is_literal() && SAFE_SET_OPTIONS.contains(&name.text()) => {
                    i += 1;
                }
                Some(_) => return true,
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(program: &str, args: &str) -> bool {
        let words: Vec<Word> = args.split_whitespace().map(Word::literal).collect();
        switch(program, &words).is_some()
    }

    #[test]
    fn what_changes_the_language() {
        for (program, args) in [
            ("set", "-euo pipefail"),
            ("set", "-x"),
            ("set", "+e"),
            ("set", "-- a -k"),
            ("set", ""),
            ("set", "-o"),
            ("shopt", ""),
            ("shopt", "-q extglob"),
            ("enable", ""),
        ] {
            assert!(!changes(program, args), "{program} {args}");
        }
        for (program, args) in [
            ("set", "-o posix"),
            ("set", "-k"),
            ("set", "-ea"),
            ("set", "+B"),
            ("set", "-o emacs"),
            ("shopt", "-s expand_aliases"),
            ("shopt", "-u extglob"),
            ("shopt", "-qs x"),
            ("enable", "-n echo"),
            ("enable", "-f ./x.so x"),
        ] {
            assert!(changes(program, args), "{program} {args}");
        }
        assert!(switch("set", &[Word::placeholder("$F")]).is_some());
    }
}
