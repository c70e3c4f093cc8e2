//! Environment variables that change what a program runs or loads (`LD_PRELOAD=`,
//! `GIT_SSH_COMMAND=`, `PATH=`...): setting one is risky. Where the value is a command
//! (`GIT_SSH_COMMAND=`, `PAGER=`, `CC=`), that command is analysed; where it is not
//! (`PATH=`, `LD_PRELOAD=`, `PYTHONPATH=`), the variable may run programs the analyser cannot
//! see. Variables naming where git writes (`GIT_DIR=`) are checked against the project.

use super::analysis::Finding;
use super::paths::{Place, ShellContext, place};
use super::word::Word;

/// Environment variables that change what a program runs or loads.
const RISKY_ENV: &[&str] = &[
    "PATH",
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PROMPT_COMMAND",
    "IFS",
    "SHELL",
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_EXEC_PATH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_CONFIG",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_TEMPLATE_DIR",
    "GIT_PROXY_COMMAND",
    "LESSOPEN",
    "LESSCLOSE",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "RUSTC",
    "RUSTDOC",
    "CC",
    "CXX",
    "MAKEFLAGS",
];
const RISKY_ENV_PREFIXES: &[&str] = &[
    "LD_",
    "DYLD_",
    "GIT_CONFIG_KEY_",
    "GIT_CONFIG_VALUE_",
    "BASH_FUNC_",
    "npm_config_",
    "NPM_CONFIG_",
];

/// Variables whose value is a command some program runs (through a shell, or as a program
/// and its arguments): the value is analysed as commands.
const COMMAND_ENV: &[&str] = &[
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_PROXY_COMMAND",
    "SHELL",
    "RUSTC",
    "RUSTDOC",
    "CC",
    "CXX",
];

/// Variables naming where git reads and writes its repository: checked like a write.
const GIT_PLACES: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_COMMON_DIR",
];

/// What setting the variable of the assignment word `word` (`NAME=value`) does, if it is
/// risky.
pub(super) fn env_finding(word: &Word, ctx: &ShellContext) -> Option<Finding> {
    let (name, value) = word.assignment()?;
    if GIT_PLACES.contains(&name) {
        let target = word.part(value);
        return match place(&target, ctx) {
            Place::Outside(why) => Some(Finding::nothing(format!(
                "`{name}=` points git at `{value}`, which {why}"
            ))),
            _ => None,
        };
    }
    let risky = RISKY_ENV.contains(&name)
        || RISKY_ENV_PREFIXES.iter().any(|p| name.starts_with(p))
        || name.ends_with("_RUNNER")
        || name.ends_with("_WRAPPER");
    if !risky {
        return None;
    }
    let reason = format!("`{name}=` changes what programs run or load");
    let command =
        COMMAND_ENV.contains(&name) || name.ends_with("_RUNNER") || name.ends_with("_WRAPPER");
    Some(if command {
        Finding::shell(reason, format!("{name}="), word.part(value))
    } else {
        Finding::unseen(reason)
    })
}
