//! Reading a found skill from disk and parsing it.
//!
//! Every skill file goes through [`weft_fs`]: only regular files on ordinary file systems,
//! never more than the file-size limit, and a `SKILL.md` (or `skill.json`, `prompt.md`) that
//! is a symbolic link must stay inside the skill's directory. A refused file is a
//! diagnostic, never read.

use std::path::Path;

use weft_fs::{Cap, FileStamp, ReadError, open_within};
use weft_parse::{
    ParseOptions, ParsedSkill, Rule, parse_legacy, parse_skill_md, parse_skill_md_header,
};
use weft_types::{Diagnostic, Severity};

use crate::walk::{FoundSkill, SkillFile};

/// The cap for skill files (`SKILL.md`, `skill.json`, `prompt.md`, resources): the parse
/// options' file limit, 256 KiB by default.
pub fn skill_file_cap(options: &ParseOptions) -> Cap {
    Cap::from_usize(options.limits.max_file_bytes, "skill files")
}

/// Reads a skill file (or resource) of the skill in `dir`: at most `cap`, refused when it is
/// not a regular file or is a link leaving `dir`.
pub fn read_skill_file(path: &Path, dir: &Path, cap: Cap) -> Result<Vec<u8>, ReadError> {
    open_within(path, dir, cap)?.read_all()
}

/// The diagnostic for a file [`weft_fs`] refused or could not read: the rule says why
/// (a link leaving its directory, not a regular file, too large, unreadable).
pub fn read_error_diagnostic(error: &ReadError) -> Diagnostic {
    let (rule, message) = match error {
        ReadError::OutsideRoot { .. } => (
            Rule::SymlinkOutsideRoot,
            format!("refused: the file {}", error.reason()),
        ),
        ReadError::NotRegular { .. } | ReadError::PseudoFilesystem { .. } => (
            Rule::NotRegularFile,
            format!("refused: the file {}", error.reason()),
        ),
        ReadError::TooLarge { .. } => (
            Rule::FileTooLarge,
            format!("file {}; it was not read", error.reason()),
        ),
        ReadError::Changed { .. } | ReadError::Io { .. } => (
            Rule::Unreadable,
            format!("could not be read: {}", error.reason()),
        ),
    };
    Diagnostic::new(Severity::Error, rule.number(), message).with_path(error.path())
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
    match read_files(&found.file, &found.dir, skill_file_cap(options)) {
        Ok(files) => parse_read(&found.file, &files, options),
        Err(e) => failed(found, read_error_diagnostic(&e)),
    }
}

/// The bytes of a skill's files, as read together.
pub(crate) struct SkillBytes {
    /// `SKILL.md` or `skill.json`.
    pub main: Vec<u8>,
    /// `prompt.md` of a legacy skill.
    pub prompt: Option<Vec<u8>>,
    /// The stamp of the main file, from the open handle.
    pub stamp: FileStamp,
}

/// Reads the files of the skill in `dir` under `cap`.
pub(crate) fn read_files(file: &SkillFile, dir: &Path, cap: Cap) -> Result<SkillBytes, ReadError> {
    let main = open_within(file.path(), dir, cap)?;
    let stamp = main.stamp();
    let main = main.read_all()?;
    let prompt = match file {
        SkillFile::Legacy {
            prompt: Some(prompt),
            ..
        } => Some(read_skill_file(prompt, dir, cap)?),
        _ => None,
    };
    Ok(SkillBytes {
        main,
        prompt,
        stamp,
    })
}

/// Parses files read by [`read_files`] (level 2).
pub(crate) fn parse_read(
    file: &SkillFile,
    bytes: &SkillBytes,
    options: &ParseOptions,
) -> ParsedSkill {
    match file {
        SkillFile::Markdown(path) => parse_skill_md(&bytes.main, path, options),
        SkillFile::Legacy { json, .. } => {
            parse_legacy(&bytes.main, bytes.prompt.as_deref(), json, options)
        }
    }
}

/// Reads what level 1 needs and returns it without the body.
///
/// The whole file is read (skill files are small, and one read costs about what a 4 KiB
/// prefix does): a skill is listed only when all of it is valid, so a file that turns out to
/// be invalid UTF-8 after its frontmatter is reported now, not when it is first used. Only
/// the frontmatter is parsed.
pub fn read_skill_header(found: &FoundSkill, options: &ParseOptions) -> ParsedSkill {
    with_walk_diagnostics(found, options.profile, parse_header(found, options).0)
}

/// Level 1 of a skill's files, without the walk's notes, and the stamp of the file that was
/// read (for the header cache).
pub(crate) fn parse_header(
    found: &FoundSkill,
    options: &ParseOptions,
) -> (ParsedSkill, Option<FileStamp>) {
    let bytes = match read_files(&found.file, &found.dir, skill_file_cap(options)) {
        Ok(bytes) => bytes,
        Err(e) => return (failed(found, read_error_diagnostic(&e)), None),
    };
    let parsed = match &found.file {
        SkillFile::Markdown(path) if std::str::from_utf8(&bytes.main).is_ok() => {
            parse_skill_md_header(&bytes.main, bytes.stamp.len, path, options)
        }
        // Invalid UTF-8 (or a legacy skill): the full parse reports it exactly as level 2
        // would.
        file => without_body(parse_read(file, &bytes, options)),
    };
    (parsed, Some(bytes.stamp))
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

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;
    use crate::walk::{WalkOptions, walk};

    fn codes(parsed: &ParsedSkill) -> Vec<&str> {
        parsed.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn links_out_of_the_skill_and_pseudo_files_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("environ")).unwrap();
        symlink("/proc/self/environ", root.join("environ/SKILL.md")).unwrap();
        std::fs::create_dir_all(root.join("zero")).unwrap();
        symlink("/dev/zero", root.join("zero/SKILL.md")).unwrap();
        std::fs::create_dir_all(root.join("inside/docs")).unwrap();
        std::fs::write(
            root.join("inside/docs/skill.md"),
            "---\nname: inside\ndescription: d\n---\nbody\n",
        )
        .unwrap();
        symlink("docs/skill.md", root.join("inside/SKILL.md")).unwrap();
        let options = ParseOptions::default();
        let found = walk(root, WalkOptions::DISCOVERY);
        let parsed: Vec<ParsedSkill> = found
            .skills
            .iter()
            .map(|f| read_skill_header(f, &options))
            .collect();
        assert_eq!(parsed.len(), 3);
        assert_eq!(codes(&parsed[0]), ["E018"]);
        assert!(parsed[0].skill.is_none());
        assert!(
            parsed[0].diagnostics[0]
                .message
                .contains("environ, outside")
        );
        assert!(parsed[1].skill.is_some(), "{:?}", parsed[1].diagnostics);
        assert_eq!(codes(&parsed[2]), ["E018"]);
    }

    #[test]
    fn invalid_utf8_after_the_first_4_kib_is_not_listed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("late");
        std::fs::create_dir_all(&dir).unwrap();
        let mut text = b"---\nname: late\ndescription: d\n---\n".to_vec();
        text.extend(std::iter::repeat_n(b'a', 5000));
        text.extend([0xff, 0xfe, b'\n']);
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
        let found = walk(tmp.path(), WalkOptions::DISCOVERY);
        let parsed = read_skill_header(&found.skills[0], &ParseOptions::default());
        assert!(parsed.skill.is_none());
        assert_eq!(codes(&parsed), ["E001"]);
    }
}
