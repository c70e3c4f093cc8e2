//! The weft format: the `## Skills` section of the system prompt.

use super::fit::{DESCRIPTION_CAP, DescriptionCost, EntryCost, Fit};
use super::{CatalogEntry, note_for, push_description};

/// Everything before the first entry line.
pub(super) const HEADER: &str = "## Skills\n\nSkills are instructions for specific tasks. When a task matches a skill's description, call the use_skill tool with the skill's name before starting; its instructions come back as the tool result.\n\n";

/// Characters of the frame (the header; the list needs no closing). `HEADER` is ASCII.
pub(super) const FRAME: usize = HEADER.len();

/// The description as rendered: whitespace runs (newlines included) become one space, the
/// ends are trimmed.
fn collapsed(description: &str) -> Collapsed<'_> {
    Collapsed {
        chars: description.trim_start().chars(),
        held: None,
    }
}

/// The iterator behind [`collapsed`]: one pass, no allocation.
struct Collapsed<'a> {
    chars: std::str::Chars<'a>,
    /// A character read after a whitespace run, returned after the single space.
    held: Option<char>,
}

impl Iterator for Collapsed<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if let Some(c) = self.held.take() {
            return Some(c);
        }
        let c = self.chars.next()?;
        if !c.is_whitespace() {
            return Some(c);
        }
        // A whitespace run: a space if something follows it, else the end.
        let after = self.chars.find(|c| !c.is_whitespace())?;
        self.held = Some(after);
        Some(' ')
    }
}

/// Bytes counted between two checks against the cap (summed in `u16`, which it cannot
/// overflow).
const CHUNK: usize = 1024;

/// Whether `b` is an ASCII character `char::is_whitespace` accepts: `\t`, `\n`, VT, FF,
/// `\r`, space.
fn ascii_white(b: u8) -> bool {
    // `|`, not `||`: no branch, so the counting loops below vectorise.
    (b == b' ') | (b.wrapping_sub(b'\t') < 5)
}

/// Whether `text` holds a non-ASCII whitespace character (U+0085, U+00A0, U+1680,
/// U+2000..=U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), by their UTF-8 encodings.
fn has_unicode_white(text: &[u8]) -> bool {
    // First a branch-free pass for the possible first bytes (vectorised), then a check of
    // each candidate.
    if text
        .iter()
        .map(|&b| u8::from(matches!(b, 0xC2 | 0xE1..=0xE3)))
        .fold(0, |any, x| any | x)
        == 0
    {
        return false;
    }
    let mut rest = text;
    while let Some(p) = rest.iter().position(|&b| matches!(b, 0xC2 | 0xE1..=0xE3)) {
        rest = &rest[p..];
        if matches!(
            rest,
            [0xC2, 0x85 | 0xA0, ..]
                | [0xE1, 0x9A, 0x80, ..]
                | [0xE2, 0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF, ..]
                | [0xE2, 0x81, 0x9F, ..]
                | [0xE3, 0x80, 0x80, ..]
        ) {
            return true;
        }
        rest = &rest[1..];
    }
    false
}

/// Measures the collapsed description. After the leading whitespace, each non-white
/// character counts 1, and 1 more when a whitespace run precedes it (the run becomes one
/// space; a trailing run adds nothing). Without non-ASCII whitespace (the usual case) this
/// is counted over bytes in a form the compiler vectorises: non-white bytes that start a
/// character, plus white-to-non-white byte pairs. Otherwise characters are decoded.
fn measure(description: &str) -> DescriptionCost {
    let text = description.trim_start();
    let bytes = text.as_bytes();
    if has_unicode_white(bytes) {
        return DescriptionCost::measure(collapsed(text), |_| 0);
    }
    let mut chars = 0;
    let mut start = 0;
    while start < bytes.len() && chars <= DESCRIPTION_CAP {
        let end = (start + CHUNK).min(bytes.len());
        chars += usize::from(
            bytes[start..end]
                .iter()
                .map(|&b| u16::from(!ascii_white(b) & (b & 0xC0 != 0x80)))
                .sum::<u16>(),
        );
        let from = start.max(1);
        chars += usize::from(
            bytes[from - 1..end - 1]
                .iter()
                .zip(&bytes[from..end])
                .map(|(&a, &b)| u16::from(ascii_white(a) & !ascii_white(b)))
                .sum::<u16>(),
        );
        start = end;
    }
    DescriptionCost::plain(chars)
}

/// `- name: description\n`, or `- name\n` in names-only mode or for an empty description.
pub(super) fn cost(entry: &CatalogEntry<'_>) -> EntryCost {
    let name = entry.name.chars().count();
    let description = measure(entry.description);
    EntryCost {
        names_only: name + 3,
        with_description: if description.chars() == 0 {
            name + 3
        } else {
            name + 5
        },
        description,
        note_name: name,
    }
}

pub(super) fn render(ordered: &[&CatalogEntry<'_>], costs: &[EntryCost], fit: &Fit) -> String {
    let mut out = String::with_capacity(fit.len + fit.len / 4);
    out.push_str(HEADER);
    let names_only = fit.descriptions == super::Descriptions::NamesOnly;
    let limit = fit.descriptions.limit();
    for ((entry, cost), &keep) in ordered.iter().zip(costs).zip(&fit.keep) {
        if !keep {
            continue;
        }
        out.push_str("- ");
        out.push_str(entry.name);
        if !names_only && cost.description.chars() > 0 {
            out.push_str(": ");
            push_description(
                &mut out,
                collapsed(entry.description),
                &cost.description,
                limit,
                String::push,
            );
        }
        out.push('\n');
    }
    if let Some(note) = note_for(ordered, fit, str::to_owned) {
        out.push_str(&note);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_ascii() {
        assert!(HEADER.is_ascii());
        assert_eq!(FRAME, HEADER.chars().count());
    }

    #[test]
    fn collapse_whitespace() {
        let s: String = collapsed("  a\n\tb   c\u{a0}d \n").collect();
        assert_eq!(s, "a b c d");
        assert_eq!(collapsed(" \n ").count(), 0);
    }

    #[test]
    fn unicode_whitespace_is_detected() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let text = format!("a{c}b");
            assert_eq!(
                has_unicode_white(text.as_bytes()),
                !c.is_ascii() && c.is_whitespace(),
                "U+{:04X}",
                u32::from(c)
            );
            if c.is_ascii() {
                assert_eq!(ascii_white(c as u8), c.is_whitespace(), "{c:?}");
            }
        }
    }

    #[test]
    fn byte_measure_agrees_with_collapsed() {
        let long = format!("{} \n\t tail", "word ".repeat(300));
        let long_unicode = format!("{}\u{3000}end", "café\u{a0}☕ ".repeat(200));
        let long_dashes = format!("{} x", "a — b ’c’ … ".repeat(150));
        let spaced = format!("{}z", " ".repeat(CHUNK - 1));
        for s in [
            "",
            " ",
            "a",
            " a ",
            "  a\n\tb   c\u{b}d\u{c}e\r\n",
            "x\u{1c}y",
            "\u{a0}café\u{2003}\u{2003}日本語\u{85}🚀\u{3000}",
            long.as_str(),
            long_unicode.as_str(),
            long_dashes.as_str(),
            spaced.as_str(),
            &"é ".repeat(600),
            &format!("{}  \n  {}", "x".repeat(CHUNK - 1), "y".repeat(CHUNK)),
        ] {
            assert_eq!(
                measure(s),
                DescriptionCost::measure(collapsed(s), |_| 0),
                "{s:?}"
            );
        }
    }
}
