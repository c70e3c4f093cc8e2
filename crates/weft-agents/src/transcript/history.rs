//! A transcript turned back into a session's state, for `--continue` and `--resume`: the
//! conversation since the last `/clear`, the agent and model last in use, the tokens used and
//! how many subagents were started (so new ones do not reuse their transcript names).

use std::path::{Path, PathBuf};

use weft_llm::{Message, Usage};

use super::{Transcript, TranscriptError, TranscriptRecord};

/// What a resumed session starts from.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionHistory {
    /// The session id (the transcript's name).
    pub session_id: String,
    /// The transcript, which the resumed session appends to.
    pub path: PathBuf,
    /// The agent in use at the end.
    pub agent: String,
    /// The `provider/model` in use at the end.
    pub model: String,
    /// The session that spawned this one, for a subagent.
    pub parent: Option<String>,
    /// The directory it worked in.
    pub cwd: Option<PathBuf>,
    /// The conversation since the last `/clear`.
    pub messages: Vec<Message>,
    /// Tokens used over the whole transcript.
    pub usage: Usage,
    /// Subagents started so far.
    pub children: u32,
}

impl SessionHistory {
    /// Reads the transcript at `path` (see [`Transcript::read`]). It must start with the
    /// `session` record of the session its file is named after.
    pub fn read(path: &Path) -> Result<Self, TranscriptError> {
        let records = Transcript::read(path)?;
        let not_a_session = |reason: String| TranscriptError::NotASession {
            path: path.to_path_buf(),
            reason,
        };
        let Some(TranscriptRecord::Session {
            session_id,
            agent,
            model,
            parent,
            cwd,
            ..
        }) = records.first().cloned()
        else {
            return Err(not_a_session(
                "the transcript does not start with a `session` record".to_owned(),
            ));
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if stem != session_id {
            return Err(not_a_session(format!(
                "the transcript names session `{session_id}` but its file is `{stem}.jsonl`"
            )));
        }
        let mut history = Self {
            session_id,
            path: path.to_path_buf(),
            agent,
            model,
            parent,
            cwd,
            messages: Vec::new(),
            usage: Usage::default(),
            children: 0,
        };
        for record in records.into_iter().skip(1) {
            history.apply(record);
        }
        Ok(history)
    }

    fn apply(&mut self, record: TranscriptRecord) {
        match record {
            TranscriptRecord::Message { message, .. } => self.messages.push(message),
            TranscriptRecord::Agent { agent, model, .. }
            | TranscriptRecord::Resumed { agent, model, .. } => {
                self.agent = agent;
                self.model = model;
            }
            TranscriptRecord::Clear { .. } => self.messages.clear(),
            TranscriptRecord::Usage { usage, .. } => self.usage += usage,
            TranscriptRecord::Spawn { .. } => self.children += 1,
            TranscriptRecord::Session { .. }
            | TranscriptRecord::ChildResult { .. }
            | TranscriptRecord::Skill { .. }
            | TranscriptRecord::Approval { .. }
            | TranscriptRecord::DynamicContext { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, id: &str, records: &[TranscriptRecord]) -> PathBuf {
        let mut t = Transcript::open(dir, id).unwrap();
        for r in records {
            t.append(r).unwrap();
        }
        t.path().to_path_buf()
    }

    fn header(id: &str) -> TranscriptRecord {
        TranscriptRecord::Session {
            session_id: id.to_owned(),
            agent: "default".to_owned(),
            model: "a/one".to_owned(),
            at: 1,
            parent: None,
            cwd: Some(PathBuf::from("/p")),
        }
    }

    fn message(text: &str) -> TranscriptRecord {
        TranscriptRecord::Message {
            at: 2,
            message: Message::user(text),
        }
    }

    #[test]
    fn the_history_is_the_conversation_since_the_last_clear_with_the_last_agent() {
        let dir = tempfile::tempdir().unwrap();
        let usage = Usage::new(10, 2);
        let path = write(
            dir.path(),
            "s1",
            &[
                header("s1"),
                message("forgotten"),
                TranscriptRecord::Clear { at: 3 },
                message("kept"),
                TranscriptRecord::Usage { at: 4, usage },
                TranscriptRecord::Agent {
                    at: 5,
                    agent: "explore".to_owned(),
                    model: "b/two".to_owned(),
                },
                TranscriptRecord::Spawn {
                    at: 6,
                    child_id: "s1.1".to_owned(),
                    agent: "explore".to_owned(),
                    model: "b/two".to_owned(),
                    tools: Vec::new(),
                    skills: Vec::new(),
                    background: false,
                },
            ],
        );
        let history = SessionHistory::read(&path).unwrap();
        assert_eq!(history.session_id, "s1");
        assert_eq!(history.messages, [Message::user("kept")]);
        assert_eq!(
            (history.agent.as_str(), history.model.as_str()),
            ("explore", "b/two")
        );
        assert_eq!(history.usage, usage);
        assert_eq!(history.children, 1);
        assert_eq!(history.cwd.as_deref(), Some(Path::new("/p")));
    }

    #[test]
    fn a_transcript_must_be_the_session_it_is_named_after() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "s2", &[header("other")]);
        assert_eq!(
            SessionHistory::read(&path).unwrap_err().to_string(),
            format!(
                "{}:1: the transcript names session `other` but its file is `s2.jsonl`",
                path.display()
            )
        );
        let path = write(dir.path(), "s3", &[message("no header")]);
        assert!(
            SessionHistory::read(&path)
                .unwrap_err()
                .to_string()
                .ends_with(":1: the transcript does not start with a `session` record")
        );
    }
}
