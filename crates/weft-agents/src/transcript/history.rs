//! A transcript turned back into a session's state, for `--continue` and `--resume`: the
//! conversation since the last `/clear` (from the last compaction's summary on, when it was
//! compacted), the agent and model last in use, the tokens used and how many subagents were
//! started (so new ones do not reuse their transcript names). The file is read a record at a
//! time and summarised messages are dropped as their compaction is read, so what is held is
//! the conversation the session resumes with, not the whole file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use weft_llm::{Message, Usage};

use super::{TranscriptError, TranscriptRecord};
use crate::ledger::TokenLedger;

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
    /// The conversation since the last `/clear`, from the last compaction's summary on.
    pub messages: Vec<Message>,
    /// Tokens used over the whole transcript.
    pub usage: Usage,
    /// The same by model, and the subagents' (from their results).
    pub ledger: TokenLedger,
    /// Compactions since the last `/clear`.
    pub compactions: u32,
    /// Subagents started so far.
    pub children: u32,
}

impl SessionHistory {
    /// Reads the transcript at `path` (see [`Transcript::read`]). It must start with the
    /// `session` record of the session its file is named after.
    pub fn read(path: &Path) -> Result<Self, TranscriptError> {
        let mut history: Option<Self> = None;
        let mut started = false;
        // The model each subagent ran on, until its result says what it used.
        let mut child_models = BTreeMap::new();
        super::read::for_each_record(path, |record| {
            if let Some(h) = &mut history {
                h.apply(record, &mut child_models);
            } else if !std::mem::replace(&mut started, true)
                && let TranscriptRecord::Session {
                    session_id,
                    agent,
                    model,
                    parent,
                    cwd,
                    ..
                } = record
            {
                history = Some(Self {
                    session_id,
                    path: path.to_path_buf(),
                    agent,
                    model,
                    parent,
                    cwd,
                    messages: Vec::new(),
                    usage: Usage::default(),
                    ledger: TokenLedger::default(),
                    compactions: 0,
                    children: 0,
                });
            }
        })?;
        let not_a_session = |reason: String| TranscriptError::NotASession {
            path: path.to_path_buf(),
            reason,
        };
        let Some(history) = history else {
            return Err(not_a_session(
                "the transcript does not start with a `session` record".to_owned(),
            ));
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if stem != history.session_id {
            return Err(not_a_session(format!(
                "the transcript names session `{}` but its file is `{stem}.jsonl`",
                history.session_id
            )));
        }
        Ok(history)
    }

    fn apply(&mut self, record: TranscriptRecord, child_models: &mut BTreeMap<String, String>) {
        match record {
            TranscriptRecord::Message { message, .. } => self.messages.push(message),
            TranscriptRecord::Agent { agent, model, .. }
            | TranscriptRecord::Resumed { agent, model, .. } => {
                self.agent = agent;
                self.model = model;
            }
            TranscriptRecord::Clear { .. } => {
                self.messages.clear();
                self.compactions = 0;
            }
            TranscriptRecord::Usage { usage, model, .. } => {
                self.usage += usage;
                self.ledger
                    .add_call(model.as_deref().unwrap_or(&self.model), usage);
            }
            TranscriptRecord::Compaction { kept, summary, .. } => {
                let kept = self
                    .messages
                    .split_off(self.messages.len().saturating_sub(kept));
                self.messages.clear();
                self.messages.push(summary);
                self.messages.extend(kept);
                self.compactions += 1;
            }
            TranscriptRecord::Spawn {
                child_id, model, ..
            } => {
                self.children += 1;
                child_models.insert(child_id, model);
            }
            TranscriptRecord::ChildResult {
                child_id, usage, ..
            } => {
                let model = child_models.remove(&child_id).unwrap_or_default();
                self.ledger.add_subagent(&model, usage);
            }
            TranscriptRecord::Session { .. }
            | TranscriptRecord::Skill { .. }
            | TranscriptRecord::Approval { .. }
            | TranscriptRecord::Hook { .. }
            | TranscriptRecord::DynamicContext { .. }
            | TranscriptRecord::ModelError { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::Transcript;

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
                TranscriptRecord::Usage {
                    at: 4,
                    model: None,
                    usage,
                },
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
        // A usage record without its model counts for the model in use then.
        assert_eq!(history.ledger.calls["a/one"].usage, usage);
        assert_eq!(history.children, 1);
        assert_eq!(history.cwd.as_deref(), Some(Path::new("/p")));
    }

    #[test]
    fn a_compaction_replaces_what_it_summarised_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let summary = Message::user("[Conversation summary] all of it");
        let path = write(
            dir.path(),
            "s4",
            &[
                header("s4"),
                message("one"),
                message("two"),
                message("three"),
                TranscriptRecord::Compaction {
                    at: 5,
                    trigger: "auto".to_owned(),
                    instructions: None,
                    summarised: 2,
                    kept: 1,
                    tokens_before: 100,
                    tokens_after: 20,
                    summary: summary.clone(),
                },
                message("four"),
                TranscriptRecord::Usage {
                    at: 6,
                    model: Some("b/two".to_owned()),
                    usage: Usage::new(5, 1).with_cache(4, 0),
                },
            ],
        );
        let history = SessionHistory::read(&path).unwrap();
        assert_eq!(
            history.messages,
            [summary, Message::user("three"), Message::user("four")]
        );
        assert_eq!(history.compactions, 1);
        assert_eq!(history.ledger.calls["b/two"].usage.cache_read_tokens, 4);
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
