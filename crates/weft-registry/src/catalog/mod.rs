//! The skill catalog: level 1 of progressive disclosure.
//!
//! The catalog lists the name and description of every model-invocable skill for the system
//! prompt. The caller (the registry) chooses the entries — skills hidden by
//! `disable-model-invocation` are simply not passed — and this module fits them to a
//! character budget ([`budget_for`]) and renders them ([`render_catalog`]).
//!
//! # Lengths and the budget
//!
//! Every length is counted in characters (Unicode scalar values), and the budget covers the
//! whole rendered text, header, closing tags and the dropped-skills note included:
//! [`CatalogReport::used`] never exceeds [`CatalogReport::budget`].
//!
//! # Fitting (DESIGN 7)
//!
//! Each description is first cut to [`DESCRIPTION_CAP`] (1,024) characters. Then, first that
//! fits wins:
//!
//! 1. every entry with its description;
//! 2. every description shortened evenly: the largest common limit `L` (at least
//!    [`MIN_DESCRIPTION_LIMIT`] = 32) such that the catalog fits; a description longer than
//!    `L` keeps `L - 1` characters and ends with `…`;
//! 3. names only;
//! 4. names only, dropping skills with the lowest precedence first (the highest
//!    [`Scope`], within a scope in reverse name order: [`drop_order`]) until the rest fits
//!    with a closing line such as
//!    `(2 more skills are not listed to fit the budget; use_skill still accepts them: a, b)`
//!    (only the number when the names do not fit);
//! 5. nothing: even the header with that line does not fit, and the text is empty.
//!
//! Cuts are at character boundaries and never look for a word boundary, so a cut may leave a
//! space before the `…` (`changes to …`). Dropped names go in the note only when they fit;
//! in the weft format a name costs about as much in the note as its `- name` line, so once
//! skills have to be dropped the note usually gives only their number (in the XML format an
//! entry is much longer than its name, and the names usually fit). The note lists names in
//! rendering order; [`CatalogReport::dropped`] is in drop order.
//!
//! The decision is made by the pure [`fit()`] on lengths computed arithmetically (no
//! rendering during the search); everything shortened or dropped is in the
//! [`CatalogReport`], whose [`summary`](CatalogReport::summary) gives lines for the user.
//!
//! # Formats
//!
//! [`CatalogFormat::Weft`], the system-prompt section:
//!
//! ```text
//! ## Skills
//!
//! Skills are instructions for specific tasks. When a task matches a skill's description, call the use_skill tool with the skill's name before starting; its instructions come back as the tool result.
//!
//! - code-review: Use when reviewing code changes or PRs
//! - commit: Use when committing changes to git
//! ```
//!
//! Entries are sorted by name, then location (input order does not matter); whitespace runs
//! in a description (newlines included) become single spaces and the ends are trimmed; a
//! names-only line is `- name`; the dropped-skills line, if any, is the last line; the text
//! ends with one `\n`. With no entries the text is empty: no empty section
//! (CONFORMANCE H04).
//!
//! [`CatalogFormat::Xml`] is byte for byte what `to_prompt` of skills-ref 0.1.1 returns
//! (SPEC_RULES 4.5): every tag and value on its own line, joined by `\n`, no final newline,
//! names and descriptions escaped like Python's `html.escape` (`& < > " '`), descriptions
//! otherwise verbatim (newlines kept). Differences, all on purpose:
//!
//! - the location is escaped too (CONFORMANCE H03: skills-ref emits a raw `&`, which is
//!   invalid XML); ordinary paths are unchanged;
//! - an entry without a location has no `<location>` element (skills-ref always has one);
//! - input order is kept, like skills-ref, which renders directories in the order given;
//!   this is the one place the two formats differ in order (weft sorts);
//! - with no entries the text is `<available_skills>\n</available_skills>`, as skills-ref;
//! - budget fitting applies as well: a shortened description ends with `…`, names-only mode
//!   keeps an empty `<description>\n</description>` pair, and the dropped-skills note is a
//!   plain line after `</available_skills>` (names escaped).

mod description_cost;
pub mod fit;
mod weft;
mod xml;

use std::path::Path;

use weft_types::Scope;

pub use fit::{
    DESCRIPTION_CAP, DescriptionCost, Descriptions, ELLIPSIS, EntryCost, Fit,
    MIN_DESCRIPTION_LIMIT, Note, fit,
};

/// The budget when the context window is unknown, in characters.
pub const DEFAULT_BUDGET_CHARS: usize = 16_000;

/// At most this many names are spelled out in one [`CatalogReport::summary`] line.
const SUMMARY_NAMES: usize = 20;

/// One skill as the catalog sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatalogEntry<'a> {
    /// The skill's name (what `use_skill` accepts).
    pub name: &'a str,
    /// What the skill does and when to use it.
    pub description: &'a str,
    /// The skill's `SKILL.md` file, shown by the XML renderer (and a sort tie-breaker).
    pub location: Option<&'a Path>,
    /// Where the skill came from: decides what is dropped first.
    pub scope: Scope,
}

