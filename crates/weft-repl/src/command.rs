//! The slash-command contract: the [`SlashCommand`] trait, what a command runs with
//! ([`CommandContext`]), what dispatch decides ([`Dispatch`]) and what completion sees
//! ([`CompletionContext`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use weft_agents::{AgentRegistry, AgentRoot, ModelPool, Session, SessionError};
use weft_marketplace::PluginTargets;
use weft_plugin::{PluginSet, PluginSources};

use crate::registry::CommandRegistry;

/// What the REPL does with a line after dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dispatch {
    /// Not a slash command: the line goes to the model as it is.
    NotACommand,
    /// A command ran (or an error or the unknown-command message was printed); nothing goes to
    /// the model.
    Handled,
    /// An inline user-invocable skill: run it with
    /// [`Session::run_skill`](weft_agents::Session::run_skill), which sends `[Skill: name]`,
    /// a blank line and the rendered body as the user message (seed 004).
    SkillInvocation {
        /// The skill.
        name: String,
        /// Its arguments, already split with shell-word rules.
        args: Vec<String>,
    },
    /// A `context: fork` skill: it runs in a subagent (also through `run_skill`).
    Fork {
        /// The skill.
        name: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// `/compact [instructions]`: compact the conversation (a model call, which Ctrl-C
    /// cancels like a turn).
    Compact {
        /// What the summary should keep above all.
        instructions: Option<String>,
    },
    /// `/exit` or `/quit`: leave the REPL.
    Exit,
}

/// A command that cannot do what it was asked. Dispatch prints it (`error: ...`) and the
/// REPL goes on.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// Wrong or missing arguments; the text says what is expected.
    #[error("{0}")]
    Usage(String),
    /// The session refused (unknown model, bad agent tool list, ...).
    #[error(transparent)]
    Session(#[from] SessionError),
    /// Writing the output or reading a file failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Where things are, as the CLI resolved them (libraries never look themselves).
#[derive(Debug, Clone, Default)]
pub struct WorkspaceInfo {
    /// The project directory.
    pub project: Option<PathBuf>,
    /// The home directory.
    pub home: Option<PathBuf>,
    /// `~/.clawft/workspace` (transcripts, memory, workspace skills).
    pub clawft_workspace: Option<PathBuf>,
    /// Agent directories, highest precedence first.
    pub agent_roots: Vec<AgentRoot>,
    /// The memory file `memory_read` / `memory_write` use.
    pub memory_file: Option<PathBuf>,
    /// The REPL's history file.
    pub history_file: Option<PathBuf>,
    /// Configuration files, in merge order (user, project, `--config`), present or not.
    pub config_files: Vec<PathBuf>,
}

/// What the REPL runs with besides the session.
#[derive(Debug)]
pub struct ReplEnv {
    /// Every agent (for `/agents`, `/agent`).
    pub agents: AgentRegistry,
    /// The configured models (validates `/model`).
    pub models: Arc<ModelPool>,
    /// The configuration in effect as JSON, secrets masked (`weft config show`'s document;
    /// for `/config`; an `api_key` that is not masked is redacted when shown).
    pub config: serde_json::Value,
    /// `/config --origin`'s rows: key, value, origin (`weft config show --origin`'s).
    pub config_origins: Vec<Vec<String>>,
    /// Locations.
    pub workspace: WorkspaceInfo,
    /// Where plugins are read from and switched (`/plugin`).
    pub plugins: PluginEnv,
}

/// What `/plugin` reads and changes, as the CLI resolved it.
#[derive(Debug, Clone, Default)]
pub struct PluginEnv {
    /// Where the installed plugins are looked for (read again by each `/plugin`).
    pub sources: PluginSources,
    /// The user's and the project's stores, where a plugin is switched on or off.
    pub targets: PluginTargets,
    /// The installed plugins' ids and names, for completion (refreshed by `/plugin`).
    pub names: Vec<String>,
}

impl PluginEnv {
    /// Completion's names from `set`: every id, and every name only one plugin has.
    pub fn refresh_names(&mut self, set: &PluginSet) {
        let mut names: Vec<String> = set.plugins.iter().map(|p| p.id.clone()).collect();
        for p in &set.plugins {
            if set.plugins.iter().filter(|q| q.name == p.name).count() == 1 {
                names.push(p.name.clone());
            }
        }
        names.sort();
        names.dedup();
        self.names = names;
    }
}

/// What a command runs with.
pub struct CommandContext<'a> {
    /// Every command (for `/help`).
    pub commands: &'a CommandRegistry,
    /// The conversation.
    pub session: &'a mut Session,
    /// Agents, models, configuration, locations.
    pub env: &'a mut ReplEnv,
    /// Where output goes.
    pub out: &'a mut (dyn Write + Send),
    /// The width listings are fitted to (`weft_term::fit_table`): the terminal's, `None`
    /// when the output is not a terminal (every cell whole).
    pub width: Option<usize>,
}

impl std::fmt::Debug for CommandContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandContext")
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

/// A user-invocable skill as completion and hints see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillName {
    /// The name.
    pub name: String,
    /// Its `argument-hint`.
    pub argument_hint: Option<String>,
}

/// Names completion offers, refreshed by the REPL before each line is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompletionContext {
    /// User-invocable skills, sorted by name.
    pub skills: Vec<SkillName>,
    /// Agent names.
    pub agents: Vec<String>,
    /// Dot paths of the configuration (`agent.temperature`, ...).
    pub config_keys: Vec<String>,
    /// Installed plugins' ids and unambiguous names (`/plugin enable ...`).
    pub plugins: Vec<String>,
}

impl CompletionContext {
    /// The `argument-hint` of a user-invocable skill.
    pub fn argument_hint(&self, skill: &str) -> Option<&str> {
        self.skills
            .iter()
            .find(|s| s.name == skill)
            .and_then(|s| s.argument_hint.as_deref())
    }
}

/// One slash command (FR-3F-021).
#[async_trait]
pub trait SlashCommand: Send + Sync {
    /// The name, without the `/`.
    fn name(&self) -> &str;

    /// One line for `/help`.
    fn description(&self) -> &str;

    /// The arguments as shown in `/help` and as a hint while typing (`<name> [args]`).
    fn usage(&self) -> &str {
        ""
    }

    /// The full text of `/help <command>`.
    fn help(&self) -> &str;

    /// Runs the command with everything after its name (trimmed).
    async fn execute(
        &self,
        args: &str,
        ctx: &mut CommandContext<'_>,
    ) -> Result<Dispatch, CommandError>;

    /// Completion candidates for the word being typed (`partial`) as the first argument.
    fn completions(&self, partial: &str, names: &CompletionContext) -> Vec<String> {
        let _ = (partial, names);
        Vec::new()
    }

    /// Completion candidates for a later argument: `previous` are the arguments before it.
    fn later_completions(
        &self,
        previous: &[&str],
        partial: &str,
        names: &CompletionContext,
    ) -> Vec<String> {
        let _ = (previous, partial, names);
        Vec::new()
    }
}

/// The candidates of `items` that start with `partial`, sorted and without duplicates.
pub fn starting_with<'a>(partial: &str, items: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = items
        .into_iter()
        .filter(|i| i.starts_with(partial))
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    out
}
