//! Text shortened to fit a column, counted nouns, and `Label: value` lines.

/// `1 skill`, `2 skills`: `n` and `word`, with an `s` unless `n` is 1.
///
/// ```
/// use weft_term::plural;
///
/// assert_eq!(plural(1, "skill"), "1 skill");
/// assert_eq!(plural(0, "warning"), "0 warnings");
/// ```
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// One `Label: value` line per field, in order (the layout of `weft skills show` and
/// `/skills <name>`). Values are shown as they are: the caller's writer neutralises them.
///
/// ```
/// use weft_term::fields;
///
/// let rows = vec![("Skill".to_owned(), "pdf".to_owned()), ("Context".to_owned(), "inline".to_owned())];
/// assert_eq!(fields(&rows), "Skill: pdf\nContext: inline\n");
/// ```
pub fn fields(rows: &[(String, String)]) -> String {
    let mut out = String::new();
    for (label, value) in rows {
        out.push_str(label);
        out.push_str(": ");
        out.push_str(value);
        out.push('\n');
    }
    out
}

/// `text` on one line (runs of whitespace become one space) and cut to `max` characters,
/// ending in `…` when cut.
///
/// ```
/// use weft_term::cut;
///
/// assert_eq!(cut("one\n two   three", 20), "one two three");
/// assert_eq!(cut("abcdef", 4), "abc…");
/// ```
pub fn cut(text: &str, max: usize) -> String {
    // Linear, and stops reading once past `max`: a listing cuts every description, some of
    // them long.
    if let Some(plain) = cut_plain_ascii(text, max) {
        return plain;
    }
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)));
    let mut count = 0usize;
    'words: for word in text.split_whitespace() {
        if count > 0 {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count > max {
                break 'words;
            }
            out.push(c);
            count += 1;
        }
    }
    if count <= max {
        return out;
    }
    let end = out
        .char_indices()
        .nth(max.saturating_sub(1))
        .map_or(out.len(), |(i, _)| i);
    out.truncate(end);
    out.push('…');
    out
}

/// [`cut`] for the common case, without decoding characters: the first `max + 1` bytes are
/// printable ASCII words separated by single spaces. `None` when that does not hold.
fn cut_plain_ascii(text: &str, max: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let head = &bytes[..bytes.len().min(max.checked_add(1)?)];
    let plain = max > 0
        && head.first().is_some_and(u8::is_ascii_graphic)
        && head.last().is_some_and(u8::is_ascii_graphic)
        && head.iter().all(|&b| b.is_ascii_graphic() || b == b' ')
        && !head.windows(2).any(|w| w == b"  ");
    if !plain {
        return None;
    }
    if bytes.len() <= max {
        return Some(text.to_owned());
    }
    // `head` holds `max + 1` plain characters: the text is longer than `max` whatever follows.
    let mut out = String::with_capacity(max + 2);
    out.push_str(&text[..max - 1]);
    out.push('…');
    Some(out)
}

/// `text` on one line: runs of whitespace (newlines included) become one space, and the ends
/// are trimmed. What a table cell holds when nothing needs cutting.
///
/// ```
/// use weft_term::one_line;
///
/// assert_eq!(one_line(" Review\n  the diff.\t"), "Review the diff.");
/// ```
pub fn one_line(text: &str) -> String {
    if is_one_line(text) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// True when [`one_line`] would return `text` as it is: ASCII (the only whitespace is then
/// ASCII) with single spaces between words and none at the ends. Most descriptions are, and a
/// listing of thousands of them is checked byte by byte instead of split into words.
fn is_one_line(text: &str) -> bool {
    if !text.is_ascii() {
        return false;
    }
    let mut after_space = true;
    for &b in text.as_bytes() {
        match b {
            b' ' if after_space => return false,
            b' ' => after_space = true,
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => return false,
            _ => after_space = false,
        }
    }
    !after_space || text.is_empty()
}

/// The first line of `text`, trimmed and cut to `max` characters with `…`.
///
/// ```
/// use weft_term::first_line;
///
/// assert_eq!(first_line("one two three\nfour", 8), "one two…");
/// assert_eq!(first_line("", 8), "");
/// ```
pub fn first_line(text: &str, max: usize) -> String {
    shorten(text.lines().next().unwrap_or("").trim().to_owned(), max)
}

fn shorten(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious definition [`cut`] must agree with.
    fn naive(text: &str, max: usize) -> String {
        shorten(text.split_whitespace().collect::<Vec<_>>().join(" "), max)
    }

    #[test]
    fn the_fast_path_agrees_with_the_obvious_definition() {
        let texts = [
            "",
            "a",
            "plain words only",
            " leading space",
            "trailing space ",
            "two  spaces",
            "tab\there",
            "line\nbreak",
            "naïve café",
            "exactly ten",
            "a much longer description that will certainly be cut somewhere",
        ];
        for text in texts {
            for max in 0..=text.len() + 2 {
                assert_eq!(cut(text, max), naive(text, max), "{text:?} at {max}");
            }
        }
    }

    #[test]
    fn one_line_agrees_with_joining_the_words() {
        let texts = [
            "",
            " ",
            "a",
            "plain words only",
            " leading space",
            "trailing space ",
            "two  spaces",
            "tab\there",
            "line\nbreak",
            "form\u{c}feed and\u{b}vertical tab",
            "cr\rreturn",
            "naïve café",
            "no-break\u{a0}space",
            "ideographic\u{3000}space",
            "next\u{85}line",
        ];
        for text in texts {
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(one_line(text), words, "{text:?}");
        }
    }
}
