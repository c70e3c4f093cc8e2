//! Reading a found skill from disk and parsing it.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use weft_parse::frontmatter::frontmatter_end;
use weft_parse::{
    ParseOptions, ParsedSkill, Rule, parse_legacy, parse_skill_md, parse_skill_md_header,
};
use weft_types::DescriptionSource;
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
/// notes about the directory come first, as diagnostics under the parse profile.
///
/// This is level 2: the whole file is read and the body returned.
pub fn read_skill(found: &FoundSkill, options: &ParseOptions) -> ParsedSkill {
    with_walk_diagnostics(found, options.profile, parse_file(found, options))
}

/// Reads and parses a skill's files, without the walk's notes.
pub(crate) fn parse_file(found: &FoundSkill, options: &ParseOptions) -> ParsedSkill {
    let limit = options.limits.max_file_bytes;
    match &found.file {
        SkillFile::Markdown(path) => match read_capped(path, limit) {
            Ok(bytes) => parse_skill_md(&bytes, path, options),
            Err(e) => failed(found, unreadable(path, &e)),
        },
        SkillFile::Legacy { json, prompt } => {
            let json_bytes = match read_capped(json, limit) {
                Ok(b) => b,
                Err(e) => return failed(found, unreadable(json, &e)),
            };
            let prompt_bytes = match prompt.as_deref().map(|p| (p, read_capped(p, limit))) {
                None => None,
                Some((_, Ok(b))) => Some(b),
                Some((p, Err(e))) => return failed(found, unreadable(p, &e)),
            };
            parse_legacy(&json_bytes, prompt_bytes.as_deref(), json, options)
        }
    }
}

/// How much of a SKILL.md a listing reads at a time.
const HEADER_CHUNK: usize = 4096;

/// Reads only what level 1 needs: the frontmatter of a SKILL.md (in 4 KiB steps until the
/// closing `---`), or a legacy skill's files. The body is not returned. When the description
/// has to come from the body's first paragraph and it was not in the prefix, the whole file is
/// read after all.
pub fn read_skill_header(found: &FoundSkill, options: &ParseOptions) -> ParsedSkill {
    with_walk_diagnostics(found, options.profile, parse_header(found, options))
}

/// Level 1 of a skill's files, without the walk's notes.
pub(crate) fn parse_header(found: &FoundSkill, options: &ParseOptions) -> ParsedSkill {
    let SkillFile::Markdown(path) = &found.file else {
        return without_body(parse_file(found, options));
    };
    let (prefix, file_len, complete) = match read_prefix(path, options.limits.max_file_bytes) {
        Ok(read) => read,
        Err(e) => return failed(found, unreadable(path, &e)),
    };
    let parsed = parse_skill_md_header(&prefix, file_len, path, options);
    if !complete {
        let from_body = parsed
            .skill
            .as_ref()
            .is_some_and(|s| s.description_source == DescriptionSource::FirstParagraph);
        if from_body || parsed.skill.is_none() {
            // Either the description lives in the body, or something failed and the full
            // file gives the complete story.
            return without_body(parse_file(found, options));
        }
    }
    parsed
}

/// Reads the start of `path` up to the end of its frontmatter: `(bytes, file length, whole
/// file read)`.
fn read_prefix(path: &Path, limit: usize) -> io::Result<(Vec<u8>, u64, bool)> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut buf = Vec::with_capacity(HEADER_CHUNK);
    loop {
        let start = buf.len();
        buf.resize(start + HEADER_CHUNK, 0);
        let n = file.read(&mut buf[start..])?;
        buf.truncate(start + n);
        let eof = n == 0 || buf.len() as u64 >= len;
        if eof {
            return Ok((buf, len, true));
        }
        if frontmatter_end(&buf).is_some_and(|end| end > 0) || buf.len() > limit {
            return Ok((buf, len, false));
        }
        if frontmatter_end(&buf) == Some(0) {
            // No frontmatter at all: the whole file is the body, needed for the description.
            let mut rest = Vec::new();
            file.take(limit as u64).read_to_end(&mut rest)?;
            buf.extend_from_slice(&rest);
            return Ok((buf, len, true));
        }
    }
}

fn without_body(mut parsed: ParsedSkill) -> ParsedSkill {
    parsed.body = None;
    parsed
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
pub(crate) fn with_walk_diagnostics(
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
