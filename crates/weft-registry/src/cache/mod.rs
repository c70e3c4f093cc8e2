//! A persistent index of parsed skill headers (level 1), so a listing of unchanged skills costs
//! two `stat`s per skill (its directory and its file) instead of a listing, a read and a YAML
//! parse.
//!
//! An entry is reused only when the file's size, modification time, change time, inode and
//! device are all unchanged (the change time moves on any rewrite, even one that puts the
//! modification time back), its scope is the same, and the cache was written by the same
//! build with the same limits (the caller passes a fingerprint of its build). A file changed
//! within [`RACY_NS`] of the moment its entry was written is never trusted: a second rewrite
//! inside the file system's timestamp granularity would keep every time the same. Anything
//! else is parsed again. A missing, unreadable or corrupt cache is an empty cache; failing to
//! write it is logged and ignored: the cache can only make discovery faster, never different.
//!
//! Entries are decoded lazily: loading reads only the small index ([`format`]); an entry's
//! parse result (JSON) is decoded when a walk uses it, on the walk's threads.

mod format;

use std::collections::HashMap;
use std::fs;
use std::hash::BuildHasher as _;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use weft_fs::{Cap, FileStamp};
use weft_parse::{Limits, ParsedSkill};
use weft_types::{Diagnostic, Scope, Skill};

use crate::walk::{FoundSkill, SkillFile, WalkNote};
use format::{EntryRef, IndexEntry};

/// Where the cache lives and what build wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheConfig {
    /// The cache file (created with its parent directories when missing).
    pub path: PathBuf,
    /// Identifies the build that parses (e.g. the executable's size and modification time):
    /// a different fingerprint discards every entry, so a new parser never trusts an old one.
    pub fingerprint: String,
}

/// What the cache file holds, as a health check sees it (`weft doctor`). The cache can only
/// make listings faster: every state but [`Unreadable`](Self::Unreadable) is healthy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheHealth {
    /// No cache file yet: the next listing writes one.
    Missing,
    /// Written by this build with these limits: entries and size in bytes.
    Valid {
        /// Skills remembered.
        entries: usize,
        /// The file's size.
        bytes: u64,
    },
    /// Written by another build (or damaged): discarded and rewritten by the next listing.
    Rebuilt {
        /// The file's size.
        bytes: u64,
    },
    /// Cannot be read (a FIFO, a link to `/proc`, too large, no permission): why.
    Unreadable(String),
}

impl CacheConfig {
    /// Reads the cache file as discovery with `limits` would, without using it.
    pub fn health(&self, limits: &Limits) -> CacheHealth {
        let bytes = match weft_fs::read_regular(&self.path, CACHE_CAP) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => return CacheHealth::Missing,
            Err(e) => return CacheHealth::Unreadable(e.to_string()),
        };
        let size = bytes.len() as u64;
        let fingerprint = format!("{}|{limits:?}", self.fingerprint);
        match format::decode(&bytes, &fingerprint) {
            Some(entries) => CacheHealth::Valid {
                entries: entries.len(),
                bytes: size,
            },
            None => CacheHealth::Rebuilt { bytes: size },
        }
    }
}

/// The most a cache file may hold (about 100,000 skills).
const CACHE_CAP: Cap = Cap::new(256 * 1024 * 1024, "skill caches");

/// How recently before its entry was written a file may have changed and still be trusted:
/// one second covers every file system's timestamp granularity that has a change time.
pub(crate) const RACY_NS: i128 = 1_000_000_000;

/// A file's stamp as the cache stores it (see [`weft_fs::FileStamp`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// What is cached about one file: its parse, as written to the payload.
#[derive(Serialize)]
struct PayloadRef<'a> {
    skill: Option<&'a Skill>,
    name: Option<&'a str>,
    diagnostics: &'a [Diagnostic],
}

/// A payload read back.
#[derive(Deserialize)]
struct Payload {
    skill: Option<Skill>,
    name: Option<String>,
    diagnostics: Vec<Diagnostic>,
}

