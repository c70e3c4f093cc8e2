//! Trigger matching against a small realistic set of skills, with properties checked over
//! generated texts and over the real-world corpus (`../shared/corpus`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use weft_parse::{ParseOptions, parse_skill_md};
use weft_registry::matcher::{DEFAULT_MIN_CONFIDENCE, MatchOutcome, TriggerMatch, TriggerMatcher};
use weft_registry::{WalkOptions, read_skill, walk};
use weft_types::{Scope, Skill};

fn skill(name: &str, description: &str) -> Skill {
    Skill::in_memory(name, description, Scope::User)
}

/// A skill read from a SKILL.md, as discovery would produce it.
fn parsed(text: &str) -> Skill {
    let parsed = parse_skill_md(
        text.as_bytes(),
        Path::new("skills/x/SKILL.md"),
        &ParseOptions::default(),
    );
    parsed.skill.expect("the test skill parses")
}

fn skills() -> Vec<Skill> {
    let mut commit = skill(
        "commit",
        "Create a git commit with a conventional message. Use when committing changes to git.",
    );
    commit.disable_model_invocation = true;
    let mut research = skill(
        "research",
        "Deep research on a topic, with citations and a short summary.",
    );
    research.keywords = vec!["investigate".into(), "sources".into()];
    let mut deploy = skill(
        "deploy",
        "Deploy the application to staging or production and watch the rollout.",
    );
    deploy.when_to_use = Some("After a release is tagged and CI is green.".into());
    vec![
        skill(
            "code-review",
            "Review code changes for bugs, security issues and style. Use when reviewing a \
             diff, a branch or a pull request (PR).",
        ),
        commit,
        skill(
            "pdf-processing",
            "Extract text from PDF files, fill forms and merge documents. Use when working \
             with PDFs.",
        ),
        deploy,
        research,
        parsed(
            "---\nname: release-notes\ndescription: Write release notes from the merged work \
             since the last tag. Keywords: changelog, semver\n---\n\nWrite the notes.\n",
        ),
    ]
}

fn matcher() -> TriggerMatcher {
    TriggerMatcher::new(&skills())
}

fn names(ranked: &[TriggerMatch]) -> Vec<&str> {
    ranked.iter().map(|m| m.name.as_str()).collect()
}

fn best_name(matcher: &TriggerMatcher, text: &str) -> Option<String> {
    match matcher.best(text) {
        MatchOutcome::Match(m) => Some(m.name),
        MatchOutcome::None => None,
        MatchOutcome::Conflict(tied) => panic!("unexpected conflict for {text:?}: {tied:?}"),
    }
}

#[test]
fn review_request_picks_code_review() {
    let m = matcher();
    let text = "please review my pull request diff";
    let ranked = m.rank(text);
    assert_eq!(ranked[0].name, "code-review", "{ranked:?}");
    assert!(ranked[0].confidence >= DEFAULT_MIN_CONFIDENCE, "{ranked:?}");
    assert!(ranked[0].model_invocable);
    assert_eq!(
        ranked[0].matched_terms,
        ["review", "pull", "request", "diff"]
    );
    let MatchOutcome::Match(best) = m.best(text) else {
        panic!("expected a match: {:?}", m.best(text));
    };
    assert_eq!(best, ranked[0]);
}

#[test]
fn manual_only_skill_is_ranked_but_never_auto_loaded() {
    let m = matcher();
    for text in [
        "commit my changes",
        "commit",
        "git commit",
        "commit the changes to git with a conventional commit message",
    ] {
        let ranked = m.rank(text);
        assert_eq!(ranked[0].name, "commit", "{text:?}: {ranked:?}");
        assert!(!ranked[0].model_invocable);
        match m.best(text) {
            MatchOutcome::None => {}
            MatchOutcome::Match(other) => {
                assert_ne!(other.name, "commit");
                assert!(other.confidence >= DEFAULT_MIN_CONFIDENCE);
            }
            MatchOutcome::Conflict(tied) => {
                assert!(tied.iter().all(|t| t.name != "commit"), "{tied:?}");
            }
        }
    }
    assert_eq!(m.best("commit my changes"), MatchOutcome::None);
    // Even with no threshold at all, commit is skipped: the next skill is returned.
    let lenient = matcher().with_min_confidence(0.0);
    assert_eq!(
        best_name(&lenient, "commit my changes").as_deref(),
        Some("code-review")
    );
    assert_eq!(best_name(&lenient, "commit"), None);
}

#[test]
fn pdf_request_picks_pdf_processing() {
    let m = matcher();
    let text = "extract the text of this pdf";
    assert_eq!(m.rank(text)[0].name, "pdf-processing");
    assert_eq!(best_name(&m, text).as_deref(), Some("pdf-processing"));
    assert_eq!(
        best_name(&m, "merge these PDFs into one").as_deref(),
        Some("pdf-processing")
    );
}

#[test]
fn other_skills_are_found() {
    let m = matcher();
    assert_eq!(
        best_name(&m, "deploy to production").as_deref(),
        Some("deploy")
    );
    assert_eq!(
        best_name(&m, "research this topic").as_deref(),
        Some("research")
    );
}

