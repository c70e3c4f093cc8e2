//! `/permissions`: the permission mode, what runs without asking, and the answers remembered
//! in this session.

use async_trait::async_trait;

use crate::command::{CommandContext, CommandError, Dispatch, SlashCommand};

/// `/permissions`.
pub(crate) struct PermissionsCommand;

#[async_trait]
impl SlashCommand for PermissionsCommand {
    fn name(&self) -> &str {
        "permissions"
    }

    fn description(&self) -> &str {
        "Show the permission mode and what runs without asking"
    }

    fn help(&self) -> &str {
        "Shows the permission mode (--permission-mode, permissions.mode, narrowed by the \
         agent's permissionMode), the permissions.allow patterns, and what your \"allow \
         always\" answers allow for the rest of the session. See docs/PERMISSIONS.md."
    }

    async fn execute(
        &self,
        _args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let session = &*ctx.session;
        let mut text = format!("Permission mode: {}\n", session.permission_mode());
        let patterns: Vec<String> = session
            .permissions()
            .pre_approval
            .patterns()
            .iter()
            .map(|(p, _)| format!("  {p}\n"))
            .collect();
        if patterns.is_empty() {
            text.push_str("Pre-approved (permissions.allow): none\n");
        } else {
            text.push_str("Pre-approved (permissions.allow):\n");
            text.extend(patterns);
        }
        let remembered = session.remembered_approvals();
        if remembered.is_empty() {
            text.push_str("Allowed for this session: nothing yet\n");
        } else {
            text.push_str("Allowed for this session:\n");
            for line in remembered {
                // One line each (a command may span several); the session's writer
                // neutralises what it quotes.
                text.push_str(&format!("  {}\n", weft_term::cut(&line, 300)));
            }
        }
        ctx.out.write_all(text.as_bytes())?;
        Ok(Dispatch::Handled)
    }
}
