//! `weft` without a command, as a Claude Code user types it: `weft "question"` starts the
//! interactive session with that first message (through a pipe, its answer is printed),
//! `weft -p "question"` prints the answer and exits (piped stdin is added below the
//! question), `weft -m MSG` is `weft agent -m MSG`, `weft -c` continues this project's latest
//! session and `weft -r [ID]` resumes one (a picker on a terminal without an ID). Bare `weft`
//! is the session on a terminal and the help otherwise.

use std::io::Read;
use std::process::ExitCode;

use anyhow::{Context, Result};
use weft_runtime::{UsageError, Workspace};
use weft_types::PermissionMode;
use weft_types::suggest::edit_distance;

use crate::cli::{AgentArgs, FrontArgs, RunFormat};

/// The most piped input a message takes (a diff, a log): more is refused, not cut.
pub(crate) const STDIN_CAP: u64 = 8 * 1024 * 1024;

/// `weft [options] [PROMPT...]`.
pub fn run(
    workspace: &Workspace,
    front: &FrontArgs,
    json: bool,
    mode: Option<PermissionMode>,
    verbose: bool,
) -> Result<ExitCode> {
    if front.is_empty() && !json {
        return crate::commands::help::bare(workspace, mode);
    }
    let mut run = front.run.clone();
    if json {
        run.format = RunFormat::Json;
    }
    refuse_mistyped_command(&front.prompt)?;
    let prompt = front.prompt_text();
    let one_shot = |message: Option<String>| {
        crate::commands::run::agent(
            workspace,
            &AgentArgs {
                message,
                run: run.clone(),
            },
            mode,
            verbose,
        )
    };
    if front.message.is_some() {
        return one_shot(front.message.clone());
    }
    if front.print {
        let message = with_piped_input(prompt)?.ok_or_else(|| {
            UsageError::new("-p needs a prompt (`weft -p \"question\"`) or piped input")
        })?;
        return one_shot(Some(message));
    }
    let terminal = crate::output::stdin_is_terminal() && crate::output::stdout_is_terminal();
    if terminal && run.format == RunFormat::Text && !run.dry_run {
        return crate::commands::repl::run(workspace, &run, mode, prompt);
    }
    // Not a terminal (or output for a program): the answer is printed, as `weft agent` does;
    // without a prompt the message is read from stdin.
    one_shot(prompt)
}

/// A prompt whose first word is one slip from a command's name is more likely a typo than a
/// message when it is alone (`weft skils`) or followed by what that command takes (`weft
/// skils list`, `weft agnet -m hi`): a usage error that says how to send it anyway.
fn refuse_mistyped_command(prompt: &[String]) -> Result<()> {
    let Some(first) = prompt.first().filter(|w| !w.starts_with('/')) else {
        return Ok(());
    };
    let cli = crate::cli::command();
    let close = cli
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .find(|c| edit_distance(&first.to_lowercase(), c.get_name()) <= 1);
    let Some(command) = close else {
        return Ok(());
    };
    let takes_next = prompt
        .get(1)
        .is_none_or(|next| next.starts_with('-') || command.find_subcommand(next).is_some());
    if !takes_next
        || prompt
            .iter()
            .skip(1)
            .any(|w| w.contains(char::is_whitespace))
    {
        return Ok(());
    }
    let text = prompt.join(" ");
    Err(UsageError::new(format!(
        "`{first}` is not a command; did you mean `weft {}`? To send `{text}` to the model as a message: weft -- \"{text}\"",
        command.get_name()
    ))
    .into())
}

/// `prompt` with piped stdin below it (`git diff | weft -p "review this"`), or the piped
/// input alone; `None` when there is neither. At most [`STDIN_CAP`] bytes are taken.
fn with_piped_input(prompt: Option<String>) -> Result<Option<String>> {
    if crate::output::stdin_is_terminal() {
        return Ok(prompt);
    }
    let piped = read_stdin()?;
    Ok(match (prompt, piped.trim().is_empty()) {
        (Some(prompt), true) => Some(prompt),
        (Some(prompt), false) => Some(format!("{prompt}\n\n{piped}")),
        (None, false) => Some(piped),
        (None, true) => None,
    })
}

/// Standard input as text, refused past [`STDIN_CAP`] bytes.
pub(crate) fn read_stdin() -> Result<String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(STDIN_CAP + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the message from stdin")?;
    if bytes.len() as u64 > STDIN_CAP {
        return Err(UsageError::new(format!(
            "the piped input is larger than {}; pass a smaller part of it",
            weft_fs::human_size(STDIN_CAP)
        ))
        .into());
    }
    String::from_utf8(bytes)
        .map_err(|_| UsageError::new("the piped input is not UTF-8 text").into())
}
