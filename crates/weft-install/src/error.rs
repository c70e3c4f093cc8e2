//! Why an install, update, removal or verification did not happen.

use std::path::PathBuf;

use weft_scan::Finding;
use weft_types::Diagnostic;

/// Everything that can go wrong, each with the reason a user needs.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// SOURCE names nothing weft can install from.
    #[error("{0}")]
    BadSource(String),
    /// `--ref` was given for a source that has no revisions.
    #[error("--ref applies to git sources only; {0} is not one")]
    RefWithoutGit(String),
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The package breaks a safety rule (zip-slip, link leaving the package, device file...).
    #[error("refused: {path}: {reason}")]
    Unsafe {
        /// The entry, as named in the package.
        path: String,
        /// Which rule it breaks.
        reason: String,
    },
    /// The package is larger than the limits allow.
    #[error("refused: {0}")]
    TooLarge(String),
    /// An archive could not be read.
    #[error("{what}: {reason}")]
    Archive {
        /// The archive.
        what: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `git` failed.
    #[error("git {step} failed: {message}")]
    Git {
        /// `fetch`, `checkout`, ...
        step: &'static str,
        /// git's own words (stderr, shortened), or what weft found wrong.
        message: String,
    },
    /// `git` could not be started or waited for.
    #[error("git {step}: could not run {}: {source}", program.display())]
    GitRun {
        /// `fetch`, `checkout`, ...
        step: &'static str,
        /// The program.
        program: PathBuf,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// A download failed.
    #[error("download of {url} failed: {reason}")]
    Download {
        /// The URL.
        url: String,
        /// Status or transport error.
        reason: String,
    },
    /// `--path` does not name a directory inside the source (absolute, or climbing out
    /// with `..`).
    #[error("--path {path}: {reason}")]
    BadSubpath {
        /// The path as given.
        path: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// The source holds no skill (under `--path`, when given).
    #[error("no skill found in {0} (a skill is a directory with a SKILL.md or skill.json)")]
    NoSkills(String),
    /// The source holds several skills and none was chosen.
    #[error("{source_name} holds {} skills; choose with --skill NAME or take them all with --all", available.len())]
    ChooseSkills {
        /// The source.
        source_name: String,
        /// `(name, directory in the source)` of each skill.
        available: Vec<(String, String)>,
    },
    /// `--skill NAME` names no skill of the source.
    #[error("{source_name} has no skill named `{name}` (it has: {})", available.join(", "))]
    UnknownSkill {
        /// The source.
        source_name: String,
        /// The name asked for.
        name: String,
        /// The names it has.
        available: Vec<String>,
    },
    /// Two skills of the source have the same name.
    #[error("two skills in the source are named `{0}`")]
    DuplicateName(String),
    /// A selected skill does not pass validation.
    #[error("skill `{name}` ({dir}) is invalid: {} error(s)", diagnostics.iter().filter(|d| d.is_error()).count())]
    InvalidSkill {
        /// The best name known.
        name: String,
        /// Its directory in the source.
        dir: String,
        /// Every diagnostic.
        diagnostics: Vec<Diagnostic>,
    },
    /// The destination exists and `--force` was not given.
    #[error("skill `{name}` is already installed at {}; rerun with --force to replace it", path.display())]
    AlreadyInstalled {
        /// The skill.
        name: String,
        /// Its directory.
        path: PathBuf,
    },
    /// The scan found high-severity problems and `--force` was not given.
    #[error("refused: skill `{name}` has {} high-severity finding(s); rerun with --force to install anyway", findings.len())]
    Refused {
        /// The skill.
        name: String,
        /// The high-severity findings.
        findings: Vec<Finding>,
    },
    /// The installed copy was changed since it was installed and an update would overwrite
    /// the changes; `--force` overwrites them.
    #[error(
        "refused: skill `{name}` was changed here since it was installed ({}); the update would overwrite that: rerun with --force to overwrite, or keep your copy and leave it out of the update",
        files.join(", ")
    )]
    LocallyModified {
        /// The skill.
        name: String,
        /// What differs from the lock: `modified SKILL.md`, `added run.sh`, `removed x`.
        files: Vec<String>,
    },
    /// The lockfile is not a regular file weft will read (a FIFO, a device, a link out of
    /// `.clawft`, too large) or could not be read.
    #[error("cannot read {}: {}", path.display(), source.reason())]
    LockfileUnreadable {
        /// The lockfile.
        path: PathBuf,
        /// Why.
        #[source]
        source: weft_fs::ReadError,
    },
    /// The lockfile does not parse.
    #[error("{}: not a valid skills.lock: {source}", path.display())]
    BadLockfile {
        /// The lockfile.
        path: PathBuf,
        /// The parser's message (with line and column).
        #[source]
        source: serde_json::Error,
    },
    /// The lockfile parses but says something weft will not act on (a skill name that is
    /// not one, another format version).
    #[error("{}: not a valid skills.lock: {reason}", path.display())]
    InvalidLockfile {
        /// The lockfile.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A directory weft writes into is not what it must be (a link, a file).
    #[error("refused: {}: {reason}", path.display())]
    UnsafeTarget {
        /// The directory.
        path: PathBuf,
        /// Why it is not written into.
        reason: String,
    },
    /// The target's lock file (`.clawft/.staging/lock`) is not a regular file.
    #[error("refused: the lock file {}", source)]
    TargetLock {
        /// Why.
        #[source]
        source: weft_fs::ReadError,
    },
    /// What a source gives now is not what the lockfile pins (`install` from the lockfile).
    #[error(
        "refused: skill `{name}`: {what} is {found}, but skills.lock pins {expected}; nothing was written (run `weft skills update {name}` to move to what the source has now)"
    )]
    PinMismatch {
        /// The skill.
        name: String,
        /// `the tree SHA-256`, `the archive SHA-256`.
        what: &'static str,
        /// What the lock says.
        expected: String,
        /// What was fetched.
        found: String,
    },
    /// A skill to update or remove has no lock entry.
    #[error("skill `{name}` was not installed by weft (no entry in {})", lock.display())]
    NotInstalled {
        /// The skill.
        name: String,
        /// The lockfile looked in.
        lock: PathBuf,
    },
    /// The updated source no longer has the skill.
    #[error("{source_name} no longer has a skill named `{name}`")]
    SkillGone {
        /// The source.
        source_name: String,
        /// The skill.
        name: String,
    },
}

impl InstallError {
    /// An I/O error about `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        InstallError::Io {
            path: path.into(),
            source,
        }
    }

    /// A safety refusal about package entry `path`.
    pub fn unsafe_entry(path: impl Into<String>, reason: impl Into<String>) -> Self {
        InstallError::Unsafe {
            path: path.into(),
            reason: reason.into(),
        }
    }
}
