//! What can go wrong talking to a model.

use std::time::Duration;

/// A chat request that failed. Messages never contain the API key.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// 401/403: the key is missing, wrong or lacks access.
    #[error(
        "{provider}: authentication failed (HTTP {status}): {message}; check the API key for this provider"
    )]
    Auth {
        /// Provider name.
        provider: String,
        /// HTTP status.
        status: u16,
        /// The provider's message.
        message: String,
    },
    /// The provider does not know the model.
    #[error("{provider}: unknown model `{model}`: {message}")]
    UnknownModel {
        /// Provider name.
        provider: String,
        /// Model id sent.
        model: String,
        /// The provider's message.
        message: String,
    },
    /// The prompt does not fit the model's context window.
    #[error("{provider}: the conversation is longer than the model's context window: {message}")]
    ContextOverflow {
        /// Provider name.
        provider: String,
        /// The provider's message.
        message: String,
    },
    /// Still rate limited (429) after every retry.
    #[error("{provider}: rate limited (HTTP 429) after {attempts} attempts: {message}")]
    RateLimited {
        /// Provider name.
        provider: String,
        /// Attempts made.
        attempts: u32,
        /// The provider's last message.
        message: String,
    },
    /// Any other HTTP error status (after retries for 5xx).
    #[error("{provider}: HTTP {status} after {attempts} attempt(s): {message}")]
    Http {
        /// Provider name.
        provider: String,
        /// HTTP status.
        status: u16,
        /// Attempts made.
        attempts: u32,
        /// The provider's message.
        message: String,
    },
    /// No complete response within the request timeout.
    #[error("{provider}: no response within {timeout:?} (after {attempts} attempt(s))")]
    Timeout {
        /// Provider name.
        provider: String,
        /// The configured timeout.
        timeout: Duration,
        /// Attempts made.
        attempts: u32,
    },
    /// Connection refused, DNS, TLS and other transport failures.
    #[error("{provider}: cannot reach {url}: {message}")]
    Transport {
        /// Provider name.
        provider: String,
        /// Endpoint (without credentials).
        url: String,
        /// What failed.
        message: String,
    },
    /// The provider answered with something that is not its protocol.
    #[error("{provider}: malformed response: {message}")]
    Malformed {
        /// Provider name.
        provider: String,
        /// What was wrong.
        message: String,
    },
    /// The answer went over one of the [`ResponseLimits`](crate::ResponseLimits): the rest
    /// was not read, and nothing of the answer is kept.
    #[error(
        "{provider}: {what} is larger than the {} limit, so it was not read to the end; `{key}` in the configuration raises the limit",
        weft_fs::human_size(*limit as u64)
    )]
    TooLarge {
        /// Provider name.
        provider: String,
        /// What went over (`the answer's text`).
        what: &'static str,
        /// The limit, in bytes.
        limit: usize,
        /// The configuration key that raises it (`limits.text_bytes`).
        key: &'static str,
    },
    /// The replay recording has no more turns, or cannot be read.
    #[error("replay {path}: {message}")]
    Replay {
        /// Recording file.
        path: String,
        /// What went wrong (with the line number when it is a bad line).
        message: String,
    },
    /// A configuration problem found before any request was made.
    #[error("{0}")]
    Config(String),
}
