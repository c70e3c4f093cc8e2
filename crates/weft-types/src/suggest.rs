//! "Did you mean": the names closest to a mistyped one, for every error that names something
//! unknown (a skill, an agent, a slash command, a model, a provider, a configuration key).
//! One ranking everywhere, so every message suggests the same way.

/// Up to three of `names` closest to `target`, best first: within an edit distance of a
/// third of `target`'s length (at least 2), or containing it, or contained in it. Empty when
/// nothing is close.
///
/// ```
/// use weft_types::suggest::closest_names;
///
/// let names = ["code-review", "commit", "deploy"];
/// assert_eq!(closest_names("comit", names), ["commit"]);
/// assert!(closest_names("zzzzzzzz", names).is_empty());
/// ```
pub fn closest_names<'a>(target: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let limit = (target.chars().count() / 3).max(2);
    // Case is a slip like any other (`bash` for `Bash`), so names compare in lower case.
    let lower = target.to_lowercase();
    // (rank, distance, name): a related name ranks as a one-letter slip, and among equals
    // the nearer spelling comes first.
    let mut scored: Vec<(usize, usize, &str)> = names
        .into_iter()
        .filter(|n| *n != target && !n.is_empty())
        .filter_map(|n| {
            let n_lower = n.to_lowercase();
            let d = edit_distance(&lower, &n_lower);
            // Containment only counts for a target long enough to mean something: `a` is in
            // every name.
            let related = n_lower == lower
                || (lower.chars().count() >= 3
                    && (n_lower.starts_with(&lower)
                        || lower.starts_with(&n_lower)
                        || n_lower.contains(&lower)));
            (d <= limit || related).then_some((if related { d.min(1) } else { d }, d, n))
        })
        .collect();
    scored.sort_unstable();
    scored.dedup_by(|a, b| a.2 == b.2);
    scored
        .into_iter()
        .take(3)
        .map(|(_, _, n)| n.to_owned())
        .collect()
}

/// `"; did you mean `a`?"`, `"; did you mean `a` or `b`?"`, ... to end a message with; empty
/// when there is no suggestion.
///
/// ```
/// use weft_types::suggest::did_you_mean;
///
/// assert_eq!(did_you_mean(&["commit".to_owned()]), "; did you mean `commit`?");
/// assert_eq!(did_you_mean(&[]), "");
/// ```
pub fn did_you_mean(suggestions: &[String]) -> String {
    let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean {one}?"),
        [init @ .., last] => format!("; did you mean {} or {last}?", init.join(", ")),
    }
}

/// The Levenshtein distance between `a` and `b`, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_names_prefers_near_and_related_names() {
        let names = ["code-review", "commit", "deploy", "review-pr"];
        assert_eq!(closest_names("code-reveiw", names), ["code-review"]);
        assert_eq!(closest_names("comit", names), ["commit"]);
        assert_eq!(closest_names("review", names), ["review-pr", "code-review"]);
        assert!(closest_names("zzzzzzzz", names).is_empty());
        assert_eq!(closest_names("bash", ["Bash", "Read"]), ["Bash"]);
        assert_eq!(closest_names("Bassh", ["Bash", "Read"]), ["Bash"]);
    }

    #[test]
    fn short_targets_do_not_match_everything_and_exact_names_are_not_suggested() {
        let names = ["agents", "agent", "model", "skills"];
        assert_eq!(closest_names("skils", names), ["skills"]);
        assert_eq!(closest_names("agent", names), ["agents"]);
        assert_eq!(
            closest_names("planer", ["plan", "planner"]),
            ["planner", "plan"]
        );
        assert!(closest_names("x", ["alpha", "omega"]).is_empty());
    }

    #[test]
    fn at_most_three_suggestions_each_once() {
        let names = ["ab", "ac", "ad", "ae", "ab"];
        assert_eq!(closest_names("aa", names).len(), 3);
        assert_eq!(closest_names("ab", ["abc", "abc"]), ["abc"]);
    }

    #[test]
    fn suggestions_read_as_a_sentence() {
        let s = |v: &[&str]| did_you_mean(&v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(s(&["a", "b"]), "; did you mean `a` or `b`?");
        assert_eq!(s(&["a", "b", "c"]), "; did you mean `a`, `b` or `c`?");
    }

    #[test]
    fn distance_counts_characters() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
    }
}
