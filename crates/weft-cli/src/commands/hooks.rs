//! `weft hooks list`: every hook (Claude Code's settings files, skills, agents), with its
//! source, event, matcher and command and whether it is trusted to run. The table is the one
//! `/hooks` shows in a session (weft-repl's `hooks_listing`).

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use weft_hooks::HookEntry;
use weft_runtime::{Runtime, Workspace};

use crate::cli::{HooksListArgs, ListFormat};
use crate::environment::stdout_terminal;
use crate::output::{out, outln};

/// One hook as `weft hooks list --format json` prints it.
#[derive(Debug, Serialize)]
struct HookJson<'a> {
    /// `user`, `project`, `local`, `skill`, `agent`, `plugin`.
    source: &'static str,
    /// `user settings`, `skill fmt`.
    source_name: String,
    /// The file it is written in.
    path: Option<&'a std::path::Path>,
    event: &'static str,
    /// `null` matches everything.
    matcher: Option<&'a str>,
    command: String,
    timeout_secs: Option<u64>,
    trusted: bool,
    /// Why it cannot run as written (a matcher that does not compile, a handler weft cannot
    /// run), and what that means.
    problem: Option<String>,
}

impl<'a> HookJson<'a> {
    fn of(entry: &'a HookEntry) -> Self {
        Self {
            source: entry.source.kind(),
            source_name: entry.source.to_string(),
            path: entry.source.path(),
            event: entry.event.as_str(),
            matcher: entry.matcher_text.as_deref(),
            command: entry.command_line(),
            timeout_secs: entry.handler.timeout_secs,
            trusted: entry.trusted,
            problem: entry.problem(),
        }
    }
}

/// `weft hooks list`.
pub fn list(workspace: &Workspace, args: &HooksListArgs) -> Result<ExitCode> {
    let runtime = Runtime::load(workspace)?;
    let entries = runtime.all_hooks();
    let disabled = runtime.hooks_disabled();
    match args.format {
        ListFormat::Json => {
            let list: Vec<HookJson<'_>> = entries.iter().map(HookJson::of).collect();
            outln!("{}", crate::output::json_pretty(&list)?);
        }
        ListFormat::Table => out!(
            "{}",
            weft_repl::hooks_listing(
                &entries,
                disabled.as_deref(),
                workspace.home.as_deref(),
                stdout_terminal().width
            )
        ),
    }
    Ok(ExitCode::SUCCESS)
}
