//! Claude Code's custom commands: every `*.md` under a `.claude/commands` directory is a
//! user-invocable skill named after its path, a subfolder giving a namespace
//! (`frontend/test.md` is `frontend:test`).
//!
//! The listing is a walk of the discovery's [`Walker`]: depth-bounded, each real directory
//! entered once and counted against the walker's limit, pseudo-filesystems refused, hidden
//! entries skipped. A directory link is followed only when its real path stays inside the
//! commands root (`E018` otherwise), and the root itself must lie inside its link boundary
//! (an untrusted project); a file link is read through `read_within` the root, so a link
//! leaving it is refused with a diagnostic rather than followed. A name that is not UTF-8 is
//! reported (`W185`), never skipped in silence.

use std::path::{Path, PathBuf};

use weft_parse::{ParseOptions, ParsedSkill, Profile, Rule, parse_command_md};
use weft_types::Diagnostic;

use crate::read::{read_error_diagnostic, skill_file_cap};
use crate::walk::{FoundSkill, SkillFile, Walker, root_outside};

/// How many folder levels below a commands root are read (namespaces rarely nest deeply).
const MAX_DEPTH: usize = 4;

/// Every command file under `root` with its name, in path order, and what was wrong with
/// the tree. `boundary` is where the root itself must lie.
pub(crate) fn find_commands(
    walker: &mut Walker,
    root: &Path,
    boundary: Option<&Path>,
) -> (Vec<(String, PathBuf)>, Vec<Diagnostic>) {
    let mut problems = Vec::new();
    if let Some(refused) = boundary.and_then(|b| root_outside(root, b)) {
        return (Vec::new(), vec![refused]);
    }
    let is_command = |name: &str| name.ends_with(".md");
    let (files, walk_problems) = walker.walk_files(root, MAX_DEPTH, &is_command);
    problems.extend(walk_problems);
    let mut found = Vec::new();
    for path in files {
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let Some((file, namespace)) = parts.split_last() else {
            continue;
        };
        let stem = file.strip_suffix(".md").unwrap_or(file);
        let parts: Vec<&str> = namespace.iter().map(String::as_str).chain([stem]).collect();
        if parts.iter().all(|p| weft_parse::name::is_safe_dir_name(p)) {
            found.push((parts.join(":"), path));
        } else if let Some(d) = Rule::UnsafeCommandName.diagnostic(
            Profile::Load,
            format!(
                "command file `{}` is not loaded: its folder and file names may only use A-Z, a-z, 0-9, `_` and `-`",
                parts.join("/")
            ),
        ) {
            problems.push(d.with_path(&path));
        }
    }
    (found, problems)
}

/// Reads and parses one command file (level 1): regular file, capped, a link must stay in
/// the commands root.
pub(crate) fn read_command(
    root: &Path,
    name: &str,
    path: &Path,
    options: &ParseOptions,
) -> (FoundSkill, ParsedSkill) {
    let found = FoundSkill {
        dir: path.parent().unwrap_or(root).to_path_buf(),
        file: SkillFile::Markdown(path.to_path_buf()),
        nested_in: None,
        notes: Vec::new(),
    };
    let parsed = match weft_fs::read_within(path, root, skill_file_cap(options)) {
        Ok(bytes) => {
            let mut parsed = parse_command_md(&bytes, path, name, options);
            parsed.body = None;
            parsed
        }
        Err(e) => ParsedSkill {
            skill: None,
            name: Some(name.to_owned()),
            body: None,
            diagnostics: vec![read_error_diagnostic(&e)],
        },
    };
    (found, parsed)
}
