//! The command line: every command, flag and argument.

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// The heading the global options are listed under (once, in `weft --help`).
const GLOBAL: &str = "Global options";

/// What bare `weft` does, in `weft --help`.
const BARE_WEFT: &str = "Without a command, weft starts an interactive session on a terminal \
(as `weft agent` does); with stdin or stdout not a terminal it prints this help and exits with \
status 2. Global options go before or after the command. Exit status: 0 ok, 1 failure, 2 usage \
or configuration error, 130 interrupted (`weft help exit-codes` lists them all).";

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
    /// configuration. See docs/PERMISSIONS.md.
    #[arg(long, global = true, value_enum, value_name = "MODE", help_heading = GLOBAL)]
    pub permission_mode: Option<PermissionModeArg>,

    /// Where to find skills, agents and configuration.
    #[command(flatten)]
    pub locations: LocationArgs,

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

/// `--permission-mode`: weft's spellings of [`weft_types::PermissionMode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PermissionModeArg {
    /// Read-only tools run; anything else asks (refused where no one can be asked).
    Ask,
    /// As ask, and file edits inside the project run without asking.
    AcceptEdits,
    /// Only read-only tools are offered and run.
    Plan,
    /// Everything the tool rules allow runs without asking; exec_shell runs in the sandbox.
    Auto,
    /// No prompts and no sandbox (a warning is printed).
    Bypass,
    /// As ask, but what would ask is refused.
    DontAsk,
}

impl From<PermissionModeArg> for weft_types::PermissionMode {
    fn from(arg: PermissionModeArg) -> Self {
        use weft_types::PermissionMode as M;
        match arg {
            PermissionModeArg::Ask => M::Ask,
            PermissionModeArg::AcceptEdits => M::AcceptEdits,
            PermissionModeArg::Plan => M::Plan,
            PermissionModeArg::Auto => M::Auto,
            PermissionModeArg::Bypass => M::Bypass,
            PermissionModeArg::DontAsk => M::DontAsk,
        }
    }
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
    /// Work with MCP servers (`mcp_servers` in the configuration).
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

/// `weft config ...`
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the configuration in effect as JSON (API keys masked), or with --origin a table
    /// of every value and the file, environment variable or default it came from.
    Show(ConfigShowArgs),
}

/// Arguments of `weft config show`.
#[derive(Debug, Args)]
pub struct ConfigShowArgs {
    /// Only this key and what is below it (a dot path: `agent`, `providers.openai.base_url`).
    pub key: Option<String>,
    /// Show where each value comes from.
    #[arg(long)]
    pub origin: bool,
    /// Output format of --origin.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of `weft doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Also send the default model one short request (costs a few tokens).
    #[arg(long)]
    pub online: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// `weft sandbox ...`
#[derive(Debug, Subcommand)]
pub enum SandboxCommand {
    /// What this machine offers (Landlock ABI, seccomp, user namespaces) and whether
    /// exec_shell runs sandboxed with the current configuration, and why not.
    Status(SandboxStatusArgs),
    /// Internal: how exec_shell runs a command: tie it to weft's life, apply the sandbox
    /// policy (if any), run COMMAND and exit as it exits.
    #[command(hide = true)]
    Exec(SandboxExecArgs),
}

/// Arguments of `weft sandbox status`.
#[derive(Debug, Args)]
pub struct SandboxStatusArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of the internal `weft sandbox exec`.
#[derive(Debug, Args)]
pub struct SandboxExecArgs {
    /// The policy as JSON; without it the command runs unsandboxed (still tied to weft).
    #[arg(long, value_name = "JSON")]
    pub policy: Option<String>,
    /// weft's process id: the helper starts nothing when it is no longer its parent.
    #[arg(long, value_name = "PID")]
    pub parent: Option<u32>,
    /// The program and its arguments, after `--`.
    #[arg(required = true, last = true, value_name = "COMMAND")]
    pub command: Vec<std::ffi::OsString>,
}

/// `weft mcp ...`
#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Start the configured MCP servers and list them: name, status, tool count and tools.
    /// Exits 1 when an enabled server is not running.
    List(McpListArgs),
}

/// Arguments of `weft mcp list`.
#[derive(Debug, Args)]
pub struct McpListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// `weft agents ...`
#[derive(Debug, Subcommand)]
pub enum AgentsCommand {
    /// List every agent, highest precedence per name: name, description, model, scope.
    List(AgentsListArgs),
    /// Show one agent: model, temperature, iteration cap, scope and file, tools, skills.
    Show(AgentsShowArgs),
}

/// `weft sessions ...`
#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    /// List sessions, oldest first: id, start, agent, model, messages, subagents.
    List(SessionsListArgs),
    /// Print a session's conversation and those of its subagents.
    Show(SessionsShowArgs),
}

