//! The Tool trait and what a call returns.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;

/// A tool an agent can call. Tools are configured when they are built (workspace roots,
/// timeouts); a call receives only the model's input.
///
/// Tools never check permissions themselves: the agent loop asks the gate before `call`.
/// What a tool does enforce is its own confinement (file tools stay inside their roots).
#[async_trait]
pub trait Tool: Send + Sync {
    /// The name the model calls it by (`read_file`).
    fn name(&self) -> &str;

    /// One or two sentences for the model.
    fn description(&self) -> &str;

    /// JSON Schema of the input object.
    fn input_schema(&self) -> serde_json::Value;

    /// True when the tool says it only reads: an MCP server's `readOnlyHint` annotation
    /// (trusted because the user configured the server). Permission modes let a read-only tool
    /// run without asking. Built-in tools are classified by their name
    /// (`weft_permissions::CallKind`), not by this.
    fn read_only_hint(&self) -> bool {
        false
    }

    /// What bounds the tool's call when no person approved it to run outside the sandbox
    /// (`exec_shell`'s sandbox). Default: [`Sandboxing::None`].
    fn sandboxing(&self) -> Sandboxing {
        Sandboxing::None
    }

    /// True when the tool runs a call judged read-only ([`CallContext::read_only`]) in a
    /// sandbox of its own that writes nothing and reads nothing of the home directory but
    /// the project (`exec_shell` with a [reading launcher](crate::ExecConfig::reading)).
    /// Default: false.
    fn has_read_only_sandbox(&self) -> bool {
        false
    }

    /// What the tool would refuse whatever the permissions, checked before anyone is asked to
    /// approve the call: a path outside the directories it may touch. Asking a person (or
    /// telling the user how to allow it) is pointless for such a call. Default: nothing.
    fn check_reach(&self, _input: &serde_json::Value) -> Result<(), ToolError> {
        Ok(())
    }

    /// Runs the tool.
    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError>;

    /// Runs the tool with what the caller says about this call ([`CallContext`]). Tools that
    /// visit many files (`grep`, `glob`, `list_directory`) honour its file filter; the others
    /// run as [`call`](Self::call).
    async fn call_in(
        &self,
        input: serde_json::Value,
        _context: &CallContext,
    ) -> Result<ToolOutput, ToolError> {
        self.call(input).await
    }
}

/// Decides which files a search may read or name: the session's permission rules for each
/// file a search tool visits (the gate judged the call on the directory it searches; what is
/// inside, links included, is judged file by file here).
pub trait FileFilter: Send + Sync {
    /// True when the file reached at `spelled` (absolute; links on the way not resolved) and
    /// really at `real` (links resolved) may be shown.
    fn admits(&self, spelled: &Path, real: &Path) -> bool;
}

/// What bounds a tool's calls that no person approved to run outside the sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Sandboxing {
    /// Nothing: the call runs as it is (every tool but a sandboxed `exec_shell`; `exec_shell`
    /// in `bypass`, or with the sandbox switched off).
    #[default]
    None,
    /// The OS sandbox; a person approving the exact call may choose to run it outside
    /// ([`CallContext::outside_sandbox`]).
    Sandboxed,
    /// The sandbox, which is unavailable here (why): the call runs only when a person
    /// approved it, and then outside the sandbox.
    Unavailable(String),
}

/// What the caller tells a tool about one call.
#[derive(Clone, Default)]
pub struct CallContext {
    /// Which files a search may show; `None`: every file inside the tool's scope. A refused
    /// file is skipped, and the result says how many were withheld.
    pub files: Option<Arc<dyn FileFilter>>,
    /// A person approved this exact call and chose to run it outside the sandbox (or the
    /// sandbox is [unavailable](Sandboxing::Unavailable) and a person approved it). Only
    /// `exec_shell` reads it; without it a sandboxed `exec_shell` runs the call in the
    /// sandbox.
    pub outside_sandbox: bool,
    /// The session judged this call's command read-only and lets it run without asking:
    /// `exec_shell` runs it with its [reading launcher](crate::ExecConfig::reading) (the
    /// read-only sandbox), never outside the sandbox. Ignored with
    /// [`outside_sandbox`](Self::outside_sandbox).
    pub read_only: bool,
}

impl std::fmt::Debug for CallContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("files", &self.files.is_some())
            .field("outside_sandbox", &self.outside_sandbox)
            .field("read_only", &self.read_only)
            .finish()
    }
}

impl CallContext {
    /// True when the filter (if any) admits the file.
    pub(crate) fn admits(&self, spelled: &Path, real: &Path) -> bool {
        self.files.as_ref().is_none_or(|f| f.admits(spelled, real))
    }
}

/// The note a search adds when its filter withheld `count` files (empty for none).
pub(crate) fn withheld_note(count: usize) -> String {
    match count {
        0 => String::new(),
        1 => {
            "[1 file withheld: this session's permission rules do not allow reading it]".to_owned()
        }
        n => format!(
            "[{n} files withheld: this session's permission rules do not allow reading them]"
        ),
    }
}

/// A successful tool result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// Text handed back to the model.
    pub content: String,
}

impl ToolOutput {
    /// A text result.
    pub fn text(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
        }
    }
}

/// A failed tool call; the agent loop turns it into an error result the model sees.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The input does not match the schema or makes no sense.
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// A path resolves outside every root the tool may touch.
    #[error("{path} is outside the workspace ({roots}); file tools are confined to it")]
    OutsideWorkspace {
        /// The path as given.
        path: String,
        /// The allowed roots, comma separated.
        roots: String,
    },
    /// A file-system operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The operation did not finish in time.
    #[error("timed out after {0:?}")]
    Timeout(std::time::Duration),
    /// The tool is switched off by configuration.
    #[error("{0}")]
    Disabled(String),
    /// Anything else, explained.
    #[error("{0}")]
    Failed(String),
}
