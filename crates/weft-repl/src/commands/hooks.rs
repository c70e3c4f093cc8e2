//! `/hooks`: every configured hook (settings files, skills, agents), whether it may run, and
//! why none runs when hooks are off. The listing is `weft hooks list`'s.

use async_trait::async_trait;

use crate::command::{CommandContext, CommandError, Dispatch, SlashCommand};

/// `/hooks`.
pub(crate) struct HooksCommand;

#[async_trait]
impl SlashCommand for HooksCommand {
    fn name(&self) -> &str {
        "hooks"
    }

    fn description(&self) -> &str {
        "List the hooks and whether they run"
    }

    fn help(&self) -> &str {
        "Lists every hook: those of ~/.claude/settings.json, .claude/settings.json and \
         .claude/settings.local.json, and those of skills and agents (which run while the skill \
         or agent is active), with the event, matcher, command and whether it is trusted (an \
         untrusted project's hooks never run). See docs/HOOKS.md."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let session = &*ctx.session;
        let hooks = session.hooks();
        let entries =
            weft_agents::configured_hooks(hooks, &session.skills().snapshot(), &ctx.env.agents);
        let text = crate::hooks::hooks_listing(
            &entries,
            hooks.disabled_reason(),
            ctx.env.workspace.home.as_deref(),
            ctx.width,
        );
        ctx.out.write_all(text.as_bytes())?;
        Ok(Dispatch::Handled)
    }
}
