//! `skills.lock`: what was installed, from where, with which hashes and scan result.
//!
//! JSON with a stable order (skills and files sorted by name, fields in declaration order),
//! written atomically: a temporary file in the same directory, flushed to disk, then renamed
//! over the old one, so a reader sees the old lockfile or the new one, never half of one.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use weft_fs::Cap;
use weft_scan::{Finding, ScanReport, Severity};

use crate::error::InstallError;
use crate::hash::FileEntry;
use crate::source::SourceKind;

/// The lockfile format version this crate writes and reads.
pub const LOCK_VERSION: u32 = 1;

/// The whole lockfile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lockfile {
    /// Format version.
    pub version: u32,
    /// Installed skills by name.
    pub skills: BTreeMap<String, LockEntry>,
}

impl Default for Lockfile {
    fn default() -> Self {
        Lockfile {
            version: LOCK_VERSION,
            skills: BTreeMap::new(),
        }
    }
}

/// Where a skill came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedSource {
    /// `git`, `archive` or `local`.
    #[serde(rename = "type")]
    pub kind: SourceKind,
    /// The URL or absolute path.
    pub location: String,
    /// The revision asked for (`--ref`), which `update` follows.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The skill's directory inside the source (`""` for its root).
    pub subpath: String,
}

/// What the pre-install scan found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanRecord {
    /// High-severity findings.
    pub high: usize,
    /// Medium-severity findings.
    pub medium: usize,
    /// Low-severity findings.
    pub low: usize,
    /// Installed despite high-severity findings (`--force`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// The high and medium findings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
}

impl ScanRecord {
    /// The record of `report`.
    pub fn of(report: &ScanReport, forced: bool) -> Self {
        let counts = report.counts();
        ScanRecord {
            high: counts.high,
            medium: counts.medium,
            low: counts.low,
            forced: forced && counts.high > 0,
            findings: report
                .findings
                .iter()
                .filter(|f| f.severity >= Severity::Medium)
                .cloned()
                .collect(),
        }
    }

    /// `clean`, or `2 high, 1 medium, 0 low (forced)`.
    pub fn summary(&self) -> String {
        if self.high + self.medium + self.low == 0 {
            return "clean".to_owned();
        }
        format!(
            "{} high, {} medium, {} low{}",
            self.high,
            self.medium,
            self.low,
            if self.forced {
                " (installed with --force)"
            } else {
                ""
            }
        )
    }
}

/// One installed skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockEntry {
    /// Where it came from.
    pub source: LockedSource,
    /// The git commit it resolved to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The SHA-256 of the archive it came in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive_sha256: Option<String>,
    /// The tree hash (see [`tree_hash`](crate::hash::tree_hash)).
    pub tree_sha256: String,
    /// When it was installed or last updated (RFC 3339, UTC).
    pub installed_at: String,
    /// The scan result.
    pub scan: ScanRecord,
    /// Every file with its hash.
    pub files: BTreeMap<String, FileEntry>,
}

/// The most a lockfile may hold: far above any real one (2,000 skills of 2,000 files each
/// would be larger, but no one installs that), low enough that a lockfile linked to a huge
/// file is refused at once.
pub const LOCK_CAP: Cap = Cap::new(32 * 1024 * 1024, "lockfiles");

impl Lockfile {
    /// Reads `path`; a missing file is an empty lockfile.
    ///
    /// A lockfile arrives with `git pull`, so it is hostile input: it is read through
    /// weft-fs (a regular file, never a FIFO, device or `/proc` file, at most [`LOCK_CAP`],
    /// and a link must stay in the lockfile's own directory), and its skill names must be
    /// valid skill names.
    pub fn load(path: &Path) -> Result<Lockfile, InstallError> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let bytes = match weft_fs::read_within(path, dir, LOCK_CAP) {
            Ok(b) => b,
            Err(e) if e.is_not_found() => return Ok(Lockfile::default()),
            Err(source) => {
                return Err(InstallError::LockfileUnreadable {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        let lock: Lockfile =
            serde_json::from_slice(&bytes).map_err(|source| InstallError::BadLockfile {
                path: path.to_owned(),
                source,
            })?;
        // A lockfile can come from anyone with push access: a key is a directory name under
        // the skills directory, so only valid skill names are accepted (no `/`, no `..`).
        if let Some(bad) = lock
            .skills
            .keys()
            .find(|k| !weft_parse::name::is_valid_name(k))
        {
            return Err(InstallError::InvalidLockfile {
                path: path.to_owned(),
                reason: format!("`{bad}` is not a valid skill name"),
            });
        }
        if lock.version != LOCK_VERSION {
            return Err(InstallError::InvalidLockfile {
                path: path.to_owned(),
                reason: format!(
                    "version {} (this weft reads version {LOCK_VERSION})",
                    lock.version
                ),
            });
        }
        Ok(lock)
    }

    /// The JSON text: pretty, stable order, final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Writes `path` atomically (temporary file, fsync, rename, fsync of the directory). The
    /// temporary file is created new (never through a file or link already there).
    pub fn save(&self, path: &Path) -> Result<(), InstallError> {
        write_atomically(path, self.to_json().as_bytes())
    }
}

/// Writes `bytes` to `path` atomically, as the lockfile is written: a new temporary file
/// beside it (created with `O_EXCL`, never through a file or link already there), flushed,
/// renamed over `path`, then the directory flushed. A reader sees the old file or the new
/// one, never half of one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), InstallError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
    let name = path.file_name().map_or_else(
        || "skills.lock".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let (tmp, mut file) = create_new_temp(dir, &name)?;
    let mut write = || -> std::io::Result<()> {
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(dir)?.sync_all()
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        InstallError::io(path, e)
    })
}

/// A new temporary file beside the lockfile: `.<name>.<pid>.<n>.tmp`, created with
/// `O_EXCL`, so a file or link someone left under that name is never written through.
fn create_new_temp(dir: &Path, name: &str) -> Result<(PathBuf, std::fs::File), InstallError> {
    let mut n = 0u32;
    loop {
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match std::fs::File::options()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(InstallError::io(&tmp, e)),
        }
    }
}
