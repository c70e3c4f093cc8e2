//! Text shortened to fit a column.

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
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    shorten(flat, max)
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
