//! The characters that can drive a terminal rather than be shown by it: one definition for the
//! parser (which refuses them in decoded values) and the display (which neutralises them).

/// True for a character that can control a terminal or reorder what it shows: the C0 controls
/// other than tab and line feed (carriage return included: it can overwrite a line), DEL, the
/// C1 controls (U+0080–U+009F, among them the 8-bit CSI, OSC and NEL) and the bidirectional
/// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) behind "Trojan Source".
///
/// ```
/// use weft_types::is_terminal_control;
///
/// assert!(is_terminal_control('\u{1b}'));
/// assert!(is_terminal_control('\u{202e}'));
/// assert!(!is_terminal_control('\n') && !is_terminal_control('\t') && !is_terminal_control('é'));
/// ```
pub const fn is_terminal_control(c: char) -> bool {
    matches!(
        c,
        '\0'..='\u{8}'
            | '\u{b}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}
