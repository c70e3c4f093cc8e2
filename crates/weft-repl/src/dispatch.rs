//! From a line to a [`Dispatch`]: ordinary messages, built-in commands, skills as commands,
//! and the unknown-command message (seed 002 3.3, DESIGN 14).

use std::io::Write;

use weft_types::SkillContext;
use weft_types::suggest::{closest_names, did_you_mean};

use crate::command::{CommandContext, Dispatch};
use crate::commands::skills::not_found;
use crate::registry::CommandRegistry;

/// A line split into a slash command's name and its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedLine<'a> {
    /// The name after `/`.
    pub name: &'a str,
    /// Everything after the name, trimmed.
    pub args: &'a str,
}

/// `Some` when `input` is a slash command: it starts with `/` and its first word has no
/// second `/` (so `/etc/hosts is missing` is an ordinary message, DESIGN 14).
pub fn parse_line(input: &str) -> Option<ParsedLine<'_>> {
    let rest = input.trim().strip_prefix('/')?;
    let (name, args) = match rest.split_once(char::is_whitespace) {
        Some((name, args)) => (name, args.trim()),
        None => (rest, ""),
    };
    if name.contains('/') {
        return None;
    }
    Some(ParsedLine { name, args })
}

/// The message printed for a command that does not exist, with the closest of `known`
/// (command and skill names, without their `/`).
pub fn unknown_command<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let suggestions: Vec<String> = closest_names(name, known)
        .into_iter()
        .map(|n| format!("/{n}"))
        .collect();
    let end = if suggestions.is_empty() { "." } else { "" };
    format!(
        "Unknown command: /{name}{}{end} Type /help for available commands.",
        did_you_mean(&suggestions)
    )
}

impl CommandRegistry {
    /// Dispatches one line. A built-in command runs (its errors are printed); a
    /// user-invocable skill becomes [`Dispatch::SkillInvocation`] or, with `context: fork`,
    /// [`Dispatch::Fork`]; anything else starting with `/` prints the unknown-command message
    /// and is never sent to the model. Only a failure to write the output is an error.
    pub async fn dispatch(
        &self,
        input: &str,
        ctx: &mut CommandContext<'_>,
    ) -> std::io::Result<Dispatch> {
        let Some(ParsedLine { name, args }) = parse_line(input) else {
            return Ok(Dispatch::NotACommand);
        };
        if let Some(command) = self.get(name) {
            let command = std::sync::Arc::clone(command);
            return match command.execute(args, ctx).await {
                Ok(dispatch) => Ok(dispatch),
                Err(e) => {
                    writeln!(ctx.out, "error: {e}")?;
                    Ok(Dispatch::Handled)
                }
            };
        }
        // A skill installed since the last turn is a command now too.
        ctx.session.refresh_skills();
        let snapshot = ctx.session.skills().snapshot();
        if let Some(entry) = snapshot.get(name) {
            if entry.skill.user_invocable {
                return skill_dispatch(name, args, entry.skill.context, ctx.out);
            }
            writeln!(
                ctx.out,
                "Skill `{name}` is not user-invocable (user-invocable: false); the model can still use it."
            )?;
            return Ok(Dispatch::Handled);
        }
        if !snapshot.broken_named(name).is_empty() {
            writeln!(ctx.out, "error: {}", not_found(&snapshot, name))?;
            return Ok(Dispatch::Handled);
        }
        let known = self
            .iter()
            .map(|c| c.name())
            .chain(snapshot.user_invocable().map(|e| e.name()));
        writeln!(ctx.out, "{}", unknown_command(name, known))?;
        Ok(Dispatch::Handled)
    }
}

/// The dispatch for running skill `name` with the raw argument text `args`; an unclosed
/// quote is reported and nothing runs.
pub(crate) fn skill_dispatch(
    name: &str,
    args: &str,
    context: SkillContext,
    out: &mut (dyn Write + Send),
) -> std::io::Result<Dispatch> {
    let args = match weft_template::split_args(args) {
        Ok(a) => a,
        Err(e) => {
            writeln!(
                out,
                "error: skill `{name}`: cannot split the arguments: {e}"
            )?;
            return Ok(Dispatch::Handled);
        }
    };
    let name = name.to_owned();
    Ok(match context {
        SkillContext::Fork => Dispatch::Fork { name, args },
        SkillContext::Inline => Dispatch::SkillInvocation { name, args },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_into_name_and_args() {
        assert_eq!(
            parse_line("  /skill research  quantum computing "),
            Some(ParsedLine {
                name: "skill",
                args: "research  quantum computing"
            })
        );
        assert_eq!(
            parse_line("/help"),
            Some(ParsedLine {
                name: "help",
                args: ""
            })
        );
        assert_eq!(parse_line("hello /help"), None);
        assert_eq!(parse_line("/etc/hosts is missing"), None);
        assert_eq!(parse_line("/usr/bin/env"), None);
        assert_eq!(parse_line("/"), Some(ParsedLine { name: "", args: "" }));
    }
}
