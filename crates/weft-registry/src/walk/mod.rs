//! Walking a skill root: which directories hold skills, following DESIGN 4's walk rules.
//!
//! Depth-bounded, deterministic (entries in byte order of their names), `.git`,
//! `node_modules` and `target` skipped, and (for discovery) no descent below a directory that
//! already holds a skill. Directory links are followed, but every real directory (its
//! `(device, inode)`) is visited at most once per [`Walker`], across all the roots it walks,
//! and a walker visits at most [`WalkOptions::max_dirs`] directories: no arrangement of links
//! makes a walk super-linear. Pseudo-filesystems (`/proc`, `/sys`) are never entered. A walk
//! may be given a boundary (an untrusted project's directory): a directory link whose real
//! path leaves it is refused with a diagnostic and not followed, and so is a root that does.
//!
//! The walk goes level by level: the directories of one level are claimed in walk order
//! (the first path to reach a directory wins, so the shallowest path does), then listed in
//! parallel. Results are sorted back into depth-first order, whatever the threads did.
//!
//! This module is the walk itself ([`Walker`]) and how it is configured; `found.rs` holds
//! what a walk yields (skill directories, their files, what it noticed), `visit.rs` one
//! directory's visit and `classify.rs` which file defines a skill.

mod classify;
mod found;
mod visit;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use weft_fs::{DirHandle, DirId, FileStamp};
use weft_parse::Rule;
use weft_types::{Diagnostic, Severity};

pub use classify::skill_file_in;
pub use found::{FoundSkill, SkillFile, Walk, WalkNote};
use visit::{FileVisitor, Listed, Pending, VisitDir, Visitor, directory_problem, outside_boundary};

/// Directory names never entered.
pub const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

/// How to walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkOptions {
    /// How many directory levels below the root are entered (the root is level 0).
    pub max_depth: usize,
    /// Stop descending below a directory that holds a skill (discovery does; `validate`
    /// walks on to report nested skills).
    pub stop_at_skill: bool,
    /// The most directories one [`Walker`] visits, over all its roots; past it the walk
    /// stops with a [`Rule::WalkLimit`] warning.
    pub max_dirs: usize,
}

/// The default limit on directories visited per discovery or validation: far above any real
/// skill tree (10,000 skills in one root are 10,001 directories), low enough that a link to
/// `/` is done in about a second.
pub const DEFAULT_MAX_DIRS: usize = 30_000;

impl WalkOptions {
    /// Discovery: depth 6, stop at skills.
    pub const DISCOVERY: WalkOptions = WalkOptions {
        max_depth: 6,
        stop_at_skill: true,
        max_dirs: DEFAULT_MAX_DIRS,
    };

    /// Validation of a tree: depth 32, every skill file found, nested ones flagged.
    pub const VALIDATE: WalkOptions = WalkOptions {
        max_depth: 32,
        stop_at_skill: false,
        max_dirs: DEFAULT_MAX_DIRS,
    };
}

/// Walks `root` and returns every skill directory found, in a deterministic order.
///
/// ```no_run
/// use std::path::Path;
/// use weft_registry::walk::{walk, WalkOptions};
///
/// let found = walk(Path::new(".claude/skills"), WalkOptions::DISCOVERY);
/// assert!(found.diagnostics.is_empty());
/// ```
pub fn walk(root: &Path, options: WalkOptions) -> Walk {
    Walker::new(options).walk(root)
}

/// Walks `root` and calls `visit` on every skill directory as soon as it is found, on
/// whichever thread found it: discovery uses this to read skills while the walk goes on. The
/// result is in walk order, whatever the threads did.
pub fn walk_with<T: Send>(
    root: &Path,
    options: WalkOptions,
    visit: impl Fn(&FoundSkill) -> T + Sync,
) -> (Vec<(FoundSkill, T)>, Vec<Diagnostic>) {
    Walker::new(options).walk_with_hints(root, None, None, |found, _: &DirFacts<'_>| visit(found))
}

/// What the walk knows about a skill directory it hands to the caller.
#[derive(Debug)]
pub struct DirFacts<'a> {
    /// The directory's modification time (nanoseconds since the epoch), taken before it was
    /// listed; only when hints are in use.
    pub mtime: Option<i128>,
    /// The open parent directory and the skill directory's name in it, when the walk has one.
    parent: Option<(&'a DirHandle, &'a str)>,
}

