//! What an update changes, the changes that widen what a skill can do first: its
//! `allowed-tools` and `forbidden-tools`, its scripts, its dynamic-context commands; then
//! every other file.

use std::collections::BTreeSet;

use serde::Serialize;
use weft_scan::{FileContent, Package, dynamic_commands, is_script};

use crate::candidate::parse_candidate;

/// Added, removed or modified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// New in the update.
    Added,
    /// Gone in the update.
    Removed,
    /// Different bytes, mode or link target.
    Modified,
}

impl ChangeKind {
    fn sign(self) -> char {
        match self {
            ChangeKind::Added => '+',
            ChangeKind::Removed => '-',
            ChangeKind::Modified => '~',
        }
    }
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// The installed directory is gone: the whole skill is written again (what it brings is
    /// listed after this, as added).
    DirectoryMissing,
    /// `allowed-tools` changed (`None`: absent, no restriction from the skill).
    AllowedTools {
        /// Before.
        before: Option<Vec<String>>,
        /// After.
        after: Option<Vec<String>>,
    },
    /// `forbidden-tools` changed.
    ForbiddenTools {
        /// Before.
        before: Vec<String>,
        /// After.
        after: Vec<String>,
    },
    /// A script (by extension, `#!` line or executable bit).
    Script {
        /// Its path in the skill.
        path: String,
        /// What happened to it.
        kind: ChangeKind,
    },
    /// A dynamic-context command (`` !`cmd` ``) of the SKILL.md.
    DynamicContext {
        /// The command.
        command: String,
        /// Added or removed.
        kind: ChangeKind,
    },
    /// Any other file.
    File {
        /// Its path in the skill.
        path: String,
        /// What happened to it.
        kind: ChangeKind,
    },
}

fn list(tools: &Option<Vec<String>>) -> String {
    match tools {
        None => "(absent: no restriction)".to_owned(),
        Some(t) if t.is_empty() => "(empty: no tools)".to_owned(),
        Some(t) => t.join(", "),
    }
}

impl Change {
    /// True for the changes shown first: tools, scripts, dynamic context.
    pub fn is_sensitive(&self) -> bool {
        !matches!(self, Change::File { .. })
    }

    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            Change::DirectoryMissing => {
                "the installed directory is missing; the whole skill is written again".to_owned()
            }
            Change::AllowedTools { before, after } => {
                format!("allowed-tools: {} -> {}", list(before), list(after))
            }
            Change::ForbiddenTools { before, after } => format!(
                "forbidden-tools: {} -> {}",
                list(&Some(before.clone())),
                list(&Some(after.clone()))
            ),
            Change::Script { path, kind } => format!("{} script {path}", kind.sign()),
            Change::DynamicContext { command, kind } => {
                format!("{} dynamic context !`{command}`", kind.sign())
            }
            Change::File { path, kind } => format!("{} {path}", kind.sign()),
        }
    }
}

fn is_script_file(file: &weft_scan::PackageFile) -> bool {
    match &file.content {
        FileContent::Regular { bytes, executable } => *executable || is_script(&file.path, bytes),
        _ => false,
    }
}

fn skill_text(package: &Package) -> String {
    package
        .skill_file()
        .and_then(|f| f.bytes())
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default()
}

/// The changes that writing `new` (skill `name`) where its directory is missing brings:
/// [`Change::DirectoryMissing`], then its scripts, dynamic-context commands and files as
/// added (no tool change: there is nothing on disk to compare with).
pub fn changes_for_missing(name: &str, new: &Package) -> Vec<Change> {
    let mut out = vec![Change::DirectoryMissing];
    out.extend(
        changes(name, &Package::default(), new)
            .into_iter()
            .filter(|c| {
                !matches!(
                    c,
                    Change::AllowedTools { .. } | Change::ForbiddenTools { .. }
                )
            }),
    );
    out
}

/// The changes from `old` to `new` (skill `name`), sensitive ones first.
pub fn changes(name: &str, old: &Package, new: &Package) -> Vec<Change> {
    let mut out = Vec::new();
    let tools = |p: &Package| {
        parse_candidate(p, name)
            .skill
            .map(|s| (s.tools.allow, s.tools.deny))
            .unwrap_or_default()
    };
    let (old_allow, old_deny) = tools(old);
    let (new_allow, new_deny) = tools(new);
    if old_allow != new_allow {
        out.push(Change::AllowedTools {
            before: old_allow,
            after: new_allow,
        });
    }
    if old_deny != new_deny {
        out.push(Change::ForbiddenTools {
            before: old_deny,
            after: new_deny,
        });
    }
    let mut files = Vec::new();
    let paths: BTreeSet<&str> = old
        .files()
        .iter()
        .chain(new.files())
        .map(|f| f.path.as_str())
        .collect();
    for path in paths {
        let (before, after) = (old.get(path), new.get(path));
        let kind = match (before, after) {
            (None, Some(_)) => ChangeKind::Added,
            (Some(_), None) => ChangeKind::Removed,
            (Some(a), Some(b)) if a.content != b.content => ChangeKind::Modified,
            _ => continue,
        };
        let script = before.is_some_and(is_script_file) || after.is_some_and(is_script_file);
        let path = path.to_owned();
        if script {
            out.push(Change::Script { path, kind });
        } else {
            files.push(Change::File { path, kind });
        }
    }
    let old_text = skill_text(old);
    let new_text = skill_text(new);
    let commands = |t: &str| -> BTreeSet<String> {
        dynamic_commands(t)
            .into_iter()
            .map(|c| c.2.to_owned())
            .collect()
    };
    let (before, after) = (commands(&old_text), commands(&new_text));
    for command in after.difference(&before) {
        out.push(Change::DynamicContext {
            command: command.clone(),
            kind: ChangeKind::Added,
        });
    }
    for command in before.difference(&after) {
        out.push(Change::DynamicContext {
            command: command.clone(),
            kind: ChangeKind::Removed,
        });
    }
    out.extend(files);
    out
}
