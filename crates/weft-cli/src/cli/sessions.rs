//! The arguments of `weft sessions`: listing and showing session transcripts. Separate
//! because it is its own command family.

use clap::{Args, Subcommand};

use super::{ListFormat, ReportFormat};

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
