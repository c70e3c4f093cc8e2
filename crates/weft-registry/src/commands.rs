//! Claude Code's custom commands: every `*.md` under a `.claude/commands` directory is a
//! user-invocable skill named after its path, a subfolder giving a namespace
//! (`frontend/test.md` is `frontend:test`).
//!
//! The listing goes through `weft_fs::Directory` (pseudo-filesystems refused), depth-bounded,
//! each real directory entered once; links are followed only to directories and regular files
//! inside the commands root (a file is then read through `open_within` the root, so a link
//! leaving it is refused with a diagnostic rather than followed).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use weft_fs::{DirId, Directory, EntryKind, LinkTarget};
use weft_parse::{ParseOptions, ParsedSkill, Profile, Rule, parse_command_md};
use weft_types::Diagnostic;

use crate::read::{read_error_diagnostic, skill_file_cap};
use crate::walk::{FoundSkill, SkillFile};

/// How many folder levels below a commands root are read (namespaces rarely nest deeply).
const MAX_DEPTH: usize = 4;

/// Every command file under `root` with its name, in path order, and what was wrong with
/// the tree.
pub(crate) fn find_commands(root: &Path) -> (Vec<(String, PathBuf)>, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let mut visited: HashSet<DirId> = HashSet::new();
    list(root, &[], None, &mut visited, &mut found, &mut problems);
    found.sort_by(|a: &(String, PathBuf), b| a.1.cmp(&b.1));
    (found, problems)
}

fn list(
    dir: &Path,
    namespace: &[String],
    from_device: Option<u64>,
    visited: &mut HashSet<DirId>,
    found: &mut Vec<(String, PathBuf)>,
    problems: &mut Vec<Diagnostic>,
) {
    let mut handle = match Directory::open(dir, from_device) {
        Ok(h) => h,
        Err(e) => {
            if !e.is_not_found() {
                problems.push(read_error_diagnostic(&e));
            }
            return;
        }
    };
    if !visited.insert(handle.id()) {
        return;
    }
    let device = handle.id().device;
    let mut entries: Vec<(String, EntryKind)> = Vec::new();
    let mut links = Vec::new();
    for entry in handle.by_ref().flatten() {
        let Some(name) = entry.name.to_str().map(str::to_owned) else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        match entry.kind {
            EntryKind::Symlink => links.push((name, entry.name)),
            kind => entries.push((name, kind)),
        }
    }
    for (name, raw) in links {
        match handle.follow(&raw) {
            Ok(LinkTarget::Dir(_)) => entries.push((name, EntryKind::Dir)),
            Ok(LinkTarget::File) => entries.push((name, EntryKind::File)),
            _ => entries.push((name, EntryKind::Other)),
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, kind) in entries {
        let path = dir.join(&name);
        match kind {
            EntryKind::Dir if namespace.len() < MAX_DEPTH => {
                let mut inner = namespace.to_vec();
                inner.push(name);
                list(&path, &inner, Some(device), visited, found, problems);
            }
            EntryKind::File | EntryKind::Other => {
                let Some(stem) = name.strip_suffix(".md") else {
                    continue;
                };
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
            _ => {}
        }
    }
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
