//! Identities from `stat`: a file's content stamp and a directory's `(device, inode)`.

use std::fs::Metadata;
use std::io;
use std::path::Path;

/// What `stat` says about a file's content: equal stamps mean the file was not rewritten.
///
/// The change time is what makes this safe: a rewrite that keeps the size and restores the
/// modification time (`touch -r`) still moves `ctime`, which no unprivileged process can set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileStamp {
    /// Size in bytes.
    pub len: u64,
    /// Modification time, nanoseconds since the epoch.
    pub modified_ns: i128,
    /// Status change time, nanoseconds since the epoch.
    pub changed_ns: i128,
    /// Inode number.
    pub inode: u64,
    /// Device number.
    pub device: u64,
}

impl FileStamp {
    /// The stamp of `meta`.
    pub fn from_metadata(meta: &Metadata) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Self {
                len: meta.len(),
                modified_ns: nanos(meta.mtime(), meta.mtime_nsec()),
                changed_ns: nanos(meta.ctime(), meta.ctime_nsec()),
                inode: meta.ino(),
                device: meta.dev(),
            }
        }
        #[cfg(not(unix))]
        {
            let since_epoch = |t: io::Result<std::time::SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| i128::try_from(d.as_nanos()).unwrap_or(i128::MAX))
            };
            Self {
                len: meta.len(),
                modified_ns: since_epoch(meta.modified()),
                changed_ns: since_epoch(meta.created()),
                inode: 0,
                device: 0,
            }
        }
    }

    /// The stamp of the file at `path` (symbolic links followed). Only `stat`: the file is
    /// not opened, so this is safe on a FIFO or a device (their stamps simply never match a
    /// regular file's).
    pub fn of(path: &Path) -> io::Result<Self> {
        std::fs::metadata(path).map(|m| Self::from_metadata(&m))
    }
}

#[cfg(unix)]
fn nanos(secs: i64, nsec: i64) -> i128 {
    i128::from(secs) * 1_000_000_000 + i128::from(nsec)
}

/// A directory's identity: the same `(device, inode)` is the same directory, whatever path
/// (or chain of links) reached it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DirId {
    /// Device number.
    pub device: u64,
    /// Inode number.
    pub inode: u64,
}

impl DirId {
    /// The identity `meta` describes.
    pub fn from_metadata(meta: &Metadata) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Self {
                device: meta.dev(),
                inode: meta.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            Self {
                device: 0,
                inode: 0,
            }
        }
    }

    /// The identity of the directory at `path` (links followed).
    pub fn of(path: &Path) -> io::Result<Self> {
        std::fs::metadata(path).map(|m| Self::from_metadata(&m))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_rewrite_that_restores_mtime_changes_the_stamp() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        std::fs::write(&path, "allowed-tools: Bash").unwrap();
        let before = FileStamp::of(&path).unwrap();
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, "allowed-tools: Read").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        let after = FileStamp::of(&path).unwrap();
        assert_eq!(before.len, after.len);
        assert_eq!(before.modified_ns, after.modified_ns);
        assert_ne!(before, after, "ctime must tell the rewrite apart");
    }

    #[test]
    fn links_reach_the_same_directory_identity() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("d");
        std::fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink(&dir, tmp.path().join("l")).unwrap();
        assert_eq!(
            DirId::of(&dir).unwrap(),
            DirId::of(&tmp.path().join("l")).unwrap()
        );
    }
}
