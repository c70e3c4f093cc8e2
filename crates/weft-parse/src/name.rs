//! Naming rules for skills and agents.
//!
//! weft's rule is the spec's ASCII reading: 1-64 characters of `[a-z0-9-]`, no leading,
//! trailing or doubled hyphen. The `spec` profile reproduces the reference validator instead
//! (Unicode letters and digits after NFKC normalisation), so results can be compared file by
//! file.

use unicode_normalization::UnicodeNormalization;

/// The longest valid name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Words a name should not contain (they bind skills uploaded to Anthropic's API).
pub const RESERVED_WORDS: [&str; 2] = ["anthropic", "claude"];

/// True when `name` satisfies weft's naming rule.
///
/// ```
/// use weft_parse::name::is_valid_name;
///
/// assert!(is_valid_name("pdf-processing"));
/// assert!(!is_valid_name("PDF-Processing"));
/// assert!(!is_valid_name("pdf--processing"));
/// assert!(!is_valid_name("-pdf"));
/// ```
pub fn is_valid_name(name: &str) -> bool {
    name_problems(name).is_empty()
}

/// True when `name` breaks weft's naming rule only in ways Claude Code and Codex accept (an
/// `_`, a leading or trailing `-`): such a skill loads under that name, with a warning.
///
/// ```
/// use weft_parse::name::is_loadable_name;
///
/// assert!(is_loadable_name("pdf_processing") && is_loadable_name("-pdf"));
/// assert!(is_loadable_name("pdf-processing"));
/// assert!(!is_loadable_name("PDF") && !is_loadable_name("pdf processing"));
/// ```
pub fn is_loadable_name(name: &str) -> bool {
    NameProblems::of(name).hard.is_empty()
}

/// Every way `name` breaks weft's naming rule, each as a message.
pub fn name_problems(name: &str) -> Vec<String> {
    let problems = NameProblems::of(name);
    let mut all = problems.hard;
    all.extend(problems.tolerated);
    all
}

/// The ways a name breaks weft's rule, in two kinds.
#[derive(Debug, Default)]
pub(crate) struct NameProblems {
    /// What keeps the name from naming a skill (case, spaces, other characters, `--`,
    /// length).
    pub(crate) hard: Vec<String>,
    /// What Claude Code and Codex accept and the spec does not: `_`, a leading or trailing
    /// `-`. A name with only these loads, with a warning (`W109`).
    pub(crate) tolerated: Vec<String>,
}

