//! The OpenAI-compatible client against a real loopback server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Reply, TestServer, collect, config, data};
use serde_json::{Value, json};
use weft_llm::{
    ChatModel, ChatRequest, LlmError, Message, NoStream, OpenAiClient, ProviderKind, StopReason,
    ToolCall, ToolSpec, Usage,
};

const KEY: &str = "sk-test-very-secret-4242";

fn client(url: &str, max_retries: u32) -> OpenAiClient {
    OpenAiClient::new(config(ProviderKind::OpenAi, url, Some(KEY), max_retries)).unwrap()
}

fn read_tool() -> ToolSpec {
    ToolSpec {
        name: "read_file".into(),
        description: "Reads a file".into(),
        input_schema: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
    }
}

fn request(messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: "gpt-test".into(),
        system: Some("You are terse.".into()),
        messages,
        tools: vec![read_tool()],
        temperature: Some(0.2),
        max_tokens: Some(100),
        reasoning_effort: None,
    }
}

fn completion(message: Value, finish: &str) -> Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
    })
}

fn text_reply(text: &str) -> Reply {
    Reply::json(
        200,
        completion(json!({"role": "assistant", "content": text}), "stop"),
    )
}

#[tokio::test]
async fn no_key_no_tools_no_options() {
    let server = TestServer::script(vec![text_reply("ok")]).await;
    let client = OpenAiClient::new(config(ProviderKind::OpenAi, &server.url, None, 0)).unwrap();
    let request = ChatRequest {
        model: "llama".into(),
        system: None,
        messages: vec![Message::user("hi")],
        tools: vec![],
        temperature: None,
        max_tokens: None,
        reasoning_effort: None,
    };
    client.chat(&request, false, &mut NoStream).await.unwrap();
    let sent = &server.requests()[0];
    assert_eq!(sent.header("authorization"), None);
    assert_eq!(
        sent.body,
        json!({"model": "llama", "messages": [{"role": "user", "content": "hi"}]})
    );
}

#[tokio::test]
async fn tool_call_then_the_result_goes_back() {
    let call = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [{"id": "call_abc", "type": "function",
            "function": {"name": "read_file", "arguments": "{\"path\":\"src/lib.rs\"}"}}],
    });
    let server = TestServer::script(vec![
        Reply::json(200, completion(call, "tool_calls")),
        text_reply("It has 3 lines."),
    ])
    .await;
    let client = client(&server.url, 0);
    let mut messages = vec![Message::user("how long is src/lib.rs?")];
    let first = client
        .chat(&request(messages.clone()), false, &mut NoStream)
        .await
        .unwrap();
    assert_eq!(first.stop_reason, StopReason::ToolUse);
    assert_eq!(first.message.content, "");
    assert_eq!(
        first.message.tool_calls,
        vec![ToolCall {
            id: "call_abc".into(),
            name: "read_file".into(),
            arguments: json!({"path": "src/lib.rs"}),
        }]
    );

    messages.push(first.message);
    messages.push(Message::tool_result("call_abc", "a\nb\nc", false));
    let second = client
        .chat(&request(messages), false, &mut NoStream)
        .await
        .unwrap();
    assert_eq!(second.message.content, "It has 3 lines.");

    let sent = &server.requests()[1].body["messages"];
    assert_eq!(
        sent,
        &json!([
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "how long is src/lib.rs?"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "call_abc", "type": "function",
                "function": {"name": "read_file", "arguments": "{\"path\":\"src/lib.rs\"}"}}]},
            {"role": "tool", "tool_call_id": "call_abc", "content": "a\nb\nc"},
        ])
    );
}

fn delta(delta: Value, finish: Option<&str>) -> String {
    data(
        &json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
    )
}

