//! `weft`: the command-line agent built on the weft crates.
//!
//! The binary is the composition root: it parses arguments, reads the environment and the
//! configuration, and passes explicit values to the libraries. Errors go to stderr, data to
//! stdout; exit codes are 0 (success), 1 (failure, e.g. invalid skills), 2 (usage or
//! configuration), 3 (`skills check-tool`: ask), 4 (a one-shot run whose tool calls were
//! refused for want of approval) and 130 / 143 / 129 (interrupted by SIGINT, SIGTERM,
//! SIGHUP); `weft help exit-codes` lists them.
//!
//! # Code map
//!
//! The `weft` binary: it parses arguments, calls the libraries and formats their results. clap
//! definitions (`cli/`: `mod.rs` is the command built once with the global options hidden from
//! every subcommand's help and listed once by `weft --help`; no command means the REPL on a
//! terminal, the help and status 2 through a pipe; `front.rs` is what `weft` takes without a
//! command (Claude Code's `-p`, `-c`, `-r [ID]`, `-m`, a first message); each command family's
//! arguments in a module of its own: `skills.rs`, `install.rs`, `run.rs`, `agents.rs`,
//! `sessions.rs`, `setup.rs` (config, doctor, sandbox, mcp), the shared `--format` values in
//! `format.rs`, and `mode.rs`, `--permission-mode` parsed by `PermissionMode`'s own `FromStr`);
//! `commands/front.rs` runs `weft` without a command (a one-word near miss of a
//! command is a usage error, piped input joins `-p`'s prompt, capped), `commands/picker.rs` is
//! `-r`'s session picker, `commands/scaffold.rs` is `weft skills new`; `environment.rs`, the one
//! module that reads the process (environment variables, current directory, the executable and its
//! build fingerprint, and each stream's terminal decision: `is_terminal` and the width from
//! `TIOCGWINSZ` (asked through `output.rs`) or `COLUMNS`, and the colour variables, handed to
//! `weft_term::Terminal`) and turns the flags into a `weft_runtime::Workspace`; `signals.rs` (a
//! watcher thread that kills every `exec_shell` group on SIGINT, SIGTERM, SIGHUP and exits
//! 130/143/129; the guard kills what is left at exit); one module per command (`commands/`:
//! `config.rs` is `weft config show` and the origin rows `/config --origin` shows; `doctor/` runs
//! one check per area (the permission mode with its origin, the sandbox as the mode makes it,
//! agents' models resolved as a session resolves them, a fallen-back alias a note; without a
//! readable configuration, the checks that need none), its lines fitted to the width; `run.rs`
//! starts MCP servers under a status line before a session; `main` serves the hidden `weft sandbox
//! exec` helper every `exec_shell` command starts through (`weft_sandbox::run_helper`, before
//! clap, its reports on the neutralised stderr)); `permissions.rs` (the `bypass` banner and the one-line summary of calls
//! refused for want of approval, both on stderr through `output.rs`, in every format, and
//! `REFUSED_EXIT`, the status 4 of a one-shot run with such refusals); `commands/turn_output.rs`
//! prints a run as text (weft-repl's `TurnPrinter`: Markdown, status line, retry and notice lines,
//! on a terminal), one JSON `result` or stream-json events (never rendered, no status line; notices
//! and retries on stderr); `commands/skill_json.rs` is the one JSON shape of a skill (list and
//! show); `json_alias.rs` maps the hidden global `--json` to each command's `--format json`;
//! rustc-style diagnostics and a stdout writer that ends quietly on a closed pipe. `output.rs` is
//! the only module that writes to the terminal: stdout, stderr and the REPL's writer go through
//! `weft_term::Neutralising`, JSON through `escape_json_controls`; clippy's `disallowed-methods`
//! keeps `std::io::stdout`/`stderr` and the print lints keep `println!` out of every other module.
//! Styled text has one documented way out: `output::Styled` (`styled_stdout`, `styled_stderr`), a
//! `weft_term::StyledWrite` whose plain writes are neutralised content and whose `write_styled`
//! takes text weft styled around neutralised content (`paint`, `MarkdownStream`, `StatusLine`),
//! written as it is only when the stream is a terminal (through `neutralise_styled`) and without
//! any escape sequence through a pipe (`unstyle`). Logs: neutralised, and only the level is
//! coloured (`log_writer`: the subscriber's own ANSI stays off, since it would colour quoted text
//! and its escapes could not be told from quoted ones), when stderr has colour (`NO_COLOR`,
//! `CLICOLOR_FORCE`, `TERM=dumb` apply as for everything else). Errors go to stderr as one line
//! (the error and its causes, a cause the message already names not repeated; `error:` in colour on
//! a colour terminal), data to stdout; the exit codes are the table at the top of this page
//! (docs/OUTPUT.md). Depends on every library crate:
//! weft-types, weft-fs, weft-parse, weft-template, weft-registry, weft-permissions, weft-agents,
//! weft-hooks, weft-runtime, weft-llm, weft-tools, weft-repl, weft-sandbox, weft-scan,
//! weft-install, weft-plugin, weft-marketplace, weft-term; and anyhow, clap, clap_complete, serde,
//! serde_json, tokio, tracing, tracing-subscriber, async-trait, rustix (`termios`: the terminal's
//! width).

