//! What goes wrong with a plugin, a marketplace or a record of them: each error names the
//! file, a line and column where one exists, and the reason.

use std::path::{Path, PathBuf};

/// A plugin file, marketplace file or record that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// The file could not be read (missing, not a regular file, too large, a link out).
    #[error("{}: {reason}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
        /// The underlying error.
        #[source]
        source: weft_fs::ReadError,
    },
    /// The file is not JSON.
    #[error("{}:{line}:{column}: not valid JSON: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The file is JSON but says something weft cannot use (a field of the wrong type, a
    /// missing name, a path leaving the plugin).
    #[error("{}: {reason}", path.display())]
    Invalid {
        /// The file (or the marketplace file an entry is in).
        path: PathBuf,
        /// What is wrong, naming the field.
        reason: String,
    },
}

impl PluginError {
    /// An [`Invalid`](Self::Invalid) error.
    pub fn invalid(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        PluginError::Invalid {
            path: path.into(),
            reason: reason.into(),
        }
    }

    /// True when the file does not exist at all (as opposed to existing and being wrong).
    pub fn is_missing(&self) -> bool {
        matches!(self, PluginError::Read { source, .. } if source.is_not_found())
    }

    /// The same error about the file at `to` instead of under `from` (a plugin read in a
    /// staging directory, named as the person knows it).
    pub fn rebased(self, from: &Path, to: &Path) -> Self {
        match self {
            PluginError::Read {
                path,
                reason,
                source,
            } => PluginError::Read {
                path: rebase(path, from, to),
                reason,
                source,
            },
            PluginError::Json {
                path,
                line,
                column,
                message,
            } => PluginError::Json {
                path: rebase(path, from, to),
                line,
                column,
                message,
            },
            PluginError::Invalid { path, reason } => PluginError::Invalid {
                path: rebase(path, from, to),
                reason,
            },
        }
    }
}

/// `path` under `to` when it is under `from`, else unchanged.
fn rebase(path: PathBuf, from: &Path, to: &Path) -> PathBuf {
    match path.strip_prefix(from) {
        Ok(rest) => to.join(rest),
        Err(_) => path,
    }
}

/// Something about a plugin weft reports without refusing it: a component it does not
/// support, a path that names nothing, a hook file named twice.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PluginWarning {
    /// The file it is about, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// What it is.
    pub message: String,
}

impl PluginWarning {
    /// A warning about `path`.
    pub fn at(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        PluginWarning {
            path: Some(path.into()),
            message: message.into(),
        }
    }

    /// The same warning about the file at `to` instead of under `from` (see
    /// [`PluginError::rebased`]).
    pub fn rebased(self, from: &Path, to: &Path) -> Self {
        PluginWarning {
            path: self.path.map(|p| rebase(p, from, to)),
            message: self.message,
        }
    }

    /// A warning about no file in particular.
    pub fn new(message: impl Into<String>) -> Self {
        PluginWarning {
            path: None,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for PluginWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}: {}", p.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}
