//! The tokenizer: one linear pass over a template, yielding literal text and placeholders.
//!
//! The scanner knows just enough Markdown to tell whether a byte sits inside code:
//!
//! * **Fenced blocks** open on a line that starts (after at most 3 spaces) with a run of at least
//!   three backticks or tildes, and close on a line made of (at most 3 spaces and) a run of the
//!   same character at least as long, followed only by whitespace. A backtick fence whose info
//!   string contains a backtick is not a fence (CommonMark). An unclosed fence runs to the end.
//! * **Inline code spans** open on a backtick run and close on the next run of exactly the same
//!   length. Without such a closer the run is literal text. A span cannot cross a blank line or a
//!   fence-opening line (that is where a Markdown paragraph ends). A backslash-escaped backtick
//!   outside code does not open a span.
//!
//! Only the bare `$N` form depends on that: every other placeholder is recognised everywhere.
//! Indented code blocks and containers (block quotes, deeply indented list items) are not
//! modelled; a fence inside them is seen only if it starts within 3 spaces of the line start.
//!
//! Token slices borrow from the template; the scanner itself never allocates.
//!
//! This module is the [`Scanner`] and the tokens it yields; `placeholder.rs` recognises each
//! placeholder form at a `$` or `{`, `markdown.rs` reads fence lines and finds code-span
//! closers, and `special_bytes.rs` skips plain text to the next byte worth a look.

mod markdown;
mod placeholder;
mod special_bytes;

use markdown::{fence_closes, fence_opens, find_closer, line_end, run_len, skip_indent};
pub(crate) use placeholder::match_dollar;
pub(crate) use placeholder::{Kind, Placeholder};
use placeholder::{match_base_dir, match_named};
use special_bytes::find_special;

/// A piece of the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// Text copied to the output unchanged.
    Text(&'a str),
    /// A placeholder to fill.
    Placeholder(Placeholder<'a>),
}

/// An open fenced code block.
#[derive(Debug, Clone, Copy)]
struct Fence {
    ch: u8,
    len: usize,
}

/// A piece of Markdown code the scanner went through, recorded on request (dynamic context
/// is found from these, so it follows exactly the code rules placeholders follow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CodeRegion {
    /// An inline code span: its opening run of `ticks` backticks at `open`, its closing run
    /// at `close`.
    Span {
        open: usize,
        ticks: usize,
        close: usize,
    },
    /// A fenced block: the opening line starts at `line`, its fence run of `len` characters
    /// `ch` at `marker`, its info string runs to `info_end`; `close` is the closing line's
    /// start and end (`None`: unclosed, it runs to the end of the text).
    Fence {
        line: usize,
        marker: usize,
        ch: u8,
        len: usize,
        info_end: usize,
        close: Option<(usize, usize)>,
    },
}

/// Slots of the failed-closer-search cache (direct-mapped by run length).
const SPAN_MEMO: usize = 32;

