//! Global options: what a program takes before its subcommand (`git -C dir`, `cargo +nightly`,
//! `npm --prefix dir`). Patterns are compared with the words after them, so `git -C dir push`
//! is `git push`; an option the table does not know makes the comparison uncertain.

use super::word::Word;

/// Options a program takes before its subcommand.
pub(super) struct Globals {
    pub(super) programs: &'static [&'static str],
    flags: &'static [&'static str],
    values: &'static [&'static str],
    /// A first argument starting with this is skipped (`cargo +nightly`).
    toolchain: Option<char>,
}

pub(super) const GLOBALS: &[Globals] = &[
    Globals {
        programs: &["git"],
        flags: &[
            "-p",
            "--paginate",
            "-P",
            "--no-pager",
            "--bare",
            "--no-replace-objects",
            "--no-lazy-fetch",
            "--no-optional-locks",
            "--no-advice",
            "--literal-pathspecs",
            "--glob-pathspecs",
            "--noglob-pathspecs",
            "--icase-pathspecs",
            "--exec-path",
        ],
        values: &[
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--super-prefix",
            "--config-env",
            "--attr-source",
        ],
        toolchain: None,
    },
    Globals {
        programs: &["cargo"],
        flags: &[
            "-q",
            "--quiet",
            "-v",
            "-vv",
            "--verbose",
            "--frozen",
            "--locked",
            "--offline",
        ],
        values: &["--color", "--config", "-Z", "-C"],
        toolchain: Some('+'),
    },
    Globals {
        programs: &["npm", "pnpm", "yarn"],
        flags: &[
            "-s",
            "--silent",
            "-q",
            "--quiet",
            "-g",
            "--global",
            "-r",
            "--recursive",
            "--workspaces",
        ],
        values: &[
            "--prefix",
            "-C",
            "--dir",
            "--cwd",
            "-w",
            "--workspace",
            "--filter",
            "-F",
        ],
        toolchain: None,
    },
];

/// A program's global options, split off its arguments.
pub(super) struct GlobalSplit {
    /// The index of the first other word (the subcommand).
    pub(super) start: usize,
    /// Each option's index, and its value's.
    pub(super) options: Vec<(usize, Option<usize>)>,
    /// Why the split is uncertain (an unknown or non-literal option).
    pub(super) unsure: Option<String>,
}

/// The global options of `program` in `args`.
pub(super) fn split_globals(program: &str, args: &[Word]) -> GlobalSplit {
    let split = |start, options, unsure| GlobalSplit {
        start,
        options,
        unsure,
    };
    let Some(globals) = GLOBALS.iter().find(|g| g.programs.contains(&program)) else {
        return split(0, Vec::new(), None);
    };
    let mut found = Vec::new();
    let mut i = 0;
    if let (Some(mark), Some(first)) = (globals.toolchain, args.first())
        && first.text().starts_with(mark)
    {
        i = 1;
    }
    while let Some(word) = args.get(i) {
        let text = word.text();
        if !word.is_literal() && word.may_be_option() {
            let why = format!("`{text}` may be an option of `{program}`");
            return split(i, found, Some(why));
        }
        if !text.starts_with('-') || text == "-" {
            break;
        }
        if text == "--" {
            i += 1;
            break;
        }
        let name = text.split_once('=').map_or(text, |(n, _)| n);
        let inline = name.len() < text.len();
        if globals.values.contains(&name) {
            let value = if inline { i } else { i + 1 };
            found.push((i, Some(value)));
            i = value + 1;
        } else if globals.flags.contains(&name) {
            found.push((i, inline.then_some(i)));
            i += 1;
        } else {
            let why = format!("`{text}` is an option of `{program}` the analyser does not know");
            return split(i, found, Some(why));
        }
    }
    split(i, found, None)
}

/// The arguments after `program`'s global options (`git -C dir push` gives `push`), what a
/// pattern such as `Bash(git push:*)` is compared with, and why that split is uncertain (an
/// option the table does not know, or a word that is not literal where one may be).
///
/// ```
/// use weft_shell::{Word, without_global_options};
///
/// let args: Vec<Word> = ["-C", "sub", "push"].into_iter().map(Word::literal).collect();
/// let (rest, unsure) = without_global_options("git", &args);
/// assert_eq!(rest[0].text(), "push");
/// assert_eq!(unsure, None);
/// ```
pub fn without_global_options<'a>(program: &str, args: &'a [Word]) -> (&'a [Word], Option<String>) {
    let split = split_globals(program, args);
    (args.get(split.start..).unwrap_or(&[]), split.unsure)
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

    #[test]
    fn git_globals_are_skipped_for_matching() {
        let args = words("-C sub --no-pager -c a=b push origin");
        let (rest, unsure) = without_global_options("git", &args);
        assert_eq!(
            rest.iter().map(|w| w.text()).collect::<Vec<_>>(),
            ["push", "origin"]
        );
        assert_eq!(unsure, None);
        let args = words("--weird push");
        assert!(without_global_options("git", &args).1.is_some());
        let args = words("+nightly test");
        assert_eq!(without_global_options("cargo", &args).0[0].text(), "test");
    }
}