/// Characters available for the catalog: `context_window_tokens × 4 × 2 / 100` (2% of the
/// window at about 4 characters a token), or [`DEFAULT_BUDGET_CHARS`] when the window is
/// unknown (`None` or `Some(0)`).
///
/// ```
/// use weft_registry::catalog::budget_for;
///
/// assert_eq!(budget_for(Some(200_000)), 16_000);
/// assert_eq!(budget_for(Some(1_000_000)), 80_000);
/// assert_eq!(budget_for(None), 16_000);
/// ```
pub fn budget_for(context_window_tokens: Option<u64>) -> usize {
    match context_window_tokens {
        None | Some(0) => DEFAULT_BUDGET_CHARS,
        Some(tokens) => usize::try_from(tokens.saturating_mul(8) / 100).unwrap_or(usize::MAX),
    }
}

/// The two renderings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CatalogFormat {
    /// The weft system-prompt section (`## Skills` and a Markdown list), sorted by name.
    #[default]
    Weft,
    /// skills-ref's `<available_skills>` block, in input order.
    Xml,
}

/// A rendered catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    /// The text for the system prompt (may be empty).
    pub text: String,
    /// What was fitted and how.
    pub report: CatalogReport,
}

/// What fitting did to the catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogReport {
    /// The budget, in characters.
    pub budget: usize,
    /// Characters of the text.
    pub used: usize,
    /// Skills listed.
    pub listed: usize,
    /// Names of listed skills whose description was cut (by the 1,024-character cap or to
    /// fit), in rendering order. Empty in names-only mode.
    pub shortened: Vec<String>,
    /// The limit descriptions were cut to, when any was cut.
    pub description_limit: Option<usize>,
    /// Whether the skills are listed by name only, without descriptions.
    pub names_only: bool,
    /// Names left out, in drop order (lowest precedence first).
    pub dropped: Vec<String>,
}

impl CatalogReport {
    /// True when every skill is listed with its whole description.
    pub fn is_complete(&self) -> bool {
        self.shortened.is_empty() && !self.names_only && self.dropped.is_empty()
    }

