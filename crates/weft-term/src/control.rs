//! Text from a model, a file or a server made safe to print on a terminal.

/// `text` with every control character shown as an escape instead of acting on the terminal:
/// `\e` for escape (no colour changes, title rewrites or cursor moves), `\a`, `\b`, `\r`,
/// `\t`, `\n` by name, others as `\x7f` / `\u{9b}` (C1 controls too). Printable text,
/// including non-ASCII letters, is unchanged.
///
/// ```
/// use weft_term::printable;
///
/// assert_eq!(printable("rm -rf x\u{1b}[2K\rls"), "rm -rf x\\e[2K\\rls");
/// assert_eq!(printable("naïve\u{9b}"), "naïve\\u{9b}");
/// ```
pub fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{1b}' => out.push_str("\\e"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_is_escaped() {
        for code in (0u32..0x20).chain(0x7f..0xa0) {
            let c = char::from_u32(code).unwrap_or(' ');
            let shown = printable(&format!("a{c}b"));
            assert!(!shown.chars().any(char::is_control), "{code:#x}: {shown:?}");
            assert!(shown.starts_with('a') && shown.ends_with('b'));
        }
        assert_eq!(printable("plain text"), "plain text");
        assert_eq!(printable("\u{0}"), "\\x00");
    }
}
