//! The pure fitting step: given what each entry costs in characters, decide how much of the
//! catalog is rendered.
//!
//! Nothing is rendered here: [`fit`] works on lengths only ([`EntryCost`]), so it runs in
//! `O(n · log L)` for `n` entries and the longest description `L` (at most
//! [`DESCRIPTION_CAP`]). The renderers in the parent module build the costs, call [`fit`] and
//! then render exactly what it decided; the rendered text has exactly [`Fit::len`] characters.
//!
//! The stages, first that fits wins (DESIGN 7):
//!
//! 1. everything, each description in full (after the [`DESCRIPTION_CAP`] cut);
//! 2. every description shortened to the largest common limit `L >= MIN_DESCRIPTION_LIMIT`
//!    that fits (binary search; a description longer than `L` keeps `L - 1` characters and
//!    ends with `…`);
//! 3. names only;
//! 4. names only, dropping entries in the given drop order (lowest precedence first) until
//!    the rest plus a closing note ([`dropped_note`]) fits. The note names the dropped skills
//!    when that fits, else gives only their number;
//! 5. nothing at all (not even the frame fits): the catalog is omitted.
//!
//! What a description costs under each limit ([`DescriptionCost`]) is measured in
//! `description_cost.rs`.

pub use super::description_cost::DescriptionCost;

/// Longest description the catalog shows, in characters; a longer one keeps
/// `DESCRIPTION_CAP - 1` characters and ends with `…`. The spec's own limit for `description`.
pub const DESCRIPTION_CAP: usize = 1024;

/// The smallest per-description limit worth using; below it the catalog switches to names
/// only.
pub const MIN_DESCRIPTION_LIMIT: usize = 32;

/// The character that ends a shortened description (counted within the limit).
pub const ELLIPSIS: char = '…';

/// What one entry costs in the rendered catalog, in characters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryCost {
    /// The entry's whole rendering in names-only mode.
    pub names_only: usize,
    /// The entry's rendering with a description, not counting the description's own
    /// characters (`- name: ` and the newline for the weft format).
    pub with_description: usize,
    /// The description.
    pub description: DescriptionCost,
    /// The name as written in the dropped-skills note.
    pub note_name: usize,
}

/// How descriptions are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Descriptions {
    /// In full (only the [`DESCRIPTION_CAP`] cut applies).
    Full,
    /// Each description longer than this many characters is cut to it (ending with `…`).
    Limit(usize),
    /// No descriptions, names only.
    NamesOnly,
}

impl Descriptions {
    /// The per-description limit to pass to [`DescriptionCost`] (`None` for full or names
    /// only).
    pub fn limit(self) -> Option<usize> {
        match self {
            Descriptions::Limit(l) => Some(l),
            Descriptions::Full | Descriptions::NamesOnly => None,
        }
    }
}

/// The closing line about dropped entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// Nothing was dropped (or nothing is rendered at all).
    None,
    /// Only the number of dropped skills (listing them would not fit).
    Count,
    /// The number and the names of the dropped skills.
    Names,
}

/// The decision of [`fit`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fit {
    /// How descriptions are rendered.
    pub descriptions: Descriptions,
    /// For each entry (same indices as the costs), whether it is rendered.
    pub keep: Vec<bool>,
    /// The closing line about dropped entries.
    pub note: Note,
    /// Nothing is rendered, not even the frame: the empty frame with a count-only note does
    /// not fit the budget.
    pub omitted: bool,
    /// Characters of the rendering: at most the budget, 0 when omitted.
    pub len: usize,
}

impl Fit {
    /// Number of entries rendered.
    pub fn listed(&self) -> usize {
        self.keep.iter().filter(|&&k| k).count()
    }
}

/// Length of `n` in decimal digits.
fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// The words of the dropped-skills note that depend on the counts.
fn note_words(
    count: usize,
    listed: usize,
) -> (&'static str, &'static str, &'static str, &'static str) {
    let more = if listed > 0 { " more" } else { "" };
    if count == 1 {
        (more, "skill", "is", "it")
    } else {
        (more, "skills", "are", "them")
    }
}

const NOTE_MIDDLE: &str = " not listed to fit the budget; use_skill still accepts ";

