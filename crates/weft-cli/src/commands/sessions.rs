//! `weft sessions list|show`: the transcripts under ~/.clawft/workspace/sessions, with each
//! session's subagents (their transcripts are `<parent-id>.<n>.jsonl`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde::Serialize;
use weft_agents::transcript::{Transcript, TranscriptRecord};
use weft_llm::Role;

use crate::cli::{ListFormat, SessionsListArgs, SessionsShowArgs};
use crate::output::outln;
use weft_runtime::UsageError;
use weft_runtime::Workspace;
use weft_term::{cut, table, utc_datetime};

/// One transcript, summarised.
#[derive(Debug, Serialize)]
struct SessionInfo {
    id: String,
    started_ms: u64,
    started: String,
    agent: String,
    model: String,
    parent: Option<String>,
    messages: usize,
    children: Vec<String>,
    path: PathBuf,
}

fn sessions_dir(workspace: &Workspace) -> Result<PathBuf> {
    workspace
        .sessions_dir()
        .ok_or_else(|| UsageError("no home directory: pass --home".to_owned()).into())
}

fn summarise(path: &Path) -> Option<SessionInfo> {
    let records = Transcript::read(path).ok()?;
    let TranscriptRecord::Session {
        session_id,
        agent,
        model,
        at,
        parent,
    } = records.first()?.clone()
    else {
        return None;
    };
    let messages = records
        .iter()
        .filter(|r| matches!(r, TranscriptRecord::Message { .. }))
        .count();
    let children = records
        .iter()
        .filter_map(|r| match r {
            TranscriptRecord::Spawn { child_id, .. } => Some(child_id.clone()),
            _ => None,
        })
        .collect();
    Some(SessionInfo {
        id: session_id,
        started_ms: at,
        started: utc_datetime(at),
        agent,
        model,
        parent,
        messages,
        children,
        path: path.to_path_buf(),
    })
}

fn all_sessions(dir: &Path) -> Vec<SessionInfo> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut sessions: Vec<SessionInfo> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter_map(|p| summarise(&p))
        .collect();
    sessions.sort_by(|a, b| (a.started_ms, &a.id).cmp(&(b.started_ms, &b.id)));
    sessions
}

/// `weft sessions list`.
pub fn list(workspace: &Workspace, args: &SessionsListArgs) -> Result<ExitCode> {
    let dir = sessions_dir(workspace)?;
    let sessions: Vec<SessionInfo> = all_sessions(&dir)
        .into_iter()
        .filter(|s| args.all || s.parent.is_none())
        .collect();
    match args.format {
        ListFormat::Json => outln!("{}", serde_json::to_string_pretty(&sessions)?),
        ListFormat::Table => {
            let rows: Vec<Vec<String>> = sessions
                .iter()
                .map(|s| {
                    vec![
                        s.id.clone(),
                        s.started.clone(),
                        s.agent.clone(),
                        s.model.clone(),
                        s.messages.to_string(),
                        s.children.len().to_string(),
                    ]
                })
                .collect();
            crate::output::out!(
                "{}",
                table(
                    &[
                        "ID",
                        "STARTED (UTC)",
                        "AGENT",
                        "MODEL",
                        "MESSAGES",
                        "SUBAGENTS"
                    ],
                    &rows
                )
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `weft sessions show <id>`.
pub fn show(workspace: &Workspace, args: &SessionsShowArgs) -> Result<ExitCode> {
    let dir = sessions_dir(workspace)?;
    let sessions = all_sessions(&dir);
    let exact = sessions.iter().find(|s| s.id == args.id);
    let matches: Vec<&SessionInfo> = match exact {
        Some(s) => vec![s],
        None => {
            let found: Vec<&SessionInfo> = sessions
                .iter()
                .filter(|s| s.id.starts_with(&args.id))
                .collect();
            // A prefix of a session also matches its subagents (`<id>.1`): the session wins.
            let ids: Vec<&str> = found.iter().map(|s| s.id.as_str()).collect();
            found
                .into_iter()
                .filter(|s| s.parent.as_deref().is_none_or(|p| !ids.contains(&p)))
                .collect()
        }
    };
    let session = match matches.as_slice() {
        [one] => *one,
        [] => {
            return Err(UsageError(format!(
                "no session `{}` in {}; `weft sessions list` shows them",
                args.id,
                dir.display()
            ))
            .into());
        }
        many => {
            let ids: Vec<&str> = many.iter().map(|s| s.id.as_str()).collect();
            return Err(UsageError(format!(
                "`{}` matches several sessions: {}",
                args.id,
                ids.join(", ")
            ))
            .into());
        }
    };
    let mut out = String::new();
    print_session(&dir, session, 0, args.json, &mut out)?;
    crate::output::out!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn print_session(
    dir: &Path,
    info: &SessionInfo,
    depth: usize,
    json: bool,
    out: &mut String,
) -> Result<()> {
    let pad = "    ".repeat(depth);
    let records =
        Transcript::read(&info.path).with_context(|| format!("{}", info.path.display()))?;
    if json {
        for r in &records {
            out.push_str(&serde_json::to_string(r)?);
            out.push('\n');
        }
    } else {
        out.push_str(&format!(
            "{pad}Session {} ({}, {}), started {} UTC\n",
            info.id, info.agent, info.model, info.started
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
    }
    for child in &info.children {
        let path = dir.join(format!("{child}.jsonl"));
        match summarise(&path) {
            Some(child) => print_session(dir, &child, depth + 1, json, out)?,
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
    })
}
