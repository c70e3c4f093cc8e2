//! The interactive front end of weft (DESIGN section 9).
//!
//! * [`SlashCommand`] and [`CommandRegistry`]: every slash command by name (duplicates
//!   refused), dispatch of a line to [`Dispatch::NotACommand`], [`Dispatch::Handled`],
//!   [`Dispatch::SkillInvocation`] or [`Dispatch::Fork`], completion and hints;
//! * the built-in commands: `/help [topic]`, `/skills [name]`, `/skill <name> [args]`,
//!   `/<skill> [args]`, `/agents`, `/agent <name>`, `/tools`, `/memory [search q]`,
//!   `/config [key]`, `/model <name>`, `/permissions`, `/hooks`, `/session`, `/context`,
//!   `/cost`, `/compact [instructions]`, `/workspace`, `/reload`, `/plugin [list | enable |
//!   disable NAME]`, `/clear`, `/exit`, `/quit`;
//! * [`PromptApprover`]: the approval prompt (allow once, allow always, deny) for calls the
//!   permission mode does not let run without asking;
//! * [`help`]: the help topics shared with `weft help <topic>`; [`hooks_listing`], the hooks
//!   table shared with `weft hooks list`; [`plugins_listing`], the plugins table shared with
//!   `weft plugin list`;
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
//!
//! # Code map
//!
//! The interactive session. `command.rs`: the `SlashCommand` trait (name, description, usage, help,
//! async execute, completions), `CommandContext` (the registry, the `Session`, a `ReplEnv` of
//! agents, models, merged configuration and locations, the output writer, and the width listings
//! are fitted to: the terminal's as each command runs, `Repl::with_width`, none when the output is
//! not a terminal) and `Dispatch` (`NotACommand`, `Handled`, `SkillInvocation`, `Fork`, `Exit`).
//! `registry.rs`: `CommandRegistry` (duplicate names refused; completion of command, skill, agent,
//! topic and config-key names; hints from `usage` and `argument-hint`). `dispatch.rs`: a line to a
//! `Dispatch` (a first word with a second `/` is a message; built-ins first, then user-invocable
//! skills, else the unknown-command message; arguments split by `weft_template::split_args`).
//! `plugins.rs`: the plugins table `/plugin` and `weft plugin list` share. `preview.rs`: tool activity in a few lines (a call, a two-line preview of its result, a resumed
//! session's last turns), which the printer, `/expand` and the recap share. `commands/`: the
//! built-ins of DESIGN 9, one file per group (their listings through weft-term's
//! `fit_table`/`fit_columns`, a skill's details through weft-registry's `skill_details`, like the
//! CLI's; `unknown_key`, the did-you-mean of `/config` and `weft config show`). `help.rs`: the
//! topics, built from the registry and a `HelpData` the caller fills, shared by `/help` and `weft
//! help`. `repl.rs`: the loop (`LineReader` in, a `StyledWrite` out; a turn races
//! `Session::send`/`run_skill` against Ctrl-C and is dropped when cancelled). `frontend.rs`: the
//! rustyline `LineEditor` (history file, `\`/Alt-Enter continuation). `approval.rs`:
//! `PromptApprover`, the approval prompt: the question (what the model and files said cut to a line
//! and neutralised) on the `StyledWrite` the caller gives (the CLI's neutralising stdout in the
//! REPL, stderr in a one-shot run), the status line paused until the answer, which is read from the
//! terminal only while the question is pending (standard input registered with the runtime's
//! poller; Ctrl-C drops the wait), so no reader is left to swallow the next line. `printer.rs`:
//! `TurnPrinter`, the one way a turn is shown, in the REPL and by `weft agent -m`/`weft skills run`
//! in text: the answer streamed (Markdown rendered on a terminal with colour; otherwise written as
//! content, which the CLI's writer neutralises), tool lines beside the answer or on a writer of
//! their own, the status line while the model or a tool works, a line per retry and per notice. It
//! writes to a `weft_term::StyledWrite`: content through `Write`, its own styling (built on
//! neutralised text) through `write_styled`. Tables, paths and labels come from `weft-term`.
//! Depends on `weft-types`, `weft-fs`, `weft-template`, `weft-registry`, `weft-permissions`,
//! `weft-plugin` and `weft-marketplace` (reading and switching plugins for `/plugin`),
//! `weft-llm`, `weft-tools` (the memory file's size cap), `weft-agents`, `weft-hooks`, `weft-term`,
//! rustyline, rustix (`dup` and `poll` of standard input), tokio, async-trait, serde_json,
//! thiserror, tracing. Prints only to the writer it is given; never reads the environment (the CLI
//! passes the configuration, paths and history file in).

mod approval;
mod command;
mod commands;
mod dispatch;
mod frontend;
pub mod help;
mod hooks;
mod plugins;
mod preview;
mod printer;
mod registry;
mod repl;

pub use approval::{AnswerSource, PromptApprover, TerminalInput, parse_answer, question};
pub use command::{
    CommandContext, CommandError, CompletionContext, Dispatch, PluginEnv, ReplEnv, SkillName,
    SlashCommand, WorkspaceInfo, starting_with,
};
pub use commands::{config_keys, context_report, cost_report, lookup, redact, unknown_key};
pub use dispatch::{ParsedLine, parse_line, unknown_command};
pub use frontend::{LineEditor, join_continuations};
pub use hooks::{HOOKS_HEADER, hook_source_label, hooks_listing, matcher_label};
pub use plugins::{PLUGINS_HEADER, plugin_status, plugins_listing};
pub use preview::{call_line, recap, result_preview, tool_result_preview};
pub use printer::{Activity, TurnPrinter};
pub use registry::{CommandRegistry, DuplicateCommand};
pub use repl::{Interrupt, LineReader, ReadResult, Repl};
