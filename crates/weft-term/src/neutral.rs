//! Text from files, models, MCP servers and transcripts made safe to show on a terminal.
//!
//! Every character that could drive the terminal rather than be shown by it
//! ([`weft_types::is_terminal_control`]: C0 controls other than tab and line feed, DEL, C1
//! controls, bidirectional embeddings, overrides and isolates) is replaced by a visible escape
//! in Rust's notation, so nobody mistakes it for the character itself:
//!
//! | input | shown |
//! |---|---|
//! | ESC (U+001B), BEL, any other C0 control, DEL | `\x1b`, `\x07`, ... `\x7f` |
//! | a C1 control such as CSI (U+009B) or NEL (U+0085) | `\u{9b}`, `\u{85}` |
//! | a bidirectional control (U+202A–U+202E, U+2066–U+2069) | `\u{202e}`, ... |
//! | a byte that is not UTF-8 (only in [`Neutralising`]) | `\xff` |
//! | carriage return before a line feed | kept (a Windows line end) |
//! | a lone carriage return | `\x0d` |
//!
//! One character at a time is enough: once its ESC (or 8-bit CSI/OSC) is shown as text, the
//! rest of an escape sequence (`[31m`, `]52;c;...`) is ordinary text. Tab and line feed are
//! kept, and so is everything else printable, whatever the script. The implicit directional
//! marks (LRM U+200E, RLM U+200F, ALM U+061C) are kept too: they cannot reorder text the way
//! overrides and isolates do, and right-to-left writing uses them legitimately.
//!
//! Styled text — weft's own escape sequences around content already neutralised — has two
//! forms of its own: [`neutralise_styled`] for a terminal (weft's style sequences kept, any
//! other control neutralised) and [`unstyle`] for a pipe (weft's style sequences dropped).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use weft_types::is_terminal_control;

/// `text` with every terminal control shown as a visible escape (see the module docs); the
/// text itself when there is none (the common case, without copying).
///
/// ```
/// use weft_term::neutralise;
///
/// assert_eq!(neutralise("a\x1b[31mRED\x1b]0;pwned\x07"), "a\\x1b[31mRED\\x1b]0;pwned\\x07");
/// assert_eq!(neutralise("x\u{202e}y\u{9b}2J"), "x\\u{202e}y\\u{9b}2J");
/// assert_eq!(neutralise("tabs\tand\r\nlines"), "tabs\tand\r\nlines");
/// assert_eq!(neutralise("naïve 日本"), "naïve 日本");
/// ```
pub fn neutralise(text: &str) -> Cow<'_, str> {
    let Some(first) = first_escape(text.as_bytes(), None) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    push_neutralised(&text[first..], None, &mut out);
    Cow::Owned(out)
}

/// The byte index of the first character of `text` (UTF-8) shown escaped, given the byte
/// after it (`next`, when known): [`is_terminal_control`] read on the encoded bytes, so that
/// listings of thousands of lines are scanned without decoding a character (a test checks
/// that the two agree on every character).
fn first_escape(text: &[u8], next: Option<u8>) -> Option<usize> {
    let at = |i: usize| text.get(i).copied();
    let mut from = 0;
    loop {
        // Printable ASCII, most of any text, is skipped in one tight loop.
        let i = from
            + text[from..]
                .iter()
                .position(|b| !(0x20..0x7f).contains(b))?;
        let escaped = match text[i] {
            b'\t' | b'\n' => false,
            b'\r' => at(i + 1).or(next) != Some(b'\n'),
            0..=0x1f | 0x7f => true,
            // U+0080..U+009F: C2 80..C2 9F.
            0xc2 => at(i + 1).is_some_and(|b1| (0x80..=0x9f).contains(&b1)),
            // U+202A..U+202E: E2 80 AA..AE; U+2066..U+2069: E2 81 A6..A9.
            0xe2 => match (at(i + 1), at(i + 2)) {
                (Some(0x80), Some(b2)) => (0xaa..=0xae).contains(&b2),
                (Some(0x81), Some(b2)) => (0xa6..=0xa9).contains(&b2),
                _ => false,
            },
            _ => false,
        };
        if escaped {
            return Some(i);
        }
        from = i + 1;
    }
}

