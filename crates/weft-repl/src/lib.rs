//! The interactive front end of weft (DESIGN section 9).
//!
//! * [`SlashCommand`] and [`CommandRegistry`]: every slash command by name (duplicates
//!   refused), dispatch of a line to [`Dispatch::NotACommand`], [`Dispatch::Handled`],
//!   [`Dispatch::SkillInvocation`] or [`Dispatch::Fork`], completion and hints;
//! * the built-in commands: `/help [topic]`, `/skills [name]`, `/skill <name> [args]`,
//!   `/<skill> [args]`, `/agents`, `/agent <name>`, `/tools`, `/memory [search q]`,
//!   `/config [key]`, `/model <name>`, `/permissions`, `/hooks`, `/session`, `/context`,
//!   `/cost`, `/compact [instructions]`, `/workspace`, `/reload`, `/clear`, `/exit`, `/quit`;
//! * [`PromptApprover`]: the approval prompt (allow once, allow always, deny) for calls the
//!   permission mode does not let run without asking;
//! * [`help`]: the help topics shared with `weft help <topic>`; [`hooks_listing`], the hooks
//!   table shared with `weft hooks list`;
//! * [`Repl`]: the loop, with Ctrl-C cancelling the running turn;
//! * [`call_line`], [`result_preview`], [`recap`]: tool activity in a few lines (each call
//!   and a preview of its result, `/expand` for the whole), and a resumed session's last
//!   turns;
//! * [`LineEditor`]: the rustyline front end (completion, hints, history file, multi-line
//!   input).
//!
//! Output goes through a writer the caller passes, so everything but the line editor runs
//! without a terminal. Like every weft library, this crate never reads the environment: the
//! CLI passes paths and configuration in ([`ReplEnv`], [`WorkspaceInfo`]).

mod approval;
mod command;
mod commands;
mod dispatch;
mod frontend;
pub mod help;
mod hooks;
mod preview;
mod printer;
mod registry;
mod repl;

pub use approval::{AnswerSource, PromptApprover, TerminalInput, parse_answer, question};
pub use command::{
    CommandContext, CommandError, CompletionContext, Dispatch, ReplEnv, SkillName, SlashCommand,
    WorkspaceInfo, starting_with,
};
pub use commands::{config_keys, context_report, cost_report, lookup, redact, unknown_key};
pub use dispatch::{ParsedLine, parse_line, unknown_command};
pub use frontend::{LineEditor, join_continuations};
pub use hooks::{HOOKS_HEADER, hook_source_label, hooks_listing, matcher_label};
pub use preview::{call_line, recap, result_preview, tool_result_preview};
pub use printer::{Activity, TurnPrinter};
pub use registry::{CommandRegistry, DuplicateCommand};
pub use repl::{Interrupt, LineReader, ReadResult, Repl};
