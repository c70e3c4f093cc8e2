//! The checks. `patterns` holds the regex table; the other modules check what a regex cannot
//! (Unicode, tool grants, file types, names, what a file does across its lines: `shell` reads
//! shell text for `assembled` and `fetched`, `interpreters` follows downloads in programs).

pub(crate) mod assembled;
pub(crate) mod dynamic;
pub(crate) mod encoded;
pub(crate) mod examples;
pub(crate) mod fetched;
pub(crate) mod files;
pub(crate) mod interpreters;
pub(crate) mod patterns;
pub(crate) mod shell;
pub(crate) mod tools;
pub(crate) mod typosquat;
pub(crate) mod unicode;

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::bytes::{Regex, RegexBuilder};

use crate::finding::Finding;
use crate::text::{LineIndex, excerpt};
use patterns::{PATTERNS, TextPattern};

/// The pattern table, compiled once: each regex, and one Aho-Corasick automaton over every
/// pattern's trigger words, so a file is read once to learn which regexes can match at all.
///
/// Each regex runs on its own (a `RegexSet` of them all needs a DFA too large for the lazy
/// DFA's cache and falls back to a slow engine) and only on files holding one of its
/// triggers; most files hold few, so most regexes never run.
struct Compiled {
    regexes: Vec<(&'static TextPattern, Regex)>,
    triggers: AhoCorasick,
    /// For each trigger word, whether it counts only as a whole word.
    whole: Vec<bool>,
    /// For each trigger word, the patterns it enables.
    enables: Vec<Vec<usize>>,
}

static COMPILED: LazyLock<Option<Compiled>> = LazyLock::new(|| {
    // ASCII semantics: a Unicode `\b` stops the lazy DFA at the first non-ASCII byte, and
    // every pattern here is ASCII anyway.
    let regexes = PATTERNS
        .iter()
        .map(|p| {
            RegexBuilder::new(p.regex)
                .unicode(false)
                .build()
                .map(|r| (p, r))
        })
        .collect::<Result<_, _>>()
        .ok()?;
    let mut words: Vec<&str> = Vec::new();
    let mut whole: Vec<bool> = Vec::new();
    let mut enables: Vec<Vec<usize>> = Vec::new();
    for (i, pattern) in PATTERNS.iter().enumerate() {
        for &trigger in pattern.triggers {
            let (word, is_whole) = match trigger.strip_prefix('=') {
                Some(w) => (w, true),
                None => (trigger, false),
            };
            match words
                .iter()
                .zip(&whole)
                .position(|(w, h)| w.eq_ignore_ascii_case(word) && *h == is_whole)
            {
                Some(t) => enables[t].push(i),
                None => {
                    words.push(word);
                    whole.push(is_whole);
                    enables.push(vec![i]);
                }
            }
        }
    }
    let triggers = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&words)
        .ok()?;
    Some(Compiled {
        regexes,
        triggers,
        whole,
        enables,
    })
});

impl Compiled {
    /// Which patterns can match `bytes`.
    fn enabled(&self, bytes: &[u8]) -> Vec<bool> {
        let mut on = vec![false; self.regexes.len()];
        let is_word = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        for m in self.triggers.find_overlapping_iter(bytes) {
            let t = m.pattern().as_usize();
            let before = m.start().checked_sub(1).and_then(|i| bytes.get(i));
            if self.whole[t] && (is_word(before) || is_word(bytes.get(m.end()))) {
                continue;
            }
            for &i in &self.enables[t] {
                on[i] = true;
            }
        }
        on
    }
}

/// Compiles a pattern of the checks outside the table with ASCII word boundaries: a Unicode
/// `\b` makes the regex crate's fast engines give up at the first non-ASCII byte of a file
/// (skills are full of emoji), and every pattern here is ASCII.
pub(crate) fn ascii_regex(pattern: &str) -> Option<regex::Regex> {
    regex::Regex::new(&pattern.replace(r"\b", r"(?-u:\b)")).ok()
}

/// A text file being scanned: its bytes (for the patterns) and its text (for the checks that
/// look at characters; invalid UTF-8 replaced).
pub(crate) struct TextFile<'a> {
    pub path: &'a str,
    pub bytes: &'a [u8],
    pub text: &'a str,
    pub is_script: bool,
}

/// A finding at byte range `start..end` of `haystack` (a file's bytes or its text).
pub(crate) fn finding_at(
    path: &str,
    haystack: &[u8],
    index: &LineIndex,
    (start, end): (usize, usize),
    (rule, severity): (crate::Rule, crate::Severity),
    message: String,
) -> Finding {
    let (line, column) = index.position(haystack, start);
    Finding {
        rule,
        severity,
        path: path.to_owned(),
        line: Some(line),
        column: Some(column),
        message,
        excerpt: haystack
            .get(start..end)
            .map(|m| excerpt(&String::from_utf8_lossy(m), 100)),
    }
}

