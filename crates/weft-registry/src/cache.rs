//! A persistent index of parsed skill headers (level 1), so a listing of unchanged skills costs
//! one `stat` per file instead of a read and a YAML parse.
//!
//! An entry is reused only when the file's length, modification time (nanoseconds) and inode
//! are unchanged, its scope is the same, and the cache was written by the same build with the
//! same limits (the caller passes a fingerprint of its build). Anything else is parsed again. A
//! missing, unreadable or corrupt cache is an empty cache; failing to write it is logged and
//! ignored: the cache can only make discovery faster, never different.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use weft_fs::FileStamp;
use weft_parse::{Limits, ParsedSkill};
use weft_types::{Diagnostic, Scope, Skill};

use crate::walk::{FoundSkill, SkillFile, WalkNote};

/// Where the cache lives and what build wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheConfig {
    /// The cache file (created with its parent directories when missing).
    pub path: PathBuf,
    /// Identifies the build that parses (e.g. the executable's size and modification time):
    /// a different fingerprint discards every entry, so a new parser never trusts an old one.
    pub fingerprint: String,
}

/// A file's stamp as the cache stores it (see [`weft_fs::FileStamp`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stamp {
    len: u64,
    modified_ns: i128,
    changed_ns: i128,
    inode: u64,
    device: u64,
}

impl From<FileStamp> for Stamp {
    fn from(s: FileStamp) -> Self {
        Self {
            len: s.len,
            modified_ns: s.modified_ns,
            changed_ns: s.changed_ns,
            inode: s.inode,
            device: s.device,
        }
    }
}

impl Stamp {
    /// The stamp of the file at `path` now (one `stat`).
    pub(crate) fn of(path: &Path) -> Option<Self> {
        FileStamp::of(path).ok().map(Self::from)
    }
}

/// One cached header parse.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CachedHeader {
    path: PathBuf,
    scope: Scope,
    stamp: Stamp,
    /// The skill directory's modification time when it was listed, and what the listing
    /// said: lets the next walk skip listing an unchanged directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dir_mtime_ns: Option<i128>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notes: Vec<WalkNote>,
    skill: Option<Skill>,
    name: Option<String>,
    diagnostics: Vec<Diagnostic>,
}

impl CachedHeader {
    pub(crate) fn new(
        found: &FoundSkill,
        scope: Scope,
        stamp: Stamp,
        dir_mtime_ns: Option<i128>,
        parsed: &ParsedSkill,
    ) -> Self {
        Self {
            path: found.file.path().to_path_buf(),
            scope,
            stamp,
            dir_mtime_ns,
            notes: remembered_notes(found),
            skill: parsed.skill.clone(),
            name: parsed.name.clone(),
            diagnostics: parsed.diagnostics.clone(),
        }
    }

    fn to_parsed(&self) -> ParsedSkill {
        ParsedSkill {
            skill: self.skill.clone(),
            name: self.name.clone(),
            body: None,
            diagnostics: self.diagnostics.clone(),
        }
    }
}

/// The notes worth remembering for the next walk (nesting depends on the walk, not the
/// directory).
fn remembered_notes(found: &FoundSkill) -> Vec<WalkNote> {
    found
        .notes
        .iter()
        .filter(|n| !matches!(n, WalkNote::Nested(_)))
        .cloned()
        .collect()
}

/// What one walk learned about one skill file, for the next cache.
#[derive(Debug)]
pub(crate) enum Record {
    /// Served from the cache: only the directory facts may have changed.
    Hit {
        path: PathBuf,
        dir_mtime_ns: Option<i128>,
        notes: Vec<WalkNote>,
    },
    /// Parsed in this walk.
    Fresh(Box<CachedHeader>),
}

