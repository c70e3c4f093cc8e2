//! Trigger matching: ranking skills against a text.
//!
//! [`TriggerMatcher`] indexes the level-1 data of a set of skills (name, description,
//! `when_to_use`, keywords) and ranks them against user text with BM25. It backs
//! `weft skills match "<text>"`, the REPL hints and the seed-001 selector (seed 002 calls it
//! `match_context`).
//!
//! # Scoring
//!
//! - Text is cut into terms by [`tokenize`]: Unicode lowercase, split on anything that is not
//!   alphanumeric, tokens of one character and [`STOPWORDS`] dropped, then a light stemmer
//!   (see [`tokenize`]). Documents and queries go through the same function, so
//!   `code-review` indexes as `code` + `review`.
//! - Each skill is one document whose fields are weighted by repeating them: the weighted term
//!   frequency is `tf'(t, d) = 3·tf_name + 2·tf_keywords + tf_description`, where the
//!   description field is the description (without a `Keywords:` tail, which the parser has
//!   already moved into `keywords`) followed by `when_to_use`. The document length is the
//!   weighted token count `Σ_t tf'(t, d)`.
//! - BM25 with `k1 = 1.2`, `b = 0.75` and `idf(t) = ln(1 + (N − n_t + 0.5) / (n_t + 0.5))`
//!   (always positive). Query terms are de-duplicated, so repeating a word does not count
//!   twice.
//! - **Confidence** is the BM25 score divided by a reference score for this query,
//!   `Σ idf(t)·(k1 + 1)·3/(3 + k1)` over the query's *known* terms (terms that occur in at
//!   least one skill): the score of a skill of average length that has every such term once
//!   in its name (weight 3). It is clamped to `0..=1`: every term once in the description
//!   gives about 0.64, every term in the name (or repeated) gives 1. Words that no skill uses
//!   count in the reference at the mean weight of the known ones, so a text that shares one
//!   word of three with a skill is a weak match; a text with no known word matches nothing.
//!   (Stopwords are removed first, so filler like "please" never counts.)
//!
//! Results are deterministic: the same skills and text give the same list, ordered by score
//! (best first) and then by name.
//!
//! # Auto-loading
//!
//! [`TriggerMatcher::rank`] lists every skill with a non-zero score, including skills with
//! `disable-model-invocation` (flagged by [`TriggerMatch::model_invocable`]), for display.
//! [`TriggerMatcher::best`] answers what may be loaded automatically: it never returns a
//! manual-only skill (the seed's `AutoInvocationBlocked`), ignores matches below the minimum
//! confidence ([`DEFAULT_MIN_CONFIDENCE`] unless changed) and reports a
//! [`MatchOutcome::Conflict`] when the best candidates tie (the seed's
//! `TriggerMatchConflict`).
//!
//! ```
//! use weft_registry::matcher::{MatchOutcome, TriggerMatcher};
//! use weft_types::{Scope, Skill};
//!
//! let skills = [
//!     Skill::in_memory("code-review", "Review code changes for bugs. Use when reviewing a diff.", Scope::User),
//!     Skill::in_memory("pdf-processing", "Extract text from PDF files, fill forms.", Scope::User),
//! ];
//! let matcher = TriggerMatcher::new(&skills);
//! let MatchOutcome::Match(best) = matcher.best("please review this diff") else {
//!     panic!("expected a match");
//! };
//! assert_eq!(best.name, "code-review");
//! assert!((0.5..=1.0).contains(&best.confidence));
//! ```
//!
//! # Performance
//!
//! The index maps each term to its postings (skill, weighted frequency), all stored in one
//! array grouped by term, so ranking touches only the skills that share a term with the query;
//! IDF and per-skill length normalisation are precomputed. Building is one pass over the
//! skills' text. [`TriggerMatcher::best`] materialises only the winners, so it is much cheaper
//! than [`TriggerMatcher::rank`], which returns every skill sharing a term.
//!
//! This module is the index and the ranking; `terms.rs` is how text becomes terms (the
//! stopwords and the stemmer), `term_map.rs` the term dictionary's hash.

mod term_map;
mod terms;

use weft_types::Skill;

