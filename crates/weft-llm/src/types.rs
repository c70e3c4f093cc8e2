//! The provider-neutral conversation vocabulary: messages, tool calls, requests, responses.

use serde::{Deserialize, Serialize};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user (or the runtime speaking for the user).
    User,
    /// The model.
    Assistant,
    /// The result of a tool call.
    Tool,
}

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Provider-assigned id, echoed back in the result.
    pub id: String,
    /// Tool name as offered.
    pub name: String,
    /// Arguments (a JSON object; an unparsable argument string is kept as a JSON string).
    pub arguments: serde_json::Value,
}

impl ToolCall {
    /// A call of tool `name` with `arguments`, which the result will answer as `id`.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: serde_json::Value,
    ) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            arguments,
        }
    }
}

/// One message of a conversation. The system prompt is not a message: it lives on
/// [`ChatRequest::system`] because the two wire protocols place it differently.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Author.
    pub role: Role,
    /// Text content (may be empty for an assistant message that only calls tools).
    #[serde(default)]
    pub content: String,
    /// Tool calls (assistant messages only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// The call this message answers (tool messages only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// True when a tool message reports a failure (denied, unknown tool, tool error).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Reasoning blocks a provider requires back unchanged with this assistant message
    /// (Anthropic's `thinking` with its signature, `redacted_thinking`): kept as written,
    /// never shown as the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasoning: Vec<serde_json::Value>,
}

impl Message {
    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            is_error: false,
            reasoning: Vec::new(),
        }
    }

    /// An assistant message with text and tool calls.
    pub fn assistant(content: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
            tool_calls,
            tool_call_id: None,
            is_error: false,
            reasoning: Vec::new(),
        }
    }

    /// The message with `blocks` as its reasoning blocks.
    #[must_use]
    pub fn with_reasoning(mut self, blocks: Vec<serde_json::Value>) -> Self {
        self.reasoning = blocks;
        self
    }

    /// The result of the tool call `call_id`.
    pub fn tool_result(
        call_id: impl Into<String>,
        content: impl Into<String>,
        is_error: bool,
    ) -> Self {
        Self {
            role: Role::Tool,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: Some(call_id.into()),
            is_error,
            reasoning: Vec::new(),
        }
    }
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Name the model calls it by.
    pub name: String,
    /// What it does.
    pub description: String,
    /// JSON Schema of the input object.
    pub input_schema: serde_json::Value,
}

/// One request to a chat model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// Model id as the provider knows it (without the `provider/` prefix).
    pub model: String,
    /// System prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// Tools the model may call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolSpec>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    /// Output token cap (Anthropic requires one; a default is used when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// How hard the model should think (`low`, `medium`, `high`, `max`; a skill's `effort`).
    /// Sent as OpenAI's `reasoning_effort` to reasoning models (`max` as `high`), and as an
    /// Anthropic thinking budget to models with extended thinking; other models do not get it
    /// (the session records it in the transcript).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// A complete answer.
    EndTurn,
    /// The model wants tool results.
    ToolUse,
    /// The output token cap was hit.
    MaxTokens,
    /// Anything else the provider reported, as written.
    Other(String),
}

/// Token use of one response, as the provider reported it, in one meaning for every
/// provider: `input_tokens` is the whole prompt, cache reads and writes included (OpenAI's
/// `prompt_tokens`; Anthropic's `input_tokens` + `cache_read_input_tokens` +
/// `cache_creation_input_tokens`), and the two cache counts say how much of it was read from
/// or written to the provider's prompt cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens, cached or not.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// Prompt tokens read from the provider's cache (Anthropic's `cache_read_input_tokens`,
    /// OpenAI's `prompt_tokens_details.cached_tokens`): billed at a fraction of the price.
    #[serde(default)]
    pub cache_read_tokens: u64,
    /// Prompt tokens written to the provider's cache (Anthropic's
    /// `cache_creation_input_tokens`; OpenAI caches without reporting writes): billed above
    /// the input price.
    #[serde(default)]
    pub cache_write_tokens: u64,
}

impl Usage {
    /// `input` prompt and `output` completion tokens, nothing cached.
    pub const fn new(input: u64, output: u64) -> Self {
        Self {
            input_tokens: input,
            output_tokens: output,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
        }
    }

    /// The same with `read` and `written` of the prompt tokens read from and written to the
    /// cache.
    #[must_use]
    pub const fn with_cache(mut self, read: u64, written: u64) -> Self {
        self.cache_read_tokens = read;
        self.cache_write_tokens = written;
        self
    }

    /// Prompt tokens neither read from nor written to the cache: billed at the input price.
    pub fn uncached_input_tokens(&self) -> u64 {
        self.input_tokens
            .saturating_sub(self.cache_read_tokens)
            .saturating_sub(self.cache_write_tokens)
    }

    /// True when nothing was counted.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, rhs: Self) {
        self.input_tokens += rhs.input_tokens;
        self.output_tokens += rhs.output_tokens;
        self.cache_read_tokens += rhs.cache_read_tokens;
        self.cache_write_tokens += rhs.cache_write_tokens;
    }
}

/// The model's reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    /// The assistant message (text and tool calls).
    pub message: Message,
    /// Why it stopped.
    pub stop_reason: StopReason,
    /// Token use.
    #[serde(default)]
    pub usage: Usage,
}

impl ChatResponse {
    /// An assistant message with text and tool calls (a model of the caller's, a test's):
    /// stopped for the tools when there are calls, else at the end of the turn; no token use
    /// reported.
    pub fn assistant(content: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        let stop_reason = if tool_calls.is_empty() {
            StopReason::EndTurn
        } else {
            StopReason::ToolUse
        };
        Self {
            message: Message::assistant(content, tool_calls),
            stop_reason,
            usage: Usage::default(),
        }
    }
}

/// Receives text as it streams in. Clients that cannot stream call it once with the whole text.
pub trait TextSink: Send {
    /// A fragment of the assistant's text, in order.
    fn text(&mut self, delta: &str);

    /// The request failed and will be sent again after `notice.delay` (the library never
    /// prints: the caller decides whether and how to tell the user). Ignored by default.
    fn retrying(&mut self, _notice: &crate::RetryNotice) {}
}

/// A sink that drops everything (non-streaming callers).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoStream;

impl TextSink for NoStream {
    fn text(&mut self, _delta: &str) {}
}

impl<F: FnMut(&str) + Send> TextSink for F {
    fn text(&mut self, delta: &str) {
        self(delta)
    }
}
