//! Markdown answers for a terminal: a light renderer for what models write (headings, bold,
//! italics, inline code, fenced code blocks, lists, quotes, rules, links), line by line so it
//! can follow a streamed answer. Each line is shown once it is complete; a fence's state is
//! carried from line to line. Text is [neutralised](crate::neutralise) first, so the only
//! escape sequences in the output are the renderer's own.
//!
//! Why not a crate: termimad and pulldown-cmark-based renderers take a whole document, which
//! would hold a streamed answer back until its end (or re-render it on every token), and
//! pulldown-cmark alone would still need this module's terminal half. Models use a small
//! subset of Markdown; what this renderer does not know is printed as written.

use crate::neutral::neutralise;
use crate::style::{Style, paint};

/// How wide a horizontal rule is drawn.
const RULE_WIDTH: usize = 40;

/// Renders a Markdown stream as it arrives.
///
/// ```
/// use weft_term::MarkdownStream;
///
/// let mut md = MarkdownStream::new();
/// let mut out = md.push("# Title\nSome **bo");
/// out.push_str(&md.push("ld** text"));
/// out.push_str(&md.finish());
/// assert_eq!(out, "\x1b[1;4mTitle\x1b[22;24m\nSome \x1b[1mbold\x1b[22m text");
/// ```
#[derive(Debug, Default, Clone)]
pub struct MarkdownStream {
    /// The line being received.
    pending: String,
    /// Inside a fenced code block: its fence character and length.
    fence: Option<(char, usize)>,
}

impl MarkdownStream {
    /// A renderer at the start of a document.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next piece of text; returns the lines it completed, rendered.
    pub fn push(&mut self, delta: &str) -> String {
        self.pending.push_str(delta);
        let Some(end) = self.pending.rfind('\n') else {
            return String::new();
        };
        let complete: String = self.pending.drain(..=end).collect();
        let mut out = String::with_capacity(complete.len() + 16);
        for line in complete.split_inclusive('\n') {
            out.push_str(&self.line(line.trim_end_matches('\n').trim_end_matches('\r')));
            out.push('\n');
        }
        out
    }

    /// The last line (one without a newline), rendered; the stream starts over.
    pub fn finish(&mut self) -> String {
        let rest = std::mem::take(&mut self.pending);
        let out = if rest.is_empty() {
            String::new()
        } else {
            self.line(rest.trim_end_matches('\r'))
        };
        self.fence = None;
        out
    }

    /// Whether text is held back waiting for the end of its line.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    fn line(&mut self, raw: &str) -> String {
        let text = neutralise(raw);
        if let Some((c, len)) = self.fence {
            if closes_fence(&text, c, len) {
                self.fence = None;
                return String::new();
            }
            return paint(&text, Style::Code, true);
        }
        if let Some(fence) = opens_fence(&text) {
            self.fence = Some(fence);
            return String::new();
        }
        block(&text)
    }
}

/// Renders a whole Markdown text.
///
/// ```
/// use weft_term::render_markdown;
///
/// assert_eq!(render_markdown("- one\n- `two`"), "• one\n• \x1b[36mtwo\x1b[39m");
/// ```
pub fn render_markdown(text: &str) -> String {
    let mut md = MarkdownStream::new();
    let mut out = md.push(text);
    out.push_str(&md.finish());
    out
}

/// A fence opening (```` ``` ```` or `~~~`, up to three spaces in): its character and length.
fn opens_fence(line: &str) -> Option<(char, usize)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let c = trimmed.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let len = trimmed.chars().take_while(|&x| x == c).count();
    // A backtick fence's info string may not contain backticks.
    (len >= 3 && !(c == '`' && trimmed[len..].contains('`'))).then_some((c, len))
}

fn closes_fence(line: &str, c: char, len: usize) -> bool {
    let trimmed = line.trim();
    trimmed.chars().count() >= len && trimmed.chars().all(|x| x == c)
}