// The doc comments of `cli` are clap's help text, where `<project>` is a placeholder, not HTML.
#![allow(rustdoc::invalid_html_tags)]

mod cli;
mod commands;
mod environment;
mod json_alias;
mod output;
mod permissions;
mod signals;

use std::process::ExitCode;

// Unwinding runs the `Drop` that kills exec_shell's process groups when weft panics, and keeps
// a panicking tokio task (an MCP transport) from ending the process; see the release profile.
#[cfg(panic = "abort")]
compile_error!("weft needs panic = \"unwind\": exec_shell cleanup and task isolation rely on it");

use weft_runtime::{ConfigError, RuntimeError, UsageError};

use crate::cli::{
    AgentsCommand, Command, ConfigCommand, HooksCommand, McpCommand, SandboxCommand,
    SessionsCommand, SkillsCommand,
};

fn main() -> ExitCode {
    // No descriptor weft inherited reaches what it starts (commands, MCP servers, the helper).
    weft_sandbox::close_inherited_descriptors();
    // The sandbox helper runs between weft and a command (`weft sandbox exec ...`, written by
    // weft-runtime's launchers): no clap, no logging, no workspace lookup.
    let args = environment::arguments();
    if weft_sandbox::is_helper_call(&args) {
        return weft_sandbox::run_helper(&args, &mut output::stderr());
    }
    let mut cli = cli::parse();
    let stderr = environment::stderr_terminal();
    output::force_colour(environment::colour_forced());
    init_tracing(cli.verbose, stderr.color);
    if cli.json
        && let Some(command) = &mut cli.command
        && let Err(e) = json_alias::apply(command)
    {
        return finish(Err(e.into()), stderr);
    }
    let workspace = environment::workspace(&cli.locations);
    let mode = cli.permission_mode;
    let Some(command) = cli.command else {
        let result = commands::front::run(&workspace, &cli.front, cli.json, mode, cli.verbose > 0);
        return finish(result, stderr);
    };
    if !cli.front.is_empty() {
        return finish(Err(front_with_command().into()), stderr);
    }
    let result = match command {
        Command::Skills { command } => match command {
            SkillsCommand::Validate(args) => commands::validate::run(&workspace, &args),
            SkillsCommand::List(args) => commands::skills::list(&workspace, &args, cli.verbose > 0),
            SkillsCommand::Show(args) => commands::skills::show(&workspace, &args),
            SkillsCommand::Match(args) => commands::skills::match_text(&workspace, &args),
            SkillsCommand::Catalog(args) => commands::skills::catalog(&workspace, &args),
            SkillsCommand::Compose(args) => commands::compose::compose(&workspace, &args),
            SkillsCommand::CheckTool(args) => {
                commands::compose::check_tool(&workspace, &args, mode, cli.verbose > 0)
            }
            SkillsCommand::Select(args) => commands::compose::select(&workspace, &args),
            SkillsCommand::Run(args) => {
                commands::run::skill_run(&workspace, &args, mode, cli.verbose > 0)
            }
            SkillsCommand::Install(args) => commands::install::install(&workspace, &args),
            SkillsCommand::Update(args) => commands::install::update(&workspace, &args),
            SkillsCommand::Remove(args) => commands::install::remove(&workspace, &args),
            SkillsCommand::Verify(args) => commands::verify::verify(&workspace, &args),
            SkillsCommand::Scan(args) => commands::scan::scan(&workspace, &args),
            SkillsCommand::New(args) => commands::scaffold::new(&workspace, &args),
        },
        Command::Agents { command } => match command {
            AgentsCommand::List(args) => commands::agents::list(&workspace, &args, cli.verbose > 0),
            AgentsCommand::Show(args) => commands::agents::show(&workspace, &args),
        },
        Command::Plugin { command } => commands::plugin::run(&workspace, &command),
        Command::Agent(args) => commands::run::agent(&workspace, &args, mode, cli.verbose > 0),
        Command::Help { topic } => commands::help::help(&workspace, &topic),
        Command::Completions { shell } => commands::help::completions(shell),
        Command::Sessions { command } => match command {
            SessionsCommand::List(args) => commands::sessions::list(&workspace, &args),
            SessionsCommand::Show(args) => commands::sessions::show(&workspace, &args),
        },
        Command::Mcp { command } => match command {
            McpCommand::List(args) => commands::mcp::list(&workspace, &args),
            McpCommand::Approve(args) => commands::mcp::approve(&workspace, &args, true),
            McpCommand::Revoke(args) => commands::mcp::approve(&workspace, &args, false),
        },
        Command::Hooks { command } => match command {
            HooksCommand::List(args) => commands::hooks::list(&workspace, &args),
        },
        Command::Config { command } => match command {
            ConfigCommand::Show(args) => commands::config::show(&workspace, &args, mode),
        },
        Command::Doctor(args) => commands::doctor::run(&workspace, &args, mode),
        Command::Sandbox { command } => match command {
            SandboxCommand::Status(args) => commands::sandbox::status(&workspace, &args, mode),
        },
    };
    finish(result, stderr)
}

