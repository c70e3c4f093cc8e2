//! Positions and excerpts in a scanned text.

/// Byte offsets of line starts, built once per text that has a finding.
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line and 1-based column (in characters; an invalid UTF-8 sequence counts as
    /// one) of byte `offset`.
    pub(crate) fn position(&self, text: &[u8], offset: usize) -> (u32, u32) {
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = text
            .get(start..offset)
            .map_or(0, |prefix| String::from_utf8_lossy(prefix).chars().count());
        (to_u32(line), to_u32(column + 1))
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `text` cut to `max` characters, whitespace runs collapsed, and invisible or control
/// characters shown as `\u{...}` so an excerpt never hides what it quotes.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut last_space = false;
    for c in text.chars() {
        if count >= max {
            out.push('…');
            break;
        }
        if c.is_whitespace() && !is_invisible(c) {
            if !last_space {
                out.push(' ');
                count += 1;
            }
            last_space = true;
            continue;
        }
        last_space = false;
        if c.is_control() || is_invisible(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
        count += 1;
    }
    out.trim().to_owned()
}

/// Characters that render as nothing (or reorder text) in most viewers.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{180E}'
            | '\u{FEFF}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// True for files that run as programs: script extensions or a `#!` line.
///
/// ```
/// assert!(weft_scan::is_script("scripts/setup.sh", b"echo hi"));
/// assert!(weft_scan::is_script("tool", b"#!/usr/bin/env python3\n"));
/// assert!(!weft_scan::is_script("README.md", b"# Title"));
/// ```
pub fn is_script(path: &str, bytes: &[u8]) -> bool {
    const EXTENSIONS: [&str; 20] = [
        "sh",
        "bash",
        "zsh",
        "ksh",
        "fish",
        "py",
        "js",
        "mjs",
        "cjs",
        "ts",
        "rb",
        "pl",
        "php",
        "ps1",
        "psm1",
        "bat",
        "cmd",
        "lua",
        "applescript",
        "command",
    ];
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    bytes.starts_with(b"#!") || ext.is_some_and(|e| EXTENSIONS.contains(&e.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters() {
        let text = "ab\nçé x\n";
        let index = LineIndex::new(text.as_bytes());
        assert_eq!(index.position(text.as_bytes(), 0), (1, 1));
        assert_eq!(index.position(text.as_bytes(), 3), (2, 1));
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text.as_bytes(), x), (2, 4));
    }

    #[test]
    fn excerpts_show_hidden_characters() {
        assert_eq!(excerpt("a\u{202E}b\n\n c", 80), "a\\u{202e}b c");
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }
}
