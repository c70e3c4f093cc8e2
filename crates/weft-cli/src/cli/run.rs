//! How an agent run is set up: the options `weft agent` and `weft skills run` share, and
//! `weft agent`'s own. Separate because both commands flatten them.

use clap::Args;

use super::RunFormat;

/// How an agent run is set up (shared by `weft agent`, `weft skills run` and `weft` without a
/// command).
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
    /// shows them); without an id, pick one of this project's recent sessions on the
    /// terminal.
    #[arg(short = 'r', long, value_name = "ID", num_args = 0..=1)]
    pub resume: Option<Option<String>>,

    /// Output: the answer as text; `json`, one object with the answer, the tool calls, the
    /// usage and the session id; `stream-json`, one JSON event per line as the turn goes
    /// (docs/OUTPUT.md).
    #[arg(long, value_enum, default_value = "text")]
    pub format: RunFormat,

    /// Exit 0 even when tool calls were refused because no one could approve them. Without
    /// it such a run exits 4 (and JSON says "is_error": true): the task was not done as
    /// asked. The refusals are reported either way.
    #[arg(long)]
    pub ignore_refusals: bool,
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

impl RunArgs {
    /// True when nothing was set (every option at its default).
    pub fn is_default(&self) -> bool {
        self.agent.is_none()
            && self.model.is_none()
            && !self.dry_run
            && !self.no_stream
            && !self.no_transcript
            && !self.continue_latest
            && self.resume.is_none()
            && self.format == RunFormat::Text
            && !self.ignore_refusals
    }

    /// True when the run goes on with an earlier session (`--continue`, `--resume`).
    pub fn resumes(&self) -> bool {
        self.continue_latest || self.resume.is_some()
    }
}
