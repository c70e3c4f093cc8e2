//! The transcripts of a directory, summarised: listed oldest first, found by id or unique
//! prefix, and the latest of a working directory (`--continue`).

use std::path::{Path, PathBuf};

use super::{TranscriptError, TranscriptRecord};

/// One transcript, summarised from its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSummary {
    /// Session id.
    pub id: String,
    /// Start, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// The time of its last record, in milliseconds since the Unix epoch.
    pub updated_ms: u64,
    /// Agent name (at the start).
    pub agent: String,
    /// `provider/model` (at the start).
    pub model: String,
    /// The session that spawned this one, for a subagent.
    pub parent: Option<String>,
    /// The directory it worked in, when the transcript says.
    pub cwd: Option<PathBuf>,
    /// Messages in the conversation.
    pub messages: usize,
    /// Subagent session ids, in spawn order.
    pub children: Vec<String>,
    /// The first thing the user sent (a message, or `/skill args` for a skill run), as
    /// written: what a person picks a session by.
    pub first_prompt: Option<String>,
    /// The transcript file.
    pub path: PathBuf,
}

impl SessionSummary {
    /// Summarises the transcript at `path`; `None` when it cannot be read or does not start
    /// with a session record ([`read_sessions`] says why).
    pub fn read(path: &Path) -> Option<Self> {
        Self::try_read(path).ok()
    }

    /// Summarises the transcript at `path`, or says why it cannot be.
    /// Record by record, keeping only the counts.
    fn try_read(path: &Path) -> Result<Self, TranscriptError> {
        let mut summary: Option<Self> = None;
        let mut first = true;
        super::read::for_each_record(path, |record| {
            let is_first = std::mem::take(&mut first);
            match (&mut summary, record) {
                (
                    None,
                    TranscriptRecord::Session {
                        session_id,
                        agent,
                        model,
                        at,
                        parent,
                        cwd,
                    },
                ) if is_first => {
                    summary = Some(Self {
                        id: session_id,
                        started_ms: at,
                        updated_ms: at,
                        agent,
                        model,
                        parent,
                        cwd,
                        messages: 0,
                        children: Vec::new(),
                        first_prompt: None,
                        path: path.to_path_buf(),
                    });
                }
                (Some(s), record) => {
                    s.updated_ms = s.updated_ms.max(record.at());
                    match record {
                        TranscriptRecord::Message { message, .. } => {
                            s.messages += 1;
                            if s.first_prompt.is_none() && message.role == weft_llm::Role::User {
                                s.first_prompt = Some(message.content);
                            }
                        }
                        TranscriptRecord::Spawn { child_id, .. } => s.children.push(child_id),
                        _ => {}
                    }
                }
                (None, _) => {}
            }
        })?;
        summary.ok_or_else(|| TranscriptError::NotASession {
            path: path.to_path_buf(),
            reason: "the transcript does not start with a `session` record".to_owned(),
        })
    }
}

/// The transcripts of a directory: the sessions, and the files that could not be read.
#[derive(Debug, Default)]
pub struct SessionIndex {
    /// Every session, oldest first (then by id).
    pub sessions: Vec<SessionSummary>,
    /// Why each `*.jsonl` file that is not a readable transcript was left out.
    pub unreadable: Vec<TranscriptError>,
}

impl SessionIndex {
    /// Why the transcript of session `id` (or of a session whose id starts with `id`) was
    /// left out: looking up a damaged session reports the damage (with its file and line)
    /// instead of "no session".
    pub fn take_unreadable(&mut self, id: &str) -> Option<TranscriptError> {
        let at = self.unreadable.iter().position(|e| {
            e.path()
                .file_stem()
                .and_then(|s| s.to_str())
                .is_some_and(|s| s.starts_with(id))
        })?;
        Some(self.unreadable.remove(at))
    }
}

/// Reads every transcript (`*.jsonl`) in `dir`; a missing directory has none.
pub fn read_sessions(dir: &Path) -> SessionIndex {
    let Ok(read) = std::fs::read_dir(dir) else {
        return SessionIndex::default();
    };
    let mut paths: Vec<PathBuf> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    paths.sort();
    let mut index = SessionIndex::default();
    for path in paths {
        match SessionSummary::try_read(&path) {
            Ok(summary) => index.sessions.push(summary),
            Err(e) => index.unreadable.push(e),
        }
    }
    index
        .sessions
        .sort_by(|a, b| (a.started_ms, &a.id).cmp(&(b.started_ms, &b.id)));
    index
}

/// Every session whose transcript is in `dir`, oldest first (then by id); files that are not
/// transcripts are left out ([`read_sessions`] says why).
pub fn list_sessions(dir: &Path) -> Vec<SessionSummary> {
    read_sessions(dir).sessions
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

/// The top-level session (not a subagent) that worked in `cwd` and was active last.
pub fn latest_session<'a>(
    sessions: &'a [SessionSummary],
    cwd: &Path,
) -> Option<&'a SessionSummary> {
    sessions
        .iter()
        .filter(|s| s.parent.is_none() && s.cwd.as_deref() == Some(cwd))
        .max_by_key(|s| (s.updated_ms, s.started_ms))
}

#[cfg(test)]
mod tests {
    use weft_llm::Message;

    use super::super::Transcript;
    use super::*;

    fn session(dir: &Path, id: &str, at: u64, parent: Option<&str>, cwd: &str) -> Transcript {
        let mut t = Transcript::open(dir, id).unwrap();
        t.append(&TranscriptRecord::Session {
            session_id: id.to_owned(),
            agent: "default".to_owned(),
            model: "m/x".to_owned(),
            at,
            parent: parent.map(str::to_owned),
            cwd: Some(PathBuf::from(cwd)),
        })
        .unwrap();
        t
    }

    #[test]
    fn sessions_are_listed_oldest_first_and_found_by_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let mut parent = session(dir.path(), "abc", 2, None, "/p");
        parent
            .append(&TranscriptRecord::Message {
                at: 3,
                message: Message::user("hi"),
            })
            .unwrap();
        session(dir.path(), "abc.1", 4, Some("abc"), "/p");
        session(dir.path(), "abd", 1, None, "/p");
        std::fs::write(dir.path().join("notes.jsonl"), "not json\n").unwrap();
        let sessions = list_sessions(dir.path());
        let ids: Vec<&str> = sessions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["abd", "abc", "abc.1"]);
        assert_eq!(sessions[1].messages, 1);
        assert_eq!(sessions[1].updated_ms, 3);
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
    fn the_latest_session_of_a_directory_is_the_last_active_top_level_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut old = session(dir.path(), "old", 1, None, "/p");
        session(dir.path(), "new", 5, None, "/p");
        session(dir.path(), "new.1", 9, Some("new"), "/p");
        session(dir.path(), "elsewhere", 10, None, "/q");
        let sessions = list_sessions(dir.path());
        assert_eq!(
            latest_session(&sessions, Path::new("/p")).unwrap().id,
            "new"
        );
        // Activity counts, not the start: a resumed old session is the latest again.
        old.append(&TranscriptRecord::Message {
            at: 7,
            message: Message::user("again"),
        })
        .unwrap();
        let sessions = list_sessions(dir.path());
        assert_eq!(
            latest_session(&sessions, Path::new("/p")).unwrap().id,
            "old"
        );
        assert!(latest_session(&sessions, Path::new("/r")).is_none());
    }
}