/// One line outside code blocks: its block kind, then its inline content.
fn block(line: &str) -> String {
    let indent_len = line.len() - line.trim_start_matches(' ').len();
    let (indent, body) = line.split_at(indent_len);
    if let Some((level, title)) = heading(body) {
        let style = if level == 1 {
            Style::Heading
        } else {
            Style::Bold
        };
        return paint(&strip_style_markers(title), style, true);
    }
    if is_rule(body) {
        return paint(&"─".repeat(RULE_WIDTH), Style::Dim, true);
    }
    if let Some(quoted) = body.strip_prefix('>') {
        let quoted = quoted.strip_prefix(' ').unwrap_or(quoted);
        return format!(
            "{indent}{} {}",
            paint("│", Style::Dim, true),
            inline(quoted)
        );
    }
    if let Some(item) = ["- ", "* ", "+ "]
        .iter()
        .find_map(|bullet| body.strip_prefix(bullet))
    {
        return format!("{indent}• {}", inline(item));
    }
    format!("{indent}{}", inline(body))
}

/// `# Title` → (1, "Title"); closing `#`s dropped.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim_end();
    Some((level, title))
}

fn is_rule(line: &str) -> bool {
    let compact: String = line.chars().filter(|c| *c != ' ').collect();
    compact.len() >= 3
        && ['-', '*', '_']
            .iter()
            .any(|&m| compact.chars().all(|c| c == m))
}

/// A heading's text with `**`/`` ` `` markers removed (the heading style applies to all of it).
fn strip_style_markers(text: &str) -> String {
    text.replace("**", "").replace('`', "")
}

