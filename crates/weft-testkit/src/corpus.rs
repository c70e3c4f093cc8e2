//! The real-world corpora and the counts each is known to produce.

use std::io::Write;
use std::path::{Path, PathBuf};

/// How many skills of a corpus a profile finds (valid without warnings, valid with
/// warnings, invalid).
pub type ProfileCounts = (usize, usize, usize);

/// What a corpus is known to contain and how weft judges it. A change in a count means a
/// change in behaviour on real skills: look at the difference, then update the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    /// Skill files discovery finds.
    pub files: usize,
    /// Counts under `Profile::Load`.
    pub load: ProfileCounts,
    /// Counts under `Profile::Validate`.
    pub validate: ProfileCounts,
    /// Counts under `Profile::Strict`.
    pub strict: ProfileCounts,
    /// Counts under `Profile::Spec`.
    pub spec: ProfileCounts,
}

/// One corpus of real skills on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corpus {
    /// `shared` (the full corpus beside the checkout) or `sample` (committed).
    pub name: &'static str,
    /// The directory to walk.
    pub dir: PathBuf,
    /// What it is known to contain.
    pub expected: Expected,
}

/// The full corpus: 2,451 skills from openclaw/skills (commit 3a5f649f).
const SHARED: Expected = Expected {
    files: 2451,
    load: (1490, 942, 19),
    validate: (1138, 1211, 102),
    strict: (1138, 789, 524),
    spec: (812, 352, 1287),
};

/// The committed sample: 100 of those skills, chosen to cover every diagnostic the full
/// corpus produces under each profile and every odd shape of file (see its README).
const SAMPLE: Expected = Expected {
    files: 100,
    load: (52, 42, 6),
    validate: (39, 52, 9),
    strict: (39, 25, 36),
    spec: (24, 16, 60),
};

impl Corpus {
    /// The corpora present for a checkout at `root`: the full one when `root/../shared/corpus`
    /// exists, then the sample under `root/fixtures/corpus-sample` when it exists.
    pub fn available_under(root: &Path) -> Vec<Corpus> {
        let candidates = [
            ("shared", root.join("../shared/corpus"), SHARED),
            ("sample", root.join("fixtures/corpus-sample"), SAMPLE),
        ];
        candidates
            .into_iter()
            .filter(|(_, dir, _)| dir.is_dir())
            .map(|(name, dir, expected)| Corpus {
                name,
                dir: dir.canonicalize().unwrap_or(dir),
                expected,
            })
            .collect()
    }

    /// The corpora of this checkout, announced on stderr (past the test harness's capture, so
    /// the test output always says which ran). Panics when there is none: the sample is
    /// committed, so its absence is a broken checkout, not a reason to skip.
    pub fn available() -> Vec<Corpus> {
        let found = Self::available_under(&super::workspace_root());
        assert!(
            !found.is_empty(),
            "no skill corpus: fixtures/corpus-sample is missing from the checkout"
        );
        for corpus in &found {
            corpus.announce();
        }
        found
    }

    /// The largest corpus present: the full one when it is there, else the sample.
    pub fn largest() -> Corpus {
        Self::available().swap_remove(0)
    }

    /// Writes `corpus: <name> (<dir>, <n> skills)` straight to stderr.
    fn announce(&self) {
        let line = format!(
            "corpus: {} ({}, {} skills)\n",
            self.name,
            self.dir.display(),
            self.expected.files
        );
        // Not `eprintln!`: libtest captures that, and this line must always be visible.
        #[allow(
            clippy::disallowed_methods,
            reason = "test support: a fixed line, no input"
        )]
        let _ = std::io::stderr().write_all(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::disallowed_methods)] // a scratch directory of the test's own
    fn without_shared_the_sample_is_used() {
        let tmp = std::env::temp_dir().join(format!("weft-testkit-{}", std::process::id()));
        let checkout = tmp.join("checkout");
        std::fs::create_dir_all(checkout.join("fixtures/corpus-sample")).unwrap();
        let found = Corpus::available_under(&checkout);
        assert_eq!(found.iter().map(|c| c.name).collect::<Vec<_>>(), ["sample"]);
        std::fs::create_dir_all(tmp.join("shared/corpus")).unwrap();
        let found = Corpus::available_under(&checkout);
        assert_eq!(
            found.iter().map(|c| c.name).collect::<Vec<_>>(),
            ["shared", "sample"]
        );
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn this_checkout_has_the_sample() {
        let found = Corpus::available();
        assert!(found.iter().any(|c| c.name == "sample"));
        let sample = found.iter().find(|c| c.name == "sample").unwrap();
        assert!(sample.dir.join("openclaw-skills/LICENSE").is_file());
    }
}
