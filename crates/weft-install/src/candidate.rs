//! The skills a fetched tree holds: directories with a `SKILL.md` (any letter case) or a
//! `skill.json`, not inside another skill, each parsed and validated with weft-parse.

use std::collections::BTreeSet;
use std::path::PathBuf;

use rayon::prelude::*;
use weft_parse::{ParseOptions, ParsedSkill, Profile, parse_legacy, parse_skill_md};
use weft_scan::Package;

use crate::error::InstallError;
use crate::tree::{normalize_entry_path, subtree};

/// One skill found in a source.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its directory inside the source (`""` for the root).
    pub dir: String,
    /// The parse result under the `validate` rules.
    pub parsed: ParsedSkill,
    /// Its files, rooted at its directory.
    pub package: Package,
}

impl Candidate {
    /// The skill's name: the validated name, else the best name known.
    pub fn name(&self) -> String {
        self.parsed
            .skill
            .as_ref()
            .map(|s| s.name.clone())
            .or_else(|| self.parsed.name.clone())
            .unwrap_or_else(|| self.dir.rsplit('/').next().unwrap_or("").to_owned())
    }

    /// True when the skill passed validation.
    pub fn is_valid(&self) -> bool {
        self.parsed.is_valid()
    }
}

/// The directory `--path` names, normalised (`None`: the whole source). It must stay inside
/// the source: an absolute path or a `..` is refused, not resolved.
pub(crate) fn subpath_prefix(raw: &str) -> Result<Option<String>, InstallError> {
    let bad = |reason: &str| InstallError::BadSubpath {
        path: raw.to_owned(),
        reason: reason.to_owned(),
    };
    let trimmed = raw.trim();
    if trimmed.starts_with('/') {
        return Err(bad(
            "an absolute path; give a directory relative to the source's root",
        ));
    }
    let parts: Vec<&str> = trimmed
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.contains(&"..") {
        return Err(bad("`..` would leave the source"));
    }
    if parts.is_empty() {
        return Ok(None);
    }
    normalize_entry_path(trimmed, 64)
        .map(Some)
        .map_err(|e| match e {
            InstallError::Unsafe { reason, .. } => bad(&reason),
            other => other,
        })
}

fn skill_file_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("SKILL.md") || name == "skill.json"
}

/// Every skill under `subpath` (all of the tree when `None`), in path order. `root_name`
/// names a skill at the very root (the repository or archive name). With `strict`, a link
/// leaving a skill's directory refuses the source; without, it is kept for the scanner.
pub fn find_skills(
    tree: &Package,
    subpath: Option<&str>,
    root_name: &str,
    strict: bool,
) -> Result<Vec<Candidate>, InstallError> {
    let prefix = match subpath {
        Some(raw) => subpath_prefix(raw)?.unwrap_or_default(),
        None => String::new(),
    };
    let mut skill_dirs: BTreeSet<String> = BTreeSet::new();
    for file in tree.files() {
        // An entry an install refuses (kept for a scan to report) defines no skill.
        if matches!(file.content, weft_scan::FileContent::Unsafe { .. }) {
            continue;
        }
        let (dir, name) = file.path.rsplit_once('/').unwrap_or(("", &file.path));
        let under = prefix.is_empty() || dir == prefix || dir.starts_with(&format!("{prefix}/"));
        if under && skill_file_name(name) {
            skill_dirs.insert(dir.to_owned());
        }
    }
    // A skill inside another skill is one of its files, not a skill of its own.
    let nested = |d: &str| {
        let mut rest = d;
        while !rest.is_empty() {
            rest = rest.rsplit_once('/').map_or("", |(parent, _)| parent);
            if skill_dirs.contains(rest) {
                return true;
            }
        }
        false
    };
    let outer: Vec<String> = skill_dirs.iter().filter(|d| !nested(d)).cloned().collect();
    outer
        .into_par_iter()
        .map(|dir| {
            let package = subtree(tree, &dir, strict)?;
            let dir_name = if dir.is_empty() {
                root_name.to_owned()
            } else {
                dir.rsplit('/').next().unwrap_or("").to_owned()
            };
            let parsed = parse_candidate(&package, &dir_name);
            Ok(Candidate {
                dir,
                parsed,
                package,
            })
        })
        .collect()
}

/// Parses the skill file of a package whose directory is called `dir_name`.
pub(crate) fn parse_candidate(package: &Package, dir_name: &str) -> ParsedSkill {
    let options = ParseOptions::new(Profile::Validate);
    let file = package.skill_file();
    let path = |name: &str| PathBuf::from(dir_name).join(name);
    match file {
        Some(f) if f.path.eq_ignore_ascii_case("SKILL.md") => {
            parse_skill_md(f.bytes().unwrap_or_default(), &path(&f.path), &options)
        }
        Some(f) => {
            let prompt = package.get("prompt.md").and_then(|p| p.bytes());
            parse_legacy(
                f.bytes().unwrap_or_default(),
                prompt,
                &path(&f.path),
                &options,
            )
        }
        None => parse_skill_md(b"", &path("SKILL.md"), &options),
    }
}
