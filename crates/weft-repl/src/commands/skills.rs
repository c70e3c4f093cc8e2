//! `/skills [name]` and `/skill <name> [args]`.

use std::fmt::Write as _;

use async_trait::async_trait;
use weft_registry::{SkillEntry, SkillOrigin, Snapshot};
use weft_types::suggest::{closest_names, did_you_mean};
use weft_types::{SkillContext, ToolPolicy};

use crate::command::{CommandContext, CommandError, CompletionContext, Dispatch, SlashCommand};
use crate::dispatch::skill_dispatch;
use weft_term::{columns, first_line, tilde};

/// `/skills [name]`: the list, or one skill's details.
pub(crate) struct Skills;

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
            let mut rows = vec![vec![
                "NAME".to_owned(),
                "SCOPE".to_owned(),
                "INVOKE".to_owned(),
                "DESCRIPTION".to_owned(),
            ]];
            for entry in snapshot.entries() {
                let s = &entry.skill;
                let invoke = match (s.user_invocable, s.disable_model_invocation) {
                    (true, false) => "/ + model",
                    (true, true) => "/ only",
                    (false, false) => "model only",
                    (false, true) => "nobody",
                };
                let name = match s.context {
                    SkillContext::Fork => format!("{} (fork)", s.name),
                    SkillContext::Inline => s.name.clone(),
                };
                rows.push(vec![
                    name,
                    s.source.scope.to_string(),
                    invoke.to_owned(),
                    first_line(&s.description, 60),
                ]);
            }
            write!(ctx.out, "{}", columns(&rows))?;
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
        write!(ctx.out, "{}", details(entry, home.as_deref()))?;
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

fn yes_no(v: bool) -> &'static str {
    if v { "yes" } else { "no" }
}

/// The seed 002 `skills show` fields.
fn details(entry: &SkillEntry, home: Option<&std::path::Path>) -> String {
    let s = &entry.skill;
    let mut out = String::new();
    let _ = writeln!(out, "Skill: {}", s.name);
    let _ = writeln!(out, "Description: {}", s.description.trim());
    if let Some(v) = &s.version {
        let _ = writeln!(out, "Version: {v}");
    }
    let _ = writeln!(out, "Format: {}", s.source.format);
    let place = match &entry.origin {
        SkillOrigin::File(_) => entry
            .dir()
            .map_or_else(String::new, |d| format!(" ({}/)", tilde(d, home))),
        SkillOrigin::Builtin => " (compiled in)".to_owned(),
        SkillOrigin::Registered => " (registered at run time)".to_owned(),
    };
    let _ = writeln!(out, "Scope: {}{place}", s.source.scope);
    if !s.variables.is_empty() {
        let _ = writeln!(out, "Variables: {}", s.variables.join(", "));
    }
    if let Some(h) = &s.argument_hint {
        let _ = writeln!(out, "Argument Hint: {h}");
    }
    let _ = writeln!(out, "User Invocable: {}", yes_no(s.user_invocable));
    let _ = writeln!(
        out,
        "Model Invocable: {}",
        yes_no(!s.disable_model_invocation)
    );
    let _ = writeln!(out, "Context: {}", s.context);
    if let Some(m) = &s.model {
        let _ = writeln!(out, "Model: {m}");
    }
    let tools = match &s.tools {
        ToolPolicy { allow: None, .. } => "(no restriction)".to_owned(),
        ToolPolicy {
            allow: Some(list), ..
        } if list.is_empty() => "(none)".to_owned(),
        ToolPolicy {
            allow: Some(list), ..
        } => list.join(", "),
    };
    let _ = writeln!(out, "Allowed Tools: {tools}");
    if !s.tools.deny.is_empty() {
        let _ = writeln!(out, "Forbidden Tools: {}", s.tools.deny.join(", "));
    }
    if !entry.readiness.is_ready() {
        let _ = writeln!(out, "Not ready: {}", entry.readiness.problems().join("; "));
    }
    for shadow in &entry.shadows {
        let path = shadow
            .path
            .as_deref()
            .map_or_else(String::new, |p| format!(" {}", tilde(p, home)));
        let _ = writeln!(out, "Shadows: {} copy{path}", shadow.scope);
    }
    out
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
