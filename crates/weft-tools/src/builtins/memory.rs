//! The memory tools: `memory_read` and `memory_write` over the runtime's memory file.

use std::path::PathBuf;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::sync::Mutex;
use weft_types::tool_names;

use super::atomic::write_atomic;
use super::input::parse;
use crate::{Tool, ToolError, ToolOutput};

/// What `memory_read` says when there is nothing to read.
const EMPTY: &str = "(memory is empty)";

fn io_error(path: &std::path::Path, source: std::io::Error) -> ToolError {
    ToolError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The memory file's content, or `None` when it does not exist yet.
async fn read_memory(path: &std::path::Path) -> Result<Option<String>, ToolError> {
    let owned = path.to_path_buf();
    let read = tokio::task::spawn_blocking(move || weft_fs::read_regular(&owned, MEMORY_CAP))
        .await
        .map_err(|e| ToolError::Failed(format!("could not read {}: {e}", path.display())))?;
    match read {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.is_not_found() => Ok(None),
        Err(weft_fs::ReadError::Io { source, .. }) => Err(io_error(path, source)),
        Err(e) => Err(ToolError::Failed(e.to_string())),
    }
}

/// The most the memory file may hold: notes, not a database. `memory_read` refuses a larger
/// file (and a FIFO, a device or a link into `/proc`) instead of loading it.
pub const MEMORY_CAP: weft_fs::Cap = weft_fs::Cap::new(4 * 1024 * 1024, "memory files");

/// `memory_read`: notes kept across sessions.
pub(crate) struct MemoryRead {
    file: PathBuf,
}

impl MemoryRead {
    pub(crate) fn new(file: PathBuf) -> Self {
        Self { file }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadInput {
    query: Option<String>,
}

#[async_trait]
impl Tool for MemoryRead {
    fn name(&self) -> &str {
        tool_names::MEMORY_READ
    }

    fn description(&self) -> &str {
        "Reads the persistent memory notes. With query, returns only the lines containing it (case-insensitive)."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Only return lines containing this text (case-insensitive)."}
            },
            "required": [],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        let input: ReadInput = parse(self.name(), input)?;
        let Some(text) = read_memory(&self.file).await? else {
            return Ok(ToolOutput::text(EMPTY));
        };
        if text.trim().is_empty() {
            return Ok(ToolOutput::text(EMPTY));
        }
        let query = input.query.as_deref().map(str::trim).unwrap_or_default();
        if query.is_empty() {
            return Ok(ToolOutput::text(text));
        }
        let needle = query.to_lowercase();
        let lines: Vec<&str> = text
            .lines()
            .filter(|line| line.to_lowercase().contains(&needle))
            .collect();
        if lines.is_empty() {
            return Ok(ToolOutput::text(format!(
                "no memory lines contain {query:?}"
            )));
        }
        Ok(ToolOutput::text(lines.join("\n")))
    }
}

/// `memory_write`: adds to or replaces the notes.
pub(crate) struct MemoryWrite {
    file: PathBuf,
    /// Serializes writes from concurrent calls, so two appends cannot interleave their
    /// read of the file's ending with the other's write.
    lock: Mutex<()>,
}

impl MemoryWrite {
    pub(crate) fn new(file: PathBuf) -> Self {
        Self {
            file,
            lock: Mutex::new(()),
        }
    }
}

#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Mode {
    #[default]
    Append,
    Replace,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WriteInput {
    content: String,
    #[serde(default)]
    mode: Mode,
}

#[async_trait]
impl Tool for MemoryWrite {
    fn name(&self) -> &str {
        tool_names::MEMORY_WRITE
    }

    fn description(&self) -> &str {
        "Saves notes to persistent memory for later sessions. mode \"append\" (default) adds a paragraph; \"replace\" rewrites the whole memory."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "content": {"type": "string", "description": "The text to save."},
                "mode": {"type": "string", "enum": ["append", "replace"], "description": "append (default) or replace."}
            },
            "required": ["content"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        let input: WriteInput = parse(self.name(), input)?;
        let content = input.content.trim_matches('\n');
        if content.trim().is_empty() && input.mode == Mode::Append {
            return Err(ToolError::InvalidInput(
                "content is empty; there is nothing to append".to_owned(),
            ));
        }
        let _guard = self.lock.lock().await;
        if let Some(parent) = self.file.parent() {
            tokio::fs::create_dir_all(parent)
                .await
                .map_err(|e| io_error(parent, e))?;
        }
        match input.mode {
            Mode::Replace => {
                let body = if content.trim().is_empty() {
                    String::new()
                } else {
                    format!("{content}\n")
                };
                write_atomic(&self.file, body.as_bytes())
                    .await
                    .map_err(|e| io_error(&self.file, e))?;
                Ok(ToolOutput::text(if body.is_empty() {
                    "cleared memory".to_owned()
                } else {
                    format!("replaced memory with {} bytes", body.len())
                }))
            }
            Mode::Append => {
                let existing = read_memory(&self.file).await?.unwrap_or_default();
                // A blank line before the new paragraph, however the file ended.
                let separator = if existing.trim().is_empty() || existing.ends_with("\n\n") {
                    ""
                } else if existing.ends_with('\n') {
                    "\n"
                } else {
                    "\n\n"
                };
                let addition = format!("{separator}{content}\n");
                let mut file = tokio::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.file)
                    .await
                    .map_err(|e| io_error(&self.file, e))?;
                file.write_all(addition.as_bytes())
                    .await
                    .map_err(|e| io_error(&self.file, e))?;
                file.flush().await.map_err(|e| io_error(&self.file, e))?;
                Ok(ToolOutput::text(format!(
                    "appended {} bytes to memory",
                    addition.len()
                )))
            }
        }
    }
}
