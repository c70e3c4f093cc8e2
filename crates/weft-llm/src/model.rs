//! The one trait every provider implements.

use async_trait::async_trait;

use crate::{ChatRequest, ChatResponse, LlmError, TextSink};

/// A chat model endpoint: one request in, one assistant message out.
///
/// `chat` streams text to `sink` as it arrives when the provider supports streaming and
/// `stream` is true; either way the complete response is returned at the end. Implementations
/// retry transient failures themselves (429, 5xx, timeouts) according to their
/// [`RetryPolicy`](crate::RetryPolicy).
#[async_trait]
pub trait ChatModel: Send + Sync {
    /// The provider name used in errors and transcripts (`openai`, `anthropic`, `replay`, ...).
    fn provider(&self) -> &str;

    /// Sends `request`.
    async fn chat(
        &self,
        request: &ChatRequest,
        stream: bool,
        sink: &mut dyn TextSink,
    ) -> Result<ChatResponse, LlmError>;
}
