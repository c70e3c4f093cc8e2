//! Reading Messages API answers: a whole JSON message, or an SSE stream of events.

use std::collections::BTreeMap;

use eventsource_stream::{EventStreamError, Eventsource};
use futures_util::StreamExt;
use reqwest::Response;
use serde_json::{Map, Value};

use crate::classify::{excerpt, json_kind};
use crate::http::{Failure, ReadResponse};
use crate::limits::{Budget, PART_COST, StreamError, bounded_events, read_body};
use crate::{
    ChatResponse, Message, ResponseLimits, RetryNotice, StopReason, TextSink, ToolCall, Usage,
};

/// Reads one attempt's answer, streaming text to the sink when asked to.
pub(super) struct Reader<'s> {
    stream: bool,
    sink: &'s mut dyn TextSink,
    committed: bool,
    limits: ResponseLimits,
}

impl<'s> Reader<'s> {
    pub(super) fn new(stream: bool, sink: &'s mut dyn TextSink, limits: ResponseLimits) -> Self {
        Self {
            stream,
            sink,
            committed: false,
            limits,
        }
    }

    fn emit(&mut self, text: &str) {
        if !text.is_empty() {
            self.committed = true;
            self.sink.text(text);
        }
    }

    async fn read_stream(&mut self, response: Response) -> Result<ChatResponse, Failure> {
        let mut events = bounded_events(response, self.limits).eventsource();
        let mut state = StreamState::default();
        let mut budget = Budget::new(self.limits);
        while let Some(event) = events.next().await {
            let event = event.map_err(sse_failure)?;
            let data = event.data.trim();
            if data.is_empty() {
                continue;
            }
            let value: Value = serde_json::from_str(data).map_err(|e| {
                Failure::Malformed(format!("stream event is not JSON ({e}): {}", excerpt(data)))
            })?;
            // The `type` field repeats the SSE event name; it is what the API documents.
            let kind = value
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or(&event.event);
            match kind {
                "error" => {
                    return Err(Failure::in_band(&value, data).unwrap_or(Failure::Status {
                        status: 500,
                        body: data.to_owned(),
                        retry_after: None,
                    }));
                }
                "message_start" => {
                    state.started = true;
                    if let Some(usage) = value.pointer("/message/usage") {
                        state.usage.merge(usage);
                    }
                }
                "content_block_start" => {
                    let block = value.get("content_block").unwrap_or(&Value::Null);
                    let text = if block.get("type").and_then(Value::as_str) == Some("text") {
                        block_text(block)?
                    } else {
                        ""
                    };
                    charge_block(&mut budget, block, data.len())?;
                    self.emit(text);
                    state.start_block(index(&value), block);
                }
                "content_block_delta" => {
                    let delta = value.get("delta").unwrap_or(&Value::Null);
                    match delta.get("type").and_then(Value::as_str) {
                        Some("text_delta") => {
                            let text = block_text(delta)?;
                            // Counted before it is shown: the sink never gets more than the cap.
                            budget.text(text.len())?;
                            self.emit(text);
                            state.push_text(index(&value), text);
                        }
                        Some("input_json_delta") => {
                            let json = delta.get("partial_json").and_then(Value::as_str);
                            let json = json.unwrap_or_default();
                            budget.call(json.len())?;
                            state.push_json(index(&value), json);
                        }
                        // Thinking goes back with the message, never to the sink.
                        Some("thinking_delta" | "signature_delta") => {
                            let piece = |key| delta.get(key).and_then(Value::as_str);
                            let thinking = piece("thinking").map_or(0, str::len);
                            budget.text(thinking + piece("signature").map_or(0, str::len))?;
                            state.push_thinking(index(&value), delta);
                        }
                        // Future delta kinds are not part of the answer.
                        _ => {}
                    }
                }
                "content_block_stop" => state.stop_block(index(&value)),
                "message_delta" => {
                    if let Some(reason) =
                        value.pointer("/delta/stop_reason").and_then(Value::as_str)
                    {
                        state.stop_reason = Some(reason.to_owned());
                    }
                    if let Some(usage) = value.get("usage") {
                        state.usage.merge(usage);
                    }
                }
                "message_stop" => {
                    state.stopped = true;
                    break;
                }
                // `ping` and event kinds added later.
                _ => {}
            }
        }
        state.finish()
    }
}

