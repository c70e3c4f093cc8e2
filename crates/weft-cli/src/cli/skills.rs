//! The arguments of `weft skills` and its subcommands that read, judge or run skills
//! (installing is in `install.rs`). Separate because it is the largest command family.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::{
    InstallArgs, InstallScope, ListFormat, RemoveArgs, ReportFormat, RunArgs, ScanArgs, UpdateArgs,
    VerifyArgs,
};

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
    /// Write a new skill (or, with --agent, an agent) to start from: a SKILL.md that
    /// validates clean, in ~/.claude/skills/NAME (with --scope project,
    /// <project>/.claude/skills/NAME), where Claude Code finds it too.
    New(NewArgs),
}

/// Arguments of `weft skills new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The name: 1-64 characters of a-z, 0-9 and `-` (the directory gets the same name).
    pub name: String,

    /// What it does and when to use it (the model reads this to decide); a placeholder to
    /// edit when left out.
    #[arg(long, short = 'd', value_name = "TEXT")]
    pub description: Option<String>,

    /// Whose it is: `user` (~/.claude/skills, yours in every project) or `project`
    /// (<project>/.claude/skills, shared through the repository).
    #[arg(long, value_enum, default_value = "user")]
    pub scope: InstallScope,

    /// Write an agent instead: ~/.claude/agents/NAME.md (with --scope project,
    /// <project>/.claude/agents/NAME.md).
    #[arg(long)]
    pub agent: bool,

    /// Output format (`json`: the path written).
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
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
    /// The skills in force (comma-separated); without it, a session of the default agent with
    /// no skill loaded.
    #[arg(long, value_name = "NAME,...")]
    pub skills: Option<String>,
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
