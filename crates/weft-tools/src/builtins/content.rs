//! Telling text from binary content and cutting text without splitting a character.

/// How much of a file's start is checked for a NUL byte.
pub(crate) const SNIFF_LEN: usize = 8 * 1024;

/// True when `start` (a file's first bytes) holds a NUL byte, the sign of a binary file.
pub(crate) fn looks_binary(start: &[u8]) -> bool {
    start[..start.len().min(SNIFF_LEN)].contains(&0)
}

/// The largest index `<= at` that does not fall inside a UTF-8 sequence of `bytes`.
pub(crate) fn floor_boundary(bytes: &[u8], at: usize) -> usize {
    let mut at = at.min(bytes.len());
    // Only a few continuation bytes can precede a boundary in valid UTF-8; in invalid data
    // give up after four rather than eat the whole buffer.
    let limit = at.saturating_sub(3);
    while at > limit && at < bytes.len() && is_continuation(bytes[at]) {
        at -= 1;
    }
    at
}

/// The smallest index `>= at` that does not fall inside a UTF-8 sequence of `bytes`.
pub(crate) fn ceil_boundary(bytes: &[u8], at: usize) -> usize {
    let mut at = at.min(bytes.len());
    let limit = (at + 3).min(bytes.len());
    while at < limit && is_continuation(bytes[at]) {
        at += 1;
    }
    at
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// `text` cut to at most `max` characters, with `…` when something was cut.
pub(crate) fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_means_a_nul_in_the_sniffed_prefix() {
        assert!(looks_binary(b"ab\0c"));
        assert!(!looks_binary("héllo".as_bytes()));
        let mut late = vec![b'a'; SNIFF_LEN];
        late.push(0);
        assert!(!looks_binary(&late));
    }

    #[test]
    fn boundaries_never_split_a_character() {
        let text = "aé€b".as_bytes(); // a, é (2 bytes), € (3 bytes), b
        assert_eq!(floor_boundary(text, 2), 1);
        assert_eq!(floor_boundary(text, 5), 3);
        assert_eq!(floor_boundary(text, 6), 6);
        assert_eq!(ceil_boundary(text, 2), 3);
        assert_eq!(ceil_boundary(text, 4), 6);
        assert_eq!(floor_boundary(text, 100), text.len());
    }

    #[test]
    fn truncates_by_characters() {
        assert_eq!(truncate_chars("ééé", 2), "éé…");
        assert_eq!(truncate_chars("éé", 2), "éé");
    }
}
