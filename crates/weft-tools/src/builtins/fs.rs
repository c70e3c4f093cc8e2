//! The file tools: `read_file`, `write_file`, `edit_file`, `list_directory`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, BufReader};
use weft_types::tool_names;

use super::atomic::write_atomic;
use super::content::{SNIFF_LEN, floor_boundary, looks_binary};
use super::input::{check_path_reach, parse};
use crate::tool::withheld_note;
use crate::{CallContext, FsScope, Tool, ToolError, ToolOutput};
use weft_fs::{Cap, ReadError, RegularFile};

/// The most text `read_file` returns in one call.
const READ_CAP: usize = 256 * 1024;

/// The most entries `list_directory` shows.
const LIST_CAP: usize = 2_000;

/// An I/O error naming the file as the model knows it (relative to the base).
fn io_error(scope: &FsScope, path: &Path, source: std::io::Error) -> ToolError {
    ToolError::Io {
        path: PathBuf::from(scope.display(path)),
        source,
    }
}

/// The most `edit_file` reads: the whole file is held in memory and rewritten.
pub(crate) const EDIT_CAP: Cap = Cap::new(16 * 1024 * 1024, "files edit_file changes");

/// No size cap: `read_file` streams and stops at its own output limit ([`READ_CAP`]).
const STREAM: Cap = Cap::new(u64::MAX, "files read_file streams");

/// Opens `path` through [`weft_fs`] off the async threads: a regular file on an ordinary file
/// system (a FIFO, a device, a socket or a `/proc` file is refused, without blocking), at
/// most `cap` bytes.
pub(crate) async fn open_regular(
    scope: &FsScope,
    path: &Path,
    cap: Cap,
) -> Result<RegularFile, ToolError> {
    let owned = path.to_path_buf();
    let opened = tokio::task::spawn_blocking(move || RegularFile::open(&owned, cap))
        .await
        .map_err(|e| ToolError::Failed(format!("could not open {}: {e}", scope.display(path))))?;
    opened.map_err(|e| refused(scope, path, e))
}

/// A tool error for a file [`weft_fs`] refused, naming it as the model knows it.
pub(crate) fn refused(scope: &FsScope, path: &Path, error: ReadError) -> ToolError {
    match error {
        ReadError::Io { source, .. } => io_error(scope, path, source),
        other => ToolError::Failed(format!("{} {}", scope.display(path), other.reason())),
    }
}

/// `read_file`: a text file's content, optionally a range of lines.
pub(crate) struct ReadFile {
    scope: Arc<FsScope>,
}

