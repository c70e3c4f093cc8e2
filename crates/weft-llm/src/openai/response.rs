//! Reading chat-completions answers: a whole JSON body, or an SSE stream of chunks.

use std::collections::BTreeMap;

use eventsource_stream::{EventStreamError, Eventsource};
use futures_util::StreamExt;
use reqwest::Response;
use serde::Deserialize;
use serde_json::Value;

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
        let mut state = StreamState::new(self.limits);
        while let Some(event) = events.next().await {
            let event = event.map_err(sse_failure)?;
            let data = event.data.trim();
            if data.is_empty() {
                continue;
            }
            if data == "[DONE]" {
                state.done = true;
                break;
            }
            let value: Value = serde_json::from_str(data).map_err(|e| {
                Failure::Malformed(format!("stream chunk is not JSON ({e}): {}", excerpt(data)))
            })?;
            if let Some(failure) = Failure::in_band(&value, data) {
                return Err(failure);
            }
            let chunk: Completion = serde_json::from_value(value).map_err(|e| {
                Failure::Malformed(format!("unexpected stream chunk ({e}): {}", excerpt(data)))
            })?;
            if let Some(usage) = chunk.usage {
                state.usage = usage.into();
            }
            for choice in chunk
                .choices
                .into_iter()
                .filter(|c| c.index.unwrap_or(0) == 0)
            {
                state.saw_choice = true;
                if let Some(delta) = choice.delta {
                    let text = content_text(delta.content.as_ref())?;
                    // Counted before it is shown: the sink never gets more than the cap.
                    state.budget.text(text.len())?;
                    self.emit(&text);
                    state.text.push_str(&text);
                    for (position, call) in delta.tool_calls.into_iter().enumerate() {
                        state.add_call_fragment(position, call)?;
                    }
                }
                if choice.finish_reason.is_some() {
                    state.finish_reason = choice.finish_reason;
                }
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
        let answer = parse_completion(&String::from_utf8_lossy(&bytes))?;
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

/// A whole (non-streaming) chat-completions body.
pub(super) fn parse_completion(body: &str) -> Result<ChatResponse, Failure> {
    let value: Value = serde_json::from_str(body).map_err(|e| {
        Failure::Malformed(format!("response is not JSON ({e}): {}", excerpt(body)))
    })?;
    if let Some(failure) = Failure::in_band(&value, body) {
        return Err(failure);
    }
    let completion: Completion = serde_json::from_value(value).map_err(|e| {
        Failure::Malformed(format!(
            "unexpected response shape ({e}): {}",
            excerpt(body)
        ))
    })?;
    let choice =
        completion.choices.into_iter().next().ok_or_else(|| {
            Failure::Malformed(format!("response has no choices: {}", excerpt(body)))
        })?;
    let message = choice
        .message
        .ok_or_else(|| Failure::Malformed("the first choice has no message".to_owned()))?;
    let content = content_text(message.content.as_ref())?;
    let calls: Vec<ToolCall> = message
        .tool_calls
        .into_iter()
        .enumerate()
        .map(|(i, call)| {
            let function = call.function.unwrap_or_default();
            ToolCall {
                id: call.id.unwrap_or_else(|| format!("call_{i}")),
                name: function.name.unwrap_or_default(),
                arguments: arguments(function.arguments),
            }
        })
        .collect();
    Ok(ChatResponse {
        stop_reason: stop_reason(choice.finish_reason.as_deref(), !calls.is_empty()),
        message: Message::assistant(content, calls),
        usage: completion.usage.map(Usage::from).unwrap_or_default(),
    })
}

/// Maps `finish_reason`. `stop` with tool calls counts as tool use: some local servers
/// report it that way, and the calls must not be dropped.
pub(super) fn stop_reason(finish: Option<&str>, has_calls: bool) -> StopReason {
    match finish {
        Some("tool_calls" | "function_call") => StopReason::ToolUse,
        Some("stop") | None if has_calls => StopReason::ToolUse,
        Some("stop") | None => StopReason::EndTurn,
        Some("length") => StopReason::MaxTokens,
        Some(other) => StopReason::Other(other.to_owned()),
    }
}

/// Tool-call arguments: a JSON string parsed (kept as a string if it does not parse), an
/// object taken as is, nothing as `{}`.
fn arguments(raw: Option<Value>) -> Value {
    match raw {
        Some(Value::String(text)) => parse_arguments(&text),
        Some(Value::Null) | None => Value::Object(serde_json::Map::new()),
        Some(other) => other,
    }
}

fn parse_arguments(text: &str) -> Value {
    if text.trim().is_empty() {
        return Value::Object(serde_json::Map::new());
    }
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// Message content: a string, nothing (`null` or absent, as with tool calls), or (some
/// servers) an array of parts whose `text` parts are joined. Anything else (a number, an
/// object, a text part whose `text` is not a string) is a malformed answer, never an empty one.
fn content_text(content: Option<&Value>) -> Result<String, Failure> {
    match content {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Array(parts)) => {
            let mut text = String::new();
            for part in parts {
                match part.get("text") {
                    Some(Value::String(piece)) => text.push_str(piece),
                    None if part.get("type").and_then(Value::as_str) != Some("text") => {}
                    other => {
                        return Err(Failure::Malformed(format!(
                            "a text part of the message content has {} as its text, not a string",
                            json_kind(other.unwrap_or(&Value::Null))
                        )));
                    }
                }
            }
            Ok(text)
        }
        Some(other) => Err(Failure::Malformed(format!(
            "the message content is {}, not a string",
            json_kind(other)
        ))),
    }
}

fn sse_failure(error: EventStreamError<StreamError>) -> Failure {
    match error {
        EventStreamError::Transport(e) => e.into_failure(),
        EventStreamError::Utf8(e) => Failure::Malformed(format!("stream is not UTF-8: {e}")),
        EventStreamError::Parser(e) => Failure::Malformed(format!("stream is not SSE: {e}")),
    }
}

/// What has arrived so far of a streamed answer.
struct StreamState {
    text: String,
    calls: BTreeMap<usize, PartialCall>,
    finish_reason: Option<String>,
    usage: Usage,
    saw_choice: bool,
    done: bool,
    budget: Budget,
}

#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
    /// Arguments some servers send whole, as an object.
    whole: Option<Value>,
}

impl StreamState {
    fn new(limits: ResponseLimits) -> Self {
        Self {
            text: String::new(),
            calls: BTreeMap::new(),
            finish_reason: None,
            usage: Usage::default(),
            saw_choice: false,
            done: false,
            budget: Budget::new(limits),
        }
    }

    /// Adds a fragment of a tool call, counted against the budget before it is kept.
    fn add_call_fragment(
        &mut self,
        position: usize,
        fragment: WireToolCall,
    ) -> Result<(), Failure> {
        let index = fragment.index.unwrap_or(position);
        let function = fragment.function.unwrap_or_default();
        let arguments = match &function.arguments {
            Some(Value::String(piece)) => piece.len(),
            Some(Value::Null) | None => 0,
            Some(whole) => whole.to_string().len(),
        };
        let new = if self.calls.contains_key(&index) {
            0
        } else {
            PART_COST
        };
        let id = fragment.id.as_ref().map_or(0, String::len);
        let name = function.name.as_ref().map_or(0, String::len);
        self.budget.call(new + id + name + arguments)?;
        let call = self.calls.entry(index).or_default();
        if let Some(id) = fragment.id.filter(|id| !id.is_empty()) {
            call.id = id;
        }
        // The name arrives once, with the first fragment; servers that repeat it are not
        // concatenated.
        if let Some(name) = function.name.filter(|_| call.name.is_empty()) {
            call.name = name;
        }
        match function.arguments {
            Some(Value::String(piece)) => call.arguments.push_str(&piece),
            Some(Value::Null) | None => {}
            Some(whole) => call.whole = Some(whole),
        }
        Ok(())
    }

    fn finish(self) -> Result<ChatResponse, Failure> {
        if !self.saw_choice {
            return Err(Failure::Malformed(
                "the stream ended without any choice".to_owned(),
            ));
        }
        if self.finish_reason.is_none() && !self.done {
            return Err(Failure::Malformed(
                "the stream ended before a finish_reason or [DONE]".to_owned(),
            ));
        }
        let calls: Vec<ToolCall> = self
            .calls
            .into_iter()
            .map(|(index, call)| ToolCall {
                id: if call.id.is_empty() {
                    format!("call_{index}")
                } else {
                    call.id
                },
                name: call.name,
                arguments: call
                    .whole
                    .unwrap_or_else(|| parse_arguments(&call.arguments)),
            })
            .collect();
        Ok(ChatResponse {
            stop_reason: stop_reason(self.finish_reason.as_deref(), !calls.is_empty()),
            message: Message::assistant(self.text, calls),
            usage: self.usage,
        })
    }
}

#[derive(Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct Choice {
    index: Option<u64>,
    message: Option<WireMessage>,
    delta: Option<WireMessage>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct WireMessage {
    content: Option<Value>,
    #[serde(default, deserialize_with = "null_as_default")]
    tool_calls: Vec<WireToolCall>,
}

#[derive(Deserialize)]
struct WireToolCall {
    index: Option<usize>,
    id: Option<String>,
    function: Option<WireFunction>,
}

#[derive(Deserialize, Default)]
struct WireFunction {
    name: Option<String>,
    arguments: Option<Value>,
}

/// `usage`: `prompt_tokens` is the whole prompt, of which `prompt_tokens_details.
/// cached_tokens` came from OpenAI's automatic prefix cache (a server that does not cache
/// leaves it out, or sends `null`).
#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    #[serde(default, deserialize_with = "null_as_default")]
    prompt_tokens_details: PromptDetails,
}

