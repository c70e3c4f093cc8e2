//! The input: a package's files in memory, and what the scanner is told about the world.

use weft_types::Skill;

/// One entry of a package, by its path relative to the package root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFile {
    /// `/`-separated path relative to the package root, without `.` or `..` components.
    pub path: String,
    /// What the entry is.
    pub content: FileContent,
}

/// What a package entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileContent {
    /// A regular file with its bytes.
    Regular {
        /// The whole file.
        bytes: Vec<u8>,
        /// The owner-executable bit was set.
        executable: bool,
    },
    /// A symbolic link.
    Symlink {
        /// The link's target as written.
        target: String,
        /// True when the target resolves to an entry inside the package.
        inside: bool,
    },
    /// A FIFO, socket or device: never part of a skill.
    Special {
        /// What it is (`fifo`, `socket`, `block device`, ...).
        kind: String,
    },
    /// An entry of an archive being scanned that an install refuses outright (its path
    /// leaves the package, it is a hard link, its name is not UTF-8, ...): its path is the
    /// name as the archive gives it (`../../x`), not normalised.
    Unsafe {
        /// Why it is refused.
        reason: String,
    },
}

impl PackageFile {
    /// A regular, non-executable file.
    pub fn regular(path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        PackageFile {
            path: path.into(),
            content: FileContent::Regular {
                bytes: bytes.into(),
                executable: false,
            },
        }
    }

    /// The bytes of a regular file.
    pub fn bytes(&self) -> Option<&[u8]> {
        match &self.content {
            FileContent::Regular { bytes, .. } => Some(bytes),
            _ => None,
        }
    }
}

/// A skill package in memory: its files, sorted by path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Package {
    files: Vec<PackageFile>,
}

impl Package {
    /// A package of these files (sorted by path; a repeated path keeps the last entry).
    pub fn new(mut files: Vec<PackageFile>) -> Self {
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files.reverse();
        files.dedup_by(|a, b| a.path == b.path);
        files.reverse();
        Package { files }
    }

    /// The files, sorted by path.
    pub fn files(&self) -> &[PackageFile] {
        &self.files
    }

    /// The entry at `path`.
    pub fn get(&self, path: &str) -> Option<&PackageFile> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.files[i])
    }

    /// The skill file at the root: `SKILL.md` (any letter case) or `skill.json`.
    pub fn skill_file(&self) -> Option<&PackageFile> {
        self.get("SKILL.md")
            .or_else(|| {
                self.files
                    .iter()
                    .find(|f| !f.path.contains('/') && f.path.eq_ignore_ascii_case("SKILL.md"))
            })
            .or_else(|| self.get("skill.json"))
    }

    /// Total bytes of the regular files.
    pub fn total_bytes(&self) -> u64 {
        self.files
            .iter()
            .filter_map(PackageFile::bytes)
            .map(|b| b.len() as u64)
            .sum()
    }

    /// Consumes the package, returning its files.
    pub fn into_files(self) -> Vec<PackageFile> {
        self.files
    }
}

/// A skill the user already has, as the caller found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownSkill {
    /// Its name.
    pub name: String,
    /// Where it is, for messages: `the built-in skill`, `the user skill at ~/.claude/...`.
    pub place: String,
    /// Its directory, when it is on disk (a caller replacing it leaves it out of
    /// [`ScanOptions::taken`]).
    pub dir: Option<std::path::PathBuf>,
}

/// What the scanner knows besides the files.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// Names of skills already installed or built in, for the typosquatting check. The
    /// package's own name is ignored when it is in the list (an update is not a typosquat).
    pub known_names: Vec<String>,
    /// Skills whose exact name the package may not take (a high [`Rule::Shadowing`]
    /// finding): every skill the user has except the one an install replaces.
    ///
    /// [`Rule::Shadowing`]: crate::Rule::Shadowing
    pub taken: Vec<KnownSkill>,
    /// Files above this size are reported as oversize (they are still scanned).
    pub oversize_bytes: u64,
    /// At most this many findings of one rule in one file (the rest are counted in the last).
    pub max_per_rule_and_file: usize,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            known_names: Vec::new(),
            taken: Vec::new(),
            oversize_bytes: 1024 * 1024,
            max_per_rule_and_file: 5,
        }
    }
}

/// What the scanner reads from the parsed skill: its name and declared tool lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillFacts {
    /// The skill's name.
    pub name: String,
    /// `allowed-tools` as declared (`None` when absent).
    pub allowed_tools: Option<Vec<String>>,
    /// `forbidden-tools`.
    pub forbidden_tools: Vec<String>,
}

impl SkillFacts {
    /// The facts of a parsed skill.
    pub fn of(skill: &Skill) -> Self {
        SkillFacts {
            name: skill.name.clone(),
            allowed_tools: skill.tools.allow.clone(),
            forbidden_tools: skill.tools.deny.clone(),
        }
    }
}