impl Record {
    pub(crate) fn hit(found: &FoundSkill, dir_mtime_ns: Option<i128>) -> Self {
        Record::Hit {
            path: found.file.path().to_path_buf(),
            dir_mtime_ns,
            notes: remembered_notes(found),
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    fingerprint: String,
    entries: Vec<CachedHeader>,
}

/// Bumped when the cache file's layout changes.
const FORMAT: u32 = 2;

/// The loaded cache: read-only while discovery runs on many threads.
#[derive(Debug, Default)]
pub(crate) struct HeaderCache {
    entries: HashMap<PathBuf, CachedHeader>,
    /// Skill directory → its entry's file path, for entries that know their directory's time.
    by_dir: HashMap<PathBuf, PathBuf>,
    fingerprint: String,
}

impl HeaderCache {
    /// Loads `config.path`; anything wrong with it gives an empty cache.
    pub(crate) fn load(config: &CacheConfig, limits: &Limits) -> Self {
        let fingerprint = format!("{}|{limits:?}", config.fingerprint);
        let entries: HashMap<PathBuf, CachedHeader> = fs::read(&config.path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<CacheFile>(&bytes).ok())
            .filter(|file| file.format == FORMAT && file.fingerprint == fingerprint)
            .map(|file| {
                file.entries
                    .into_iter()
                    .map(|e| (e.path.clone(), e))
                    .collect()
            })
            .unwrap_or_default();
        let by_dir = entries
            .values()
            .filter(|e: &&CachedHeader| e.dir_mtime_ns.is_some())
            .filter_map(|e| Some((e.path.parent()?.to_path_buf(), e.path.clone())))
            .collect();
        Self {
            entries,
            by_dir,
            fingerprint,
        }
    }

    /// What the last walk found in `dir`, when its modification time is still `mtime` and
    /// its scope `scope`: the listing can be skipped.
    pub(crate) fn dir_hint(
        &self,
        dir: &Path,
        mtime: i128,
        scope: Scope,
    ) -> Option<(SkillFile, Vec<WalkNote>)> {
        let entry = self.entries.get(self.by_dir.get(dir)?)?;
        (entry.dir_mtime_ns == Some(mtime) && entry.scope == scope)
            .then(|| (SkillFile::Markdown(entry.path.clone()), entry.notes.clone()))
    }

    /// The cached parse of `path`, when the file is unchanged.
    pub(crate) fn lookup(&self, path: &Path, scope: Scope, stamp: Stamp) -> Option<ParsedSkill> {
        let entry = self.entries.get(path)?;
        (entry.stamp == stamp && entry.scope == scope).then(|| entry.to_parsed())
    }

    /// True when `records` differ from what was loaded (so the file needs writing).
    pub(crate) fn differs(&self, records: &[Record]) -> bool {
        records.len() != self.entries.len()
            || records.iter().any(|r| match r {
                Record::Hit {
                    path,
                    dir_mtime_ns,
                    notes,
                } => self
                    .entries
                    .get(path)
                    .is_none_or(|old| old.dir_mtime_ns != *dir_mtime_ns || &old.notes != notes),
                Record::Fresh(e) => self.entries.get(&e.path).is_none_or(|old| {
                    old.stamp != e.stamp
                        || old.scope != e.scope
                        || old.dir_mtime_ns != e.dir_mtime_ns
                        || old.notes != e.notes
                }),
            })
    }

    /// Writes `records` as the new cache: to a temporary file, then renamed over the old one.
    pub(crate) fn save(&self, path: &Path, records: Vec<Record>) -> io::Result<()> {
        let fresh: Vec<CachedHeader> = records
            .into_iter()
            .filter_map(|r| match r {
                Record::Fresh(e) => Some(*e),
                Record::Hit {
                    path,
                    dir_mtime_ns,
                    notes,
                } => self.entries.get(&path).map(|old| CachedHeader {
                    dir_mtime_ns,
                    notes,
                    ..old.clone()
                }),
            })
            .collect();
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let file = CacheFile {
            format: FORMAT,
            fingerprint: self.fingerprint.clone(),
            entries: fresh,
        };
        let bytes = serde_json::to_vec(&file).map_err(io::Error::other)?;
        let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
        fs::write(&tmp, bytes)?;
        fs::rename(&tmp, path)
    }
}