impl NameProblems {
    pub(crate) fn of(name: &str) -> Self {
        let mut out = Self::default();
        let chars = name.chars().count();
        if chars == 0 {
            out.hard.push("name is empty".to_owned());
            return out;
        }
        if chars > MAX_NAME_CHARS {
            out.hard.push(format!(
                "name `{}` is {chars} characters long; the limit is {MAX_NAME_CHARS}",
                shorten(name)
            ));
        }
        if name.chars().any(|c| c.is_uppercase()) {
            out.hard
                .push(format!("name `{}` must be lowercase", shorten(name)));
        }
        let bad: String = unique_chars(
            name.chars()
                .filter(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
                .filter(|c| !c.is_uppercase() && *c != '_'),
        );
        if !bad.is_empty() {
            out.hard.push(format!(
                "name `{}` may only contain a-z, 0-9 and `-` (found {bad})",
                shorten(name)
            ));
        }
        if name.contains("--") {
            out.hard
                .push(format!("name `{}` must not contain `--`", shorten(name)));
        }
        if name.contains('_') {
            out.tolerated.push(format!(
                "name `{}` contains `_`, which the spec does not allow (a-z, 0-9 and `-`); Claude Code and Codex load it, and so does weft",
                shorten(name)
            ));
        }
        if name.starts_with('-') || name.ends_with('-') {
            out.tolerated.push(format!(
                "name `{}` starts or ends with `-`, which the spec does not allow; Claude Code and Codex load it, and so does weft",
                shorten(name)
            ));
        }
        out
    }
}

/// The reference validator's checks of a name (already stripped), with its exact wording.
pub(crate) fn spec_name_problems(name: &str) -> Vec<String> {
    let normalized: String = name.nfkc().collect();
    let mut problems = Vec::new();
    let len = normalized.chars().count();
    if len > MAX_NAME_CHARS {
        problems.push(format!(
            "Skill name '{normalized}' exceeds {MAX_NAME_CHARS} character limit ({len} chars)"
        ));
    }
    if normalized != normalized.to_lowercase() {
        problems.push(format!("Skill name '{normalized}' must be lowercase"));
    }
    if normalized.starts_with('-') || normalized.ends_with('-') {
        problems.push("Skill name cannot start or end with a hyphen".to_owned());
    }
    if normalized.contains("--") {
        problems.push("Skill name cannot contain consecutive hyphens".to_owned());
    }
    if !normalized.chars().all(|c| c.is_alphanumeric() || c == '-') {
        problems.push(format!(
            "Skill name '{normalized}' contains invalid characters. Only letters, digits, and hyphens are allowed."
        ));
    }
    problems
}

/// The NFKC normal form of `s` (the reference validator compares and measures names in it).
pub(crate) fn nfkc(s: &str) -> String {
    s.nfkc().collect()
}

/// The reference validator's directory check: NFKC forms must be equal.
pub(crate) fn spec_dir_matches(dir: &str, name: &str) -> bool {
    dir.nfkc().eq(name.nfkc())
}

/// The reserved word `name` contains, if any.
pub fn reserved_word(name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    RESERVED_WORDS.into_iter().find(|w| lower.contains(w))
}

/// True when a skill or agent directory name is safe to use (SEC-SKILL-02): `[A-Za-z0-9_-]+`.
pub fn is_safe_dir_name(dir: &str) -> bool {
    !dir.is_empty()
        && dir
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn unique_chars(chars: impl Iterator<Item = char>) -> String {
    let mut seen: Vec<char> = Vec::new();
    for c in chars {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen.iter()
        .map(|c| match c {
            ' ' => "space".to_owned(),
            '\n' => "newline".to_owned(),
            c if c.is_control() => format!("U+{:04X}", *c as u32),
            c => format!("`{c}`"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A name cut for messages (names can be arbitrarily long).
pub(crate) fn shorten(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(MAX).collect();
        out.push('…');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_accumulate() {
        let p = name_problems("Ahrefs Automation");
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("lowercase"));
        assert!(p[1].contains("space"));
    }

    #[test]
    fn lengths_count_characters() {
        assert!(is_valid_name(&"a".repeat(64)));
        assert!(!is_valid_name(&"a".repeat(65)));
        // 64 Cyrillic letters: right length, wrong charset under the ASCII reading.
        let cyr = "а".repeat(64);
        assert_eq!(name_problems(&cyr).len(), 1);
        assert!(spec_name_problems(&cyr).is_empty());
    }

    #[test]
    fn spec_reading_follows_reference() {
        assert!(spec_name_problems("技能").is_empty());
        assert!(spec_name_problems("мой-навык").is_empty());
        assert_eq!(
            spec_name_problems("НАВЫК"),
            ["Skill name 'НАВЫК' must be lowercase"]
        );
        assert!(spec_dir_matches("café", "cafe\u{301}"));
        assert!(spec_name_problems("ｐｄｆ").is_empty());
    }

    #[test]
    fn dir_names_and_reserved_words() {
        assert!(is_safe_dir_name("My_Skill-2"));
        assert!(!is_safe_dir_name("a.b"));
        assert!(!is_safe_dir_name(""));
        assert_eq!(reserved_word("claude-helper"), Some("claude"));
        assert_eq!(reserved_word("my-assistant"), None);
    }
}
