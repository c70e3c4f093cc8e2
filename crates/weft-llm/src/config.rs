//! Endpoint settings: which protocol, where, with which key, how patiently.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::ResponseLimits;

/// The wire protocol a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// OpenAI-compatible `POST {base_url}/chat/completions` (OpenAI, Ollama, vLLM, llama.cpp
    /// server, OpenRouter, ...).
    #[serde(alias = "openai-compatible")]
    OpenAi,
    /// Anthropic `POST {base_url}/v1/messages`.
    Anthropic,
    /// Recorded turns from a JSONL file.
    Replay,
}

/// An API key. `Debug` and `Display` never show it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// The key, for building a request header.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// How often and how long to retry 429, 5xx and timeouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 = never retry).
    pub max_retries: u32,
    /// Delay before the first retry; doubled each time.
    pub initial_backoff: Duration,
    /// Upper bound for one delay, including a server's `retry-after`.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 3,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
        }
    }
}

/// Everything needed to build a client for one provider.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderConfig {
    /// The name models are prefixed with (`openai` in `openai/gpt-4o`).
    pub name: String,
    /// Wire protocol.
    pub kind: ProviderKind,
    /// Base URL: `https://api.openai.com/v1`, `http://localhost:11434/v1`,
    /// `https://api.anthropic.com`. Unused by replay.
    pub base_url: String,
    /// Key, when the endpoint needs one (local servers usually do not).
    pub api_key: Option<ApiKey>,
    /// Timeout of one HTTP attempt (connect + full response).
    pub timeout: Duration,
    /// Retry behaviour.
    pub retry: RetryPolicy,
    /// The JSONL recording (replay only).
    pub replay_file: Option<PathBuf>,
    /// Why the provider cannot be used, when its configuration is incomplete (its key
    /// variable is not set): connecting to it fails with this, and the other providers
    /// still work.
    pub unusable: Option<String>,
    /// How much of an answer is read.
    pub limits: ResponseLimits,
}

impl ProviderConfig {
    /// A provider with the default timeout (120 s), retry policy and limits.
    pub fn new(name: impl Into<String>, kind: ProviderKind, base_url: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            kind,
            base_url: base_url.into(),
            api_key: None,
            timeout: Duration::from_secs(120),
            retry: RetryPolicy::default(),
            replay_file: None,
            unusable: None,
            limits: ResponseLimits::default(),
        }
    }

    /// The default base URL of a well-known provider name or kind.
    pub fn default_base_url(kind: ProviderKind) -> &'static str {
        match kind {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Replay => "",
        }
    }
}
