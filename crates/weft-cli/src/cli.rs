//! The command line: every command, flag and argument.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// weft: skills and subagents for LLM agents.
#[derive(Debug, Parser)]
#[command(name = "weft", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
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
}

/// `weft skills ...`
#[derive(Debug, Subcommand)]
pub enum SkillsCommand {
    /// Check skills against the format rules and report every problem with file, line and
    /// column. Exits 1 when any skill has an error.
    Validate(ValidateArgs),
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
    /// rustc-style diagnostics and a summary line.
    Text,
    /// A JSON array with one object per skill: path, name, valid, diagnostics.
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

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,

    /// Skill directories, SKILL.md / skill.json files, or trees to search for skills.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}
