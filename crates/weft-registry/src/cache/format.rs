//! The cache file's layout: a small binary index (paths, stamps, notes) with each entry's
//! parse result as a JSON payload that is only decoded when the entry is used.
//!
//! ```text
//! "weft-skill-cache\n"  u32 format  str fingerprint  u32 count  entry*
//! entry = bytes path  u8 scope  stamp  i128 recorded  u8 has_dir  i128 dir_mtime
//!         u8 notes (u8 kind  str text)*  bytes payload
//! stamp = u64 len  i128 modified  i128 changed  u64 inode  u64 device
//! ```
//!
//! Integers are little-endian; `bytes`/`str` are a `u32` length and that many bytes. Every
//! length is checked against what is left, so a truncated or corrupt file is rejected as a
//! whole (and the cache starts empty), never read past its end.

use std::ops::Range;
use std::path::PathBuf;

use weft_types::Scope;

use super::Stamp;
use crate::walk::WalkNote;

const MAGIC: &[u8] = b"weft-skill-cache\n";

/// Bumped when the layout changes.
pub(super) const FORMAT: u32 = 3;

/// One entry of the index. Its path, notes and payload stay in the loaded bytes (as ranges)
/// until they are used.
#[derive(Debug, Clone)]
pub(super) struct IndexEntry {
    pub path: Range<usize>,
    /// The length of the path's directory part (the skill directory).
    pub dir_len: usize,
    pub scope: Scope,
    pub stamp: Stamp,
    /// When the entry was written (nanoseconds since the epoch).
    pub recorded_ns: i128,
    pub dir_mtime_ns: Option<i128>,
    pub notes: Range<usize>,
    pub payload: Range<usize>,
}

/// An entry to write, with its payload.
pub(super) struct EntryRef<'a> {
    /// The path's bytes (see [`path_bytes`]).
    pub path: std::borrow::Cow<'a, [u8]>,
    pub scope: Scope,
    pub stamp: Stamp,
    pub recorded_ns: i128,
    pub dir_mtime_ns: Option<i128>,
    pub notes: &'a [WalkNote],
    pub payload: &'a [u8],
}

/// Reads the index of `bytes`, or `None` when the file is not a cache of this format and
/// fingerprint (or is damaged).
pub(super) fn decode(bytes: &[u8], fingerprint: &str) -> Option<Vec<IndexEntry>> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(MAGIC.len())? != MAGIC || r.u32()? != FORMAT {
        return None;
    }
    if r.take_sized()? != fingerprint.as_bytes() {
        return None;
    }
    let count = r.u32()? as usize;
    // Each entry takes well over 64 bytes: a count the file cannot hold is corrupt.
    if count > bytes.len() / 64 {
        return None;
    }
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        entries.push(r.entry()?);
    }
    (r.at == bytes.len()).then_some(entries)
}

/// Writes a cache file holding `entries`.
pub(super) fn encode<'a>(fingerprint: &str, entries: &[EntryRef<'a>]) -> Vec<u8> {
    let size: usize = entries
        .iter()
        .map(|e| e.payload.len() + e.path.len() + 128)
        .sum();
    let mut out = Vec::with_capacity(MAGIC.len() + fingerprint.len() + size + 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    put_sized(&mut out, fingerprint.as_bytes());
    put_u32(&mut out, entries.len());
    for e in entries {
        put_sized(&mut out, &e.path);
        out.push(scope_index(e.scope));
        out.extend_from_slice(&e.stamp.len.to_le_bytes());
        out.extend_from_slice(&e.stamp.modified_ns.to_le_bytes());
        out.extend_from_slice(&e.stamp.changed_ns.to_le_bytes());
        out.extend_from_slice(&e.stamp.inode.to_le_bytes());
        out.extend_from_slice(&e.stamp.device.to_le_bytes());
        out.extend_from_slice(&e.recorded_ns.to_le_bytes());
        out.push(u8::from(e.dir_mtime_ns.is_some()));
        out.extend_from_slice(&e.dir_mtime_ns.unwrap_or(0).to_le_bytes());
        let notes: Vec<(u8, &str)> = e.notes.iter().filter_map(note_parts).collect();
        out.push(u8::try_from(notes.len()).unwrap_or(u8::MAX));
        for (kind, text) in notes.into_iter().take(usize::from(u8::MAX)) {
            out.push(kind);
            put_sized(&mut out, text.as_bytes());
        }
        put_sized(&mut out, e.payload);
    }
    out
}

fn note_parts(note: &WalkNote) -> Option<(u8, &str)> {
    match note {
        WalkNote::FileName(name) => Some((0, name)),
        WalkNote::BothFormats(name) => Some((1, name)),
        // Nesting depends on the walk, not the directory: never remembered.
        WalkNote::Nested(_) => None,
    }
}

fn scope_index(scope: Scope) -> u8 {
    let index = Scope::ALL.iter().position(|s| *s == scope).unwrap_or(0);
    u8::try_from(index).unwrap_or(0)
}

fn put_u32(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn put_sized(out: &mut Vec<u8>, bytes: &[u8]) {
    put_u32(out, bytes.len());
    out.extend_from_slice(bytes);
}

/// A cursor that never reads past the end.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Option<&'b [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }

    fn i128(&mut self) -> Option<i128> {
        Some(i128::from_le_bytes(self.array()?))
    }

    /// The range of a length-prefixed byte string.
    fn sized_range(&mut self) -> Option<Range<usize>> {
        let len = self.u32()? as usize;
        let start = self.at;
        self.take(len)?;
        Some(start..self.at)
    }

    fn take_sized(&mut self) -> Option<&'b [u8]> {
        let range = self.sized_range()?;
        self.bytes.get(range)
    }

    fn entry(&mut self) -> Option<IndexEntry> {
        let path = self.sized_range()?;
        let dir_len = dir_len(self.bytes.get(path.clone())?);
        let scope = *Scope::ALL.get(usize::from(self.u8()?))?;
        let stamp = Stamp {
            len: self.u64()?,
            modified_ns: self.i128()?,
            changed_ns: self.i128()?,
            inode: self.u64()?,
            device: self.u64()?,
        };
        let recorded_ns = self.i128()?;
        let has_dir = self.u8()? == 1;
        let dir_mtime = self.i128()?;
        let notes_start = self.at;
        for _ in 0..self.u8()? {
            if self.u8()? > 1 {
                return None;
            }
            std::str::from_utf8(self.take_sized()?).ok()?;
        }
        let notes = notes_start..self.at;
        let payload = self.sized_range()?;
        Some(IndexEntry {
            path,
            dir_len,
            scope,
            stamp,
            recorded_ns,
            dir_mtime_ns: has_dir.then_some(dir_mtime),
            notes,
            payload,
        })
    }
}

