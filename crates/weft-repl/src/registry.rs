//! The command registry: every slash command by name, duplicates refused; completion and
//! hints over commands, skills and agents.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::command::{CompletionContext, SlashCommand, starting_with};

/// A second command with a name already taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a slash command named `/{0}` is already registered")]
pub struct DuplicateCommand(pub String);

/// Every slash command, by name.
#[derive(Default, Clone)]
pub struct CommandRegistry {
    commands: BTreeMap<String, Arc<dyn SlashCommand>>,
}

impl fmt::Debug for CommandRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.commands.keys()).finish()
    }
}

impl CommandRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every built-in command of DESIGN section 9.
    pub fn builtin() -> Self {
        let mut registry = Self::new();
        for command in crate::commands::builtin_commands() {
            // The built-in names are distinct (a unit test checks it).
            let _ = registry.register(command);
        }
        registry
    }

    /// Adds a command; a name that is already taken is refused and the registry is unchanged.
    pub fn register(&mut self, command: Arc<dyn SlashCommand>) -> Result<(), DuplicateCommand> {
        let name = command.name().to_owned();
        if self.commands.contains_key(&name) {
            return Err(DuplicateCommand(name));
        }
        self.commands.insert(name, command);
        Ok(())
    }

    /// The command called `name` (without the `/`).
    pub fn get(&self, name: &str) -> Option<&Arc<dyn SlashCommand>> {
        self.commands.get(name)
    }

    /// Every command, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn SlashCommand>> {
        self.commands.values()
    }

    /// `(name, description)` of every command, sorted by name.
    pub fn list(&self) -> Vec<(&str, &str)> {
        self.iter().map(|c| (c.name(), c.description())).collect()
    }

    /// How many commands there are.
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Completion of `line` with the cursor at `pos`: the byte offset the candidates replace
    /// from, and the candidates. The first word completes to command and user-invocable skill
    /// names (with their `/`; a plugin's are `/plugin:name`, which a bare `/name` completes to
    /// when no other name starts so); the first argument completes
    /// through the command ([`SlashCommand::completions`]), a later one through
    /// [`SlashCommand::later_completions`].
    pub fn complete(
        &self,
        line: &str,
        pos: usize,
        names: &CompletionContext,
    ) -> (usize, Vec<String>) {
        let Some(before) = line.get(..pos) else {
            return (pos, Vec::new());
        };
        let Some(rest) = before.strip_prefix('/') else {
            return (pos, Vec::new());
        };
        match rest.split_once(char::is_whitespace) {
            None => {
                let commands = self.commands.keys().map(String::as_str);
                let skills = names.skills.iter().map(|s| s.name.as_str());
                let mut found = starting_with(rest, commands.chain(skills));
                if found.is_empty() && !rest.contains(':') {
                    // `/lin` for a plugin's `fmt:lint`: its qualified name, when nothing
                    // else starts so.
                    let plugins = names.skills.iter().map(|s| s.name.as_str()).filter(|n| {
                        n.split_once(':')
                            .is_some_and(|(_, bare)| bare.starts_with(rest))
                    });
                    found = starting_with("", plugins);
                }
                (0, found.into_iter().map(|n| format!("/{n}")).collect())
            }
            Some((name, args)) => {
                let args = args.trim_start();
                let Some(command) = self.get(name) else {
                    return (pos, Vec::new());
                };
                match args.rsplit_once(char::is_whitespace) {
                    None => (pos - args.len(), command.completions(args, names)),
                    Some((before, partial)) => {
                        let previous: Vec<&str> = before.split_whitespace().collect();
                        let found = command.later_completions(&previous, partial, names);
                        (pos - partial.len(), found)
                    }
                }
            }
        }
    }

    /// The hint shown after the cursor: the rest of the only matching command or skill name,
    /// or, right after `/name `, its arguments (`usage`, or the skill's `argument-hint`).
    pub fn hint(&self, line: &str, pos: usize, names: &CompletionContext) -> Option<String> {
        if pos != line.len() {
            return None;
        }
        let rest = line.strip_prefix('/')?;
        if let Some(name) = rest.strip_suffix(' ') {
            if name.contains(char::is_whitespace) {
                // `/skill <name> `: the skill's argument hint.
                let (command, skill) = name.split_once(' ')?;
                if command == "skill" && !skill.contains(' ') {
                    return names.argument_hint(skill).map(str::to_owned);
                }
                return None;
            }
            if let Some(command) = self.get(name) {
                return Some(command.usage().to_owned()).filter(|u| !u.is_empty());
            }
            return names.argument_hint(name).map(str::to_owned);
        }
        if rest.is_empty() || rest.contains(char::is_whitespace) {
            return None;
        }
        let (_, found) = self.complete(line, pos, names);
        match found.as_slice() {
            [only] => only
                .strip_prefix(line)
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
            _ => None,
        }
    }
}