/// An entry parsed in this walk, to write to the next cache.
#[derive(Debug)]
pub(crate) struct FreshEntry {
    path: PathBuf,
    scope: Scope,
    stamp: Stamp,
    recorded_ns: i128,
    dir_mtime_ns: Option<i128>,
    notes: Vec<WalkNote>,
    payload: Vec<u8>,
}

impl FreshEntry {
    /// The entry for `found`, parsed as `parsed` from a file whose stamp was `stamp`.
    pub(crate) fn new(
        found: &FoundSkill,
        scope: Scope,
        stamp: Stamp,
        dir_mtime_ns: Option<i128>,
        parsed: &ParsedSkill,
    ) -> Option<Self> {
        let payload = serde_json::to_vec(&PayloadRef {
            skill: parsed.skill.as_ref(),
            name: parsed.name.as_deref(),
            diagnostics: &parsed.diagnostics,
        })
        .ok()?;
        Some(Self {
            path: found.file.path().to_path_buf(),
            scope,
            stamp,
            recorded_ns: now_ns(),
            dir_mtime_ns,
            notes: remembered_notes(found),
            payload,
        })
    }
}

/// The notes worth remembering for the next walk (nesting depends on the walk, not the
/// directory).
pub(crate) fn remembered_notes(found: &FoundSkill) -> Vec<WalkNote> {
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
    /// Served from the cache entry `index`: only the directory facts may have changed.
    Hit {
        /// The entry in the loaded cache.
        index: usize,
        dir_mtime_ns: Option<i128>,
        notes: Vec<WalkNote>,
    },
    /// Parsed in this walk.
    Fresh(Box<FreshEntry>),
}

/// The loaded cache: read-only while discovery runs on many threads.
#[derive(Debug, Default)]
pub(crate) struct HeaderCache {
    bytes: Vec<u8>,
    entries: Vec<IndexEntry>,
    /// Hash of a skill file's path → its entry.
    by_path: HashMap<u64, usize, KeyHasher>,
    /// Hash of a skill directory → its entry, for entries that know their directory's time.
    by_dir: HashMap<u64, usize, KeyHasher>,
    keys: std::hash::RandomState,
    fingerprint: String,
}

/// The maps' keys are already hashes: used as they are.
type KeyHasher = std::hash::BuildHasherDefault<PassThrough>;

/// A hasher for keys that are `u64` hashes already.
#[derive(Debug, Default)]
struct PassThrough(u64);

impl std::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl HeaderCache {
    /// Loads `config.path`; anything wrong with it gives an empty cache.
    pub(crate) fn load(config: &CacheConfig, limits: &Limits) -> Self {
        let fingerprint = format!("{}|{limits:?}", config.fingerprint);
        let bytes = weft_fs::read_regular(&config.path, CACHE_CAP).unwrap_or_default();
        let Some(entries) = format::decode(&bytes, &fingerprint) else {
            return Self {
                fingerprint,
                ..Self::default()
            };
        };
        let keys = std::hash::RandomState::new();
        let mut by_path = HashMap::with_capacity_and_hasher(entries.len(), KeyHasher::default());
        let mut by_dir = HashMap::with_capacity_and_hasher(entries.len(), KeyHasher::default());
        for (i, e) in entries.iter().enumerate() {
            let path = &bytes[e.path.clone()];
            // On a clash (practically never) the later entry is simply not found: a miss.
            by_path.entry(keys.hash_one(path)).or_insert(i);
            if e.dir_mtime_ns.is_some() {
                by_dir.entry(keys.hash_one(&path[..e.dir_len])).or_insert(i);
            }
        }
        Self {
            bytes,
            entries,
            by_path,
            by_dir,
            keys,
            fingerprint,
        }
    }

    /// The entry stored for `path` (looked up in `map`, checked byte for byte).
    fn find(&self, map: &HashMap<u64, usize, KeyHasher>, path: &Path, dir: bool) -> Option<usize> {
        let wanted = format::path_bytes(path);
        let index = *map.get(&self.keys.hash_one(&*wanted))?;
        let entry = self.entries.get(index)?;
        let stored = self.bytes.get(entry.path.clone())?;
        let stored = if dir {
            stored.get(..entry.dir_len)?
        } else {
            stored
        };
        (stored == &*wanted).then_some(index)
    }

