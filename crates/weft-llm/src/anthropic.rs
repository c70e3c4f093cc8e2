//! The Anthropic Messages API (`POST {base_url}/v1/messages`).

mod response;

use std::fmt;

use async_trait::async_trait;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::{Map, Value, json};

use crate::http::{Endpoint, HttpClient, number_f32, secret_header};
use crate::{
    ChatModel, ChatRequest, ChatResponse, LlmError, Message, ProviderConfig, ProviderKind, Role,
    TextSink,
};

/// The API version this client speaks.
const API_VERSION: &str = "2023-06-01";

/// Output cap sent when the request has none (the API requires one).
const DEFAULT_MAX_TOKENS: u32 = 8192;

/// A client for the Anthropic Messages API.
pub struct AnthropicClient {
    name: String,
    endpoint: Endpoint,
    headers: HeaderMap,
    http: HttpClient,
}

impl fmt::Debug for AnthropicClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Headers are left out: they hold the key.
        f.debug_struct("AnthropicClient")
            .field("provider", &self.name)
            .field("endpoint", &self.endpoint)
            .field("http", &self.http)
            .finish_non_exhaustive()
    }
}

impl AnthropicClient {
    /// Builds the client; an empty `base_url` means Anthropic's own.
    pub fn new(config: ProviderConfig) -> Result<Self, LlmError> {
        let base_url = match config.base_url.trim() {
            "" => ProviderConfig::default_base_url(ProviderKind::Anthropic),
            url => url,
        };
        let endpoint = Endpoint::new(&config.name, base_url, "/v1/messages")?;
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(
            HeaderName::from_static("anthropic-version"),
            HeaderValue::from_static(API_VERSION),
        );
        if let Some(key) = &config.api_key {
            let name = HeaderName::from_static("x-api-key");
            secret_header(&config.name, name, key.expose(), &mut headers)?;
        }
        Ok(Self {
            http: HttpClient::new(&config)?,
            name: config.name,
            endpoint,
            headers,
        })
    }
}

#[async_trait]
impl ChatModel for AnthropicClient {
    fn provider(&self) -> &str {
        &self.name
    }

    async fn chat(
        &self,
        request: &ChatRequest,
        stream: bool,
        sink: &mut dyn TextSink,
    ) -> Result<ChatResponse, LlmError> {
        let body = request_body(request, stream);
        let headers = crate::http::with_accept(&self.headers, stream);
        let mut reader = response::Reader::new(stream, sink, self.http.limits());
        self.http
            .post(&self.endpoint, &headers, &body, &request.model, &mut reader)
            .await
    }
}

/// Output tokens left for the answer above a thinking budget (`max_tokens` must exceed it).
const ANSWER_TOKENS: u32 = 4096;

/// The thinking budget for `request`: its effort on a model with extended thinking, and only
/// when the current tool-use loop began with thinking (the API wants the last assistant
/// message of a loop to start with its thinking block, so it cannot be switched on halfway).
fn thinking_budget(request: &ChatRequest) -> Option<u32> {
    let budget = match request.reasoning_effort.as_deref()? {
        "low" => 1024,
        "medium" => 4096,
        "high" => 16_384,
        // Claude Code's `xhigh` sits between high and max; the API's highest budget serves both.
        "max" | "xhigh" => 32_000,
        _ => return None,
    };
    let id = request.model.to_ascii_lowercase();
    let thinks = id.contains("claude-3-7")
        || ["sonnet-4", "opus-4", "haiku-4"]
            .iter()
            .any(|m| id.contains(m));
    if !thinks {
        return None;
    }
    let loop_start = request
        .messages
        .iter()
        .rposition(|m| m.role == Role::User)
        .unwrap_or(0);
    let unthinking = request.messages[loop_start..]
        .iter()
        .any(|m| m.role == Role::Assistant && m.reasoning.is_empty());
    if unthinking {
        tracing::debug!("thinking not switched on in the middle of a tool-use loop");
        return None;
    }
    Some(budget)
}

