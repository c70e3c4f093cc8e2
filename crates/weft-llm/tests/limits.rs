//! Answers that never end, against both clients on a loopback server that generates them
//! (up to 1.5 GiB, as fast as the client reads): a whole body, an event without an end, endless
//! text, endless tool-call arguments, an endless stream of empty events and an endless error
//! body. Each stops at its cap, long before the server runs out, with an error naming the
//! limit and its configuration key; nothing is retried, and the sink never gets more text than
//! the cap. (weft's memory under the same attacks is measured on the binary, in weft-cli's
//! `limits_cli` tests.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Reply, TestServer, collect, config};
use serde_json::json;
use weft_llm::{
    AnthropicClient, ChatModel, ChatRequest, LlmError, Message, NoStream, OpenAiClient,
    ProviderConfig, ProviderKind, ResponseLimits,
};

/// What a server may send: 1.5 GiB.
const FLOOD: u64 = 3 << 29;

/// The server must have stopped long before the end of its flood.
const STOPPED_EARLY: u64 = 64 << 20;

trait Wire {
    const KIND: ProviderKind;
    /// A whole answer up to where its text starts.
    const WHOLE_TEXT_HEAD: &'static str;
    /// A whole answer up to where the arguments of its one tool call start (as a string for
    /// OpenAI, as a JSON object for Anthropic).
    const WHOLE_CALL_HEAD: &'static str;
    /// The stream up to the first text delta.
    const TEXT_HEAD: &'static str;
    /// The stream up to the first tool-call argument delta.
    const CALL_HEAD: &'static str;
    /// An event that adds to nothing.
    const EMPTY_EVENT: &'static str;
    /// The start of a stream event whose text never ends.
    const ENDLESS_EVENT: &'static str;

    fn client(config: ProviderConfig) -> Box<dyn ChatModel>;
    /// One text delta.
    fn text_event(text: &str) -> String;
    /// One delta of tool-call arguments.
    fn call_event(json: &str) -> String;
}

struct OpenAi;

impl Wire for OpenAi {
    const KIND: ProviderKind = ProviderKind::OpenAi;
    const WHOLE_TEXT_HEAD: &'static str =
        r#"{"choices":[{"index":0,"message":{"role":"assistant","content":""#;
    const WHOLE_CALL_HEAD: &'static str = r#"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":""#;
    const TEXT_HEAD: &'static str =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n";
    const CALL_HEAD: &'static str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}}]}\n\n";
    const EMPTY_EVENT: &'static str = "data: {\"choices\":[{\"index\":0,\"delta\":{}}]}\n\n";
    const ENDLESS_EVENT: &'static str =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"";

    fn client(config: ProviderConfig) -> Box<dyn ChatModel> {
        Box::new(OpenAiClient::new(config).unwrap())
    }

    fn text_event(text: &str) -> String {
        format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": {"content": text}}]})
        )
    }

    fn call_event(json: &str) -> String {
        format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": json}}]}}]})
        )
    }
}

struct Anthropic;

impl Wire for Anthropic {
    const KIND: ProviderKind = ProviderKind::Anthropic;
    const WHOLE_TEXT_HEAD: &'static str =
        r#"{"type":"message","role":"assistant","content":[{"type":"text","text":""#;
    const WHOLE_CALL_HEAD: &'static str = r#"{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"c1","name":"f","input":{"a":""#;
    const TEXT_HEAD: &'static str = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
    );
    const CALL_HEAD: &'static str = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"c1\",\"name\":\"f\",\"input\":{}}}\n\n"
    );
    const EMPTY_EVENT: &'static str = "event: ping\ndata: {\"type\":\"ping\"}\n\n";
    const ENDLESS_EVENT: &'static str = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"";

    fn client(config: ProviderConfig) -> Box<dyn ChatModel> {
        Box::new(AnthropicClient::new(config).unwrap())
    }

    fn text_event(text: &str) -> String {
        format!(
            "event: content_block_delta\ndata: {}\n\n",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})
        )
    }

    fn call_event(json: &str) -> String {
        format!(
            "event: content_block_delta\ndata: {}\n\n",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": json}})
        )
    }
}

fn request() -> ChatRequest {
    ChatRequest {
        model: "m".into(),
        system: None,
        messages: vec![Message::user("hi")],
        tools: Vec::new(),
        temperature: None,
        max_tokens: Some(100),
        reasoning_effort: None,
    }
}

/// A client of `W` for `server`, three retries allowed (none may happen), with `limits`.
fn client<W: Wire>(server: &TestServer, limits: ResponseLimits) -> Box<dyn ChatModel> {
    let mut config = config(W::KIND, &server.url, Some("k"), 3);
    config.limits = limits;
    W::client(config)
}

