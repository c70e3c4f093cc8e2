//! Listing a directory through one open handle: its identity, its time and its entries.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;

use crate::error::ReadError;
use crate::stamp::{DirId, FileStamp};

/// What a directory entry is, as far as the listing tells (symbolic links not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A directory.
    Dir,
    /// A regular file.
    File,
    /// A symbolic link (see [`Directory::follow`]).
    Symlink,
    /// A FIFO, device, socket or anything else.
    Other,
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file name.
    pub name: OsString,
    /// What it is (links not followed).
    pub kind: EntryKind,
    /// Its inode number: with the directory's device, the identity of a subdirectory that
    /// is not a mount point.
    pub inode: u64,
}

/// Where a symbolic link in a directory leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkTarget {
    /// A directory with this identity.
    Dir(DirId),
    /// A regular file.
    File,
    /// Something else (a FIFO, a device, ...).
    Other,
}

/// A directory opened for listing.
///
/// Opened with `O_DIRECTORY | O_NONBLOCK`; its identity and modification time come from
/// `fstat` on the handle, so they describe exactly the directory that is listed. When the
/// device differs from the one it was reached from (a mount boundary, or a link to another
/// file system), the file system is checked and a pseudo-filesystem (`/proc`, `/sys`) is
/// refused.
#[derive(Debug)]
pub struct Directory {
    stamp: FileStamp,
    #[cfg(unix)]
    dir: rustix::fs::Dir,
    #[cfg(not(unix))]
    dir: std::fs::ReadDir,
}

impl Directory {
    /// Opens `path` (links followed). `from_device` is the device of the directory it was
    /// reached from; `None` (a root) always checks the file system.
    pub fn open(path: &Path, from_device: Option<u64>) -> Result<Self, ReadError> {
        imp::open(path, from_device)
    }

    /// The directory's identity.
    pub fn id(&self) -> DirId {
        DirId {
            device: self.stamp.device,
            inode: self.stamp.inode,
        }
    }

    /// The directory's modification time (nanoseconds since the epoch), taken before any
    /// entry was read: adding, removing or renaming an entry changes it.
    pub fn modified_ns(&self) -> i128 {
        self.stamp.modified_ns
    }

    /// Where the entry `name` leads when links are followed.
    pub fn follow(&self, name: &OsStr) -> io::Result<LinkTarget> {
        imp::follow(self, name)
    }

    /// A handle on this directory that outlives the listing, to `stat` paths inside it
    /// without walking the directory's own path again.
    pub fn handle(&self) -> io::Result<DirHandle> {
        imp::handle(self)
    }
}

/// An open directory to `stat` paths relative to (`fstatat`): cheaper than a `stat` of the
/// full path, which the kernel walks component by component every time.
#[derive(Debug)]
pub struct DirHandle {
    #[cfg(unix)]
    fd: rustix::fd::OwnedFd,
    #[cfg(not(unix))]
    path: std::path::PathBuf,
}

impl DirHandle {
    /// The stamp of `rel` (relative to this directory; links followed), and whether it is a
    /// directory.
    pub fn stamp(&self, rel: &Path) -> io::Result<(FileStamp, bool)> {
        imp::stamp_at(self, rel)
    }
}

impl Iterator for Directory {
    type Item = io::Result<Entry>;

    /// The next entry (`.` and `..` are skipped).
    fn next(&mut self) -> Option<Self::Item> {
        imp::next(self)
    }
}

