//! The command line: every command, flag and argument.
//!
//! This module is the root: the parser, the global options and the top-level commands. Each
//! family of subcommands has its arguments in a module of its own (`skills.rs`,
//! `install.rs`, `run.rs`, `agents.rs`, `sessions.rs`, `setup.rs`), and the output formats
//! several commands share are in `format.rs`.

mod agents;
mod format;
mod front;
mod install;
mod mode;
mod plugin;
mod run;
mod sessions;
mod setup;
mod skills;

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

pub use agents::{AgentsCommand, AgentsListArgs, AgentsShowArgs};
pub use format::{ListFormat, ReportFormat, RunFormat};
pub use front::FrontArgs;
pub use install::{InstallArgs, InstallScope, RemoveArgs, ScanArgs, UpdateArgs, VerifyArgs};
pub use plugin::{
    MarketplaceAddArgs, MarketplaceCommand, MarketplaceListArgs, MarketplaceRemoveArgs,
    MarketplaceUpdateArgs, PluginCommand, PluginIdArgs, PluginInstallArgs, PluginListArgs,
    PluginUpdateArgs, PluginVerifyArgs,
};
pub use run::{AgentArgs, RunArgs};
pub use sessions::{SessionsCommand, SessionsListArgs, SessionsShowArgs};
pub use setup::{
    ConfigCommand, ConfigShowArgs, DoctorArgs, HooksCommand, HooksListArgs, McpApproveArgs,
    McpCommand, McpListArgs, SandboxCommand, SandboxStatusArgs,
};
pub use skills::{
    CatalogArgs, CatalogFormatArg, CheckToolArgs, ComposeArgs, ListArgs, MatchArgs, ModeArg,
    NewArgs, ProfileArg, ScopeFilter, SelectArgs, ShowArgs, SkillRunArgs, SkillsCommand,
    ValidateArgs,
};

/// The heading the global options are listed under (once, in `weft --help`).
const GLOBAL: &str = "Global options";

/// What bare `weft` does, in `weft --help`.
const BARE_WEFT: &str = "Without a command, weft starts an interactive session on a terminal \
(as `weft agent` does); with stdin or stdout not a terminal it prints this help and exits with \
status 2. `weft \"question\"` starts the session with that first message (through a pipe it \
prints the answer), `weft -p \"question\"` prints the answer and exits, `weft -c` continues \
this project's latest session, `weft -r [ID]` resumes one (a picker without an ID). A first \
word that names a command runs that command: `weft -- \"skills are?\"` sends it as a message. \
Global options go before or after the command. Exit status: 0 ok, 1 failure, 2 usage or \
configuration error, 4 tool calls refused for want of approval, 130 interrupted \
(`weft help exit-codes` lists them all).";

/// weft: skills and subagents for LLM agents.
#[derive(Debug, Parser)]
#[command(name = "weft", version, about, long_about = None)]
#[command(disable_help_subcommand = true, after_long_help = BARE_WEFT)]
pub struct Cli {
    /// More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count, help_heading = GLOBAL)]
    pub verbose: u8,

    /// The same as `--format json`, for every command that prints data.
    #[arg(long, global = true, hide = true)]
    pub json: bool,

    /// What runs without asking (default: ask); beats `permissions.mode` in the
    /// configuration. Claude Code's spellings work too (default, acceptEdits, dontAsk,
    /// bypassPermissions). See docs/PERMISSIONS.md.
    #[arg(long, global = true, value_parser = mode::PermissionModeParser, value_name = "MODE", help_heading = GLOBAL)]
    pub permission_mode: Option<weft_types::PermissionMode>,

    /// Where to find skills, agents and configuration.
    #[command(flatten)]
    pub locations: LocationArgs,

    /// Without a command: the first message, -p, -c, -r, -m (Claude Code's habits).
    #[command(flatten)]
    pub front: FrontArgs,

    /// The command to run; without one, an interactive session on a terminal.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The command line as weft parses it: [`Cli`] with the global options hidden from every
/// subcommand's help (they are listed once, by `weft --help`; each subcommand still accepts
/// them, before or after its name).
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let globals: Vec<clap::Arg> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    for sub in cmd.get_subcommands_mut() {
        hide_globals(sub, &globals);
    }
    cmd
}

/// Gives `cmd` and its subcommands hidden copies of the global options before clap
/// propagates them (it skips an option a subcommand already has). Hiding them after the
/// build would leave the layout decided with them visible: `--trust-project`'s long help
/// would turn every subcommand's `--help` into the long layout.
fn hide_globals(cmd: &mut clap::Command, globals: &[clap::Arg]) {
    let mut hidden = std::mem::take(cmd)
        .after_help("Global options (--project, --home, --config, -v, ...): see `weft --help`.");
    for arg in globals {
        hidden = hidden.arg(arg.clone().hide(true));
    }
    *cmd = hidden;
    for sub in cmd.get_subcommands_mut() {
        hide_globals(sub, globals);
    }
}

