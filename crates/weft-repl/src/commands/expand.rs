//! `/expand [N]`: a tool result of this session in full. During a turn each result is shown
//! as a short preview labelled `[/expand N]`; results are numbered across the session, in
//! the order they came.

use async_trait::async_trait;
use weft_llm::{Message, Role};

use crate::command::{CommandContext, CommandError, Dispatch, SlashCommand};

/// `/expand`.
pub(crate) struct Expand;

/// The tool results of `messages`, in order, each with the call it answers when the
/// conversation still has it.
fn results(messages: &[Message]) -> Vec<(&Message, Option<&weft_llm::ToolCall>)> {
    messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(|m| {
            let call = messages
                .iter()
                .flat_map(|a| &a.tool_calls)
                .find(|c| Some(c.id.as_str()) == m.tool_call_id.as_deref());
            (m, call)
        })
        .collect()
}

/// How many tool results `messages` holds: the number the next one gets, less one.
pub fn tool_result_count(messages: &[Message]) -> usize {
    messages.iter().filter(|m| m.role == Role::Tool).count()
}

#[async_trait]
impl SlashCommand for Expand {
    fn name(&self) -> &str {
        "expand"
    }

    fn description(&self) -> &str {
        "Show a tool result in full (the last one, or number N)"
    }

    fn usage(&self) -> &str {
        "[N]"
    }

    fn help(&self) -> &str {
        "During a turn each tool call is shown with a short preview of its result, labelled \
         [/expand N]. /expand N prints result N in full, with the call it answers; /expand \
         alone prints the last one."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let all = results(ctx.session.messages());
        if all.is_empty() {
            writeln!(ctx.out, "No tool result yet in this session.")?;
            return Ok(Dispatch::Handled);
        }
        let n = match args.trim() {
            "" => all.len(),
            text => text.parse::<usize>().ok().filter(|n| (1..=all.len()).contains(n)).ok_or_else(|| {
                CommandError::Usage(format!(
                    "/expand takes a result number from 1 to {} (shown as [/expand N]), or nothing for the last",
                    all.len()
                ))
            })?,
        };
        let (result, call) = all[n - 1];
        match call {
            Some(call) => writeln!(ctx.out, "[{n}] {}", crate::preview::call_line(call))?,
            None => writeln!(ctx.out, "[{n}]")?,
        }
        if result.is_error {
            writeln!(ctx.out, "(an error result)")?;
        }
        writeln!(ctx.out, "{}", result.content.trim_end())?;
        Ok(Dispatch::Handled)
    }
}
