//! HTTPS with the `ring` crypto provider: reqwest is built without a provider of its own
//! (`rustls-no-provider`, so no aws-lc C build), and building a client must install one
//! instead of panicking. The handshake is checked against a loopback listener that reads the
//! client's first TLS record and hangs up (no certificate needed: the point is that rustls
//! gets as far as sending a ClientHello).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;
use weft_llm::{
    ChatModel, ChatRequest, LlmError, Message, NoStream, OpenAiClient, ProviderConfig,
    ProviderKind, RetryPolicy,
};

#[tokio::test]
async fn an_https_client_sends_a_tls_client_hello_and_reports_the_failed_handshake() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = [0u8; 3];
        socket.read_exact(&mut head).await.unwrap();
        head
    });

    let mut config = ProviderConfig::new(
        "secure",
        ProviderKind::OpenAi,
        format!("https://127.0.0.1:{port}/v1"),
    );
    config.retry = RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    };
    config.timeout = Duration::from_secs(20);
    let client = OpenAiClient::new(config).expect("an HTTPS client builds");
    let request = ChatRequest {
        model: "m".to_owned(),
        system: None,
        messages: vec![Message::user("hi")],
        tools: Vec::new(),
        temperature: None,
        max_tokens: None,
        reasoning_effort: None,
    };
    let err = client
        .chat(&request, false, &mut NoStream)
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Transport { .. }), "{err:?}");
    // A TLS record of type handshake (22), protocol version 3.x.
    let head = server.await.unwrap();
    assert_eq!(head[..2], [0x16, 0x03], "{head:?}");
}