#[tokio::test]
async fn streaming_text_and_tool_call_fragments() {
    let chunks = vec![
        delta(json!({"role": "assistant", "content": ""}), None),
        delta(json!({"content": "Let me "}), None),
        delta(json!({"content": "look"}), None),
        delta(json!({"content": "."}), None),
        delta(
            json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "read_file", "arguments": ""}}]}),
            None,
        ),
        delta(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"pa"}}]}),
            None,
        ),
        delta(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "th\": \"a.txt\"}"}}]}),
            None,
        ),
        delta(json!({}), Some("tool_calls")),
        data(
            &json!({"choices": [], "usage": {"prompt_tokens": 20, "completion_tokens": 9,
            "prompt_tokens_details": {"cached_tokens": 16}}}),
        ),
        "data: [DONE]\n\n".to_owned(),
    ];
    let server = TestServer::script(vec![Reply::sse(chunks)]).await;
    let client = client(&server.url, 0);
    let mut pieces = Vec::new();
    let answer = client
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
    assert_eq!(answer.usage, Usage::new(20, 9).with_cache(16, 0));
    assert_eq!(answer.message.tool_calls.len(), 1);
    assert_eq!(answer.message.tool_calls[0].id, "call_1");
    assert_eq!(answer.message.tool_calls[0].name, "read_file");
    assert_eq!(
        answer.message.tool_calls[0].arguments,
        json!({"path": "a.txt"})
    );

    let sent = &server.requests()[0];
    assert_eq!(sent.body["stream"], json!(true));
    assert_eq!(sent.body["stream_options"], json!({"include_usage": true}));
    assert_eq!(sent.header("accept"), Some("text/event-stream"));
}

#[tokio::test]
async fn a_stream_split_mid_event_still_parses() {
    let whole = delta(json!({"content": "split"}), Some("stop"));
    let (a, b) = whole.split_at(17);
    let server = TestServer::script(vec![Reply::sse(vec![
        a.to_owned(),
        b.to_owned(),
        "data: [DONE]\n\n".into(),
    ])])
    .await;
    let mut pieces = Vec::new();
    let answer = client(&server.url, 0)
        .chat(
            &request(vec![Message::user("x")]),
            true,
            &mut collect(&mut pieces),
        )
        .await
        .unwrap();
    assert_eq!(answer.message.content, "split");
    assert_eq!(pieces, ["split"]);
}

#[tokio::test]
async fn a_stream_without_choices_is_malformed() {
    let server = TestServer::script(vec![Reply::sse(vec!["data: [DONE]\n\n".into()])]).await;
    let err = client(&server.url, 2)
        .chat(&request(vec![Message::user("x")]), true, &mut NoStream)
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Malformed { .. }), "{err:?}");
    assert_eq!(server.count(), 1, "malformed answers are not retried");
}

#[tokio::test]
async fn an_error_after_streamed_text_is_returned_not_retried() {
    let chunks = vec![
        delta(json!({"content": "Half an "}), None),
        data(&json!({"error": {"message": "upstream went away", "code": 502}})),
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
    match err {
        LlmError::Http {
            status: 502,
            attempts: 1,
            message,
            ..
        } => {
            assert_eq!(message, "upstream went away");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(pieces, ["Half an "]);
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn rate_limited_every_time() {
    let server = TestServer::script(vec![
        Reply::json(429, json!({"error": {"message": "slow down"}})).header("retry-after-ms", "1"),
    ])
    .await;
    let err = client(&server.url, 1)
        .chat(&request(vec![Message::user("x")]), false, &mut NoStream)
        .await
        .unwrap_err();
    assert!(
        matches!(err, LlmError::RateLimited { attempts: 2, .. }),
        "{err:?}"
    );
    assert_eq!(server.count(), 2);
}

/// Issue 15: a skill's `effort` is `reasoning_effort` for reasoning models only (`max` and
/// Claude Code's `xhigh` are `high`); models that reject the parameter never get it.
#[tokio::test]
async fn reasoning_effort_goes_to_reasoning_models_only() {
    let server = TestServer::script(vec![
        text_reply("a"),
        text_reply("b"),
        text_reply("c"),
        text_reply("d"),
    ])
    .await;
    let client = OpenAiClient::new(config(ProviderKind::OpenAi, &server.url, None, 0)).unwrap();
    for (model, effort) in [
        ("o3-mini", "low"),
        ("openrouter/gpt-5", "max"),
        ("gpt-4o", "high"),
        ("o3", "xhigh"),
    ] {
        let request = ChatRequest {
            model: model.into(),
            system: None,
            messages: vec![Message::user("hi")],
            tools: vec![],
            temperature: None,
            max_tokens: None,
            reasoning_effort: Some(effort.into()),
        };
        client.chat(&request, false, &mut NoStream).await.unwrap();
    }
    let sent: Vec<Value> = server
        .requests()
        .iter()
        .map(|r| r.body["reasoning_effort"].clone())
        .collect();
    assert_eq!(
        sent,
        [json!("low"), json!("high"), Value::Null, json!("high")]
    );
}