/// The closing note about `count` dropped skills when `listed` others are shown, with the
/// dropped names already joined (`Some("a, b")`) or without them:
/// `(2 more skills are not listed to fit the budget; use_skill still accepts them: a, b)`.
/// "more" is left out when nothing is listed; singular for one skill.
pub fn dropped_note(count: usize, listed: usize, names: Option<&str>) -> String {
    let (more, noun, verb, pronoun) = note_words(count, listed);
    let mut s = format!("({count}{more} {noun} {verb}{NOTE_MIDDLE}{pronoun}");
    if let Some(names) = names {
        s.push_str(": ");
        s.push_str(names);
    }
    s.push(')');
    s
}

/// Characters of [`dropped_note`], given the characters of the joined names.
pub fn dropped_note_len(count: usize, listed: usize, names_chars: Option<usize>) -> usize {
    let (more, noun, verb, pronoun) = note_words(count, listed);
    1 + digits(count)
        + more.len()
        + 1
        + noun.len()
        + 1
        + verb.len()
        + NOTE_MIDDLE.len()
        + pronoun.len()
        + names_chars.map_or(0, |n| 2 + n)
        + 1
}

/// Decides what of the catalog is rendered within `budget` characters.
///
/// - `entries`: what each entry costs, in rendering order;
/// - `frame`: characters of the rendering around the entries (header, closing tags);
/// - `drop_order`: gives the entry indices, the first to drop first (lowest precedence
///   first); called only when entries have to be dropped. Indices out of range or repeated
///   are ignored, and entries it does not mention are never dropped;
/// - the note about dropped entries costs its own length plus one separating newline.
///
/// ```
/// use weft_registry::catalog::fit::{fit, Descriptions, DescriptionCost, EntryCost, Note};
///
/// let entry = |name: usize, desc: usize| EntryCost {
///     names_only: name + 3,
///     with_description: name + 5,
///     description: DescriptionCost::plain(desc),
///     note_name: name,
/// };
/// let costs = [entry(1, 100), entry(1, 40)];
/// // Full: 10 + (6 + 100) + (6 + 40) = 162 characters.
/// assert_eq!(fit(&costs, 10, || [1, 0], 200).descriptions, Descriptions::Full);
/// // 100 characters: both descriptions cut to 39 (10 + 6 + 39 + 6 + 39 = 100).
/// let f = fit(&costs, 10, || [1, 0], 100);
/// assert_eq!(f.descriptions, Descriptions::Limit(39));
/// assert_eq!(f.len, 100);
/// // 20 characters: names only (10 + 4 + 4 = 18).
/// assert_eq!(fit(&costs, 10, || [1, 0], 20).descriptions, Descriptions::NamesOnly);
/// assert_eq!(fit(&costs, 10, || [1, 0], 20).note, Note::None);
/// ```
pub fn fit<O: AsRef<[usize]>>(
    entries: &[EntryCost],
    frame: usize,
    drop_order: impl FnOnce() -> O,
    budget: usize,
) -> Fit {
    let n = entries.len();
    let all = |descriptions, len| Fit {
        descriptions,
        keep: vec![true; n],
        note: Note::None,
        omitted: false,
        len,
    };

    // 1. Everything in full.
    let full = cost_with_limit(entries, frame, None);
    if full <= budget {
        return all(Descriptions::Full, full);
    }

    // 2. Shorten every description to a common limit.
    if let Some((limit, len)) = common_limit(entries, frame, budget) {
        return all(Descriptions::Limit(limit), len);
    }

    // 3. Names only.
    let names = frame + entries.iter().map(|e| e.names_only).sum::<usize>();
    if names <= budget {
        return all(Descriptions::NamesOnly, names);
    }

    // 4. Drop entries, lowest precedence first, until the rest and the note fit.
    if let Some(fit) = drop_entries(entries, names, drop_order().as_ref(), budget) {
        return fit;
    }

    // 5. Nothing fits.
    Fit {
        descriptions: Descriptions::NamesOnly,
        keep: vec![false; n],
        note: Note::None,
        omitted: true,
        len: 0,
    }
}

