//! Chat-model clients for weft.
//!
//! One trait, [`ChatModel`], and three implementations behind [`connect`]:
//! an OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp server,
//! OpenRouter through `base_url`), an Anthropic Messages client, and a replay provider that
//! plays recorded turns from a JSONL file. [`ModelCatalog`] resolves `provider/model` strings
//! and aliases against the configured providers and rejects unknown providers.
//!
//! The crate never reads the environment: keys and URLs arrive in [`ProviderConfig`].

mod anthropic;
mod classify;
mod config;
mod error;
mod http;
mod limits;
mod model;
mod models;
mod openai;
mod price;
mod replay;
mod retry;
mod types;
mod window;

use std::sync::Arc;

pub use anthropic::AnthropicClient;
pub use config::{ApiKey, ProviderConfig, ProviderKind, RetryPolicy};
pub use error::LlmError;
pub use limits::{ERROR_BODY_BYTES, Limit, ResponseLimits};
pub use model::ChatModel;
pub use models::{ModelCatalog, ModelError, ModelRef, is_claude_model};
pub use openai::OpenAiClient;
pub use price::ModelPrice;
pub use replay::{ReplayModel, ReplayToolCall, ReplayTurn};
pub use retry::{RetryNotice, RetryReason};
pub use types::{
    ChatRequest, ChatResponse, Message, NoStream, Role, StopReason, TextSink, ToolCall, ToolSpec,
    Usage,
};
pub use window::{OLLAMA_DEFAULT_CONTEXT, known_context_window};

/// Builds the client for a provider.
pub fn connect(config: &ProviderConfig) -> Result<Arc<dyn ChatModel>, LlmError> {
    if let Some(why) = &config.unusable {
        return Err(LlmError::Config(format!(
            "provider `{}`: {why}",
            config.name
        )));
    }
    Ok(match config.kind {
        ProviderKind::OpenAi => Arc::new(OpenAiClient::new(config.clone())?),
        ProviderKind::Anthropic => Arc::new(AnthropicClient::new(config.clone())?),
        ProviderKind::Replay => {
            let path = config.replay_file.as_ref().ok_or_else(|| {
                LlmError::Config(format!("provider `{}`: replay needs a `file`", config.name))
            })?;
            Arc::new(ReplayModel::open(path)?)
        }
    })
}
