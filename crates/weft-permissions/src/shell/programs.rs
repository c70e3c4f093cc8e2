//! What the analyser knows about particular programs: the global options to skip before a
//! subcommand (`git -C dir push` is `git push`), and the risky-option table (options that run
//! other programs or write files).

use super::paths::{Place, ShellContext, place};
use super::scripts;
use super::word::Word;

/// Options a program takes before its subcommand.
struct Globals {
    programs: &'static [&'static str],
    flags: &'static [&'static str],
    values: &'static [&'static str],
    /// A first argument starting with this is skipped (`cargo +nightly`).
    toolchain: Option<char>,
}

const GLOBALS: &[Globals] = &[
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

/// The global options of `program` in `args`: `(index of the first other word, the options
/// with their value's index, why the split is uncertain)`.
fn split_globals(program: &str, args: &[Word]) -> (usize, Vec<(usize, Option<usize>)>, Option<String>) {
    let Some(globals) = GLOBALS.iter().find(|g| g.programs.contains(&program)) else {
        return (0, Vec::new(), None);
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
            return (i, found, Some(why));
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
            return (i, found, Some(why));
        }
    }
    (i, found, None)
}

/// The arguments a pattern is compared with: `args` without `program`'s global options, and
/// why that comparison is uncertain (an unknown or non-literal global option).
pub(crate) fn match_args<'a>(program: &str, args: &'a [Word]) -> (Vec<&'a Word>, Option<String>) {
    let (start, _, unsure) = split_globals(program, args);
    (args.get(start..).unwrap_or(&[]).iter().collect(), unsure)
}

/// What a risky option does.
#[derive(Clone, Copy)]
enum Danger {
    /// Always risky; the text completes "`git -c` ...".
    Always(&'static str),
    /// Writes to the option's value: risky when that path is outside the project.
    WritesTo,
}

/// Which subcommands an entry applies to.
#[derive(Clone, Copy)]
enum Sub {
    /// Any position (programs without subcommands).
    Any,
    /// Before the subcommand (`git -c`).
    Global,
    /// After one of these subcommands.
    Of(&'static [&'static str]),
    /// After any subcommand.
    Every,
}

struct RiskyOption {
    programs: &'static [&'static str],
    sub: Sub,
    options: &'static [&'static str],
    danger: Danger,
}

const RUNS: Danger = Danger::Always("can run other programs");

const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk"];

