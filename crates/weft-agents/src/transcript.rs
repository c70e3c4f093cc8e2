//! The session transcript: one JSON object per line, appended and flushed after every
//! message, so a process killed mid-turn leaves every earlier line intact.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read as _, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use weft_fs::Cap;
use weft_llm::{Message, Usage};

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
    /// Token use of one model call.
    Usage {
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// Tokens.
        usage: Usage,
    },
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
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
        let path = dir.join(format!("{session_id}.jsonl"));
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

    /// Reads a transcript back (a regular file of at most [`TRANSCRIPT_CAP`]). Lines that do
    /// not parse (a torn last line after a crash) and lines longer than
    /// [`TRANSCRIPT_LINE_CAP`] are skipped.
    pub fn read(path: &Path) -> std::io::Result<Vec<TranscriptRecord>> {
        let file = weft_fs::RegularFile::open(path, TRANSCRIPT_CAP)?;
        let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
        let mut records = Vec::new();
        let mut line = Vec::new();
        loop {
            line.clear();
            let limit = TRANSCRIPT_LINE_CAP as u64 + 1;
            if (&mut reader).take(limit).read_until(b'\n', &mut line)? == 0 {
                return Ok(records);
            }
            if line.len() > TRANSCRIPT_LINE_CAP {
                skip_line(&mut reader)?;
                continue;
            }
            if let Ok(record) = serde_json::from_slice(&line) {
                records.push(record);
            }
        }
    }
}

/// The most of a transcript that is read back.
pub const TRANSCRIPT_CAP: Cap = Cap::new(256 * 1024 * 1024, "transcripts");

/// The longest transcript line read back; longer ones are skipped.
pub const TRANSCRIPT_LINE_CAP: usize = 16 * 1024 * 1024;

/// Consumes the rest of an over-long line.
fn skip_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

/// One transcript, summarised from its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSummary {
    /// Session id.
    pub id: String,
    /// Start, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// Agent name.
    pub agent: String,
    /// `provider/model`.
    pub model: String,
    /// The session that spawned this one, for a subagent.
    pub parent: Option<String>,
    /// Messages in the conversation.
    pub messages: usize,
    /// Subagent session ids, in spawn order.
    pub children: Vec<String>,
    /// The transcript file.
    pub path: PathBuf,
}

impl SessionSummary {
    /// Summarises the transcript at `path`; `None` when it cannot be read or does not start
    /// with a session record.
    pub fn read(path: &Path) -> Option<Self> {
        let records = Transcript::read(path).ok()?;
        let Some(TranscriptRecord::Session {
            session_id,
            agent,
            model,
            at,
            parent,
        }) = records.first().cloned()
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
        Some(Self {
            id: session_id,
            started_ms: at,
            agent,
            model,
            parent,
            messages,
            children,
            path: path.to_path_buf(),
        })
    }
}

/// Every session whose transcript (`*.jsonl`) is in `dir`, oldest first (then by id); files
/// that are not transcripts are skipped, a missing directory has none.
pub fn list_sessions(dir: &Path) -> Vec<SessionSummary> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut sessions: Vec<SessionSummary> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter_map(|p| SessionSummary::read(&p))
        .collect();
    sessions.sort_by(|a, b| (a.started_ms, &a.id).cmp(&(b.started_ms, &b.id)));
    sessions
}

/// Why [`find_session`] found no single session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionLookupError {
    /// No session id is or starts with the text.
    #[error("no session `{0}`")]
    NotFound(String),
    /// Several sessions start with the text.
    #[error("`{id}` matches several sessions: {}", .matches.join(", "))]
    Ambiguous {
        /// The text looked up.
        id: String,
        /// The ids it matches.
        matches: Vec<String>,
    },
}