/// Appends `text` neutralised to `out`; `next` is the byte after `text`, when known (a
/// carriage return at the end is kept only before a line feed). Runs without controls are
/// copied whole.
fn push_neutralised(text: &str, next: Option<u8>, out: &mut String) {
    let mut rest = text;
    while let Some(i) = first_escape(rest.as_bytes(), next) {
        out.push_str(&rest[..i]);
        let Some(c) = rest[i..].chars().next() else {
            return;
        };
        push_escape(c, out);
        rest = &rest[i + c.len_utf8()..];
    }
    out.push_str(rest);
}

fn push_escape(c: char, out: &mut String) {
    let code = u32::from(c);
    if code < 0x80 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

/// Whether `text[i..]` starts one of the escape sequences weft's styling writes: SGR
/// (`ESC [ 1;31 m`, colours and attributes) and erase in line (`ESC [ 2 K`, the status line).
/// Their length in bytes.
fn style_sequence(text: &[u8], i: usize) -> Option<usize> {
    if text.get(i) != Some(&0x1b) || text.get(i + 1) != Some(&b'[') {
        return None;
    }
    let params = text[i + 2..]
        .iter()
        .take_while(|b| b.is_ascii_digit() || **b == b';')
        .count();
    match text.get(i + 2 + params) {
        Some(b'm' | b'K') => Some(params + 3),
        _ => None,
    }
}

/// `styled` with weft's style sequences kept (`keep`) or dropped, and everything else
/// neutralised; with `keep`, a carriage return is kept anywhere (the status line redraws
/// its line with one).
fn styled_text(styled: &str, keep: bool) -> Cow<'_, str> {
    let bytes = styled.as_bytes();
    let mut out = String::new();
    // The start of the run not yet copied into `out`.
    let mut copied = 0;
    let mut i = 0;
    while let Some(found) = first_escape(&bytes[i..], None) {
        let at = i + found;
        let (len, keep_it) = match style_sequence(bytes, at) {
            Some(len) => (len, keep),
            None if keep && bytes[at] == b'\r' => (1, true),
            None => {
                i = at + styled[at..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
        };
        push_neutralised(&styled[copied..at], Some(bytes[at]), &mut out);
        if keep_it {
            out.push_str(&styled[at..at + len]);
        }
        i = at + len;
        copied = i;
    }
    if copied == 0 && first_escape(bytes, None).is_none() {
        return Cow::Borrowed(styled);
    }
    push_neutralised(&styled[copied..], None, &mut out);
    Cow::Owned(out)
}

/// Styled text as a terminal gets it: weft's own style sequences (SGR colours and
/// attributes, erase in line) and carriage returns as they are, every other control
/// neutralised. Text whose content was neutralised first is unchanged; a caller that forgot
/// to neutralise lets at most a colour through, never a title, a clipboard write or a
/// cursor movement.
///
/// ```
/// use weft_term::neutralise_styled;
///
/// assert_eq!(neutralise_styled("\r\x1b[2K\x1b[2m⠋ wait\x1b[22m"), "\r\x1b[2K\x1b[2m⠋ wait\x1b[22m");
/// assert_eq!(neutralise_styled("\x1b[1mok\x1b]52;c;eA==\x07"), "\x1b[1mok\\x1b]52;c;eA==\\x07");
/// ```
pub fn neutralise_styled(styled: &str) -> Cow<'_, str> {
    styled_text(styled, true)
}

/// Styled text as a pipe or a file gets it: weft's own style sequences dropped, every other
/// control neutralised as [`neutralise`] does.
///
/// ```
/// use weft_term::unstyle;
///
/// assert_eq!(unstyle("\x1b[1;31merror:\x1b[22;39m no\x1b[2J"), "error: no\\x1b[2J");
/// assert_eq!(unstyle("plain"), "plain");
/// ```
pub fn unstyle(styled: &str) -> Cow<'_, str> {
    styled_text(styled, false)
}

