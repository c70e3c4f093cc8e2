//! One directory of a walk: list it through one handle, tell whether it holds a skill, and
//! name the subdirectories to enter next.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use weft_fs::{DirHandle, DirId, Directory, EntryKind, LinkTarget, ReadError};
use weft_parse::Rule;
use weft_types::{Diagnostic, Severity};

use super::classify::classify;
use super::{DirFacts, DirHint, FoundSkill, SKIPPED_DIRS, SkillFile, WalkNote, WalkOptions};

/// A directory waiting to be visited.
#[derive(Debug)]
pub(super) struct Pending {
    pub path: PathBuf,
    /// Its place in walk order: the index of each directory on the way down from the root,
    /// among its sorted siblings. Sorting by key gives depth-first order.
    pub key: Vec<u32>,
    pub depth: usize,
    /// Its identity, known before it is opened (from the parent's listing or a `stat`).
    pub id: DirId,
    /// The device of the directory it was reached from (`None` for a root).
    pub from_device: Option<u64>,
    pub via_symlink: bool,
    /// The nearest skill directory above it (only walks that go on below skills have one).
    pub enclosing: Option<Arc<Path>>,
    /// The parent directory, still open, when the walk uses hints: the directory and its
    /// skill file are then `stat`ed relative to it.
    pub parent: Option<Arc<DirHandle>>,
}

impl Pending {
    /// The facts about this directory for the caller.
    fn facts(&self, mtime: Option<i128>) -> DirFacts<'_> {
        let name = self
            .parent
            .as_deref()
            .and_then(|p| Some((p, self.path.file_name()?.to_str()?)));
        DirFacts {
            mtime,
            parent: name,
        }
    }
}

/// What visiting one directory produced: what it found there (a skill directory, command
/// files), the subdirectories to visit next, and the problems.
pub(super) struct Listed<R> {
    pub key: Vec<u32>,
    pub found: Vec<R>,
    pub children: Vec<Pending>,
    pub problems: Vec<Diagnostic>,
}

impl<R> Listed<R> {
    fn empty() -> Self {
        Listed {
            key: Vec::new(),
            found: Vec::new(),
            children: Vec::new(),
            problems: Vec::new(),
        }
    }
}

/// Visits one directory of a walk (on any thread); the walker claims the directories and
/// puts the results back in order.
pub(super) trait VisitDir: Sync {
    /// What the visit finds.
    type Found: Send;
    /// Visits `dir`.
    fn visit_dir(&self, dir: &Pending) -> Listed<Self::Found>;
}

/// Where directory links may lead: the real directory a link reaches must lie inside this
/// directory (canonical), or the link is refused and not followed.
pub(super) type Boundary<'b> = Option<&'b Path>;

/// The per-walk context of a skill walk shared by every directory visit (on any thread).
pub(super) struct Visitor<'v, F> {
    pub options: WalkOptions,
    pub visit: &'v F,
    pub hints: Option<DirHint<'v>>,
    pub boundary: Boundary<'v>,
}

/// The per-walk context of a walk for files (`.claude/commands/**/*.md`).
pub(super) struct FileVisitor<'v> {
    pub max_depth: usize,
    pub boundary: Boundary<'v>,
    pub keep: &'v (dyn Fn(&str) -> bool + Sync),
}

/// A subdirectory found in a listing.
struct Subdir {
    name: String,
    id: DirId,
    via_symlink: bool,
}

/// A directory's entries, sorted into what matters to the walk.
#[derive(Default)]
struct Listing {
    /// Names of the files the walk looks for (for skills: `SKILL.md` in any case,
    /// `skill.json`, `prompt.md`), links to files and special files included.
    files: Vec<String>,
    subdirs: Vec<Subdir>,
    problems: Vec<Diagnostic>,
}

/// What a listing keeps besides subdirectories.
struct ListRules<'r> {
    /// The files to keep, by name.
    keep: &'r dyn Fn(&str) -> bool,
    /// Hidden entries (`.name`) are skipped, files and directories alike.
    skip_hidden: bool,
    boundary: Boundary<'r>,
    /// What a name in the tree names (`skill`, `command`), for the diagnostics.
    names: &'static str,
}