/// Arguments of `weft sessions list`.
#[derive(Debug, Args)]
pub struct SessionsListArgs {
    /// Also list subagent sessions (they are shown under their parent by `show`).
    #[arg(long)]
    pub all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of `weft sessions show`.
#[derive(Debug, Args)]
pub struct SessionsShowArgs {
    /// The session id (a unique prefix is enough).
    pub id: String,
    /// Output format (JSON: the session as `sessions list` prints it, with its transcript
    /// records and its subagents, nested).
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft agents list`.
#[derive(Debug, Args)]
pub struct AgentsListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of `weft agents show`.
#[derive(Debug, Args)]
pub struct AgentsShowArgs {
    /// The agent.
    pub name: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// How an agent run is set up (shared by `weft agent` and `weft skills run`).
#[derive(Debug, Args, Clone, Default)]
pub struct RunArgs {
    /// The agent to use (default: `default_agent` from the config, else `default`).
    #[arg(long, value_name = "NAME")]
    pub agent: Option<String>,

    /// The model, `provider/model` or an alias (haiku, sonnet, opus, inherit, or the config's).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,

    /// Print the exact request (system prompt, messages, tools) as JSON instead of sending
    /// it; needs no network and no provider.
    #[arg(long)]
    pub dry_run: bool,

    /// Do not stream the answer even on a terminal.
    #[arg(long)]
    pub no_stream: bool,

    /// Do not write a transcript under ~/.clawft/workspace/sessions.
    #[arg(long)]
    pub no_transcript: bool,

    /// Continue the latest session of this project (else of this directory): its
    /// conversation, agent and model; the transcript goes on in the same file.
    #[arg(short = 'c', long = "continue", conflicts_with = "resume")]
    pub continue_latest: bool,

    /// Resume the session with this id (a unique prefix is enough; `weft sessions list`
    /// shows them).
    #[arg(short = 'r', long, value_name = "ID")]
    pub resume: Option<String>,

    /// Output: the answer as text; `json`, one object with the answer, the tool calls, the
    /// usage and the session id; `stream-json`, one JSON event per line as the turn goes
    /// (docs/OUTPUT.md).
    #[arg(long, value_enum, default_value = "text")]
    pub format: RunFormat,
}

/// How `weft agent` and `weft skills run` print a turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// The answer (streamed on a terminal); tool activity on stderr.
    #[default]
    Text,
    /// One JSON object when the turn ends.
    Json,
    /// One JSON event per line as the turn goes.
    StreamJson,
}

/// Arguments of `weft agent`.
#[derive(Debug, Args)]
pub struct AgentArgs {
    /// The message (without it, the message is read from piped stdin; on a terminal, an
    /// interactive session starts).
    #[arg(short = 'm', long = "message", value_name = "MSG")]
    pub message: Option<String>,

    /// Agent, model and output settings.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `weft skills run`.
#[derive(Debug, Args)]
pub struct SkillRunArgs {
    /// The skill.
    pub name: String,

    /// Arguments for the skill ($ARGUMENTS, $0, $1, ...); put them after `--` when one starts
    /// with a hyphen.
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// Agent, model and output settings.
    #[command(flatten)]
    pub run: RunArgs,
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
}

/// `weft skills ...`
#[derive(Debug, Subcommand)]
pub enum SkillsCommand {
    /// List the skills weft can see, highest precedence first per name (shadowed copies with
    /// --all). Diagnostics go to stderr.
    List(ListArgs),
    /// Show everything about one skill: fields, source, tools, readiness, shadowed copies.
    Show(ShowArgs),
    /// Rank skills against a text, as the trigger matcher would.
    Match(MatchArgs),
    /// Print the skill catalog exactly as the model would see it; what was shortened or
    /// dropped to fit the budget goes to stderr.
    Catalog(CatalogArgs),
    /// Validate and compose a skill set: the effective allowed and forbidden tools and the
    /// merged execution protocol. Exits 1 when the set is invalid.
    Compose(ComposeArgs),
    /// Would a session run this tool call under these skills? Prints `allowed`,
    /// `ask: <reason>` or `denied: <reason>`; exits 0, 3 or 1.
    #[command(long_about = CHECK_TOOL_ABOUT)]
    CheckTool(CheckToolArgs),
    /// Choose the skills for a task, as the context-aware selector does.
    Select(SelectArgs),
    /// Render a skill with its arguments and send it to an agent (or print the request with
    /// --dry-run).
    Run(SkillRunArgs),
    /// Check skills against the format rules and report every problem with file, line and
    /// column. Exits 1 when any skill has an error.
    Validate(ValidateArgs),
    /// Install skills from a directory, a git repository (URL or owner/repo) or a
    /// .tar.gz/.zip archive (file or URL): scanned first, pinned in skills.lock. Without a
    /// SOURCE, install exactly what skills.lock pins.
    Install(InstallArgs),
    /// Fetch installed skills' sources again (following their --ref), show what changes
    /// (tools, scripts and dynamic context first) and apply after confirmation or --yes.
    Update(UpdateArgs),
    /// Remove an installed skill and its lock entry.
    Remove(RemoveArgs),
    /// Check installed skills against the hashes in skills.lock: modified, missing and
    /// extra files. Exits 1 on any difference.
    Verify(VerifyArgs),
    /// Scan a tree, a skill or an archive for dangerous content (offline, nothing runs).
    /// Exits 1 when anything is high severity.
    Scan(ScanArgs),
}

/// Which rules `validate` applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// weft's rules: the Claude Code, OpenClaw and clawft extension keys are accepted.
    Default,
    /// The open Agent Skills spec's strict rules with the reference validator's wording
    /// (unknown top-level keys are errors).
    Spec,
    /// What the agent does when it loads skills: only what stops a skill from loading is an
    /// error.
    Load,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Text for people.
    Text,
    /// JSON for programs (the shape is given in the option's description).
    Json,
}

/// Arguments of `weft skills validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Also fail on the rules marked strict (reserved words in names, descriptions over 1024
    /// characters, missing name or description keys, ...).
    #[arg(long)]
    pub strict: bool,

    /// The rule set.
    #[arg(long, value_enum, default_value = "default")]
    pub profile: ProfileArg,

    /// Output format (text: rustc-style diagnostics and a summary line; JSON: an array with
    /// one object per skill: path, name, valid, diagnostics).
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,

    /// Skill directories, SKILL.md / skill.json files, or trees to search for skills.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// Which scope `skills list` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeFilter {
    /// Project skills.
    Project,
    /// User skills.
    User,
    /// The global workspace.
    Workspace,
    /// Extra directories (--skills-dir).
    Plugin,
    /// Compiled into weft.
    Builtin,
    /// Everything.
    All,
}

/// Table or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// Aligned columns.
    // `text` too (hidden), as the commands whose default is text (`sessions show`,
    // `skills validate`) spell it.
    #[value(alias = "text")]
    Table,
    /// JSON.
    Json,
}

/// Arguments of `weft skills list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only skills of this scope.
    #[arg(long, value_enum, default_value = "all")]
    pub scope: ScopeFilter,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
    /// Also list the copies that lost to a higher-precedence skill of the same name.
    #[arg(long)]
    pub all: bool,
}