/// JSON text with every terminal control inside its strings written as a `\uXXXX` escape:
/// the same JSON value, and nothing that drives a terminal. `serde_json` already escapes
/// C0 controls; this adds DEL, C1 and the bidirectional controls, which it writes raw.
///
/// ```
/// use weft_term::escape_json_controls;
///
/// let json = serde_json::to_string("a\u{9b}b\u{202e}c").unwrap();
/// assert_eq!(escape_json_controls(&json), r#""a\u009bb\u202ec""#);
/// ```
pub fn escape_json_controls(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_terminal_control) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_terminal_control(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A writer that neutralises everything written through it (see the module docs), also when
/// a character, or a carriage return and its line feed, arrive in separate writes: the
/// unfinished end of a write waits for the next one. Bytes that are not UTF-8 are shown as
/// `\xHH`. [`flush`](Write::flush) passes on what is complete; [`finish`](Self::finish), or
/// dropping the writer, writes whatever is still waiting.
#[derive(Debug)]
pub struct Neutralising<W: Write> {
    inner: W,
    /// At most the first bytes of one character, or one carriage return.
    pending: Vec<u8>,
}

impl<W: Write> Neutralising<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }

    /// Writes what is waiting (an incomplete character as `\xHH` bytes, a carriage return as
    /// `\x0d`) and flushes: the end of the output. Dropping the writer does the same.
    pub fn finish(&mut self) -> io::Result<()> {
        self.write_pending()?;
        self.inner.flush()
    }

    /// The wrapped writer, once what is waiting has been written (as [`finish`](Self::finish)
    /// writes it): for text that must reach it past the neutraliser — weft's own styling,
    /// neutralised by [`neutralise_styled`] instead (weft-cli's output module is the one
    /// caller).
    pub fn past_neutraliser(&mut self) -> io::Result<&mut W> {
        self.write_pending()?;
        Ok(&mut self.inner)
    }

    fn write_pending(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let mut out = String::new();
        for b in pending {
            let _ = write!(out, "\\x{b:02x}");
        }
        self.inner.write_all(out.as_bytes())
    }

    /// Neutralises `data` (the pending bytes already in front) into `out`, keeping an
    /// unfinished character or a final carriage return back in `pending`.
    fn convert(&mut self, mut data: &[u8], out: &mut String) {
        loop {
            match std::str::from_utf8(data) {
                Ok(text) => {
                    let (done, rest) = match text.strip_suffix('\r') {
                        Some(done) => (done, "\r"),
                        None => (text, ""),
                    };
                    push_neutralised(done, rest.as_bytes().first().copied(), out);
                    self.pending.extend_from_slice(rest.as_bytes());
                    return;
                }
                Err(e) => {
                    let (valid, rest) = data.split_at(e.valid_up_to());
                    // Valid UTF-8 by construction.
                    let text = std::str::from_utf8(valid).unwrap_or_default();
                    push_neutralised(text, rest.first().copied(), out);
                    match e.error_len() {
                        None => {
                            self.pending.extend_from_slice(rest);
                            return;
                        }
                        Some(len) => {
                            for b in &rest[..len] {
                                let _ = write!(out, "\\x{b:02x}");
                            }
                            data = &rest[len..];
                        }
                    }
                }
            }
        }
    }
}