use term_map::TermMap;
use terms::for_each_token;
pub use terms::{STOPWORDS, tokenize};

/// The minimum confidence for [`TriggerMatcher::best`] unless changed with
/// [`TriggerMatcher::with_min_confidence`].
pub const DEFAULT_MIN_CONFIDENCE: f32 = 0.5;

/// Weight of a term occurrence in the skill's name.
const NAME_WEIGHT: u32 = 3;
/// Weight of a term occurrence in the skill's keywords.
const KEYWORD_WEIGHT: u32 = 2;
/// Weight of a term occurrence in the description or `when_to_use`.
const DESCRIPTION_WEIGHT: u32 = 1;
/// BM25 term-frequency saturation.
const K1: f64 = 1.2;
/// The weighted term frequency of one mention in the name: the strength of evidence that
/// counts as full confidence.
const REFERENCE_TF: f64 = 3.0;
/// How much a query word that no skill uses counts against coverage, relative to a known one.
const UNKNOWN_WEIGHT: f64 = 0.5;
/// BM25 length normalisation.
const B: f64 = 0.75;
/// Confidences closer than this are a tie.
const TIE_EPSILON: f32 = 1e-6;

/// One skill's entry in a term's postings.
#[derive(Debug, Clone, Copy)]
struct Posting {
    /// Index of the skill in [`TriggerMatcher::docs`].
    doc: u32,
    /// Weighted term frequency `tf'`.
    tf: u32,
}

/// What the matcher keeps of one skill.
#[derive(Debug, Clone)]
struct Doc {
    name: String,
    model_invocable: bool,
    /// `k1·(1 − b + b·dl/avgdl)`, the BM25 length normalisation.
    norm: f64,
}

/// An index over skills for matching user text against them.
///
/// Built once from the skills (it copies what it needs and keeps no reference); ranking a text
/// costs time proportional to the postings of the text's terms. See the
/// [module documentation](self) for the scoring.
#[derive(Debug, Clone)]
pub struct TriggerMatcher {
    docs: Vec<Doc>,
    /// Term → term id, an index into `idf` and `offsets`.
    terms: TermMap,
    /// Every term's postings, one term after the other, each in ascending skill order.
    postings: Vec<Posting>,
    /// Term `t`'s postings are `postings[offsets[t]..offsets[t + 1]]`.
    offsets: Vec<u32>,
    /// Per term, its inverse document frequency.
    idf: Vec<f64>,
    min_confidence: f32,
}

impl Default for TriggerMatcher {
    /// A matcher over no skills.
    fn default() -> Self {
        Self::new([])
    }
}

/// One skill matched against a text.
#[derive(Debug, Clone, PartialEq)]
pub struct TriggerMatch {
    /// The skill's name.
    pub name: String,
    /// The score relative to the best score possible for the text, in `0..=1` (see the
    /// [module documentation](self)).
    pub confidence: f32,
    /// The raw BM25 score (comparable only between skills ranked against the same text).
    pub score: f32,
    /// False for a `disable-model-invocation` skill: it is listed by
    /// [`TriggerMatcher::rank`] but never auto-loaded by [`TriggerMatcher::best`].
    pub model_invocable: bool,
    /// The query's terms (as [`tokenize`] returns them: lowercased and stemmed) that occur in
    /// the skill, in the order they first appear in the text.
    pub matched_terms: Vec<String>,
}

/// What may be auto-loaded for a text: the answer of [`TriggerMatcher::best`].
#[derive(Debug, Clone, PartialEq)]
pub enum MatchOutcome {
    /// No model-invocable skill matches with at least the minimum confidence.
    None,
    /// One skill matches best.
    Match(TriggerMatch),
    /// Two or more skills tie for the best confidence (within 1e-6), ordered by name: the user
    /// should choose.
    Conflict(Vec<TriggerMatch>),
}

