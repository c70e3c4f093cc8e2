//! The Markdown structure the scanner tracks: fence-opening and fence-closing lines and the
//! closer of an inline code span, by the CommonMark rules the scanner's module documentation
//! states. Separate because it is line-level Markdown, not placeholders.

use super::Fence;

/// Length of the run of `ch` starting at `at`.
pub(super) fn run_len(bytes: &[u8], at: usize, ch: u8) -> usize {
    bytes
        .get(at..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| b == ch).count())
}

/// Index of the `\n` ending the line that starts at `line`, or the end of input.
pub(super) fn line_end(bytes: &[u8], line: usize) -> usize {
    bytes
        .get(line..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        .map_or(bytes.len(), |i| line + i)
}

/// Skips at most 3 leading spaces of the line starting at `line`.
pub(super) fn skip_indent(bytes: &[u8], line: usize) -> usize {
    line + run_len(bytes, line, b' ').min(3)
}

/// Whether the rest of the line from `at` is whitespace only.
fn rest_is_blank(bytes: &[u8], at: usize) -> bool {
    bytes
        .get(at..line_end(bytes, at))
        .is_none_or(|rest| rest.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')))
}

/// The fence opened by the line starting at `line`, if it is a fence-opening line.
pub(super) fn fence_opens(bytes: &[u8], line: usize) -> Option<Fence> {
    let start = skip_indent(bytes, line);
    let ch = *bytes.get(start)?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = run_len(bytes, start, ch);
    if len < 3 {
        return None;
    }
    if ch == b'`' {
        let info = bytes.get(start + len..line_end(bytes, line))?;
        if info.contains(&b'`') {
            return None;
        }
    }
    Some(Fence { ch, len })
}

/// Whether the line starting at `line` closes `fence`.
pub(super) fn fence_closes(bytes: &[u8], line: usize, fence: Fence) -> bool {
    let start = skip_indent(bytes, line);
    let len = run_len(bytes, start, fence.ch);
    len >= fence.len && rest_is_blank(bytes, start + len)
}

/// Looks for a backtick run of exactly `n` from `from`. `Err` holds where the search stopped: the
/// end of input, or the start of a blank or fence-opening line (the end of the paragraph).
pub(super) fn find_closer(bytes: &[u8], from: usize, n: usize) -> Result<usize, usize> {
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'`' => {
                let m = run_len(bytes, i, b'`');
                if m == n {
                    return Ok(i);
                }
                i += m;
            }
            b'\n' => {
                let line = i + 1;
                if rest_is_blank(bytes, line) || fence_opens(bytes, line).is_some() {
                    return Err(line);
                }
                i = line;
            }
            _ => i += 1,
        }
    }
    Err(bytes.len())
}