impl<T: Send, F: Fn(&FoundSkill, &DirFacts<'_>) -> T + Sync> VisitDir for Visitor<'_, F> {
    type Found = (FoundSkill, T);

    /// Visits `dir`: from the caller's hints when its time is unchanged, else through one
    /// listing that tells both whether it holds a skill and which subdirectories to enter.
    fn visit_dir(&self, dir: &Pending) -> Listed<(FoundSkill, T)> {
        let mut listed = Listed::empty();
        let mut stamp = None;
        if let Some(hints) = self.hints
            && dir.depth > 0
            && !dir.via_symlink
        {
            match self.remembered(hints, dir) {
                Hint::Hit(found, value) => {
                    listed.found.push((found, value));
                    return listed;
                }
                Hint::Miss(mtime) => stamp = Some(mtime),
                Hint::Unknown => {}
            }
        }
        let handle = match Directory::open(&dir.path, dir.from_device) {
            Ok(handle) => handle,
            Err(e) => {
                listed.problems.push(directory_problem(&dir.path, &e));
                return listed;
            }
        };
        if self.hints.is_some() && dir.depth > 0 && !dir.via_symlink && stamp.is_none() {
            stamp = Some(handle.modified_ns());
        }
        let device = handle.id().device;
        // With hints, the children are `stat`ed relative to this directory.
        let shared = self.hints.and_then(|_| handle.handle().ok()).map(Arc::new);
        let rules = ListRules {
            keep: &may_define_skill,
            skip_hidden: false,
            boundary: self.boundary,
            names: "skill",
        };
        let listing = list(handle, &dir.path, &rules);
        listed.problems = listing.problems;
        let mut this_skill = None;
        if let Some((file, notes)) = classify(&dir.path, listing.files.iter().map(String::as_str)) {
            let found = found_skill(dir, file, notes);
            let value = (self.visit)(&found, &dir.facts(stamp));
            listed.found.push((found, value));
            if self.options.stop_at_skill {
                return listed;
            }
            this_skill = Some(Arc::from(dir.path.as_path()));
        }
        if dir.depth < self.options.max_depth {
            let enclosing = this_skill.or_else(|| dir.enclosing.clone());
            listed.children = children(dir, listing.subdirs, device, enclosing, shared);
        }
        listed
    }
}

impl<T: Send, F: Fn(&FoundSkill, &DirFacts<'_>) -> T + Sync> Visitor<'_, F> {
    /// The caller's memory of `dir`, when the directory's modification time is unchanged.
    fn remembered(&self, hints: DirHint<'_>, dir: &Pending) -> Hint<T> {
        let facts = dir.facts(None);
        let stat = match facts.parent {
            Some((parent, name)) => parent.stamp(Path::new(name)),
            None => std::fs::metadata(&dir.path)
                .map(|m| (weft_fs::FileStamp::from_metadata(&m), m.is_dir())),
        };
        let Ok((stamp, is_dir)) = stat else {
            return Hint::Unknown;
        };
        // A mount boundary is never taken from memory: the file system gets checked.
        if Some(stamp.device) != dir.from_device || !is_dir {
            return Hint::Unknown;
        }
        match hints(&dir.path, stamp.modified_ns) {
            Some((file, notes)) => {
                let found = found_skill(dir, file, notes);
                let value = (self.visit)(&found, &dir.facts(Some(stamp.modified_ns)));
                Hint::Hit(found, value)
            }
            None => Hint::Miss(stamp.modified_ns),
        }
    }
}

impl VisitDir for FileVisitor<'_> {
    type Found = PathBuf;

    /// Lists `dir`: the files it keeps, in name order, and the subdirectories to enter.
    fn visit_dir(&self, dir: &Pending) -> Listed<PathBuf> {
        let mut listed = Listed::empty();
        let handle = match Directory::open(&dir.path, dir.from_device) {
            Ok(handle) => handle,
            Err(e) => {
                if dir.depth > 0 || !e.is_not_found() {
                    listed.problems.push(directory_problem(&dir.path, &e));
                }
                return listed;
            }
        };
        let device = handle.id().device;
        let rules = ListRules {
            keep: self.keep,
            skip_hidden: true,
            boundary: self.boundary,
            names: "command",
        };
        let mut listing = list(handle, &dir.path, &rules);
        listing.files.sort_unstable();
        listed.found = listing
            .files
            .into_iter()
            .map(|name| dir.path.join(name))
            .collect();
        listed.problems = listing.problems;
        if dir.depth < self.max_depth {
            listed.children = children(dir, listing.subdirs, device, None, None);
        }
        listed
    }
}

enum Hint<T> {
    Hit(FoundSkill, T),
    /// Not remembered; the time taken before the listing.
    Miss(i128),
    Unknown,
}

fn found_skill(dir: &Pending, file: SkillFile, mut notes: Vec<WalkNote>) -> FoundSkill {
    if let Some(outer) = &dir.enclosing {
        notes.push(WalkNote::Nested(outer.to_path_buf()));
    }
    FoundSkill {
        dir: dir.path.clone(),
        file,
        nested_in: dir.enclosing.as_deref().map(Path::to_path_buf),
        notes,
    }
}

/// Reads every entry of `handle`. Links are followed (one `stat`) to see whether they lead
/// to a directory, and a link to a directory outside the boundary is refused (a diagnostic,
/// not followed); anything that is not a directory may be a file the walk keeps (a FIFO
/// named `SKILL.md` is found here and refused when read, with a diagnostic).
fn list(mut handle: Directory, path: &Path, rules: &ListRules<'_>) -> Listing {
    let device = handle.id().device;
    let mut listing = Listing::default();
    while let Some(entry) = handle.next() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                listing
                    .problems
                    .push(unreadable_directory(path, &e.to_string()));
                break;
            }
        };
        if rules.skip_hidden && entry.name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let target = match entry.kind {
            EntryKind::Dir => Some(DirId {
                device,
                inode: entry.inode,
            }),
            EntryKind::Symlink => match handle.follow(&entry.name) {
                Ok(LinkTarget::Dir(id)) => Some(id),
                _ => None,
            },
            EntryKind::File | EntryKind::Other => None,
        };
        let name = match entry.name.into_string() {
            Ok(name) => name,
            Err(raw) => {
                let lossy = raw.to_string_lossy().into_owned();
                let path = path.join(raw);
                if target.is_some() {
                    listing.problems.push(non_utf8(&path, true, rules.names));
                } else if (rules.keep)(&lossy) {
                    listing.problems.push(non_utf8(&path, false, rules.names));
                }
                continue;
            }
        };
        match target {
            Some(_) if SKIPPED_DIRS.contains(&name.as_str()) => {}
            Some(id) if entry.kind == EntryKind::Symlink => {
                let link = path.join(&name);
                match outside_boundary(&link, rules.boundary) {
                    Some(problem) => listing.problems.push(problem),
                    None => listing.subdirs.push(Subdir {
                        via_symlink: true,
                        name,
                        id,
                    }),
                }
            }
            Some(id) => listing.subdirs.push(Subdir {
                via_symlink: false,
                name,
                id,
            }),
            None if (rules.keep)(&name) => listing.files.push(name),
            None => {}
        }
    }
    // Listing order is the file system's; the problems are reported in name order.
    listing.problems.sort_by(|a, b| a.path.cmp(&b.path));
    listing
}