impl DirFacts<'_> {
    /// The stamp of `file`, a file in the skill directory: relative to the open parent
    /// directory when there is one (one short `fstatat` instead of a walk of the full path).
    pub fn stamp_of(&self, file: &Path) -> std::io::Result<FileStamp> {
        match (self.parent, file.file_name()) {
            (Some((parent, name)), Some(file_name)) => parent
                .stamp(&Path::new(name).join(file_name))
                .map(|(s, _)| s),
            _ => FileStamp::of(file),
        }
    }
}

/// What a caller remembers about a skill directory: given the directory and its modification
/// time (nanoseconds since the epoch), the skill file and notes of the last walk, when the
/// directory is unchanged since.
pub type DirHint<'h> = &'h (dyn Fn(&Path, i128) -> Option<(SkillFile, Vec<WalkNote>)> + Sync);

/// One discovery's walks. Every root walked through the same walker shares the set of
/// directories already visited (a root reached twice, or reached from inside another root,
/// is read once, by the first) and the limit on directories visited.
#[derive(Debug)]
pub struct Walker {
    options: WalkOptions,
    visited: HashSet<DirId>,
    dirs: usize,
    limit_reported: bool,
}

impl Walker {
    /// A walker that has visited nothing yet.
    pub fn new(options: WalkOptions) -> Self {
        Self {
            options,
            visited: HashSet::new(),
            dirs: 0,
            limit_reported: false,
        }
    }

    /// How many directories this walker has listed (or taken from hints) so far.
    pub fn dirs_visited(&self) -> usize {
        self.dirs
    }

    /// Walks `root`; see [`walk`].
    pub fn walk(&mut self, root: &Path) -> Walk {
        self.walk_within(root, None)
    }