impl ReadFile {
    pub(crate) fn new(scope: Arc<FsScope>) -> Self {
        Self { scope }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadInput {
    path: String,
    offset: Option<u64>,
    limit: Option<u64>,
}

#[async_trait]
impl Tool for ReadFile {
    fn name(&self) -> &str {
        tool_names::READ_FILE
    }

    fn check_reach(&self, input: &serde_json::Value) -> Result<(), ToolError> {
        check_path_reach(input, "path", |p| self.scope.resolve_read(p))
    }

    fn description(&self) -> &str {
        "Reads a text file in the workspace. Use offset (first line, 1-based) and limit (line count) to read part of a large file."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace or absolute."},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to return (1-based)."},
                "limit": {"type": "integer", "minimum": 1, "description": "How many lines to return."}
            },
            "required": ["path"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        let input: ReadInput = parse(self.name(), input)?;
        if input.offset == Some(0) {
            return Err(ToolError::InvalidInput(
                "offset is 1-based: the first line is 1".to_owned(),
            ));
        }
        if input.limit == Some(0) {
            return Err(ToolError::InvalidInput(
                "limit must be at least 1".to_owned(),
            ));
        }
        let path = self.scope.resolve_read(&input.path)?;
        let shown = self.scope.display(&path);
        let io = |e| io_error(&self.scope, &path, e);
        let meta = tokio::fs::metadata(&path).await.map_err(io)?;
        if meta.is_dir() {
            return Err(ToolError::Failed(format!(
                "{shown} is a directory; use list_directory to see its entries"
            )));
        }
        // A FIFO or device could block forever or never end: refused by the open.
        let opened = open_regular(&self.scope, &path, STREAM).await?;
        let mut file =
            BufReader::with_capacity(64 * 1024, tokio::fs::File::from_std(opened.into_file()));
        let mut head = Vec::with_capacity(SNIFF_LEN);
        (&mut file)
            .take(SNIFF_LEN as u64)
            .read_to_end(&mut head)
            .await
            .map_err(io)?;
        if looks_binary(&head) {
            return Err(ToolError::Failed(format!(
                "{shown} looks like a binary file (it contains NUL bytes); read_file shows only text"
            )));
        }
        let mut reader = std::io::Cursor::new(head).chain(file);
        let first = input.offset.unwrap_or(1);
        let range = LineRange {
            first,
            last: input.limit.map(|l| first.saturating_add(l - 1)),
        };
        let read = read_lines(&mut reader, range).await.map_err(io)?;
        let mut text = String::from_utf8_lossy(&read.bytes).into_owned();
        if let Some(cut_at) = read.cut_at {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            let more = meta.len().saturating_sub(cut_at);
            text.push_str(&format!("[truncated: {more} more bytes; use offset/limit]"));
        } else if read.bytes.is_empty() {
            text = if read.lines_seen == 0 {
                "(empty file)".to_owned()
            } else if read.lines_seen < first {
                format!(
                    "(offset {first} is past the end: {shown} has {} lines)",
                    read.lines_seen
                )
            } else {
                String::new()
            };
        }
        Ok(ToolOutput::text(text))
    }
}

/// The lines to keep, 1-based and inclusive.
#[derive(Clone, Copy)]
struct LineRange {
    first: u64,
    last: Option<u64>,
}

struct LinesRead {
    bytes: Vec<u8>,
    /// Lines read (all of them when the range runs to the end of the file).
    lines_seen: u64,
    /// Where the output was cut at [`READ_CAP`], as a byte position in the file.
    cut_at: Option<u64>,
}

/// Reads the lines in `range`, keeping at most [`READ_CAP`] bytes; memory stays bounded even
/// for a file that is one huge line.
async fn read_lines<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    range: LineRange,
) -> std::io::Result<LinesRead> {
    let mut read = LinesRead {
        bytes: Vec::new(),
        lines_seen: 0,
        cut_at: None,
    };
    let mut position = 0u64;
    loop {
        let line_no = read.lines_seen + 1;
        if range.last.is_some_and(|last| line_no > last) {
            break;
        }
        if line_no < range.first {
            let skipped = skip_line(reader).await?;
            if skipped == 0 {
                break;
            }
            position += skipped as u64;
            read.lines_seen = line_no;
            continue;
        }
        let room = READ_CAP - read.bytes.len();
        let mut line = Vec::new();
        let n = (&mut *reader)
            .take(room as u64 + 1)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            break;
        }
        read.lines_seen = line_no;
        if line.len() > room {
            let cut = floor_boundary(&line, room);
            read.bytes.extend_from_slice(&line[..cut]);
            read.cut_at = Some(position + cut as u64);
            break;
        }
        position += n as u64;
        read.bytes.extend_from_slice(&line);
    }
    Ok(read)
}

/// Consumes one line without keeping it; returns the bytes consumed (0 at end of file).
async fn skip_line<R: AsyncBufRead + Unpin>(reader: &mut R) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok(total);
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(total + i + 1);
            }
            None => {
                let n = buf.len();
                reader.consume(n);
                total += n;
            }
        }
    }
}

/// `write_file`: creates or overwrites a file.
pub(crate) struct WriteFile {
    scope: Arc<FsScope>,
}

impl WriteFile {
    pub(crate) fn new(scope: Arc<FsScope>) -> Self {
        Self { scope }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WriteInput {
    path: String,
    content: String,
}

#[async_trait]
impl Tool for WriteFile {
    fn name(&self) -> &str {
        tool_names::WRITE_FILE
    }

    fn check_reach(&self, input: &serde_json::Value) -> Result<(), ToolError> {
        check_path_reach(input, "path", |p| self.scope.resolve(p))
    }

    fn description(&self) -> &str {
        "Creates or overwrites a file in the workspace with the given content, creating parent directories as needed."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace or absolute."},
                "content": {"type": "string", "description": "The complete new content of the file."}
            },
            "required": ["path", "content"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        let input: WriteInput = parse(self.name(), input)?;
        let path = self.scope.resolve(&input.path)?;
        let shown = self.scope.display(&path);
        let io = |e| io_error(&self.scope, &path, e);
        if tokio::fs::metadata(&path).await.is_ok_and(|m| m.is_dir()) {
            return Err(ToolError::Failed(format!("{shown} is a directory")));
        }
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent).await.map_err(io)?;
        }
        write_atomic(&path, input.content.as_bytes())
            .await
            .map_err(io)?;
        Ok(ToolOutput::text(format!(
            "wrote {} bytes to {shown}",
            input.content.len()
        )))
    }
}