    /// Lines for the user (stderr), empty when [complete](Self::is_complete), e.g.
    /// `2 skills not listed (budget 16000 chars): x, y`. At most 20 names are spelled out
    /// per line.
    pub fn summary(&self) -> Vec<String> {
        let budget = self.budget;
        let mut lines = Vec::new();
        if !self.shortened.is_empty() {
            let n = self.shortened.len();
            let limit = self.description_limit.unwrap_or(DESCRIPTION_CAP);
            lines.push(format!(
                "{n} skill description{} shortened to {limit} chars (budget {budget} chars): {}",
                plural(n),
                name_list(&self.shortened)
            ));
        }
        if self.names_only {
            lines.push(format!(
                "skill catalog lists names only, without descriptions (budget {budget} chars)"
            ));
        }
        if !self.dropped.is_empty() {
            let n = self.dropped.len();
            lines.push(format!(
                "{n} skill{} not listed (budget {budget} chars): {}",
                plural(n),
                name_list(&self.dropped)
            ));
        }
        lines
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `a, b, c`, or the first [`SUMMARY_NAMES`] and `and N more`.
fn name_list(names: &[String]) -> String {
    let mut s = names
        .iter()
        .take(SUMMARY_NAMES)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SUMMARY_NAMES {
        s.push_str(&format!(" and {} more", names.len() - SUMMARY_NAMES));
    }
    s
}

/// The order in which entries are dropped when even names only do not fit: lowest
/// precedence first, i.e. the highest [`Scope`] first, within a scope in reverse name order
/// (then reverse location, then reverse index, so the order is total).
///
/// ```
/// use weft_registry::catalog::{CatalogEntry, drop_order};
/// use weft_types::Scope;
///
/// let e = |name, scope| CatalogEntry { name, description: "d", location: None, scope };
/// let entries = [e("a", Scope::Builtin), e("b", Scope::Project), e("c", Scope::Builtin)];
/// assert_eq!(drop_order(&entries), [2, 0, 1]);
/// ```
pub fn drop_order(entries: &[CatalogEntry<'_>]) -> Vec<usize> {
    drop_order_of(&entries.iter().collect::<Vec<_>>(), false)
}

/// [`drop_order`] of `entries`; `sorted`: they are already sorted by name and location (as
/// the weft format renders them), so only the scopes need ordering.
fn drop_order_of(entries: &[&CatalogEntry<'_>], sorted: bool) -> Vec<usize> {
    if sorted {
        // Reverse rendering order is reverse (name, location, index) order: take it scope by
        // scope, lowest precedence first.
        let mut order = Vec::with_capacity(entries.len());
        for scope in Scope::ALL.iter().rev() {
            order.extend(
                (0..entries.len())
                    .rev()
                    .filter(|&i| entries[i].scope == *scope),
            );
        }
        return order;
    }
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let (ea, eb) = (entries[a], entries[b]);
        (eb.scope, eb.name, eb.location, b).cmp(&(ea.scope, ea.name, ea.location, a))
    });
    order
}

/// Renders the catalog of `entries` in `format` within `budget_chars` characters.
///
/// ```
/// use weft_registry::catalog::{render_catalog, CatalogEntry, CatalogFormat};
/// use weft_types::Scope;
///
/// let e = |name, description| CatalogEntry { name, description, location: None, scope: Scope::User };
/// let entries = [
///     e("commit", "Use when committing changes to git"),
///     e("code-review", "Use when reviewing\ncode changes or PRs"),
/// ];
/// let catalog = render_catalog(&entries, CatalogFormat::Weft, 16_000);
/// assert!(catalog.text.ends_with(
///     "\n\n- code-review: Use when reviewing code changes or PRs\n- commit: Use when committing changes to git\n"
/// ));
/// assert!(catalog.report.is_complete());
/// ```
pub fn render_catalog(
    entries: &[CatalogEntry<'_>],
    format: CatalogFormat,
    budget_chars: usize,
) -> Catalog {
    let mut ordered: Vec<&CatalogEntry<'_>> = entries.iter().collect();
    if format == CatalogFormat::Weft {
        // Stable: entries equal in name and location keep their input order.
        ordered.sort_by(|a, b| (a.name, a.location).cmp(&(b.name, b.location)));
        if ordered.is_empty() {
            return Catalog {
                text: String::new(),
                report: CatalogReport {
                    budget: budget_chars,
                    ..CatalogReport::default()
                },
            };
        }
    }

    let (frame, costs): (usize, Vec<EntryCost>) = match format {
        CatalogFormat::Weft => (weft::FRAME, ordered.iter().map(|e| weft::cost(e)).collect()),
        CatalogFormat::Xml => (xml::FRAME, ordered.iter().map(|e| xml::cost(e)).collect()),
    };
    let sorted = format == CatalogFormat::Weft;
    let mut order = None;
    let (slot, ordered_ref) = (&mut order, &ordered);
    let fit = fit::fit(
        &costs,
        frame,
        move || slot.insert(drop_order_of(ordered_ref, sorted)),
        budget_chars,
    );

    let text = if fit.omitted {
        String::new()
    } else {
        match format {
            CatalogFormat::Weft => weft::render(&ordered, &costs, &fit),
            CatalogFormat::Xml => xml::render(&ordered, &costs, &fit),
        }
    };
    let used = text.chars().count();
    debug_assert_eq!(used, fit.len, "fit length and rendering disagree");

    let listed = fit.listed();
    let limit = fit.descriptions.limit();
    let shortened: Vec<String> = if fit.descriptions == Descriptions::NamesOnly {
        Vec::new()
    } else {
        ordered
            .iter()
            .zip(&costs)
            .filter(|(_, c)| c.description.is_cut(limit))
            .map(|(e, _)| e.name.to_owned())
            .collect()
    };
    let description_limit =
        (!shortened.is_empty()).then(|| limit.unwrap_or(DESCRIPTION_CAP).min(DESCRIPTION_CAP));
    let dropped = match order {
        Some(order) => order
            .iter()
            .filter(|&&i| !fit.keep[i])
            .map(|&i| ordered[i].name.to_owned())
            .collect(),
        None => Vec::new(),
    };
    Catalog {
        text,
        report: CatalogReport {
            budget: budget_chars,
            used,
            listed,
            shortened,
            description_limit,
            names_only: fit.descriptions == Descriptions::NamesOnly && listed > 0,
            dropped,
        },
    }
}

/// Writes a description, cut as `cost` and `limit` say, pushing each character with `push`
/// (which may escape it); `…` ends a cut description and is never escaped.
fn push_description(
    out: &mut String,
    text: impl Iterator<Item = char>,
    cost: &DescriptionCost,
    limit: Option<usize>,
    push: impl Fn(&mut String, char),
) {
    if cost.is_cut(limit) {
        let effective = limit.unwrap_or(DESCRIPTION_CAP).min(DESCRIPTION_CAP);
        for c in text.take(effective.max(1) - 1) {
            push(out, c);
        }
        out.push(ELLIPSIS);
    } else {
        for c in text {
            push(out, c);
        }
    }
}

/// The dropped-skills note for a fit, with the dropped names (as `name_of` writes them) in
/// rendering order; `None` when the fit has no note.
fn note_for(
    ordered: &[&CatalogEntry<'_>],
    fit: &Fit,
    name_of: impl Fn(&str) -> String,
) -> Option<String> {
    let count = fit.keep.iter().filter(|&&k| !k).count();
    let listed = fit.keep.len() - count;
    let names = match fit.note {
        Note::None => return None,
        Note::Count => None,
        Note::Names => Some(
            ordered
                .iter()
                .zip(&fit.keep)
                .filter(|(_, k)| !**k)
                .map(|(e, _)| name_of(e.name))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    };
    Some(fit::dropped_note(count, listed, names.as_deref()))
}
