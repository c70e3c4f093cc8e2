//! Reading a transcript back. The file is input like any other (it may have been edited,
//! truncated, replaced by a link to `/dev/zero`): it is opened through weft-fs (a regular
//! file, at most [`TRANSCRIPT_CAP`]), read a line at a time (at most [`TRANSCRIPT_LINE_CAP`]
//! each), and a line that is not a record is an error naming the file and the line. Only a
//! last line without its newline is forgiven: that is what a process killed mid-write leaves.

use std::io::{BufRead, Read as _};
use std::path::{Path, PathBuf};

use weft_fs::Cap;

use super::TranscriptRecord;

/// The most of a transcript that is read back.
pub const TRANSCRIPT_CAP: Cap = Cap::new(256 * 1024 * 1024, "transcripts");

/// The longest transcript line read back.
pub const TRANSCRIPT_LINE_CAP: usize = 16 * 1024 * 1024;

/// Why a transcript cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptError {
    /// The file cannot be opened (missing, not a regular file, over the cap).
    #[error("{}: cannot read: {}", path.display(), source.reason())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: weft_fs::ReadError,
    },
    /// Reading failed part way.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A line is not a transcript record.
    #[error("{}:{line}: not a transcript record: {source}", path.display())]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The parser's error.
        #[source]
        source: serde_json::Error,
    },
    /// A line is longer than [`TRANSCRIPT_LINE_CAP`].
    #[error("{}:{line}: the line is longer than the {} MiB limit", path.display(), TRANSCRIPT_LINE_CAP / (1024 * 1024))]
    LineTooLong {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
    },
    /// The file does not start with a `session` record, or it names another session.
    #[error("{}:1: {reason}", path.display())]
    NotASession {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

impl TranscriptError {
    /// The transcript the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Self::Open { path, .. }
            | Self::Io { path, .. }
            | Self::BadLine { path, .. }
            | Self::LineTooLong { path, .. }
            | Self::NotASession { path, .. } => path,
        }
    }
}

/// Every record of the transcript at `path`, in order (see the module documentation).
pub(super) fn read_records(path: &Path) -> Result<Vec<TranscriptRecord>, TranscriptError> {
    let mut records = Vec::new();
    for_each_record(path, |record| records.push(record))?;
    Ok(records)
}

/// Hands each record of the transcript at `path` to `visit`, in order, holding one line at a
/// time: what reads a long transcript back (a resumed session, a listing) keeps only what it
/// needs of it.
pub(super) fn for_each_record(
    path: &Path,
    mut visit: impl FnMut(TranscriptRecord),
) -> Result<(), TranscriptError> {
    let io = |source| TranscriptError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = weft_fs::RegularFile::open(path, TRANSCRIPT_CAP).map_err(|source| {
        TranscriptError::Open {
            path: path.to_path_buf(),
            source,
        }
    })?;
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let limit = TRANSCRIPT_LINE_CAP as u64 + 1;
        if (&mut reader)
            .take(limit)
            .read_until(b'\n', &mut line)
            .map_err(io)?
            == 0
        {
            break;
        }
        if line.len() > TRANSCRIPT_LINE_CAP {
            return Err(TranscriptError::LineTooLong {
                path: path.to_path_buf(),
                line: number,
            });
        }
        let complete = line.last() == Some(&b'\n');
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice(&line) {
            Ok(record) => visit(record),
            Err(_) if !complete => {
                tracing::warn!(file = %path.display(), line = number, "the last line of the transcript is incomplete (a run was killed while writing it); it is skipped");
            }
            Err(source) => {
                return Err(TranscriptError::BadLine {
                    path: path.to_path_buf(),
                    line: number,
                    source,
                });
            }
        }
        // A long line's buffer is not kept for the short ones after it.
        if line.capacity() > 1024 * 1024 {
            line = Vec::new();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use weft_llm::Message;

    use super::super::Transcript;
    use super::*;

    fn hi() -> TranscriptRecord {
        TranscriptRecord::Message {
            at: 1,
            message: Message::user("hi"),
        }
    }

    #[test]
    fn records_round_trip_and_a_torn_last_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Transcript::open(dir.path(), "s1").unwrap();
        t.append(&hi()).unwrap();
        let path = t.path().to_path_buf();
        drop(t);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"type\":\"mess")
            .unwrap();
        assert_eq!(Transcript::read(&path).unwrap(), [hi()]);
    }

    #[test]
    fn a_corrupt_line_is_an_error_with_its_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let good = serde_json::to_string(&hi()).unwrap();
        std::fs::write(
            &path,
            format!("{good}\n{{\"type\":\"nonsense\"}}\n{good}\n"),
        )
        .unwrap();
        let err = Transcript::read(&path).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{}:2: not a transcript record: ", path.display())),
            "{err}"
        );
    }

    #[test]
    fn an_over_long_line_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let mut text = serde_json::to_string(&hi()).unwrap();
        text.push('\n');
        text.push_str(&"x".repeat(TRANSCRIPT_LINE_CAP + 10));
        text.push('\n');
        std::fs::write(&path, text).unwrap();
        assert_eq!(
            Transcript::read(&path).unwrap_err().to_string(),
            format!(
                "{}:2: the line is longer than the 16 MiB limit",
                path.display()
            )
        );
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
                .ends_with("is a FIFO (named pipe), not a regular file"),
            "{err}"
        );
    }
}
