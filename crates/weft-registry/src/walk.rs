//! Walking a skill root: which directories hold skills, following DESIGN 4's walk rules.
//!
//! Depth-bounded, deterministic (entries in byte order of their names), symlinks followed with
//! a cycle guard on canonical paths, `.git`, `node_modules` and `target` skipped, and (for
//! discovery) no descent below a directory that already holds a skill.

use std::collections::HashSet;

use rayon::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

use weft_parse::{Profile, Rule};
use weft_types::{Diagnostic, Severity};

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
}

impl WalkOptions {
    /// Discovery: depth 6, stop at skills.
    pub const DISCOVERY: WalkOptions = WalkOptions {
        max_depth: 6,
        stop_at_skill: true,
    };

    /// Validation of a tree: depth 32, every skill file found, nested ones flagged.
    pub const VALIDATE: WalkOptions = WalkOptions {
        max_depth: 32,
        stop_at_skill: false,
    };
}

/// The file(s) a skill directory is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillFile {
    /// A `SKILL.md` (possibly spelled differently, e.g. `skill.md`).
    Markdown(PathBuf),
    /// A legacy `skill.json` and its `prompt.md` when present.
    Legacy {
        /// The `skill.json` file.
        json: PathBuf,
        /// The `prompt.md` beside it, when it exists.
        prompt: Option<PathBuf>,
    },
}

impl SkillFile {
    /// The file that defines the skill (`SKILL.md` or `skill.json`).
    pub fn path(&self) -> &Path {
        match self {
            SkillFile::Markdown(p) => p,
            SkillFile::Legacy { json, .. } => json,
        }
    }
}

/// A directory holding a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSkill {
    /// The skill directory.
    pub dir: PathBuf,
    /// The file to read.
    pub file: SkillFile,
    /// The enclosing skill directory when this one is nested inside another skill.
    pub nested_in: Option<PathBuf>,
    /// What the walk noticed about the directory (file name spelling, both formats present,
    /// nesting); how serious each is depends on the profile the skill is read with.
    pub notes: Vec<WalkNote>,
}

/// Something the walk noticed about a skill directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum WalkNote {
    /// The skill file is not spelled `SKILL.md` (`skill.md`, `Skill.md`, ...).
    FileName(String),
    /// A `SKILL.md` (spelled as given) and a `skill.json` are both present.
    BothFormats(String),
    /// The skill is inside another skill's directory, which discovery does not enter.
    Nested(PathBuf),
}

impl WalkNote {
    /// The diagnostic for this note about the skill file `path` under `profile`, if the
    /// profile reports it.
    pub fn diagnostic(&self, path: &Path, profile: Profile) -> Option<Diagnostic> {
        let d = match self {
            WalkNote::FileName(name) if name == "skill.md" => Rule::FileNameSpelling.diagnostic(
                profile,
                "skill file is named `skill.md`; the standard name is `SKILL.md`",
            ),
            WalkNote::FileName(name) => Rule::FileNameCase.diagnostic(
                profile,
                if profile == Profile::Spec {
                    format!("Missing required file: SKILL.md (found {name})")
                } else {
                    format!("skill file is named `{name}`; it must be `SKILL.md` (case matters on most file systems)")
                },
            ),
            WalkNote::BothFormats(name) => Rule::BothFormats.diagnostic(
                profile,
                format!("both `{name}` and `skill.json` are present; `{name}` is used"),
            ),
            WalkNote::Nested(outer) => Rule::NestedSkill.diagnostic(
                profile,
                format!(
                    "skill nested inside the skill at {}; discovery does not load it",
                    outer.display()
                ),
            ),
        };
        d.map(|d| d.with_path(path))
    }
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// Skill directories, in walk order.
    pub skills: Vec<FoundSkill>,
    /// Problems with the tree itself (unreadable directories, symlink loops).
    pub diagnostics: Vec<Diagnostic>,
}

/// Looks at one directory: does it hold a skill, and in which file?
///
/// `SKILL.md` is preferred; another spelling (`skill.md`, `Skill.md`) is accepted with a
/// warning; `skill.json` is the legacy format, and loses to a `SKILL.md` beside it.
pub fn skill_file_in(dir: &Path) -> Option<(SkillFile, Vec<WalkNote>)> {
    let names: Vec<String> = fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    classify(dir, names.iter().map(String::as_str))
}