/// The wire form of `request`.
fn request_body(request: &ChatRequest, stream: bool) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    let budget = thinking_budget(request);
    let mut max_tokens = request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
    if let Some(budget) = budget {
        max_tokens = max_tokens.max(budget + ANSWER_TOKENS);
        body.insert(
            "thinking".into(),
            json!({"type": "enabled", "budget_tokens": budget}),
        );
    }
    body.insert("max_tokens".into(), json!(max_tokens));
    if let Some(system) = &request.system {
        // A block rather than a string, to carry the cache breakpoint after the system
        // prompt (the catalog is part of it).
        body.insert(
            "system".into(),
            json!([{"type": "text", "text": system, "cache_control": ephemeral()}]),
        );
    }
    let mut messages = wire_messages(&request.messages);
    mark_conversation(&mut messages);
    body.insert("messages".into(), Value::Array(messages));
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.input_schema,
                })
            })
            .collect();
        if let Some(Value::Object(last)) = tools.last_mut() {
            last.insert("cache_control".into(), ephemeral());
        }
        body.insert("tools".into(), Value::Array(tools));
    }
    // Extended thinking takes no temperature other than the default.
    if let Some(temperature) = request.temperature.filter(|_| budget.is_none()) {
        body.insert("temperature".into(), number_f32(temperature));
    }
    if stream {
        body.insert("stream".into(), Value::Bool(true));
    }
    Value::Object(body)
}

/// The cache breakpoint marker: the prefix up to and including the marked block is written
/// to Anthropic's prompt cache (five minutes, refreshed by each read), and a later request
/// whose prefix is the same reads it at a tenth of the input price.
fn ephemeral() -> Value {
    json!({"type": "ephemeral"})
}

/// Puts the conversation's cache breakpoints: on the last message (what this request adds
/// is cached for the next one) and on the end of the previous request, the user message
/// before the last assistant message (so that request's cache entry is read even when this
/// one added more than the API's twenty-block look-back). With the tools' and the system
/// prompt's, that is the API's limit of four breakpoints.
fn mark_conversation(messages: &mut [Value]) {
    let Some(last) = messages.len().checked_sub(1) else {
        return;
    };
    mark_last_block(&mut messages[last]);
    let last_assistant = messages
        .iter()
        .rposition(|m| m.get("role").and_then(Value::as_str) == Some("assistant"));
    if let Some(previous) = last_assistant.and_then(|i| i.checked_sub(1))
        && previous != last
    {
        mark_last_block(&mut messages[previous]);
    }
}

/// Marks the last block of `message` that can carry a breakpoint: not a thinking block
/// (the API refuses one there) and not empty text.
fn mark_last_block(message: &mut Value) {
    let Some(blocks) = message.get_mut("content").and_then(Value::as_array_mut) else {
        return;
    };
    let block = blocks
        .iter_mut()
        .rev()
        .find(|b| match b.get("type").and_then(Value::as_str) {
            Some("thinking" | "redacted_thinking") | None => false,
            Some("text") => b
                .get("text")
                .and_then(Value::as_str)
                .is_some_and(|t| !t.is_empty()),
            Some(_) => true,
        });
    if let Some(Value::Object(block)) = block {
        block.insert("cache_control".into(), ephemeral());
    }
}