/// Parses the process's arguments (exiting with clap's message and status 2 on a mistake).
pub fn parse() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Top-level commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Work with skills (SKILL.md, skill.json + prompt.md).
    Skills {
        /// The skills command to run.
        #[command(subcommand)]
        command: SkillsCommand,
    },
    /// Work with agent definitions (built-in, ~/.clawft/agents, <project>/.clawft/agents, ...).
    Agents {
        /// The agents command to run.
        #[command(subcommand)]
        command: AgentsCommand,
    },
    /// Claude Code plugins and marketplaces: install, list, enable, disable, update, remove,
    /// verify (docs/PLUGINS.md).
    Plugin {
        /// The plugin command to run.
        #[command(subcommand)]
        command: PluginCommand,
    },
    /// Talk to an agent: one message with -m (or from piped stdin) prints the answer;
    /// without either, on a terminal, an interactive session with slash commands.
    Agent(AgentArgs),
    /// Help on a command (`weft help agent`, `weft help skills list`), a topic (skills,
    /// agents, commands, config, memory, tools, workspace) or a slash command (`weft help /agent`).
    Help {
        /// The command, topic or `/command`; without one, an overview.
        #[arg(value_name = "TOPIC")]
        topic: Vec<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Read session transcripts (~/.clawft/workspace/sessions) and their subagents'.
    Sessions {
        /// The sessions command to run.
        #[command(subcommand)]
        command: SessionsCommand,
    },
    /// List the hooks (Claude Code's, from settings files, skills and agents) and whether
    /// they run.
    Hooks {
        /// The hooks command to run.
        #[command(subcommand)]
        command: HooksCommand,
    },
    /// Work with MCP servers (`mcp_servers` in the configuration, the project's .mcp.json).
    Mcp {
        /// The mcp command to run.
        #[command(subcommand)]
        command: McpCommand,
    },
    /// The OS sandbox for exec_shell (`sandbox` in the configuration; docs/SANDBOX.md).
    Sandbox {
        /// The sandbox command to run.
        #[command(subcommand)]
        command: SandboxCommand,
    },
    /// The configuration in effect: files, environment and defaults merged.
    Config {
        /// The config command to run.
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Check the set-up: configuration files, providers and keys, the permission mode, the model
    /// (--online), MCP servers, the sandbox, skills, agents and the cache. Exits 1 when a check
    /// fails.
    Doctor(DoctorArgs),
}

/// Where skills and configuration live; every default can be overridden.
#[derive(Debug, Args, Clone, Default)]
pub struct LocationArgs {
    /// The project directory (default: $CLAWFT_PROJECT, else the git repository's root, else
    /// the nearest ancestor holding .clawft/, .claude/ or .agents/; never the home directory).
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub project: Option<PathBuf>,

    /// The home directory for user-level skills (~/.clawft, ~/.claude, ~/.agents).
    /// Default: $HOME.
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub home: Option<PathBuf>,

    /// An extra skill directory (plugin scope); repeatable.
    #[arg(long = "skills-dir", global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub skills_dirs: Vec<PathBuf>,

    /// Trust this project (its .clawft/ files) for this run; alias --trust-project-skills.
    ///
    /// A project you cloned is untrusted unless you pass this flag or list it in
    /// ~/.clawft/config.json:
    ///   "projects": {"/path/to/project": {"trust_level": "trusted"}}
    /// Trust enables, for this project only:
    ///   - every key of <project>/.clawft/config.json. Untrusted, only `model`, `aliases`,
    ///     `default_agent`, `agent.temperature`, `agent.max_tokens`,
    ///     `agent.context_window` and what switches skills off (`skills.disabled`,
    ///     `skills.entries.*.enabled`, `skills.builtins` and `skills.dynamic_context` set to
    ///     false) apply; the others
    ///     are ignored with a warning naming them:
    ///     `providers` (endpoints that receive your prompts and keys), `mcp_servers`
    ///     (programs weft starts), `sandbox`, `permissions`, `tools` (`allow_paths`,
    ///     `web_fetch`, `deny`, `exec_timeout_secs`, `output_cap`), the agent limits
    ///     (`max_tool_iterations`, `max_spawn_depth`, `max_concurrent_subagents`,
    ///     `subagent_timeout_secs`), `agent.transcripts`, `skills.max_prompt_bytes`.
    ///     Even trusted, a project never sets `permissions.mode` to `bypass` and never
    ///     widens the sandbox: `sandbox.writable_roots`, `sandbox.network: true`,
    ///     `sandbox.env_passthrough`, `sandbox.required: false` and `sandbox.enabled: false`
    ///     come only from your ~/.clawft/config.json or the command line;
    ///   - project agents above your limits (`max_tool_iterations`), lowered otherwise;
    ///   - project skills and agents overriding yours without a warning;
    ///   - directory links in the project's skill directories (and a .claude/commands that
    ///     is a link) leading out of the project (`.claude/skills/x -> ~/skills`);
    ///     untrusted, they are refused (E018) and not followed.
    #[arg(
        long,
        global = true,
        alias = "trust-project-skills",
        verbatim_doc_comment,
        help_heading = GLOBAL
    )]
    pub trust_project: bool,

    /// Do not use the skill header cache (~/.clawft/cache/skills.cache).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub no_cache: bool,

    /// A configuration file merged over ~/.clawft/config.json and
    /// <project>/.clawft/config.json.
    #[arg(long, global = true, value_name = "FILE", help_heading = GLOBAL)]
    pub config: Option<PathBuf>,

    /// Run no hook this time (Claude Code hooks from settings files, skills and agents;
    /// docs/HOOKS.md). `disableAllHooks: true` in a settings file does the same.
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub no_hooks: bool,
}
