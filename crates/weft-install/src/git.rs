//! Fetching one revision of a git repository with the `git` command, hardened: hooks off,
//! `--depth 1`, no submodules, no prompts, no filters that fetch, and an environment that
//! holds only what the caller passes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
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

/// The variables git may see: how to find programs, the user's git and ssh setup, proxies.
/// Never API keys or anything else from the environment.
pub const GIT_ENV: [&str; 16] = [
    "PATH",
    "HOME",
    "SSH_AUTH_SOCK",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
    "GIT_PROXY_COMMAND",
    "XDG_CONFIG_HOME",
    "GIT_CONFIG_NOSYSTEM",
];

impl GitOptions {
    /// Options whose environment holds only the [`GIT_ENV`] variables `lookup` finds (the
    /// caller reads its environment; this crate never does), with `HOME` set to `home` when
    /// the caller has one.
    pub fn with_env(lookup: impl Fn(&str) -> Option<OsString>, home: Option<&Path>) -> Self {
        let mut env: Vec<(OsString, OsString)> = GIT_ENV
            .iter()
            .filter(|k| **k != "HOME" || home.is_none())
            .filter_map(|k| lookup(k).map(|v| (OsString::from(k), v)))
            .collect();
        if let Some(home) = home {
            env.push(("HOME".into(), home.as_os_str().to_owned()));
        }
        GitOptions {
            env,
            ..GitOptions::default()
        }
    }
}

/// How much a clone may put on disk while git runs: past it, git is killed and the fetch
/// refused ([`InstallError::TooLarge`]), so a huge repository never fills the disk before the
/// package caps apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CloneBudget {
    /// Bytes under the clone directory (objects and work tree).
    pub bytes: u64,
    /// Entries under the clone directory.
    pub entries: u64,
}