#[test]
fn name_matches_weigh_more_than_description_matches() {
    let terraform = skill("terraform", "Plan and apply infrastructure changes.");
    let costs = skill(
        "cloud-costs",
        "Estimate the monthly cloud costs of terraform plans.",
    );
    let m = TriggerMatcher::new([&costs, &terraform]);
    let ranked = m.rank("terraform");
    assert_eq!(names(&ranked), ["terraform", "cloud-costs"]);
    assert!(ranked[0].score > ranked[1].score);
    assert!(ranked[0].confidence > ranked[1].confidence);
    assert_eq!(best_name(&m, "run terraform").as_deref(), Some("terraform"));
}

#[test]
fn keyword_only_match() {
    let m = matcher();
    // "investigate" appears only in research's keywords.
    let ranked = m.rank("investigate why the cache is slow");
    assert_eq!(names(&ranked), ["research"]);
    assert_eq!(ranked[0].matched_terms, ["investigat"]);
    // One known word among unknown ones is a weak match: ranked, but not auto-loaded at the
    // default threshold.
    assert_eq!(best_name(&m, "investigate why the cache is slow"), None);
    let lenient = m.clone().with_min_confidence(0.2);
    assert_eq!(
        best_name(&lenient, "investigate why the cache is slow").as_deref(),
        Some("research")
    );
    assert_eq!(
        best_name(&m, "investigate sources").as_deref(),
        Some("research")
    );
    // From a `Keywords:` tail in a parsed SKILL.md.
    let ranked = m.rank("update the changelog");
    assert_eq!(names(&ranked), ["release-notes"]);
    assert_eq!(
        best_name(&m, "update the changelog").as_deref(),
        Some("release-notes")
    );
}

#[test]
fn unrelated_text_matches_nothing() {
    let m = matcher();
    assert!(m.rank("what's the weather in Paris").is_empty());
    assert_eq!(m.best("what's the weather in Paris"), MatchOutcome::None);
}

#[test]
fn identical_skills_conflict() {
    let mut set = skills();
    set.push(skill(
        "format-python",
        "Format source files and fix lint warnings.",
    ));
    set.push(skill(
        "format-rust",
        "Format source files and fix lint warnings.",
    ));
    let m = TriggerMatcher::new(&set);
    let text = "format the source files";
    let MatchOutcome::Conflict(tied) = m.best(text) else {
        panic!("expected a conflict: {:?}", m.rank(text));
    };
    assert_eq!(names(&tied), ["format-python", "format-rust"]);
    assert_eq!(tied[0].confidence, tied[1].confidence);
    assert!(tied[0].confidence >= DEFAULT_MIN_CONFIDENCE);
    // A word of one name breaks the tie.
    assert_eq!(
        best_name(&m, "format the rust source files").as_deref(),
        Some("format-rust")
    );
    // Below the threshold a tie is no conflict, just no match.
    let strict = TriggerMatcher::new(&set).with_min_confidence(0.99);
    assert_eq!(strict.best(text), MatchOutcome::None);
}

#[test]
fn a_manual_only_twin_is_no_conflict() {
    let mut set = skills();
    set.push(skill(
        "format-python",
        "Format source files and fix lint warnings.",
    ));
    let mut twin = skill("format-rust", "Format source files and fix lint warnings.");
    twin.disable_model_invocation = true;
    set.push(twin);
    let m = TriggerMatcher::new(&set);
    let text = "format the source files";
    assert_eq!(names(&m.rank(text))[..2], ["format-python", "format-rust"]);
    assert_eq!(best_name(&m, text).as_deref(), Some("format-python"));
}

#[test]
fn stemming_joins_word_forms() {
    let m = matcher();
    let base = m.rank("review");
    assert_eq!(base[0].name, "code-review");
    for text in ["reviews", "reviewing", "reviewed", "REVIEWS"] {
        assert_eq!(m.rank(text), base, "{text}");
    }
}

#[test]
fn empty_matcher_and_empty_query() {
    let empty = TriggerMatcher::new([]);
    assert!(empty.is_empty());
    assert_eq!(empty.len(), 0);
    assert!(empty.rank("review my diff").is_empty());
    assert_eq!(empty.best("review my diff"), MatchOutcome::None);

    let m = matcher();
    assert_eq!(m.len(), 6);
    assert!(!m.is_empty());
    for text in ["", "   ", "the a of", "?!,.", "a b c"] {
        assert!(m.rank(text).is_empty(), "{text:?}");
        assert_eq!(m.best(text), MatchOutcome::None, "{text:?}");
    }
}

