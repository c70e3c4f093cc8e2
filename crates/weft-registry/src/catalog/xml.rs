//! The XML format: skills-ref 0.1.1's `<available_skills>` block.

use std::borrow::Cow;

use super::fit::{DescriptionCost, EntryCost, Fit};
use super::{CatalogEntry, Descriptions, note_for, push_description};

const OPEN: &str = "<available_skills>\n";
const CLOSE: &str = "</available_skills>";
const SKILL_NAME_OPEN: &str = "<skill>\n<name>\n";
const NAME_CLOSE: &str = "\n</name>\n";
const DESCRIPTION_OPEN: &str = "<description>\n";
const DESCRIPTION_CLOSE: &str = "\n</description>\n";
const DESCRIPTION_EMPTY: &str = "<description>\n</description>\n";
const LOCATION_OPEN: &str = "<location>\n";
const LOCATION_CLOSE: &str = "\n</location>\n";
const SKILL_CLOSE: &str = "</skill>\n";

/// Characters of the frame (all the constants above are ASCII).
pub(super) const FRAME: usize = OPEN.len() + CLOSE.len();

/// How many characters more than one ASCII byte `b` takes once escaped (Python's
/// `html.escape` with `quote=True`); branch-free, so scans over bytes vectorise.
fn byte_extra(b: u8) -> usize {
    4 * usize::from(b == b'&')
        + 3 * usize::from((b == b'<') | (b == b'>'))
        + 5 * usize::from((b == b'"') | (b == b'\''))
}

/// Pushes `c` escaped like Python's `html.escape(s, quote=True)`.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        '\'' => out.push_str("&#x27;"),
        _ => out.push(c),
    }
}

/// `s` escaped like Python's `html.escape(s, quote=True)`.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    out
}

/// Characters of `s` once escaped (bytes scanned: the escaped characters are ASCII).
fn escaped_len(s: &str) -> usize {
    // A UTF-8 continuation byte counts 0, an escaped ASCII byte 1 + its extra.
    s.bytes()
        .map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b.is_ascii()) * byte_extra(b))
        .sum()
}

/// The location as written: the path, lossily decoded when not UTF-8.
fn location_text<'a>(entry: &CatalogEntry<'a>) -> Option<Cow<'a, str>> {
    entry.location.map(|p| {
        p.to_str()
            .map_or_else(|| p.to_string_lossy(), Cow::Borrowed)
    })
}

pub(super) fn cost(entry: &CatalogEntry<'_>) -> EntryCost {
    let name = escaped_len(entry.name);
    let location = location_text(entry).map_or(0, |l| {
        LOCATION_OPEN.len() + escaped_len(&l) + LOCATION_CLOSE.len()
    });
    let around = SKILL_NAME_OPEN.len() + name + NAME_CLOSE.len() + location + SKILL_CLOSE.len();
    EntryCost {
        names_only: around + DESCRIPTION_EMPTY.len(),
        with_description: around + DESCRIPTION_OPEN.len() + DESCRIPTION_CLOSE.len(),
        description: DescriptionCost::measure_str(entry.description, byte_extra),
        note_name: name,
    }
}

pub(super) fn render(ordered: &[&CatalogEntry<'_>], costs: &[EntryCost], fit: &Fit) -> String {
    let mut out = String::with_capacity(fit.len + fit.len / 4);
    out.push_str(OPEN);
    let limit = fit.descriptions.limit();
    for ((entry, cost), &keep) in ordered.iter().zip(costs).zip(&fit.keep) {
        if !keep {
            continue;
        }
        out.push_str(SKILL_NAME_OPEN);
        entry.name.chars().for_each(|c| push_escaped(&mut out, c));
        out.push_str(NAME_CLOSE);
        if fit.descriptions == Descriptions::NamesOnly {
            out.push_str(DESCRIPTION_EMPTY);
        } else {
            out.push_str(DESCRIPTION_OPEN);
            push_description(
                &mut out,
                entry.description.chars(),
                &cost.description,
                limit,
                push_escaped,
            );
            out.push_str(DESCRIPTION_CLOSE);
        }
        if let Some(location) = location_text(entry) {
            out.push_str(LOCATION_OPEN);
            location.chars().for_each(|c| push_escaped(&mut out, c));
            out.push_str(LOCATION_CLOSE);
        }
        out.push_str(SKILL_CLOSE);
    }
    out.push_str(CLOSE);
    if let Some(note) = note_for(ordered, fit, escape) {
        out.push('\n');
        out.push_str(&note);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_python_html_escape() {
        assert_eq!(
            escape(r#"It's a "quoted" <b>&"#),
            "It&#x27;s a &quot;quoted&quot; &lt;b&gt;&amp;"
        );
        for b in 0..128 {
            let c = char::from(b).to_string();
            assert_eq!(byte_extra(b) + 1, escape(&c).chars().count(), "{b}");
        }
        for s in ["&", "<", ">", "\"", "'", "café ☕ &amp;"] {
            assert_eq!(escaped_len(s), escape(s).chars().count(), "{s}");
        }
    }

    #[test]
    fn constants_are_ascii() {
        for s in [
            OPEN,
            CLOSE,
            SKILL_NAME_OPEN,
            NAME_CLOSE,
            DESCRIPTION_OPEN,
            DESCRIPTION_CLOSE,
            DESCRIPTION_EMPTY,
            LOCATION_OPEN,
            LOCATION_CLOSE,
            SKILL_CLOSE,
        ] {
            assert!(s.is_ascii());
        }
    }
}
