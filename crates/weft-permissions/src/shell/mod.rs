//! The shell-command analyser behind `Bash(...)` patterns.
//!
//! A command is parsed the way bash parses it (lists, pipelines, subshells, groups, `if`,
//! `for`, `while`, `case`, functions, command and process substitution, heredocs, quoting of
//! every kind) into [`SimpleCommand`]s. Wrappers are looked through (`env`, `command`,
//! `builtin`, `exec`, `nice`, `nohup`, `timeout`, `time`, `sudo`, `doas`, `xargs`, `stdbuf`,
//! `setsid`, `ionice`, `busybox`), the strings of `sh -c` / `bash -lc` / `eval` / `trap` /
//! `alias` and the commands of `find -exec` are analysed as commands too, and program paths
//! are compared by their basename (`/bin/rm` is `rm`).
//!
//! What cannot be seen through is reported, never guessed: a program name that is not literal
//! (`$CMD`, `$(echo rm)`), a non-literal `sh -c` string, a syntax error, arithmetic on variables
//! (an array subscript in a variable runs a command when evaluated). Risky things are reported
//! too: options that run other programs or write files (`git -c`, `find -exec`, `sed -i`,
//! `tar --to-command`, `rsync -e`...), writes outside the project, environment variables such
//! as `LD_PRELOAD=` or `GIT_SSH_COMMAND=`.
//!
//! The parser is written for this job (see `docs/PERMISSIONS.md` for why no grammar crate was
//! adequate): it allocates only for the words it keeps, nests at most 32 levels, and reads at
//! most 64 KiB.

mod analysis;
mod compound;
mod environment;
mod globals;
mod helpers;
mod lex;
mod option_table;
mod parse;
mod paths;
mod risky;
mod runners;
mod scripts;
mod walk;
mod word;
mod wrappers;

pub use analysis::{CommandAnalysis, Context, Risk, SimpleCommand, Unanalysable};
pub use helpers::{Helper, READ_ONLY_HELPERS};
pub use paths::ShellContext;
pub use word::Word;

pub(crate) use analysis::{Kind, basename};
pub(crate) use globals::match_args;

/// The names of the wrappers the analyser looks through, in table order.
pub fn wrapper_names() -> impl Iterator<Item = &'static str> {
    wrappers::WRAPPERS.iter().map(|w| w.name)
}

/// Analyses a shell command: its simple commands, the parts that cannot be analysed, and the
/// risky things in it. Never fails and never panics: whatever cannot be parsed is reported
/// in [`CommandAnalysis::unanalysable`].
///
/// ```
/// use weft_permissions::{ShellContext, analyse_command};
///
/// let analysis = analyse_command("env -i PATH=/x /bin/rm -rf build", &ShellContext::new());
/// let rm = &analysis.commands()[0];
/// assert_eq!(rm.program(), "rm");
/// assert_eq!(rm.wrappers(), ["env"]);
/// assert_eq!(analysis.risks()[0].reason(), "`PATH=` changes what programs run or load");
/// ```
pub fn analyse_command(command: &str, ctx: &ShellContext) -> CommandAnalysis {
    walk::analyse(command, ctx)
}

/// At most 120 characters of `text`, on one line.
pub(crate) fn shorten(text: &str) -> String {
    crate::spec::shorten(text)
}
