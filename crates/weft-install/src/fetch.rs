//! From a [`Source`] to a package tree in memory, with what the source resolved to.

use std::path::PathBuf;
use std::time::Duration;

use sha2::{Digest, Sha256};
use weft_scan::Package;

use crate::archive::read_archive;
use crate::download::download;
use crate::error::InstallError;
use crate::git::{CloneBudget, GitOptions, fetch_revision};
use crate::local::{read_dir_tree, read_regular};
use crate::source::Source;
use crate::target::InstallTarget;
use crate::tree::Limits;

/// How sources are fetched.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// Size caps for the package.
    pub limits: Limits,
    /// How git runs.
    pub git: GitOptions,
    /// Where temporary clones go (removed afterwards); on the same file system as the
    /// skills directory is best.
    pub work_dir: PathBuf,
    /// Timeout of a download.
    pub http_timeout: Duration,
}

impl FetchOptions {
    /// Defaults for installing into `target`, with git run as `git` says: temporary clones
    /// go under the target's staging directory (created, and refused when it is a link).
    pub fn for_target(target: &InstallTarget, git: GitOptions) -> Result<Self, InstallError> {
        Ok(FetchOptions {
            git,
            ..FetchOptions::new(target.prepare_staging()?)
        })
    }

    /// Defaults, with temporary clones under `work_dir`.
    pub fn new(work_dir: impl Into<PathBuf>) -> Self {
        FetchOptions {
            limits: Limits::default(),
            git: GitOptions::default(),
            work_dir: work_dir.into(),
            http_timeout: Duration::from_secs(120),
        }
    }
}

/// What a source resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// A directory: nothing to pin.
    Local,
    /// A git commit id.
    Commit(String),
    /// The SHA-256 of the archive's bytes.
    Archive(String),
}

/// A fetched source.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Where it came from.
    pub source: Source,
    /// The revision asked for (`--ref`).
    pub requested_ref: Option<String>,
    /// What it resolved to.
    pub resolved: Resolved,
    /// Its files.
    pub tree: Package,
}

/// Fetches `source` (at `rev`, for git) into memory. Nothing from the source runs: git hooks
/// are off, archives are read, not extracted, and directories are read file by file.
pub async fn fetch(
    source: &Source,
    rev: Option<&str>,
    options: &FetchOptions,
) -> Result<Fetched, InstallError> {
    if rev.is_some() && !matches!(source, Source::Git(_)) {
        return Err(InstallError::RefWithoutGit(source.to_string()));
    }
    let (resolved, tree) = match source {
        Source::Local(dir) => (Resolved::Local, read_dir_tree(dir, options.limits)?),
        Source::Git(url) => fetch_git(url, rev, options).await?,
        Source::ArchiveFile(path, format) => {
            let max = options.limits.max_total_bytes;
            let (bytes, _) = read_regular(path, &path.display().to_string(), max)?;
            if bytes.len() as u64 > max {
                return Err(InstallError::TooLarge(format!(
                    "{} is larger than {max} bytes",
                    path.display()
                )));
            }
            let what = path.display().to_string();
            let tree = read_archive(&bytes, *format, &what, options.limits)?;
            (Resolved::Archive(sha256_hex(&bytes)), tree)
        }
        Source::ArchiveUrl(url, format) => {
            let bytes = download(url, options.limits.max_total_bytes, options.http_timeout).await?;
            let tree = read_archive(&bytes, *format, url, options.limits)?;
            (Resolved::Archive(sha256_hex(&bytes)), tree)
        }
    };
    Ok(Fetched {
        source: source.clone(),
        requested_ref: rev.map(str::to_owned),
        resolved,
        tree,
    })
}

async fn fetch_git(
    url: &str,
    rev: Option<&str>,
    options: &FetchOptions,
) -> Result<(Resolved, Package), InstallError> {
    std::fs::create_dir_all(&options.work_dir)
        .map_err(|e| InstallError::io(&options.work_dir, e))?;
    let dest = unique_dir(&options.work_dir, "clone");
    let result = async {
        let budget = CloneBudget::for_limits(&options.limits);
        let commit = fetch_revision(url, rev, &dest, &options.git, budget).await?;
        let tree = read_dir_tree(&dest, options.limits)?;
        Ok((Resolved::Commit(commit), tree))
    }
    .await;
    if let Err(e) = std::fs::remove_dir_all(&dest) {
        tracing::warn!(dir = %dest.display(), error = %e, "could not remove a temporary clone");
    }
    result
}

/// A fresh path under `parent` (`<prefix>-<pid>-<n>`).
pub(crate) fn unique_dir(parent: &std::path::Path, prefix: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let candidate = parent.join(format!("{prefix}-{}-{n}", std::process::id()));
        if std::fs::symlink_metadata(&candidate).is_err() {
            return candidate;
        }
    }
}

/// Lower-case hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