/// Asks `W` on a server answering `reply`, streamed or not; the error, the text the sink got,
/// and the bytes of the flood the server sent.
async fn attack<W: Wire>(
    reply: Reply,
    stream: bool,
    limits: ResponseLimits,
) -> (LlmError, String, u64) {
    let server = TestServer::script(vec![reply.clone()]).await;
    let mut pieces = Vec::new();
    let err = client::<W>(&server, limits)
        .chat(&request(), stream, &mut collect(&mut pieces))
        .await
        .unwrap_err();
    assert_eq!(server.count(), 1, "an answer over a limit is not retried");
    (err, pieces.concat(), reply.flooded())
}

/// `err` is the limit named by `key`, at `limit` bytes, and says how to raise it.
fn assert_limit(err: &LlmError, key: &str, limit: usize) {
    match err {
        LlmError::TooLarge {
            key: k, limit: l, ..
        } => assert_eq!((*k, *l), (key, limit), "{err}"),
        other => panic!("expected the {key} limit, got {other:?}"),
    }
    let shown = err.to_string();
    assert!(
        shown.contains(&format!("`{key}` in the configuration raises the limit")),
        "{shown}"
    );
}

async fn a_whole_answer_of_gigabytes_stops_at_the_body_limit<W: Wire>() {
    let limits = ResponseLimits::default();
    let reply = Reply::flood(200, "application/json", W::WHOLE_TEXT_HEAD, "a", FLOOD);
    let (err, text, sent) = attack::<W>(reply, false, limits).await;
    assert_limit(&err, "limits.response_bytes", 8 << 20);
    assert_eq!(
        err.to_string(),
        "test: the answer is larger than the 8 MiB limit, so it was not read to the end; `limits.response_bytes` in the configuration raises the limit"
    );
    assert!(text.is_empty());
    assert!(sent < STOPPED_EARLY, "{sent} bytes sent");
}

async fn a_whole_answer_with_text_or_arguments_over_their_limits_is_refused<W: Wire>() {
    let limits = ResponseLimits {
        text_bytes: 1000,
        tool_arguments_bytes: 1000,
        ..ResponseLimits::default()
    };
    let body = match W::KIND {
        ProviderKind::OpenAi => {
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "a".repeat(1001)}}]})
        }
        _ => json!({"type": "message", "content": [{"type": "text", "text": "a".repeat(1001)}]}),
    };
    let (err, _, _) = attack::<W>(Reply::json(200, body), false, limits).await;
    assert_limit(&err, "limits.text_bytes", 1000);
    let body = match W::KIND {
        ProviderKind::OpenAi => {
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": json!({"a": "b".repeat(1000)}).to_string()}}]}}]})
        }
        _ => {
            json!({"type": "message", "content": [{"type": "tool_use", "id": "c1", "name": "f", "input": {"a": "b".repeat(1000)}}]})
        }
    };
    let (err, _, _) = attack::<W>(Reply::json(200, body.clone()), false, limits).await;
    assert_limit(&err, "limits.tool_arguments_bytes", 1000);
    // Raised, the same answer goes through.
    let server = TestServer::script(vec![Reply::json(200, body)]).await;
    let raised = ResponseLimits {
        tool_arguments_bytes: 2000,
        ..limits
    };
    let answer = client::<W>(&server, raised)
        .chat(&request(), false, &mut NoStream)
        .await
        .unwrap();
    assert_eq!(answer.message.tool_calls.len(), 1);
}

async fn whole_arguments_of_gigabytes_stop_at_the_body_limit<W: Wire>() {
    let reply = Reply::flood(200, "application/json", W::WHOLE_CALL_HEAD, "b", FLOOD);
    let (err, _, sent) = attack::<W>(reply, false, ResponseLimits::default()).await;
    assert_limit(&err, "limits.response_bytes", 8 << 20);
    assert!(sent < STOPPED_EARLY, "{sent} bytes sent");
}

async fn an_event_that_never_ends_stops_at_the_event_limit<W: Wire>() {
    let reply = Reply::flood(200, "text/event-stream", W::ENDLESS_EVENT, "a", FLOOD);
    let (err, text, sent) = attack::<W>(reply, true, ResponseLimits::default()).await;
    assert_limit(&err, "limits.event_bytes", 4 << 20);
    assert!(text.is_empty(), "nothing of an unfinished event is shown");
    assert!(sent < STOPPED_EARLY, "{sent} bytes sent");
}

async fn lines_without_a_blank_line_stop_at_the_event_limit<W: Wire>() {
    let limits = ResponseLimits {
        event_bytes: 64 * 1024,
        ..ResponseLimits::default()
    };
    let reply = Reply::flood(
        200,
        "text/event-stream",
        W::TEXT_HEAD,
        "data: {\"x\":1}\n",
        FLOOD,
    );
    let (err, _, sent) = attack::<W>(reply, true, limits).await;
    assert_limit(&err, "limits.event_bytes", 64 * 1024);
    assert!(sent < STOPPED_EARLY, "{sent} bytes sent");
}

