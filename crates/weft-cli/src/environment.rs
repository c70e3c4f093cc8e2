//! The one place the binary reads the process: the environment variables, the current
//! directory and this executable's build fingerprint, handed to the libraries as values.

use weft_runtime::{EnvSnapshot, Locations, Workspace};

use crate::cli::LocationArgs;

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
