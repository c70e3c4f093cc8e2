//! Which file of a directory defines a skill: `SKILL.md`, another spelling of it, or a
//! legacy `skill.json`.

use std::path::Path;

use weft_fs::{Directory, EntryKind};

use super::{SkillFile, WalkNote};

/// Looks at one directory: does it hold a skill, and in which file?
///
/// `SKILL.md` is preferred; another spelling (`skill.md`, `Skill.md`) is accepted with a
/// warning; `skill.json` is the legacy format, and loses to a `SKILL.md` beside it. Every
/// entry that is not a directory counts, so a `SKILL.md` that is a FIFO or a link to a device
/// is found here and refused (with a diagnostic) when it is read.
pub fn skill_file_in(dir: &Path) -> Option<(SkillFile, Vec<WalkNote>)> {
    let listing = Directory::open(dir, None).ok()?;
    let names: Vec<String> = listing
        .flatten()
        .filter(|e| e.kind != EntryKind::Dir)
        .filter_map(|e| e.name.into_string().ok())
        .collect();
    classify(dir, names.iter().map(String::as_str))
}

/// Decides which skill file (if any) a directory with these file names holds.
pub(super) fn classify<'a>(
    dir: &Path,
    file_names: impl Iterator<Item = &'a str>,
) -> Option<(SkillFile, Vec<WalkNote>)> {
    let mut exact = false;
    let mut other_spelling: Option<&str> = None;
    let mut json = false;
    let mut prompt = false;
    for name in file_names {
        match name {
            "SKILL.md" => exact = true,
            "skill.json" => json = true,
            "prompt.md" => prompt = true,
            // Deterministic choice among several odd spellings.
            n if n.eq_ignore_ascii_case("skill.md") && other_spelling.is_none_or(|o| n < o) => {
                other_spelling = Some(n);
            }
            _ => {}
        }
    }
    let mut notes = Vec::new();
    let file = if exact || other_spelling.is_some() {
        let name = if exact {
            "SKILL.md"
        } else {
            other_spelling.unwrap_or("SKILL.md")
        };
        if !exact {
            notes.push(WalkNote::FileName(name.to_owned()));
        }
        if json {
            notes.push(WalkNote::BothFormats(name.to_owned()));
        }
        SkillFile::Markdown(dir.join(name))
    } else if json {
        SkillFile::Legacy {
            json: dir.join("skill.json"),
            prompt: prompt.then(|| dir.join("prompt.md")),
        }
    } else {
        return None;
    };
    Some((file, notes))
}