/// The length of the catalog with every description cut at `limit` (`None`: in full).
fn cost_with_limit(entries: &[EntryCost], frame: usize, limit: Option<usize>) -> usize {
    frame
        + entries
            .iter()
            .map(|e| e.with_description + e.description.rendered_len(limit))
            .sum::<usize>()
}

/// The largest description limit L in [MIN_DESCRIPTION_LIMIT, longest) whose catalog fits
/// `budget`, with that catalog's length. The cost grows with L, and at the longest
/// description it is the full cost, which does not fit: a binary search.
fn common_limit(entries: &[EntryCost], frame: usize, budget: usize) -> Option<(usize, usize)> {
    let longest = entries
        .iter()
        .map(|e| e.description.chars())
        .max()
        .unwrap_or(0);
    if longest <= MIN_DESCRIPTION_LIMIT {
        return None;
    }
    let at_min = cost_with_limit(entries, frame, Some(MIN_DESCRIPTION_LIMIT));
    if at_min > budget {
        return None;
    }
    let (mut lo, mut lo_len, mut hi) = (MIN_DESCRIPTION_LIMIT, at_min, longest);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let len = cost_with_limit(entries, frame, Some(mid));
        if len <= budget {
            (lo, lo_len) = (mid, len);
        } else {
            hi = mid;
        }
    }
    Some((lo, lo_len))
}