/// The session whose id is `id`, else the one id `id` is a prefix of. A prefix of a session
/// also matches its subagents (`<id>.1`): the session wins.
pub fn find_session<'a>(
    sessions: &'a [SessionSummary],
    id: &str,
) -> Result<&'a SessionSummary, SessionLookupError> {
    if let Some(exact) = sessions.iter().find(|s| s.id == id) {
        return Ok(exact);
    }
    let found: Vec<&SessionSummary> = sessions.iter().filter(|s| s.id.starts_with(id)).collect();
    let ids: Vec<&str> = found.iter().map(|s| s.id.as_str()).collect();
    let matches: Vec<&SessionSummary> = found
        .iter()
        .copied()
        .filter(|s| s.parent.as_deref().is_none_or(|p| !ids.contains(&p)))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(SessionLookupError::NotFound(id.to_owned())),
        many => Err(SessionLookupError::Ambiguous {
            id: id.to_owned(),
            matches: many.iter().map(|s| s.id.clone()).collect(),
        }),
    }
}

/// A new session id: time-ordered, unique within a machine in practice.
pub fn new_session_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    // RandomState is seeded from the OS per process: enough entropy to keep two processes
    // started in the same millisecond apart, without a random-number dependency.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    format!("{:012x}-{:08x}", now_millis(), hasher.finish() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_a_torn_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Transcript::open(dir.path(), "s1").unwrap();
        t.append(&TranscriptRecord::Message {
            at: 1,
            message: Message::user("hi"),
        })
        .unwrap();
        let path = t.path().to_path_buf();
        drop(t);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"type\":\"mess")
            .unwrap();
        let records = Transcript::read(&path).unwrap();
        assert_eq!(
            records,
            [TranscriptRecord::Message {
                at: 1,
                message: Message::user("hi")
            }]
        );
    }

    #[test]
    fn an_over_long_line_is_skipped_and_the_rest_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let record = TranscriptRecord::Message {
            at: 1,
            message: Message::user("hi"),
        };
        let line = serde_json::to_string(&record).unwrap();
        let mut text = "x".repeat(TRANSCRIPT_LINE_CAP + 10);
        text.push('\n');
        text.push_str(&line);
        text.push('\n');
        std::fs::write(&path, text).unwrap();
        assert_eq!(Transcript::read(&path).unwrap(), [record]);
    }

    #[cfg(unix)]
    #[test]
    fn a_transcript_that_is_a_fifo_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let err = Transcript::read(&path).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("is a FIFO (named pipe), not a regular file")
        );
    }

    #[test]
    fn sessions_are_listed_oldest_first_and_found_by_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let session = |id: &str, at: u64, parent: Option<&str>| {
            let mut t = Transcript::open(dir.path(), id).unwrap();
            t.append(&TranscriptRecord::Session {
                session_id: id.to_owned(),
                agent: "default".to_owned(),
                model: "m/x".to_owned(),
                at,
                parent: parent.map(str::to_owned),
            })
            .unwrap();
            t
        };
        let mut parent = session("abc", 2, None);
        parent
            .append(&TranscriptRecord::Message {
                at: 3,
                message: Message::user("hi"),
            })
            .unwrap();
        session("abc.1", 4, Some("abc"));
        session("abd", 1, None);
        std::fs::write(dir.path().join("notes.jsonl"), "not json\n").unwrap();
        let sessions = list_sessions(dir.path());
        let ids: Vec<&str> = sessions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["abd", "abc", "abc.1"]);
        assert_eq!(sessions[1].messages, 1);
        assert_eq!(find_session(&sessions, "abc").unwrap().id, "abc");
        assert_eq!(find_session(&sessions, "abc.").unwrap().id, "abc.1");
        assert_eq!(
            find_session(&sessions, "ab").unwrap_err().to_string(),
            "`ab` matches several sessions: abd, abc"
        );
        assert_eq!(
            find_session(&sessions, "zz"),
            Err(SessionLookupError::NotFound("zz".to_owned()))
        );
    }

    #[test]
    fn session_ids_differ() {
        assert_ne!(new_session_id(), new_session_id());
    }
}
