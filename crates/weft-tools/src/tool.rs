//! The Tool trait and what a call returns.

use std::path::PathBuf;

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

    /// Runs the tool.
    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError>;
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