/// Inline Markdown: code spans, strong and emphasis, links, backslash escapes.
fn inline(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && chars.get(i + 1).is_some_and(|n| n.is_ascii_punctuation()) {
            out.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if let Some((rendered, next)) = code_span(&chars, i)
            .or_else(|| strong(&chars, i))
            .or_else(|| emphasis(&chars, i))
            .or_else(|| link(&chars, i))
        {
            out.push_str(&rendered);
            i = next;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// `` `code` `` (any run of backticks, closed by the same run).
fn code_span(chars: &[char], at: usize) -> Option<(String, usize)> {
    if chars[at] != '`' {
        return None;
    }
    let run = chars[at..].iter().take_while(|&&c| c == '`').count();
    let start = at + run;
    let mut i = start;
    while i < chars.len() {
        if chars[i] == '`' {
            let close = chars[i..].iter().take_while(|&&c| c == '`').count();
            if close == run {
                let code: String = chars[start..i].iter().collect();
                let code = if code.starts_with(' ') && code.ends_with(' ') && code.len() > 1 {
                    code[1..code.len() - 1].to_owned()
                } else {
                    code
                };
                return Some((paint(&code, Style::Code, true), i + run));
            }
            i += close;
        } else {
            i += 1;
        }
    }
    None
}

/// `**strong**` or `__strong__`.
fn strong(chars: &[char], at: usize) -> Option<(String, usize)> {
    let m = chars[at];
    if !matches!(m, '*' | '_') || chars.get(at + 1) != Some(&m) {
        return None;
    }
    let start = at + 2;
    if chars.get(start).is_none_or(|c| c.is_whitespace()) || (m == '_' && word_before(chars, at)) {
        return None;
    }
    let end = (start + 1..chars.len().saturating_sub(1))
        .find(|&j| chars[j] == m && chars[j + 1] == m && !chars[j - 1].is_whitespace())?;
    if m == '_' && chars.get(end + 2).is_some_and(|c| c.is_alphanumeric()) {
        return None;
    }
    let content: String = chars[start..end].iter().collect();
    Some((paint(&inline(&content), Style::Bold, true), end + 2))
}

/// `*emphasis*` or `_emphasis_` (underscores only at word boundaries: `snake_case` stays).
fn emphasis(chars: &[char], at: usize) -> Option<(String, usize)> {
    let m = chars[at];
    if !matches!(m, '*' | '_') {
        return None;
    }
    let start = at + 1;
    if chars
        .get(start)
        .is_none_or(|c| c.is_whitespace() || *c == m)
        || (m == '_' && word_before(chars, at))
    {
        return None;
    }
    let end = (start + 1..chars.len()).find(|&j| {
        chars[j] == m
            && !chars[j - 1].is_whitespace()
            && chars.get(j + 1) != Some(&m)
            && !(m == '_' && chars.get(j + 1).is_some_and(|c| c.is_alphanumeric()))
    })?;
    let content: String = chars[start..end].iter().collect();
    Some((paint(&inline(&content), Style::Italic, true), end + 1))
}

fn word_before(chars: &[char], at: usize) -> bool {
    at > 0 && chars[at - 1].is_alphanumeric()
}

/// `[text](url)`: the text underlined, then the URL unless it is the text.
fn link(chars: &[char], at: usize) -> Option<(String, usize)> {
    if chars[at] != '[' {
        return None;
    }
    let close = (at + 1..chars.len()).find(|&j| chars[j] == ']')?;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let end = (close + 2..chars.len()).find(|&j| chars[j] == ')')?;
    let text: String = chars[at + 1..close].iter().collect();
    let url: String = chars[close + 2..end].iter().collect();
    if text.is_empty() || url.contains(' ') {
        return None;
    }
    let mut out = paint(&inline(&text), Style::Underline, true);
    if url != text {
        out.push(' ');
        out.push_str(&paint(&format!("({url})"), Style::Dim, true));
    }
    Some((out, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rendering with escapes written as tags, for readable expectations.
    fn shown(text: &str) -> String {
        render_markdown(text)
            .replace("\x1b[1;4m", "<h1>")
            .replace("\x1b[22;24m", "</h1>")
            .replace("\x1b[1m", "<b>")
            .replace("\x1b[22m", "</b>")
            .replace("\x1b[3m", "<i>")
            .replace("\x1b[23m", "</i>")
            .replace("\x1b[36m", "<code>")
            .replace("\x1b[39m", "</code>")
            .replace("\x1b[4m", "<u>")
            .replace("\x1b[24m", "</u>")
            .replace("\x1b[2m", "<dim>")
    }

    #[test]
    fn blocks() {
        assert_eq!(shown("# A **b**\n## Two ##"), "<h1>A b</h1>\n<b>Two</b>");
        assert_eq!(shown("#hashtag"), "#hashtag");
        assert_eq!(shown("  - x\n* y\n1. z"), "  • x\n• y\n1. z");
        assert_eq!(shown("> said"), "<dim>│</b> said");
        assert_eq!(shown("---"), format!("<dim>{}</b>", "─".repeat(40)));
        assert_eq!(
            shown("```rust\nlet a = **b**;\n```\nafter"),
            "\n<code>let a = **b**;</code>\n\nafter"
        );
        assert_eq!(shown("~~~\n```\n~~~"), "\n<code>```</code>\n");
    }

    #[test]
    fn inline_styles() {
        assert_eq!(shown("a **b *c* d** e"), "a <b>b <i>c</i> d</b> e");
        assert_eq!(
            shown("snake_case_name and 2*3*4"),
            "snake_case_name and 2<i>3</i>4"
        );
        assert_eq!(
            shown("`a ** b` and ``x`y``"),
            "<code>a ** b</code> and <code>x`y</code>"
        );
        assert_eq!(shown("\\*not\\*"), "*not*");
        assert_eq!(shown("** no"), "** no");
        assert_eq!(
            shown("[docs](https://x.io) [https://y](https://y)"),
            "<u>docs</u> <dim>(https://x.io)</b> <u>https://y</u>"
        );
        assert_eq!(shown("[a](b c)"), "[a](b c)");
    }

    #[test]
    fn streaming_gives_the_same_result_as_the_whole_text() {
        let text = "# T\n\nSome **bold** and `code`.\n```\nx = 1\n```\n- item\r\nend";
        let whole = render_markdown(text);
        for split in 1..text.len() {
            if !text.is_char_boundary(split) {
                continue;
            }
            let mut md = MarkdownStream::new();
            let mut out = md.push(&text[..split]);
            out.push_str(&md.push(&text[split..]));
            out.push_str(&md.finish());
            assert_eq!(out, whole, "split at {split}");
        }
    }

    #[test]
    fn escape_sequences_in_the_answer_are_shown_not_obeyed() {
        let out = render_markdown("**\x1b]0;pwned\x07** \x1b[2J");
        assert_eq!(out, "\x1b[1m\\x1b]0;pwned\\x07\x1b[22m \\x1b[2J");
    }
}