    /// Walks `root` following only directory links whose real path lies inside `boundary`
    /// (a root outside it is not walked); see [`walk`].
    pub fn walk_within(&mut self, root: &Path, boundary: Option<&Path>) -> Walk {
        let (found, diagnostics) =
            self.walk_with_hints(root, boundary, None, |_, _: &DirFacts<'_>| ());
        Walk {
            skills: found.into_iter().map(|(skill, ())| skill).collect(),
            diagnostics,
        }
    }

    /// Walks `root`, calling `visit` on every skill directory as soon as it is found (see
    /// [`walk_with`]). With `boundary`, directory links are followed only when their real
    /// path lies inside it (see [`walk_within`](Self::walk_within)). With `hints` (discovery
    /// only), a skill directory whose modification time is unchanged is not listed again:
    /// adding, removing or renaming an entry changes it. `visit` also gets what the walk
    /// knows about the directory ([`DirFacts`]): its modification time (only when hints are
    /// given), to remember for the next walk.
    pub fn walk_with_hints<T: Send>(
        &mut self,
        root: &Path,
        boundary: Option<&Path>,
        hints: Option<DirHint<'_>>,
        visit: impl Fn(&FoundSkill, &DirFacts<'_>) -> T + Sync,
    ) -> (Vec<(FoundSkill, T)>, Vec<Diagnostic>) {
        let boundary = boundary.map(real_path);
        let visitor = Visitor {
            options: self.options,
            visit: &visit,
            hints: hints.filter(|_| self.options.stop_at_skill),
            boundary: boundary.as_deref(),
        };
        self.walk_levels(root, boundary.as_deref(), &visitor)
    }

    /// Every file under `root` whose name `keep` accepts (hidden files and directories
    /// skipped), down to `max_depth` directory levels, in path order: the walk for Claude
    /// Code's `.claude/commands/**/*.md`. Directory links are followed only when their real
    /// path stays inside `root`'s, and the walk shares this walker's directories visited
    /// and its limit.
    pub fn walk_files(
        &mut self,
        root: &Path,
        max_depth: usize,
        keep: &(dyn Fn(&str) -> bool + Sync),
    ) -> (Vec<PathBuf>, Vec<Diagnostic>) {
        let boundary = real_path(root);
        let visitor = FileVisitor {
            max_depth,
            boundary: Some(&boundary),
            keep,
        };
        let (mut files, problems) = self.walk_levels(root, None, &visitor);
        files.sort();
        (files, problems)
    }

    /// The walk itself, level by level: claim the level's directories (each real directory
    /// once, within the limit), visit them (in parallel when there are several), then the
    /// next level; results put back into depth-first order.
    fn walk_levels<V: VisitDir>(
        &mut self,
        root: &Path,
        boundary: Option<&Path>,
        visitor: &V,
    ) -> (Vec<V::Found>, Vec<Diagnostic>) {
        if let Some(refused) = outside_boundary(root, boundary) {
            return (Vec::new(), vec![refused]);
        }
        let mut found: Vec<(Vec<u32>, V::Found)> = Vec::new();
        let mut problems: Vec<(Vec<u32>, Diagnostic)> = Vec::new();
        let mut level = match DirId::of(root) {
            Ok(id) => vec![Pending {
                path: root.to_path_buf(),
                key: Vec::new(),
                depth: 0,
                id,
                from_device: None,
                via_symlink: false,
                enclosing: None,
                parent: None,
            }],
            Err(e) => {
                let error = weft_fs::ReadError::Io {
                    path: root.to_path_buf(),
                    source: e,
                };
                return (Vec::new(), vec![directory_problem(root, &error)]);
            }
        };
        let visit = |dir: Pending| -> Listed<V::Found> {
            let mut listed = visitor.visit_dir(&dir);
            listed.key = dir.key;
            listed
        };
        while !level.is_empty() {
            let claimed = self.claim(level, &mut problems);
            // A few directories are not worth the thread hand-off.
            let listed: Vec<Listed<V::Found>> = if claimed.len() >= 8 {
                claimed.into_par_iter().map(visit).collect()
            } else {
                claimed.into_iter().map(visit).collect()
            };
            level = Vec::new();
            for dir in listed {
                problems.extend(dir.problems.into_iter().map(|d| (dir.key.clone(), d)));
                found.extend(dir.found.into_iter().map(|f| (dir.key.clone(), f)));
                level.extend(dir.children);
            }
        }
        // Back into depth-first order (stable: a directory's findings and problems keep
        // their order). A tree whose skills are all on one level is in order already.
        if !found.is_sorted_by(|a, b| a.0 <= b.0) {
            found.sort_by(|a, b| a.0.cmp(&b.0));
        }
        problems.sort_by(|a, b| a.0.cmp(&b.0));
        (
            found.into_iter().map(|(_, f)| f).collect(),
            problems.into_iter().map(|(_, d)| d).collect(),
        )
    }

    /// The directories of one level this walker will visit, in walk order: each real
    /// directory once, and no more than the limit (a warning when it is reached).
    fn claim(
        &mut self,
        level: Vec<Pending>,
        problems: &mut Vec<(Vec<u32>, Diagnostic)>,
    ) -> Vec<Pending> {
        let mut claimed = Vec::with_capacity(level.len());
        for dir in level {
            if self.visited.contains(&dir.id) {
                tracing::debug!(dir = %dir.path.display(), "directory reached again; not visited twice");
                continue;
            }
            if self.dirs >= self.options.max_dirs {
                if !self.limit_reported {
                    self.limit_reported = true;
                    problems.push((dir.key.clone(), limit_reached(&dir.path, self.options)));
                }
                break;
            }
            self.visited.insert(dir.id);
            self.dirs += 1;
            claimed.push(dir);
        }
        claimed
    }
}

/// The refusal of `root` when its real path leaves `boundary` (see
/// [`Walker::walk_within`]).
pub(crate) fn root_outside(root: &Path, boundary: &Path) -> Option<Diagnostic> {
    outside_boundary(root, Some(&real_path(boundary)))
}

/// `path` with every link resolved, or as given when it cannot be resolved (it then contains
/// nothing a resolved path could start with, so nothing is taken to be inside it wrongly).
fn real_path(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn limit_reached(path: &Path, options: WalkOptions) -> Diagnostic {
    Diagnostic::new(
        Severity::Warning,
        Rule::WalkLimit.number(),
        format!(
            "stopped after visiting {} directories (the walk limit); {} and the directories after it were not read",
            options.max_dirs,
            path.display()
        ),
    )
    .with_path(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn finds_skills_in_order_and_stops_at_skills() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(&root.join("b/SKILL.md"), "x");
        write(&root.join("a/SKILL.md"), "x");
        write(&root.join("a/inner/SKILL.md"), "x");
        write(&root.join("node_modules/c/SKILL.md"), "x");
        write(&root.join("cat/d/skill.md"), "x");
        let found = walk(root, WalkOptions::DISCOVERY);
        let dirs: Vec<_> = found
            .skills
            .iter()
            .map(|s| s.dir.strip_prefix(root).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            dirs,
            [
                PathBuf::from("a"),
                PathBuf::from("b"),
                PathBuf::from("cat/d")
            ]
        );
        assert_eq!(
            found.skills[2].notes,
            [WalkNote::FileName("skill.md".to_owned())]
        );

        let all = walk(root, WalkOptions::VALIDATE);
        assert_eq!(all.skills.len(), 4);
        let nested = &all.skills[1];
        assert!(nested.dir.ends_with("a/inner"));
        assert_eq!(nested.nested_in.as_deref(), Some(root.join("a").as_path()));
    }

    #[test]
    fn legacy_and_both_formats() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(&root.join("old/skill.json"), "{}");
        write(&root.join("old/prompt.md"), "p");
        write(&root.join("dual/skill.json"), "{}");
        write(&root.join("dual/SKILL.md"), "x");
        let found = walk(root, WalkOptions::DISCOVERY);
        assert!(matches!(found.skills[0].file, SkillFile::Markdown(_)));
        assert_eq!(
            found.skills[0].notes,
            [WalkNote::BothFormats("SKILL.md".to_owned())]
        );
        assert_eq!(
            found.skills[1].file,
            SkillFile::Legacy {
                json: root.join("old/skill.json"),
                prompt: Some(root.join("old/prompt.md"))
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_ladder_is_walked_once_per_real_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        // d_i/l1..l12 -> ../d_{i+1}: 12^6 paths within the depth bound, 8 real directories.
        for rung in 0..=7 {
            fs::create_dir_all(root.join(format!("d_{rung}"))).unwrap();
        }
        for rung in 0..7 {
            for l in 1..=12 {
                std::os::unix::fs::symlink(
                    format!("../d_{}", rung + 1),
                    root.join(format!("d_{rung}/l{l}")),
                )
                .unwrap();
            }
        }
        write(&root.join("d_7/SKILL.md"), "x");
        let mut walker = Walker::new(WalkOptions::DISCOVERY);
        let found = walker.walk(root);
        // The skill is reached first through the real directory (depth 1, the shallowest).
        assert_eq!(found.skills.len(), 1);
        assert_eq!(found.skills[0].dir, root.join("d_7"));
        assert_eq!(walker.dirs_visited(), 9, "the root and d_0..d_7");
        assert!(found.diagnostics.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn links_leaving_the_boundary_are_refused_and_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        let root = project.join(".claude/skills");
        let outside = tmp.path().join("elsewhere");
        write(&outside.join("far/SKILL.md"), "x");
        write(&project.join("shared/near/SKILL.md"), "x");
        fs::create_dir_all(&root).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
        std::os::unix::fs::symlink("../../shared", root.join("in")).unwrap();
        let dirs = |w: &Walk| -> Vec<PathBuf> { w.skills.iter().map(|s| s.dir.clone()).collect() };

        let confined = Walker::new(WalkOptions::DISCOVERY).walk_within(&root, Some(&project));
        assert_eq!(dirs(&confined), [root.join("in/near")]);
        assert_eq!(confined.diagnostics.len(), 1);
        let d = &confined.diagnostics[0];
        assert_eq!(
            (d.code.as_str(), d.path.as_deref()),
            ("E018", Some(root.join("out").as_path()))
        );
        let real_outside = fs::canonicalize(&outside).unwrap();
        let real_project = fs::canonicalize(&project).unwrap();
        assert_eq!(
            d.message,
            format!(
                "refused: the directory is a symbolic link to {}, outside {}; it is not followed",
                real_outside.display(),
                real_project.display()
            )
        );

        // Without a boundary (the user's own roots), links lead anywhere.
        let free = Walker::new(WalkOptions::DISCOVERY).walk(&root);
        assert_eq!(dirs(&free), [root.join("in/near"), root.join("out/far")]);

        // A root that is itself a link out of the boundary is not walked.
        let linked_root = project.join(".agents");
        std::os::unix::fs::symlink(&outside, &linked_root).unwrap();
        let refused = Walker::new(WalkOptions::DISCOVERY).walk_within(&linked_root, Some(&project));
        assert!(refused.skills.is_empty());
        assert_eq!(refused.diagnostics[0].code, "E018");
    }

    #[test]
    fn the_directory_limit_stops_the_walk_with_a_warning() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for i in 0..20 {
            fs::create_dir_all(root.join(format!("c{i:02}/x"))).unwrap();
        }
        let options = WalkOptions {
            max_dirs: 5,
            ..WalkOptions::VALIDATE
        };
        let mut walker = Walker::new(options);
        let found = walker.walk(root);
        assert_eq!(walker.dirs_visited(), 5);
        let codes: Vec<&str> = found.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["W184"]);
        assert!(
            found.diagnostics[0]
                .message
                .contains("stopped after visiting 5 directories")
        );
        // A second root under the same walker gets nothing more, and no second warning.
        let again = walker.walk(root);
        assert!(again.skills.is_empty() && again.diagnostics.is_empty());
    }

    #[test]
    fn a_root_reached_twice_is_read_once() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(&root.join("inner/s/SKILL.md"), "x");
        let mut walker = Walker::new(WalkOptions::DISCOVERY);
        assert_eq!(walker.walk(root).skills.len(), 1);
        assert!(walker.walk(root).skills.is_empty());
        assert!(walker.walk(&root.join("inner")).skills.is_empty());
        // A fresh walker (a new discovery) sees it again.
        assert_eq!(
            walk(&root.join("inner"), WalkOptions::DISCOVERY)
                .skills
                .len(),
            1
        );
    }

    #[test]
    fn order_does_not_depend_on_threads() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let mut expected = Vec::new();
        for c in 0..12 {
            for s in 0..12 {
                write(&root.join(format!("c{c:02}/s{s:02}/SKILL.md")), "x");
                expected.push(root.join(format!("c{c:02}/s{s:02}")));
            }
        }
        for _ in 0..5 {
            let dirs: Vec<PathBuf> = walk(root, WalkOptions::DISCOVERY)
                .skills
                .into_iter()
                .map(|s| s.dir)
                .collect();
            assert_eq!(dirs, expected);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_name_that_is_not_utf8_is_reported() {
        use std::os::unix::ffi::OsStrExt as _;
        let tmp = tempfile::tempdir().unwrap();
        let bad = tmp.path().join(std::ffi::OsStr::from_bytes(b"bad-\xff"));
        write(&bad.join("SKILL.md"), "x");
        let found = walk(tmp.path(), WalkOptions::DISCOVERY);
        assert!(found.skills.is_empty());
        assert_eq!(found.diagnostics.len(), 1);
        assert_eq!(found.diagnostics[0].code, "W185");
        assert!(found.diagnostics[0].message.contains("bad-\u{fffd}"));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_named_skill_md_is_found_so_that_reading_it_can_refuse_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pipe");
        fs::create_dir_all(&dir).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("SKILL.md"))
            .status()
            .unwrap();
        assert!(made.success());
        let found = walk(tmp.path(), WalkOptions::DISCOVERY);
        assert_eq!(found.skills.len(), 1);
        assert_eq!(
            found.skills[0].file,
            SkillFile::Markdown(dir.join("SKILL.md"))
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_terminate() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(&root.join("a/s1/SKILL.md"), "x");
        std::os::unix::fs::symlink(root, root.join("a/loop")).unwrap();
        std::os::unix::fs::symlink(root.join("a/s1"), root.join("link-to-s1")).unwrap();
        let found = walk(root, WalkOptions::VALIDATE);
        assert_eq!(found.skills.len(), 1);
    }
}
