//! Why a subagent could not be started or finished, and why a spawn tool call failed.

use weft_llm::ModelError;
use weft_permissions::{PolicyError, ValidationError};

use super::SessionError;
use super::children::ChildError;

/// Why a subagent could not be started or finished (seed 000's kinds).
#[derive(Debug, thiserror::Error)]
pub enum SubagentError {
    /// No agent definition of that name.
    #[error("SubagentNotFound: subagent type `{subagent_type}` not found; available: {available}")]
    SubagentNotFound {
        /// The name asked for.
        subagent_type: String,
        /// Known agent names.
        available: String,
    },
    /// This session may not spawn.
    #[error("SpawnBlocked: session `{id}` cannot spawn subagents: {reason}")]
    SpawnBlocked {
        /// The session that tried.
        id: String,
        /// Why.
        reason: String,
    },
    /// A background child would need an MCP tool.
    #[error(
        "BackgroundMcpBlocked: MCP tool `{tool}` is unavailable in background mode; run the subagent in the foreground"
    )]
    BackgroundMcpBlocked {
        /// The tool.
        tool: String,
    },
    /// Validation or start-up failed.
    #[error("SpawnFailed: cannot spawn `{subagent_type}`: {source}")]
    SpawnFailed {
        /// The agent type.
        subagent_type: String,
        /// Why.
        #[source]
        source: SpawnFailure,
    },
    /// The child ran out of time.
    #[error("ExecutionTimeout: subagent `{subagent_type}` timed out after {timeout_ms} ms")]
    ExecutionTimeout {
        /// The agent type.
        subagent_type: String,
        /// The timeout.
        timeout_ms: u64,
    },
}

/// Why a spawn failed ([`SubagentError::SpawnFailed`]).
#[derive(Debug, thiserror::Error)]
pub enum SpawnFailure {
    /// The task is empty.
    #[error("the task is empty")]
    EmptyTask,
    /// The background limit is reached.
    #[error("{running} background subagents are already running (the limit is {limit})")]
    TooManyBackground {
        /// Background children running now.
        running: usize,
        /// `max_concurrent`.
        limit: usize,
    },
    /// A skill outside the session's skill filter.
    #[error("skill `{0}` is not available to this session")]
    SkillNotAvailable(String),
    /// The skill set does not validate (V001-V007).
    #[error("invalid skill set: {}", describe_validation_errors(.0))]
    InvalidSkillSet(Vec<ValidationError>),
    /// A tool pattern of the skills does not compile.
    #[error(transparent)]
    Composition(#[from] PolicyError),
    /// The model cannot be used.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The child session could not be created, or the parent's transcript not written.
    #[error(transparent)]
    Session(Box<SessionError>),
    /// The child ended without a result (failed or cancelled); the text says how.
    #[error("{0}")]
    ChildEnded(String),
}

impl From<SessionError> for SpawnFailure {
    fn from(e: SessionError) -> Self {
        SpawnFailure::Session(Box::new(e))
    }
}

fn describe_validation_errors(errors: &[ValidationError]) -> String {
    let parts: Vec<String> = errors
        .iter()
        .map(|e| format!("{}: {}", e.code, e.message))
        .collect();
    parts.join("; ")
}

/// Why a spawn tool call (`sessions_*`) failed; its message is the error result the model
/// reads.
#[derive(Debug, thiserror::Error)]
pub(super) enum SpawnToolError {
    /// The input does not fit `sessions_spawn`'s schema.
    #[error("invalid sessions_spawn input: {0}")]
    InvalidInput(#[source] serde_json::Error),
    /// `sessions_result` or `sessions_cancel` without an `id`.
    #[error("{tool} needs an `id`")]
    MissingId {
        /// The tool.
        tool: String,
    },
    /// The spawn failed.
    #[error(transparent)]
    Subagent(#[from] SubagentError),
    /// The child did not complete: its receipt.
    #[error("{0}")]
    NotCompleted(String),
    /// No such child, or it already ended.
    #[error(transparent)]
    Child(#[from] ChildError),
    /// The transcript cannot be written.
    #[error(transparent)]
    Session(Box<SessionError>),
    /// The child list cannot be serialized.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl From<SessionError> for SpawnToolError {
    fn from(e: SessionError) -> Self {
        SpawnToolError::Session(Box::new(e))
    }
}