/// Tokenizer over a template. See the module documentation for the code rules.
#[derive(Debug)]
pub(crate) struct Scanner<'a> {
    src: &'a str,
    /// Next byte to examine.
    pos: usize,
    /// Start of the text not yet emitted.
    text_start: usize,
    /// A placeholder found while text was still pending; emitted on the next call.
    pending: Option<Placeholder<'a>>,
    /// `pos` is at the start of a line that has not been checked for fences yet.
    line_start: bool,
    fence: Option<Fence>,
    /// The current inline code span ends here (exclusive); `pos < span_end` means inside it.
    span_end: usize,
    /// The skill's argument names (`arguments:`), for `$name`.
    names: &'a [String],
    /// `(n, stop)` in slot `n % SPAN_MEMO`: a search for a closer of length `n` failed, stopping
    /// at `stop`. Any opener of that length before `stop` fails too, so inputs full of unmatched
    /// (e.g. escape-shortened) backtick runs do not rescan the same text again and again.
    span_fail: [(usize, usize); SPAN_MEMO],
    /// The code regions passed so far, when asked for ([`Scanner::recording`]).
    regions: Option<Vec<CodeRegion>>,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `src`.
    pub(crate) fn new(src: &'a str) -> Self {
        Self::with_names(src, &[])
    }

    /// A scanner that also recognises `$name` for each of `names` (outside code).
    pub(crate) fn with_names(src: &'a str, names: &'a [String]) -> Self {
        Self {
            src,
            names,
            pos: 0,
            text_start: 0,
            pending: None,
            line_start: true,
            fence: None,
            span_end: 0,
            span_fail: [(0, 0); SPAN_MEMO],
            regions: None,
        }
    }

    /// A scanner that also records the code regions it passes ([`Scanner::regions`]).
    pub(crate) fn recording(src: &'a str) -> Self {
        let mut scanner = Self::new(src);
        scanner.regions = Some(Vec::new());
        scanner
    }

    /// The code regions passed so far, in order (empty unless [`recording`](Self::recording)).
    pub(crate) fn regions(&self) -> &[CodeRegion] {
        self.regions.as_deref().unwrap_or_default()
    }

    fn in_span(&self) -> bool {
        self.pos < self.span_end
    }

    fn in_code(&self) -> bool {
        self.fence.is_some() || self.in_span()
    }

    /// Ends the pending text at `end` and resumes it at `resume`; returns it when it is not empty.
    fn cut(&mut self, end: usize, resume: usize) -> Option<&'a str> {
        let start = self.text_start;
        self.text_start = resume;
        self.src.get(start..end).filter(|t| !t.is_empty())
    }

    /// Emits `p`, found at byte `at`: the pending text first when there is some.
    fn emit(&mut self, at: usize, p: Placeholder<'a>) -> Token<'a> {
        let end = at + p.raw.len();
        self.pos = end;
        match self.cut(at, end) {
            Some(text) => {
                self.pending = Some(p);
                Token::Text(text)
            }
            None => Token::Placeholder(p),
        }
    }

    /// Fence bookkeeping at the start of a line (`self.pos`).
    fn check_line_start(&mut self) {
        if self.in_span() {
            return;
        }
        let bytes = self.src.as_bytes();
        let line = self.pos;
        match self.fence {
            Some(fence) => {
                if fence_closes(bytes, line, fence) {
                    self.fence = None;
                    // The closing line holds only fence characters and whitespace.
                    self.pos = line_end(bytes, line);
                    if let Some(CodeRegion::Fence { close, .. }) =
                        self.regions.as_mut().and_then(|r| r.last_mut())
                    {
                        *close = Some((line, self.pos));
                    }
                }
            }
            None => {
                // Fast path: most lines do not start with a fence character.
                let first = bytes.get(skip_indent(bytes, line));
                if matches!(first, Some(b'`' | b'~')) {
                    self.fence = fence_opens(bytes, line);
                    if let (Some(fence), Some(regions)) = (self.fence, self.regions.as_mut()) {
                        regions.push(CodeRegion::Fence {
                            line,
                            marker: skip_indent(bytes, line),
                            ch: fence.ch,
                            len: fence.len,
                            info_end: line_end(bytes, line),
                            close: None,
                        });
                    }
                }
            }
        }
    }

    /// A backtick run of length `n` at `at`, outside fences and spans.
    fn open_span(&mut self, at: usize, n: usize) {
        let from = at + n;
        self.pos = from;
        let slot = n % SPAN_MEMO;
        if let Some(&(len, stop)) = self.span_fail.get(slot)
            && len == n
            && at < stop
        {
            return;
        }
        match find_closer(self.src.as_bytes(), from, n) {
            Ok(closer) => {
                self.span_end = closer + n;
                if let Some(regions) = self.regions.as_mut() {
                    regions.push(CodeRegion::Span {
                        open: at,
                        ticks: n,
                        close: closer,
                    });
                }
            }
            Err(stop) => {
                if let Some(entry) = self.span_fail.get_mut(slot) {
                    *entry = (n, stop);
                }
            }
        }
    }
}

