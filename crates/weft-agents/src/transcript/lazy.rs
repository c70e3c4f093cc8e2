//! The transcript a session writes to, created when the first record that matters arrives
//! (see [`TranscriptRecord::opens_transcript`]): a run that fails before it does anything (an
//! unknown skill, a bad argument) leaves no empty session behind, while the first user message
//! is still on disk before the model is called.

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
}

impl LazyTranscript {
    /// The transcript `<dir>/<session_id>.jsonl`, whose first record (written when the file
    /// is created or, for a resumed session, appended to) is `header`.
    pub fn new(dir: &Path, session_id: &str, header: TranscriptRecord) -> Self {
        Self {
            dir: dir.to_path_buf(),
            session_id: session_id.to_owned(),
            path: dir.join(format!("{session_id}.jsonl")),
            file: None,
            pending: vec![header],
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
            return file.append(&record);
        }
        let opens = record.opens_transcript();
        self.pending.push(record);
        if !opens {
            return Ok(());
        }
        let mut file = Transcript::open(&self.dir, &self.session_id)?;
        for r in &self.pending {
            file.append(r)?;
        }
        self.pending.clear();
        self.file = Some(file);
        Ok(())
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
}
