//! The real-world corpora (`../shared/corpus`: 2,451 SKILL.md files from openclaw/skills, when it
//! sits beside the checkout; and the committed sample of 100 of them, always) are parsed under
//! every profile without a panic, every rejection is explained by an error with a file path,
//! and the counts stay what `weft_testkit` records. A change in a count means a change in
//! behaviour on real skills: look at the diff, then update the number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use weft_parse::{ParseOptions, Profile};
use weft_registry::{WalkOptions, read_skill, walk};
use weft_testkit::{Corpus, Expected, ProfileCounts};

/// Checks every available corpus under `profile` against the counts `expected` picks.
fn check(profile: Profile, expected: fn(&Expected) -> ProfileCounts) {
    for corpus in Corpus::available() {
        assert_eq!(
            counts(&corpus, profile),
            expected(&corpus.expected),
            "{} corpus under {profile:?}",
            corpus.name
        );
    }
}

/// (valid without warnings, valid with warnings, invalid)
fn counts(corpus: &Corpus, profile: Profile) -> ProfileCounts {
    let found = walk(&corpus.dir, WalkOptions::VALIDATE);
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    let options = ParseOptions::new(profile);
    let (mut clean, mut warned, mut invalid) = (0, 0, 0);
    for skill in &found.skills {
        let parsed = read_skill(skill, &options);
        let again = read_skill(skill, &options);
        assert_eq!(parsed, again, "parsing is deterministic");
        if parsed.is_valid() {
            if parsed.diagnostics.is_empty() {
                clean += 1;
            } else {
                warned += 1;
            }
        } else {
            invalid += 1;
            assert!(
                parsed
                    .diagnostics
                    .iter()
                    .any(|d| d.is_error() && d.path.is_some()),
                "{} is rejected without an explanation",
                skill.file.path().display()
            );
        }
    }
    assert_eq!(
        clean + warned + invalid,
        corpus.expected.files,
        "every file of the {} corpus is found",
        corpus.name
    );
    (clean, warned, invalid)
}

#[test]
fn corpus_under_the_loader() {
    check(Profile::Load, |e| e.load);
}

#[test]
fn corpus_under_validate() {
    check(Profile::Validate, |e| e.validate);
}

#[test]
fn corpus_under_strict() {
    check(Profile::Strict, |e| e.strict);
}

#[test]
fn corpus_under_the_spec_profile() {
    check(Profile::Spec, |e| e.spec);
}