/// The invariants of one ranking.
fn check(m: &TriggerMatcher, text: &str, min: f32) {
    let ranked = m.rank(text);
    assert_eq!(ranked, m.rank(text), "deterministic for {text:?}");
    for r in &ranked {
        assert!(
            (0.0..=1.0).contains(&r.confidence),
            "{text:?}: {r:?} is out of range"
        );
        assert!(r.score > 0.0 && r.score.is_finite(), "{text:?}: {r:?}");
        assert!(!r.matched_terms.is_empty(), "{text:?}: {r:?}");
    }
    for w in ranked.windows(2) {
        assert!(
            w[0].score > w[1].score || (w[0].score == w[1].score && w[0].name <= w[1].name),
            "{text:?}: order {w:?}"
        );
    }
    let allowed: Vec<&TriggerMatch> = ranked
        .iter()
        .filter(|r| r.model_invocable && r.confidence >= min)
        .collect();
    match m.best(text) {
        MatchOutcome::None => assert!(allowed.is_empty(), "{text:?}: {allowed:?}"),
        MatchOutcome::Match(best) => {
            assert_eq!(&best, allowed[0], "{text:?}");
            assert!(
                allowed
                    .get(1)
                    .is_none_or(|next| best.confidence - next.confidence > 1e-6),
                "{text:?}"
            );
        }
        MatchOutcome::Conflict(tied) => {
            assert!(tied.len() >= 2, "{text:?}");
            assert!(tied.windows(2).all(|w| w[0].name <= w[1].name));
            for t in &tied {
                assert!(t.model_invocable && t.confidence >= min);
                assert!((allowed[0].confidence - t.confidence).abs() <= 1e-6);
            }
        }
    }
}

/// A small deterministic generator (xorshift64*), in place of a property-testing crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Texts mixing words of the skills, stopwords, unknown words, odd characters and repeats.
fn generated_texts(count: usize) -> Vec<String> {
    const WORDS: &[&str] = &[
        "review",
        "reviewing",
        "code",
        "diff",
        "PR",
        "pull",
        "request",
        "commit",
        "git",
        "changes",
        "pdf",
        "PDFs",
        "extract",
        "text",
        "deploy",
        "production",
        "research",
        "investigate",
        "sources",
        "changelog",
        "semver",
        "release",
        "notes",
        "the",
        "a",
        "my",
        "please",
        "weather",
        "Paris",
        "über",
        "日本語",
        "x",
        "42",
        "--",
        "?!",
        "\n",
        "\u{0}",
        "é",
        "ǅ",
        "İ",
        "straße",
        "commit-review",
        "",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..count)
        .map(|_| {
            let len = rng.below(12);
            let mut text = String::new();
            for _ in 0..len {
                text.push_str(WORDS[rng.below(WORDS.len())]);
                let sep = [" ", " ", " ", "-", ", ", "", "'s "];
                text.push_str(sep[rng.below(sep.len())]);
            }
            if rng.below(4) == 0 {
                // Random code points, valid or replaced.
                for _ in 0..rng.below(8) {
                    let c = char::from_u32(rng.below(0x3_0000) as u32).unwrap_or('\u{fffd}');
                    text.push(c);
                }
            }
            text
        })
        .collect()
}

#[test]
fn invariants_hold_for_generated_texts() {
    let m = matcher();
    let lenient = matcher().with_min_confidence(0.0);
    let mut set = skills();
    set.push(skill("twin-a", "Review code changes for bugs."));
    set.push(skill("twin-b", "Review code changes for bugs."));
    let twins = TriggerMatcher::new(&set).with_min_confidence(0.2);
    for text in generated_texts(500) {
        check(&m, &text, DEFAULT_MIN_CONFIDENCE);
        check(&lenient, &text, 0.0);
        check(&twins, &text, 0.2);
    }
}

#[test]
fn repeated_query_words_count_once() {
    let m = matcher();
    assert_eq!(m.rank("review review review diff"), m.rank("review diff"));
}

#[test]
fn input_order_does_not_change_results() {
    let forward = skills();
    let mut backward = skills();
    backward.reverse();
    let (a, b) = (
        TriggerMatcher::new(&forward),
        TriggerMatcher::new(&backward),
    );
    for text in generated_texts(100) {
        let (ra, rb) = (a.rank(&text), b.rank(&text));
        assert_eq!(names(&ra), names(&rb), "{text:?}");
        for (x, y) in ra.iter().zip(&rb) {
            assert!((x.confidence - y.confidence).abs() < 1e-5, "{text:?}");
        }
        assert_eq!(
            std::mem::discriminant(&a.best(&text)),
            std::mem::discriminant(&b.best(&text))
        );
    }
}

#[test]
fn corpus_skills_rank_sensibly() {
    let corpus = weft_testkit::Corpus::largest();
    let found = walk(&corpus.dir, WalkOptions::VALIDATE);
    let options = ParseOptions::default();
    let skills: Vec<Skill> = found
        .skills
        .iter()
        .filter_map(|s| read_skill(s, &options).skill)
        .collect();
    let (clean, warned, _) = corpus.expected.load;
    assert_eq!(skills.len(), clean + warned, "{} corpus", corpus.name);
    let m = TriggerMatcher::new(&skills);
    assert_eq!(m.len(), skills.len());
    for text in generated_texts(200) {
        check(&m, &text, DEFAULT_MIN_CONFIDENCE);
    }
    for text in [
        "please review my pull request diff",
        "extract the text of this pdf",
        "deploy to production",
        "what's the weather in Paris",
    ] {
        check(&m, text, DEFAULT_MIN_CONFIDENCE);
        assert!(!m.rank(text).is_empty(), "{text:?}");
    }
}