/// `edit_file`: replaces an exact string in a file.
pub(crate) struct EditFile {
    scope: Arc<FsScope>,
}

impl EditFile {
    pub(crate) fn new(scope: Arc<FsScope>) -> Self {
        Self { scope }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditInput {
    path: String,
    old_string: String,
    new_string: String,
    #[serde(default)]
    replace_all: bool,
}

#[async_trait]
impl Tool for EditFile {
    fn name(&self) -> &str {
        tool_names::EDIT_FILE
    }

    fn check_reach(&self, input: &serde_json::Value) -> Result<(), ToolError> {
        check_path_reach(input, "path", |p| self.scope.resolve(p))
    }

    fn description(&self) -> &str {
        "Replaces an exact string in a text file. old_string must match exactly once unless replace_all is true; include surrounding lines to make it unique."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace or absolute."},
                "old_string": {"type": "string", "description": "The exact text to replace, whitespace included."},
                "new_string": {"type": "string", "description": "The text to put in its place."},
                "replace_all": {"type": "boolean", "description": "Replace every occurrence instead of exactly one (default false)."}
            },
            "required": ["path", "old_string", "new_string"],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        let input: EditInput = parse(self.name(), input)?;
        if input.old_string.is_empty() {
            return Err(ToolError::InvalidInput(
                "old_string is empty; use write_file to create or overwrite a file".to_owned(),
            ));
        }
        if input.old_string == input.new_string {
            return Err(ToolError::InvalidInput(
                "old_string and new_string are the same; nothing would change".to_owned(),
            ));
        }
        let path = self.scope.resolve(&input.path)?;
        let shown = self.scope.display(&path);
        let io = |e| io_error(&self.scope, &path, e);
        let meta = tokio::fs::metadata(&path).await.map_err(io)?;
        if meta.is_dir() {
            return Err(ToolError::Failed(format!("{shown} is a directory")));
        }
        let opened = open_regular(&self.scope, &path, EDIT_CAP).await?;
        let bytes = tokio::task::spawn_blocking(move || opened.read_all())
            .await
            .map_err(|e| ToolError::Failed(format!("could not read {shown}: {e}")))?
            .map_err(|e| refused(&self.scope, &path, e))?;
        let Ok(text) = String::from_utf8(bytes) else {
            return Err(ToolError::Failed(format!(
                "{shown} is not valid UTF-8; edit_file edits only text files"
            )));
        };
        let count = text.matches(input.old_string.as_str()).count();
        if count == 0 {
            return Err(ToolError::Failed(format!(
                "old_string not found in {shown}"
            )));
        }
        if count > 1 && !input.replace_all {
            return Err(ToolError::Failed(format!(
                "old_string matches {count} times in {shown}; include more context or set replace_all"
            )));
        }
        let edited = text.replace(input.old_string.as_str(), &input.new_string);
        write_atomic(&path, edited.as_bytes()).await.map_err(io)?;
        Ok(ToolOutput::text(format!(
            "replaced {count} occurrence(s) in {shown}"
        )))
    }
}

/// `list_directory`: a directory's entries.
pub(crate) struct ListDirectory {
    scope: Arc<FsScope>,
}

impl ListDirectory {
    pub(crate) fn new(scope: Arc<FsScope>) -> Self {
        Self { scope }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListInput {
    path: Option<String>,
}

#[async_trait]
impl Tool for ListDirectory {
    fn name(&self) -> &str {
        tool_names::LIST_DIRECTORY
    }

    fn check_reach(&self, input: &serde_json::Value) -> Result<(), ToolError> {
        check_path_reach(input, "path", |p| self.scope.resolve_read(p))
    }

    fn description(&self) -> &str {
        "Lists a directory's entries, sorted, one per line; directories end with '/'."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Directory path (default: the workspace root)."}
            },
            "required": [],
            "additionalProperties": false
        })
    }