/// Arguments of `weft skills show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The skill's name.
    pub name: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// Arguments of `weft skills match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The text to match (a user message, a task description).
    pub text: String,
    /// At most this many results.
    #[arg(long, default_value_t = 5)]
    pub limit: usize,
    /// Minimum confidence for an automatic match (0..1).
    #[arg(long, default_value_t = 0.5)]
    pub min_confidence: f32,
    /// The file being worked on: conditional skills (`paths:`) whose globs match it take part
    /// (without it, conditional skills are left out, as at the start of a session).
    #[arg(long, value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ListFormat,
}

/// The catalog's rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CatalogFormatArg {
    /// The weft system-prompt section.
    Weft,
    /// The `<available_skills>` XML block of the Agent Skills reference implementation.
    Xml,
    /// The weft section as `text` in a JSON object, with what fitting it to the budget did.
    Json,
}

/// Arguments of `weft skills catalog`.
#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// Budget in characters (default: 2% of the context window, 16,000 when unknown).
    #[arg(long, value_name = "CHARS")]
    pub budget: Option<usize>,
    /// The model's context window in tokens, to derive the budget from.
    #[arg(long, value_name = "TOKENS")]
    pub context_window: Option<u64>,
    /// Rendering.
    #[arg(long, value_enum, default_value = "weft")]
    pub format: CatalogFormatArg,
    /// Leave out the skills compiled into weft (as config `skills.builtins: false` does).
    /// With `--format xml`, the output is then byte for byte skills-ref's `to-prompt` for the
    /// same directories: every skill (`disable-model-invocation` and `paths:` ones too), not
    /// fitted to a budget unless `--budget` is given.
    #[arg(long)]
    pub no_builtins: bool,
}

/// How skills' allowed tools combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Union of the declared allow lists, minus every forbidden tool.
    Union,
    /// Intersection of the declared allow lists, minus every forbidden tool.
    Intersect,
}