impl<W: Write> Write for Neutralising<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // The common case: whole characters, nothing to show escaped, no line end to wait for.
        if self.pending.is_empty()
            && buf.last() != Some(&b'\r')
            && first_escape(buf, None).is_none()
            && std::str::from_utf8(buf).is_ok()
        {
            self.inner.write_all(buf)?;
            return Ok(buf.len());
        }
        let mut out = String::with_capacity(buf.len() + 8);
        if self.pending.is_empty() {
            self.convert(buf, &mut out);
        } else {
            let mut data = std::mem::take(&mut self.pending);
            data.extend_from_slice(buf);
            self.convert(&data, &mut out);
        }
        self.inner.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Neutralising<W> {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Writes `pieces` one write each and returns what came out.
    fn through_writer(pieces: &[&[u8]]) -> String {
        let mut out = Vec::new();
        {
            let mut w = Neutralising::new(&mut out);
            for p in pieces {
                w.write_all(p).unwrap();
                w.flush().unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_control_class_is_shown_and_nothing_else_changes() {
        let cases = [
            (
                "\0\x01\x07\x08\x0b\x0c\x1b\x7f",
                "\\x00\\x01\\x07\\x08\\x0b\\x0c\\x1b\\x7f",
            ),
            (
                "\u{80}\u{85}\u{9b}\u{9d}\u{9f}",
                "\\u{80}\\u{85}\\u{9b}\\u{9d}\\u{9f}",
            ),
            (
                "\u{202a}\u{202e}\u{2066}\u{2069}",
                "\\u{202a}\\u{202e}\\u{2066}\\u{2069}",
            ),
            ("over\rwrite", "over\\x0dwrite"),
            ("end\r", "end\\x0d"),
            ("dos\r\nline\n\ttab", "dos\r\nline\n\ttab"),
            (
                "\u{a0}\u{200b}\u{2065}\u{206a}é中🙂",
                "\u{a0}\u{200b}\u{2065}\u{206a}é中🙂",
            ),
        ];
        for (input, shown) in cases {
            assert_eq!(neutralise(input), shown, "{input:?}");
            assert_eq!(through_writer(&[input.as_bytes()]), shown, "{input:?}");
            assert!(!neutralise(input).chars().any(is_terminal_control) || input.contains('\r'));
        }
        assert!(matches!(neutralise("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_byte_scan_agrees_with_the_definition_on_every_character() {
        for code in 0..=0x10_ffff_u32 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let mut buf = [0; 4];
            let encoded = c.encode_utf8(&mut buf).as_bytes();
            let expected = is_terminal_control(c) && c != '\r';
            // A carriage return before a line feed is kept, alone it is shown.
            assert_eq!(
                first_escape(encoded, Some(b'\n')).is_some(),
                expected,
                "U+{code:04X}"
            );
        }
        assert_eq!(first_escape(b"\r", None), Some(0));
    }

    #[test]
    fn the_writer_sees_through_split_characters_and_line_ends() {
        let csi = "\u{9b}".as_bytes();
        assert_eq!(
            through_writer(&[b"a", &csi[..1], &csi[1..], b"2J"]),
            "a\\u{9b}2J"
        );
        let rlo = "\u{202e}".as_bytes();
        assert_eq!(
            through_writer(&[&rlo[..1], &rlo[1..2], &rlo[2..]]),
            "\\u{202e}"
        );
        assert_eq!(
            through_writer(&[b"line\r", b"\nnext\r", b"x"]),
            "line\r\nnext\\x0dx"
        );
        // Bytes that are not UTF-8, and a character cut off at the very end.
        assert_eq!(through_writer(&[b"a\xff\x9bb"]), "a\\xff\\x9bb");
        assert_eq!(through_writer(&[b"end\xe2\x80"]), "end\\xe2\\x80");
    }

    #[test]
    fn implicit_directional_marks_are_kept() {
        // LRM, RLM and ALM only steer neutral characters; Hebrew and Arabic text uses them.
        for mark in ["\u{200e}", "\u{200f}", "\u{61c}"] {
            let text = format!("שלום{mark} (1)");
            assert_eq!(neutralise(&text), text);
        }
    }

    #[test]
    fn styled_text_keeps_only_weft_sequences_on_a_terminal_and_none_through_a_pipe() {
        let styled = "\r\x1b[2K\x1b[1;31merror:\x1b[22;39m a\x1b[2Jb\x1b]0;t\x07\u{9b}c\x1b[1m";
        assert_eq!(
            neutralise_styled(styled),
            "\r\x1b[2K\x1b[1;31merror:\x1b[22;39m a\\x1b[2Jb\\x1b]0;t\\x07\\u{9b}c\x1b[1m"
        );
        assert_eq!(
            unstyle(styled),
            "\\x0derror: a\\x1b[2Jb\\x1b]0;t\\x07\\u{9b}c"
        );
        // A lone ESC, an unfinished sequence, a sequence with other parameters.
        for foreign in ["\x1b", "\x1b[", "\x1b[31", "\x1b[?25l", "\x1b[1A"] {
            let shown = neutralise_styled(foreign);
            assert!(!shown.contains('\x1b'), "{foreign:?}: {shown:?}");
            assert!(!unstyle(foreign).contains('\x1b'), "{foreign:?}");
        }
        assert!(matches!(neutralise_styled("plain é"), Cow::Borrowed(_)));
        assert_eq!(unstyle("line\r\n"), "line\r\n");
    }

    #[test]
    fn past_the_neutraliser_comes_after_what_was_waiting() {
        let mut out = Vec::new();
        {
            let mut w = Neutralising::new(&mut out);
            w.write_all(b"a\xe2").unwrap();
            w.past_neutraliser().unwrap().write_all(b"\x1b[1m").unwrap();
            w.write_all(b"b").unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "a\\xe2\x1b[1mb");
    }

    #[test]
    fn json_stays_json_and_holds_no_control() {
        let value = serde_json::json!({"name": "a\u{1b}]52;c;eA==\u{7}", "d": "x\u{9b}y\u{2067}z"});
        let text = serde_json::to_string(&value).unwrap();
        let escaped = escape_json_controls(&text);
        assert!(!escaped.chars().any(is_terminal_control), "{escaped}");
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back, value);
        assert_eq!(neutralise(&escaped), escaped);
    }
}
