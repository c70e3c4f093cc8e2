//! The options of `weft` without a command: Claude Code's habits (`weft "question"`,
//! `weft -p "..."`, `weft -c`, `weft -r [ID]`) and `weft -m MSG`. Separate because they sit
//! beside the subcommands: a first word that names a command is that command; anything else
//! is the first message (`weft -- "skills are?"` sends a message that starts with a command's
//! name).

use clap::Args;

use super::RunArgs;

/// What `weft` does without a command.
#[derive(Debug, Args, Clone, Default)]
pub struct FrontArgs {
    /// Print the answer to PROMPT (or to piped stdin) and exit, as `weft agent -m` does;
    /// piped stdin is added below PROMPT (`git diff | weft -p "review this"`).
    #[arg(short = 'p', long = "print", help_heading = SESSION)]
    pub print: bool,

    /// Send this one message and print the answer (the same as `weft agent -m MSG`).
    #[arg(
        short = 'm',
        long = "message",
        value_name = "MSG",
        conflicts_with = "prompt",
        help_heading = SESSION
    )]
    pub message: Option<String>,

    /// Agent, model, resume and output settings, as for `weft agent`.
    #[command(flatten)]
    pub run: RunArgs,

    /// The first message: on a terminal the interactive session starts with it; with -p, or
    /// when stdout is not a terminal, its answer is printed and weft exits.
    #[arg(value_name = "PROMPT", help_heading = SESSION)]
    pub prompt: Vec<String>,
}

/// The heading these options are listed under in `weft --help`.
const SESSION: &str = "Session (without a command)";

impl FrontArgs {
    /// True when none of these options was given (bare `weft`).
    pub fn is_empty(&self) -> bool {
        !self.print && self.message.is_none() && self.prompt.is_empty() && self.run.is_default()
    }

    /// The free text, its words joined by spaces (`weft explain this` is one message).
    pub fn prompt_text(&self) -> Option<String> {
        (!self.prompt.is_empty()).then(|| self.prompt.join(" "))
    }
}
