//! Typosquatting: a name one edit (insertion, deletion, substitution or swap of neighbours)
//! away from a skill the user already has or weft ships; and shadowing: exactly the name of
//! one it has elsewhere.

use crate::finding::{Finding, Rule, Severity};
use crate::package::KnownSkill;

/// Names shorter than this are too close to too many others to judge.
const MIN_LEN: usize = 4;

/// True when `a` and `b` differ by exactly one edit: insert, delete, substitute, or swap two
/// neighbouring characters (optimal string alignment distance 1).
pub fn one_edit_apart(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a == b {
        return false;
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    match long.len() - short.len() {
        0 => {
            let diffs: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
            match diffs.as_slice() {
                [_] => true,
                [i, j] => *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i],
                _ => false,
            }
        }
        1 => {
            let first = (0..short.len())
                .find(|&i| short[i] != long[i])
                .unwrap_or(short.len());
            short[first..] == long[first + 1..]
        }
        _ => false,
    }
}

/// The known names `name` imitates.
pub fn lookalikes<'a>(name: &str, known: &'a [String]) -> Vec<&'a str> {
    if name.chars().count() < MIN_LEN {
        return Vec::new();
    }
    let mut out: Vec<&str> = known
        .iter()
        .map(String::as_str)
        .filter(|k| k.chars().count() >= MIN_LEN && one_edit_apart(name, k))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Reports a name that imitates a known one.
pub(crate) fn scan(name: &str, known: &[String], skill_path: &str, out: &mut Vec<Finding>) {
    let similar = lookalikes(name, known);
    if similar.is_empty() {
        return;
    }
    let list = similar
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ");
    out.push(Finding::in_file(
        Rule::Typosquat,
        Severity::High,
        skill_path,
        format!("the name `{name}` is one edit away from {list}, a skill you already have: a typosquat would be picked instead of it"),
    ));
}

/// Reports a name that is exactly the name of a skill the user has elsewhere (a built-in,
/// another scope, another root): whichever wins, the other is hidden, and a package that
/// takes the name of a built-in or of the user's own skill replaces it without a word.
pub(crate) fn scan_taken(
    name: &str,
    taken: &[KnownSkill],
    skill_path: &str,
    out: &mut Vec<Finding>,
) {
    let places: Vec<&str> = taken
        .iter()
        .filter(|k| k.name == name)
        .map(|k| k.place.as_str())
        .collect();
    if places.is_empty() {
        return;
    }
    out.push(Finding::in_file(
        Rule::Shadowing,
        Severity::High,
        skill_path,
        format!(
            "the name `{name}` is already taken by {}: two skills of one name, one hides the other",
            places.join(" and ")
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit() {
        assert!(one_edit_apart("git-commit", "git-comit"));
        assert!(one_edit_apart("git-commit", "git-commits"));
        assert!(one_edit_apart("git-commit", "git-cammit"));
        assert!(one_edit_apart("git-commit", "git-commti"));
        assert!(one_edit_apart("pdf-tools", "pdftools"));
        assert!(!one_edit_apart("git-commit", "git-commit"));
        assert!(!one_edit_apart("git-commit", "git-cmomti"));
        assert!(!one_edit_apart("abc", "abcde"));
    }

    #[test]
    fn short_names_and_self_are_ignored() {
        let known = vec!["git".to_owned(), "docx".to_owned(), "docs".to_owned()];
        assert!(lookalikes("gif", &known).is_empty());
        assert_eq!(lookalikes("docz", &known), ["docs", "docx"]);
        assert!(lookalikes("docx", &["docx".to_owned()]).is_empty());
    }
}