/// Decodes the notes an entry's `notes` range holds (already checked by [`decode`]).
pub(super) fn decode_notes(bytes: &[u8]) -> Vec<WalkNote> {
    let mut r = Reader { bytes, at: 0 };
    let mut notes = Vec::new();
    for _ in 0..r.u8().unwrap_or(0) {
        let (Some(kind), Some(text)) = (r.u8(), r.take_sized()) else {
            break;
        };
        let text = String::from_utf8_lossy(text).into_owned();
        notes.push(if kind == 0 {
            WalkNote::FileName(text)
        } else {
            WalkNote::BothFormats(text)
        });
    }
    notes
}

/// The length of the directory part of a path's bytes (`a/b` of `a/b/SKILL.md`).
fn dir_len(path: &[u8]) -> usize {
    #[cfg(unix)]
    let path = {
        use std::os::unix::ffi::OsStrExt as _;
        std::path::Path::new(std::ffi::OsStr::from_bytes(path))
    };
    #[cfg(not(unix))]
    let path = match std::str::from_utf8(path) {
        Ok(text) => std::path::Path::new(text),
        Err(_) => return 0,
    };
    path.parent().map_or(0, |dir| dir.as_os_str().len())
}

/// The bytes a path is stored and looked up as.
#[cfg(unix)]
pub(super) fn path_bytes(path: &std::path::Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt as _;
    std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
}

/// The bytes a path is stored and looked up as.
#[cfg(not(unix))]
pub(super) fn path_bytes(path: &std::path::Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
}

/// The path stored as `bytes`.
#[cfg(unix)]
pub(super) fn path_from(bytes: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt as _;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
}

/// The path stored as `bytes`.
#[cfg(not(unix))]
pub(super) fn path_from(bytes: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(bytes).ok().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let notes = [WalkNote::FileName("skill.md".to_owned())];
        encode(
            "fp",
            &[EntryRef {
                path: std::borrow::Cow::Borrowed(b"/r/s/skill.md"),
                scope: Scope::Plugin,
                stamp: Stamp {
                    len: 10,
                    modified_ns: -5,
                    changed_ns: 7,
                    inode: 3,
                    device: 9,
                },
                recorded_ns: 11,
                dir_mtime_ns: Some(12),
                notes: &notes,
                payload: b"{\"x\":1}",
            }],
        )
    }

    #[test]
    fn round_trips() {
        let bytes = sample();
        let entries = decode(&bytes, "fp").unwrap();
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(&bytes[e.path.clone()], b"/r/s/skill.md");
        assert_eq!(e.dir_len, "/r/s".len());
        assert_eq!(e.scope, Scope::Plugin);
        assert_eq!((e.stamp.modified_ns, e.stamp.changed_ns), (-5, 7));
        assert_eq!((e.recorded_ns, e.dir_mtime_ns), (11, Some(12)));
        assert_eq!(
            decode_notes(&bytes[e.notes.clone()]),
            [WalkNote::FileName("skill.md".to_owned())]
        );
        assert_eq!(&bytes[e.payload.clone()], b"{\"x\":1}");
        assert!(decode(&bytes, "other").is_none());
    }

    #[test]
    fn every_truncation_and_corruption_is_rejected_without_panicking() {
        let bytes = sample();
        for end in 0..bytes.len() {
            assert!(decode(&bytes[..end], "fp").is_none(), "truncated at {end}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0xff;
            let _ = decode(&bad, "fp");
        }
        let mut longer = bytes;
        longer.push(0);
        assert!(decode(&longer, "fp").is_none());
    }
}
