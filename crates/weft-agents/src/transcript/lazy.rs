//! The transcript a session writes to, created when the first record that matters arrives
//! (see [`TranscriptRecord::opens_transcript`]): a run that fails before it does anything (an
//! unknown skill, a bad argument) leaves no empty session behind, while the first user message
//! is still on disk before the model is called. If that call never gets an answer (the server
//! refuses the connection), [`LazyTranscript::withdraw`] takes the file back: a run that never
//! reached the model leaves no session behind either.

use std::path::{Path, PathBuf};

use super::{Transcript, TranscriptRecord};

/// A transcript file that exists once something worth keeping happened.
#[derive(Debug)]
pub struct LazyTranscript {
    dir: PathBuf,
    session_id: String,
    path: PathBuf,
    file: Option<Transcript>,
    /// Records waiting for the file: the header first.
    pending: Vec<TranscriptRecord>,
    /// Everything written to a file this writer created, while it holds nothing but what
    /// came before the first model call (the header, switches, user messages): what
    /// [`withdraw`](Self::withdraw) puts back in `pending`. `None` once anything else is
    /// written, or when the file existed before (a resumed session).
    withdrawable: Option<Vec<TranscriptRecord>>,
}

impl LazyTranscript {
    /// The transcript `<dir>/<session_id>.jsonl`, whose first record (written when the file
    /// is created or, for a resumed session, appended to) is `header`.
    pub fn new(dir: &Path, session_id: &str, header: TranscriptRecord) -> Self {
        Self {
            dir: dir.to_path_buf(),
            session_id: session_id.to_owned(),
            path: super::path(dir, session_id),
            file: None,
            pending: vec![header],
            withdrawable: None,
        }
    }

    /// The file (which may not exist yet).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True once the file has been written to.
    pub fn is_open(&self) -> bool {
        self.file.is_some()
    }

    /// Appends `record`: kept in memory until a record that opens the transcript comes, then
    /// written with everything before it, each line handed to the OS before this returns.
    pub fn append(&mut self, record: TranscriptRecord) -> std::io::Result<()> {
        if let Some(file) = self.file.as_mut() {
            file.append(&record)?;
            self.withdrawable = self
                .withdrawable
                .take()
                .filter(|_| before_any_answer(&record))
                .map(|mut written| {
                    written.push(record);
                    written
                });
            return Ok(());
        }
        let opens = record.opens_transcript();
        self.pending.push(record);
        if !opens {
            return Ok(());
        }
        let created = std::fs::symlink_metadata(&self.path).is_err();
        let mut file = Transcript::open(&self.dir, &self.session_id)?;
        for r in &self.pending {
            file.append(r)?;
        }
        let written = std::mem::take(&mut self.pending);
        self.withdrawable = (created && written.iter().all(before_any_answer)).then_some(written);
        self.file = Some(file);
        Ok(())
    }

    /// Takes the file back when this writer created it and it holds nothing but what came
    /// before the first model call (the header and the user's messages): the session never
    /// got an answer, so there is nothing to resume. The records wait in memory again, and
    /// are written if the session goes on. True when the file was removed.
    pub fn withdraw(&mut self) -> std::io::Result<bool> {
        let Some(written) = self.withdrawable.take() else {
            return Ok(false);
        };
        self.file = None;
        std::fs::remove_file(&self.path)?;
        self.pending = written;
        Ok(true)
    }
}

/// True for a record that can come before any model answer: not a model call's usage, not
/// an assistant or tool message, not a subagent, not an approval or a dynamic-context
/// command (something was decided or ran, so the record stays).
fn before_any_answer(record: &TranscriptRecord) -> bool {
    match record {
        TranscriptRecord::Message { message, .. } => message.role == weft_llm::Role::User,
        TranscriptRecord::Session { .. }
        | TranscriptRecord::Resumed { .. }
        | TranscriptRecord::Agent { .. }
        | TranscriptRecord::Skill { .. }
        | TranscriptRecord::Clear { .. }
        | TranscriptRecord::ModelError { .. } => true,
        TranscriptRecord::Spawn { .. }
        | TranscriptRecord::ChildResult { .. }
        | TranscriptRecord::Approval { .. }
        | TranscriptRecord::Hook { .. }
        | TranscriptRecord::DynamicContext { .. }
        | TranscriptRecord::Usage { .. }
        | TranscriptRecord::Compaction { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use weft_llm::Message;

    use super::*;

    #[test]
    fn nothing_is_written_until_a_record_that_matters() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = dir.path().join("sessions");
        let header = TranscriptRecord::Clear { at: 1 };
        let mut t = LazyTranscript::new(&sessions, "s1", header.clone());
        let switch = TranscriptRecord::Agent {
            at: 2,
            agent: "explore".into(),
            model: "m/x".into(),
        };
        t.append(switch.clone()).unwrap();
        assert!(!t.is_open());
        assert!(!sessions.exists(), "not even the directory is created");
        let message = TranscriptRecord::Message {
            at: 3,
            message: Message::user("hi"),
        };
        t.append(message.clone()).unwrap();
        assert!(t.is_open());
        assert_eq!(
            Transcript::read(t.path()).unwrap(),
            [header, switch, message]
        );
    }

    #[test]
    fn a_transcript_without_an_answer_is_withdrawn_and_written_again_later() {
        let dir = tempfile::tempdir().unwrap();
        let header = TranscriptRecord::Clear { at: 1 };
        let mut t = LazyTranscript::new(dir.path(), "s1", header.clone());
        let question = TranscriptRecord::Message {
            at: 2,
            message: Message::user("hi"),
        };
        t.append(question.clone()).unwrap();
        assert!(t.path().exists());
        assert!(t.withdraw().unwrap());
        assert!(!t.path().exists() && !t.is_open());
        assert!(!t.withdraw().unwrap(), "nothing left to withdraw");
        // The session goes on: the next message writes everything, and once the model has
        // answered the file stays.
        let again = TranscriptRecord::Message {
            at: 3,
            message: Message::user("hello?"),
        };
        t.append(again.clone()).unwrap();
        let usage = TranscriptRecord::Usage {
            at: 4,
            model: None,
            usage: weft_llm::Usage::default(),
        };
        t.append(usage.clone()).unwrap();
        assert!(!t.withdraw().unwrap());
        assert_eq!(
            Transcript::read(t.path()).unwrap(),
            [header, question, again, usage]
        );
    }

    #[test]
    fn a_file_that_existed_before_is_never_withdrawn() {
        let dir = tempfile::tempdir().unwrap();
        let path = crate::transcript::path(dir.path(), "s1");
        std::fs::write(&path, "").unwrap();
        let mut t = LazyTranscript::new(dir.path(), "s1", TranscriptRecord::Clear { at: 1 });
        t.append(TranscriptRecord::Message {
            at: 2,
            message: Message::user("hi"),
        })
        .unwrap();
        assert!(!t.withdraw().unwrap());
        assert!(path.exists());
    }
}
