//! `weft`: the command-line agent built on the weft crates.
//!
//! The binary is the composition root: it parses arguments, reads the environment and the
//! configuration, and passes explicit values to the libraries. Errors go to stderr, data to
//! stdout; exit codes are 0 (success), 1 (failure, e.g. invalid skills) and 2 (usage).

#![allow(clippy::print_stdout, clippy::print_stderr)]

mod cli;
mod commands;
mod environment;
mod output;
mod permissions;
mod signals;

use std::process::ExitCode;

use clap::Parser;

use weft_runtime::{RuntimeError, UsageError};

use crate::cli::{
    AgentsCommand, Cli, Command, McpCommand, SandboxCommand, SessionsCommand, SkillsCommand,
};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The sandbox helper runs between weft and a command: no logging, no workspace lookup.
    if let Command::Sandbox {
        command: SandboxCommand::Exec(args),
    } = &cli.command
    {
        return commands::sandbox::exec(args);
    }
    init_tracing(cli.verbose);
    let workspace = environment::workspace(&cli.locations);
    let mode = cli.permission_mode.map(weft_types::PermissionMode::from);
    let result = match cli.command {
        Command::Skills { command } => match command {
            SkillsCommand::Validate(args) => commands::validate::run(&args),
            SkillsCommand::List(args) => commands::skills::list(&workspace, &args, cli.verbose > 0),
            SkillsCommand::Show(args) => commands::skills::show(&workspace, &args),
            SkillsCommand::Match(args) => commands::skills::match_text(&workspace, &args),
            SkillsCommand::Catalog(args) => commands::skills::catalog(&workspace, &args),
            SkillsCommand::Compose(args) => commands::compose::compose(&workspace, &args),
            SkillsCommand::CheckTool(args) => {
                commands::compose::check_tool(&workspace, &args, cli.verbose > 0)
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
        },
        Command::Agents { command } => match command {
            AgentsCommand::List(args) => commands::agents::list(&workspace, &args, cli.verbose > 0),
            AgentsCommand::Show(args) => commands::agents::show(&workspace, &args),
        },
        Command::Agent(args) => commands::run::agent(&workspace, &args, mode, cli.verbose > 0),
        Command::Help { topic } => commands::help::help(&workspace, topic.as_deref()),
        Command::Completions { shell } => commands::help::completions(shell),
        Command::Sessions { command } => match command {
            SessionsCommand::List(args) => commands::sessions::list(&workspace, &args),
            SessionsCommand::Show(args) => commands::sessions::show(&workspace, &args),
        },
        Command::Mcp { command } => match command {
            McpCommand::List(args) => commands::mcp::list(&workspace, &args),
        },
        Command::Sandbox { command } => match command {
            SandboxCommand::Status(args) => commands::sandbox::status(&workspace, &args, mode),
            SandboxCommand::Exec(args) => Ok(commands::sandbox::exec(&args)),
        },
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", message(&err));
            if is_usage(&err) {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// The error and its causes on one line, as `{:#}` prints them, without repeating a cause
/// the message already ends with (library errors name their cause in their message and
/// also return it as their `source`; a cause that restates the same subject, `path: reason`,
/// counts as named when the message ends with its reason).
fn message(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        let reason = cause.split_once(": ").map_or(cause.as_str(), |(_, r)| r);
        if !text.ends_with(&cause) && !text.ends_with(reason) {
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
        || err
            .downcast_ref::<RuntimeError>()
            .is_some_and(RuntimeError::is_usage)
}

/// Logs go to stderr; `RUST_LOG` wins over `-v`.
fn init_tracing(verbose: u8) {
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
        .with_writer(std::io::stderr)
        .without_time()
        .try_init();
}
