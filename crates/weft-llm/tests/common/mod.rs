//! A loopback HTTP server for the client tests: scripted replies, every request recorded.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Uri};
use axum::response::Response;
use futures_util::StreamExt;
use serde_json::Value;
use tokio::task::JoinHandle;
use weft_llm::{ProviderConfig, ProviderKind, RetryPolicy};

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// Path and query.
    pub path: String,
    /// Request headers.
    pub headers: HeaderMap,
    /// The body as JSON (`Null` if it was not JSON).
    pub body: Value,
}

impl Recorded {
    /// A header as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// What the server answers to one request.
#[derive(Debug, Clone)]
pub struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    chunks: Vec<String>,
    delay: Duration,
    chunk_delay: Duration,
    stall: Option<(usize, Duration)>,
    flood: Option<Flood>,
}

/// A body that goes on after the chunks: `unit` repeated, generated as it is sent, until
/// `total` bytes were sent or the client hung up.
#[derive(Debug, Clone)]
pub struct Flood {
    unit: Bytes,
    total: u64,
    sent: Arc<AtomicU64>,
}

impl Reply {
    /// A body with `status` and a content type.
    pub fn raw(status: u16, content_type: &str, body: impl Into<String>) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            chunks: vec![body.into()],
            delay: Duration::ZERO,
            chunk_delay: Duration::ZERO,
            stall: None,
            flood: None,
        }
    }

    /// `status` with `head`, then `unit` again and again up to `total` bytes in all (sent as
    /// fast as the client reads, never held in memory).
    pub fn flood(status: u16, content_type: &str, head: &str, unit: &str, total: u64) -> Self {
        Self {
            flood: Some(Flood {
                unit: Bytes::from(unit.repeat((64 * 1024 / unit.len().max(1)).max(1))),
                total,
                sent: Arc::default(),
            }),
            ..Self::raw(status, content_type, head)
        }
    }

    /// How many bytes of the flood were sent so far (0 without a flood).
    pub fn flooded(&self) -> u64 {
        self.flood
            .as_ref()
            .map_or(0, |f| f.sent.load(Ordering::Relaxed))
    }

    /// A JSON body with `status`.
    pub fn json(status: u16, body: Value) -> Self {
        Self::raw(status, "application/json", body.to_string())
    }

    /// A 200 `text/event-stream` whose chunks are written one by one (each a complete
    /// SSE event such as `data: {...}\n\n`, or deliberately a part of one).
    pub fn sse(chunks: Vec<String>) -> Self {
        Self {
            chunks,
            chunk_delay: Duration::from_millis(5),
            ..Self::raw(200, "text/event-stream", "")
        }
    }

    /// Adds a response header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Waits `pause` after the first `chunks` chunks of the body (a stream that stalls).
    pub fn stall(mut self, chunks: usize, pause: Duration) -> Self {
        self.stall = Some((chunks, pause));
        self
    }

    /// Waits before answering.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// `data: <json>\n\n`.
pub fn data(value: &Value) -> String {
    format!("data: {value}\n\n")
}

/// `event: <name>\ndata: <json>\n\n` (the Anthropic form).
pub fn event(name: &str, value: &Value) -> String {
    format!("event: {name}\ndata: {value}\n\n")
}

type Script = dyn Fn(usize) -> Reply + Send + Sync;

/// A server on 127.0.0.1; stops when dropped.
pub struct TestServer {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: JoinHandle<()>,
}

impl TestServer {
    /// Answers the n-th request (from 0) with `script(n)`.
    pub async fn start(script: impl Fn(usize) -> Reply + Send + Sync + 'static) -> Self {
        let requests: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let script: Arc<Script> = Arc::new(script);
        let seen = requests.clone();
        let app = Router::new().fallback(move |uri: Uri, headers: HeaderMap, body: Bytes| {
            let seen = seen.clone();
            let script = script.clone();
            async move {
                let index = {
                    let mut seen = seen.lock().unwrap();
                    seen.push(Recorded {
                        path: uri.to_string(),
                        headers,
                        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
                    });
                    seen.len() - 1
                };
                respond(script(index)).await
            }
        });
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

    /// Answers request n with `replies[n]`; the last reply repeats.
    pub async fn script(replies: Vec<Reply>) -> Self {
        Self::start(move |n| replies[n.min(replies.len() - 1)].clone()).await
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn respond(reply: Reply) -> Response {
    tokio::time::sleep(reply.delay).await;
    let pause = reply.chunk_delay;
    let stall = reply.stall;
    let chunks = futures_util::stream::iter(reply.chunks.into_iter().enumerate()).then(
        move |(index, chunk)| async move {
            tokio::time::sleep(pause).await;
            if let Some((after, stall)) = stall
                && index == after
            {
                tokio::time::sleep(stall).await;
            }
            Ok::<_, Infallible>(Bytes::from(chunk))
        },
    );
    let flood = futures_util::stream::iter(reply.flood).flat_map(|flood| {
        let units = flood.total / flood.unit.len() as u64;
        futures_util::stream::iter((0..units).map(move |_| {
            flood
                .sent
                .fetch_add(flood.unit.len() as u64, Ordering::Relaxed);
            Ok::<_, Infallible>(flood.unit.clone())
        }))
    });
    let mut response = Response::new(Body::from_stream(chunks.chain(flood)));
    *response.status_mut() = StatusCode::from_u16(reply.status).unwrap();
    for (name, value) in reply.headers {
        response.headers_mut().insert(
            HeaderName::try_from(name).unwrap(),
            HeaderValue::try_from(value).unwrap(),
        );
    }
    response
}

/// A base URL on which nothing listens: a port bound and released.
pub fn refused_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// Fast retries for tests.
pub fn retries(max_retries: u32) -> RetryPolicy {
    RetryPolicy {
        max_retries,
        initial_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(100),
    }
}

/// A provider config against `base_url` with `key`, a 5 s timeout and fast retries.
pub fn config(
    kind: ProviderKind,
    base_url: &str,
    key: Option<&str>,
    max_retries: u32,
) -> ProviderConfig {
    let mut config = ProviderConfig::new("test", kind, base_url);
    config.api_key = key.map(weft_llm::ApiKey::new);
    config.timeout = Duration::from_secs(5);
    config.retry = retries(max_retries);
    config
}

/// A sink that keeps the pieces it is given.
pub fn collect(pieces: &mut Vec<String>) -> impl FnMut(&str) + Send + '_ {
    move |piece: &str| pieces.push(piece.to_owned())
}