    async fn call(&self, input: serde_json::Value) -> Result<ToolOutput, ToolError> {
        self.call_in(input, &CallContext::default()).await
    }

    async fn call_in(
        &self,
        input: serde_json::Value,
        context: &CallContext,
    ) -> Result<ToolOutput, ToolError> {
        let input: ListInput = parse(self.name(), input)?;
        let spelled_dir = self.scope.spelled(input.path.as_deref().unwrap_or("."))?;
        let path = self
            .scope
            .resolve_read(input.path.as_deref().unwrap_or("."))?;
        let shown = self.scope.display(&path);
        let io = |e| io_error(&self.scope, &path, e);
        if !tokio::fs::metadata(&path).await.map_err(io)?.is_dir() {
            return Err(ToolError::Failed(format!(
                "{shown} is not a directory; use read_file to read a file"
            )));
        }
        let mut dir = tokio::fs::read_dir(&path).await.map_err(io)?;
        let mut entries = Vec::new();
        let mut withheld = 0;
        while let Some(entry) = dir.next_entry().await.map_err(io)? {
            let mut name = entry.file_name().to_string_lossy().into_owned();
            // A symlink to a directory is listed as a directory: that is how it behaves.
            let file_type = entry.file_type().await;
            let is_dir = match &file_type {
                Ok(t) if t.is_symlink() => tokio::fs::metadata(entry.path())
                    .await
                    .is_ok_and(|m| m.is_dir()),
                Ok(t) => t.is_dir(),
                Err(_) => false,
            };
            if is_dir {
                name.push('/');
            } else if context.files.is_some() {
                // A file the rules do not let this session read is not named either, judged
                // as reached and as it resolves (a dangling link by its spelling alone).
                let spelled = spelled_dir.join(entry.file_name());
                let real = match &file_type {
                    Ok(t) if t.is_symlink() => tokio::fs::canonicalize(entry.path())
                        .await
                        .unwrap_or_else(|_| spelled.clone()),
                    _ => path.join(entry.file_name()),
                };
                if !context.admits(&spelled, &real) {
                    withheld += 1;
                    continue;
                }
            }
            entries.push(name);
        }
        let note = withheld_note(withheld);
        if entries.is_empty() {
            let mut text = "(empty directory)".to_owned();
            if !note.is_empty() {
                text.push('\n');
                text.push_str(&note);
            }
            return Ok(ToolOutput::text(text));
        }
        entries.sort();
        let total = entries.len();
        entries.truncate(LIST_CAP);
        let mut text = entries.join("\n");
        if total > LIST_CAP {
            text.push_str(&format!(
                "\n[{} more entries not shown; use glob to narrow the listing]",
                total - LIST_CAP
            ));
        }
        if !note.is_empty() {
            text.push('\n');
            text.push_str(&note);
        }
        Ok(ToolOutput::text(text))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    async fn lines(text: &str, first: u64, last: Option<u64>) -> (String, u64) {
        let mut reader = std::io::Cursor::new(text.as_bytes().to_vec());
        let read = read_lines(&mut reader, LineRange { first, last })
            .await
            .unwrap();
        (String::from_utf8(read.bytes).unwrap(), read.lines_seen)
    }

    #[tokio::test]
    async fn reads_line_ranges() {
        assert_eq!(lines("a\nb\nc\n", 1, None).await, ("a\nb\nc\n".into(), 3));
        assert_eq!(lines("a\nb\nc", 2, Some(2)).await, ("b\n".into(), 2));
        assert_eq!(lines("a\nb\nc", 3, Some(9)).await, ("c".into(), 3));
        assert_eq!(lines("a\nb\n", 5, None).await, ("".into(), 2));
    }

    #[tokio::test]
    async fn cuts_at_the_cap_on_a_character_boundary() {
        let text = format!("{}é-rest", "x".repeat(READ_CAP - 1));
        let mut reader = std::io::Cursor::new(text.into_bytes());
        let read = read_lines(
            &mut reader,
            LineRange {
                first: 1,
                last: None,
            },
        )
        .await
        .unwrap();
        assert_eq!(read.bytes.len(), READ_CAP - 1);
        assert_eq!(read.cut_at, Some((READ_CAP - 1) as u64));
    }
}