/// Decides which skill file (if any) a directory with these file names holds.
fn classify<'a>(
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
    let (found, diagnostics) = walk_with(root, options, |_| ());
    Walk {
        skills: found.into_iter().map(|(skill, ())| skill).collect(),
        diagnostics,
    }
}

/// Walks `root` and calls `visit` on every skill directory as soon as it is found, on
/// whichever thread found it: discovery uses this to read skills while the walk goes on. The
/// result is in walk order, whatever the threads did.
///
/// Subdirectories are walked in parallel. The cycle guard follows each path's chain of
/// canonical ancestors (a link back into its own ancestry is not entered), and a directory
/// reached twice through links is kept once, at its first place in walk order.
pub fn walk_with<T: Send>(
    root: &Path,
    options: WalkOptions,
    visit: impl Fn(&FoundSkill) -> T + Sync,
) -> (Vec<(FoundSkill, T)>, Vec<Diagnostic>) {
    walk_with_hints(root, options, None, |found, _| visit(found))
}

/// What a caller remembers about a skill directory: given the directory and its modification
/// time, the skill file and notes of the last walk, when the directory is unchanged since.
pub type DirHint<'h> = &'h (dyn Fn(&Path, u128) -> Option<(SkillFile, Vec<WalkNote>)> + Sync);

/// As [`walk_with`], with `hints` that let a discovery walk skip listing a skill directory
/// whose modification time (taken before any listing) is unchanged: adding, removing or
/// renaming an entry changes it. `visit` also gets the directory's modification time when it
/// was taken (only when hints are given), to remember for the next walk.
pub fn walk_with_hints<T: Send>(
    root: &Path,
    options: WalkOptions,
    hints: Option<DirHint<'_>>,
    visit: impl Fn(&FoundSkill, Option<u128>) -> T + Sync,
) -> (Vec<(FoundSkill, T)>, Vec<Diagnostic>) {
    let canonical = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let walker = Walker {
        options,
        visit: &visit,
        hints: hints.filter(|_| options.stop_at_skill),
    };
    let visited = walker.visit(
        root,
        &canonical,
        &Ancestors {
            path: &canonical,
            parent: None,
        },
        0,
        None,
        None,
    );
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    let mut diagnostics = Vec::new();
    for item in visited {
        match item {
            Visited::Skill(canonical, skill, value) => {
                if seen.insert(canonical) {
                    found.push((skill, value));
                } else {
                    tracing::debug!(dir = %skill.dir.display(), "reached again through a link; skipped");
                }
            }
            Visited::Problem(d) => diagnostics.push(d),
        }
    }
    (found, diagnostics)
}

/// The canonical paths from the root down to a directory: the symlink cycle guard.
struct Ancestors<'a> {
    path: &'a Path,
    parent: Option<&'a Ancestors<'a>>,
}

impl Ancestors<'_> {
    fn contains(&self, path: &Path) -> bool {
        let mut node = Some(self);
        while let Some(n) = node {
            if n.path == path {
                return true;
            }
            node = n.parent;
        }
        false
    }
}

/// What a directory visit produced, in walk order.
enum Visited<T> {
    Skill(PathBuf, FoundSkill, T),
    Problem(Diagnostic),
}

struct Walker<'v, F> {
    options: WalkOptions,
    visit: &'v F,
    hints: Option<DirHint<'v>>,
}

/// A directory's modification time in nanoseconds since the epoch.
fn dir_mtime(path: &Path) -> Option<u128> {
    Some(
        fs::metadata(path)
            .ok()?
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos(),
    )
}

/// A subdirectory to enter.
struct Subdir {
    name: String,
    path: PathBuf,
    via_symlink: bool,
}

