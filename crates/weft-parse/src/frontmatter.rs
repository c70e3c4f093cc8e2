//! The one frontmatter splitter: `---` lines around YAML, then the body.
//!
//! Delimiters are whole lines: `---` with optional trailing spaces or tabs and an optional CR.
//! A `---` inside a value (`em---dash`) or a table row is text. Only the first closing line
//! ends the frontmatter; later `---` lines belong to the body.

/// The parts of a markdown file with optional YAML frontmatter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML between the delimiters, when the file has frontmatter.
    pub frontmatter: Option<Frontmatter<'a>>,
    /// Everything after the closing delimiter (or the whole file without frontmatter).
    pub body: &'a str,
    /// The 1-based line the body starts on.
    pub body_line: u32,
    /// Blank lines before the opening delimiter (tolerated with a warning).
    pub leading_blank_lines: u32,
}

/// The YAML text of a frontmatter block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frontmatter<'a> {
    /// The YAML, without the delimiter lines.
    pub yaml: &'a str,
    /// The 1-based line of the first YAML line (the line after the opening `---`).
    pub first_line: u32,
    /// The 1-based line of the opening `---`.
    pub open_line: u32,
}

/// Why a file's frontmatter could not be split off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// The opening `---` at `open_line` has no closing `---` line.
    NotClosed {
        /// The line of the opening delimiter.
        open_line: u32,
    },
    /// The first non-blank line starts with `---` but is not a delimiter (`----`, `--- x`).
    MalformedDelimiter {
        /// The offending line.
        line: u32,
    },
}

fn is_delimiter(line: &str) -> bool {
    line.trim_end_matches(['\n', '\r', ' ', '\t']) == "---"
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// Splits `text` into frontmatter and body.
///
/// ```
/// use weft_parse::frontmatter::split;
///
/// let s = split("---\nname: pdf\n---\n# Body\n").unwrap();
/// assert_eq!(s.frontmatter.unwrap().yaml, "name: pdf\n");
/// assert_eq!(s.body, "# Body\n");
/// assert_eq!(s.body_line, 4);
///
/// let plain = split("Just markdown.").unwrap();
/// assert!(plain.frontmatter.is_none());
/// assert_eq!(plain.body, "Just markdown.");
/// ```
pub fn split(text: &str) -> Result<Split<'_>, SplitError> {
    let mut offset = 0;
    let mut line_no: u32 = 0;
    let mut lines = text.split_inclusive('\n');

    // Find the first non-blank line.
    let (open_line, after_open) = loop {
        let Some(line) = lines.next() else {
            return Ok(no_frontmatter(text));
        };
        line_no += 1;
        offset += line.len();
        if is_blank(line) {
            continue;
        }
        if is_delimiter(line) {
            break (line_no, offset);
        }
        if line.starts_with("---") {
            return Err(SplitError::MalformedDelimiter { line: line_no });
        }
        return Ok(no_frontmatter(text));
    };

    let mut yaml_end = after_open;
    for line in lines {
        line_no += 1;
        if is_delimiter(line) {
            let body_start = yaml_end + line.len();
            return Ok(Split {
                frontmatter: Some(Frontmatter {
                    yaml: &text[after_open..yaml_end],
                    first_line: open_line + 1,
                    open_line,
                }),
                body: &text[body_start..],
                body_line: line_no + 1,
                leading_blank_lines: open_line - 1,
            });
        }
        yaml_end += line.len();
    }
    Err(SplitError::NotClosed { open_line })
}

fn no_frontmatter(text: &str) -> Split<'_> {
    Split {
        frontmatter: None,
        body: text,
        body_line: 1,
        leading_blank_lines: 0,
    }
}

/// The byte offset where the body starts, when `bytes` holds a complete frontmatter block.
///
/// Lets a reader stop after the frontmatter: read a prefix, and read more only while this
/// returns `None` and the prefix has no end. Returns `Some(0)` when the file does not start
/// (after blank lines) with a `---` line, since then there is no frontmatter to wait for.
pub fn frontmatter_end(bytes: &[u8]) -> Option<usize> {
    let mut offset = 0;
    let mut opened = false;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let complete = line.last() == Some(&b'\n');
        let trimmed = trim_end_bytes(line);
        offset += line.len();
        if !opened {
            if trimmed.iter().all(|b| b.is_ascii_whitespace()) {
                if !complete {
                    return None;
                }
                continue;
            }
            if trimmed == b"---" && complete {
                opened = true;
                continue;
            }
            if !complete && b"---".starts_with(trimmed) {
                return None;
            }
            // BOM-prefixed delimiter
            if trimmed == b"\xEF\xBB\xBF---" && complete {
                opened = true;
                continue;
            }
            return Some(0);
        }
        if trimmed == b"---" && (complete || offset == bytes.len()) {
            return Some(offset);
        }
    }
    None
}

fn trim_end_bytes(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\n' | b'\r' | b' ' | b'\t') {
        end -= 1;
    }
    &line[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fm(text: &str) -> &str {
        split(text).unwrap().frontmatter.unwrap().yaml
    }

    #[test]
    fn crlf_and_trailing_spaces_on_delimiters() {
        let s = split("---  \r\nname: s\r\n--- \t\r\nBody\r\n").unwrap();
        assert_eq!(s.frontmatter.unwrap().yaml, "name: s\r\n");
        assert_eq!(s.body, "Body\r\n");
    }

    #[test]
    fn dashes_inside_values_are_text() {
        assert_eq!(
            fm("---\ndescription: em---dash\n---\n"),
            "description: em---dash\n"
        );
    }

    #[test]
    fn body_keeps_later_rules() {
        let s = split("---\nname: s\n---\nPart 1\n\n---\n\nPart 2\n---\n").unwrap();
        assert_eq!(s.body, "Part 1\n\n---\n\nPart 2\n---\n");
    }

    #[test]
    fn not_closed_and_document_end_marker() {
        assert_eq!(
            split("---\nname: s\n"),
            Err(SplitError::NotClosed { open_line: 1 })
        );
        assert_eq!(
            split("---\nname: s\n...\nBody"),
            Err(SplitError::NotClosed { open_line: 1 })
        );
    }

    #[test]
    fn four_dashes_are_not_a_delimiter() {
        assert_eq!(
            split("----\nname: s\n---\n"),
            Err(SplitError::MalformedDelimiter { line: 1 })
        );
    }

    #[test]
    fn leading_blank_lines_are_counted() {
        let s = split("\n\n---\nname: s\n---\n").unwrap();
        assert_eq!(s.leading_blank_lines, 2);
        assert_eq!(s.frontmatter.unwrap().first_line, 4);
    }

    #[test]
    fn file_ending_at_closing_delimiter() {
        let s = split("---\nname: s\n---").unwrap();
        assert_eq!(s.body, "");
        let s = split("---\n---\n").unwrap();
        assert_eq!(s.frontmatter.unwrap().yaml, "");
    }

    #[test]
    fn frontmatter_end_finds_body_offset() {
        let text = b"---\nname: s\n---\nBody";
        assert_eq!(frontmatter_end(text), Some(16));
        assert_eq!(frontmatter_end(b"---\nname: s\n"), None);
        assert_eq!(frontmatter_end(b"# Title\n"), Some(0));
        assert_eq!(frontmatter_end(b"--"), None);
        assert_eq!(frontmatter_end(b"---\nname: s\n---"), Some(15));
    }
}