impl ReadResponse for Reader<'_> {
    type Output = ChatResponse;

    async fn read(&mut self, response: Response) -> Result<ChatResponse, Failure> {
        if self.stream && crate::http::is_event_stream(&response) {
            return self.read_stream(response).await;
        }
        let bytes = read_body(response, &self.limits).await?;
        let answer = parse_message(&String::from_utf8_lossy(&bytes))?;
        Budget::new(self.limits).answer(&answer)?;
        if self.stream {
            // The server did not stream: the sink still gets the text, in one piece.
            self.emit(&answer.message.content);
        }
        Ok(answer)
    }

    fn committed(&self) -> bool {
        self.committed
    }

    fn retrying(&mut self, notice: &RetryNotice) {
        self.sink.retrying(notice);
    }
}

/// A whole (non-streaming) Messages API body.
pub(super) fn parse_message(body: &str) -> Result<ChatResponse, Failure> {
    let value: Value = serde_json::from_str(body).map_err(|e| {
        Failure::Malformed(format!("response is not JSON ({e}): {}", excerpt(body)))
    })?;
    if let Some(failure) = Failure::in_band(&value, body) {
        return Err(failure);
    }
    let blocks = value
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| Failure::Malformed(format!("response has no content: {}", excerpt(body))))?;
    let mut text = String::new();
    let mut calls = Vec::new();
    let mut reasoning = Vec::new();
    for block in blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("thinking" | "redacted_thinking") => reasoning.push(block.clone()),
            Some("text") => text.push_str(block_text(block)?),
            Some("tool_use") => calls.push(ToolCall {
                id: string(block, "id"),
                name: string(block, "name"),
                arguments: block.get("input").cloned().unwrap_or_else(empty_object),
            }),
            _ => {}
        }
    }
    let mut usage = WireUsage::default();
    if let Some(reported) = value.get("usage") {
        usage.merge(reported);
    }
    let stop = value.get("stop_reason").and_then(Value::as_str);
    Ok(ChatResponse {
        stop_reason: stop_reason(stop, !calls.is_empty()),
        message: Message::assistant(text, calls).with_reasoning(reasoning),
        usage: usage.usage(),
    })
}

/// Maps `stop_reason`; a missing one is inferred from the presence of tool calls.
pub(super) fn stop_reason(reason: Option<&str>, has_calls: bool) -> StopReason {
    match reason {
        Some("end_turn" | "stop_sequence") => StopReason::EndTurn,
        Some("tool_use") => StopReason::ToolUse,
        Some("max_tokens") => StopReason::MaxTokens,
        Some(other) => StopReason::Other(other.to_owned()),
        None if has_calls => StopReason::ToolUse,
        None => StopReason::EndTurn,
    }
}

/// The `text` of a text block or delta: a string (absent counts as empty), anything else a
/// malformed answer rather than an empty one.
fn block_text(block: &Value) -> Result<&str, Failure> {
    match block.get("text") {
        None | Some(Value::Null) => Ok(""),
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(Failure::Malformed(format!(
            "a text block has {} as its text, not a string",
            json_kind(other)
        ))),
    }
}

/// Usage as the Messages API reports it: `input_tokens` counts only what was neither read
/// from nor written to the cache, so the whole prompt is the sum of the three. A streamed
/// answer reports it in `message_start` and again (cumulative, some fields only) in
/// `message_delta`: each field present replaces the one before.
#[derive(Debug, Default, Clone, Copy)]
struct WireUsage {
    input: u64,
    output: u64,
    cache_read: u64,
    cache_write: u64,
}

