//! `-r` without an id (`weft -r`, `weft agent -r`): pick a session to resume on the
//! terminal, as Claude Code's `--resume` does. This project's sessions come first, newest
//! first; each row says where it worked and what it was asked first.

use std::io::BufRead;
use std::path::Path;

use anyhow::{Context, Result};
use weft_agents::transcript::{SessionSummary, read_sessions};
use weft_runtime::{Runtime, UsageError};

use crate::commands::sessions::{SESSION_COLUMNS, session_row};

/// How many sessions the picker offers.
const OFFERED: usize = 20;

/// The id of the session the person picks among the recent ones of `runtime`'s workspace.
/// Without a terminal to ask on, a usage error says how to name one.
pub fn pick_session(runtime: &Runtime) -> Result<String> {
    can_pick()?;
    let dir = runtime
        .workspace
        .sessions_dir()
        .ok_or_else(|| UsageError::new("no home directory for sessions: pass --home"))?;
    let base = runtime.base_dir()?;
    let here = std::fs::canonicalize(&base).unwrap_or(base);
    let sessions = recent(read_sessions(&dir).sessions, &here);
    if sessions.is_empty() {
        return Err(UsageError::new("no session to resume yet (`weft` starts one)").into());
    }
    let home = runtime.workspace.home.as_deref();
    let mut header = vec!["#"];
    header.extend(SESSION_COLUMNS);
    let rows: Vec<Vec<String>> = sessions
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut row = vec![(i + 1).to_string()];
            row.extend(session_row(s, home));
            row
        })
        .collect();
    crate::output::err!(
        "{}",
        weft_term::fit_table(&header, &rows, crate::environment::stderr_terminal().width)
    );
    crate::output::err!("Resume which session? [1-{}, Enter for 1] ", sessions.len());
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .context("cannot read the answer")?;
    let choice = match answer.trim() {
        "" => 1,
        text => text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=sessions.len()).contains(n))
            .ok_or_else(|| {
                UsageError::new(format!("`{text}` is not one of 1-{}", sessions.len()))
            })?,
    };
    Ok(sessions[choice - 1].id.clone())
}

/// `Ok` when there is a terminal to pick on; otherwise the usage error that says how to name
/// a session instead.
pub fn can_pick() -> Result<()> {
    if crate::output::stdin_is_terminal() && crate::output::stderr_is_terminal() {
        return Ok(());
    }
    Err(UsageError::new("-r without an id picks a session on a terminal; here, name one: `-r ID` (`weft sessions list` shows them) or `-c` for the latest")
    .into())
}

/// The top-level sessions to offer: those that worked in `here` first, then the others, each
/// group newest first; at most [`OFFERED`].
fn recent(mut sessions: Vec<SessionSummary>, here: &Path) -> Vec<SessionSummary> {
    sessions.retain(|s| s.parent.is_none());
    sessions.sort_by_key(|s| {
        (
            s.cwd.as_deref() != Some(here),
            std::cmp::Reverse(s.updated_ms),
        )
    });
    sessions.truncate(OFFERED);
    sessions
}