/// The verdicts of the patterns of `rules` on `text` (judged as a script), one per pattern
/// that matches: what a statement would be flagged for if it were written that way.
pub(crate) fn pattern_verdicts(
    text: &str,
    rules: &[crate::Rule],
) -> Vec<(crate::Rule, crate::Severity, String)> {
    let Some(compiled) = COMPILED.as_ref() else {
        return Vec::new();
    };
    let enabled = compiled.enabled(text.as_bytes());
    let mut verdicts = Vec::new();
    for ((pattern, regex), on) in compiled.regexes.iter().zip(enabled) {
        let Some(base) = pattern
            .in_scripts
            .filter(|_| on && rules.contains(&pattern.rule))
        else {
            continue;
        };
        for m in regex.find_iter(text.as_bytes()) {
            let verdict = match pattern.refine {
                None => Some((base, pattern.message.to_owned())),
                Some(refine) => refine(&String::from_utf8_lossy(m.as_bytes()), base),
            };
            if let Some((severity, message)) = verdict {
                verdicts.push((pattern.rule, severity, message));
                break;
            }
        }
    }
    verdicts
}

/// Reads one text file as shell once, for the checks that follow it statement by
/// statement: commands put together from pieces, downloads saved and run later.
pub(crate) fn scan_shell(file: &TextFile<'_>, cap: usize, out: &mut Vec<Finding>) {
    let mut vars = shell::Variables::default();
    let mut index: Option<LineIndex> = None;
    let mut assembled = assembled::Assembled::default();
    let mut fetched = fetched::Fetched::new(file);
    shell::statements(file.text, &mut vars, |statement| {
        assembled.statement(file, statement, &mut index, (cap, &mut *out));
        fetched.statement(file, statement, &mut index, (cap, &mut *out));
    });
}

/// Runs the pattern table over one text file.
pub(crate) fn scan_patterns(file: &TextFile<'_>, cap: usize, out: &mut Vec<Finding>) {
    let Some(compiled) = COMPILED.as_ref() else {
        // A pattern that does not compile is a bug; a unit test compiles them all.
        tracing::error!("the scan patterns do not compile");
        return;
    };
    let enabled = compiled.enabled(file.bytes);
    let mut index: Option<LineIndex> = None;
    let mut examples: Option<examples::Examples<'_>> = None;
    for ((pattern, regex), on) in compiled.regexes.iter().zip(enabled) {
        if !on {
            continue;
        }
        let base = if file.is_script {
            pattern.in_scripts
        } else {
            pattern.in_docs
        };
        let Some(base) = base else { continue };
        let limit = if pattern.once { 1 } else { cap };
        let mut found = 0;
        for m in regex.find_iter(file.bytes) {
            if found >= limit {
                break;
            }
            let (severity, message) = match pattern.refine {
                None => (base, pattern.message.to_owned()),
                Some(refine) => match refine(&String::from_utf8_lossy(m.as_bytes()), base) {
                    Some(verdict) => verdict,
                    None => continue,
                },
            };
            // A phrase quoted to show what to watch for is not an instruction.
            let (severity, message) = match pattern.rule {
                crate::Rule::PromptInjection | crate::Rule::SecretRequest
                    if severity > crate::Severity::Low =>
                {
                    let examples =
                        examples.get_or_insert_with(|| examples::Examples::new(file.text));
                    match examples.reason(m.start(), m.end()) {
                        Some(reason) => (
                            crate::Severity::Low,
                            format!("{message}; {reason}: taken as an example, not an instruction"),
                        ),
                        None => (severity, message),
                    }
                }
                _ => (severity, message),
            };
            found += 1;
            let index = index.get_or_insert_with(|| LineIndex::new(file.bytes));
            out.push(finding_at(
                file.path,
                file.bytes,
                index,
                (m.start(), m.end()),
                (pattern.rule, severity),
                message,
            ));
        }
    }
}

/// The findings of the statement-by-statement checks on `text` as a script `x.sh` (tests).
#[cfg(test)]
pub(crate) fn shell_findings(text: &str) -> Vec<Finding> {
    let file = TextFile {
        path: "x.sh",
        bytes: text.as_bytes(),
        text,
        is_script: true,
    };
    let mut out = Vec::new();
    scan_shell(&file, 10, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        for p in PATTERNS {
            assert!(
                RegexBuilder::new(p.regex).unicode(false).build().is_ok(),
                "{}",
                p.regex
            );
        }
        assert!(COMPILED.is_some());
        assert_eq!(
            COMPILED.as_ref().map(|c| c.regexes.len()),
            Some(PATTERNS.len())
        );
        assert!(PATTERNS.iter().all(|p| !p.triggers.is_empty()));
    }
}