#[derive(Deserialize, Default)]
struct PromptDetails {
    #[serde(default, deserialize_with = "null_as_default")]
    cached_tokens: u64,
}

impl From<WireUsage> for Usage {
    fn from(usage: WireUsage) -> Self {
        let cached = usage
            .prompt_tokens_details
            .cached_tokens
            .min(usage.prompt_tokens);
        Usage::new(usage.prompt_tokens, usage.completion_tokens).with_cache(cached, 0)
    }
}

/// `"tool_calls": null` is as good as absent.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whole_body_with_tool_calls() {
        let body = json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}},
                {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{oops"}},
                {"type": "function", "function": {"name": "h", "arguments": ""}},
            ]}}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 7},
        });
        let answer = parse_completion(&body.to_string()).unwrap();
        assert_eq!(answer.stop_reason, StopReason::ToolUse);
        assert_eq!(answer.usage, Usage::new(5, 7));
        let calls = &answer.message.tool_calls;
        assert_eq!(calls[0].arguments, json!({"x": 1}));
        assert_eq!(calls[1].arguments, json!("{oops"));
        assert_eq!(calls[2].id, "call_2");
        assert_eq!(calls[2].arguments, json!({}));
    }

    #[test]
    fn cached_prompt_tokens_are_cache_reads() {
        let body = json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}],
            "usage": {"prompt_tokens": 2048, "completion_tokens": 9,
                      "prompt_tokens_details": {"cached_tokens": 1920, "audio_tokens": 0}},
        });
        let answer = parse_completion(&body.to_string()).unwrap();
        assert_eq!(answer.usage, Usage::new(2048, 9).with_cache(1920, 0));
        let nulls = json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 1, "prompt_tokens_details": null},
        });
        assert_eq!(
            parse_completion(&nulls.to_string()).unwrap().usage,
            Usage::new(5, 1)
        );
    }

    #[test]
    fn finish_reasons() {
        assert_eq!(stop_reason(Some("stop"), false), StopReason::EndTurn);
        assert_eq!(stop_reason(Some("stop"), true), StopReason::ToolUse);
        assert_eq!(stop_reason(None, true), StopReason::ToolUse);
        assert_eq!(stop_reason(Some("length"), false), StopReason::MaxTokens);
        assert_eq!(
            stop_reason(Some("content_filter"), false),
            StopReason::Other("content_filter".into())
        );
    }

    #[test]
    fn error_inside_a_200_body() {
        let body = r#"{"error":{"message":"upstream died","code":502}}"#;
        match parse_completion(body) {
            Err(Failure::Status { status: 502, .. }) => {}
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_completion("{\"choices\":[]}"),
            Err(Failure::Malformed(_))
        ));
    }

    #[test]
    fn content_parts_join_their_text_and_a_text_that_is_not_a_string_is_malformed() {
        let parts = json!([{"type": "text", "text": "a"}, {"type": "image_url"}, {"text": "b"}]);
        assert_eq!(content_text(Some(&parts)).unwrap(), "ab");
        assert_eq!(content_text(None).unwrap(), "");
        assert_eq!(content_text(Some(&Value::Null)).unwrap(), "");
        for bad in [
            json!(1.5),
            json!(true),
            json!([{"type": "text", "text": 7}]),
            json!([{"type": "text"}]),
        ] {
            assert!(
                matches!(content_text(Some(&bad)), Err(Failure::Malformed(_))),
                "{bad}"
            );
        }
    }
}
