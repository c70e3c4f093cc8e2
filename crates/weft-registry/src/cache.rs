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
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use weft_parse::{Limits, ParsedSkill};
use weft_types::{Diagnostic, Scope, Skill};

/// Where the cache lives and what build wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheConfig {
    /// The cache file (created with its parent directories when missing).
    pub path: PathBuf,
    /// Identifies the build that parses (e.g. the executable's size and modification time):
    /// a different fingerprint discards every entry, so a new parser never trusts an old one.
    pub fingerprint: String,
}

/// The identity of a file's content as `stat` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileStamp {
    len: u64,
    modified_ns: u128,
    inode: u64,
}

impl FileStamp {
    pub(crate) fn of(path: &Path) -> Option<Self> {
        let meta = fs::metadata(path).ok()?;
        let modified_ns = meta
            .modified()
            .ok()?
            .duration_since(UNIX_EPOCH)
            .ok()?
            .as_nanos();
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&meta);
        #[cfg(not(unix))]
        let inode = 0;
        Some(Self {
            len: meta.len(),
            modified_ns,
            inode,
        })
    }
}

/// One cached header parse.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CachedHeader {
    path: PathBuf,
    scope: Scope,
    stamp: FileStamp,
    skill: Option<Skill>,
    name: Option<String>,
    diagnostics: Vec<Diagnostic>,
}

impl CachedHeader {
    pub(crate) fn new(path: &Path, scope: Scope, stamp: FileStamp, parsed: &ParsedSkill) -> Self {
        Self {
            path: path.to_path_buf(),
            scope,
            stamp,
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

#[derive(Debug, Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    fingerprint: String,
    entries: Vec<CachedHeader>,
}

/// Bumped when the cache file's layout changes.
const FORMAT: u32 = 1;

/// The loaded cache: read-only while discovery runs on many threads.
#[derive(Debug, Default)]
pub(crate) struct HeaderCache {
    entries: HashMap<PathBuf, CachedHeader>,
    fingerprint: String,
}

impl HeaderCache {
    /// Loads `config.path`; anything wrong with it gives an empty cache.
    pub(crate) fn load(config: &CacheConfig, limits: &Limits) -> Self {
        let fingerprint = format!("{}|{limits:?}", config.fingerprint);
        let entries = fs::read(&config.path)
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
        Self {
            entries,
            fingerprint,
        }
    }

    /// The cached parse of `path`, when the file is unchanged.
    pub(crate) fn lookup(
        &self,
        path: &Path,
        scope: Scope,
        stamp: FileStamp,
    ) -> Option<(ParsedSkill, CachedHeader)> {
        let entry = self.entries.get(path)?;
        (entry.stamp == stamp && entry.scope == scope).then(|| (entry.to_parsed(), entry.clone()))
    }

    /// True when `fresh` differs from what was loaded (so the file needs writing).
    pub(crate) fn differs(&self, fresh: &[CachedHeader]) -> bool {
        fresh.len() != self.entries.len()
            || fresh.iter().any(|e| {
                self.entries
                    .get(&e.path)
                    .is_none_or(|old| old.stamp != e.stamp || old.scope != e.scope)
            })
    }

    /// Writes `fresh` as the new cache: to a temporary file, then renamed over the old one.
    pub(crate) fn save(&self, path: &Path, fresh: Vec<CachedHeader>) -> io::Result<()> {
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