/// The refusal of a directory (a link, or a root reached through one) whose real path leaves
/// `boundary`; `None` when it stays inside or there is no boundary.
pub(super) fn outside_boundary(dir: &Path, boundary: Boundary<'_>) -> Option<Diagnostic> {
    let boundary = boundary?;
    match std::fs::canonicalize(dir) {
        Ok(real) if real.starts_with(boundary) => None,
        Ok(real) => Some(
            Diagnostic::new(
                Severity::Error,
                Rule::SymlinkOutsideRoot.number(),
                format!(
                    "refused: the directory is a symbolic link to {}, outside {}; it is not followed",
                    real.display(),
                    boundary.display()
                ),
            )
            .with_path(dir),
        ),
        Err(e) => Some(unreadable_directory(dir, &e.to_string())),
    }
}

fn may_define_skill(name: &str) -> bool {
    name.eq_ignore_ascii_case("skill.md") || name == "skill.json" || name == "prompt.md"
}

/// The subdirectories of `dir` to visit next, in name order.
fn children(
    dir: &Pending,
    mut subdirs: Vec<Subdir>,
    device: u64,
    enclosing: Option<Arc<Path>>,
    parent: Option<Arc<DirHandle>>,
) -> Vec<Pending> {
    subdirs.sort_unstable_by(|a, b| a.name.cmp(&b.name));
    subdirs
        .into_iter()
        .enumerate()
        .map(|(i, sub)| {
            let mut key = Vec::with_capacity(dir.key.len() + 1);
            key.extend_from_slice(&dir.key);
            key.push(u32::try_from(i).unwrap_or(u32::MAX));
            Pending {
                path: dir.path.join(&sub.name),
                key,
                depth: dir.depth + 1,
                id: sub.id,
                from_device: Some(device),
                via_symlink: sub.via_symlink,
                enclosing: enclosing.clone(),
                parent: parent.clone(),
            }
        })
        .collect()
}

/// Why a directory was not entered.
pub(super) fn directory_problem(path: &Path, error: &ReadError) -> Diagnostic {
    match error {
        ReadError::PseudoFilesystem { filesystem, .. } => Diagnostic::new(
            Severity::Warning,
            Rule::NotRegularFile.number(),
            format!("directory not entered: it is on a pseudo-filesystem ({filesystem})"),
        )
        .with_path(path),
        _ => unreadable_directory(path, &error.reason()),
    }
}

fn unreadable_directory(path: &Path, reason: &str) -> Diagnostic {
    Diagnostic::new(
        Severity::Warning,
        Rule::Unreadable.number(),
        format!("directory could not be read: {reason}"),
    )
    .with_path(path)
}

/// A file or directory whose name is not UTF-8: it cannot name a skill or a command, and is
/// reported with its lossy path rather than skipped in silence.
fn non_utf8(path: &Path, is_dir: bool, names: &str) -> Diagnostic {
    let (what, skipped) = if is_dir {
        ("directory", "is not entered")
    } else {
        ("file", "is not read")
    };
    Diagnostic::new(
        Severity::Warning,
        Rule::NonUtf8Name.number(),
        format!(
            "{what} name is not valid UTF-8 ({}); it cannot name a {names} and {skipped}",
            path.display()
        ),
    )
    .with_path(path)
}
