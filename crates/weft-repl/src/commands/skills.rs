//! `/skills [name]` and `/skill <name> [args]`.

use async_trait::async_trait;
use weft_registry::Snapshot;
use weft_registry::details::skill_details;
use weft_types::SkillContext;
use weft_types::suggest::{closest_names, did_you_mean};

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};
use crate::dispatch::skill_dispatch;
use weft_term::{fields, fit_table, one_line, tilde};

/// `/skills [name]`: the list, or one skill's details.
pub(crate) struct Skills;

/// The columns of `/skills`.
const LIST_HEADER: [&str; 4] = ["NAME", "SCOPE", "INVOKE", "DESCRIPTION"];

#[async_trait]
impl SlashCommand for Skills {
    fn name(&self) -> &str {
        "skills"
    }

    fn description(&self) -> &str {
        "List available skills, or show one"
    }

    fn usage(&self) -> &str {
        "[name]"
    }

    fn help(&self) -> &str {
        "Without an argument, lists every skill: name, scope, who may invoke it, description. \
         With a name, shows its fields, source, tools and any copies it shadows."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let snapshot = ctx.session.skills().snapshot();
        if args.is_empty() {
            if snapshot.is_empty() {
                writeln!(ctx.out, "No skills.")?;
                return Ok(Dispatch::Handled);
            }
            let rows: Vec<Vec<String>> = snapshot
                .entries()
                .iter()
                .map(|entry| {
                    let s = &entry.skill;
                    let invoke = match (s.user_invocable, s.model_invocable()) {
                        (true, true) => "/ + model",
                        (true, false) => "/ only",
                        (false, true) => "model only",
                        (false, false) => "nobody",
                    };
                    let name = match s.context {
                        SkillContext::Fork => format!("{} (fork)", s.name),
                        SkillContext::Inline => s.name.clone(),
                    };
                    vec![
                        name,
                        s.source.scope.to_string(),
                        invoke.to_owned(),
                        one_line(&s.description),
                    ]
                })
                .collect();
            write!(ctx.out, "{}", fit_table(&LIST_HEADER, &rows, ctx.width))?;
            writeln!(
                ctx.out,
                "{} skill(s). /skills <name> for details, /<name> [args] to run one.",
                snapshot.len()
            )?;
            return Ok(Dispatch::Handled);
        }
        let Some(entry) = snapshot.get(args) else {
            return Err(not_found(&snapshot, args));
        };
        let home = ctx.env.workspace.home.clone();
        let readiness = entry.readiness_with(&|t| ctx.session.has_tool(t));
        let rows = skill_details(entry, &readiness, &|p| tilde(p, home.as_deref()));
        write!(ctx.out, "{}", fields(&rows))?;
        Ok(Dispatch::Handled)
    }

    fn completions(&self, partial: &str, names: &CompletionContext) -> Vec<String> {
        crate::command::starting_with(partial, names.skills.iter().map(|s| s.name.as_str()))
    }
}

/// A skill that is not there: its file's errors when it exists but does not load, else the
/// names it may have meant.
pub(crate) fn not_found(snapshot: &Snapshot, name: &str) -> CommandError {
    if let Some(broken) = snapshot.broken_named(name).first() {
        let errors: Vec<String> = broken.errors.iter().map(ToString::to_string).collect();
        return CommandError::Usage(format!(
            "Skill '{name}' does not load: {}",
            errors.join("; ")
        ));
    }
    let suggestions = closest_names(name, snapshot.entries().iter().map(|e| e.name()));
    // "did you mean ...?" ends its own sentence.
    let end = if suggestions.is_empty() { "." } else { "" };
    CommandError::Usage(format!(
        "Skill '{name}' not found{}{end} Run /skills to see available skills.",
        did_you_mean(&suggestions)
    ))
}

/// `/skill <name> [args]`: runs a skill.
pub(crate) struct SkillCommand;

#[async_trait]
impl SlashCommand for SkillCommand {
    fn name(&self) -> &str {
        "skill"
    }

    fn description(&self) -> &str {
        "Invoke a skill"
    }

    fn usage(&self) -> &str {
        "<name> [args]"
    }

    fn help(&self) -> &str {
        "Renders the skill with the arguments ($ARGUMENTS, $0, $1, ...; split like a shell, \
         quotes group words) and sends it as your message, headed `[Skill: <name>]`. While \
         the model answers, the skill's allowed-tools limit the tools. A skill with \
         `context: fork` runs in a subagent instead. `/<name> [args]` does the same."
    }

    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError> {
        let (name, rest) = match args.split_once(char::is_whitespace) {
            Some((n, r)) => (n, r.trim()),
            None => (args, ""),
        };
        if name.is_empty() {
            return Err(CommandError::Usage(
                "usage: /skill <name> [args]".to_owned(),
            ));
        }
        let snapshot = ctx.session.skills().snapshot();
        let Some(entry) = snapshot.get(name) else {
            return Err(not_found(&snapshot, name));
        };
        if !entry.skill.user_invocable {
            return Err(CommandError::Usage(format!(
                "Skill `{name}` is not user-invocable (user-invocable: false); the model can still use it."
            )));
        }
        Ok(skill_dispatch(name, rest, entry.skill.context, ctx.out)?)
    }

    fn completions(&self, partial: &str, names: &CompletionContext) -> Vec<String> {
        crate::command::starting_with(partial, names.skills.iter().map(|s| s.name.as_str()))
    }
}
