//! Reading a found skill from disk and parsing it.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use weft_parse::{ParseOptions, ParsedSkill, Rule, parse_legacy, parse_skill_md};
use weft_types::{Diagnostic, Severity};

use crate::walk::{FoundSkill, SkillFile};

/// Reads at most `limit + 1` bytes of `path`: enough to tell that a file is over the limit
/// without reading a huge file whole.
pub fn read_capped(path: &Path, limit: usize) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let hint = file
        .metadata()
        .ok()
        .and_then(|m| usize::try_from(m.len()).ok())
        .unwrap_or(0)
        .min(limit.saturating_add(1));
    let mut buf = Vec::with_capacity(hint);
    file.take(cap).read_to_end(&mut buf)?;
    Ok(buf)
}

fn unreadable(path: &Path, err: &io::Error) -> Diagnostic {
    Diagnostic::new(
        Severity::Error,
        Rule::Unreadable.number(),
        format!("could not be read: {err}"),
    )
    .with_path(path)
}

/// Reads and parses the skill in `found` (SKILL.md or skill.json + prompt.md). The walk's own
/// diagnostics for the directory come first.
pub fn read_skill(found: &FoundSkill, options: &ParseOptions) -> ParsedSkill {
    let limit = options.limits.max_file_bytes;
    let parsed = match &found.file {
        SkillFile::Markdown(path) => match read_capped(path, limit) {
            Ok(bytes) => parse_skill_md(&bytes, path, options),
            Err(e) => failed(found, unreadable(path, &e)),
        },
        SkillFile::Legacy { json, prompt } => {
            let json_bytes = match read_capped(json, limit) {
                Ok(b) => b,
                Err(e) => {
                    return with_walk_diagnostics(
                        found,
                        options.profile,
                        failed(found, unreadable(json, &e)),
                    );
                }
            };
            let prompt_bytes = match prompt.as_deref().map(|p| (p, read_capped(p, limit))) {
                None => None,
                Some((_, Ok(b))) => Some(b),
                Some((p, Err(e))) => {
                    return with_walk_diagnostics(
                        found,
                        options.profile,
                        failed(found, unreadable(p, &e)),
                    );
                }
            };
            parse_legacy(&json_bytes, prompt_bytes.as_deref(), json, options)
        }
    };
    with_walk_diagnostics(found, options.profile, parsed)
}

fn failed(found: &FoundSkill, diagnostic: Diagnostic) -> ParsedSkill {
    ParsedSkill {
        skill: None,
        name: found
            .dir
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_owned),
        body: None,
        diagnostics: vec![diagnostic],
    }
}

/// Puts the walk's notes about the directory (as diagnostics under the parse profile) before
/// the file's own diagnostics. A note that is an error makes the skill unusable.
fn with_walk_diagnostics(
    found: &FoundSkill,
    profile: weft_parse::Profile,
    mut parsed: ParsedSkill,
) -> ParsedSkill {
    let path = found.file.path();
    let mut all: Vec<Diagnostic> = found
        .notes
        .iter()
        .filter_map(|n| n.diagnostic(path, profile))
        .collect();
    if all.is_empty() {
        return parsed;
    }
    if all.iter().any(Diagnostic::is_error) {
        parsed.skill = None;
    }
    all.append(&mut parsed.diagnostics);
    parsed.diagnostics = all;
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_read_stops_after_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("big");
        std::fs::write(&path, vec![b'a'; 10_000]).unwrap();
        assert_eq!(read_capped(&path, 100).unwrap().len(), 101);
        assert_eq!(read_capped(&path, 20_000).unwrap().len(), 10_000);
    }
}
