//! `/plugin [list]`, `/plugin enable|disable NAME[@MARKETPLACE] [--scope project]`: the
//! installed plugins (the listing is `weft plugin list`'s) and switching one on or off as
//! `weft plugin enable|disable` does (weft-marketplace's `PluginTargets::switch`). A session
//! reads its plugins when it starts, so a change applies from the next one.

use async_trait::async_trait;
use weft_plugin::PluginSet;

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};

/// `/plugin`.
pub(crate) struct PluginCommand;

/// The subcommands, as completion offers them.
const SUBCOMMANDS: [&str; 3] = ["disable", "enable", "list"];

const USAGE: &str =
    "usage: /plugin [list] | /plugin enable|disable NAME[@MARKETPLACE] [--scope user|project]";

#[async_trait]
impl SlashCommand for PluginCommand {
    fn name(&self) -> &str {
        "plugin"
    }

    fn description(&self) -> &str {
        "List plugins, or enable or disable one"
    }

    fn usage(&self) -> &str {
        "[enable|disable NAME]"
    }

    fn help(&self) -> &str {
        "Without an argument (or with `list`), lists the installed plugins: weft's for the \
         project and the user, and those Claude Code installed, with their scope and whether \
         they are in use. `enable NAME` and `disable NAME` switch one on or off like `weft \
         plugin enable|disable`: NAME is NAME@MARKETPLACE, or a name only one installed plugin \
         has; the change is made where the plugin is installed (the user's by default; \
         `--scope project`, or `--project`, picks the project's install, recorded in \
         .claude/settings.json for the team); a plugin Claude Code installed is switched for \
         weft only. A session reads its plugins when it starts: the change applies from the \
         next session, and this one keeps the plugins, hooks and MCP servers it started with. \
         Plugin skills and commands run as /plugin:name. Installing and removing plugins is \
         `weft plugin install|remove` (docs/PLUGINS.md)."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let (action, rest) = match words.split_first() {
            None => ("list", &[][..]),
            Some((first, rest)) => (*first, rest),
        };
        let set = PluginSet::load(&ctx.env.plugins.sources);
        ctx.env.plugins.refresh_names(&set);
        match action {
            "list" if rest.is_empty() => {
                for w in &set.warnings {
                    writeln!(ctx.out, "warning: {w}")?;
                }
                let listing = crate::plugins::plugins_listing(&set, ctx.width);
                ctx.out.write_all(listing.as_bytes())?;
                if !set.plugins.is_empty() {
                    writeln!(
                        ctx.out,
                        "/plugin enable|disable NAME switches one (from the next session); its skills and commands run as /plugin:name."
                    )?;
                }
                Ok(Dispatch::Handled)
            }
            "enable" | "disable" => {
                let (name, project) = target_of(rest)?;
                let switched = ctx
                    .env
                    .plugins
                    .targets
                    .switch(&set, name, project, action == "enable")
                    .map_err(|e| CommandError::Usage(e.to_string()))?;
                writeln!(
                    ctx.out,
                    "{switched}. It applies from the next session; this one keeps the plugins it started with."
                )?;
                Ok(Dispatch::Handled)
            }
            "install" | "update" | "remove" | "uninstall" | "verify" | "marketplace" => {
                let action = if action == "uninstall" {
                    "remove"
                } else {
                    action
                };
                let command = std::iter::once(action)
                    .chain(rest.iter().copied())
                    .collect::<Vec<_>>()
                    .join(" ");
                Err(CommandError::Usage(format!(
                    "`/plugin {action}` is not a session command: run `weft plugin {command}` in a shell"
                )))
            }
            _ => Err(CommandError::Usage(USAGE.to_owned())),
        }
    }

    fn completions(&self, partial: &str, _names: &CompletionContext) -> Vec<String> {
        crate::command::starting_with(partial, SUBCOMMANDS)
    }

    fn later_completions(
        &self,
        previous: &[&str],
        partial: &str,
        names: &CompletionContext,
    ) -> Vec<String> {
        match previous {
            ["enable" | "disable"] => {
                crate::command::starting_with(partial, names.plugins.iter().map(String::as_str))
            }
            ["enable" | "disable", _] => crate::command::starting_with(partial, ["--scope"]),
            ["enable" | "disable", _, "--scope"] => {
                crate::command::starting_with(partial, ["project", "user"])
            }
            _ => Vec::new(),
        }
    }
}

/// The plugin named in `words` (`NAME`, then `--scope user|project` or `--project`) and
/// whether the project's install is meant.
fn target_of<'a>(words: &[&'a str]) -> Result<(&'a str, bool), CommandError> {
    let usage = || CommandError::Usage(USAGE.to_owned());
    let (name, options) = words.split_first().ok_or_else(usage)?;
    if name.starts_with('-') {
        return Err(usage());
    }
    match options {
        [] | ["--scope", "user"] => Ok((name, false)),
        ["--project"] | ["--scope", "project"] => Ok((name, true)),
        _ => Err(usage()),
    }
}
