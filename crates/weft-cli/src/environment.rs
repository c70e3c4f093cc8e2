//! The one place the binary reads the process: the environment variables, the current
//! directory, the arguments (for the sandbox helper) and this executable's build fingerprint,
//! handed to the libraries as values.

use weft_runtime::{EnvSnapshot, Locations, Workspace};
use weft_term::{ColorEnv, Terminal};

use crate::cli::LocationArgs;
use crate::output;

/// The workspace of this invocation: the flags, then the process environment.
pub fn workspace(args: &LocationArgs) -> Workspace {
    let locations = Locations {
        project: args.project.clone(),
        home: args.home.clone(),
        skills_dirs: args.skills_dirs.clone(),
        trust_project: args.trust_project,
        cache_fingerprint: if args.no_cache {
            None
        } else {
            build_fingerprint()
        },
        config: args.config.clone(),
        no_hooks: args.no_hooks,
    };
    Workspace::resolve(&locations, snapshot())
}

/// This invocation's arguments, without the program's name (the sandbox helper reads them
/// before clap does).
#[allow(clippy::disallowed_methods)]
pub fn arguments() -> Vec<std::ffi::OsString> {
    std::env::args_os().skip(1).collect()
}

/// Every environment variable, the current directory, this executable (the sandbox helper)
/// and this process's id, as they are now.
#[allow(clippy::disallowed_methods)]
fn snapshot() -> EnvSnapshot {
    let mut env = EnvSnapshot::from_vars(std::env::vars_os());
    if let Ok(dir) = std::env::current_dir() {
        env = env.with_current_dir(dir);
    }
    if let Ok(exe) = std::env::current_exe() {
        env = env.with_exe(exe);
    }
    env.with_pid(std::process::id())
}

/// This executable's version, size and modification time: header-cache entries written by
/// another build are never trusted.
#[allow(clippy::disallowed_methods)]
fn build_fingerprint() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some(format!(
        "{}:{}:{modified}",
        env!("CARGO_PKG_VERSION"),
        meta.len()
    ))
}

/// What stdout can show: colour and styling, live status, width (see [`terminal`]).
pub fn stdout_terminal() -> Terminal {
    terminal(output::stdout_is_terminal(), output::stdout_columns())
}

/// What stderr can show (logs, errors, tool activity, the status line).
pub fn stderr_terminal() -> Terminal {
    terminal(output::stderr_is_terminal(), output::stderr_columns())
}

/// `CLICOLOR_FORCE` without `NO_COLOR`: weft's colours reach pipes and files too.
#[allow(clippy::disallowed_methods)]
pub fn colour_forced() -> bool {
    let env = ColorEnv::from_vars(|name| std::env::var(name).ok());
    env.force && !env.no_color
}

/// The decision for one stream (`NO_COLOR`, `CLICOLOR_FORCE`, `CLICOLOR`, `TERM`: see
/// [`ColorEnv`]). The width is `COLUMNS` when set (also through a pipe: it is an explicit
/// request, and how the tests fix a width), else the terminal's own; a pipe without
/// `COLUMNS` has no width, so nothing is cut.
#[allow(clippy::disallowed_methods)]
fn terminal(is_terminal: bool, measured: Option<usize>) -> Terminal {
    let var = |name: &str| std::env::var(name).ok();
    let columns = var("COLUMNS").and_then(|c| c.trim().parse::<usize>().ok());
    Terminal::decide(is_terminal, columns.or(measured), &ColorEnv::from_vars(var))
}
