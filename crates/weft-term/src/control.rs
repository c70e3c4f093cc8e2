//! Text made safe for a terminal. Model answers, file contents and MCP replies may carry
//! escape sequences that move the cursor, recolour or rewrite what was printed, set the window
//! title, or reorder what is displayed (bidirectional overrides, "Trojan Source"): they are
//! shown as visible marks instead of being obeyed.

use std::borrow::Cow;

/// Bidirectional embedding, override and isolate controls: they change the order in which
/// the text around them is displayed.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

fn needs_mark(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// `text` with every control character except newline and tab shown visibly: C0 controls and
/// DEL in caret notation (`ESC` is `^[`, a lone carriage return `^M`), C1 controls and
/// bidirectional controls as `<U+009B>`. Text without any is returned as it is.
///
/// ```
/// use weft_term::neutralize;
///
/// assert_eq!(neutralize("plain\ttext\n"), "plain\ttext\n");
/// assert_eq!(neutralize("\x1b[2Jgone\r"), "^[[2Jgone^M");
/// assert_eq!(neutralize("a\u{202E}b\u{9b}"), "a<U+202E>b<U+009B>");
/// ```
pub fn neutralize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_mark) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs_mark(c) {
            out.push(c);
        } else if let Some(caret) = caret(c) {
            out.push('^');
            out.push(caret);
        } else {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        }
    }
    Cow::Owned(out)
}

/// The caret-notation letter of a C0 control or DEL.
fn caret(c: char) -> Option<char> {
    let code = u32::from(c);
    match code {
        0..=0x1f => char::from_u32(code + 0x40),
        0x7f => Some('?'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_is_visible_and_nothing_else_changes() {
        for code in 0u32..0x250 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let shown = neutralize(&c.to_string()).into_owned();
            let escaped = shown
                .chars()
                .any(|s| s.is_control() && s != '\n' && s != '\t');
            assert!(!escaped, "{code:#x} reaches the terminal as {shown:?}");
            if !c.is_control() || c == '\n' || c == '\t' {
                assert_eq!(shown, c.to_string(), "{code:#x} was changed");
            }
        }
        assert_eq!(neutralize("\x07\x7f\0"), "^G^?^@");
    }
}
