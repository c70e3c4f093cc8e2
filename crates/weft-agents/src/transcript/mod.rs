//! The session transcript: one JSON object per line, appended and flushed after every
//! message, so a process killed mid-turn leaves every earlier line intact.
//!
//! `read.rs` reads a transcript back as the untrusted file it is (capped, line by line, a bad
//! line an error with its file and line); `index.rs` summarises the transcripts of a directory
//! and finds one by id prefix or the latest of a directory; `history.rs` turns one back into
//! what a resumed session needs; `lazy.rs` is the writer a session uses, which creates the
//! file only when the first record that matters arrives.

mod history;
mod index;
mod lazy;
mod read;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use weft_llm::{Message, Usage};

pub use history::SessionHistory;
pub use index::{
    SessionIndex, SessionLookupError, SessionSummary, find_session, latest_session, list_sessions,
    read_sessions,
};
pub use lazy::LazyTranscript;
pub use read::{TRANSCRIPT_CAP, TRANSCRIPT_LINE_CAP, TranscriptError};

/// One line of a transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TranscriptRecord {
    /// The first line: who is talking to what.
    Session {
        /// Session id.
        session_id: String,
        /// Agent name.
        agent: String,
        /// `provider/model`.
        model: String,
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The session that spawned this one, for a subagent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parent: Option<String>,
        /// The directory the session worked in (the project, else the current directory):
        /// `--continue` resumes the latest session of a directory.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cwd: Option<PathBuf>,
    },
    /// The session was resumed (`--continue`, `--resume`) by a later run, which appends here.
    Resumed {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The agent the resumed session uses.
        agent: String,
        /// `provider/model`.
        model: String,
    },
    /// A subagent was started (its own transcript is `<child_id>.jsonl`).
    Spawn {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The child's session id.
        child_id: String,
        /// Its agent.
        agent: String,
        /// `provider/model`.
        model: String,
        /// The tools it was offered.
        tools: Vec<String>,
        /// The skills injected into it.
        skills: Vec<String>,
        /// Whether it runs in the background.
        background: bool,
    },
    /// A subagent finished (or failed, timed out, was cancelled).
    ChildResult {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The child's session id.
        child_id: String,
        /// `completed`, `failed`, `timed_out` or `cancelled`.
        status: String,
        /// Its final message, or the error.
        text: String,
        /// Wall time.
        duration_ms: u64,
        /// Tokens it used.
        usage: Usage,
    },
    /// A message of the conversation, in order.
    Message {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The message.
        message: Message,
    },
    /// A skill became active through `use_skill`.
    Skill {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// Skill name.
        skill: String,
        /// Its arguments.
        args: Vec<String>,
        /// The model its turns use, when the skill chose one (`model:`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// Its `effort:`, sent where the provider takes one and recorded here in any case.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effort: Option<String>,
        /// Placeholders of its body that nothing filled (`$branch` without its argument...).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unfilled: Vec<String>,
    },
    /// The session switched agent (and so model and tools).
    Agent {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// Agent name.
        agent: String,
        /// `provider/model`.
        model: String,
    },
    /// The conversation was forgotten (`/clear`): a resumed session starts after it.
    Clear {
        /// Milliseconds since the Unix epoch.
        at: u64,
    },
    /// A person answered an approval prompt for a tool call.
    Approval {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The tool as called.
        tool: String,
        /// `allowed once`, `allowed for the session` or `denied`.
        answer: String,
        /// Why it needed approval.
        reason: String,
    },
    /// A dynamic-context command of a skill (`` !`cmd` ``, ```` ```! ````), when the skill
    /// was loaded: what became of it.
    DynamicContext {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The skill.
        skill: String,
        /// The command, placeholders filled.
        command: String,
        /// `ran`, `failed` (it could not be started or timed out), `refused` (it needed
        /// approval no one gave), `denied` (the gate), `disabled` (`skills.dynamic_context`).
        outcome: String,
        /// The exit status for a command that ran; why, for one that did not.
        detail: String,
    },
    /// A hook ran (docs/HOOKS.md).
    Hook {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The event (`PreToolUse`...).
        event: String,
        /// Where it is configured (`user settings`, `skill fmt`).
        source: String,
        /// The command.
        command: String,
        /// Its exit code, when it exited.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i32>,
        /// What became of it: `ok`, `blocked: ...`, `timed out after 1 s`, `allow`...
        outcome: String,
        /// How long it ran.
        duration_ms: u64,
    },
    /// Token use of one model call.
    Usage {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The model that answered, `provider/model` (absent in transcripts written before
        /// weft recorded it: the model in use then is assumed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        /// Tokens, cache reads and writes included.
        usage: Usage,
    },
    /// A model call failed (refused, unreachable, an answer over a limit): the error as the
    /// user saw it. Nothing of the failed answer is recorded.
    ModelError {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The error.
        error: String,
    },
    /// The conversation was compacted: every message before the last `kept` was replaced by
    /// `summary`, which the model wrote. The messages stay above in the file; a resumed
    /// session starts from the summary and the kept messages.
    Compaction {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// `manual` (`/compact`), `auto` (the context passed the threshold) or `overflow`
        /// (the provider refused the conversation as longer than the window).
        trigger: String,
        /// What the user asked the summary to keep (`/compact <instructions>`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instructions: Option<String>,
        /// Messages replaced by the summary.
        summarised: usize,
        /// Messages kept verbatim after it.
        kept: usize,
        /// The context before, in tokens (estimated).
        tokens_before: u64,
        /// The context after, in tokens (estimated).
        tokens_after: u64,
        /// The message that replaced them: the first of the conversation from here on.
        summary: Message,
    },
}

