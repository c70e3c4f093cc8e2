//! A scripted chat-model server on 127.0.0.1 for the agent-loop tests: it answers the n-th
//! request (counted from 0) with scripted reply n and records every request. It speaks
//! whatever the replies say: OpenAI chat completions (JSON or SSE) or Anthropic Messages.
//!
//! Only axum, tokio and serde_json are used, so test crates other than weft-agents can include
//! this file with `#[path]`.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use axum::routing::post;
use serde_json::{Value, json};
use tokio::task::JoinHandle;

/// The OpenAI chat-completions path (base URL `<server>/v1`).
pub const OPENAI_PATH: &str = "/v1/chat/completions";
/// The Anthropic Messages path (base URL `<server>`).
pub const ANTHROPIC_PATH: &str = "/v1/messages";

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The path it was sent to.
    pub path: String,
    /// The body as JSON (`Null` when it was not JSON).
    pub body: Value,
    /// Every header (`name: value` lines) and the body as received: what a leak check
    /// searches.
    pub raw: String,
}

/// What the server answers to one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A status and a JSON body.
    Json(u16, Value),
    /// A 200 `text/event-stream` body made of these events (sent as they are).
    Sse(Vec<String>),
    /// Never answers (the connection stays open until the server stops).
    Hang,
}

type Script = dyn Fn(usize, &Value) -> Reply + Send + Sync;

/// A scripted server; it stops when dropped.
pub struct ScriptServer {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: JoinHandle<()>,
}

impl ScriptServer {
    /// Serves `POST path`, answering request n with `script(n)`; any other path is a 404.
    pub async fn start(
        path: &str,
        script: impl Fn(usize) -> Reply + Send + Sync + 'static,
    ) -> Self {
        Self::respond(path, move |n, _| script(n)).await
    }

    /// Serves `POST path`, answering request n, whose body is `body`, with
    /// `script(n, body)`: a server that answers like a provider (by what it was sent).
    pub async fn respond(
        path: &str,
        script: impl Fn(usize, &Value) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let requests: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let script: Arc<Script> = Arc::new(script);
        let seen = Arc::clone(&requests);
        let handler = move |uri: Uri, headers: HeaderMap, body: Bytes| {
            let seen = Arc::clone(&seen);
            let script = Arc::clone(&script);
            async move {
                let mut raw = String::new();
                for (name, value) in &headers {
                    raw.push_str(&format!(
                        "{name}: {}\n",
                        String::from_utf8_lossy(value.as_bytes())
                    ));
                }
                raw.push_str(&String::from_utf8_lossy(&body));
                let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let index = {
                    let mut seen = seen.lock().unwrap();
                    seen.push(Recorded {
                        path: uri.path().to_owned(),
                        body: parsed.clone(),
                        raw,
                    });
                    seen.len() - 1
                };
                respond(script(index, &parsed)).await
            }
        };
        let app = Router::new().route(path, post(handler));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            url,
            requests,
            task,
        }
    }

    /// Answers request n with `replies[n]`; a request past the script gets a 400 naming it
    /// (not retried by the clients, so a test that asks too often fails at once).
    pub async fn script(path: &str, replies: Vec<Reply>) -> Self {
        Self::start(path, move |n| {
            replies.get(n).cloned().unwrap_or_else(|| {
                Reply::Json(
                    400,
                    json!({"error": {"message": format!("no scripted reply for request {n}"), "type": "test_script_exhausted"}}),
                )
            })
        })
        .await
    }

    /// An OpenAI-compatible server (`POST /v1/chat/completions`) playing `replies`.
    pub async fn openai(replies: Vec<Reply>) -> Self {
        Self::script(OPENAI_PATH, replies).await
    }

    /// An Anthropic server (`POST /v1/messages`) playing `replies`.
    pub async fn anthropic(replies: Vec<Reply>) -> Self {
        Self::script(ANTHROPIC_PATH, replies).await
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    /// Every request body so far.
    pub fn bodies(&self) -> Vec<Value> {
        self.requests().into_iter().map(|r| r.body).collect()
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    /// Polls (without blocking the runtime) until `n` requests arrived; false on timeout.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> bool {
        let start = Instant::now();
        while self.count() < n {
            if start.elapsed() > timeout {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }
}

impl Drop for ScriptServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn respond(reply: Reply) -> Response {
    let (status, content_type, body) = match reply {
        Reply::Json(status, value) => (status, "application/json", value.to_string()),
        Reply::Sse(events) => (200, "text/event-stream", events.concat()),
        Reply::Hang => std::future::pending().await,
    };
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = StatusCode::from_u16(status).unwrap();
    response
        .headers_mut()
        .insert("content-type", content_type.parse().unwrap());
    response
}

// --- OpenAI replies ---------------------------------------------------------------------------

/// A chat completion with `message`, `finish` and 12 prompt + 3 completion tokens.
pub fn openai_completion(message: Value, finish: &str) -> Value {
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
    })
}

