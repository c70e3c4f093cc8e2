//! The errors of this crate. As everywhere in weft, a message names the context (the file,
//! the setting) and ends with its cause, which is also the error's `source`.

use std::path::PathBuf;

/// Why the configuration cannot be used. Each message names the file (and the line and
/// column of a JSON error); the cause is the error's source.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A file that exists (or must exist) cannot be read: missing, not a regular file, on a
    /// pseudo-filesystem, over the size cap.
    #[error("{}: cannot read: {}", path.display(), source.reason())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: weft_fs::ReadError,
    },
    /// A file is not valid UTF-8.
    #[error("{}: cannot read: not valid UTF-8", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// A file is not JSON.
    #[error("{}:{line}:{column}: invalid JSON: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's error.
        #[source]
        source: serde_json::Error,
    },
    /// A file is JSON but not an object.
    #[error("{}: the configuration must be a JSON object", path.display())]
    NotAnObject {
        /// The file.
        path: PathBuf,
    },
    /// The merged files do not fit the schema (a wrong type, a missing value).
    #[error("configuration ({}): {source}{hint}", display_paths(files))]
    Schema {
        /// The files that were merged.
        files: Vec<PathBuf>,
        /// What does not fit.
        #[source]
        source: serde_json::Error,
        /// `; did you mean ...?`, or empty.
        hint: String,
    },
    /// A file has a key weft does not know.
    #[error("{}{}: `{key}`: {source}{hint}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    UnknownKey {
        /// The file that writes the key.
        path: PathBuf,
        /// The line it is written on, when it can be found in the text.
        line: Option<usize>,
        /// The key's dotted path (`mcp_servers.github.argz`).
        key: String,
        /// serde's message, with the keys expected there.
        #[source]
        source: serde_json::Error,
        /// `; did you mean `args`?`, or empty.
        hint: String,
    },
    /// A replay provider without `file`.
    #[error("provider `{provider}`: a replay provider needs `file`")]
    ReplayWithoutFile {
        /// The provider.
        provider: String,
    },
    /// A value of the right type that weft cannot use (a threshold above 1, a negative
    /// price).
    #[error("configuration ({}): `{key}`: {reason}", display_paths(files))]
    InvalidValue {
        /// The files that were merged.
        files: Vec<PathBuf>,
        /// The key's dotted path.
        key: String,
        /// What is wrong, with the value.
        reason: String,
    },
}

fn display_paths(files: &[PathBuf]) -> String {
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    names.join(" + ")
}

/// A mistake in how weft was invoked or configured (an unknown agent, a bad `tools.deny`
/// pattern, no provider): the `weft` binary exits with 2 for it. A mistake found by another
/// error (a pattern that does not compile) keeps that error as its source, and its message
/// ends with it, as every weft error's does.
///
/// ```
/// use std::error::Error;
/// use weft_runtime::UsageError;
///
/// let cause = "x".parse::<u8>().unwrap_err();
/// let err = UsageError::caused("config `x`", cause);
/// assert_eq!(err.to_string(), "config `x`: invalid digit found in string");
/// assert!(err.source().is_some());
/// assert_eq!(UsageError::new("the message is empty").to_string(), "the message is empty");
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    message: String,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl UsageError {
    /// A mistake that `message` explains on its own.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            source: None,
        }
    }

    /// A mistake `source` found in what `context` names (`config `tools.deny``): the message
    /// is `context: source`.
    pub fn caused(
        context: impl std::fmt::Display,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        let source = source.into();
        Self {
            message: format!("{context}: {source}"),
            source: Some(source),
        }
    }

    /// A mistake `source` explains on its own: its message is the source's.
    pub fn from_error(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        let source = source.into();
        Self {
            message: source.to_string(),
            source: Some(source),
        }
    }
}

/// Why a runtime cannot be assembled.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The configuration cannot be used.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A usage mistake (see [`UsageError`]).
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// There is no project and the caller passed no current directory.
    #[error("cannot determine the current directory")]
    NoCurrentDirectory,
    /// The directory file tools work in (or one of `tools.allow_paths`) cannot be used.
    #[error("cannot use {} as the workspace: {source}", path.display())]
    Scope {
        /// The project (or current) directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The transcript of the session to resume cannot be read.
    #[error(transparent)]
    Transcript(#[from] weft_agents::transcript::TranscriptError),
    /// The session cannot be created (an unknown model, agent tool patterns that do not
    /// compile...).
    #[error(transparent)]
    Session(#[from] weft_agents::SessionError),
}

impl RuntimeError {
    /// True for mistakes in the invocation or the configuration ([`UsageError`],
    /// [`ConfigError`]): the `weft` binary exits with 2 for them.
    pub fn is_usage(&self) -> bool {
        matches!(self, RuntimeError::Usage(_) | RuntimeError::Config(_))
    }
}
