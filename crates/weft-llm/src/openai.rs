//! OpenAI-compatible chat completions (`POST {base_url}/chat/completions`): OpenAI, Ollama,
//! vLLM, llama.cpp server, OpenRouter and others speaking the same protocol.

mod response;

use std::fmt;

use async_trait::async_trait;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue};
use serde_json::{Map, Value, json};

use crate::http::{Endpoint, HttpClient, number_f32, secret_header};
use crate::{
    ChatModel, ChatRequest, ChatResponse, LlmError, Message, ProviderConfig, ProviderKind, Role,
    TextSink, ToolCall,
};

/// A client for an OpenAI-compatible chat-completions endpoint.
pub struct OpenAiClient {
    name: String,
    endpoint: Endpoint,
    headers: HeaderMap,
    http: HttpClient,
}

impl fmt::Debug for OpenAiClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Headers are left out: they hold the key.
        f.debug_struct("OpenAiClient")
            .field("provider", &self.name)
            .field("endpoint", &self.endpoint)
            .field("http", &self.http)
            .finish_non_exhaustive()
    }
}

impl OpenAiClient {
    /// Builds the client; an empty `base_url` means OpenAI's own.
    pub fn new(config: ProviderConfig) -> Result<Self, LlmError> {
        let base_url = match config.base_url.trim() {
            "" => ProviderConfig::default_base_url(ProviderKind::OpenAi),
            url => url,
        };
        let endpoint = Endpoint::new(&config.name, base_url, "/chat/completions")?;
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(key) = &config.api_key {
            let value = format!("Bearer {}", key.expose());
            secret_header(&config.name, AUTHORIZATION, &value, &mut headers)?;
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
impl ChatModel for OpenAiClient {
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

/// True for OpenAI's reasoning models (`o1`, `o3`, `o4-mini`, `gpt-5`, `gpt-oss`, also behind a
/// router prefix such as `openai/o3`): the others reject `reasoning_effort` outright.
fn takes_reasoning_effort(model: &str) -> bool {
    let id = model
        .rsplit('/')
        .next()
        .unwrap_or(model)
        .to_ascii_lowercase();
    ["o1", "o3", "o4", "gpt-5", "gpt-oss"]
        .iter()
        .any(|p| id.starts_with(p))
}

/// The wire form of `request`.
fn request_body(request: &ChatRequest, stream: bool) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if let Some(system) = &request.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    messages.extend(request.messages.iter().map(wire_message));
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("messages".into(), Value::Array(messages));
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.input_schema,
                    }
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(effort) = request.reasoning_effort.as_deref()
        && takes_reasoning_effort(&request.model)
    {
        // OpenAI's highest level is `high`: Claude Code's `xhigh` and `max` map to it.
        let effort = if matches!(effort, "max" | "xhigh") {
            "high"
        } else {
            effort
        };
        body.insert("reasoning_effort".into(), json!(effort));
    }
    if let Some(temperature) = request.temperature {
        body.insert("temperature".into(), number_f32(temperature));
    }
    if let Some(max_tokens) = request.max_tokens {
        body.insert("max_tokens".into(), json!(max_tokens));
    }
    if stream {
        body.insert("stream".into(), Value::Bool(true));
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    Value::Object(body)
}

fn wire_message(message: &Message) -> Value {
    match message.role {
        Role::User => json!({"role": "user", "content": message.content}),
        Role::Tool => json!({
            "role": "tool",
            "tool_call_id": message.tool_call_id.as_deref().unwrap_or_default(),
            "content": message.content,
        }),
        Role::Assistant => {
            let mut wire = Map::new();
            wire.insert("role".into(), json!("assistant"));
            let content = if message.content.is_empty() && !message.tool_calls.is_empty() {
                Value::Null
            } else {
                json!(message.content)
            };
            wire.insert("content".into(), content);
            if !message.tool_calls.is_empty() {
                let calls = message.tool_calls.iter().map(wire_tool_call).collect();
                wire.insert("tool_calls".into(), Value::Array(calls));
            }
            Value::Object(wire)
        }
    }
}

fn wire_tool_call(call: &ToolCall) -> Value {
    let arguments = match &call.arguments {
        // An argument string that did not parse is sent back as the model wrote it.
        Value::String(raw) => raw.clone(),
        other => other.to_string(),
    };
    json!({
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolSpec;

    #[test]
    fn body_shape() {
        let request = ChatRequest {
            model: "gpt-x".into(),
            system: Some("be brief".into()),
            messages: vec![
                Message::user("hi"),
                Message::assistant(
                    "",
                    vec![ToolCall {
                        id: "c1".into(),
                        name: "read".into(),
                        arguments: json!({"path": "a"}),
                    }],
                ),
                Message::tool_result("c1", "contents", false),
            ],
            tools: vec![ToolSpec {
                name: "read".into(),
                description: "reads".into(),
                input_schema: json!({"type": "object"}),
            }],
            temperature: Some(0.2),
            max_tokens: None,
            reasoning_effort: None,
        };
        let body = request_body(&request, true);
        assert_eq!(
            body,
            json!({
                "model": "gpt-x",
                "messages": [
                    {"role": "system", "content": "be brief"},
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": null, "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{\"path\":\"a\"}"}}
                    ]},
                    {"role": "tool", "tool_call_id": "c1", "content": "contents"},
                ],
                "tools": [{"type": "function", "function": {"name": "read", "description": "reads", "parameters": {"type": "object"}}}],
                "temperature": 0.2,
                "stream": true,
                "stream_options": {"include_usage": true},
            })
        );
    }

    #[test]
    fn unparsed_arguments_go_back_verbatim() {
        let call = ToolCall {
            id: "c".into(),
            name: "n".into(),
            arguments: json!("{not json"),
        };
        assert_eq!(wire_tool_call(&call)["function"]["arguments"], "{not json");
    }
}