impl<T: Send, F: Fn(&FoundSkill, Option<u128>) -> T + Sync> Walker<'_, F> {
    /// Visits `dir`, whose canonical path is `canonical`. One `read_dir` per directory: the
    /// same listing tells whether it holds a skill and which subdirectories to enter.
    fn visit(
        &self,
        dir: &Path,
        canonical: &Path,
        ancestors: &Ancestors<'_>,
        depth: usize,
        enclosing: Option<&Path>,
        dir_stamp: Option<u128>,
    ) -> Vec<Visited<T>> {
        let mut out = Vec::new();
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                out.push(Visited::Problem(
                    Diagnostic::new(
                        Severity::Warning,
                        Rule::Unreadable.number(),
                        format!("directory could not be read: {e}"),
                    )
                    .with_path(dir),
                ));
                return out;
            }
        };
        let mut files: Vec<String> = Vec::new();
        let mut subdirs: Vec<Subdir> = Vec::new();
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_str()) {
                    subdirs.push(Subdir {
                        path: entry.path(),
                        name,
                        via_symlink: false,
                    });
                }
            } else if file_type.is_symlink() {
                // Only links cost a `stat`: follow them to see what they point at.
                match fs::metadata(entry.path()) {
                    Ok(m) if m.is_dir() && !SKIPPED_DIRS.contains(&name.as_str()) => {
                        subdirs.push(Subdir {
                            path: entry.path(),
                            name,
                            via_symlink: true,
                        });
                    }
                    Ok(m) if m.is_file() => files.push(name),
                    _ => {}
                }
            } else {
                files.push(name);
            }
        }

        let mut this_skill: Option<PathBuf> = None;
        if let Some((file, mut notes)) = classify(dir, files.iter().map(String::as_str)) {
            if let Some(outer) = enclosing {
                notes.push(WalkNote::Nested(outer.to_path_buf()));
            }
            let found = FoundSkill {
                dir: dir.to_path_buf(),
                file,
                nested_in: enclosing.map(Path::to_path_buf),
                notes,
            };
            let value = (self.visit)(&found, dir_stamp);
            out.push(Visited::Skill(canonical.to_path_buf(), found, value));
            if self.options.stop_at_skill {
                return out;
            }
            this_skill = Some(dir.to_path_buf());
        }
        if depth >= self.options.max_depth {
            return out;
        }
        subdirs.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        let enclosing = this_skill.as_deref().or(enclosing);
        let visit_sub = |sub: &Subdir| -> Vec<Visited<T>> {
            // Without links the canonical path is the parent's plus the name: no syscall.
            let sub_canonical = if sub.via_symlink {
                match fs::canonicalize(&sub.path) {
                    Ok(c) => c,
                    Err(_) => return Vec::new(),
                }
            } else {
                canonical.join(&sub.name)
            };
            if sub.via_symlink && ancestors.contains(&sub_canonical) {
                tracing::debug!(path = %sub.path.display(), "symlink back into its own ancestry; not entered");
                return Vec::new();
            }
            let chain = Ancestors {
                path: &sub_canonical,
                parent: Some(ancestors),
            };
            // With hints, the directory's time is taken before anything is listed, so a
            // change during the walk can only make the next walk look again.
            let stamp = match self.hints {
                Some(hints) if !sub.via_symlink => dir_mtime(&sub.path).map(|m| (hints, m)),
                _ => None,
            };
            if let Some((hints, mtime)) = stamp
                && let Some((file, mut notes)) = hints(&sub.path, mtime)
            {
                if let Some(outer) = enclosing {
                    notes.push(WalkNote::Nested(outer.to_path_buf()));
                }
                let found = FoundSkill {
                    dir: sub.path.clone(),
                    file,
                    nested_in: enclosing.map(Path::to_path_buf),
                    notes,
                };
                let value = (self.visit)(&found, Some(mtime));
                return vec![Visited::Skill(sub_canonical, found, value)];
            }
            self.visit(
                &sub.path,
                &sub_canonical,
                &chain,
                depth + 1,
                enclosing,
                stamp.map(|(_, m)| m),
            )
        };
        // A few subdirectories are not worth the thread hand-off.
        if subdirs.len() >= 8 {
            let nested: Vec<Vec<Visited<T>>> = subdirs.par_iter().map(visit_sub).collect();
            out.extend(nested.into_iter().flatten());
        } else {
            for sub in &subdirs {
                out.extend(visit_sub(sub));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
