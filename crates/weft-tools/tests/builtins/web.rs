//! web_fetch against a local server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::response::Redirect;
use axum::routing::get;
use serde_json::json;
use weft_tools::{ExecConfig, WebFetchConfig};

use super::{Workspace, is_invalid};

/// A local HTTP server counting the requests it gets.
async fn serve() -> (SocketAddr, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = |body: &'static str, status: StatusCode| {
        let hits = Arc::clone(&hits);
        get(move || async move {
            hits.fetch_add(1, Ordering::SeqCst);
            (status, body)
        })
    };
    let app = Router::new()
        .route("/hello", counted("hello, web", StatusCode::OK))
        .route("/missing", counted("no such page", StatusCode::NOT_FOUND))
        .route("/big", {
            let hits = Arc::clone(&hits);
            get(move || async move {
                hits.fetch_add(1, Ordering::SeqCst);
                "x".repeat(10_000)
            })
        })
        .route(
            "/away",
            get(|| async { Redirect::temporary("http://example.com/") }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, hits)
}

fn web_config(allowed: Option<&[&str]>) -> WebFetchConfig {
    WebFetchConfig {
        timeout: Duration::from_secs(5),
        max_bytes: 4096,
        allowed_domains: allowed.map(|a| a.iter().map(|s| (*s).to_owned()).collect()),
    }
}

#[tokio::test]
async fn web_fetch_returns_status_type_and_body() {
    let (addr, hits) = serve().await;
    let ws = Workspace::with(ExecConfig::default(), Some(web_config(None)));
    assert_eq!(
        ws.ok("web_fetch", json!({"url": format!("http://{addr}/hello")}))
            .await,
        "HTTP 200 OK text/plain; charset=utf-8\n\nhello, web"
    );
    let missing = ws
        .err(
            "web_fetch",
            json!({"url": format!("http://{addr}/missing")}),
        )
        .await
        .to_string();
    assert!(missing.contains("HTTP 404 Not Found"), "{missing}");
    assert!(missing.contains("no such page"), "{missing}");

    // The config caps the body; a call may ask for less.
    let big = ws
        .ok("web_fetch", json!({"url": format!("http://{addr}/big")}))
        .await;
    // Count in the body only: the header says "text/plain".
    let body = |out: &str| out.split_once("\n\n").unwrap().1.matches('x').count();
    assert_eq!(body(&big), 4096);
    assert!(big.contains("[truncated"), "{big}");
    let small = ws
        .ok(
            "web_fetch",
            json!({"url": format!("http://{addr}/big"), "max_bytes": 10}),
        )
        .await;
    assert_eq!(body(&small), 10);
    assert_eq!(hits.load(Ordering::SeqCst), 4);

    assert!(is_invalid(
        &ws.err("web_fetch", json!({"url": "not a url"})).await
    ));
    assert!(is_invalid(
        &ws.err("web_fetch", json!({"url": "file:///etc/passwd"}))
            .await
    ));
}

#[tokio::test]
async fn web_fetch_refuses_disallowed_domains_without_a_request() {
    let (addr, hits) = serve().await;
    let ws = Workspace::with(
        ExecConfig::default(),
        Some(web_config(Some(&["example.com"]))),
    );
    let err = ws
        .err("web_fetch", json!({"url": format!("http://{addr}/hello")}))
        .await
        .to_string();
    assert!(err.contains("not an allowed domain"), "{err}");
    assert_eq!(hits.load(Ordering::SeqCst), 0);

    // A redirect out of the allow-list is refused too.
    let ws = Workspace::with(
        ExecConfig::default(),
        Some(web_config(Some(&["127.0.0.1"]))),
    );
    let err = ws
        .err("web_fetch", json!({"url": format!("http://{addr}/away")}))
        .await
        .to_string();
    assert!(err.contains("redirect refused"), "{err}");
}
