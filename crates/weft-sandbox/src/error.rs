//! The one error type of the crate.

use std::path::PathBuf;

/// Why a policy could not be built, sent or enforced.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The policy (or the settings it came from) is inconsistent.
    #[error("sandbox policy: {0}")]
    Policy(String),
    /// A path in the policy cannot be used.
    #[error("sandbox policy: {}: {reason}", path.display())]
    Path {
        /// The path.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A path in the policy cannot be resolved (a writable root that exists but cannot be
    /// read, say).
    #[error("sandbox policy: {}: {source}", path.display())]
    PathIo {
        /// The path.
        path: PathBuf,
        /// Why it cannot be resolved.
        #[source]
        source: std::io::Error,
    },
    /// A system call the sandbox needs failed.
    #[error("sandbox unavailable: {what}: {source}")]
    System {
        /// What was being done ("dropping capabilities").
        what: &'static str,
        /// The kernel's answer.
        #[source]
        source: rustix::io::Errno,
    },
    /// The policy could not be encoded or decoded.
    #[error("sandbox policy: {0}")]
    Json(#[from] serde_json::Error),
    /// The kernel lacks what the policy needs.
    #[error("sandbox unavailable: {0}")]
    Unavailable(String),
    /// Landlock refused the ruleset.
    #[error("Landlock: {0}")]
    Landlock(#[from] landlock::RulesetError),
    /// The helper's command line cannot be read ([`run_helper`](crate::run_helper)).
    #[error("sandbox helper: {0}")]
    HelperArgs(String),
    /// The seccomp filter could not be built or installed.
    #[error("seccomp: {0}")]
    Seccomp(#[from] seccompiler::Error),
}