/// A plain text answer.
pub fn openai_text(text: &str) -> Reply {
    Reply::Json(
        200,
        openai_completion(json!({"role": "assistant", "content": text}), "stop"),
    )
}

/// An answer asking for tools: `(id, name, arguments)`.
pub fn openai_tools(calls: &[(&str, &str, Value)]) -> Reply {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    Reply::Json(
        200,
        openai_completion(
            json!({"role": "assistant", "content": null, "tool_calls": calls}),
            "tool_calls",
        ),
    )
}

/// One tool call.
pub fn openai_tool(id: &str, name: &str, args: Value) -> Reply {
    openai_tools(&[(id, name, args)])
}

/// A streamed text answer: one SSE chunk per piece, then the finish, the usage and `[DONE]`.
pub fn openai_stream(pieces: &[&str]) -> Reply {
    let chunk = |delta: Value, finish: Option<&str>| {
        let value = json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        format!("data: {value}\n\n")
    };
    let mut events = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    for piece in pieces {
        events.push(chunk(json!({"content": piece}), None));
    }
    events.push(chunk(json!({}), Some("stop")));
    events.push(format!(
        "data: {}\n\n",
        json!({"choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 5}})
    ));
    events.push("data: [DONE]\n\n".to_owned());
    Reply::Sse(events)
}

// --- Anthropic replies ------------------------------------------------------------------------

/// A Messages API answer with `content` blocks and `stop`.
pub fn anthropic_message(content: Value, stop: &str) -> Reply {
    Reply::Json(
        200,
        json!({
            "id": "msg_test", "type": "message", "role": "assistant", "model": "claude-test",
            "content": content,
            "stop_reason": stop, "stop_sequence": null,
            "usage": {"input_tokens": 30, "output_tokens": 4},
        }),
    )
}

/// A plain text answer.
pub fn anthropic_text(text: &str) -> Reply {
    anthropic_message(json!([{"type": "text", "text": text}]), "end_turn")
}

/// An answer asking for one tool.
pub fn anthropic_tool(id: &str, name: &str, input: Value) -> Reply {
    anthropic_message(
        json!([{"type": "tool_use", "id": id, "name": name, "input": input}]),
        "tool_use",
    )
}

// --- Reading requests -------------------------------------------------------------------------

/// The tool names an OpenAI request offered, in order (empty when it has no `tools`).
pub fn openai_tool_names(body: &Value) -> Vec<String> {
    body.get("tools")
        .and_then(Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The messages of an OpenAI request.
pub fn openai_messages(body: &Value) -> &Vec<Value> {
    body["messages"].as_array().unwrap()
}

/// The content of the tool message answering `call_id` in an OpenAI request.
pub fn openai_tool_result<'a>(body: &'a Value, call_id: &str) -> &'a str {
    openai_messages(body)
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == call_id)
        .unwrap_or_else(|| panic!("no tool result for {call_id} in {body:#}"))["content"]
        .as_str()
        .unwrap()
}