impl CloneBudget {
    /// The budget for a package under `limits`: its bytes twice (packed objects and the
    /// checked-out files) plus 1 MiB for git's own files; its entries twice plus 1,000.
    pub fn for_limits(limits: &crate::tree::Limits) -> Self {
        CloneBudget {
            bytes: limits
                .max_total_bytes
                .saturating_mul(2)
                .saturating_add(1024 * 1024),
            entries: (limits.max_files as u64)
                .saturating_mul(2)
                .saturating_add(1000),
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
    watch: Option<(&Path, CloneBudget)>,
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
    let mut child = cmd.spawn().map_err(|source| InstallError::GitRun {
        step,
        program: options.program.clone(),
        source,
    })?;
    // Both outputs are read to their end (a full pipe would stop git) and kept up to a cap:
    // a hostile server can make git print without end (`remote:` lines).
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let wait = async {
        let (stdout, stderr, status) = tokio::join!(
            read_capped(stdout, GIT_OUTPUT_CAP),
            read_capped(stderr, GIT_OUTPUT_CAP),
            child.wait()
        );
        Ok::<_, std::io::Error>(Output {
            status: status?,
            stdout: stdout?,
            stderr: stderr?,
        })
    };
    // Dropping the wait (on a timeout or past the budget) and then the child kills git.
    let output = tokio::select! {
        output = tokio::time::timeout(options.timeout, wait) => output.map_err(|_| InstallError::Git {
            step,
            message: format!("no answer within {} s", options.timeout.as_secs()),
        })?,
        over = over_budget(watch) => return Err(over),
    }
    .map_err(|source| InstallError::GitRun {
        step,
        program: options.program.clone(),
        source,
    })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let message: String = stderr.trim().chars().take(600).collect();
        return Err(InstallError::Git { step, message });
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// The most of each of git's outputs that is kept (the rest is read and dropped).
const GIT_OUTPUT_CAP: usize = 64 * 1024;

/// What a git command left.
struct Output {
    status: std::process::ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Reads `pipe` to its end, keeping the first `cap` bytes.
async fn read_capped(pipe: Option<impl AsyncRead + Unpin>, cap: usize) -> std::io::Result<Vec<u8>> {
    let mut kept = Vec::new();
    let Some(mut pipe) = pipe else {
        return Ok(kept);
    };
    let mut chunk = vec![0u8; 8 * 1024];
    loop {
        let n = pipe.read(&mut chunk).await?;
        if n == 0 {
            return Ok(kept);
        }
        let room = cap - kept.len();
        kept.extend_from_slice(&chunk[..n.min(room)]);
    }
}

/// Resolves when the directory being watched holds more than its budget (checked every
/// 20 ms while git runs); never, without a watch.
async fn over_budget(watch: Option<(&Path, CloneBudget)>) -> InstallError {
    let Some((dir, budget)) = watch else {
        return std::future::pending().await;
    };
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    loop {
        tick.tick().await;
        if let Some(over) = check_budget(dir, budget) {
            return over;
        }
    }
}

/// The refusal when `dir` holds more bytes or entries than `budget` allows.
fn check_budget(dir: &Path, budget: CloneBudget) -> Option<InstallError> {
    let (bytes, entries) = disk_usage(dir, budget);
    if bytes > budget.bytes || entries > budget.entries {
        return Some(InstallError::TooLarge(format!(
            "the repository is larger than the install limits allow (over {} bytes or {} files on disk); git was stopped",
            budget.bytes, budget.entries
        )));
    }
    None
}

/// Bytes and entries under `dir` (links not followed); the count stops a little past the
/// budget, so a tree of millions of files is not walked in full every tick.
fn disk_usage(dir: &Path, budget: CloneBudget) -> (u64, u64) {
    let (mut bytes, mut entries) = (0u64, 0u64);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in read.flatten() {
            entries += 1;
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                bytes = bytes.saturating_add(meta.len());
            }
            if bytes > budget.bytes || entries > budget.entries {
                return (bytes, entries);
            }
        }
    }
    (bytes, entries)
}

/// True for a hexadecimal revision shorter than a full commit id (`3a5f649`): git cannot
/// fetch a commit by a prefix from a remote.
fn is_abbreviated_commit(rev: &str) -> bool {
    (4..40).contains(&rev.len()) && rev.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Fetches `rev` (a branch, tag or full commit id; the remote's HEAD when `None`) of `url`
/// into the empty or absent directory `dest`, checks it out without running anything, and
/// returns the commit id. git is stopped (and the fetch refused) as soon as `dest` holds
/// more than `budget`.
pub async fn fetch_revision(
    url: &str,
    rev: Option<&str>,
    dest: &Path,
    options: &GitOptions,
    budget: CloneBudget,
) -> Result<String, InstallError> {
    if rev.is_some_and(|r| r.starts_with('-')) || url.starts_with('-') {
        return Err(InstallError::BadSource(format!(
            "`{}` looks like an option, not a revision or URL",
            rev.unwrap_or(url)
        )));
    }
    std::fs::create_dir_all(dest).map_err(|e| InstallError::io(dest, e))?;
    let dest_str = dest.to_string_lossy();
    run_git(options, None, "init", &["init", "--quiet", &dest_str], None).await?;
    let wanted = rev.unwrap_or("HEAD");
    let watch = Some((dest, budget));
    let fetched = run_git(
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
        watch,
    )
    .await;
    match fetched {
        Err(InstallError::Git { message, .. })
            if is_abbreviated_commit(wanted) && message.contains("couldn't find remote ref") =>
        {
            return Err(InstallError::BadSource(format!(
                "--ref {wanted}: `{wanted}` looks like an abbreviated commit id, and git can fetch a commit from a remote only by its full 40-character id; give the whole id, a branch or a tag"
            )));
        }
        other => other?,
    };
    run_git(
        options,
        Some(dest),
        "checkout",
        &["checkout", "--quiet", "--detach", "FETCH_HEAD"],
        watch,
    )
    .await?;
    if let Some(over) = check_budget(dest, budget) {
        return Err(over);
    }
    run_git(
        options,
        Some(dest),
        "rev-parse",
        &["rev-parse", "--verify", "HEAD^{commit}"],
        None,
    )
    .await
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn outputs_are_read_to_their_end_and_kept_up_to_the_cap() {
        let data = vec![b'r'; 1 << 20];
        let kept = read_capped(Some(&data[..]), 1000).await.unwrap();
        assert_eq!(kept.len(), 1000);
        assert!(read_capped(None::<&[u8]>, 10).await.unwrap().is_empty());
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_git_that_prints_without_end_is_cut_not_buffered() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        // 64 MiB of `remote:` lines on stderr, then a failure.
        let fake = dir.path().join("git");
        std::fs::write(
            &fake,
            "#!/bin/sh\nyes 'remote: counting objects' | head -c 67108864 >&2\nexit 1\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let options = GitOptions {
            program: fake,
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            timeout: Duration::from_secs(60),
        };
        let err = run_git(&options, None, "fetch", &["fetch"], None)
            .await
            .unwrap_err();
        match err {
            InstallError::Git { step, message } => {
                assert_eq!(step, "fetch");
                assert!(message.starts_with("remote: counting objects"), "{message}");
                assert!(message.chars().count() <= 600);
            }
            other => panic!("{other:?}"),
        }
    }
}
