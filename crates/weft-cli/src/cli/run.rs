//! How an agent run is set up: the options `weft agent` and `weft skills run` share, and
//! `weft agent`'s own. Separate because both commands flatten them.

use clap::Args;

use super::RunFormat;

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