/// Names only, dropping entries in `drop_order` until the rest (`names` characters with
/// every entry) and the note about the dropped ones fit; `None` when they never do.
fn drop_entries(
    entries: &[EntryCost],
    names: usize,
    drop_order: &[usize],
    budget: usize,
) -> Option<Fit> {
    let n = entries.len();
    let mut keep = vec![true; n];
    let mut kept_len = names;
    let mut listed = n;
    let mut dropped = 0;
    let mut names_chars = 0;
    for &i in drop_order {
        let Some(entry) = entries.get(i) else {
            continue;
        };
        if !keep[i] {
            continue;
        }
        keep[i] = false;
        kept_len -= entry.names_only;
        listed -= 1;
        dropped += 1;
        names_chars += entry.note_name + if dropped > 1 { 2 } else { 0 };
        let with_count = kept_len + 1 + dropped_note_len(dropped, listed, None);
        if with_count <= budget {
            let with_names = kept_len + 1 + dropped_note_len(dropped, listed, Some(names_chars));
            let (note, len) = if with_names <= budget {
                (Note::Names, with_names)
            } else {
                (Note::Count, with_count)
            };
            return Some(Fit {
                descriptions: Descriptions::NamesOnly,
                keep,
                note,
                omitted: false,
                len,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A weft-format entry: `- name: description\n`.
    fn entry(name: usize, description: usize) -> EntryCost {
        EntryCost {
            names_only: name + 3,
            with_description: name + 5,
            description: DescriptionCost::plain(description),
            note_name: name,
        }
    }

    #[test]
    fn digits_counts_decimal_digits() {
        assert_eq!([0, 9, 10, 99, 100, 12_345].map(digits), [1, 1, 2, 2, 3, 5]);
    }

    #[test]
    fn note_text_and_length_agree() {
        assert_eq!(
            dropped_note(2, 3, Some("a, b")),
            "(2 more skills are not listed to fit the budget; use_skill still accepts them: a, b)"
        );
        assert_eq!(
            dropped_note(1, 3, None),
            "(1 more skill is not listed to fit the budget; use_skill still accepts it)"
        );
        assert_eq!(
            dropped_note(3, 0, None),
            "(3 skills are not listed to fit the budget; use_skill still accepts them)"
        );
        for count in [1, 2, 9, 10, 11, 100, 12_345] {
            for listed in [0, 1, 7] {
                for names in [None, Some("x"), Some("café, 日本")] {
                    assert_eq!(
                        dropped_note_len(count, listed, names.map(|n| n.chars().count())),
                        dropped_note(count, listed, names).chars().count(),
                        "{count} {listed} {names:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn everything_fits() {
        let costs = [entry(1, 100), entry(1, 40)];
        let f = fit(&costs, 10, || [1, 0], 162);
        assert_eq!(
            f,
            Fit {
                descriptions: Descriptions::Full,
                keep: vec![true, true],
                note: Note::None,
                omitted: false,
                len: 162,
            }
        );
    }

    #[test]
    fn shortens_evenly_to_the_largest_limit() {
        let costs = [entry(1, 100), entry(1, 40), entry(1, 10)];
        // Limit L >= 40: 10 + 6 + L + 6 + 40 + 6 + 10 = 78 + L; below 40: 38 + 2L.
        let f = fit(&costs, 10, || [2, 1, 0], 161);
        assert_eq!(f.descriptions, Descriptions::Limit(83));
        assert_eq!(f.len, 161);
        assert_eq!(f.keep, [true, true, true]);
        let f = fit(&costs, 10, || [2, 1, 0], 117);
        assert_eq!(f.descriptions, Descriptions::Limit(39));
        assert_eq!(f.len, 116);
        // One below the full cost.
        let f = fit(&costs, 10, || [2, 1, 0], 177);
        assert_eq!(f.descriptions, Descriptions::Limit(99));
        assert_eq!(f.len, 177);
        // The minimum: 38 + 64 = 102.
        let f = fit(&costs, 10, || [2, 1, 0], 102);
        assert_eq!(f.descriptions, Descriptions::Limit(MIN_DESCRIPTION_LIMIT));
        assert_eq!(f.len, 102);
    }

    #[test]
    fn names_only_below_the_minimum_limit() {
        let costs = [entry(1, 100), entry(1, 40), entry(1, 10)];
        let f = fit(&costs, 10, || [2, 1, 0], 101);
        assert_eq!(f.descriptions, Descriptions::NamesOnly);
        assert_eq!(f.len, 22);
        assert_eq!(f.note, Note::None);
        assert_eq!(f.keep, [true, true, true]);
        // Short descriptions only: no limit can help, straight to names only.
        let costs = [entry(1, 30), entry(1, 20)];
        let f = fit(&costs, 10, || [1, 0], 70);
        assert_eq!(f.descriptions, Descriptions::NamesOnly);
        assert_eq!(f.len, 18);
    }

    /// An XML-like entry: much markup around a short name.
    fn tagged(name: usize) -> EntryCost {
        EntryCost {
            names_only: name + 95,
            with_description: name + 110,
            description: DescriptionCost::plain(50),
            note_name: name,
        }
    }

    /// The note with its separating newline: count only, or with `k` dropped names of `n`.
    fn count(dropped: usize, listed: usize) -> usize {
        dropped_note_len(dropped, listed, None) + 1
    }

    fn named(dropped: usize, listed: usize, n: usize) -> usize {
        dropped_note_len(dropped, listed, Some(n * dropped + 2 * (dropped - 1))) + 1
    }

    #[test]
    fn drops_in_the_given_order_with_a_note() {
        let costs = vec![tagged(5); 4];
        // Names only: 10 + 4 * 100 = 410. Drop entry 3 (first in order) and name it.
        let budget = 10 + 3 * 100 + named(1, 3, 5);
        assert_eq!(budget, 10 + 300 + 82);
        let f = fit(&costs, 10, || [3, 1, 2, 0], budget);
        assert_eq!(f.descriptions, Descriptions::NamesOnly);
        assert_eq!(f.keep, [true, true, true, false]);
        assert_eq!(f.note, Note::Names);
        assert_eq!(f.len, budget);
        // Seven less: only the count (74 characters and the newline).
        let f = fit(&costs, 10, || [3, 1, 2, 0], budget - 7);
        assert_eq!(f.keep, [true, true, true, false]);
        assert_eq!(f.note, Note::Count);
        assert_eq!(f.len, 10 + 300 + count(1, 3));
        // One less than that: drop entry 1 as well; two names fit.
        let f = fit(&costs, 10, || [3, 1, 2, 0], budget - 8);
        assert_eq!(f.keep, [true, false, true, false]);
        assert_eq!(f.note, Note::Names);
        assert_eq!(f.len, 10 + 200 + named(2, 2, 5));
        // Everything dropped: the frame and the count.
        let f = fit(&costs, 10, || [3, 1, 2, 0], 10 + count(4, 0));
        assert_eq!(f.keep, [false; 4]);
        assert_eq!(f.note, Note::Count);
        assert!(!f.omitted);
        assert_eq!(f.listed(), 0);
        // Not even that.
        let f = fit(&costs, 10, || [3, 1, 2, 0], 10 + count(4, 0) - 1);
        assert!(f.omitted);
        assert_eq!(f.len, 0);
        assert_eq!(f.keep, [false; 4]);
        assert_eq!(f.note, Note::None);
    }

    #[test]
    fn weft_like_entries_drop_with_a_count() {
        // `- name\n` costs about as much as the name in the note, so dropping a few weft
        // entries leaves room for the count only.
        let costs = vec![entry(40, 50); 8];
        // Names only: 10 + 8 * 43 = 354; one dropped: 10 + 7 * 43 + 75 = 386; two dropped:
        // 10 + 6 * 43 + 79 = 347.
        let f = fit(&costs, 10, || [1, 2, 3, 4, 5, 6, 7, 0], 353);
        assert_eq!(f.keep, [true, false, false, true, true, true, true, true]);
        assert_eq!(f.note, Note::Count);
        assert_eq!(f.len, 10 + 6 * 43 + count(2, 6));
        assert_eq!(f.len, 347);
    }

    #[test]
    fn drop_order_is_followed_exactly() {
        let costs = vec![tagged(5); 4];
        let budget = 10 + 2 * 100 + named(2, 2, 5);
        let f = fit(&costs, 10, || [1, 2, 3, 0], budget);
        assert_eq!(f.keep, [true, false, false, true]);
        assert_eq!(f.note, Note::Names);
        assert_eq!(f.len, budget);
    }

    #[test]
    fn drop_order_is_asked_for_only_when_dropping() {
        let costs = vec![tagged(5); 2];
        let f = fit(
            &costs,
            10,
            || -> Vec<usize> { panic!("not needed") },
            10 + 200,
        );
        assert_eq!(f.descriptions, Descriptions::NamesOnly);
    }

    #[test]
    fn bad_drop_order_is_tolerated() {
        let costs = vec![tagged(5); 2];
        // Out of range and repeated indices are ignored; entry 1 is never dropped.
        let f = fit(&costs, 10, || [7, 0, 0], 10 + 100 + named(1, 1, 5));
        assert_eq!(f.keep, [false, true]);
        assert_eq!(f.note, Note::Names);
        let f = fit(&costs, 10, || [7, 0, 0], 10);
        assert!(f.omitted);
    }

    #[test]
    fn no_entries() {
        let f = fit(&[], 38, || [], 38);
        assert_eq!(f.descriptions, Descriptions::Full);
        assert_eq!(f.len, 38);
        assert!(!f.omitted);
        let f = fit(&[], 38, || [], 37);
        assert!(f.omitted);
        assert_eq!(f.len, 0);
    }

    #[test]
    fn budget_zero() {
        let costs = vec![entry(3, 50); 3];
        let f = fit(&costs, 10, || [2, 1, 0], 0);
        assert!(f.omitted);
        assert_eq!(f.keep, [false; 3]);
        assert_eq!(f.len, 0);
        let f = fit(&costs, 0, || [2, 1, 0], 0);
        assert!(f.omitted);
    }

    #[test]
    fn length_never_exceeds_the_budget_and_stages_are_monotone() {
        let costs: Vec<EntryCost> = (0..12).map(|i| entry(5 + i, 20 + 13 * i)).collect();
        let order: Vec<usize> = (0..12).rev().collect();
        let full = fit(&costs, 50, || &order, usize::MAX).len;
        let mut last_listed = 0;
        let mut last_limit = 0;
        for budget in 0..=full + 5 {
            let f = fit(&costs, 50, || &order, budget);
            assert!(f.len <= budget, "{budget}: {f:?}");
            let listed = f.listed();
            assert!(listed >= last_listed, "{budget}");
            let limit = match f.descriptions {
                Descriptions::NamesOnly => 0,
                Descriptions::Limit(l) => l,
                Descriptions::Full => usize::MAX,
            };
            assert!(limit >= last_limit || listed > last_listed, "{budget}");
            (last_listed, last_limit) = (listed, limit);
        }
        assert_eq!(last_limit, usize::MAX);
    }
}
