//! Environment variables a command sets, judged by an allow-list: a variable weft knows to be
//! harmless (locale, time zone, colour and terminal settings, log and backtrace levels) is
//! fine; any other may change what a program runs, loads, reads or writes (`LD_PRELOAD=`,
//! `HOME=` pointing git at a committed `.gitconfig`, `CDPATH=`, `PAGER=`, `GIT_DIR=`,
//! `PYTHONWARNINGS=` importing a module...), so setting it is a risk that may run a program
//! the analyser cannot see. Where the value is a command (`GIT_SSH_COMMAND=`, `PAGER=`,
//! `CC=`), that command is analysed too.
//!
//! Which assignments reach a program's environment: `NAME=value cmd`, `export`, `declare -x`,
//! `env NAME=value`, `strace -E`; all of these are judged by the allow-list. A bare
//! `name=value` sets a shell variable, which a program sees only when the name is already
//! exported, so it is judged by name: all capitals (the convention of inherited variables) or
//! a proxy variable, and not on the allow-list, is a risk; `i=0` or `file=x` is not.

use super::analysis::Finding;
use super::paths::{Place, ShellContext, place, project_path};
use super::word::Word;

/// Variables that change how programs format or report, not what they run, load, read or
/// write. `LC_*` too.
#[rustfmt::skip]
pub const SAFE_VARIABLES: &[&str] = &[
    "LANG", "LANGUAGE", "TZ", "TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
    "FORCE_COLOR", "COLUMNS", "LINES", "CI", "TIMEFORMAT", "GREP_COLOR", "GREP_COLORS",
    "LS_COLORS", "TIME_STYLE", "QUOTING_STYLE", "RUST_BACKTRACE", "RUST_LIB_BACKTRACE",
    "RUST_LOG", "RUST_LOG_STYLE", "RUST_MIN_STACK", "RUST_TEST_THREADS", "RUST_TEST_NOCAPTURE",
    "CARGO_TERM_COLOR", "CARGO_TERM_VERBOSE", "CARGO_TERM_QUIET", "CARGO_TERM_PROGRESS_WHEN",
    "CARGO_INCREMENTAL", "CARGO_BUILD_JOBS", "NODE_ENV", "NODE_NO_WARNINGS",
    "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONHASHSEED", "PYTHONIOENCODING",
    "PYTHONUTF8", "GIT_TERMINAL_PROMPT", "DEBIAN_FRONTEND",
];

/// Prefixes of harmless variables.
const SAFE_PREFIXES: &[&str] = &["LC_"];

/// Lower-case variables programs read (curl, wget, pip...): never harmless.
const LOWER_CASE_ENV: &[&str] = &[
    "http_proxy",
    "https_proxy",
    "ftp_proxy",
    "all_proxy",
    "no_proxy",
];

/// Variables whose value is a command some program runs (through a shell, or as a program
/// and its arguments): the value is analysed as commands.
#[rustfmt::skip]
const COMMAND_ENV: &[&str] = &[
    "PAGER", "GIT_PAGER", "MANPAGER", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
    "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS",
    "GIT_PROXY_COMMAND", "SHELL", "RUSTC", "RUSTDOC", "RUSTC_WRAPPER", "CC", "CXX",
];

/// Variables naming another git repository, whose configuration can name programs git runs:
/// fine only when they name the project's own.
const GIT_REPOSITORY: &[&str] = &["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"];

/// Variables naming where git writes: checked against the project like a write.
const GIT_PLACES: &[&str] = &["GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"];

/// Where an assignment puts its variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A program's environment (`NAME=v cmd`, `export`, `env NAME=v`).
    Environment,
    /// A shell variable (`name=v` alone, `local`, `declare` without `-x`).
    Shell,
}

/// True for a variable weft knows to be harmless.
pub(crate) fn is_safe(name: &str) -> bool {
    SAFE_VARIABLES.contains(&name) || SAFE_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// What setting the variable of the assignment word `word` (`NAME=value`) in `scope` does, if
/// it is risky.
pub(super) fn env_finding(word: &Word, ctx: &ShellContext, scope: Scope) -> Option<Finding> {
    let (name, value) = word.assignment()?;
    if is_safe(name) {
        return None;
    }
    if scope == Scope::Shell
        && name.bytes().any(|b| b.is_ascii_lowercase())
        && !LOWER_CASE_ENV.contains(&name)
    {
        return None;
    }
    let target = word.part(value);
    if GIT_PLACES.contains(&name) {
        return match place(&target, ctx) {
            Place::Outside(why) => Some(Finding::nothing(format!(
                "`{name}=` points git at `{value}`, which {why}"
            ))),
            _ => None,
        };
    }
    if GIT_REPOSITORY.contains(&name) {
        let own = match name {
            "GIT_WORK_TREE" => is_project_root(&target, ctx),
            _ => is_project_git_dir(&target, ctx),
        };
        return (!own).then(|| {
            Finding::unseen(format!(
                "`{name}=` points git at `{value}`, another repository whose configuration can run programs"
            ))
        });
    }
    if COMMAND_ENV.contains(&name) || name.ends_with("_RUNNER") || name.ends_with("_WRAPPER") {
        let reason = format!("`{name}=` changes what programs run");
        return Some(Finding::shell(reason, format!("{name}="), target));
    }
    Some(Finding::unseen(format!(
        "`{name}=` may change what programs run or load: it is not one of the variables weft knows to be harmless"
    )))
}

/// True when `word` names the project root.
pub(crate) fn is_project_root(word: &Word, ctx: &ShellContext) -> bool {
    project_path(word, ctx).is_some_and(|parts| parts.is_empty())
}

/// True when `word` names the project's own `.git`.
fn is_project_git_dir(word: &Word, ctx: &ShellContext) -> bool {
    project_path(word, ctx).is_some_and(|parts| parts == [".git"])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn risky(text: &str, scope: Scope) -> bool {
        let ctx = ShellContext::new().with_project_root("/p");
        env_finding(&Word::literal(text), &ctx, scope).is_some()
    }

    #[test]
    fn only_listed_variables_are_harmless() {
        for safe in [
            "LANG=C",
            "LC_ALL=C",
            "TZ=UTC",
            "RUST_LOG=debug",
            "NO_COLOR=1",
        ] {
            assert!(!risky(safe, Scope::Environment), "{safe}");
        }
        for bad in [
            "HOME=.",
            "CDPATH=/",
            "XDG_CONFIG_HOME=.",
            "GIT_CONFIG_GLOBAL=x",
            "PAGER=less",
            "EDITOR=vi",
            "TMPDIR=/tmp/x",
            "PYTHONWARNINGS=ignore::x.Y",
            "x=1",
            "GIT_DIR=/tmp/r",
            "GIT_DIR=sub/.git",
            "GIT_WORK_TREE=sub",
        ] {
            assert!(risky(bad, Scope::Environment), "{bad}");
        }
        assert!(!risky("GIT_DIR=.git", Scope::Environment));
        assert!(!risky("GIT_DIR=/p/.git", Scope::Environment));
        assert!(!risky("GIT_WORK_TREE=.", Scope::Environment));
        // Shell variables: only names that may be inherited and exported.
        assert!(!risky("i=0", Scope::Shell));
        assert!(!risky("file=x", Scope::Shell));
        assert!(risky("https_proxy=x", Scope::Shell));
        assert!(risky("HOME=.", Scope::Shell));
        assert!(risky("FOO=1", Scope::Shell));
    }
}