/// Session options given before a command (`weft --model x skills list`) would be ignored:
/// a usage error says where they go.
fn front_with_command() -> UsageError {
    UsageError::new(
        "options such as -p, -c, -r, -m, --model and --agent before a command belong to the session; put them after the command (`weft agent --model x`)",
    )
}

/// The exit status of a command's result; an error is printed on stderr first.
fn finish(result: anyhow::Result<ExitCode>, stderr: weft_term::Terminal) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            print_error(&err, stderr);
            if is_usage(&err) {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// `error: <message>` on stderr, `error:` in colour when stderr has colour.
fn print_error(err: &anyhow::Error, stderr: weft_term::Terminal) {
    use std::io::Write as _;
    use weft_term::StyledWrite as _;
    let mut out = output::styled_stderr();
    let _ = out.write_styled(&stderr.paint("error:", weft_term::Style::Error));
    let _ = writeln!(out, " {}", message(err));
    let _ = out.flush();
}

/// The error and its causes on one line, as `{:#}` prints them, without repeating a cause
/// the message already names (library errors name their cause in their message and also
/// return it as their `source`, sometimes followed by a hint; a cause that restates the same
/// subject, `path: reason`, counts as named when the message ends with its reason).
fn message(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        let reason = cause.split_once(": ").map_or(cause.as_str(), |(_, r)| r);
        if !text.contains(&cause) && !text.ends_with(reason) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

/// A mistake in the invocation or configuration (exit code 2), whether the command or the
/// runtime reported it.
fn is_usage(err: &anyhow::Error) -> bool {
    err.downcast_ref::<UsageError>().is_some()
        || err.downcast_ref::<ConfigError>().is_some()
        || err
            .downcast_ref::<RuntimeError>()
            .is_some_and(RuntimeError::is_usage)
}

/// Logs go to stderr; `RUST_LOG` wins over `-v`. Log lines quote file names, skill fields and
/// server output: neutralised like every other write. Only the level is coloured, and only
/// when stderr has colour (a terminal; `NO_COLOR`, `CLICOLOR_FORCE`, `TERM=dumb` respected):
/// the formatter's own colours would colour quoted text too, and its escapes could not be told
/// from a quoted one.
fn init_tracing(verbose: u8, color: bool) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(move || output::log_writer(color))
        .with_ansi(false)
        .without_time()
        .try_init();
}
