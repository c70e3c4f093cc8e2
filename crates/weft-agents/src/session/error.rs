//! What can stop a session: the model, the agent's definition, a skill, a subagent, the
//! transcript.

use weft_llm::{LlmError, ModelError};
use weft_permissions::PolicyError;
use weft_types::UnknownPermissionMode;

use super::{SkillInvocationError, SubagentError};
use crate::transcript::TranscriptWriteError;

/// A session failure. The conversation up to the failure is kept (and in the transcript).
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The model string cannot be used.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The model call failed.
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// The agent's `permissionMode` is not a mode.
    #[error("agent `{agent}`: permissionMode: {source}")]
    AgentPermissionMode {
        /// Agent name.
        agent: String,
        /// What is wrong.
        #[source]
        source: UnknownPermissionMode,
    },
    /// The agent's tool lists do not compile.
    #[error("agent `{agent}`: {source}")]
    AgentTools {
        /// Agent name.
        agent: String,
        /// The pattern error.
        #[source]
        source: PolicyError,
    },
    /// A skill run by the user cannot be run.
    #[error(transparent)]
    Skill(#[from] SkillInvocationError),
    /// A subagent (a fork skill run by the user) could not start or did not finish.
    #[error(transparent)]
    Subagent(#[from] SubagentError),
    /// The transcript cannot be written.
    #[error(transparent)]
    Transcript(#[from] TranscriptWriteError),
    /// The conversation could not be compacted (the model's own errors are [`Llm`](Self::Llm)).
    #[error("cannot compact the conversation: {0}")]
    Compaction(String),
}
