//! The real-world corpus (`../shared/corpus`: 2,451 SKILL.md files from openclaw/skills) is
//! parsed under every profile without a panic, every rejection is explained by an error with
//! a file path, and the counts stay what they were when this test was written. A change in a
//! count means a change in behaviour on real skills: look at the diff, then update the number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use weft_parse::{ParseOptions, Profile};
use weft_registry::{WalkOptions, read_skill, walk};

fn corpus() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    assert!(
        dir.is_dir(),
        "the corpus must be at {} (the shared/ folder beside the checkout)",
        dir.display()
    );
    dir
}

/// (valid without warnings, valid with warnings, invalid)
fn counts(profile: Profile) -> (usize, usize, usize) {
    let found = walk(&corpus(), WalkOptions::VALIDATE);
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
    assert_eq!(clean + warned + invalid, 2451, "every corpus file is found");
    (clean, warned, invalid)
}

#[test]
fn corpus_under_the_loader() {
    assert_eq!(counts(Profile::Load), (1699, 733, 19));
}

#[test]
fn corpus_under_validate() {
    assert_eq!(counts(Profile::Validate), (1537, 804, 110));
}

#[test]
fn corpus_under_strict() {
    assert_eq!(counts(Profile::Strict), (1537, 662, 252));
}

#[test]
fn corpus_under_the_spec_profile() {
    assert_eq!(counts(Profile::Spec), (812, 352, 1287));
}