/// The conversation as Anthropic messages: tool results are user content, and consecutive
/// results share one user message (the API expects all results of a turn together).
fn wire_messages(messages: &[Message]) -> Vec<Value> {
    let mut wire = Vec::with_capacity(messages.len());
    let mut results: Vec<Value> = Vec::new();
    for message in messages {
        if message.role == Role::Tool {
            results.push(tool_result(message));
            continue;
        }
        if !results.is_empty() {
            wire.push(json!({"role": "user", "content": std::mem::take(&mut results)}));
        }
        match message.role {
            Role::User => wire.push(json!({
                "role": "user",
                "content": [{"type": "text", "text": message.content}],
            })),
            Role::Assistant => {
                let mut content = Vec::with_capacity(message.tool_calls.len() + 1);
                // Thinking blocks go back first and unchanged (their signature is checked).
                content.extend(message.reasoning.iter().cloned());
                if !message.content.is_empty() {
                    content.push(json!({"type": "text", "text": message.content}));
                }
                for call in &message.tool_calls {
                    let input = if call.arguments.is_object() {
                        call.arguments.clone()
                    } else {
                        // The API only takes an object; an unparsed argument string is dropped.
                        Value::Object(Map::new())
                    };
                    content.push(json!({
                        "type": "tool_use",
                        "id": call.id,
                        "name": call.name,
                        "input": input,
                    }));
                }
                // An assistant message with nothing in it would be rejected by the API.
                if !content.is_empty() {
                    wire.push(json!({"role": "assistant", "content": content}));
                }
            }
            Role::Tool => {}
        }
    }
    if !results.is_empty() {
        wire.push(json!({"role": "user", "content": results}));
    }
    wire
}

