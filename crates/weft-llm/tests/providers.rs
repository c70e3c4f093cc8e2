//! The behaviour both clients share, as one suite run against each over its own wire protocol
//! on a loopback server: the answer to a plain request, retries, timeouts, error
//! classification and keys that never show. Each test is instantiated once per client
//! (`openai::<test>`, `anthropic::<test>`); protocol-specific behaviour (streaming events,
//! tool-call shapes) stays in `openai.rs` and `anthropic.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::fmt::Debug;
use std::time::{Duration, Instant};

use common::{Recorded, Reply, TestServer, collect, config, refused_url};
use serde_json::json;
use weft_llm::{
    AnthropicClient, ChatModel, ChatRequest, LlmError, Message, NoStream, OpenAiClient,
    ProviderConfig, ProviderKind, RetryNotice, RetryReason, StopReason, TextSink, ToolSpec, Usage,
};

/// One client and the shape of its wire protocol.
trait Wire {
    /// The client under test.
    type Client: ChatModel + Debug;
    /// Its provider kind.
    const KIND: ProviderKind;
    /// The key the tests configure (it must never show).
    const KEY: &'static str;
    /// The model the requests name.
    const MODEL: &'static str;
    /// What the base URL adds to the server's address (OpenAI-compatible URLs end in `/v1`).
    const BASE_PATH: &'static str;
    /// Where a request goes, after the base URL.
    const ENDPOINT: &'static str;
    /// The output cap the requests set (`None` checks the client's default).
    const MAX_TOKENS: Option<u32>;
    /// The usage [`text_reply`](Self::text_reply) reports.
    const USAGE: Usage;
    /// A body on status 200 that is not a response.
    const MALFORMED: &'static str;
    /// The message of [`auth_error`](Self::auth_error), as the error keeps it.
    const AUTH_MESSAGE: &'static str;

    /// The client for `config`.
    fn client(config: ProviderConfig) -> Self::Client;
    /// A complete answer with `text`.
    fn text_reply(text: &str) -> Reply {
        Self::reply_with_text(json!(text))
    }
    /// A complete answer whose text is this JSON value (a string in a well-formed answer).
    fn reply_with_text(text: serde_json::Value) -> Reply;
    /// An error response in the protocol's shape.
    fn error(status: u16, kind: &str, message: &str) -> Reply;
    /// A rejected key, as the provider reports it.
    fn auth_error() -> Reply;
    /// A prompt over the context window, as the provider reports it.
    fn context_overflow() -> Reply;
    /// A model that does not exist, as the provider reports it.
    fn unknown_model() -> Reply;
    /// A text answer whose usage reports 1,000 prompt tokens of which 900 were read from
    /// the prompt cache and (where the protocol reports writes) 60 written to it.
    fn cached_reply() -> Reply;
    /// [`cached_reply`](Self::cached_reply)'s usage as the client reports it.
    const CACHED_USAGE: Usage;
    /// Checks the request [`request`] sends: path, headers, body.
    fn check_plain_request(sent: &Recorded);
}

