//! Hidden Unicode: characters that change what a reader sees without being seen.
//!
//! Bidirectional overrides reorder text (the "Trojan Source" trick) and tag characters carry
//! invisible ASCII that models read: both are high. Zero-width characters are medium when
//! they sit in Latin text or commands; between letters of scripts that need them (Persian's
//! zero-width non-joiner, Indic conjuncts) and inside emoji sequences they are normal text.

use crate::finding::{Finding, Rule, Severity};
use crate::rules::{TextFile, finding_at};
use crate::text::LineIndex;

/// What kind of hidden character.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hidden {
    /// Overrides and isolates that reorder text.
    Bidi,
    /// U+E0000..U+E007F: invisible ASCII.
    Tag,
    /// Zero-width spaces, joiners and word joiners.
    ZeroWidth,
}

fn classify(c: char) -> Option<Hidden> {
    match c {
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => Some(Hidden::Bidi),
        '\u{E0000}'..='\u{E007F}' => Some(Hidden::Tag),
        '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{180E}' | '\u{FEFF}' => {
            Some(Hidden::ZeroWidth)
        }
        _ => None,
    }
}

/// Emoji and their modifiers: a zero-width joiner between them builds one glyph.
fn is_emoji_part(c: char) -> bool {
    matches!(
        c,
        '\u{1F000}'..='\u{1FAFF}'
            | '\u{2600}'..='\u{27BF}'
            | '\u{2B00}'..='\u{2BFF}'
            | '\u{FE0F}'
            | '\u{20E3}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Letters of a script where zero-width (non-)joiners are part of spelling.
fn is_joining_script(c: char) -> bool {
    c.is_alphabetic() && !c.is_ascii() && !matches!(c, '\u{0100}'..='\u{024F}')
}

/// A zero-width character is normal text when both neighbours make it so.
fn zero_width_is_normal(c: char, prev: Option<char>, next: Option<char>) -> bool {
    // A BOM at the very start of a file is a byte-order mark.
    if c == '\u{FEFF}' && prev.is_none() {
        return true;
    }
    if !matches!(c, '\u{200C}' | '\u{200D}') {
        return false;
    }
    let (Some(p), Some(n)) = (prev, next) else {
        return false;
    };
    (is_emoji_part(p) && is_emoji_part(n)) || (is_joining_script(p) && is_joining_script(n))
}

/// Tag characters right after an emoji flag sequence (🏴 + tags) are a subdivision flag.
fn tag_is_flag(prev: Option<char>) -> bool {
    matches!(prev, Some('\u{1F3F4}' | '\u{E0020}'..='\u{E007F}'))
}

/// Reports the first hidden character of each kind in a file, with how many there are.
pub(crate) fn scan(file: &TextFile<'_>, out: &mut Vec<Finding>) {
    // Every hidden character is outside ASCII; most files are ASCII (a fast check).
    if file.bytes.is_ascii() {
        return;
    }
    let mut first: Vec<(Hidden, usize, usize)> = Vec::new(); // kind, offset, count
    let mut prev: Option<char> = None;
    let mut chars = file.text.char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let kind = classify(c).filter(|k| match k {
            Hidden::ZeroWidth => !zero_width_is_normal(c, prev, next),
            Hidden::Tag => !tag_is_flag(prev),
            Hidden::Bidi => true,
        });
        if let Some(kind) = kind {
            match first.iter_mut().find(|(k, _, _)| *k == kind) {
                Some(entry) => entry.2 += 1,
                None => first.push((kind, offset, 1)),
            }
        }
        prev = Some(c);
    }
    if first.is_empty() {
        return;
    }
    let index = LineIndex::new(file.text.as_bytes());
    for (kind, offset, count) in first {
        let (severity, what) = match kind {
            Hidden::Bidi => (
                Severity::High,
                "bidirectional override or isolate characters, which make text display in a different order than it is read",
            ),
            Hidden::Tag => (
                Severity::High,
                "Unicode tag characters, invisible ASCII that a model reads but a person does not see",
            ),
            Hidden::ZeroWidth => (
                Severity::Medium,
                "zero-width characters in Latin text, which hide words from a reader or split them to slip past filters",
            ),
        };
        let end = offset + file.text[offset..].chars().next().map_or(1, char::len_utf8);
        out.push(finding_at(
            file.path,
            file.text.as_bytes(),
            &index,
            (offset, end),
            (Rule::HiddenUnicode, severity),
            format!("{count} {what}"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(text: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        scan(
            &TextFile {
                path: "SKILL.md",
                bytes: text.as_bytes(),
                text,
                is_script: false,
            },
            &mut out,
        );
        out
    }

    #[test]
    fn emoji_sequences_and_persian_are_normal() {
        assert!(findings("team 👨\u{200D}💻 rocks").is_empty());
        assert!(findings("می\u{200C}خواهم").is_empty());
        assert!(findings("\u{FEFF}---\nname: x\n").is_empty());
    }

    #[test]
    fn hidden_characters_are_reported_once_per_kind() {
        let f = findings("run\u{200B} this\u{200B}\nand \u{202E}txt.exe\n");
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].severity, Severity::Medium);
        assert!(f[0].message.starts_with("2 zero-width"));
        assert_eq!((f[0].line, f[0].column), (Some(1), Some(4)));
        assert_eq!(f[1].severity, Severity::High);
        assert_eq!(f[1].line, Some(2));
    }
}
