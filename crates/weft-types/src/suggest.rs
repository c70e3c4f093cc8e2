//! "Did you mean" suggestions: the known names closest to a misspelled one.
//!
//! ```
//! use weft_types::suggest::{closest_names, did_you_mean};
//!
//! let keys = ["description", "allowed-tools", "model"];
//! assert_eq!(closest_names("descripton", keys), ["description"]);
//! assert_eq!(did_you_mean("modle", keys), "; did you mean `model`?");
//! assert_eq!(did_you_mean("zzzzzz", keys), "");
//! ```

/// Levenshtein distance between `a` and `b`, in characters.
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

/// Up to three of `names` closest to `target`, best first: within an edit distance of a
/// third of its length (at least 2), or related by a prefix or a case-insensitive match.
pub fn closest_names<'a, I>(target: &str, names: I) -> Vec<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (target.chars().count() / 3).max(2);
    let lower = target.to_lowercase();
    let mut scored: Vec<(usize, &str)> = names
        .into_iter()
        .filter(|n| *n != target)
        .filter_map(|n| {
            let n_lower = n.to_lowercase();
            let d = edit_distance(&lower, &n_lower);
            let related = n_lower == lower
                || n_lower.starts_with(&lower)
                || lower.starts_with(&n_lower)
                || n_lower.contains(&lower);
            (d <= limit || related).then_some((if related { d.min(1) } else { d }, n))
        })
        .collect();
    scored.sort_unstable();
    scored.dedup();
    scored
        .into_iter()
        .take(3)
        .map(|(_, n)| n.to_owned())
        .collect()
}

/// `"; did you mean `a`?"` (or `` `a` or `b` ``) for the names closest to `target`, else an
/// empty string: ready to append to a message.
pub fn did_you_mean<'a, I>(target: &str, names: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    let close = closest_names(target, names);
    if close.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = close.iter().map(|n| format!("`{n}`")).collect();
    format!("; did you mean {}?", quoted.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
    }

    #[test]
    fn closest_prefers_near_and_related_names() {
        let names = ["code-review", "commit", "deploy", "review-pr"];
        assert_eq!(closest_names("code-reveiw", names), ["code-review"]);
        assert_eq!(closest_names("comit", names), ["commit"]);
        assert_eq!(closest_names("review", names), ["code-review", "review-pr"]);
        assert!(closest_names("zzzzzzzz", names).is_empty());
        assert_eq!(closest_names("bash", ["Bash", "Read"]), ["Bash"]);
        assert_eq!(
            did_you_mean("Bassh", ["Bash", "Read"]),
            "; did you mean `Bash`?"
        );
    }
}
