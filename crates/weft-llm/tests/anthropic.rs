//! The Anthropic Messages client against a real loopback server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::{Reply, TestServer, collect, config, event};
use serde_json::{Value, json};
use weft_llm::{
    AnthropicClient, ChatModel, ChatRequest, LlmError, Message, NoStream, ProviderKind, StopReason,
    ToolCall, ToolSpec, Usage,
};

const KEY: &str = "sk-ant-test-very-secret-4242";

fn client(url: &str, max_retries: u32) -> AnthropicClient {
    AnthropicClient::new(config(ProviderKind::Anthropic, url, Some(KEY), max_retries)).unwrap()
}

fn request(messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: "claude-test".into(),
        system: Some("You are terse.".into()),
        messages,
        tools: vec![ToolSpec {
            name: "read_file".into(),
            description: "Reads a file".into(),
            input_schema: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
        temperature: Some(0.5),
        max_tokens: None,
        reasoning_effort: None,
    }
}

fn message(content: Value, stop: &str) -> Value {
    json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
        "content": content,
        "stop_reason": stop, "stop_sequence": null,
        "usage": {"input_tokens": 30, "output_tokens": 4},
    })
}

fn text_reply(text: &str) -> Reply {
    Reply::json(
        200,
        message(json!([{"type": "text", "text": text}]), "end_turn"),
    )
}

fn api_error(status: u16, kind: &str, text: &str) -> Reply {
    Reply::json(
        status,
        json!({"type": "error", "error": {"type": kind, "message": text}}),
    )
}

#[tokio::test]
async fn tool_call_then_the_results_go_back() {
    let calls = json!([
        {"type": "text", "text": "Reading both."},
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a"}},
        {"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": "b"}},
    ]);
    let server = TestServer::script(vec![
        Reply::json(200, message(calls, "tool_use")),
        text_reply("Done."),
    ])
    .await;
    let client = client(&server.url, 0);
    let mut messages = vec![Message::user("read a and b")];
    let first = client
        .chat(&request(messages.clone()), false, &mut NoStream)
        .await
        .unwrap();
    assert_eq!(first.stop_reason, StopReason::ToolUse);
    assert_eq!(first.message.content, "Reading both.");
    assert_eq!(
        first.message.tool_calls[1],
        ToolCall {
            id: "toolu_2".into(),
            name: "read_file".into(),
            arguments: json!({"path": "b"})
        }
    );

    messages.push(first.message);
    messages.push(Message::tool_result("toolu_1", "A", false));
    messages.push(Message::tool_result("toolu_2", "no such file", true));
    let second = client
        .chat(&request(messages), false, &mut NoStream)
        .await
        .unwrap();
    assert_eq!(second.message.content, "Done.");

    // Cache breakpoints: where the first request ended (read from the cache now) and
    // where this one ends (written for the next).
    let cached = json!({"type": "ephemeral"});
    assert_eq!(
        server.requests()[1].body["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "read a and b", "cache_control": cached}]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Reading both."},
                {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a"}},
                {"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": "b"}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "A"},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "no such file", "is_error": true, "cache_control": cached},
            ]},
        ])
    );
}

fn stream_start() -> String {
    event(
        "message_start",
        &json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
            "content": [], "stop_reason": null, "usage": {"input_tokens": 5, "cache_read_input_tokens": 20, "output_tokens": 1}}}),
    )
}

fn text_delta(text: &str) -> String {
    event(
        "content_block_delta",
        &json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
    )
}

#[tokio::test]
async fn streaming_text_and_tool_input_fragments() {
    let chunks = vec![
        stream_start(),
        event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        event("ping", &json!({"type": "ping"})),
        text_delta("Let me "),
        text_delta("look"),
        text_delta("."),
        event(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": 0}),
        ),
        event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 1, "content_block":
                {"type": "tool_use", "id": "toolu_9", "name": "read_file", "input": {}}}),
        ),
        event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        ),
        event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"path\": \"a"}}),
        ),
        event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ".txt\"}"}}),
        ),
        event(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": 1}),
        ),
        event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 2, "content_block":
                {"type": "tool_use", "id": "toolu_10", "name": "list", "input": {}}}),
        ),
        event(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": 2}),
        ),
        event(
            "message_delta",
            &json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null},
                "usage": {"output_tokens": 17}}),
        ),
        event("message_stop", &json!({"type": "message_stop"})),
    ];
    let server = TestServer::script(vec![Reply::sse(chunks)]).await;
    let mut pieces = Vec::new();
    let answer = client(&server.url, 0)
        .chat(
            &request(vec![Message::user("read a.txt")]),
            true,
            &mut collect(&mut pieces),
        )
        .await
        .unwrap();
    assert_eq!(pieces, ["Let me ", "look", "."]);
    assert_eq!(answer.message.content, pieces.concat());
    assert_eq!(answer.stop_reason, StopReason::ToolUse);
    // The prompt is the uncached tokens plus the cache reads of `message_start`.
    assert_eq!(answer.usage, Usage::new(25, 17).with_cache(20, 0));
    assert_eq!(
        answer.message.tool_calls,
        vec![
            ToolCall {
                id: "toolu_9".into(),
                name: "read_file".into(),
                arguments: json!({"path": "a.txt"})
            },
            ToolCall {
                id: "toolu_10".into(),
                name: "list".into(),
                arguments: json!({})
            },
        ]
    );
    let sent = &server.requests()[0];
    assert_eq!(sent.body["stream"], json!(true));
    assert_eq!(sent.header("accept"), Some("text/event-stream"));
}

