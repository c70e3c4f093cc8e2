//! The risky-option table: options that run other programs or write files (`git -c`,
//! `find -exec`, `sed -i`, `tar --to-command`, `rsync -e`, `sort -o`...), and operands of
//! programs that write them (`rm`, `cp`, `tee`...) outside the project. A pattern never
//! pre-approves a call with one of these: a person has to.

use super::globals::{GLOBALS, GlobalSplit, split_globals};
use super::option_table::{AWKS, Danger, Sub, WRITES_OPERANDS, entries_for};
use super::paths::{Place, ShellContext, place};
use super::scripts;
use super::word::Word;

/// The risks of one command: `program` (basename) with `args`.
pub(crate) fn risks(program: &str, args: &[Word], ctx: &ShellContext) -> Vec<String> {
    let mut out = Vec::new();
    if !has_rules(program) {
        return out;
    }
    let GlobalSplit {
        start: sub_at,
        options: globals,
        unsure,
    } = split_globals(program, args);
    if let Some(why) = unsure {
        // The option may be one of the risky ones (`-c`, `--config`...).
        out.push(format!("{why}, which may run other programs"));
    }
    for &(at, value) in &globals {
        let name = args[at]
            .text()
            .split_once('=')
            .map_or(args[at].text(), |(n, _)| n);
        if name == "--exec-path" && value.is_none() {
            continue;
        }
        if matches!(name, "-C" | "--git-dir" | "--work-tree") && program == "git" {
            path_risk(
                program,
                name,
                value.and_then(|v| value_word(args, at, v)),
                ctx,
                &mut out,
            );
        }
        check_option(
            program,
            Sub::Global,
            None,
            name,
            args,
            at,
            value,
            ctx,
            &mut out,
        );
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
    !entries_for(program).is_empty()
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
            check_option(
                program,
                kind,
                sub_text,
                name,
                args,
                i - 1,
                Some(value),
                ctx,
                out,
            );
            continue;
        }
        let mut buf = [0u8; 5];
        for (at, c) in text.char_indices().skip(1) {
            let name = short_name(c, &mut buf);
            let attached = at + c.len_utf8() < text.len();
            let value = if attached { i - 1 } else { i };
            if check_option(
                program,
                kind,
                sub_text,
                name,
                args,
                i - 1,
                Some(value),
                ctx,
                out,
            ) {
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
    for entry in entries_for(program) {
        let Some(option) = entry.options.iter().find(|o| same_option(o, name)) else {
            continue;
        };
        let name = *option;
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

/// True when `given` names the table's `option`: exactly, or as an abbreviation of a long
/// option (git and GNU getopt accept any unambiguous prefix: `--out` is `--output`).
fn same_option(option: &str, given: &str) -> bool {
    option == given || (given.len() > 3 && given.starts_with("--") && option.starts_with(given))
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
fn path_risk(
    program: &str,
    option: &str,
    target: Option<Word>,
    ctx: &ShellContext,
    out: &mut Vec<String>,
) {
    match target {
        None => out.push(format!("`{program} {option}` has no value to check")),
        Some(word) => {
            if let Place::Outside(why) = place(&word, ctx) {
                out.push(format!(
                    "`{program} {option}` writes to `{}`, which {why}",
                    word.text()
                ));
            }
        }
    }
}

/// A non-literal word where a risky option could be (`git log $OPTS`).
fn dynamic_options(program: &str, args: &[Word], start: usize, out: &mut Vec<String>) {
    if entries_for(program).is_empty() {
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
fn operand_risks(
    program: &str,
    args: &[Word],
    skip: usize,
    ctx: &ShellContext,
    out: &mut Vec<String>,
) {
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
        out.push(format!(
            "`{program}` without a directory leaves the project"
        ));
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

    fn risks_of(program: &str, args: &str) -> Vec<String> {
        risks(program, &words(args), &ShellContext::new())
    }

    #[test]
    fn the_risky_table() {
        assert_eq!(
            risks_of("git", "-c alias.x=!sh x"),
            ["`git -c` can run other programs"]
        );
        assert_eq!(risks_of("git", "log -c"), Vec::<String>::new());
        assert_eq!(
            risks_of("git", "log --output=/elsewhere/file"),
            ["`git --output` writes to `/elsewhere/file`, which is outside the project"]
        );
        assert!(risks_of("git", "log --output=notes.txt").is_empty());
        assert_eq!(risks_of("git", "fetch --upload-pack=x").len(), 1);
        assert_eq!(
            risks_of("find", ". -name x -delete"),
            ["`find -delete` deletes files"]
        );
        assert_eq!(
            risks_of("sed", "-ni s/a/b/ f"),
            ["`sed -i` edits files in place"]
        );
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
