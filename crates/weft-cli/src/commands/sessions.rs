//! `weft sessions list|show`: the transcripts under ~/.clawft/workspace/sessions, with each
//! session's subagents (their transcripts are `<parent-id>.<n>.jsonl`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use weft_agents::transcript::{self, SessionSummary, Transcript, TranscriptRecord, read_sessions};
use weft_llm::Role;

use crate::cli::{ListFormat, ReportFormat, SessionsListArgs, SessionsShowArgs};
use crate::output::outln;
use weft_runtime::Workspace;
use weft_runtime::{UsageError, lookup_session};
use weft_term::{cut, fit_table, tokens, utc_datetime};

/// One session as `sessions list --format json` prints it (and the first fields of
/// `sessions show --format json`).
#[derive(Debug, Serialize)]
struct SessionJson<'a> {
    id: &'a str,
    started_ms: u64,
    started: String,
    updated_ms: u64,
    agent: &'a str,
    model: &'a str,
    parent: Option<&'a str>,
    cwd: Option<&'a Path>,
    messages: usize,
    children: &'a [String],
    first_prompt: Option<&'a str>,
    path: &'a Path,
}

impl<'a> From<&'a SessionSummary> for SessionJson<'a> {
    fn from(s: &'a SessionSummary) -> Self {
        Self {
            id: &s.id,
            started_ms: s.started_ms,
            started: utc_datetime(s.started_ms),
            updated_ms: s.updated_ms,
            agent: &s.agent,
            model: &s.model,
            parent: s.parent.as_deref(),
            cwd: s.cwd.as_deref(),
            messages: s.messages,
            children: &s.children,
            first_prompt: s.first_prompt.as_deref(),
            path: &s.path,
        }
    }
}

fn sessions_dir(workspace: &Workspace) -> Result<PathBuf> {
    workspace
        .sessions_dir()
        .ok_or_else(|| UsageError::new("no home directory: pass --home").into())
}