#[tokio::test]
async fn overloaded_mid_stream_after_text_is_an_error_without_retry() {
    let chunks = vec![
        stream_start(),
        text_delta("Half an "),
        event(
            "error",
            &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ),
    ];
    let server = TestServer::script(vec![Reply::sse(chunks)]).await;
    let mut pieces = Vec::new();
    let err = client(&server.url, 3)
        .chat(
            &request(vec![Message::user("x")]),
            true,
            &mut collect(&mut pieces),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, LlmError::Http { status: 529, attempts: 1, ref message, .. } if message == "Overloaded"),
        "{err:?}"
    );
    assert_eq!(pieces, ["Half an "]);
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn overloaded_before_any_text_is_retried() {
    let overloaded = Reply::sse(vec![
        stream_start(),
        event(
            "error",
            &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ),
    ]);
    let ok = Reply::sse(vec![
        stream_start(),
        text_delta("fine"),
        event(
            "message_delta",
            &json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}),
        ),
        event("message_stop", &json!({"type": "message_stop"})),
    ]);
    let server = TestServer::script(vec![overloaded, ok]).await;
    let mut pieces = Vec::new();
    let answer = client(&server.url, 2)
        .chat(
            &request(vec![Message::user("x")]),
            true,
            &mut collect(&mut pieces),
        )
        .await
        .unwrap();
    assert_eq!(answer.message.content, "fine");
    assert_eq!(answer.stop_reason, StopReason::EndTurn);
    assert_eq!(pieces, ["fine"]);
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn a_stream_that_stalls_after_text_times_out_without_retry() {
    let server = TestServer::script(vec![
        Reply::sse(vec![
            stream_start(),
            text_delta("Start"),
            text_delta(" never ends"),
        ])
        .stall(2, Duration::from_secs(5)),
    ])
    .await;
    let mut config = config(ProviderKind::Anthropic, &server.url, Some(KEY), 3);
    config.timeout = Duration::from_millis(500);
    let mut pieces = Vec::new();
    let err = AnthropicClient::new(config)
        .unwrap()
        .chat(
            &request(vec![Message::user("x")]),
            true,
            &mut collect(&mut pieces),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, LlmError::Timeout { attempts: 1, .. }),
        "{err:?}"
    );
    assert_eq!(pieces, ["Start"]);
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn overloaded_529_exhausts_the_retries() {
    let server = TestServer::script(vec![api_error(529, "overloaded_error", "Overloaded")]).await;
    let err = client(&server.url, 1)
        .chat(&request(vec![Message::user("x")]), false, &mut NoStream)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            LlmError::Http {
                status: 529,
                attempts: 2,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(server.count(), 2);
}

/// Issue 15: streamed thinking never reaches the sink, and comes back with the message
/// (signature included) so the next request of the tool loop can send it back unchanged.
#[tokio::test]
async fn streamed_thinking_is_kept_for_the_next_request_and_never_shown() {
    let delta = |index: u64, delta: Value| {
        event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": index, "delta": delta}),
        )
    };
    let chunks = vec![
        stream_start(),
        event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
        ),
        delta(0, json!({"type": "thinking_delta", "thinking": "Check "})),
        delta(0, json!({"type": "thinking_delta", "thinking": "a.txt."})),
        delta(
            0,
            json!({"type": "signature_delta", "signature": "sig-123"}),
        ),
        event(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": 0}),
        ),
        event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 1, "content_block": {"type": "redacted_thinking", "data": "opaque"}}),
        ),
        event(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": 1}),
        ),
        event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": 2, "content_block": {"type": "text", "text": ""}}),
        ),
        delta(2, json!({"type": "text_delta", "text": "Done."})),
        event(
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": 2}),
        ),
        event(
            "message_delta",
            &json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}}),
        ),
        event("message_stop", &json!({"type": "message_stop"})),
    ];
    let server = TestServer::script(vec![Reply::sse(chunks), text_reply("Again.")]).await;
    let client = client(&server.url, 0);
    let mut pieces = Vec::new();
    let answer = client
        .chat(
            &request(vec![Message::user("hi")]),
            true,
            &mut collect(&mut pieces),
        )
        .await
        .unwrap();
    assert_eq!(pieces, ["Done."]);
    assert_eq!(
        answer.message.reasoning,
        [
            json!({"type": "thinking", "thinking": "Check a.txt.", "signature": "sig-123"}),
            json!({"type": "redacted_thinking", "data": "opaque"}),
        ]
    );
    let next = request(vec![
        Message::user("hi"),
        answer.message,
        Message::user("again"),
    ]);
    client.chat(&next, false, &mut NoStream).await.unwrap();
    let sent = &server.requests()[1].body;
    assert_eq!(sent["messages"][1]["content"][0]["signature"], "sig-123");
    assert_eq!(
        sent["messages"][1]["content"][1]["type"],
        "redacted_thinking"
    );
    assert_eq!(sent["messages"][1]["content"][2]["text"], "Done.");
}
