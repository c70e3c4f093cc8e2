//! Turning an error answer (status + body) into an [`LlmError`].
//!
//! Both protocols put errors in a JSON body with an `error` member (OpenAI:
//! `{"error":{"message","type","code"}}`, Anthropic: `{"type":"error","error":{"type","message"}}`);
//! local servers vary (`{"error":"..."}`, `{"message":"..."}`, `{"detail":"..."}`), so parsing is
//! lenient and falls back to a short excerpt of the raw body.

use serde_json::Value;

use crate::LlmError;

/// Longest excerpt of a non-JSON body kept in an error message.
const EXCERPT_CHARS: usize = 300;

/// Longest provider message kept in an error (a server may send megabytes of it).
const MESSAGE_CHARS: usize = 2_000;

/// What could be read from an error body.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ErrorBody {
    /// The provider's message, or an excerpt of the body.
    pub(crate) message: String,
    /// `error.code` (OpenAI) as text.
    pub(crate) code: Option<String>,
    /// `error.type` (both protocols).
    pub(crate) kind: Option<String>,
}

impl ErrorBody {
    /// Parses `body`, which may or may not be JSON.
    pub(crate) fn parse(body: &str) -> Self {
        let Ok(value) = serde_json::from_str::<Value>(body) else {
            return Self {
                message: excerpt(body),
                ..Self::default()
            };
        };
        let error = value.get("error").filter(|e| !e.is_null());
        let message = error
            .and_then(|e| {
                e.get("message")
                    .and_then(Value::as_str)
                    .or_else(|| e.as_str())
            })
            .or_else(|| value.get("message").and_then(Value::as_str))
            .or_else(|| value.get("detail").and_then(Value::as_str))
            .map(cut_message)
            .unwrap_or_else(|| excerpt(body));
        let field = |name: &str| {
            error
                .and_then(|e| e.get(name))
                .or_else(|| value.get(name).filter(|_| error.is_none()))
                .and_then(|v| match v {
                    Value::String(s) => Some(s.clone()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
        };
        Self {
            message,
            code: field("code"),
            kind: field("type"),
        }
    }

    /// True for "the prompt does not fit": OpenAI's `context_length_exceeded` code,
    /// Anthropic's `request_too_large` type and its "prompt is too long" message, and the
    /// wording of local servers (vLLM, llama.cpp, Ollama, OpenRouter).
    fn is_context_overflow(&self) -> bool {
        if self.code.as_deref() == Some("context_length_exceeded")
            || self.kind.as_deref() == Some("request_too_large")
        {
            return true;
        }
        let message = self.message.to_lowercase();
        [
            "context length",
            "context_length_exceeded",
            "maximum context",
            "context window",
            "context size",
            "prompt is too long",
            "too many tokens",
            "input is too long",
            "exceeds the maximum number of tokens",
            "request exceeds the maximum",
        ]
        .iter()
        .any(|needle| message.contains(needle))
    }

    fn is_missing_model(&self) -> bool {
        if self.code.as_deref() == Some("model_not_found") {
            return true;
        }
        let message = self.message.to_lowercase();
        message.contains("model")
            && (message.contains("not found") || message.contains("does not exist"))
    }
}

/// The error for an answer with `status` and `body` after `attempts` attempts.
pub(crate) fn classify(
    provider: &str,
    model: &str,
    status: u16,
    body: &str,
    attempts: u32,
) -> LlmError {
    let parsed = ErrorBody::parse(body);
    let provider = provider.to_owned();
    match status {
        401 | 403 => LlmError::Auth {
            provider,
            status,
            message: parsed.message,
        },
        404 => LlmError::UnknownModel {
            provider,
            model: model.to_owned(),
            message: parsed.message,
        },
        // A 413 is a body too large to take: a shorter conversation is the way out too.
        413 => LlmError::ContextOverflow {
            provider,
            message: parsed.message,
        },
        400 if parsed.is_context_overflow() => LlmError::ContextOverflow {
            provider,
            message: parsed.message,
        },
        400 if parsed.is_missing_model() => LlmError::UnknownModel {
            provider,
            model: model.to_owned(),
            message: parsed.message,
        },
        429 => LlmError::RateLimited {
            provider,
            attempts,
            message: parsed.message,
        },
        _ => LlmError::Http {
            provider,
            status,
            attempts,
            message: parsed.message,
        },
    }
}

/// The HTTP status an error reported inside a 200 answer (a JSON body or a stream event)
/// stands for, so it is classified and retried like the same error sent as a status.
pub(crate) fn in_band_status(error: &Value) -> u16 {
    if let Some(code) = error.get("code").and_then(Value::as_u64)
        && (400..=599).contains(&code)
    {
        // OpenRouter puts the upstream status here.
        return u16::try_from(code).unwrap_or(500);
    }
    let names = [error.get("code"), error.get("type")];
    for name in names.into_iter().flatten().filter_map(Value::as_str) {
        let status = match name {
            "authentication_error" | "invalid_api_key" => 401,
            "permission_error" => 403,
            "not_found_error" | "model_not_found" => 404,
            "request_too_large" => 413,
            "rate_limit_error" | "rate_limit_exceeded" | "insufficient_quota" => 429,
            "overloaded_error" => 529,
            "api_error" | "server_error" => 500,
            "invalid_request_error" | "context_length_exceeded" => 400,
            _ => continue,
        };
        return status;
    }
    // Unknown in-band errors are treated as server trouble: retried if nothing was shown yet.
    500
}

/// `a number`, `an object`, ... for messages about a value of the wrong type.
pub(crate) fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// A one-line excerpt of at most [`EXCERPT_CHARS`] characters.
pub(crate) fn excerpt(body: &str) -> String {
    // Built a word at a time and stopped at the limit: the body may be megabytes.
    let mut flat = String::new();
    let mut count = 0;
    'words: for word in body.split_whitespace() {
        let space = (!flat.is_empty()).then_some(' ');
        for c in space.into_iter().chain(word.chars()) {
            if count == EXCERPT_CHARS {
                flat.pop();
                flat.push('…');
                break 'words;
            }
            flat.push(c);
            count += 1;
        }
    }
    if flat.is_empty() {
        return "(empty response body)".to_owned();
    }
    flat
}

/// A provider's own message, cut to [`MESSAGE_CHARS`] characters.
fn cut_message(message: &str) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        None => message.to_owned(),
        Some((end, _)) => format!("{}…", &message[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn class(status: u16, body: &str) -> LlmError {
        classify("p", "m", status, body, 3)
    }

    #[test]
    fn auth_statuses() {
        let err = class(
            401,
            r#"{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}"#,
        );
        assert!(
            matches!(err, LlmError::Auth { status: 401, ref message, .. } if message == "Incorrect API key")
        );
        assert!(matches!(
            class(403, "forbidden"),
            LlmError::Auth { status: 403, .. }
        ));
    }

    #[test]
    fn unknown_model() {
        assert!(matches!(class(404, ""), LlmError::UnknownModel { ref model, .. } if model == "m"));
        let openai =
            r#"{"error":{"message":"The model `x` does not exist","code":"model_not_found"}}"#;
        assert!(matches!(class(400, openai), LlmError::UnknownModel { .. }));
        let ollama = r#"{"error":"model \"llama9\" not found, try pulling it first"}"#;
        assert!(
            matches!(class(400, ollama), LlmError::UnknownModel { ref message, .. } if message.starts_with("model \"llama9\""))
        );
        let by_code = r#"{"error":{"message":"nope","code":"model_not_found"}}"#;
        assert!(matches!(class(400, by_code), LlmError::UnknownModel { .. }));
    }

    #[test]
    fn context_overflow() {
        for body in [
            r#"{"error":{"message":"x","code":"context_length_exceeded"}}"#,
            r#"{"error":{"message":"This model's maximum context length is 8192 tokens"}}"#,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
            r#"{"object":"error","message":"Too many tokens in request","code":400}"#,
        ] {
            assert!(
                matches!(class(400, body), LlmError::ContextOverflow { .. }),
                "{body}"
            );
        }
        assert!(matches!(
            class(413, "context length exceeded"),
            LlmError::ContextOverflow { .. }
        ));
        // Anthropic's answer to a body over its size limit, and any other 413.
        assert!(matches!(
            class(
                413,
                r#"{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}"#
            ),
            LlmError::ContextOverflow { .. }
        ));
        assert!(matches!(
            class(413, "too big"),
            LlmError::ContextOverflow { .. }
        ));
        // Only client errors: a 500 mentioning context is a server failure.
        assert!(matches!(
            class(500, "context length"),
            LlmError::Http { status: 500, .. }
        ));
    }

    #[test]
    fn rate_limit_and_other_statuses() {
        assert!(matches!(
            class(429, "slow down"),
            LlmError::RateLimited { attempts: 3, .. }
        ));
        let err = class(400, r#"{"error":{"message":"bad temperature"}}"#);
        assert!(
            matches!(err, LlmError::Http { status: 400, attempts: 3, ref message, .. } if message == "bad temperature")
        );
        let html = format!("<html>{}</html>", "x".repeat(1000));
        match class(502, &html) {
            LlmError::Http { message, .. } => {
                assert_eq!(message.chars().count(), 300);
                assert!(message.starts_with("<html>xxx"));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(class(500, ""), LlmError::Http { ref message, .. } if message == "(empty response body)")
        );
    }

    #[test]
    fn json_without_a_message_falls_back_to_the_body() {
        let parsed = ErrorBody::parse(r#"{"oops":true}"#);
        assert_eq!(parsed.message, r#"{"oops":true}"#);
        let vllm = ErrorBody::parse(
            r#"{"object":"error","message":"m","type":"NotFoundError","code":404}"#,
        );
        assert_eq!(vllm.code.as_deref(), Some("404"));
        assert_eq!(vllm.kind.as_deref(), Some("NotFoundError"));
    }

    #[test]
    fn in_band_statuses() {
        assert_eq!(
            in_band_status(&json!({"type":"overloaded_error","message":"x"})),
            529
        );
        assert_eq!(
            in_band_status(&json!({"code":502,"message":"upstream"})),
            502
        );
        assert_eq!(
            in_band_status(&json!({"type":"invalid_request_error","code":"model_not_found"})),
            404
        );
        assert_eq!(in_band_status(&json!({"type":"rate_limit_error"})), 429);
        assert_eq!(in_band_status(&json!("boom")), 500);
    }
}
