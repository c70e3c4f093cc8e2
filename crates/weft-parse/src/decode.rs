//! From bytes to text: size limit, UTF-8, byte-order mark, control characters, positions.

use weft_types::Position;

/// The UTF-8 byte-order mark.
const BOM: &str = "\u{feff}";

/// Text decoded from a file, with the byte-order mark (if any) removed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decoded<'a> {
    pub text: &'a str,
    pub had_bom: bool,
}

/// Where decoding failed: the byte offset of the first invalid sequence and its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InvalidUtf8 {
    pub offset: usize,
    pub line: u32,
}

/// Decodes `bytes` as UTF-8 and strips a leading byte-order mark.
pub(crate) fn decode(bytes: &[u8]) -> Result<Decoded<'_>, InvalidUtf8> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(match text.strip_prefix(BOM) {
            Some(rest) => Decoded {
                text: rest,
                had_bom: true,
            },
            None => Decoded {
                text,
                had_bom: false,
            },
        }),
        Err(e) => {
            let offset = e.valid_up_to();
            let line = 1 + memchr_count(b'\n', &bytes[..offset]);
            Err(InvalidUtf8 { offset, line })
        }
    }
}

fn memchr_count(needle: u8, haystack: &[u8]) -> u32 {
    let n = haystack.iter().filter(|&&b| b == needle).count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// True for characters YAML does not allow unescaped and that have no place in a skill file:
/// C0 controls other than tab, LF and CR; DEL; C1 controls other than NEL.
pub(crate) fn is_forbidden_control(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}')
        || (('\u{80}'..='\u{9f}').contains(&c) && c != '\u{85}')
}

/// The first forbidden control character in `text`, with its byte index.
pub(crate) fn find_control(text: &str) -> Option<(usize, char)> {
    // Fast path: every forbidden character is below U+00A0, and most text is ASCII printable.
    text.char_indices().find(|&(_, c)| is_forbidden_control(c))
}

/// The 1-based line and column (in characters) of byte `index` in `text`, counting lines from
/// `first_line`.
pub(crate) fn position_at(text: &str, index: usize, first_line: u32) -> Position {
    let index = index.min(text.len());
    let before = text.get(..index).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let lines = memchr_count(b'\n', before.as_bytes());
    let column = before[line_start..].chars().count() + 1;
    Position::new(
        first_line.saturating_add(lines),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// A printable rendering of a control character for messages (`U+0080`).
pub(crate) fn describe_char(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_bom() {
        let d = decode(b"\xEF\xBB\xBF---\n").unwrap();
        assert!(d.had_bom);
        assert_eq!(d.text, "---\n");
    }

    #[test]
    fn reports_invalid_utf8_offset_and_line() {
        let err = decode(b"---\ndescription: caf\xe9\n").unwrap_err();
        assert_eq!(
            err,
            InvalidUtf8 {
                offset: 20,
                line: 2
            }
        );
    }

    #[test]
    fn finds_c1_controls_but_not_nel_or_tab() {
        assert_eq!(find_control("a\tb\u{85}c"), None);
        assert_eq!(find_control("ab\u{80}"), Some((2, '\u{80}')));
        assert_eq!(find_control("\u{0}"), Some((0, '\0')));
    }

    #[test]
    fn positions_count_characters() {
        let text = "ab\néé\u{80}";
        let (i, _) = find_control(text).unwrap();
        assert_eq!(position_at(text, i, 1), Position::new(2, 3));
        assert_eq!(position_at(text, 0, 5), Position::new(5, 1));
    }
}