    /// What the last walk found in `dir`, when its modification time is still `mtime` and
    /// its scope `scope`: the listing can be skipped.
    pub(crate) fn dir_hint(
        &self,
        dir: &Path,
        mtime: i128,
        scope: Scope,
    ) -> Option<(SkillFile, Vec<WalkNote>)> {
        let entry = &self.entries[self.find(&self.by_dir, dir, true)?];
        if entry.dir_mtime_ns != Some(mtime) || entry.scope != scope {
            return None;
        }
        let path = format::path_from(self.bytes.get(entry.path.clone())?)?;
        let notes = format::decode_notes(self.bytes.get(entry.notes.clone())?);
        Some((SkillFile::Markdown(path), notes))
    }

    /// The cached parse of `path` and its entry's index, when the file is unchanged (and
    /// was not changed just before its entry was written).
    pub(crate) fn lookup(
        &self,
        path: &Path,
        scope: Scope,
        stamp: Stamp,
    ) -> Option<(usize, ParsedSkill)> {
        let index = self.find(&self.by_path, path, false)?;
        let entry = &self.entries[index];
        let trusted = entry.stamp == stamp
            && entry.scope == scope
            && stamp.changed_ns.saturating_add(RACY_NS) < entry.recorded_ns;
        if !trusted {
            return None;
        }
        let payload: Payload =
            serde_json::from_slice(self.bytes.get(entry.payload.clone())?).ok()?;
        Some((
            index,
            ParsedSkill {
                skill: payload.skill,
                name: payload.name,
                body: None,
                diagnostics: payload.diagnostics,
            },
        ))
    }

    /// True when `records` differ from what was loaded (so the file needs writing).
    pub(crate) fn differs(&self, records: &[Record]) -> bool {
        records.len() != self.entries.len()
            || records.iter().any(|r| match r {
                Record::Hit {
                    index,
                    dir_mtime_ns,
                    notes,
                } => {
                    let old = &self.entries[*index];
                    let old_notes = self.bytes.get(old.notes.clone()).map(format::decode_notes);
                    old.dir_mtime_ns != *dir_mtime_ns || old_notes.as_ref() != Some(notes)
                }
                Record::Fresh(_) => true,
            })
    }

    /// Writes `records` as the new cache: to a temporary file, then renamed over the old one.
    pub(crate) fn save(&self, path: &Path, records: &[Record]) -> io::Result<()> {
        let entries: Vec<EntryRef<'_>> = records
            .iter()
            .filter_map(|r| match r {
                Record::Fresh(e) => Some(EntryRef {
                    path: format::path_bytes(&e.path),
                    scope: e.scope,
                    stamp: e.stamp,
                    recorded_ns: e.recorded_ns,
                    dir_mtime_ns: e.dir_mtime_ns,
                    notes: &e.notes,
                    payload: &e.payload,
                }),
                Record::Hit {
                    index,
                    dir_mtime_ns,
                    notes,
                } => {
                    let old = self.entries.get(*index)?;
                    Some(EntryRef {
                        path: std::borrow::Cow::Borrowed(self.bytes.get(old.path.clone())?),
                        scope: old.scope,
                        stamp: old.stamp,
                        recorded_ns: old.recorded_ns,
                        dir_mtime_ns: *dir_mtime_ns,
                        notes,
                        payload: self.bytes.get(old.payload.clone())?,
                    })
                }
            })
            .collect();
        let bytes = format::encode(&self.fingerprint, &entries);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
        fs::write(&tmp, bytes)?;
        fs::rename(&tmp, path)
    }
}

/// Now, in nanoseconds since the epoch (0 when the clock is before it).
fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i128::try_from(d.as_nanos()).unwrap_or(i128::MAX))
}
