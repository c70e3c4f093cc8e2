//! Chat-model clients for weft.
//!
//! One trait, [`ChatModel`], and three implementations behind [`connect`]:
//! an OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp server,
//! OpenRouter through `base_url`), an Anthropic Messages client, and a replay provider that
//! plays recorded turns from a JSONL file. [`ModelCatalog`] resolves `provider/model` strings
//! and aliases against the configured providers and rejects unknown providers.
//!
//! The crate never reads the environment: keys and URLs arrive in [`ProviderConfig`].
//!
//! # Code map
//!
//! Chat models. `types.rs`: the provider-neutral conversation (messages, tool calls, tool specs,
//! requests with their reasoning effort, responses, usage; an assistant message keeps the
//! provider's reasoning blocks it must send back) and `TextSink` for streamed text; `model.rs`: the
//! one `ChatModel` trait. `openai.rs` / `anthropic.rs` map it to each wire protocol by hand
//! (request bodies, whole and SSE-streamed responses); `http.rs` is the single send path with
//! per-attempt timeouts and retries (429, 5xx, timeouts, connection failures; `retry-after`
//! honoured; never after text has been streamed), each announced to the caller's
//! `TextSink::retrying` as a `RetryNotice` (`retry.rs`: "rate limited, retrying in 3 s (2/3)"; the
//! library never prints); `classify.rs` turns error bodies into `Auth`, `UnknownModel`,
//! `ContextOverflow` (OpenAI's `context_length_exceeded`, Anthropic's "prompt is too long" and
//! `request_too_large`, any 413), ... `Usage` has one meaning for every provider: `input_tokens` is
//! the whole prompt, of which `cache_read_tokens` and `cache_write_tokens` went through the
//! provider's prompt cache. The Anthropic client puts `cache_control` breakpoints on the last tool,
//! the system prompt, the last message and the end of the previous request (the API's limit of
//! four). `replay.rs` plays recorded turns from JSONL (a regular file of at most `REPLAY_CAP`, read
//! through weft-fs). `models.rs`: `ModelCatalog` resolves `provider/model`, aliases and `inherit`,
//! and rejects unconfigured providers, naming the closest alias, provider or `<provider>/<name>`;
//! it also holds the configured prices (`price.rs`: `ModelPrice`, US dollars per million tokens)
//! and knows the context window of well-known models (`window.rs`: `known_context_window`, Ollama's
//! default context for a model an Ollama server serves). Keys live in `ApiKey`, whose
//! `Debug`/`Display` never show them. Depends on reqwest (rustls with ring, see "TLS" in
//! docs/ARCHITECTURE.md), eventsource-stream, futures-util (the streamed bodies), httpdate
//! (`retry-after` as a date), async-trait, tokio, serde, serde_json, thiserror, tracing, and
//! `weft-fs` and `weft-types` (L0) as its only workspace crates.

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
