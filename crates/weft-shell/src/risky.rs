//! The risky-option table: options that run other programs or write files (`git -c`,
//! `find -exec`, `sed -i`, `tar --to-command`, `rsync -e`, `sort -o`...), and operands of
//! programs that write them (`rm`, `cp`, `tee`...) outside the project. A pattern never
//! pre-approves a call with one of these: a person has to. Where the option's value is a
//! command (`tar --to-command=CMD`, `git -c alias.x=!CMD`), that command is analysed too.

use super::analysis::Finding;
use super::globals::{GLOBALS, GlobalSplit, split_globals};
use super::option_table::{AWKS, Danger, Sub, WRITES_OPERANDS, entries_for};
use super::paths::{Place, ShellContext, place};
use super::protected::{Reach, protected_write};
use super::word::Word;
use super::{git, scripts};

/// The risky things in one command: `program` (basename) with `args`.
pub(crate) fn risks(program: &str, args: &[Word], ctx: &ShellContext) -> Vec<Finding> {
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
        // The option may be one of the risky ones (`-c`, `--config`...); a word that is not
        // literal may be any of them.
        let dynamic = args.get(sub_at).is_some_and(|w| !w.is_literal());
        let reason = format!("{why}, which may run other programs");
        out.push(if dynamic {
            Finding::unseen(reason)
        } else {
            Finding::nothing(reason)
        });
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
            let target = value.and_then(|v| value_word(args, at, v));
            out.extend(git::other_repository(name, target.as_ref(), ctx));
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
    dynamic_options(program, sub.map(Word::text), args, start, &mut out);
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
        || matches!(program, "uniq" | "dd" | "jq" | "date" | "find")
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
    out: &mut Vec<Finding>,
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

/// True when the table entry applies at `position` (after subcommand `sub`, if any).
fn applies(entry: Sub, position: Sub, sub: Option<&str>) -> bool {
    match (entry, position) {
        (Sub::Global, Sub::Global) | (Sub::Any, Sub::Any) | (Sub::Every, Sub::Every) => true,
        (Sub::Of(subs), Sub::Every) => sub.is_some_and(|s| subs.contains(&s)),
        _ => false,
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
    out: &mut Vec<Finding>,
) -> bool {
    for entry in entries_for(program) {
        let Some(option) = entry.options.iter().find(|o| same_option(o, name)) else {
            continue;
        };
        let name = *option;
        if !applies(entry.sub, position, sub) {
            continue;
        }
        let word = || value.and_then(|v| value_word(args, at, v));
        match entry.danger {
            Danger::Always(why) => out.push(Finding::nothing(format!("`{program} {name}` {why}"))),
            Danger::Unseen(why) => out.push(Finding::unseen(format!("`{program} {name}` {why}"))),
            Danger::Runs => {
                let by = match sub {
                    Some(sub) => format!("{program} {sub} {name}"),
                    None => format!("{program} {name}"),
                };
                out.push(runs_value(program, name, &by, word()));
            }
            Danger::GitSetting => out.push(git::setting_option(name, word().as_ref())),
            Danger::WritesTo => path_risk(program, name, word(), ctx, out),
        }
        return true;
    }
    false
}

/// An option whose value is a command (`tar --to-command=CMD`, `rsync -e CMD`): the command
/// is analysed; without a value the analyser cannot see what runs.
fn runs_value(program: &str, name: &str, by: &str, value: Option<Word>) -> Finding {
    let reason = format!("`{program} {name}` can run other programs");
    let Some(value) = value else {
        return Finding::unseen(reason);
    };
    let command = if name == "--checkpoint-action" {
        // Only `exec=CMD` runs a command; `dot`, `echo`, `sleep=N`... do not.
        match value.text().strip_prefix("exec=") {
            Some(command) => value.part(command),
            None => return Finding::nothing(reason),
        }
    } else {
        value
    };
    Finding::shell(reason, by, command)
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
    Some(word.part(rest))
}

/// A write to `target`: risky unless it stays inside the project.
fn path_risk(
    program: &str,
    option: &str,
    target: Option<Word>,
    ctx: &ShellContext,
    out: &mut Vec<Finding>,
) {
    match target {
        None => out.push(Finding::nothing(format!(
            "`{program} {option}` has no value to check"
        ))),
        Some(word) => {
            let place = place(&word, ctx);
            if let Place::Outside(why) = place {
                out.push(Finding::nothing(format!(
                    "`{program} {option}` writes to `{}`, which {why}",
                    word.text()
                )));
            }
            if place != Place::Special {
                let what = format!("`{program} {option} {}`", word.text());
                out.extend(protected_write(&what, &word, ctx, Reach::Path));
            }
        }
    }
}

/// A non-literal word where a risky option could be (`git log $OPTS`): it may be any option
/// at that place, so when one there can run a program, the analyser cannot see what runs.
fn dynamic_options(
    program: &str,
    sub: Option<&str>,
    args: &[Word],
    start: usize,
    out: &mut Vec<Finding>,
) {
    let entries = entries_for(program);
    if entries.is_empty() {
        return;
    }
    let mut options_end = false;
    for word in args.iter().skip(start) {
        if word.text() == "--" {
            options_end = true;
        }
        if !options_end && !word.is_literal() && word.may_be_option() {
            let position = if sub.is_some() { Sub::Every } else { Sub::Any };
            let runs = entries
                .iter()
                .any(|e| e.danger.runs() && applies(e.sub, position, sub));
            let reason = format!(
                "`{}` may expand to an option of `{program}` that runs programs or writes files",
                word.text()
            );
            out.push(if runs {
                Finding::unseen(reason)
            } else {
                Finding::nothing(reason)
            });
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
    out: &mut Vec<Finding>,
) {
    let rest = args.get(start..).unwrap_or(&[]);
    match (program, sub) {
        ("git", Some("config")) => out.extend(git::config_write(rest)),
        ("git", Some(sub)) => {
            out.extend(git::subcommand_runs(sub, rest));
            out.extend(git::written_operands(sub, rest, ctx));
        }
        ("sed", _) => {
            out.extend(scripts::sed_risk(args, ctx));
            out.extend(in_place_edits(args, ctx));
        }
        ("find", _) => {
            // The starting points: what it reads, and what `-delete` may remove.
            let deletes = args.iter().any(|w| w.text() == "-delete");
            let starts = args
                .iter()
                .skip_while(|w| matches!(w.text(), "-L" | "-P" | "-H"))
                .take_while(|w| !w.text().starts_with(['-', '(', '!']));
            for start in starts {
                if let Place::Outside(why) = place(start, ctx) {
                    out.push(Finding::nothing(format!(
                        "`find` searches `{}`, which {why}",
                        start.text()
                    )));
                }
                if deletes {
                    let what = format!("`find {} -delete`", start.text());
                    out.extend(protected_write(&what, start, ctx, Reach::Tree));
                }
            }
        }
        (p, _) if AWKS.contains(&p) => out.extend(scripts::awk_risk(args)),
        ("jq", _) => out.extend(scripts::jq_risk(args)),
        ("date", _) => {
            // `date MMDDhhmm` sets the clock; `+FORMAT` prints.
            let setting = args
                .iter()
                .find(|w| !w.text().starts_with(['+', '-']) && !w.text().is_empty());
            if let Some(when) = setting
                && !args.iter().any(|w| {
                    matches!(
                        w.text(),
                        "-d" | "--date" | "-f" | "--file" | "-r" | "--reference"
                    )
                })
            {
                out.push(Finding::nothing(format!(
                    "`date {}` sets the system clock",
                    when.text()
                )));
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
                    path_risk("dd", "of=", Some(word.part(path)), ctx, out);
                }
            }
        }
        _ => {}
    }
}

/// `sed -i`: the files it edits must not be protected (it edits anywhere, so it is risky in
/// any case; a protected one asks in every mode).
fn in_place_edits(args: &[Word], ctx: &ShellContext) -> Vec<Finding> {
    let in_place = |t: &str| {
        t.starts_with("--in-place")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains('i'))
    };
    if !args.iter().any(|w| in_place(w.text())) {
        return Vec::new();
    }
    let explicit = args.iter().any(|w| {
        let t = w.text();
        matches!(t, "-e" | "--expression" | "-f" | "--file")
            || t.starts_with("--expression=")
            || t.starts_with("--file=")
    });
    let mut operands = args.iter().filter(|w| !w.text().starts_with('-'));
    if !explicit {
        operands.next(); // the script
    }
    operands
        .filter_map(|file| {
            protected_write(&format!("`sed -i {}`", file.text()), file, ctx, Reach::Path)
        })
        .collect()
}

/// Operands of programs that write them (`rm`, `cp`, `tee`...) must stay inside the project,
/// and out of the protected paths (a deletion, move or mode change reaches what is below its
/// operand: `rm -rf .git` reaches `.git/config`); so must the directory `cd` moves to, since
/// what follows writes relative to it.
fn operand_risks(
    program: &str,
    args: &[Word],
    skip: usize,
    ctx: &ShellContext,
    out: &mut Vec<Finding>,
) {
    let reach = match program {
        "rm" | "rmdir" | "mv" | "cp" | "ln" | "install" | "chmod" | "chown" | "chgrp" => {
            Reach::Tree
        }
        _ => Reach::Path,
    };
    let mut options_end = false;
    let mut skipped = 0;
    let mut any = false;
    for word in args {
        let text = word.text();
        if !options_end && text == "--" {
            options_end = true;
            continue;
        }
        if !options_end && word.is_literal() && text.starts_with('-') && text != "-" {
            // `--target-directory=DIR`, `-tDIR`: the directory written into.
            let target = text
                .strip_prefix("--target-directory=")
                .or_else(|| text.strip_prefix("-t").filter(|d| !d.is_empty()));
            if let Some(dir) = target.filter(|_| reach == Reach::Tree) {
                operand_risk(program, &word.part(dir), reach, ctx, out);
            }
            continue;
        }
        if skipped < skip {
            skipped += 1;
            continue;
        }
        any = true;
        if matches!(program, "cd" | "pushd") && text == "-" {
            // `$OLDPWD`, which a shell takes from its environment: anywhere.
            out.push(Finding::nothing(format!(
                "`{program} -` returns to the previous directory, which may be outside the project"
            )));
            continue;
        }
        operand_risk(program, word, reach, ctx, out);
    }
    if !any && matches!(program, "cd" | "pushd") {
        out.push(Finding::nothing(format!(
            "`{program}` without a directory leaves the project"
        )));
    }
}

/// One operand of a program that writes it.
fn operand_risk(
    program: &str,
    word: &Word,
    reach: Reach,
    ctx: &ShellContext,
    out: &mut Vec<Finding>,
) {
    let place = place(word, ctx);
    if let Place::Outside(why) = place {
        out.push(Finding::nothing(format!(
            "`{program}` operand `{}` {why}",
            word.text()
        )));
    }
    if place != Place::Special {
        let what = format!("`{program} {}`", word.text());
        out.extend(protected_write(&what, word, ctx, reach));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Runs;

    /// True when a finding may run a program the analyser cannot see.
    fn unseen(findings: &[Finding]) -> bool {
        findings.iter().any(|f| f.runs == Runs::Unseen)
    }

    fn words(text: &str) -> Vec<Word> {
        text.split(' ')
            .filter(|w| !w.is_empty())
            .map(Word::literal)
            .collect()
    }

    fn findings(program: &str, args: &str) -> Vec<Finding> {
        risks(program, &words(args), &ShellContext::new())
    }

    fn risks_of(program: &str, args: &str) -> Vec<String> {
        findings(program, args)
            .into_iter()
            .map(|f| f.reason)
            .collect()
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
            risks_of("find", "build -name x -delete"),
            ["`find -delete` deletes files"]
        );
        assert_eq!(
            risks_of("find", ". -name x -delete"),
            [
                "`find -delete` deletes files",
                "`find . -delete` may reach the protected path `.clawft`"
            ]
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

    #[test]
    fn what_runs_unseen_programs() {
        assert!(unseen(&findings("git", "-c core.hooksPath=/tmp/h commit")));
        assert!(!unseen(&findings("git", "-c core.pager=less log")));
        assert!(unseen(&findings("awk", "BEGIN{system(\"id\")}")));
        assert!(unseen(&findings("sed", "-n 1e f")));
        assert!(!unseen(&findings("sed", "-i s/a/b/ f")));
        assert!(unseen(&findings("tar", "xIf x")));
        assert!(!unseen(&findings("tar", "-xf a.tar --to-command=cat")));
        assert!(unseen(&findings("git", "filter-branch --tree-filter x")));
        assert!(!unseen(&findings("find", ". -delete")));
        assert!(!unseen(&findings("git", "push -u origin main")));
    }
}