impl TriggerMatcher {
    /// Indexes `skills`; the minimum confidence is [`DEFAULT_MIN_CONFIDENCE`].
    ///
    /// Skills are kept in the order given; a repeated name is indexed twice.
    pub fn new<'a>(skills: impl IntoIterator<Item = &'a Skill>) -> Self {
        let mut docs = Vec::new();
        let mut lengths: Vec<u64> = Vec::new();
        let mut terms = TermMap::default();
        // Per term: the number of skills containing it.
        let mut df: Vec<u32> = Vec::new();
        // Every (term, skill, tf') in skill order; spread into `postings` at the end.
        let mut entries: Vec<(u32, Posting)> = Vec::new();
        // Per term: the last skill that used it and where its count is in `entries`.
        let mut seen: Vec<(u32, usize)> = Vec::new();

        for skill in skills {
            let doc = u32::try_from(docs.len()).unwrap_or(u32::MAX);
            let mut length = 0u64;
            let mut add = |token: &str, weight: u32| {
                let id = match terms.get(token) {
                    Some(&id) => id,
                    None => {
                        let id = u32::try_from(df.len()).unwrap_or(u32::MAX);
                        terms.insert(token.to_owned(), id);
                        df.push(0);
                        seen.push((u32::MAX, 0));
                        id
                    }
                };
                let last = &mut seen[id as usize];
                if last.0 == doc {
                    entries[last.1].1.tf += weight;
                } else {
                    *last = (doc, entries.len());
                    entries.push((id, Posting { doc, tf: weight }));
                    df[id as usize] += 1;
                }
                length += u64::from(weight);
            };
            for_each_token(&skill.name, |t| add(t, NAME_WEIGHT));
            for keyword in &skill.keywords {
                for_each_token(keyword, |t| add(t, KEYWORD_WEIGHT));
            }
            for_each_token(description_without_keywords(&skill.description), |t| {
                add(t, DESCRIPTION_WEIGHT)
            });
            if let Some(when) = &skill.when_to_use {
                for_each_token(when, |t| add(t, DESCRIPTION_WEIGHT));
            }
            lengths.push(length);
            docs.push(Doc {
                name: skill.name.clone(),
                model_invocable: skill.model_invocable(),
                norm: 0.0,
            });
        }

        // Counting sort of `entries` by term; each term's postings stay in skill order.
        let mut offsets = Vec::with_capacity(df.len() + 1);
        let mut end = 0u32;
        offsets.push(0);
        for &count in &df {
            end += count;
            offsets.push(end);
        }
        let mut cursor: Vec<u32> = offsets[..df.len()].to_vec();
        let mut postings = vec![Posting { doc: 0, tf: 0 }; entries.len()];
        for &(id, posting) in &entries {
            let at = &mut cursor[id as usize];
            postings[*at as usize] = posting;
            *at += 1;
        }

        let n = docs.len() as f64;
        let total: u64 = lengths.iter().sum();
        let avgdl = if total == 0 { 1.0 } else { total as f64 / n };
        for (doc, &length) in docs.iter_mut().zip(&lengths) {
            doc.norm = K1 * (1.0 - B + B * length as f64 / avgdl);
        }
        let idf = df
            .iter()
            .map(|&nt| {
                let nt = f64::from(nt);
                (1.0 + (n - nt + 0.5) / (nt + 0.5)).ln()
            })
            .collect();
        Self {
            docs,
            terms,
            postings,
            offsets,
            idf,
            min_confidence: DEFAULT_MIN_CONFIDENCE,
        }
    }

    /// Sets the minimum confidence for [`best`](Self::best) (`0.0` accepts every match; a NaN
    /// accepts none).
    pub fn with_min_confidence(mut self, min: f32) -> Self {
        self.min_confidence = min;
        self
    }

    /// The minimum confidence for [`best`](Self::best).
    pub fn min_confidence(&self) -> f32 {
        self.min_confidence
    }

    /// Every skill with a non-zero score, best first (ties broken by name), with confidence in
    /// `0..=1`; includes manual-only skills (flagged by [`TriggerMatch::model_invocable`]).
    pub fn rank(&self, text: &str) -> Vec<TriggerMatch> {
        let Some(mut scored) = self.score(text) else {
            return Vec::new();
        };
        let mut hits = std::mem::take(&mut scored.hits);
        self.sort(&mut hits);
        hits.iter()
            .map(|&(doc, score)| self.to_match(&scored, doc, score))
            .collect()
    }

    /// What may be auto-loaded for `text`: ignores skills with `disable_model_invocation` and
    /// matches below the minimum confidence. When the two best remaining skills have the same
    /// confidence (within 1e-6), returns [`MatchOutcome::Conflict`] with every skill tied at
    /// the top.
    pub fn best(&self, text: &str) -> MatchOutcome {
        let Some(mut scored) = self.score(text) else {
            return MatchOutcome::None;
        };
        let (max, coverage) = (scored.max, scored.coverage);
        let confidence = |score: f64| confidence(score, max, coverage);
        let mut candidates: Vec<(u32, f64)> = std::mem::take(&mut scored.hits)
            .into_iter()
            .filter(|&(doc, score)| {
                self.docs[doc as usize].model_invocable && confidence(score) >= self.min_confidence
            })
            .collect();
        let Some(top) = candidates
            .iter()
            .map(|&(_, score)| confidence(score))
            .reduce(f32::max)
        else {
            return MatchOutcome::None;
        };
        candidates.retain(|&(_, score)| top - confidence(score) <= TIE_EPSILON);
        self.sort(&mut candidates);
        let mut tied: Vec<TriggerMatch> = candidates
            .iter()
            .map(|&(doc, score)| self.to_match(&scored, doc, score))
            .collect();
        match tied.len() {
            0 => MatchOutcome::None,
            1 => tied.pop().map_or(MatchOutcome::None, MatchOutcome::Match),
            _ => {
                tied.sort_by(|a, b| a.name.cmp(&b.name));
                MatchOutcome::Conflict(tied)
            }
        }
    }

    /// The number of skills indexed.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// True when no skill is indexed.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The postings of term `id`.
    fn postings_of(&self, id: u32) -> &[Posting] {
        let id = id as usize;
        &self.postings[self.offsets[id] as usize..self.offsets[id + 1] as usize]
    }

    /// BM25 scores of every skill sharing a term with `text`; `None` when `text` has no known
    /// term.
    fn score(&self, text: &str) -> Option<Scored> {
        let mut query: Vec<(String, u32)> = Vec::new();
        let mut unknown: Vec<String> = Vec::new();
        for_each_token(text, |token| match self.terms.get(token) {
            Some(&id) => {
                if !query.iter().any(|(_, q)| *q == id) {
                    query.push((token.to_owned(), id));
                }
            }
            None => {
                if !unknown.iter().any(|u| u == token) {
                    unknown.push(token.to_owned());
                }
            }
        });
        if query.is_empty() {
            return None;
        }
        let per_term = |idf: f64| idf * (K1 + 1.0) * REFERENCE_TF / (REFERENCE_TF + K1);
        let max: f64 = query
            .iter()
            .map(|&(_, id)| per_term(self.idf[id as usize]))
            .sum();
        // Words no skill uses still count against coverage, at half a known word's weight:
        // "update the changelog" matching `changelog` alone is a fair match, "investigate why
        // the cache is slow" matching `investigate` alone a weak one.
        let coverage =
            query.len() as f64 / (query.len() as f64 + UNKNOWN_WEIGHT * unknown.len() as f64);

        let mut scores = vec![0.0f64; self.docs.len()];
        let mut touched: Vec<u32> = Vec::new();
        for &(_, id) in &query {
            let idf = self.idf[id as usize];
            for posting in self.postings_of(id) {
                let doc = posting.doc as usize;
                let tf = f64::from(posting.tf);
                if scores[doc] == 0.0 {
                    touched.push(posting.doc);
                }
                scores[doc] += idf * tf * (K1 + 1.0) / (tf + self.docs[doc].norm);
            }
        }
        let hits = touched
            .into_iter()
            .map(|doc| (doc, scores[doc as usize]))
            .collect();
        Some(Scored {
            query,
            max,
            coverage,
            hits,
        })
    }

    /// Orders `(doc, score)` pairs best first, then by name, then by index.
    fn sort(&self, hits: &mut [(u32, f64)]) {
        hits.sort_by(|&(da, sa), &(db, sb)| {
            sb.total_cmp(&sa)
                .then_with(|| {
                    self.docs[da as usize]
                        .name
                        .cmp(&self.docs[db as usize].name)
                })
                .then(da.cmp(&db))
        });
    }

    fn to_match(&self, scored: &Scored, doc: u32, score: f64) -> TriggerMatch {
        let query = &scored.query;
        let entry = &self.docs[doc as usize];
        let matched_terms = query
            .iter()
            .filter(|&&(_, id)| {
                self.postings_of(id)
                    .binary_search_by_key(&doc, |p| p.doc)
                    .is_ok()
            })
            .map(|(term, _)| term.clone())
            .collect();
        TriggerMatch {
            name: entry.name.clone(),
            confidence: confidence(score, scored.max, scored.coverage),
            score: score as f32,
            model_invocable: entry.model_invocable,
            matched_terms,
        }
    }
}

