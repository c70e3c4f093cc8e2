//! The arguments of `weft agents`: listing and showing agent definitions. Separate because
//! it is its own command family.

use clap::{Args, Subcommand};

use super::ListFormat;

/// `weft agents ...`
#[derive(Debug, Subcommand)]
pub enum AgentsCommand {
    /// List every agent, highest precedence per name: name, description, model, scope.
    List(AgentsListArgs),
    /// Show one agent: model, temperature, iteration cap, scope and file, tools, skills.
    Show(AgentsShowArgs),
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
