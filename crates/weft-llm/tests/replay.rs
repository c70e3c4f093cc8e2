//! The replay provider: recordings on disk, streaming pieces, running out.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;

use serde_json::json;
use weft_llm::{
    ChatModel, ChatRequest, LlmError, Message, NoStream, ProviderConfig, ProviderKind, ReplayModel,
    ReplayToolCall, ReplayTurn, StopReason, ToolCall, Usage, connect,
};

fn request() -> ChatRequest {
    ChatRequest {
        model: "anything".into(),
        system: None,
        messages: vec![Message::user("ignored")],
        tools: vec![],
        temperature: None,
        max_tokens: None,
        reasoning_effort: None,
    }
}

fn recording(lines: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(lines.as_bytes()).unwrap();
    file
}

#[tokio::test]
async fn turns_written_to_a_file_play_back_in_order() {
    let turns = vec![
        ReplayTurn {
            content: "Reading it.".into(),
            tool_calls: vec![
                ReplayToolCall {
                    id: Some("t1".into()),
                    name: "read".into(),
                    arguments: json!({"path": "a"}),
                },
                ReplayToolCall {
                    id: None,
                    name: "list".into(),
                    arguments: json!({}),
                },
            ],
            stop_reason: None,
            usage: Some(Usage::new(7, 2)),
        },
        ReplayTurn {
            content: "Done.".into(),
            ..ReplayTurn::default()
        },
        ReplayTurn {
            content: "cut".into(),
            stop_reason: Some(StopReason::MaxTokens),
            ..ReplayTurn::default()
        },
    ];
    let mut text = String::new();
    for turn in &turns {
        text.push_str(&serde_json::to_string(turn).unwrap());
        text.push_str("\n\n");
    }
    let file = recording(&text);
    let mut config = ProviderConfig::new("replay", ProviderKind::Replay, "");
    config.replay_file = Some(file.path().to_owned());
    let model = connect(&config).unwrap();
    assert_eq!(model.provider(), "replay");

    let first = model.chat(&request(), false, &mut NoStream).await.unwrap();
    assert_eq!(first.message.content, "Reading it.");
    assert_eq!(first.stop_reason, StopReason::ToolUse);
    assert_eq!(first.usage, Usage::new(7, 2));
    assert_eq!(
        first.message.tool_calls,
        vec![
            ToolCall {
                id: "t1".into(),
                name: "read".into(),
                arguments: json!({"path": "a"})
            },
            ToolCall {
                id: "call_0_1".into(),
                name: "list".into(),
                arguments: json!({})
            },
        ]
    );
    let second = model.chat(&request(), false, &mut NoStream).await.unwrap();
    assert_eq!(second.message.content, "Done.");
    assert_eq!(second.stop_reason, StopReason::EndTurn);
    assert_eq!(second.usage, Usage::default());
    let third = model.chat(&request(), false, &mut NoStream).await.unwrap();
    assert_eq!(third.stop_reason, StopReason::MaxTokens);
}

#[tokio::test]
async fn hand_written_lines_with_notes_and_defaults() {
    let file = recording(
        r#"{"note": "the model asks for a file", "tool_calls": [{"name": "read"}]}
{"content": "ok", "stop_reason": {"other": "refusal"}}
"#,
    );
    let model = ReplayModel::open(file.path()).unwrap();
    let first = model.chat(&request(), false, &mut NoStream).await.unwrap();
    assert_eq!(first.message.content, "");
    assert_eq!(first.message.tool_calls[0].id, "call_0_0");
    assert_eq!(first.message.tool_calls[0].arguments, json!({}));
    assert_eq!(first.stop_reason, StopReason::ToolUse);
    let second = model.chat(&request(), false, &mut NoStream).await.unwrap();
    assert_eq!(second.stop_reason, StopReason::Other("refusal".into()));
    assert_eq!(model.played(), 2);
}

#[tokio::test]
async fn streaming_pieces_concatenate_exactly() {
    let content = "Hello,  world!\n\tSecond line  ends here ";
    let model = ReplayModel::from_turns(
        "inline",
        vec![ReplayTurn {
            content: content.into(),
            ..ReplayTurn::default()
        }],
    );
    let mut pieces: Vec<String> = Vec::new();
    let mut sink = |piece: &str| pieces.push(piece.to_owned());
    let answer = model.chat(&request(), true, &mut sink).await.unwrap();
    assert_eq!(answer.message.content, content);
    assert_eq!(
        pieces,
        [
            "Hello,  ",
            "world!\n\t",
            "Second ",
            "line  ",
            "ends ",
            "here "
        ]
    );
    assert_eq!(pieces.concat(), content);
}

#[tokio::test]
async fn no_stream_no_sink_calls() {
    let model = ReplayModel::from_turns(
        "inline",
        vec![ReplayTurn {
            content: "a b".into(),
            ..ReplayTurn::default()
        }],
    );
    let mut calls = 0;
    let mut sink = |_: &str| calls += 1;
    model.chat(&request(), false, &mut sink).await.unwrap();
    assert_eq!(calls, 0);
}

#[tokio::test]
async fn running_out_is_an_error() {
    let model = ReplayModel::from_turns(
        "inline",
        vec![ReplayTurn {
            content: "only".into(),
            ..ReplayTurn::default()
        }],
    );
    assert_eq!(model.played(), 0);
    model.chat(&request(), false, &mut NoStream).await.unwrap();
    assert_eq!(model.played(), 1);
    let err = model
        .chat(&request(), false, &mut NoStream)
        .await
        .unwrap_err();
    match &err {
        LlmError::Replay { path, message } => {
            assert_eq!(path, "inline");
            assert_eq!(message, "no more recorded turns (1 played)");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(model.played(), 1);
}

#[test]
fn a_bad_line_is_named_by_its_number() {
    let file = recording("{\"content\": \"fine\"}\n\n{\"content\": 42}\n");
    let err = ReplayModel::open(file.path()).unwrap_err();
    match &err {
        LlmError::Replay { path, message } => {
            assert_eq!(path, &file.path().display().to_string());
            assert!(message.starts_with("line 3: "), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn missing_and_empty_recordings_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.jsonl");
    let err = ReplayModel::open(&missing).unwrap_err();
    assert!(
        matches!(err, LlmError::Replay { ref message, .. } if message.starts_with("cannot read")),
        "{err:?}"
    );
    let empty = recording("\n   \n");
    assert!(matches!(
        ReplayModel::open(empty.path()),
        Err(LlmError::Replay { .. })
    ));
}

#[cfg(unix)]
#[test]
fn a_recording_that_is_a_fifo_or_a_device_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("turns.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let zero = dir.path().join("zero.jsonl");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for (path, reason) in [
        (
            fifo,
            "cannot read: is a FIFO (named pipe), not a regular file",
        ),
        (
            zero,
            "cannot read: is a character device, not a regular file",
        ),
    ] {
        match ReplayModel::open(&path).unwrap_err() {
            LlmError::Replay { message, .. } => assert_eq!(message, reason),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn connect_needs_a_file() {
    let config = ProviderConfig::new("replay", ProviderKind::Replay, "");
    assert!(matches!(connect(&config), Err(LlmError::Config(_))));
}