/// The scores of one query.
struct Scored {
    /// The query's known terms, de-duplicated, in text order, with their ids.
    query: Vec<(String, u32)>,
    /// The reference score of the query's known terms.
    max: f64,
    /// The share of the query's words that some skill knows (unknown ones weigh half).
    coverage: f64,
    /// Every skill with a non-zero score, in no particular order.
    hits: Vec<(u32, f64)>,
}

/// `score / max` clamped to `0..=1`, times the query's coverage.
fn confidence(score: f64, max: f64, coverage: f64) -> f32 {
    if max > 0.0 {
        ((score / max).clamp(0.0, 1.0) * coverage) as f32
    } else {
        0.0
    }
}

/// The description without its `Keywords:` tail, which the parser copies into
/// [`Skill::keywords`] (indexed there with the keyword weight).
fn description_without_keywords(description: &str) -> &str {
    description
        .find("Keywords:")
        .map_or(description, |idx| &description[..idx])
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_types::Scope;

    fn skill(name: &str, description: &str) -> Skill {
        Skill::in_memory(name, description, Scope::User)
    }

    #[test]
    fn field_weights_and_lengths() {
        let mut s = skill("alpha-beta", "gamma. Keywords: delta");
        s.keywords = vec!["delta".into()];
        s.when_to_use = Some("epsilon gamma".into());
        let m = TriggerMatcher::new([&s]);
        let tf = |term: &str| m.postings_of(m.terms[term])[0].tf;
        assert_eq!(tf("alpha"), 3);
        assert_eq!(tf("beta"), 3);
        assert_eq!(
            tf("delta"),
            2,
            "the Keywords: tail is indexed once, as keywords"
        );
        assert_eq!(tf("gamma"), 2);
        assert_eq!(tf("epsilon"), 1);
        assert!(!m.terms.contains_key("keyword"));
        // A single document has the average length: norm = k1.
        assert!((m.docs[0].norm - K1).abs() < 1e-12);
    }

    #[test]
    fn confidence_matches_the_formula() {
        let a = skill("deploy", "Deploy the service to production");
        let b = skill("notes", "Write meeting notes");
        let m = TriggerMatcher::new([&a, &b]);
        let ranked = m.rank("deploy production deploy");
        assert_eq!(ranked.len(), 1);
        let r = &ranked[0];
        assert_eq!(r.matched_terms, ["deploy", "production"]);
        // N = 2, n_t = 1 for both terms.
        let idf = (1.0f64 + 1.5 / 1.5).ln();
        // Both lengths are 6 (deploy: 3 + deploy, service, production; notes: 3 + write,
        // meeting, notes), so both norms are k1.
        let l_a = m.docs[0].norm;
        assert!((l_a - K1).abs() < 1e-12);
        let tf_deploy = 4.0;
        let tf_prod = 1.0;
        let score = idf * tf_deploy * (K1 + 1.0) / (tf_deploy + l_a)
            + idf * tf_prod * (K1 + 1.0) / (tf_prod + l_a);
        let max = 2.0 * idf * (K1 + 1.0) * REFERENCE_TF / (REFERENCE_TF + K1);
        assert!((f64::from(r.score) - score).abs() < 1e-5);
        assert!((f64::from(r.confidence) - score / max).abs() < 1e-6);
    }

    #[test]
    fn unknown_terms_lower_confidence_by_coverage() {
        let a = skill("deploy", "Deploy the service to production");
        let b = skill("notes", "Write meeting notes");
        let m = TriggerMatcher::new([&a, &b]);
        // `service` is once in a description: an unclamped confidence.
        let plain = m.rank("service");
        let padded = m.rank("service frobnicate");
        assert_eq!(plain[0].name, padded[0].name);
        assert_eq!(plain[0].score, padded[0].score);
        // One known word and one unknown (weighing half): two thirds of the confidence.
        assert!((padded[0].confidence - plain[0].confidence / 1.5).abs() < 1e-6);
        assert!(m.rank("frobnicate quux").is_empty());
        assert_eq!(m.best("frobnicate quux"), MatchOutcome::None);
    }

    #[test]
    fn ties_are_ordered_by_name_and_conflict() {
        let skills = [
            skill("zeta-tool", "Format source files"),
            skill("alpha-tool", "Format source files"),
        ];
        // Each term once, in the description, at the average length: confidence
        // (3 + k1) / (3 (1 + k1)) ≈ 0.64.
        let m = TriggerMatcher::new(&skills);
        let ranked = m.rank("format my source files");
        let names: Vec<_> = ranked.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["alpha-tool", "zeta-tool"]);
        assert_eq!(ranked[0].score, ranked[1].score);
        let MatchOutcome::Conflict(tied) = m.best("format my source files") else {
            panic!("expected a conflict");
        };
        assert_eq!(tied.len(), 2);
        assert_eq!(tied[0].name, "alpha-tool");
    }

    #[test]
    fn matched_terms_are_per_skill() {
        let a = skill("deploy", "Deploy the service to production");
        let b = skill("rollback", "Roll back a production release");
        let m = TriggerMatcher::new([&a, &b]);
        let ranked = m.rank("deploy to production");
        assert_eq!(ranked[0].name, "deploy");
        assert_eq!(ranked[0].matched_terms, ["deploy", "production"]);
        assert_eq!(ranked[1].matched_terms, ["production"]);
    }

    #[test]
    fn min_confidence_controls_best() {
        let a = skill("deploy", "Deploy the service to production");
        let b = skill("rollback", "Roll back a production release");
        let m = TriggerMatcher::new([&a, &b]).with_min_confidence(0.9);
        // `service` is once in one description: a moderate confidence.
        let top = m.rank("service")[0].clone();
        assert!(top.confidence < 0.9 && top.confidence > DEFAULT_MIN_CONFIDENCE);
        assert_eq!(m.best("service"), MatchOutcome::None);
        let m = m.with_min_confidence(0.0);
        assert_eq!(m.min_confidence(), 0.0);
        assert!(matches!(m.best("service"), MatchOutcome::Match(_)));
        let m = m.with_min_confidence(f32::NAN);
        assert_eq!(m.best("deploy production"), MatchOutcome::None);
    }

    #[test]
    fn large_index_touches_only_postings() {
        // 10,000 skills; a query on a rare term scores only its postings.
        let skills: Vec<Skill> = (0..10_000)
            .map(|i| {
                skill(
                    &format!("tool-{i}"),
                    &format!("Handles widget{} and common things", i % 100),
                )
            })
            .collect();
        let m = TriggerMatcher::new(&skills);
        assert_eq!(m.len(), 10_000);
        let ranked = m.rank("widget7 please");
        assert_eq!(ranked.len(), 100);
        assert!(ranked.windows(2).all(|w| {
            w[0].score > w[1].score || (w[0].score == w[1].score && w[0].name < w[1].name)
        }));
        assert!(ranked.iter().all(|r| r.name.ends_with('7')));
        let all = m.rank("common things");
        assert_eq!(all.len(), 10_000);
        assert!(all.iter().all(|r| (0.0..=1.0).contains(&r.confidence)));
    }

    #[test]
    fn default_is_empty() {
        let m = TriggerMatcher::default();
        assert!(m.is_empty());
        assert_eq!(m.len(), 0);
        assert!(m.rank("anything").is_empty());
        assert_eq!(m.best("anything"), MatchOutcome::None);
    }
}
