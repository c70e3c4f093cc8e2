//! What a walk yields: the skill directories it found ([`FoundSkill`]), the file each is read
//! from ([`SkillFile`]), what it noticed about them ([`WalkNote`], a diagnostic under the
//! profile the skill is read with) and the whole result ([`Walk`]). Separate from the walk
//! because discovery, validation and the header cache all use these values.

use std::path::{Path, PathBuf};

use weft_parse::{Profile, Rule};
use weft_types::Diagnostic;

/// The file(s) a skill directory is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillFile {
    /// A `SKILL.md` (possibly spelled differently, e.g. `skill.md`).
    Markdown(PathBuf),
    /// A legacy `skill.json` and its `prompt.md` when present.
    Legacy {
        /// The `skill.json` file.
        json: PathBuf,
        /// The `prompt.md` beside it, when it exists.
        prompt: Option<PathBuf>,
    },
}

impl SkillFile {
    /// The file that defines the skill (`SKILL.md` or `skill.json`).
    pub fn path(&self) -> &Path {
        match self {
            SkillFile::Markdown(p) => p,
            SkillFile::Legacy { json, .. } => json,
        }
    }
}

/// A directory holding a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSkill {
    /// The skill directory.
    pub dir: PathBuf,
    /// The file to read.
    pub file: SkillFile,
    /// The enclosing skill directory when this one is nested inside another skill.
    pub nested_in: Option<PathBuf>,
    /// What the walk noticed about the directory (file name spelling, both formats present,
    /// nesting); how serious each is depends on the profile the skill is read with.
    pub notes: Vec<WalkNote>,
}

/// Something the walk noticed about a skill directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum WalkNote {
    /// The skill file is not spelled `SKILL.md` (`skill.md`, `Skill.md`, ...).
    FileName(String),
    /// A `SKILL.md` (spelled as given) and a `skill.json` are both present.
    BothFormats(String),
    /// The skill is inside another skill's directory, which discovery does not enter.
    Nested(PathBuf),
}

impl WalkNote {
    /// The diagnostic for this note about the skill file `path` under `profile`, if the
    /// profile reports it.
    pub fn diagnostic(&self, path: &Path, profile: Profile) -> Option<Diagnostic> {
        let d = match self {
            WalkNote::FileName(name) if name == "skill.md" => Rule::FileNameSpelling.diagnostic(
                profile,
                "skill file is named `skill.md`; the standard name is `SKILL.md`",
            ),
            WalkNote::FileName(name) => Rule::FileNameCase.diagnostic(
                profile,
                if profile == Profile::Spec {
                    format!("Missing required file: SKILL.md (found {name})")
                } else {
                    format!("skill file is named `{name}`; it must be `SKILL.md` (case matters on most file systems)")
                },
            ),
            WalkNote::BothFormats(name) => Rule::BothFormats.diagnostic(
                profile,
                format!("both `{name}` and `skill.json` are present; `{name}` is used"),
            ),
            WalkNote::Nested(outer) => Rule::NestedSkill.diagnostic(
                profile,
                format!(
                    "skill nested inside the skill at {}; discovery does not load it",
                    outer.display()
                ),
            ),
        };
        d.map(|d| d.with_path(path))
    }
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Skill directories, in walk order.
    pub skills: Vec<FoundSkill>,
    /// Problems with the tree itself (unreadable directories, pseudo-filesystems, names that
    /// are not UTF-8, the directory limit).
    pub diagnostics: Vec<Diagnostic>,
}