async fn endless_text_stops_at_the_text_limit_and_the_sink_gets_no_more<W: Wire>() {
    let limits = ResponseLimits::default();
    let event = W::text_event(&"a".repeat(1000));
    let reply = Reply::flood(200, "text/event-stream", W::TEXT_HEAD, &event, FLOOD);
    let (err, text, sent) = attack::<W>(reply, true, limits).await;
    assert_limit(&err, "limits.text_bytes", 4 << 20);
    assert!(text.len() <= 4 << 20, "{} bytes shown", text.len());
    assert!(text.len() > (4 << 20) - 1000, "{} bytes shown", text.len());
    assert!(sent < STOPPED_EARLY, "{sent} bytes sent");
}

async fn endless_tool_arguments_stop_at_their_limit<W: Wire>() {
    let event = W::call_event(&"\\\"b".repeat(500));
    let reply = Reply::flood(200, "text/event-stream", W::CALL_HEAD, &event, FLOOD);
    let (err, text, sent) = attack::<W>(reply, true, ResponseLimits::default()).await;
    assert_limit(&err, "limits.tool_arguments_bytes", 4 << 20);
    assert!(text.is_empty());
    assert!(sent < STOPPED_EARLY, "{sent} bytes sent");
}

async fn endless_empty_events_stop_at_the_stream_limit<W: Wire>() {
    let limits = ResponseLimits {
        stream_bytes: 1 << 20,
        ..ResponseLimits::default()
    };
    let reply = Reply::flood(
        200,
        "text/event-stream",
        W::TEXT_HEAD,
        W::EMPTY_EVENT,
        FLOOD,
    );
    let (err, _, sent) = attack::<W>(reply, true, limits).await;
    assert_limit(&err, "limits.stream_bytes", 1 << 20);
    assert_eq!(
        err.to_string(),
        "test: the streamed answer is larger than the 1 MiB limit, so it was not read to the end; `limits.stream_bytes` in the configuration raises the limit"
    );
    assert!(sent < STOPPED_EARLY, "{sent} bytes sent");
}

async fn many_empty_tool_calls_count_against_the_arguments_limit<W: Wire>() {
    // Each event opens another call (or block) with nothing in it.
    let limits = ResponseLimits {
        tool_arguments_bytes: 64 * 1024,
        ..ResponseLimits::default()
    };
    let events: String = (0..2000)
        .map(|i| match W::KIND {
            ProviderKind::OpenAi => format!(
                "data: {}\n\n",
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i}]}}]})
            ),
            _ => format!(
                "event: content_block_start\ndata: {}\n\n",
                json!({"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": "", "name": "", "input": {}}})
            ),
        })
        .collect();
    let reply = Reply::sse(vec![W::TEXT_HEAD.to_owned(), events]);
    let (err, _, _) = attack::<W>(reply, true, limits).await;
    assert_limit(&err, "limits.tool_arguments_bytes", 64 * 1024);
}

async fn an_endless_error_body_is_cut_and_the_status_still_decides<W: Wire>() {
    let reply = Reply::flood(500, "text/plain", "upstream exploded: ", "x ", FLOOD);
    let server = TestServer::script(vec![reply.clone()]).await;
    let err = client::<W>(&server, ResponseLimits::default())
        .chat(&request(), false, &mut NoStream)
        .await
        .unwrap_err();
    match &err {
        LlmError::Http {
            status: 500,
            attempts: 4,
            message,
            ..
        } => {
            assert!(message.starts_with("upstream exploded: x x"), "{message}");
            assert!(message.chars().count() <= 300, "{message}");
        }
        other => panic!("{other:?}"),
    }
    // Four attempts, each read no further than the error cap (and what the socket buffers).
    assert!(reply.flooded() < STOPPED_EARLY, "{}", reply.flooded());
}

async fn a_long_provider_message_is_cut<W: Wire>() {
    let body = json!({"error": {"message": "m".repeat(50_000), "type": "invalid_request_error"}});
    let server = TestServer::script(vec![Reply::json(400, body)]).await;
    let err = client::<W>(&server, ResponseLimits::default())
        .chat(&request(), false, &mut NoStream)
        .await
        .unwrap_err();
    let shown = err.to_string();
    assert!(shown.len() < 2_200, "{} bytes", shown.len());
    assert!(shown.ends_with("m…"), "{shown}");
}

/// Instantiates each test for both clients.
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
    a_whole_answer_of_gigabytes_stops_at_the_body_limit,
    a_whole_answer_with_text_or_arguments_over_their_limits_is_refused,
    whole_arguments_of_gigabytes_stop_at_the_body_limit,
    an_event_that_never_ends_stops_at_the_event_limit,
    lines_without_a_blank_line_stop_at_the_event_limit,
    endless_text_stops_at_the_text_limit_and_the_sink_gets_no_more,
    endless_tool_arguments_stop_at_their_limit,
    endless_empty_events_stop_at_the_stream_limit,
    many_empty_tool_calls_count_against_the_arguments_limit,
    an_endless_error_body_is_cut_and_the_status_still_decides,
    a_long_provider_message_is_cut,
);
