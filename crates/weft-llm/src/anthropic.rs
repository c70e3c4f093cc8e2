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
        let mut reader = response::Reader::new(stream, sink);
        self.http
            .post(&self.endpoint, &headers, &body, &request.model, &mut reader)
            .await
    }
}

/// The wire form of `request`.
fn request_body(request: &ChatRequest, stream: bool) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert(
        "max_tokens".into(),
        json!(request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS)),
    );
    if let Some(system) = &request.system {
        body.insert("system".into(), json!(system));
    }
    body.insert(
        "messages".into(),
        Value::Array(wire_messages(&request.messages)),
    );
    if !request.tools.is_empty() {
        let tools = request
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
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), number_f32(temperature));
    }
    if stream {
        body.insert("stream".into(), Value::Bool(true));
    }
    Value::Object(body)
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
                {"role": "user", "content": [{"type": "text", "text": "hi"}]}
            ]})
        );
    }
}