/// The request every test sends (the tool and options exercise the mapping).
fn request<W: Wire>(messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: W::MODEL.into(),
        system: Some("You are terse.".into()),
        messages,
        tools: vec![ToolSpec {
            name: "read_file".into(),
            description: "Reads a file".into(),
            input_schema: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
        temperature: Some(0.5),
        max_tokens: W::MAX_TOKENS,
        reasoning_effort: None,
    }
}

fn client<W: Wire>(url: &str, max_retries: u32) -> W::Client {
    W::client(config(W::KIND, url, Some(W::KEY), max_retries))
}

async fn ask<W: Wire>(client: &W::Client) -> Result<weft_llm::ChatResponse, LlmError> {
    client
        .chat(
            &request::<W>(vec![Message::user("x")]),
            false,
            &mut NoStream,
        )
        .await
}

struct OpenAi;

impl Wire for OpenAi {
    type Client = OpenAiClient;
    const KIND: ProviderKind = ProviderKind::OpenAi;
    const KEY: &'static str = "sk-test-very-secret-4242";
    const MODEL: &'static str = "gpt-test";
    const BASE_PATH: &'static str = "/v1";
    const ENDPOINT: &'static str = "/chat/completions";
    const MAX_TOKENS: Option<u32> = Some(100);
    const USAGE: Usage = Usage::new(12, 3);
    const MALFORMED: &'static str = "{\"choices\": [";
    const AUTH_MESSAGE: &'static str = "Incorrect API key provided";

    fn client(config: ProviderConfig) -> OpenAiClient {
        OpenAiClient::new(config).unwrap()
    }

    fn reply_with_text(text: serde_json::Value) -> Reply {
        Reply::json(
            200,
            json!({
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
            }),
        )
    }

    fn error(status: u16, kind: &str, message: &str) -> Reply {
        Reply::json(status, json!({"error": {"message": message, "type": kind}}))
    }

    fn auth_error() -> Reply {
        Reply::json(
            401,
            json!({"error": {"message": Self::AUTH_MESSAGE, "type": "invalid_request_error", "code": "invalid_api_key"}}),
        )
    }

    fn context_overflow() -> Reply {
        Reply::json(
            400,
            json!({"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
                "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}),
        )
    }

    fn unknown_model() -> Reply {
        Reply::json(
            404,
            json!({"error": {"message": "The model `gpt-test` does not exist or you do not have access to it.",
                "type": "invalid_request_error", "code": "model_not_found"}}),
        )
    }

    const CACHED_USAGE: Usage = Usage::new(1000, 5).with_cache(900, 0);

    fn cached_reply() -> Reply {
        Reply::json(
            200,
            json!({
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1000, "completion_tokens": 5,
                          "prompt_tokens_details": {"cached_tokens": 900}},
            }),
        )
    }

    fn check_plain_request(sent: &Recorded) {
        assert_eq!(sent.path, "/v1/chat/completions");
        assert_eq!(
            sent.header("authorization"),
            Some(format!("Bearer {}", Self::KEY).as_str())
        );
        assert_eq!(sent.header("content-type"), Some("application/json"));
        assert_eq!(
            sent.body,
            json!({
                "model": "gpt-test",
                "messages": [
                    {"role": "system", "content": "You are terse."},
                    {"role": "user", "content": "hi"},
                ],
                "tools": [{"type": "function", "function": {
                    "name": "read_file",
                    "description": "Reads a file",
                    "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
                }}],
                "temperature": 0.5,
                "max_tokens": 100,
            })
        );
    }
}

struct Anthropic;

impl Wire for Anthropic {
    type Client = AnthropicClient;
    const KIND: ProviderKind = ProviderKind::Anthropic;
    const KEY: &'static str = "sk-ant-test-very-secret-4242";
    const MODEL: &'static str = "claude-test";
    const BASE_PATH: &'static str = "";
    const ENDPOINT: &'static str = "/v1/messages";
    const MAX_TOKENS: Option<u32> = None;
    const USAGE: Usage = Usage::new(30, 4);
    const MALFORMED: &'static str = "<html>proxy</html>";
    const AUTH_MESSAGE: &'static str = "invalid x-api-key";

    fn client(config: ProviderConfig) -> AnthropicClient {
        AnthropicClient::new(config).unwrap()
    }

    fn reply_with_text(text: serde_json::Value) -> Reply {
        Reply::json(
            200,
            json!({
                "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn", "stop_sequence": null,
                "usage": {"input_tokens": 30, "output_tokens": 4},
            }),
        )
    }

    fn error(status: u16, kind: &str, message: &str) -> Reply {
        Reply::json(
            status,
            json!({"type": "error", "error": {"type": kind, "message": message}}),
        )
    }

    fn auth_error() -> Reply {
        Self::error(401, "authentication_error", Self::AUTH_MESSAGE)
    }

    fn context_overflow() -> Reply {
        Self::error(
            400,
            "invalid_request_error",
            "prompt is too long: 210000 tokens > 200000 maximum",
        )
    }

    fn unknown_model() -> Reply {
        Self::error(404, "not_found_error", "model: claude-test")
    }

    const CACHED_USAGE: Usage = Usage::new(1000, 5).with_cache(900, 60);

    fn cached_reply() -> Reply {
        Reply::json(
            200,
            json!({
                "id": "msg_2", "type": "message", "role": "assistant", "model": "claude-test",
                "content": [{"type": "text", "text": "ok"}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 40, "cache_read_input_tokens": 900,
                          "cache_creation_input_tokens": 60, "output_tokens": 5},
            }),
        )
    }

    fn check_plain_request(sent: &Recorded) {
        assert_eq!(sent.path, "/v1/messages");
        assert_eq!(sent.header("x-api-key"), Some(Self::KEY));
        assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
        assert_eq!(sent.header("content-type"), Some("application/json"));
        assert_eq!(sent.header("authorization"), None);
        assert_eq!(
            sent.body,
            json!({
                "model": "claude-test",
                "max_tokens": 8192,
                // Cache breakpoints after the tools, the system prompt and the conversation.
                "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
                "messages": [{"role": "user", "content": [
                    {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}
                ]}],
                "tools": [{
                    "name": "read_file",
                    "description": "Reads a file",
                    "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
                    "cache_control": {"type": "ephemeral"},
                }],
                "temperature": 0.5,
            })
        );
    }
}

async fn plain_answer_and_the_exact_request<W: Wire>() {
    let server = TestServer::script(vec![W::text_reply("Hello!")]).await;
    // A trailing slash on the base URL is trimmed.
    let client = client::<W>(&format!("{}{}/", server.url, W::BASE_PATH), 0);
    let mut pieces = Vec::new();
    let answer = client
        .chat(
            &request::<W>(vec![Message::user("hi")]),
            false,
            &mut collect(&mut pieces),
        )
        .await
        .unwrap();
    assert_eq!(answer.message.content, "Hello!");
    assert!(answer.message.tool_calls.is_empty());
    assert_eq!(answer.stop_reason, StopReason::EndTurn);
    assert_eq!(answer.usage, W::USAGE);
    assert!(
        pieces.is_empty(),
        "the sink is not called without streaming"
    );
    assert_eq!(client.provider(), "test");
    W::check_plain_request(&server.requests()[0]);
}

async fn cache_reads_and_writes_are_reported_as_part_of_the_prompt<W: Wire>() {
    let server = TestServer::script(vec![W::cached_reply()]).await;
    let answer = ask::<W>(&client::<W>(&server.url, 0)).await.unwrap();
    assert_eq!(answer.usage, W::CACHED_USAGE);
    assert_eq!(
        answer.usage.uncached_input_tokens(),
        1000 - 900 - W::CACHED_USAGE.cache_write_tokens
    );
}

async fn rate_limited_then_ok_after_two_attempts<W: Wire>() {
    let server = TestServer::script(vec![
        W::error(429, "rate_limit_error", "slow down").header("retry-after", "0"),
        W::text_reply("finally"),
    ])
    .await;
    let answer = ask::<W>(&client::<W>(&server.url, 3)).await.unwrap();
    assert_eq!(answer.message.content, "finally");
    assert_eq!(server.count(), 2);
}

async fn server_errors_exhaust_the_retries<W: Wire>() {
    let server = TestServer::script(vec![W::error(500, "api_error", "boom")]).await;
    let err = ask::<W>(&client::<W>(&server.url, 2)).await.unwrap_err();
    assert!(
        matches!(err, LlmError::Http { status: 500, attempts: 3, ref message, .. } if message == "boom"),
        "{err:?}"
    );
    assert_eq!(server.count(), 3);
}

/// Keeps the retry notices it is told about.
#[derive(Default)]
struct Notices(Vec<RetryNotice>);

impl TextSink for Notices {
    fn text(&mut self, _delta: &str) {}

    fn retrying(&mut self, notice: &RetryNotice) {
        self.0.push(notice.clone());
    }
}

async fn every_retry_is_announced_to_the_sink<W: Wire>() {
    let server = TestServer::script(vec![
        W::error(429, "rate_limit_error", "slow down").header("retry-after", "0"),
        W::error(503, "overloaded_error", "busy").header("retry-after", "0"),
        W::text_reply("finally"),
    ])
    .await;
    let mut notices = Notices::default();
    let answer = client::<W>(&server.url, 3)
        .chat(&request::<W>(vec![Message::user("x")]), false, &mut notices)
        .await
        .unwrap();
    assert_eq!(answer.message.content, "finally");
    let shown: Vec<String> = notices.0.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "rate limited, retrying in 0 ms (1/3)",
            "server error (HTTP 503), retrying in 0 ms (2/3)"
        ]
    );
    assert_eq!(notices.0[0].reason, RetryReason::RateLimited);
    assert_eq!(notices.0[1].provider, "test");
    assert_eq!(notices.0[1].model, W::MODEL);
}