/// Arguments of `weft skills compose`.
#[derive(Debug, Args)]
pub struct ComposeArgs {
    /// The skills to compose.
    #[arg(required = true, value_name = "NAME")]
    pub names: Vec<String>,
    /// The parent's tools: the result never exceeds them (comma-separated patterns).
    #[arg(long, value_name = "TOOL,...")]
    pub ceiling: Option<String>,
    /// How allow lists combine.
    #[arg(long, value_enum, default_value = "union")]
    pub mode: ModeArg,
    /// Output format (JSON: the composed skill in seed 003's shape, or the validation result
    /// when the set is invalid).
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// The long help of `weft skills check-tool`.
const CHECK_TOOL_ABOUT: &str = "Would a session run this tool call under these skills?

Decides as a session does before it runs a call: the configuration's `tools.deny`, the
default agent's tools, the skills, --ceiling and --deny restrict; `permissions.allow`
pre-approves; the permission mode (--permission-mode, else `permissions.mode`, else ask)
decides what asks. Shell commands are judged against the project directory.

Prints one of:
  allowed            the call runs without asking (exit status 0)
  ask: <reason>      someone must approve it first: nothing pre-approves it in this mode,
                     or part of a shell command cannot be analysed, or it uses an option that
                     runs other programs or writes outside the project (exit status 3)
  denied: <reason>   the call does not run (exit status 1)

With -v, also prints the mode and pre-approval, and lists the simple commands found in an
exec_shell (Bash) command with what each rule says about them. See docs/PERMISSIONS.md.";

/// Arguments of `weft skills check-tool`.
#[derive(Debug, Args)]
pub struct CheckToolArgs {
    /// The tool called (`exec_shell`, `Bash`, `github__create_issue`, ...).
    pub tool: String,
    /// The call's input as JSON, e.g. '{"command": "git status"}'.
    #[arg(long, value_name = "JSON")]
    pub input: Option<String>,
    /// The skills in force (comma-separated).
    #[arg(long, required = true, value_name = "NAME,...")]
    pub skills: String,
    /// The parent's tools (comma-separated patterns).
    #[arg(long, value_name = "TOOL,...")]
    pub ceiling: Option<String>,
    /// More patterns no call may match, on top of the configuration's `tools.deny`
    /// (comma-separated).
    #[arg(long, value_name = "PATTERN,...")]
    pub deny: Option<String>,
    /// How allow lists combine.
    #[arg(long, value_enum, default_value = "union")]
    pub mode: ModeArg,
    /// Output format (JSON: `{"decision": "allowed"|"ask"|"denied", "reason": ..., "mode":
    /// ..., "commands": [...]}`; the exit status is the same).
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// The task in words.
    #[arg(long)]
    pub description: String,
    /// How risky the task is.
    #[arg(long, default_value = "low", value_parser = ["low", "medium", "high"])]
    pub risk: String,
    /// The task changes code.
    #[arg(long)]
    pub coding: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Which `.clawft` directory installed skills live in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InstallScope {
    /// `<project>/.clawft` (the current directory when no project is found).
    Project,
    /// `~/.clawft`.
    User,
}

/// Arguments of `weft skills install`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// A directory, a git URL (https, ssh, file://), owner/repo (GitHub), or a .tar.gz/.zip
    /// file or https URL. Without it: install exactly what skills.lock pins (as --locked).
    pub source: Option<String>,
    /// Install exactly what the scope's skills.lock pins: each skill's recorded commit (or
    /// archive, checked by its SHA-256), refused when its files differ from the lock; the
    /// lockfile is not changed. What teammates run after pulling a committed skills.lock.
    #[arg(long, conflicts_with_all = ["source", "all", "reference", "path"])]
    pub locked: bool,
    /// Where to install.
    #[arg(long, value_enum, default_value = "project")]
    pub scope: InstallScope,
    /// Install this skill of the source, or of the lockfile without SOURCE (repeatable).
    #[arg(long = "skill", value_name = "NAME")]
    pub skills: Vec<String>,
    /// Install every skill of the source.
    #[arg(long, conflicts_with = "skills")]
    pub all: bool,
    /// The git revision: branch, tag or commit (`update` follows it).
    #[arg(long = "ref", value_name = "REV")]
    pub reference: Option<String>,
    /// Only look for skills under this directory of the source.
    #[arg(long, value_name = "SUBDIR")]
    pub path: Option<String>,
    /// Replace installed skills of the same name, and install despite high-severity
    /// findings.
    #[arg(long)]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills update`.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The skills to update (default: every installed skill of the scope).
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Where the skills are installed.
    #[arg(long, value_enum, default_value = "project")]
    pub scope: InstallScope,
    /// Apply without asking.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Apply despite high-severity findings.
    #[arg(long)]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills remove`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The skill.
    pub name: String,
    /// Where it is installed.
    #[arg(long, value_enum, default_value = "project")]
    pub scope: InstallScope,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Only this scope (default: the project's and the user's lockfiles).
    #[arg(long, value_enum)]
    pub scope: Option<InstallScope>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}

/// Arguments of `weft skills scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// A directory (every skill in it is scanned), a SKILL.md, or a .tar.gz/.zip archive.
    pub path: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
}