impl<'a> Iterator for Scanner<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if let Some(p) = self.pending.take() {
            return Some(Token::Placeholder(p));
        }
        let src = self.src;
        let bytes = src.as_bytes();
        loop {
            if self.line_start {
                self.line_start = false;
                self.check_line_start();
            }
            self.pos = find_special(bytes, self.pos);
            let at = self.pos;
            let Some(&b) = bytes.get(at) else { break };
            match b {
                b'\n' => {
                    self.pos = at + 1;
                    self.line_start = true;
                }
                b'$' => match match_dollar(src, at, self.in_code())
                    .or_else(|| match_named(src, at, self.in_code(), self.names))
                {
                    Some(p) => return Some(self.emit(at, p)),
                    None => self.pos = at + 1,
                },
                b'{' => match match_base_dir(src, at) {
                    Some(p) => return Some(self.emit(at, p)),
                    None => self.pos = at + 1,
                },
                b'`' => {
                    let n = run_len(bytes, at, b'`');
                    if self.in_code() {
                        self.pos = at + n;
                    } else {
                        self.open_span(at, n);
                    }
                }
                b'\\' => {
                    let k = run_len(bytes, at, b'\\');
                    let after = at + k;
                    self.pos = after;
                    if k.is_multiple_of(2) {
                        // Pairs of backslashes are literal and escape nothing.
                        continue;
                    }
                    match bytes.get(after) {
                        // `\$` outside code always escapes the dollar. Inside code it escapes
                        // only a placeholder that would otherwise be filled there, so shell
                        // snippets such as "\$HOME" in a fence are left exactly as written.
                        Some(b'$')
                            if !self.in_code() || match_dollar(src, after, true).is_some() =>
                        {
                            // Drop the last backslash; the dollar starts the next text run
                            // and is never looked at as a placeholder.
                            self.pos = after + 1;
                            if let Some(text) = self.cut(after - 1, after) {
                                return Some(Token::Text(text));
                            }
                        }
                        // An escaped backtick outside code is literal and opens no span.
                        Some(b'`') if !self.in_code() => self.pos = after + 1,
                        _ => {}
                    }
                }
                _ => self.pos = at + 1,
            }
        }
        let rest = self.cut(src.len(), src.len());
        rest.map(Token::Text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &str) -> Vec<Token<'_>> {
        Scanner::new(src).collect()
    }

    fn names(src: &str) -> Vec<&str> {
        Scanner::new(src)
            .filter_map(|t| match t {
                Token::Placeholder(p) => Some(p.name),
                Token::Text(_) => None,
            })
            .collect()
    }

    /// Concatenating the text of all tokens (placeholders as raw) rebuilds the template, except
    /// for removed escape backslashes.
    fn rebuild(src: &str) -> String {
        Scanner::new(src)
            .map(|t| match t {
                Token::Text(t) => t,
                Token::Placeholder(p) => p.raw,
            })
            .collect()
    }

    #[test]
    fn empty_template_yields_nothing() {
        assert!(tokens("").is_empty());
    }

    #[test]
    fn plain_text_is_one_token() {
        assert_eq!(tokens("hello world"), vec![Token::Text("hello world")]);
        assert_eq!(tokens("a\nb\n"), vec![Token::Text("a\nb\n")]);
    }

    #[test]
    fn text_and_placeholders_alternate() {
        let toks = tokens("a $0 b");
        assert_eq!(toks.len(), 3);
        assert_eq!(toks[0], Token::Text("a "));
        assert!(matches!(
            toks[1],
            Token::Placeholder(Placeholder {
                raw: "$0",
                name: "0",
                kind: Kind::Index(Some(0))
            })
        ));
        assert_eq!(toks[2], Token::Text(" b"));
    }

    #[test]
    fn kinds_and_names() {
        let cases: &[(&str, &str, Kind)] = &[
            ("$ARGUMENTS", "ARGUMENTS", Kind::AllArguments),
            ("$ARGUMENTS[3]", "ARGUMENTS[3]", Kind::Index(Some(3))),
            ("${12}", "12", Kind::Index(Some(12))),
            ("$7", "7", Kind::Index(Some(7))),
            ("$SESSION_ID", "SESSION_ID", Kind::SessionId),
            ("${SESSION_ID}", "SESSION_ID", Kind::SessionId),
            ("${CLAUDE_SESSION_ID}", "CLAUDE_SESSION_ID", Kind::SessionId),
            ("${CLAUDE_SKILL_DIR}", "CLAUDE_SKILL_DIR", Kind::SkillDir),
            ("{baseDir}", "baseDir", Kind::SkillDir),
        ];
        for &(src, name, kind) in cases {
            let toks = tokens(src);
            assert_eq!(
                toks,
                vec![Token::Placeholder(Placeholder {
                    raw: src,
                    name,
                    kind
                })],
                "{src}"
            );
        }
    }

    #[test]
    fn index_overflow_is_none() {
        let toks = tokens("${999999999999999999999}");
        assert!(matches!(
            toks[..],
            [Token::Placeholder(Placeholder {
                kind: Kind::Index(None),
                ..
            })]
        ));
        let toks = tokens("$ARGUMENTS[99999999999999999999999]");
        assert!(matches!(
            toks[..],
            [Token::Placeholder(Placeholder {
                kind: Kind::Index(None),
                ..
            })]
        ));
    }

    #[test]
    fn malformed_forms_are_text() {
        for src in [
            "$",
            "$$",
            "${",
            "${}",
            "${x}",
            "${1",
            "${1x}",
            "$ARGUMENTSX",
            "$ARGUMENTS_",
            "$SESSION_IDX",
            "$SESSION",
            "$CLAUDE_SKILL_DIR",
            "{baseDir",
            "{basedir}",
            "$ ARGUMENTS",
            "${SESSION_ID",
        ] {
            assert!(names(src).is_empty(), "{src:?} gave {:?}", names(src));
            assert_eq!(rebuild(src), src);
        }
    }

    #[test]
    fn arguments_bracket_without_index() {
        assert_eq!(names("$ARGUMENTS[x]"), ["ARGUMENTS"]);
        assert_eq!(names("$ARGUMENTS[]"), ["ARGUMENTS"]);
        assert_eq!(names("$ARGUMENTS[1"), ["ARGUMENTS"]);
    }

    #[test]
    fn bare_index_is_maximal() {
        assert_eq!(names("$100"), ["100"]);
        assert_eq!(names("$1a"), ["1"]);
    }

    #[test]
    fn inline_code_hides_bare_index_only() {
        assert_eq!(names("`$1`"), Vec::<&str>::new());
        assert_eq!(names("`$ARGUMENTS ${1}`"), ["ARGUMENTS", "1"]);
        assert_eq!(names("`a` $1 `b`"), ["1"]);
        assert_eq!(names("``a ` $1``"), Vec::<&str>::new());
        assert_eq!(names("``a`` $1"), ["1"]);
    }

    #[test]
    fn unmatched_backticks_are_text() {
        assert_eq!(names("` $1"), ["1"]);
        assert_eq!(names("`` $1 `"), ["1"]);
        assert_eq!(names("` ` ` $1"), ["1"]);
        assert_eq!(rebuild("` ` `"), "` ` `");
    }

    #[test]
    fn code_span_stops_at_blank_line_and_fence() {
        assert_eq!(names("`a\nb $1`"), Vec::<&str>::new());
        assert_eq!(names("`a\n\n$1`"), ["1"]);
        assert_eq!(names("`a\n```\n$1\n```\n$2`"), ["2"]);
    }

    #[test]
    fn escaped_backtick_opens_no_span() {
        assert_eq!(names("\\`$1\\`"), ["1"]);
        assert_eq!(names("\\\\`$1\\\\`"), Vec::<&str>::new());
    }

    #[test]
    fn fences_hide_bare_index() {
        assert_eq!(names("```\n$1\n```\n$2"), ["2"]);
        assert_eq!(names("~~~sh\n$1\n~~~\n$2"), ["2"]);
        assert_eq!(names("   ```\n$1\n   ```\n$2"), ["2"]);
        assert_eq!(names("````\n```\n$1\n````\n$2"), ["2"]);
        assert_eq!(names("```\n$1\n~~~\n$2"), Vec::<&str>::new());
        assert_eq!(names("```\n$1\n``` x\n$2"), Vec::<&str>::new());
        assert_eq!(names("```\n$1\n```  \r\n$2"), ["2"]);
        assert_eq!(names("```\n${1} $ARGUMENTS\n```"), ["1", "ARGUMENTS"]);
    }

    #[test]
    fn four_spaces_do_not_open_a_fence() {
        assert_eq!(names("    ```\n$1"), ["1"]);
    }

    #[test]
    fn backtick_fence_info_with_backtick_is_inline() {
        // "``` a ` b" is not a fence; its run of three backticks finds no closer.
        assert_eq!(names("``` a ` b\n$1"), ["1"]);
    }

    #[test]
    fn unclosed_fence_runs_to_end() {
        assert_eq!(names("text $1\n```\n$2\n$3"), ["1"]);
    }

    #[test]
    fn fence_must_start_line() {
        assert_eq!(names("a ```\n$1"), ["1"]);
    }

    #[test]
    fn escapes() {
        assert_eq!(tokens("\\$1"), vec![Token::Text("$1")]);
        assert_eq!(tokens("a\\$1"), vec![Token::Text("a"), Token::Text("$1")]);
        assert_eq!(names("\\\\$1"), ["1"]);
        assert_eq!(rebuild("\\\\$1"), "\\\\$1");
        assert_eq!(rebuild("\\\\\\$1"), "\\\\$1");
        assert_eq!(rebuild("\\x"), "\\x");
        assert_eq!(rebuild("\\"), "\\");
        assert_eq!(rebuild("\\$"), "$");
    }

    #[test]
    fn escapes_inside_code_only_touch_placeholders() {
        assert_eq!(rebuild("```\n\\$HOME \\$1\n```"), "```\n\\$HOME \\$1\n```");
        assert_eq!(rebuild("```\n\\$ARGUMENTS\n```"), "```\n$ARGUMENTS\n```");
        assert!(names("```\n\\$ARGUMENTS\n```").is_empty());
        assert_eq!(rebuild("`\\$1` \\$1"), "`\\$1` $1");
    }

    #[test]
    fn multibyte_text_survives() {
        assert_eq!(names("é$0ü"), ["0"]);
        assert_eq!(rebuild("é$0ü€`ß`"), "é$0ü€`ß`");
        assert_eq!(names("$é ${é} {é}"), Vec::<&str>::new());
        assert_eq!(names("$ARGUMENTSé"), ["ARGUMENTS"]);
    }

    #[test]
    fn pathological_backticks_stay_cheap() {
        let src = "` ".repeat(20_000) + "$1";
        assert_eq!(names(&src), ["1"]);
        let src = "`` ` ".repeat(10_000);
        assert_eq!(rebuild(&src), src);
        // Escaped backticks shorten runs, so each opener differs from every run the closer
        // search sees; the failure cache keeps this linear.
        let run = "`".repeat(40);
        let src = format!("\\{run} ").repeat(5_000) + "$1";
        assert_eq!(names(&src), ["1"]);
    }
}