#[cfg(unix)]
mod imp {
    use std::os::unix::ffi::OsStrExt as _;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};

    use super::*;

    pub(super) fn open(path: &Path, from_device: Option<u64>) -> Result<Directory, ReadError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
        // `O_DIRECTORY` fails on anything else before it is opened: a FIFO never blocks.
        let fd = rustix::fs::open(path, flags, Mode::empty())
            .map_err(|e| ReadError::io(path, e.into()))?;
        let file = std::fs::File::from(fd);
        let meta = file.metadata().map_err(|e| ReadError::io(path, e))?;
        let stamp = FileStamp::from_metadata(&meta);
        if from_device != Some(stamp.device) {
            crate::regular::check_filesystem(&file, path)?;
        }
        let dir = rustix::fs::Dir::new(rustix::fd::OwnedFd::from(file))
            .map_err(|e| ReadError::io(path, e.into()))?;
        Ok(Directory { stamp, dir })
    }

    pub(super) fn next(d: &mut Directory) -> Option<io::Result<Entry>> {
        loop {
            let entry = match d.dir.read()? {
                Ok(entry) => entry,
                Err(e) => return Some(Err(e.into())),
            };
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let name = OsStr::from_bytes(name);
            let kind = match entry.file_type() {
                FileType::Unknown => {
                    // Some file systems do not fill in `d_type`: ask, without following.
                    match rustix::fs::statat(fd(d), name, AtFlags::SYMLINK_NOFOLLOW) {
                        Ok(stat) => kind_of(FileType::from_raw_mode(stat.st_mode)),
                        Err(e) => return Some(Err(e.into())),
                    }
                }
                t => kind_of(t),
            };
            return Some(Ok(Entry {
                name: name.to_os_string(),
                kind,
                inode: entry.ino(),
            }));
        }
    }

    pub(super) fn follow(d: &Directory, name: &OsStr) -> io::Result<LinkTarget> {
        let stat = rustix::fs::statat(fd(d), name, AtFlags::empty())?;
        Ok(match FileType::from_raw_mode(stat.st_mode) {
            FileType::Directory => LinkTarget::Dir(DirId {
                // `st_dev` and `st_ino` are unsigned on every Linux target; the casts only
                // widen.
                #[allow(clippy::unnecessary_cast)]
                device: stat.st_dev as u64,
                #[allow(clippy::unnecessary_cast)]
                inode: stat.st_ino as u64,
            }),
            FileType::RegularFile => LinkTarget::File,
            _ => LinkTarget::Other,
        })
    }

    pub(super) fn handle(d: &Directory) -> io::Result<DirHandle> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(fd(d), ".", flags, Mode::empty())?;
        Ok(DirHandle { fd })
    }

    // `Stat`'s field types differ between architectures; every cast here widens or keeps.
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    pub(super) fn stamp_at(h: &DirHandle, rel: &Path) -> io::Result<(FileStamp, bool)> {
        let st = rustix::fs::statat(&h.fd, rel, AtFlags::empty())?;
        let nanos = |secs: i64, nsec: i64| i128::from(secs) * 1_000_000_000 + i128::from(nsec);
        let stamp = FileStamp {
            len: st.st_size as u64,
            modified_ns: nanos(st.st_mtime as i64, st.st_mtime_nsec as i64),
            changed_ns: nanos(st.st_ctime as i64, st.st_ctime_nsec as i64),
            inode: st.st_ino as u64,
            device: st.st_dev as u64,
        };
        let is_dir = FileType::from_raw_mode(st.st_mode) == FileType::Directory;
        Ok((stamp, is_dir))
    }

    fn fd(d: &Directory) -> rustix::fd::BorrowedFd<'_> {
        use rustix::fd::AsFd as _;
        // `Dir::fd` cannot fail on the Linux backend; fall back to a descriptor that makes
        // every `*at` call fail rather than panic.
        d.dir.fd().unwrap_or_else(|_| rustix::fs::CWD.as_fd())
    }

    fn kind_of(t: FileType) -> EntryKind {
        match t {
            FileType::Directory => EntryKind::Dir,
            FileType::RegularFile => EntryKind::File,
            FileType::Symlink => EntryKind::Symlink,
            _ => EntryKind::Other,
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;

    pub(super) fn open(path: &Path, _from_device: Option<u64>) -> Result<Directory, ReadError> {
        let meta = std::fs::metadata(path).map_err(|e| ReadError::io(path, e))?;
        let dir = std::fs::read_dir(path).map_err(|e| ReadError::io(path, e))?;
        Ok(Directory {
            stamp: FileStamp::from_metadata(&meta),
            dir,
        })
    }

    pub(super) fn next(d: &mut Directory) -> Option<io::Result<Entry>> {
        let entry = match d.dir.next()? {
            Ok(e) => e,
            Err(e) => return Some(Err(e)),
        };
        let kind = match entry.file_type() {
            Ok(t) if t.is_dir() => EntryKind::Dir,
            Ok(t) if t.is_file() => EntryKind::File,
            Ok(t) if t.is_symlink() => EntryKind::Symlink,
            Ok(_) => EntryKind::Other,
            Err(e) => return Some(Err(e)),
        };
        Some(Ok(Entry {
            name: entry.file_name(),
            kind,
            inode: 0,
        }))
    }

    pub(super) fn follow(_d: &Directory, _name: &OsStr) -> io::Result<LinkTarget> {
        Err(io::Error::other("links are not followed on this platform"))
    }

    pub(super) fn handle(_d: &Directory) -> io::Result<DirHandle> {
        Err(io::Error::other(
            "directory handles are not supported on this platform",
        ))
    }

    pub(super) fn stamp_at(h: &DirHandle, rel: &Path) -> io::Result<(FileStamp, bool)> {
        let meta = std::fs::metadata(h.path.join(rel))?;
        Ok((FileStamp::from_metadata(&meta), meta.is_dir()))
    }
}
