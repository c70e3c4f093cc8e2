//! A provider that plays recorded turns from a JSONL file, one assistant turn per line, in
//! order and regardless of the request: for tests and demos without a model.

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    ChatModel, ChatRequest, ChatResponse, LlmError, Message, StopReason, TextSink, ToolCall, Usage,
};

/// One recorded assistant turn: a line of the recording. Unknown keys (such as a `note`)
/// are ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReplayTurn {
    /// The assistant's text.
    #[serde(default)]
    pub content: String,
    /// Tool calls the assistant makes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ReplayToolCall>,
    /// Why the turn stopped; `tool_use` when it has tool calls, else `end_turn`, if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// Token use to report; zero if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

/// A recorded tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayToolCall {
    /// Call id; `call_<turn>_<call>` (both counted from 0) if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Tool name.
    pub name: String,
    /// Arguments; `{}` if absent.
    #[serde(default = "empty_object")]
    pub arguments: Value,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// The most a replay recording may hold.
pub const REPLAY_CAP: weft_fs::Cap = weft_fs::Cap::new(64 * 1024 * 1024, "replay recordings");

/// Plays [`ReplayTurn`]s one per [`ChatModel::chat`] call.
#[derive(Debug)]
pub struct ReplayModel {
    label: String,
    turns: Vec<ReplayTurn>,
    /// Index of the next turn. A std mutex: it is never held across an await.
    next: Mutex<usize>,
}

impl ReplayModel {
    /// Reads a JSONL recording: every non-blank line is a [`ReplayTurn`].
    pub fn open(path: &Path) -> Result<Self, LlmError> {
        let label = path.display().to_string();
        let error = |message: String| LlmError::Replay {
            path: label.clone(),
            message,
        };
        let bytes = weft_fs::read_regular(path, REPLAY_CAP)
            .map_err(|e| error(format!("cannot read: {}", e.reason())))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            error(format!(
                "not valid UTF-8 at byte {}",
                e.utf8_error().valid_up_to()
            ))
        })?;
        let mut turns = Vec::new();
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let turn = serde_json::from_str(line)
                .map_err(|e| error(format!("line {}: {e}", number + 1)))?;
            turns.push(turn);
        }
        if turns.is_empty() {
            return Err(error("the recording has no turns".to_owned()));
        }
        tracing::debug!(path = %label, turns = turns.len(), "opened replay recording");
        Ok(Self::from_turns(label, turns))
    }

    /// Plays `turns`; `label` names them in errors (like a file path).
    pub fn from_turns(label: impl Into<String>, turns: Vec<ReplayTurn>) -> Self {
        Self {
            label: label.into(),
            turns,
            next: Mutex::new(0),
        }
    }

    /// How many turns have been played.
    pub fn played(&self) -> usize {
        *self.next.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the next turn and its index.
    fn take(&self) -> Option<(usize, &ReplayTurn)> {
        let mut next = self.next.lock().unwrap_or_else(PoisonError::into_inner);
        let index = *next;
        let turn = self.turns.get(index)?;
        *next += 1;
        Some((index, turn))
    }
}

#[async_trait]
impl ChatModel for ReplayModel {
    fn provider(&self) -> &str {
        "replay"
    }

    async fn chat(
        &self,
        _request: &ChatRequest,
        stream: bool,
        sink: &mut dyn TextSink,
    ) -> Result<ChatResponse, LlmError> {
        let Some((index, turn)) = self.take() else {
            return Err(LlmError::Replay {
                path: self.label.clone(),
                message: format!("no more recorded turns ({} played)", self.turns.len()),
            });
        };
        tracing::debug!(path = %self.label, turn = index, "replaying turn");
        if stream {
            for piece in pieces(&turn.content) {
                sink.text(piece);
            }
        }
        let calls: Vec<ToolCall> = turn
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, call)| ToolCall {
                id: call
                    .id
                    .clone()
                    .unwrap_or_else(|| format!("call_{index}_{i}")),
                name: call.name.clone(),
                arguments: call.arguments.clone(),
            })
            .collect();
        let stop_reason = turn.stop_reason.clone().unwrap_or(if calls.is_empty() {
            StopReason::EndTurn
        } else {
            StopReason::ToolUse
        });
        Ok(ChatResponse {
            message: Message::assistant(turn.content.clone(), calls),
            stop_reason,
            usage: turn.usage.unwrap_or_default(),
        })
    }
}

/// Splits `text` after each run of whitespace, so streaming looks like streaming and the
/// pieces concatenate to exactly `text`.
fn pieces(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut in_space = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            in_space = true;
        } else if in_space {
            pieces.push(&text[start..i]);
            start = i;
            in_space = false;
        }
    }
    if start < text.len() {
        pieces.push(&text[start..]);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_split_after_whitespace_runs() {
        assert_eq!(pieces("Hello  world\nfoo "), ["Hello  ", "world\n", "foo "]);
        assert_eq!(pieces("  lead"), ["  ", "lead"]);
        assert_eq!(pieces("one"), ["one"]);
        assert!(pieces("").is_empty());
        assert_eq!(pieces("é è").concat(), "é è");
    }
}
