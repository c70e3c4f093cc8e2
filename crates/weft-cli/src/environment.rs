//! The one place the binary reads the process: the environment variables, the current
//! directory and this executable's build fingerprint, handed to the libraries as values.

use std::io::IsTerminal;

use weft_runtime::{EnvSnapshot, Locations, Workspace};
use weft_term::{ColorEnv, Terminal};

use crate::cli::LocationArgs;

/// The workspace of this invocation: the flags, then the process environment.
pub fn workspace(args: &LocationArgs) -> Workspace {
    let locations = Locations {
        project: args.project.clone(),
        home: args.home.clone(),
        skills_dirs: args.skills_dirs.clone(),
        trust_project_skills: args.trust_project_skills,
        cache_fingerprint: if args.no_cache {
            None
        } else {
            build_fingerprint()
        },
        config: args.config.clone(),
    };
    Workspace::resolve(&locations, snapshot())
}

/// Every environment variable, the current directory and this executable (the sandbox
/// helper), as they are now.
#[allow(clippy::disallowed_methods)]
fn snapshot() -> EnvSnapshot {
    let mut env = EnvSnapshot::from_vars(std::env::vars_os());
    if let Ok(dir) = std::env::current_dir() {
        env = env.with_current_dir(dir);
    }
    if let Ok(exe) = std::env::current_exe() {
        env = env.with_exe(exe);
    }
    env
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
    let out = std::io::stdout();
    terminal(out.is_terminal(), rustix::termios::tcgetwinsize(&out).ok())
}

/// What stderr can show (logs, errors, tool activity, the status line).
pub fn stderr_terminal() -> Terminal {
    let err = std::io::stderr();
    terminal(err.is_terminal(), rustix::termios::tcgetwinsize(&err).ok())
}

/// The decision for one stream. The width is `COLUMNS` when set (also through a pipe: it is
/// an explicit request, and how the tests fix a width), else the terminal's own; a pipe
/// without `COLUMNS` has no width, so nothing is cut.
#[allow(clippy::disallowed_methods)]
fn terminal(is_terminal: bool, size: Option<rustix::termios::Winsize>) -> Terminal {
    let var = |name: &str| std::env::var(name).ok();
    let columns = var("COLUMNS").and_then(|c| c.trim().parse::<usize>().ok());
    let measured = size.map(|s| usize::from(s.ws_col)).filter(|_| is_terminal);
    Terminal::decide(is_terminal, columns.or(measured), &ColorEnv::from_vars(var))
}
