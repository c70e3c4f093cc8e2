//! The adapter: one MCP tool as a weft [`Tool`] named `<server>__<tool>`.

use std::sync::Arc;

use async_trait::async_trait;
use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::Value;

use super::connection::{RemoteTool, cut};
use super::server::{CallError, Server};
use crate::{Tool, ToolError, ToolOutput};
use weft_types::tool_names::mcp_tool_name;

/// The most text one call hands back to the model; the rest is cut with a note.
pub const MAX_MCP_OUTPUT: usize = 256 * 1024;

/// The longest tool name providers accept (OpenAI: 64).
const MAX_TOOL_NAME_LEN: usize = 64;

/// A tool of an MCP server. Its [`name`](Tool::name) is `<server>__<tool>`; description and
/// input schema are the server's. A call goes to the server; a result with `isError: true`
/// becomes [`ToolError::Failed`] with the server's text, and a server that is not running
/// (after its one restart attempt) gives `MCP server `x` is not running: ...`.
///
/// Permissions are not checked here: the gate sees the qualified name before the call.
pub struct McpTool {
    server: Arc<Server>,
    name: String,
    remote: String,
    description: String,
    input_schema: Value,
    read_only: bool,
}

impl std::fmt::Debug for McpTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpTool")
            .field("name", &self.name)
            .field("remote", &self.remote)
            .finish_non_exhaustive()
    }
}

impl McpTool {
    /// The adapter for `remote`, or `None` (logged) when its name cannot be offered to a
    /// model: empty, characters other than letters, digits, `_` and `-`, or a qualified name
    /// longer than 64 characters.
    pub(crate) fn new(server: &Arc<Server>, remote: RemoteTool) -> Option<McpTool> {
        let name = mcp_tool_name(server.name(), &remote.name);
        let valid = !remote.name.is_empty()
            && remote
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            && name.len() <= MAX_TOOL_NAME_LEN;
        if !valid {
            tracing::warn!(
                target: "mcp",
                server = %server.name(),
                tool = %remote.name,
                "MCP tool skipped: its name must be letters, digits, `_` or `-`, and `<server>__<tool>` at most 64 characters"
            );
            return None;
        }
        let description = remote.description.filter(|d| !d.trim().is_empty());
        Some(McpTool {
            server: Arc::clone(server),
            description: description.unwrap_or_else(|| {
                format!(
                    "Tool `{}` of the MCP server `{}`.",
                    remote.name,
                    server.name()
                )
            }),
            input_schema: normalise_schema(remote.input_schema),
            read_only: remote.read_only,
            name,
            remote: remote.name,
        })
    }

    /// The server's name.
    pub fn server(&self) -> &str {
        self.server.name()
    }

    /// The tool's name on the server.
    pub fn remote_name(&self) -> &str {
        &self.remote
    }
}

/// Providers want an object schema with `type: object`; servers sometimes leave it out.
fn normalise_schema(schema: Value) -> Value {
    match schema {
        Value::Object(mut map) => {
            map.entry("type")
                .or_insert_with(|| Value::String("object".to_owned()));
            Value::Object(map)
        }
        _ => serde_json::json!({"type": "object"}),
    }
}

#[async_trait]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        self.input_schema.clone()
    }

    fn read_only_hint(&self) -> bool {
        self.read_only
    }

    async fn call(&self, input: Value) -> Result<ToolOutput, ToolError> {
        let arguments = match input {
            Value::Object(map) => map,
            Value::Null => serde_json::Map::new(),
            other => {
                return Err(ToolError::InvalidInput(format!(
                    "the arguments must be a JSON object, got {other}"
                )));
            }
        };
        let server = self.server.name();
        match self.server.call(&self.remote, arguments).await {
            Ok(result) => {
                let text = result_text(&result);
                if result.is_error == Some(true) {
                    Err(ToolError::Failed(if text.is_empty() {
                        "the tool reported an error without a message".to_owned()
                    } else {
                        text
                    }))
                } else {
                    Ok(ToolOutput::text(text))
                }
            }
            Err(CallError::Unavailable(reason)) => Err(ToolError::Failed(format!(
                "MCP server `{server}` is not running: {reason}"
            ))),
            Err(CallError::Timeout(after)) => Err(ToolError::Timeout(after)),
            Err(CallError::Rejected(message)) => Err(ToolError::Failed(format!(
                "MCP server `{server}` refused the call: {message}"
            ))),
            Err(CallError::Crashed(what)) => Err(ToolError::Failed(format!(
                "MCP server `{server}` crashed during the call to `{}`: {what}",
                self.remote
            ))),
        }
    }
}

/// The text of a result: text blocks as they are, other blocks described in a line,
/// structured content as JSON when there is nothing else; cut at [`MAX_MCP_OUTPUT`].
pub(crate) fn result_text(result: &CallToolResult) -> String {
    let mut parts: Vec<String> = Vec::with_capacity(result.content.len());
    for block in &result.content {
        parts.push(match block {
            ContentBlock::Text(t) => t.text.clone(),
            ContentBlock::Image(i) => {
                format!("[image: {}, {} bytes base64]", i.mime_type, i.data.len())
            }
            ContentBlock::Audio(a) => {
                format!("[audio: {}, {} bytes base64]", a.mime_type, a.data.len())
            }
            ContentBlock::Resource(r) => match &r.resource {
                ResourceContents::TextResourceContents { uri, text, .. } => {
                    format!("[resource {uri}]\n{text}")
                }
                ResourceContents::BlobResourceContents { uri, blob, .. } => {
                    format!("[resource {uri}: {} bytes base64]", blob.len())
                }
                _ => "[resource]".to_owned(),
            },
            ContentBlock::ResourceLink(link) => format!("[resource link: {}]", link.uri),
            _ => "[unsupported content]".to_owned(),
        });
    }
    if parts.is_empty()
        && let Some(structured) = &result.structured_content
    {
        parts.push(structured.to_string());
    }
    let text = parts.join("\n");
    if text.len() > MAX_MCP_OUTPUT {
        format!(
            "{}\n[output cut at {MAX_MCP_OUTPUT} of {} bytes]",
            cut(&text, MAX_MCP_OUTPUT),
            text.len()
        )
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_become_text() {
        let result = CallToolResult::success(vec![
            ContentBlock::text("one"),
            ContentBlock::image("AAAA", "image/png"),
        ]);
        assert_eq!(
            result_text(&result),
            "one\n[image: image/png, 4 bytes base64]"
        );
        let big = CallToolResult::success(vec![ContentBlock::text("x".repeat(MAX_MCP_OUTPUT + 5))]);
        assert!(result_text(&big).ends_with(&format!(
            "[output cut at {MAX_MCP_OUTPUT} of {} bytes]",
            MAX_MCP_OUTPUT + 5
        )));
    }

    #[test]
    fn schemas_are_objects() {
        assert_eq!(
            normalise_schema(serde_json::json!({"properties": {}})),
            serde_json::json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            normalise_schema(Value::Null),
            serde_json::json!({"type": "object"})
        );
    }
}
