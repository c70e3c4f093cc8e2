//! Printing diagnostics the way rustc does.

use std::fmt::Write as _;

use weft_types::Diagnostic;

/// `error[E101]: message` followed by ` --> path:line:col` when the diagnostic has a place.
///
/// The arrow line is indented to line up under the code, as rustc does.
pub fn format_diagnostic(d: &Diagnostic) -> String {
    let mut out = format!("{}[{}]: {}\n", d.severity, d.code, d.message);
    if let Some(location) = d.location() {
        let _ = writeln!(out, " --> {location}");
    }
    out
}

/// Prints diagnostics rustc-style to stderr (a blank line after each, as rustc does).
pub fn eprint_diagnostics(diagnostics: &[Diagnostic]) {
    use std::io::Write as _;
    let mut err = std::io::stderr().lock();
    for d in diagnostics {
        let _ = writeln!(err, "{}", format_diagnostic(d));
    }
}

/// `text` cut to `max` characters, with `…` when cut; newlines become spaces.
/// Runs of whitespace become one space. Stops reading once past `max` (a listing cuts every
/// description, some of them long).
pub fn cut(text: &str, max: usize) -> String {
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

/// Rows as aligned columns with a header; the last column is not padded.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let cols = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(cols) {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut text = String::new();
        for (i, cell) in cells.enumerate() {
            if i + 1 < cols {
                let pad = widths[i].saturating_sub(cell.chars().count()) + 2;
                text.push_str(cell);
                text.extend(std::iter::repeat_n(' ', pad));
            } else {
                text.push_str(cell);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&mut header.iter().copied());
    for row in rows {
        line(&mut row.iter().map(String::as_str));
    }
    out
}

/// Errors in full; warnings in full when `verbose`, else counted in one line.
pub fn eprint_discovery_diagnostics(diagnostics: &[Diagnostic], verbose: bool) {
    if verbose {
        eprint_diagnostics(diagnostics);
        return;
    }
    let errors: Vec<Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    eprint_diagnostics(&errors);
    let warnings = diagnostics.len() - errors.len();
    if warnings > 0 {
        eprintln!(
            "weft: {warnings} warning{} about skill files (-v shows them)",
            if warnings == 1 { "" } else { "s" }
        );
    }
}

/// Writes `text` to stdout. When the reader has gone away (`weft ... | head`), the process
/// ends quietly with success instead of panicking, as `cat` would.
pub fn write_stdout(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        && e.kind() == std::io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

/// `println!` through [`write_stdout`].
macro_rules! outln {
    () => {
        $crate::output::write_stdout("\n")
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` through [`write_stdout`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(&format!($($arg)*))
    };
}

pub(crate) use {out, outln};

#[cfg(test)]
mod tests {
    use weft_types::{Position, Severity};

    use super::*;

    #[test]
    fn rustc_layout() {
        let d = Diagnostic::new(Severity::Error, 101, "name `X` must be lowercase")
            .with_path("s/x/SKILL.md")
            .at(Position::new(2, 7));
        assert_eq!(
            format_diagnostic(&d),
            "error[E101]: name `X` must be lowercase\n --> s/x/SKILL.md:2:7\n"
        );
    }
}
