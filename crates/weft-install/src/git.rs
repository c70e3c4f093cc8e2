//! Fetching one revision of a git repository with the `git` command, hardened: hooks off,
//! `--depth 1`, no submodules, no prompts, no filters that fetch, and an environment that
//! holds only what the caller passes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::process::Command;

use crate::error::InstallError;

/// How to run git.
#[derive(Debug, Clone)]
pub struct GitOptions {
    /// The program (`git`, or a full path).
    pub program: PathBuf,
    /// The whole environment git runs with (the caller passes `PATH`, `HOME` and
    /// `SSH_AUTH_SOCK` as it sees fit; nothing else is inherited).
    pub env: Vec<(OsString, OsString)>,
    /// Each git command is killed after this long.
    pub timeout: Duration,
}

impl Default for GitOptions {
    fn default() -> Self {
        GitOptions {
            program: PathBuf::from("git"),
            env: Vec::new(),
            timeout: Duration::from_secs(300),
        }
    }
}

/// Settings on every git command: nothing from the package may run.
const HARDENING: [&str; 14] = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "submodule.recurse=false",
    "-c",
    "protocol.ext.allow=never",
    "-c",
    "core.symlinks=true",
    "-c",
    "advice.detachedHead=false",
    "-c",
    "init.templateDir=",
];

async fn run_git(
    options: &GitOptions,
    dir: Option<&Path>,
    step: &'static str,
    args: &[&str],
) -> Result<String, InstallError> {
    let mut cmd = Command::new(&options.program);
    cmd.env_clear()
        .envs(options.env.iter().map(|(k, v)| (k, v)))
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_LFS_SKIP_SMUDGE", "1")
        .env("GCM_INTERACTIVE", "never")
        .args(HARDENING)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let child = cmd.spawn().map_err(|e| InstallError::Git {
        step,
        message: format!("could not run {}: {e}", options.program.display()),
    })?;
    let output = tokio::time::timeout(options.timeout, child.wait_with_output())
        .await
        .map_err(|_| InstallError::Git {
            step,
            message: format!("no answer within {} s", options.timeout.as_secs()),
        })?
        .map_err(|e| InstallError::Git {
            step,
            message: e.to_string(),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let message: String = stderr.trim().chars().take(600).collect();
        return Err(InstallError::Git { step, message });
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Fetches `rev` (a branch, tag or commit; the remote's HEAD when `None`) of `url` into the
/// empty or absent directory `dest`, checks it out without running anything, and returns the
/// commit id.
pub async fn fetch_revision(
    url: &str,
    rev: Option<&str>,
    dest: &Path,
    options: &GitOptions,
) -> Result<String, InstallError> {
    if rev.is_some_and(|r| r.starts_with('-')) || url.starts_with('-') {
        return Err(InstallError::BadSource(format!(
            "`{}` looks like an option, not a revision or URL",
            rev.unwrap_or(url)
        )));
    }
    std::fs::create_dir_all(dest).map_err(|e| InstallError::io(dest, e))?;
    let dest_str = dest.to_string_lossy();
    run_git(options, None, "init", &["init", "--quiet", &dest_str]).await?;
    let wanted = rev.unwrap_or("HEAD");
    run_git(
        options,
        Some(dest),
        "fetch",
        &[
            "fetch",
            "--quiet",
            "--depth",
            "1",
            "--no-tags",
            "--no-recurse-submodules",
            "--",
            url,
            wanted,
        ],
    )
    .await?;
    run_git(
        options,
        Some(dest),
        "checkout",
        &["checkout", "--quiet", "--detach", "FETCH_HEAD"],
    )
    .await?;
    run_git(
        options,
        Some(dest),
        "rev-parse",
        &["rev-parse", "--verify", "HEAD^{commit}"],
    )
    .await
}
