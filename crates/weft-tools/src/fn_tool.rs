//! A tool made of a closure, for a program that adds a tool of its own without writing a type
//! for it.

use async_trait::async_trait;
use serde_json::Value;

use crate::tool::{Tool, ToolError, ToolOutput};

/// A [`Tool`] whose call is a synchronous closure over the model's input. It says nothing
/// about reading only or sandboxing (the trait's defaults), so the permission modes treat it
/// as a tool that may change things; write a [`Tool`] impl to say more, or to await in a call.
///
/// ```
/// use serde_json::json;
/// use weft_tools::{FnTool, Tool, ToolError, ToolOutput};
///
/// let tool = FnTool::new(
///     "word_count",
///     "Counts the words of `text`.",
///     json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
///     |input| {
///         let text = input["text"].as_str().ok_or(ToolError::InvalidInput("no `text`".into()))?;
///         Ok(ToolOutput::text(text.split_whitespace().count().to_string()))
///     },
/// );
/// assert_eq!(tool.name(), "word_count");
/// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// let output = runtime.block_on(tool.call(json!({"text": "to be or not to be"}))).unwrap();
/// assert_eq!(output.content, "6");
/// ```
pub struct FnTool<F> {
    name: String,
    description: String,
    input_schema: Value,
    run: F,
}

impl<F> FnTool<F>
where
    F: Fn(Value) -> Result<ToolOutput, ToolError> + Send + Sync,
{
    /// A tool the model calls `name`, described to it by `description`, whose input follows
    /// the JSON Schema `input_schema`, and whose call is `run`.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        run: F,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            input_schema,
            run,
        }
    }
}

#[async_trait]
impl<F> Tool for FnTool<F>
where
    F: Fn(Value) -> Result<ToolOutput, ToolError> + Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        self.input_schema.clone()
    }

    async fn call(&self, input: Value) -> Result<ToolOutput, ToolError> {
        (self.run)(input)
    }
}