/// The risky-option table.
const RISKY: &[RiskyOption] = &[
    RiskyOption {
        programs: &["git"],
        sub: Sub::Global,
        options: &["-c", "--config-env", "--exec-path"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Every,
        options: &["--output"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["fetch", "pull", "clone", "ls-remote", "archive", "push", "submodule"]),
        options: &["--upload-pack", "-u", "--receive-pack", "--exec"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["rebase"]),
        options: &["--exec", "-x"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["grep"]),
        options: &["-O", "--open-files-in-pager"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["difftool", "mergetool"]),
        options: &["-x", "--extcmd", "-t", "--tool"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["send-email"]),
        options: &["--sendmail-cmd", "--smtp-server", "--to-cmd", "--cc-cmd", "--header-cmd"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["clone", "init", "submodule"]),
        options: &["--template", "-c", "--config"],
        danger: Danger::Always("can install hooks or settings that run programs"),
    },
    RiskyOption {
        programs: &["git"],
        sub: Sub::Of(&["archive", "format-patch"]),
        options: &["-o", "--output-directory"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["find"],
        sub: Sub::Any,
        options: &["-exec", "-execdir", "-ok", "-okdir"],
        danger: Danger::Always("runs a command for each file"),
    },
    RiskyOption {
        programs: &["find"],
        sub: Sub::Any,
        options: &["-delete"],
        danger: Danger::Always("deletes files"),
    },
    RiskyOption {
        programs: &["find"],
        sub: Sub::Any,
        options: &["-fprint", "-fprint0", "-fprintf", "-fls"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["sed"],
        sub: Sub::Any,
        options: &["-i", "--in-place"],
        danger: Danger::Always("edits files in place"),
    },
    RiskyOption {
        programs: &["sed"],
        sub: Sub::Any,
        options: &["-f", "--file"],
        danger: Danger::Always("runs a script file (whose `e` and `w` commands run programs and write files)"),
    },
    RiskyOption {
        programs: AWKS,
        sub: Sub::Any,
        options: &["-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec"],
        danger: Danger::Always("runs program files or extensions"),
    },
    RiskyOption {
        programs: &["tar"],
        sub: Sub::Any,
        options: &[
            "--to-command",
            "--use-compress-program",
            "-I",
            "--checkpoint-action",
            "--info-script",
            "--new-volume-script",
            "-F",
            "--rsh-command",
            "--rmt-command",
        ],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["rsync"],
        sub: Sub::Any,
        options: &["-e", "--rsh", "--rsync-path"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["sort"],
        sub: Sub::Any,
        options: &["-o", "--output"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["sort"],
        sub: Sub::Any,
        options: &["--compress-program"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["date"],
        sub: Sub::Any,
        options: &["-s", "--set"],
        danger: Danger::Always("sets the system clock"),
    },
    RiskyOption {
        programs: &["rg"],
        sub: Sub::Any,
        options: &["--pre"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["curl"],
        sub: Sub::Any,
        options: &["-o", "--output", "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["curl"],
        sub: Sub::Any,
        options: &["-K", "--config"],
        danger: Danger::Always("reads its options from a file"),
    },
    RiskyOption {
        programs: &["wget"],
        sub: Sub::Any,
        options: &["-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix"],
        danger: Danger::WritesTo,
    },
    RiskyOption {
        programs: &["wget"],
        sub: Sub::Any,
        options: &["-e", "--execute"],
        danger: RUNS,
    },
    RiskyOption {
        programs: &["cargo"],
        sub: Sub::Global,
        options: &["--config"],
        danger: Danger::Always("can set runners and wrappers that run other programs"),
    },
    RiskyOption {
        programs: &["npm", "pnpm", "yarn"],
        sub: Sub::Every,
        options: &["--script-shell"],
        danger: RUNS,
    },
];

/// Programs that write to their operands: each operand must stay inside the project.
/// `(program, operands to skip first)`: `chmod MODE FILE...` skips the mode.
const WRITES_OPERANDS: &[(&str, usize)] = &[
    ("cp", 0),
    ("mv", 0),
    ("rm", 0),
    ("rmdir", 0),
    ("touch", 0),
    ("mkdir", 0),
    ("tee", 0),
    ("ln", 0),
    ("install", 0),
    ("truncate", 0),
    ("shred", 0),
    ("unlink", 0),
    ("chmod", 1),
    ("chown", 1),
    ("chgrp", 1),
    ("cd", 0),
    ("pushd", 0),
];

/// The risks of one command: `program` (basename) with `args`.
pub(crate) fn risks(program: &str, args: &[Word], ctx: &ShellContext) -> Vec<String> {
    let mut out = Vec::new();
    if !has_rules(program) {
        return out;
    }
    let (sub_at, globals, unsure) = split_globals(program, args);
    if let Some(why) = unsure {
        // The option may be one of the risky ones (`-c`, `--config`...).
        out.push(format!("{why}, which may run other programs"));
    }
    for &(at, value) in &globals {
        let name = args[at].text().split_once('=').map_or(args[at].text(), |(n, _)| n);
        if name == "--exec-path" && value.is_none() {
            continue;
        }
        if matches!(name, "-C" | "--git-dir" | "--work-tree") && program == "git" {
            path_risk(program, name, value.and_then(|v| value_word(args, at, v)), ctx, &mut out);
        }
        check_option(program, Sub::Global, None, name, args, at, value, ctx, &mut out);
    }
    let has_globals = GLOBALS.iter().any(|g| g.programs.contains(&program));
    let sub = has_globals.then(|| args.get(sub_at)).flatten();
    let start = if has_globals { sub_at + 1 } else { 0 };
    scan_options(program, sub, args, start, ctx, &mut out);
    dynamic_options(program, args, start, &mut out);
    special_risks(program, sub.map(Word::text), args, start, ctx, &mut out);
    if let Some(&(_, skip)) = WRITES_OPERANDS.iter().find(|(p, _)| *p == program) {
        operand_risks(program, args, skip, ctx, &mut out);
    }
    out
}

/// True when some rule of this module looks at `program`'s arguments.
fn has_rules(program: &str) -> bool {
    RISKY.iter().any(|r| r.programs.contains(&program))
        || GLOBALS.iter().any(|g| g.programs.contains(&program))
        || WRITES_OPERANDS.iter().any(|(p, _)| *p == program)
        || matches!(program, "uniq" | "dd")
}

/// `-c` for the character `c`, without allocating.
fn short_name(c: char, buf: &mut [u8; 5]) -> &str {
    buf[0] = b'-';
    let len = c.encode_utf8(&mut buf[1..]).len();
    std::str::from_utf8(&buf[..=len]).unwrap_or("-")
}

/// Looks at every option after `start` (`find`'s are whole words like `-exec`).
fn scan_options(
    program: &str,
    sub: Option<&Word>,
    args: &[Word],
    start: usize,
    ctx: &ShellContext,
    out: &mut Vec<String>,
) {
    let whole_words = program == "find";
    let mut i = start;
    // `tar xzf` spells its first options without a dash.
    if program == "tar" && args.first().is_some_and(|w| !w.text().starts_with('-')) {
        if let Some(first) = args.first() {
            let mut buf = [0u8; 5];
            for c in first.text().chars() {
                let name = short_name(c, &mut buf);
                check_option(program, Sub::Any, None, name, args, 0, None, ctx, out);
            }
        }
        i = i.max(1);
    }
    while let Some(word) = args.get(i) {
        let text = word.text();
        i += 1;
        if text == "--" && !whole_words {
            break;
        }
        if !text.starts_with('-') || text == "-" || !word.is_literal() {
            continue;
        }
        let kind = if sub.is_some() { Sub::Every } else { Sub::Any };
        let sub_text = sub.map(Word::text);
        if whole_words || text.starts_with("--") {
            let (name, inline) = match text.split_once('=') {
                Some((n, _)) => (n, true),
                None => (text, false),
            };
            let value = if inline { i - 1 } else { i };
            check_option(program, kind, sub_text, name, args, i - 1, Some(value), ctx, out);
            continue;
        }
        let mut buf = [0u8; 5];
        for (at, c) in text.char_indices().skip(1) {
            let name = short_name(c, &mut buf);
            let attached = at + c.len_utf8() < text.len();
            let value = if attached { i - 1 } else { i };
            if check_option(program, kind, sub_text, name, args, i - 1, Some(value), ctx, out) {
                break;
            }
        }
    }
}

/// Checks one option against the table; true when it matched (a value-taking option ends a
/// cluster of short options).
#[allow(clippy::too_many_arguments)]
fn check_option(
    program: &str,
    position: Sub,
    sub: Option<&str>,
    name: &str,
    args: &[Word],
    at: usize,
    value: Option<usize>,
    ctx: &ShellContext,
    out: &mut Vec<String>,
) -> bool {
    for entry in RISKY {
        if !entry.programs.contains(&program) || !entry.options.contains(&name) {
            continue;
        }
        let applies = match (entry.sub, position) {
            (Sub::Global, Sub::Global) | (Sub::Any, Sub::Any) | (Sub::Every, Sub::Every) => true,
            (Sub::Of(subs), Sub::Every) => sub.is_some_and(|s| subs.contains(&s)),
            _ => false,
        };
        if !applies {
            continue;
        }
        match entry.danger {
            Danger::Always(why) => out.push(format!("`{program} {name}` {why}")),
            Danger::WritesTo => {
                let word = value.and_then(|v| value_word(args, at, v));
                path_risk(program, name, word, ctx, out);
            }
        }
        return true;
    }
    false
}

/// The value of the option at `args[at]` whose value is at `args[value]` (the same word when
/// attached: `--output=x`, `-ox`).
fn value_word(args: &[Word], at: usize, value: usize) -> Option<Word> {
    let word = args.get(value)?;
    if value != at {
        return Some(word.clone());
    }
    let text = word.text();
    let rest = match text.split_once('=') {
        Some((_, v)) if text.starts_with("--") => v,
        _ => text.get(2..)?,
    };
    Some(if word.is_literal() {
        Word::literal(rest)
    } else {
        Word::placeholder(rest)
    })
}

/// A write to `target`: risky unless it stays inside the project.
fn path_risk(program: &str, option: &str, target: Option<Word>, ctx: &ShellContext, out: &mut Vec<String>) {
    match target {
        None => out.push(format!("`{program} {option}` has no value to check")),
        Some(word) => {
            if let Place::Outside(why) = place(&word, ctx) {
                out.push(format!("`{program} {option}` writes to `{}`, which {why}", word.text()));
            }
        }
    }
}

/// A non-literal word where a risky option could be (`git log $OPTS`).
fn dynamic_options(program: &str, args: &[Word], start: usize, out: &mut Vec<String>) {
    if !RISKY.iter().any(|r| r.programs.contains(&program)) {
        return;
    }
    let mut options_end = false;
    for word in args.iter().skip(start) {
        if word.text() == "--" {
            options_end = true;
        }
        if !options_end && !word.is_literal() && word.may_be_option() {
            out.push(format!(
                "`{}` may expand to an option of `{program}` that runs programs or writes files",
                word.text()
            ));
            return;
        }
    }
}

/// Risks that depend on operands rather than options.
fn special_risks(
    program: &str,
    sub: Option<&str>,
    args: &[Word],
    start: usize,
    ctx: &ShellContext,
    out: &mut Vec<String>,
) {
    let rest = args.get(start..).unwrap_or(&[]);
    match (program, sub) {
        ("git", Some("config")) if scripts::git_config_writes(rest) => {
            out.push("`git config` can write settings that run programs".to_owned());
        }
        ("git", Some("filter-branch" | "instaweb")) => {
            out.push(format!("`git {}` runs other programs", sub.unwrap_or("")));
        }
        ("git", Some("submodule")) if rest.iter().any(|w| w.text() == "foreach") => {
            out.push("`git submodule foreach` runs a command in every submodule".to_owned());
        }
        ("git", Some("bisect")) if rest.first().is_some_and(|w| w.text() == "run") => {
            out.push("`git bisect run` runs a command".to_owned());
        }
        ("sed", _) => {
            if let Some(why) = scripts::sed_risk(args) {
                out.push(why);
            }
        }
        (p, _) if AWKS.contains(&p) => {
            if let Some(why) = scripts::awk_risk(args) {
                out.push(why);
            }
        }
        ("uniq", _) => {
            let operands: Vec<&Word> = args.iter().filter(|w| !w.may_be_option()).collect();
            if let Some(target) = operands.get(1) {
                path_risk("uniq", "OUTPUT", Some((*target).clone()), ctx, out);
            }
        }
        ("dd", _) => {
            for word in args {
                if let Some(path) = word.text().strip_prefix("of=") {
                    let target = if word.is_literal() {
                        Word::literal(path)
                    } else {
                        Word::placeholder(path)
                    };
                    path_risk("dd", "of=", Some(target), ctx, out);
                }
            }
        }
        _ => {}
    }
}

/// Operands of programs that write them (`rm`, `cp`, `tee`...) must stay inside the project.
fn operand_risks(program: &str, args: &[Word], skip: usize, ctx: &ShellContext, out: &mut Vec<String>) {
    let mut options_end = false;
    let mut skipped = 0;
    let mut any = false;
    for word in args {
        if !options_end && word.text() == "--" {
            options_end = true;
            continue;
        }
        if !options_end && word.is_literal() && word.text().starts_with('-') && word.text() != "-" {
            continue;
        }
        if skipped < skip {
            skipped += 1;
            continue;
        }
        any = true;
        if let Place::Outside(why) = place(word, ctx) {
            out.push(format!("`{program}` operand `{}` {why}", word.text()));
        }
    }
    if !any && matches!(program, "cd" | "pushd") {
        out.push(format!("`{program}` without a directory leaves the project"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Word> {
        text.split(' ').filter(|w| !w.is_empty()).map(Word::literal).collect()
    }

    fn risks_of(program: &str, args: &str) -> Vec<String> {
        risks(program, &words(args), &ShellContext::new())
    }

    #[test]
    fn git_globals_are_skipped_for_matching() {
        let args = words("-C sub --no-pager -c a=b push origin");
        let (rest, unsure) = match_args("git", &args);
        assert_eq!(rest.iter().map(|w| w.text()).collect::<Vec<_>>(), ["push", "origin"]);
        assert_eq!(unsure, None);
        let args = words("--weird push");
        assert!(match_args("git", &args).1.is_some());
        let args = words("+nightly test");
        assert_eq!(match_args("cargo", &args).0[0].text(), "test");
    }

    #[test]
    fn the_risky_table() {
        assert_eq!(risks_of("git", "-c alias.x=!sh x"), ["`git -c` can run other programs"]);
        assert_eq!(risks_of("git", "log -c"), Vec::<String>::new());
        assert_eq!(
            risks_of("git", "log --output=/elsewhere/file"),
            ["`git --output` writes to `/elsewhere/file`, which is outside the project"]
        );
        assert!(risks_of("git", "log --output=notes.txt").is_empty());
        assert_eq!(risks_of("git", "fetch --upload-pack=x").len(), 1);
        assert_eq!(risks_of("find", ". -name x -delete"), ["`find -delete` deletes files"]);
        assert_eq!(risks_of("sed", "-ni s/a/b/ f"), ["`sed -i` edits files in place"]);
        assert!(risks_of("sed", "-n 1,5p f").is_empty());
        assert_eq!(risks_of("tar", "xzIf x").len(), 1);
        assert_eq!(risks_of("rsync", "-avze ssh a b").len(), 1);
        assert_eq!(risks_of("sort", "-o /tmp/x f").len(), 1);
        assert!(risks_of("sort", "-o out.txt f").is_empty());
        assert_eq!(risks_of("rm", "-rf /").len(), 1);
        assert!(risks_of("rm", "-rf build").is_empty());
        assert_eq!(risks_of("cd", "..").len(), 1);
        assert_eq!(risks_of("uniq", "a /etc/b").len(), 1);
        assert_eq!(risks_of("git", "config alias.x !sh").len(), 1);
        assert!(risks_of("git", "config --get user.name").is_empty());
    }
}