fn tool_result(message: &Message) -> Value {
    let mut result = Map::new();
    result.insert("type".into(), json!("tool_result"));
    result.insert(
        "tool_use_id".into(),
        json!(message.tool_call_id.as_deref().unwrap_or_default()),
    );
    result.insert("content".into(), json!(message.content));
    if message.is_error {
        result.insert("is_error".into(), Value::Bool(true));
    }
    Value::Object(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolCall;

    #[test]
    fn consecutive_tool_results_share_one_user_message() {
        let call = |id: &str| ToolCall {
            id: id.into(),
            name: "t".into(),
            arguments: json!("not an object"),
        };
        let messages = vec![
            Message::user("go"),
            Message::assistant("", vec![call("a"), call("b")]),
            Message::tool_result("a", "ok", false),
            Message::tool_result("b", "bad", true),
            Message::assistant("", vec![]),
            Message::user("next"),
        ];
        assert_eq!(
            Value::Array(wire_messages(&messages)),
            json!([
                {"role": "user", "content": [{"type": "text", "text": "go"}]},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "a", "name": "t", "input": {}},
                    {"type": "tool_use", "id": "b", "name": "t", "input": {}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "a", "content": "ok"},
                    {"type": "tool_result", "tool_use_id": "b", "content": "bad", "is_error": true},
                ]},
                {"role": "user", "content": [{"type": "text", "text": "next"}]},
            ])
        );
    }

    #[test]
    fn effort_is_a_thinking_budget_that_never_starts_halfway_through_a_loop() {
        let thinking = json!({"type": "thinking", "thinking": "hm", "signature": "sig"});
        let mut request = ChatRequest {
            model: "claude-sonnet-4-5".into(),
            system: None,
            messages: vec![Message::user("hi")],
            tools: vec![],
            temperature: Some(0.2),
            max_tokens: Some(1000),
            reasoning_effort: Some("medium".into()),
        };
        let body = request_body(&request, false);
        assert_eq!(
            body["thinking"],
            json!({"type": "enabled", "budget_tokens": 4096})
        );
        assert_eq!(body["max_tokens"], 4096 + ANSWER_TOKENS);
        assert!(body.get("temperature").is_none());
        // The loop's assistant message goes back with its thinking block first.
        let call = crate::ToolCall {
            id: "t1".into(),
            name: "f".into(),
            arguments: json!({}),
        };
        request.messages.push(
            Message::assistant("", vec![call.clone()]).with_reasoning(vec![thinking.clone()]),
        );
        request
            .messages
            .push(Message::tool_result("t1", "ok", false));
        let body = request_body(&request, false);
        assert_eq!(body["messages"][1]["content"][0], thinking);
        assert_eq!(body["thinking"]["budget_tokens"], 4096);
        // An assistant message of this loop without thinking: not switched on now.
        request.messages[1] = Message::assistant("", vec![call]);
        assert!(request_body(&request, false).get("thinking").is_none());
        // A model without extended thinking never gets it.
        request.messages.truncate(1);
        request.model = "claude-3-5-haiku-latest".into();
        assert!(request_body(&request, false).get("thinking").is_none());
    }

    #[test]
    fn defaults_in_the_body() {
        let request = ChatRequest {
            model: "claude".into(),
            system: None,
            messages: vec![Message::user("hi")],
            tools: vec![],
            temperature: None,
            max_tokens: None,
            reasoning_effort: None,
        };
        assert_eq!(
            request_body(&request, false),
            json!({"model": "claude", "max_tokens": 8192, "messages": [
                {"role": "user", "content": [
                    {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}
                ]}
            ]})
        );
    }

    /// Where the request's cache breakpoints are, as (path, block type) pairs.
    fn breakpoints(body: &Value) -> Vec<String> {
        let mut found = Vec::new();
        if body.pointer("/system/0/cache_control").is_some() {
            found.push("system".to_owned());
        }
        for (i, tool) in body["tools"].as_array().into_iter().flatten().enumerate() {
            if tool.get("cache_control").is_some() {
                found.push(format!("tools[{i}]"));
            }
        }
        for (i, message) in body["messages"].as_array().unwrap().iter().enumerate() {
            for (j, block) in message["content"].as_array().unwrap().iter().enumerate() {
                if block.get("cache_control").is_some() {
                    found.push(format!(
                        "messages[{i}][{j}] {}",
                        block["type"].as_str().unwrap()
                    ));
                }
            }
        }
        found
    }

    #[test]
    fn cache_breakpoints_mark_the_stable_prefix_and_the_conversation_within_four() {
        let thinking = json!({"type": "thinking", "thinking": "hm", "signature": "sig"});
        let call = |id: &str| ToolCall {
            id: id.into(),
            name: "read".into(),
            arguments: json!({"path": "a"}),
        };
        let tool = |name: &str| crate::ToolSpec {
            name: name.into(),
            description: "d".into(),
            input_schema: json!({"type": "object"}),
        };
        let request = ChatRequest {
            model: "claude".into(),
            system: Some("be brief".into()),
            messages: vec![
                Message::user("first"),
                Message::assistant("answer", vec![]),
                Message::user("go on"),
                Message::assistant("", vec![call("a"), call("b")])
                    .with_reasoning(vec![thinking.clone()]),
                Message::tool_result("a", "one", false),
                Message::tool_result("b", "two", false),
                Message::assistant("", vec![call("c")]),
                Message::tool_result("c", "three", false),
            ],
            tools: vec![tool("read"), tool("write")],
            temperature: None,
            max_tokens: None,
            reasoning_effort: None,
        };
        let body = request_body(&request, false);
        assert_eq!(
            breakpoints(&body),
            [
                "system",
                "tools[1]",
                "messages[4][1] tool_result",
                "messages[6][0] tool_result",
            ]
        );
        // The system prompt is sent whole, as one block.
        assert_eq!(body["system"][0]["text"], "be brief");
        // A last message ending in thinking is marked on its last other block; a message
        // whose blocks are all thinking, or empty text, gets no marker.
        let mut messages = vec![
            json!({"role": "user", "content": [{"type": "text", "text": ""}]}),
            json!({"role": "assistant", "content": [thinking.clone()]}),
            json!({"role": "user", "content": [{"type": "text", "text": "x"}, thinking]}),
        ];
        mark_conversation(&mut messages);
        assert!(messages[0]["content"][0].get("cache_control").is_none());
        assert_eq!(messages[2]["content"][0]["cache_control"], ephemeral());
        assert!(messages[2]["content"][1].get("cache_control").is_none());
    }
}