async fn malformed_json_on_200<W: Wire>() {
    let server = TestServer::script(vec![Reply::raw(200, "application/json", W::MALFORMED)]).await;
    let err = ask::<W>(&client::<W>(&server.url, 2)).await.unwrap_err();
    assert!(matches!(err, LlmError::Malformed { .. }), "{err:?}");
    assert_eq!(server.count(), 1, "a malformed answer is not retried");
}

async fn text_that_is_not_a_string_is_a_provider_error<W: Wire>() {
    for (text, kind) in [(json!(42), "a number"), (json!({"a": 1}), "an object")] {
        let server = TestServer::script(vec![W::reply_with_text(text)]).await;
        let err = ask::<W>(&client::<W>(&server.url, 2)).await.unwrap_err();
        assert!(
            matches!(err, LlmError::Malformed { ref message, .. } if message.contains(&format!("{kind} as its text, not a string")) || message.contains(&format!("content is {kind}, not a string"))),
            "{err:?}"
        );
        assert_eq!(server.count(), 1, "a malformed answer is not retried");
    }
}

async fn a_slow_server_times_out<W: Wire>() {
    let server =
        TestServer::script(vec![W::text_reply("late").delay(Duration::from_secs(3))]).await;
    let mut config = config(W::KIND, &server.url, Some(W::KEY), 0);
    config.timeout = Duration::from_millis(300);
    let started = Instant::now();
    let err = ask::<W>(&W::client(config)).await.unwrap_err();
    assert!(
        matches!(err, LlmError::Timeout { attempts: 1, timeout, .. } if timeout == Duration::from_millis(300)),
        "{err:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

async fn bad_key_is_auth_and_never_shown<W: Wire>() {
    let server = TestServer::script(vec![W::auth_error()]).await;
    let client = client::<W>(&server.url, 3);
    let err = ask::<W>(&client).await.unwrap_err();
    assert!(
        matches!(err, LlmError::Auth { status: 401, ref message, .. } if message == W::AUTH_MESSAGE),
        "{err:?}"
    );
    assert_eq!(server.count(), 1, "auth failures are not retried");
    for shown in [err.to_string(), format!("{err:?}"), format!("{client:?}")] {
        assert!(!shown.contains(W::KEY), "{shown}");
        assert!(!shown.contains("very-secret"), "{shown}");
    }
}

async fn context_overflow<W: Wire>() {
    let server = TestServer::script(vec![W::context_overflow()]).await;
    let err = ask::<W>(&client::<W>(&server.url, 2)).await.unwrap_err();
    assert!(matches!(err, LlmError::ContextOverflow { .. }), "{err:?}");
    assert_eq!(server.count(), 1);
}

async fn unknown_model<W: Wire>() {
    let server = TestServer::script(vec![W::unknown_model()]).await;
    let err = ask::<W>(&client::<W>(&server.url, 2)).await.unwrap_err();
    assert!(
        matches!(err, LlmError::UnknownModel { ref model, .. } if model == W::MODEL),
        "{err:?}"
    );
    assert_eq!(server.count(), 1);
}

async fn a_key_echoed_by_the_server_is_scrubbed<W: Wire>() {
    let server = TestServer::script(vec![Reply::raw(
        403,
        "text/plain",
        format!("key {} denied", W::KEY),
    )])
    .await;
    let err = ask::<W>(&client::<W>(&server.url, 0)).await.unwrap_err();
    assert!(matches!(err, LlmError::Auth { status: 403, .. }), "{err:?}");
    let shown = format!("{err} {err:?}");
    assert!(!shown.contains(W::KEY), "{shown}");
    assert!(!shown.contains("very-secret"), "{shown}");
}

async fn connection_refused_is_transport_without_credentials<W: Wire>() {
    let refused = refused_url();
    // Credentials in the base URL never show in the error.
    let url = refused.replace("http://", "http://user:hunter2@");
    let err = ask::<W>(&client::<W>(&url, 1)).await.unwrap_err();
    match &err {
        LlmError::Transport {
            url: shown,
            provider,
            ..
        } => {
            assert_eq!(shown, &format!("{refused}{}", W::ENDPOINT));
            assert_eq!(provider, "test");
        }
        other => panic!("{other:?}"),
    }
    assert!(!format!("{err} {err:?}").contains("hunter2"), "{err:?}");
}

/// Instantiates each shared test for both clients.
macro_rules! for_both_clients {
    ($($test:ident),* $(,)?) => {
        mod openai {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test::<super::OpenAi>().await;
                }
            )*
        }
        mod anthropic {
            $(
                #[tokio::test]
                async fn $test() {
                    super::$test::<super::Anthropic>().await;
                }
            )*
        }
    };
}

for_both_clients!(
    plain_answer_and_the_exact_request,
    cache_reads_and_writes_are_reported_as_part_of_the_prompt,
    rate_limited_then_ok_after_two_attempts,
    server_errors_exhaust_the_retries,
    every_retry_is_announced_to_the_sink,
    malformed_json_on_200,
    text_that_is_not_a_string_is_a_provider_error,
    a_slow_server_times_out,
    bad_key_is_auth_and_never_shown,
    context_overflow,
    unknown_model,
    a_key_echoed_by_the_server_is_scrubbed,
    connection_refused_is_transport_without_credentials,
);