/// `weft sessions list`.
pub fn list(workspace: &Workspace, args: &SessionsListArgs) -> Result<ExitCode> {
    let dir = sessions_dir(workspace)?;
    let index = read_sessions(&dir);
    for damage in &index.unreadable {
        crate::output::errln!("warning: left out: {damage}");
    }
    let sessions: Vec<SessionSummary> = index
        .sessions
        .into_iter()
        .filter(|s| args.all || s.parent.is_none())
        .collect();
    match args.format {
        ListFormat::Json => {
            let json: Vec<SessionJson<'_>> = sessions.iter().map(SessionJson::from).collect();
            outln!("{}", crate::output::json_pretty(&json)?);
        }
        ListFormat::Table => {
            let home = workspace.home.as_deref();
            let rows: Vec<Vec<String>> = sessions.iter().map(|s| session_row(s, home)).collect();
            crate::output::out!(
                "{}",
                fit_table(
                    &SESSION_COLUMNS,
                    &rows,
                    crate::environment::stdout_terminal().width
                )
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The columns of `sessions list` (and of the `-r` picker, numbered).
pub(crate) const SESSION_COLUMNS: [&str; 7] = [
    "ID",
    "STARTED (UTC)",
    "DIRECTORY",
    "AGENT",
    "MODEL",
    "MESSAGES",
    "FIRST PROMPT",
];

/// One session as a row of [`SESSION_COLUMNS`]: what a person picks a session by (where it
/// worked, what it was asked first), the prompt on one line and cut short.
pub(crate) fn session_row(s: &SessionSummary, home: Option<&Path>) -> Vec<String> {
    vec![
        s.id.clone(),
        utc_datetime(s.started_ms),
        s.cwd
            .as_deref()
            .map_or_else(|| "-".to_owned(), |d| weft_term::tilde(d, home)),
        s.agent.clone(),
        s.model.clone(),
        s.messages.to_string(),
        s.first_prompt
            .as_deref()
            .map_or_else(|| "-".to_owned(), |p| cut(&weft_term::one_line(p), 60)),
    ]
}

/// `weft sessions show <id>`.
pub fn show(workspace: &Workspace, args: &SessionsShowArgs) -> Result<ExitCode> {
    let dir = sessions_dir(workspace)?;
    let session = lookup_session(&dir, &args.id)?;
    match args.format {
        ReportFormat::Json => {
            outln!(
                "{}",
                serde_json::to_string_pretty(&detail_json(&dir, &session)?)?
            );
        }
        ReportFormat::Text => {
            let mut out = String::new();
            print_session(&dir, &session, 0, &mut out)?;
            crate::output::out!("{out}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `sessions show --format json`: the session as `sessions list` prints it, plus its
/// transcript `records` and its `subagents` in this same shape (`{"id", "missing": true}`
/// for one whose transcript cannot be read).
fn detail_json(dir: &Path, info: &SessionSummary) -> Result<serde_json::Value> {
    let mut value = serde_json::to_value(SessionJson::from(info))?;
    value["records"] = serde_json::to_value(Transcript::read(&info.path)?)?;
    let mut subagents = Vec::new();
    for child in &info.children {
        subagents.push(match SessionSummary::read(&transcript::path(dir, child)) {
            Some(child) => detail_json(dir, &child)?,
            None => serde_json::json!({"id": child, "missing": true}),
        });
    }
    value["subagents"] = serde_json::Value::Array(subagents);
    Ok(value)
}

fn print_session(dir: &Path, info: &SessionSummary, depth: usize, out: &mut String) -> Result<()> {
    let pad = "    ".repeat(depth);
    let records = Transcript::read(&info.path)?;
    out.push_str(&format!(
        "{pad}Session {} ({}, {}), started {} UTC\n",
        info.id,
        info.agent,
        info.model,
        utc_datetime(info.started_ms)
    ));
    for r in &records {
        if let Some(line) = describe(r) {
            for (i, l) in line.lines().enumerate() {
                out.push_str(&pad);
                out.push_str(if i == 0 { "  " } else { "    " });
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    for child in &info.children {
        let path = transcript::path(dir, child);
        match SessionSummary::read(&path) {
            Some(child) => print_session(dir, &child, depth + 1, out)?,
            None => out.push_str(&format!("{pad}    (subagent {child}: no transcript)\n")),
        }
    }
    Ok(())
}

/// One record as a line (or a few) for a human.
fn describe(record: &TranscriptRecord) -> Option<String> {
    Some(match record {
        TranscriptRecord::Session { .. } | TranscriptRecord::Usage { .. } => return None,
        TranscriptRecord::Message { message, .. } => match message.role {
            Role::User => format!("user: {}", message.content.trim_end()),
            Role::Assistant => {
                let mut text = String::new();
                if !message.content.trim().is_empty() {
                    text.push_str(&format!("assistant: {}", message.content.trim_end()));
                }
                for call in &message.tool_calls {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&format!(
                        "→ {} {}",
                        call.name,
                        cut(&call.arguments.to_string(), 120)
                    ));
                }
                text
            }
            Role::Tool => format!(
                "{} {}",
                if message.is_error { "✗" } else { "←" },
                cut(&message.content, 160)
            ),
        },
        TranscriptRecord::Skill { skill, args, .. } => {
            format!("[skill {skill} {}]", args.join(" ")).replace(" ]", "]")
        }
        TranscriptRecord::Agent { agent, model, .. } => format!("[agent {agent} ({model})]"),
        TranscriptRecord::Resumed { agent, model, at } => {
            format!("[resumed {} UTC: {agent} ({model})]", utc_datetime(*at))
        }
        TranscriptRecord::Clear { .. } => "[conversation cleared]".to_owned(),
        TranscriptRecord::ModelError { error, .. } => format!("[model error: {}]", cut(error, 300)),
        TranscriptRecord::Approval { tool, answer, .. } => format!("[approval: {tool} {answer}]"),
        TranscriptRecord::Hook {
            event,
            source,
            command,
            outcome,
            ..
        } => format!(
            "[hook {event} ({source}): `{}` {}]",
            cut(command, 120),
            cut(outcome, 160)
        ),
        TranscriptRecord::DynamicContext {
            skill,
            command,
            outcome,
            detail,
            ..
        } => format!(
            "[dynamic context of {skill}: `{}` {outcome} ({})]",
            cut(command, 120),
            cut(detail, 160)
        ),
        TranscriptRecord::Spawn {
            child_id,
            agent,
            tools,
            skills,
            background,
            ..
        } => format!(
            "[spawned {child_id}: {agent}{}, tools: {}{}]",
            if *background { ", background" } else { "" },
            if tools.is_empty() {
                "none".to_owned()
            } else {
                tools.join(", ")
            },
            if skills.is_empty() {
                String::new()
            } else {
                format!(", skills: {}", skills.join(", "))
            }
        ),
        TranscriptRecord::ChildResult {
            child_id,
            status,
            duration_ms,
            ..
        } => format!("[{child_id} {status} in {duration_ms} ms]"),
        TranscriptRecord::Compaction {
            trigger,
            summarised,
            kept,
            tokens_before,
            tokens_after,
            ..
        } => format!(
            "[compacted ({trigger}): {summarised} message(s) summarised, {kept} kept; ~{} -> ~{} tokens]",
            tokens(*tokens_before),
            tokens(*tokens_after)
        ),
    })
}
