//! A model and a tool of the host program's own, with `weft-runtime` as its only weft
//! dependency: a scripted model (no network) calls the program's `word_count` tool once,
//! then answers with what the tool said.
//!
//! `cargo run -p weft-runtime --example custom_model`

#![allow(clippy::print_stdout)]

use std::sync::Arc;

use weft_runtime::llm::{ChatModel, ChatRequest, ChatResponse, LlmError, Role, TextSink, ToolCall};
use weft_runtime::serde_json::json;
use weft_runtime::tools::{FnTool, ToolError, ToolOutput};
use weft_runtime::{EnvSnapshot, Locations, PermissionMode, Runtime, Workspace, async_trait};

/// Calls `word_count` first; once it has the tool's result, answers with it.
struct Scripted;

#[async_trait]
impl ChatModel for Scripted {
    fn provider(&self) -> &str {
        "scripted"
    }
    async fn chat(
        &self,
        req: &ChatRequest,
        _: bool,
        _: &mut dyn TextSink,
    ) -> Result<ChatResponse, LlmError> {
        let answer = match req.messages.last() {
            Some(m) if m.role == Role::Tool => format!("{} words.", m.content),
            _ => {
                let call = ToolCall::new("1", "word_count", json!({"text": "to be or not to be"}));
                return Ok(ChatResponse::assistant("", vec![call]));
            }
        };
        Ok(ChatResponse::assistant(answer, vec![]))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let word_count = FnTool::new(
        "word_count",
        "Counts the words of `text`.",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        |input| {
            let text = input["text"]
                .as_str()
                .ok_or(ToolError::InvalidInput("no `text`".into()))?;
            Ok(ToolOutput::text(
                text.split_whitespace().count().to_string(),
            ))
        },
    );
    let env = EnvSnapshot::default().with_current_dir(env!("CARGO_MANIFEST_DIR"));
    let runtime = Runtime::builder(&Workspace::resolve(&Locations::default(), env))
        .permission_mode(PermissionMode::Auto) // what the tool rules allow runs without asking
        .model_client(Arc::new(Scripted)) // serves `scripted/...`
        .default_model("scripted/v1")
        .tool(Arc::new(word_count))
        .build()?;
    let mut session = runtime.session(&Default::default())?;
    let turn = session
        .send("How many words?", &mut weft_runtime::session::Quiet)
        .await?;
    println!("tool calls: {}\nanswer: {}", turn.tool_calls, turn.text);
    Ok(())
}
