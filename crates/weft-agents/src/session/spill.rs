//! Large tool results: past a budget, the conversation keeps the start and the end of a
//! result and a note saying how much was cut and where the whole result is, a file the
//! model can read with `read_file` (`<transcripts>/<session id>/tool-results/<n>-<tool>.txt`;
//! the session grants the directory to the file tools, read-only, for its life). Without a
//! transcript directory (`--no-transcript`) the whole result is not kept, and the note says
//! so. The transcript records the result as the conversation has it.
//!
//! The budget is `tool_result_max_bytes` (32 KiB by default), and never more than an eighth
//! of the context window (at [`BYTES_PER_TOKEN`](super::context::BYTES_PER_TOKEN) bytes a
//! token), so one result cannot crowd out a small window.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use weft_llm::{Message, ToolCall};
use weft_tools::ReadGrant;
use weft_types::tool_names;

use super::Session;
use super::context::BYTES_PER_TOKEN;
use super::skill::USE_SKILL;

/// The smallest budget, whatever the window.
const MIN_BUDGET: usize = 2048;

/// Where a session writes whole results, once it has written one.
#[derive(Debug)]
pub(super) struct SpillDir {
    dir: PathBuf,
    written: u32,
    /// Keeps the directory readable by the file tools.
    _grant: Option<ReadGrant>,
}

impl Session {
    /// The most bytes of one tool result the conversation keeps.
    pub fn tool_result_budget(&self) -> usize {
        let window_bytes = self
            .context_window()
            .saturating_mul(BYTES_PER_TOKEN)
            .checked_div(8)
            .and_then(|b| usize::try_from(b).ok())
            .unwrap_or(usize::MAX);
        self.options
            .tool_result_max_bytes
            .min(window_bytes)
            .max(MIN_BUDGET)
    }

    /// `result` as the conversation keeps it: whole within the budget, else cut (see the
    /// module documentation). A skill's body (`use_skill`) is never cut here: it has its own
    /// cap.
    pub(super) fn fit_tool_result(&mut self, call: &ToolCall, mut result: Message) -> Message {
        let budget = self.tool_result_budget();
        if result.content.len() <= budget || call.name == USE_SKILL {
            return result;
        }
        // Reading a whole result back that is itself too long: the same file, in parts.
        let rereading = call.name == tool_names::READ_FILE
            && call
                .arguments
                .get("path")
                .and_then(|p| p.as_str())
                .zip(self.spill.as_ref())
                .is_some_and(|(path, spill)| Path::new(path).starts_with(&spill.dir));
        let whole = if rereading {
            Where::Reread
        } else {
            match self.spill_result(&call.name, &result.content) {
                Ok(Some(path)) => Where::File(path),
                Ok(None) => Where::NotKept,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot keep a whole tool result");
                    Where::NotKept
                }
            }
        };
        result.content = cut(&result.content, budget, &whole);
        result
    }

    /// Writes `content` to a new file of the session's result directory and returns its
    /// path; `None` when the session keeps no transcripts.
    fn spill_result(&mut self, tool: &str, content: &str) -> std::io::Result<Option<PathBuf>> {
        if self.spill.is_none() {
            let Some(root) = &self.options.transcript_dir else {
                return Ok(None);
            };
            let dir = root.join(&self.options.session_id).join("tool-results");
            std::fs::create_dir_all(&dir)?;
            let grant = self
                .options
                .read_grants
                .grant(&dir)
                .inspect_err(|e| tracing::warn!(dir = %dir.display(), error = %e, "tool results not readable by the file tools"))
                .ok();
            // The real path, so what the note names is what the file tools check.
            let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
            self.spill = Some(SpillDir {
                dir,
                written: 0,
                _grant: grant,
            });
        }
        let Some(spill) = self.spill.as_mut() else {
            return Ok(None);
        };
        spill.written += 1;
        let path = spill
            .dir
            .join(format!("{}-{}.txt", spill.written, file_word(tool)));
        // A new file, never through a link left in its place.
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        file.write_all(content.as_bytes())?;
        Ok(Some(path))
    }
}

/// Where the whole of a cut result is.
enum Where {
    File(PathBuf),
    /// The result is a read of such a file.
    Reread,
    NotKept,
}

/// `text` cut to about `budget` bytes: three quarters from the start and one from the end,
/// each at a line end when there is one near, and the note between them.
fn cut(text: &str, budget: usize, whole: &Where) -> String {
    let head_end = line_end_before(text, budget * 3 / 4);
    let tail_start = line_start_after(text, text.len() - budget / 4).max(head_end);
    let (head, tail) = (&text[..head_end], &text[tail_start..]);
    let lines = |s: &str| s.lines().count();
    let total_lines = lines(text);
    let cut_bytes = tail_start - head_end;
    let whole = match whole {
        Where::File(path) => format!(
            "The whole result is in {}: read it with read_file (offset and limit are line numbers).",
            path.display()
        ),
        Where::Reread => {
            "This is a file of whole results: read a smaller part of it with read_file's offset and limit (line numbers).".to_owned()
        }
        Where::NotKept => {
            "The whole result was not kept (this session keeps no transcript).".to_owned()
        }
    };
    let newline = if head.ends_with('\n') || head.is_empty() {
        ""
    } else {
        "\n"
    };
    format!(
        "{head}{newline}[... {cut_bytes} bytes cut: the result was {} bytes in {total_lines} lines, more than the {budget} bytes a tool result keeps in the conversation; above are its first {} lines, below its last {}. {whole}]\n{tail}",
        text.len(),
        lines(head),
        lines(tail),
    )
}

/// The end of the last line that ends at or before `at` (or `at` itself, moved to a
/// character boundary, when no line ends in the second half of the span).
fn line_end_before(text: &str, at: usize) -> usize {
    let at = floor_boundary(text, at);
    match text[..at].rfind('\n') {
        Some(i) if i >= at / 2 => i + 1,
        _ => at,
    }
}

/// The start of the first line at or after `at` (or `at` on a character boundary).
fn line_start_after(text: &str, at: usize) -> usize {
    let at = floor_boundary(text, at);
    match text[at..].find('\n') {
        Some(i) if i < (text.len() - at) / 2 => at + i + 1,
        _ => at,
    }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A tool's name as a file name part: letters, digits, `-` and `_`, at most 40.
fn file_word(tool: &str) -> String {
    let word: String = tool
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(40)
        .collect();
    if word.is_empty() {
        "tool".to_owned()
    } else {
        word
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_keeps_whole_lines_from_both_ends_and_says_where_the_rest_is() {
        let text: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
        let out = cut(&text, 800, &Where::File(PathBuf::from("/s/1-grep.txt")));
        assert!(out.starts_with("line 1\nline 2\n"), "{out}");
        assert!(out.ends_with("line 1000\n"), "{out}");
        assert!(
            out.contains("bytes cut: the result was 8893 bytes in 1000 lines, more than the 800 bytes a tool result keeps in the conversation; above are its first 76 lines, below its last 22. The whole result is in /s/1-grep.txt: read it with read_file"),
            "{out}"
        );
        assert!(out.contains("line 76\n[... 8095 bytes cut"), "{out}");
        assert!(out.len() < 800 + 400, "{}", out.len());
        // One long line: cut on character boundaries.
        let wide = "é".repeat(2000);
        let out = cut(&wide, 1001, &Where::NotKept);
        assert!(out.contains("this session keeps no transcript"));
        assert!(out.starts_with('é'));
        assert_eq!(file_word("../evil/\u{1b}name"), "evilname");
        assert_eq!(file_word("///"), "tool");
    }
}
