//! What a wrapper's own words do, besides running its command: options that write a file
//! (`time -o`), run a command (`strace -o '|cmd'`), move the command elsewhere (`env -C`),
//! set a variable (`strace -E`); the replace string of `xargs -I` / `parallel -I`; and the
//! command words `watch` and `parallel` join for a shell.

use super::analysis::Finding;
use super::environment::{Scope, env_finding};
use super::paths::{Place, ShellContext, place};
use super::protected::{Reach, protected_write};
use super::word::Word;
use super::wrappers;

/// A wrapper's command words joined as the shell that runs them sees them (`watch ls -l`
/// runs `sh -c 'ls -l'`); `parallel`'s replacement strings (`{}`, `{.}`, `-I R`) become an
/// expansion, since each stands for an argument only known when it runs.
pub(super) fn join(
    words: &[Word],
    wrapper: &wrappers::Wrapper,
    options: &[(String, Option<Word>)],
) -> Word {
    let mut text = words.iter().map(Word::text).collect::<Vec<_>>().join(" ");
    if wrapper.appends {
        if let Some(rep) = replace_string(options) {
            text = text.replace(&rep, "${ARG}");
        }
        text = replace_braces(&text);
    }
    if words.iter().all(Word::is_literal) {
        Word::literal(text)
    } else {
        Word::placeholder(text)
    }
}

/// `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{1}`, `{2.}`...: `parallel`'s
/// replacement strings, as `${ARG}`.
fn replace_braces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close)
                if after[..close]
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"./#%+=".contains(&b)) =>
            {
                out.push_str("${ARG}");
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// What a wrapper's own option does: writes a file (`time -o`), runs a command
/// (`strace -o '|cmd'`), moves the command elsewhere (`env -C DIR`), sets a variable
/// (`strace -E NAME=value`).
pub(super) fn wrapper_option(
    wrapper: &str,
    name: &str,
    value: Option<&Word>,
    ctx: &ShellContext,
) -> Option<Finding> {
    let by = format!("{wrapper} {name}");
    match (wrapper, name) {
        ("strace", "-o" | "--output")
            if value.is_some_and(|v| v.text().starts_with(['|', '!'])) =>
        {
            let value = value?;
            let command = value.part(&value.text()[1..]);
            Some(Finding::shell(
                format!("`{by}` pipes its output to a command"),
                by,
                command,
            ))
        }
        ("time" | "strace" | "ltrace", "-o" | "--output")
        | (
            "script",
            "-I" | "--log-in" | "-O" | "--log-out" | "-B" | "--log-io" | "-T" | "--log-timing",
        )
        | ("parallel", "--joblog" | "--results" | "--res")
        | ("fakeroot", "-s") => write_to(wrapper, name, value, ctx),
        ("env", "-C" | "--chdir")
        | ("sudo", "-D" | "--chdir")
        | ("unshare" | "nsenter", "-w" | "--wd")
        | ("systemd-run", "--working-directory") => {
            let target = value?;
            match place(target, ctx) {
                Place::Outside(why) => Some(Finding::nothing(format!(
                    "`{by}` runs the command in `{}`, which {why}",
                    target.text()
                ))),
                _ => None,
            }
        }
        ("strace", "-E" | "--env") | ("systemd-run", "-E" | "--setenv") => {
            env_finding(value?, ctx, Scope::Environment)
        }
        _ => None,
    }
}

/// A write to `target`: risky unless it stays inside the project.
pub(super) fn write_to(
    program: &str,
    option: &str,
    target: Option<&Word>,
    ctx: &ShellContext,
) -> Option<Finding> {
    let Some(target) = target else {
        return Some(Finding::nothing(format!(
            "`{program} {option}` has no value to check"
        )));
    };
    // A possibly protected target is the stronger finding (it asks in every mode).
    let what = format!("`{program} {option} {}`", target.text());
    match place(target, ctx) {
        Place::Special => None,
        Place::Inside => protected_write(&what, target, ctx, Reach::Path),
        Place::Outside(why) => protected_write(&what, target, ctx, Reach::Path).or_else(|| {
            Some(Finding::nothing(format!(
                "`{program} {option}` writes to `{}`, which {why}",
                target.text()
            )))
        }),
    }
}

/// The replace string of `xargs -I R` / `-i[R]` / `--replace[=R]` (and `parallel`'s).
pub(super) fn replace_string(options: &[(String, Option<Word>)]) -> Option<String> {
    options
        .iter()
        .find_map(|(name, value)| match name.as_str() {
            "-I" => value.as_ref().map(|v| v.text().to_owned()),
            "-i" | "--replace" => Some(
                value
                    .as_ref()
                    .map(|v| v.text().to_owned())
                    .filter(|r| !r.is_empty())
                    .unwrap_or_else(|| "{}".to_owned()),
            ),
            _ => None,
        })
}
