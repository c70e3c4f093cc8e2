//! `/session`, `/clear`, `/exit` and `/quit`.

use async_trait::async_trait;

use crate::command::{CommandContext, CommandError, Dispatch, SlashCommand};

/// `/session`: id, agent, model, messages, tokens, transcript.
pub(crate) struct SessionInfo;

#[async_trait]
impl SlashCommand for SessionInfo {
    fn name(&self) -> &str {
        "session"
    }

    fn description(&self) -> &str {
        "Show session info"
    }

    fn help(&self) -> &str {
        "Prints the session id, the active agent and model, how many messages the \
         conversation holds, the tokens used so far, the subagents started (if any) and the \
         transcript file."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let usage = ctx.session.usage();
        let context = ctx.session.context_use();
        let s = &*ctx.session;
        writeln!(ctx.out, "Session: {}", s.id())?;
        writeln!(ctx.out, "Agent: {}", s.agent().name)?;
        writeln!(ctx.out, "Model: {}", s.model())?;
        writeln!(ctx.out, "Messages: {}", s.messages().len())?;
        writeln!(
            ctx.out,
            "Tokens: {} input ({} from the cache) + {} output (/cost for more)",
            usage.input_tokens, usage.cache_read_tokens, usage.output_tokens
        )?;
        writeln!(
            ctx.out,
            "Context: {} of {} tokens ({}%; /context for more)",
            weft_term::tokens(context.tokens),
            weft_term::tokens(context.window),
            context.percent()
        )?;
        let children = s.children().len();
        if children > 0 {
            writeln!(
                ctx.out,
                "Subagents: {children} ({} running)",
                s.running_children()
            )?;
        }
        match s.transcript_path() {
            Some(p) => writeln!(ctx.out, "Transcript: {}", p.display())?,
            None => writeln!(ctx.out, "Transcript: (none)")?,
        }
        Ok(Dispatch::Handled)
    }
}

/// `/clear`: forgets the conversation.
pub(crate) struct Clear;

#[async_trait]
impl SlashCommand for Clear {
    fn name(&self) -> &str {
        "clear"
    }

    fn description(&self) -> &str {
        "Clear session history"
    }

    fn help(&self) -> &str {
        "Forgets the conversation: the next message starts afresh with the same agent and \
         model (SessionEnd hooks run now, SessionStart hooks before the next message). The \
         transcript file keeps everything."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let n = ctx.session.messages().len();
        ctx.session
            .end(weft_agents::EndReason::Clear, &mut weft_agents::Quiet)
            .await;
        ctx.session.clear()?;
        writeln!(ctx.out, "Cleared {n} message(s).")?;
        Ok(Dispatch::Handled)
    }
}

/// `/exit` and `/quit`.
pub(crate) struct Exit(pub(crate) &'static str);

#[async_trait]
impl SlashCommand for Exit {
    fn name(&self) -> &str {
        self.0
    }

    fn description(&self) -> &str {
        "Exit the session"
    }

    fn help(&self) -> &str {
        "Leaves the session (Ctrl-D does too). The transcript is already on disk."
    }

    async fn execute(
        &self,
        _args: &str,
        _ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        Ok(Dispatch::Exit)
    }
}