impl TranscriptRecord {
    /// When it happened, in milliseconds since the Unix epoch.
    pub fn at(&self) -> u64 {
        match self {
            Self::Session { at, .. }
            | Self::Resumed { at, .. }
            | Self::Spawn { at, .. }
            | Self::ChildResult { at, .. }
            | Self::Message { at, .. }
            | Self::Skill { at, .. }
            | Self::Agent { at, .. }
            | Self::Clear { at }
            | Self::Approval { at, .. }
            | Self::DynamicContext { at, .. }
            | Self::Hook { at, .. }
            | Self::Usage { at, .. }
            | Self::ModelError { at, .. }
            | Self::Compaction { at, .. } => *at,
        }
    }

    /// True for a record that shows the session did something: a message (the user's is
    /// written before the model is called), a model call's usage, a subagent. A run that
    /// writes none of these (a skill that does not exist, a `/agent` switch and exit) leaves
    /// no transcript behind; the other records wait in [`LazyTranscript`] until one comes.
    pub fn opens_transcript(&self) -> bool {
        matches!(
            self,
            Self::Message { .. }
                | Self::Usage { .. }
                | Self::Spawn { .. }
                | Self::ChildResult { .. }
                | Self::Compaction { .. }
        )
    }
}

/// The transcript file of session `session_id` in `dir`: `<dir>/<session_id>.jsonl` (a
/// subagent's id is its parent's plus `.<n>`, so its file sits beside its parent's).
pub fn path(dir: &Path, session_id: &str) -> PathBuf {
    dir.join(format!("{session_id}.jsonl"))
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// A transcript that could not be opened or written.
#[derive(Debug, thiserror::Error)]
#[error("transcript {path}: {source}")]
pub struct TranscriptWriteError {
    /// The file.
    pub path: PathBuf,
    /// The error.
    #[source]
    pub source: std::io::Error,
}

/// An open transcript file.
#[derive(Debug)]
pub struct Transcript {
    path: PathBuf,
    file: File,
}

impl Transcript {
    /// Opens (creating it and its directory) `<dir>/<session_id>.jsonl` for appending.
    pub fn open(dir: &Path, session_id: &str) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        let path = path(dir, session_id);
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        Ok(Self { path, file })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record as a line and hands it to the OS before returning.
    pub fn append(&mut self, record: &TranscriptRecord) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(record).map_err(std::io::Error::other)?;
        line.push(b'\n');
        // One write call per line: with O_APPEND a line is never interleaved or half-written
        // by this process, whatever happens after.
        self.file.write_all(&line)?;
        self.file.flush()
    }

    /// Reads a transcript back, record by record (a damaged line is an error naming it).
    pub fn read(path: &Path) -> Result<Vec<TranscriptRecord>, TranscriptError> {
        read::read_records(path)
    }
}

/// A new session id: 8 random hexadecimal digits first, so ids differ from their first
/// characters on (a prefix of 6 to 8 is enough to name one), then the time in milliseconds,
/// which keeps two ids apart however the random digits fall.
pub fn new_session_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    // RandomState is seeded from the OS per process: random enough for names, without a
    // random-number dependency. The counter and the pid keep ids of one process (and of two
    // processes seeded alike) apart.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    hasher.write_u64(now_millis());
    let random = hasher.finish();
    format!("{:08x}-{:011x}", random >> 32, now_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_differ_from_their_first_characters() {
        let ids: Vec<String> = (0..200).map(|_| new_session_id()).collect();
        let mut prefixes: Vec<&str> = ids.iter().map(|id| &id[..6]).collect();
        prefixes.sort_unstable();
        prefixes.dedup();
        // 200 draws from 16^6 values: one repeat happens about once in 800 runs, two about
        // once in a million; the time-ordered ids this replaced shared all 6 characters.
        assert!(prefixes.len() >= 199, "{ids:?}");
        assert!(
            ids.iter()
                .all(|id| id.len() == 20 && id.as_bytes()[8] == b'-')
        );
    }

    #[test]
    fn only_records_that_show_activity_open_a_transcript() {
        let agent = TranscriptRecord::Agent {
            at: 1,
            agent: "a".into(),
            model: "m/x".into(),
        };
        assert!(!agent.opens_transcript());
        assert!(!TranscriptRecord::Clear { at: 1 }.opens_transcript());
        let message = TranscriptRecord::Message {
            at: 2,
            message: Message::user("hi"),
        };
        assert!(message.opens_transcript());
        assert_eq!(message.at(), 2);
    }
}
