//! `/help [topic]`.

use async_trait::async_trait;

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};
use crate::help::{HelpData, TOPICS, commands_overview, topic};

/// `/help [topic]`: the commands, a topic, or one command.
pub(crate) struct Help;

#[async_trait]
impl SlashCommand for Help {
    fn name(&self) -> &str {
        "help"
    }

    fn description(&self) -> &str {
        "Show help (topics: skills, agents, commands, config, memory, tools, workspace)"
    }

    fn usage(&self) -> &str {
        "[topic]"
    }

    fn help(&self) -> &str {
        "Without an argument, lists every command. With a topic (skills, agents, commands, \
         config, memory, tools, workspace) prints that topic; with a command name prints that \
         command's help. `weft help <topic>` prints the same text from the shell."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        if args.is_empty() {
            write!(ctx.out, "{}", commands_overview(ctx.commands, ctx.width))?;
            return Ok(Dispatch::Handled);
        }
        let data = HelpData::for_session(ctx.session, ctx.env, ctx.width);
        match topic(args, ctx.commands, &data) {
            Some(text) => write!(ctx.out, "{text}")?,
            None => {
                let names: Vec<&str> = TOPICS.iter().map(|(n, _)| *n).collect();
                return Err(CommandError::Usage(format!(
                    "no help topic or command `{args}`; topics: {}",
                    names.join(", ")
                )));
            }
        }
        Ok(Dispatch::Handled)
    }

    fn completions(&self, partial: &str, _names: &CompletionContext) -> Vec<String> {
        crate::command::starting_with(partial, TOPICS.iter().map(|(n, _)| *n))
    }
}