impl WireUsage {
    fn merge(&mut self, usage: &Value) {
        for (key, slot) in [
            ("input_tokens", &mut self.input),
            ("output_tokens", &mut self.output),
            ("cache_read_input_tokens", &mut self.cache_read),
            ("cache_creation_input_tokens", &mut self.cache_write),
        ] {
            if let Some(n) = usage.get(key).and_then(Value::as_u64) {
                *slot = n;
            }
        }
    }

    fn usage(self) -> Usage {
        let prompt = self
            .input
            .saturating_add(self.cache_read)
            .saturating_add(self.cache_write);
        Usage::new(prompt, self.output).with_cache(self.cache_read, self.cache_write)
    }
}

fn string(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn index(event: &Value) -> u64 {
    event.get("index").and_then(Value::as_u64).unwrap_or(0)
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn sse_failure(error: EventStreamError<StreamError>) -> Failure {
    match error {
        EventStreamError::Transport(e) => e.into_failure(),
        EventStreamError::Utf8(e) => Failure::Malformed(format!("stream is not UTF-8: {e}")),
        EventStreamError::Parser(e) => Failure::Malformed(format!("stream is not SSE: {e}")),
    }
}

/// Counts a content block that starts against the budget: what it arrives with (its text,
/// a tool's id and name, a block kept verbatim as its event's size) and [`PART_COST`].
fn charge_block(budget: &mut Budget, block: &Value, event_bytes: usize) -> Result<(), Failure> {
    let text = |key| block.get(key).and_then(Value::as_str).map_or(0, str::len);
    match block.get("type").and_then(Value::as_str) {
        Some("tool_use") => budget.call(PART_COST + text("id") + text("name")),
        Some("text") => budget.text(PART_COST + text("text")),
        Some("thinking") => budget.text(PART_COST + text("thinking") + text("signature")),
        Some("redacted_thinking") => budget.text(PART_COST + event_bytes),
        _ => budget.text(PART_COST),
    }
}

/// One content block being streamed.
enum Block {
    Text(String),
    Tool {
        id: String,
        name: String,
        json: String,
        input: Option<Value>,
    },
    /// Extended thinking: not part of the answer, but it goes back with the message.
    Thinking {
        thinking: String,
        signature: String,
    },
    /// A block that goes back as it came (`redacted_thinking`).
    Verbatim(Value),
    /// Blocks that are not part of the answer.
    Other,
}

/// What has arrived so far of a streamed answer.
#[derive(Default)]
struct StreamState {
    blocks: BTreeMap<u64, Block>,
    stop_reason: Option<String>,
    usage: WireUsage,
    started: bool,
    stopped: bool,
}

impl StreamState {
    fn start_block(&mut self, index: u64, block: &Value) {
        let block = match block.get("type").and_then(Value::as_str) {
            Some("text") => Block::Text(string(block, "text")),
            Some("tool_use") => Block::Tool {
                id: string(block, "id"),
                name: string(block, "name"),
                json: String::new(),
                input: None,
            },
            Some("thinking") => Block::Thinking {
                thinking: string(block, "thinking"),
                signature: string(block, "signature"),
            },
            Some("redacted_thinking") => Block::Verbatim(block.clone()),
            _ => Block::Other,
        };
        self.blocks.insert(index, block);
    }

    fn push_text(&mut self, index: u64, text: &str) {
        // A delta without its start still counts as text rather than being lost.
        if let Block::Text(so_far) = self
            .blocks
            .entry(index)
            .or_insert_with(|| Block::Text(String::new()))
        {
            so_far.push_str(text);
        }
    }

    /// A `thinking_delta` (`thinking`) or `signature_delta` (`signature`) of a thinking block.
    fn push_thinking(&mut self, index: u64, delta: &Value) {
        if let Some(Block::Thinking {
            thinking,
            signature,
        }) = self.blocks.get_mut(&index)
        {
            if let Some(piece) = delta.get("thinking").and_then(Value::as_str) {
                thinking.push_str(piece);
            }
            if let Some(piece) = delta.get("signature").and_then(Value::as_str) {
                signature.push_str(piece);
            }
        }
    }

    fn push_json(&mut self, index: u64, piece: &str) {
        if let Some(Block::Tool { json, .. }) = self.blocks.get_mut(&index) {
            json.push_str(piece);
        }
    }

    fn stop_block(&mut self, index: u64) {
        if let Some(Block::Tool { json, input, .. }) = self.blocks.get_mut(&index) {
            *input = Some(parse_input(json));
        }
    }

    fn finish(self) -> Result<ChatResponse, Failure> {
        if !self.started {
            return Err(Failure::Malformed(
                "the stream ended without message_start".to_owned(),
            ));
        }
        if !self.stopped && self.stop_reason.is_none() {
            return Err(Failure::Malformed(
                "the stream ended before message_stop".to_owned(),
            ));
        }
        let mut text = String::new();
        let mut calls = Vec::new();
        let mut reasoning = Vec::new();
        for block in self.blocks.into_values() {
            match block {
                Block::Text(piece) => text.push_str(&piece),
                Block::Thinking {
                    thinking,
                    signature,
                } => reasoning.push(serde_json::json!({
                    "type": "thinking",
                    "thinking": thinking,
                    "signature": signature,
                })),
                Block::Verbatim(block) => reasoning.push(block),
                Block::Tool {
                    id,
                    name,
                    json,
                    input,
                } => calls.push(ToolCall {
                    id,
                    name,
                    arguments: input.unwrap_or_else(|| parse_input(&json)),
                }),
                Block::Other => {}
            }
        }
        Ok(ChatResponse {
            stop_reason: stop_reason(self.stop_reason.as_deref(), !calls.is_empty()),
            message: Message::assistant(text, calls).with_reasoning(reasoning),
            usage: self.usage.usage(),
        })
    }
}

/// Accumulated `partial_json`: empty is `{}`, unparsable is kept as a string.
fn parse_input(json: &str) -> Value {
    if json.trim().is_empty() {
        return empty_object();
    }
    serde_json::from_str(json).unwrap_or_else(|_| Value::String(json.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_message() {
        let body = json!({
            "type": "message", "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hm"},
                {"type": "text", "text": "a"},
                {"type": "text", "text": "b"},
                {"type": "tool_use", "id": "t1", "name": "f", "input": {"x": 1}},
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 3, "output_tokens": 4},
        });
        let answer = parse_message(&body.to_string()).unwrap();
        assert_eq!(answer.message.content, "ab");
        assert_eq!(answer.message.tool_calls[0].arguments, json!({"x": 1}));
        assert_eq!(answer.stop_reason, StopReason::ToolUse);
        assert_eq!(answer.usage, Usage::new(3, 4));
    }

    #[test]
    fn cache_reads_and_writes_are_part_of_the_prompt() {
        let body = json!({
            "content": [{"type": "text", "text": "a"}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 50, "cache_read_input_tokens": 1000,
                      "cache_creation_input_tokens": 200, "output_tokens": 7},
        });
        let answer = parse_message(&body.to_string()).unwrap();
        assert_eq!(answer.usage, Usage::new(1250, 7).with_cache(1000, 200));
        assert_eq!(answer.usage.uncached_input_tokens(), 50);
    }

    #[test]
    fn stop_reasons() {
        assert_eq!(
            stop_reason(Some("stop_sequence"), false),
            StopReason::EndTurn
        );
        assert_eq!(stop_reason(Some("max_tokens"), true), StopReason::MaxTokens);
        assert_eq!(
            stop_reason(Some("refusal"), false),
            StopReason::Other("refusal".into())
        );
        assert_eq!(stop_reason(None, true), StopReason::ToolUse);
    }

    #[test]
    fn error_body_on_200() {
        let body = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert!(matches!(
            parse_message(body),
            Err(Failure::Status { status: 529, .. })
        ));
        assert!(matches!(parse_message("{}"), Err(Failure::Malformed(_))));
        assert_eq!(parse_input(""), json!({}));
        assert_eq!(parse_input("{\"a\""), json!("{\"a\""));
    }
}
