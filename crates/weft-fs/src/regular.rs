//! Opening and reading regular files: never blocking, never a device or a kernel view, never
//! past the cap.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::cap::Cap;
use crate::error::{FileKind, ReadError};
use crate::stamp::FileStamp;

/// A file known to be a regular file on an ordinary file system, open for reading, that
/// yields at most its cap.
///
/// [`open`](Self::open) works in three steps: `stat` the path (a FIFO or a device is refused
/// before it is ever opened, so opening has no side effect on a device), open it with
/// `O_NONBLOCK | O_NOCTTY` (a FIFO swapped in meanwhile cannot block), then `fstat` and
/// `fstatfs` the open handle: it must be the same regular file and must not live on a
/// pseudo-filesystem. Reading more than the cap is an error, also when the file grows while
/// it is read.
#[derive(Debug)]
pub struct RegularFile {
    file: File,
    path: PathBuf,
    stamp: FileStamp,
    executable: bool,
    cap: Cap,
    read: u64,
}

impl RegularFile {
    /// Opens `path` (symbolic links followed) for reading at most `cap` bytes.
    ///
    /// A file already larger than the cap is refused here, before anything is read.
    pub fn open(path: &Path, cap: Cap) -> Result<Self, ReadError> {
        let before = std::fs::metadata(path).map_err(|e| ReadError::io(path, e))?;
        Self::open_checked(path, path, &before, cap, Follow::Yes)
    }

    /// Opens `path` itself, never a link's target (a symbolic link is refused as not a
    /// regular file), for reading at most `cap` bytes: for readers that record links instead
    /// of following them, such as a package being installed.
    pub fn open_no_follow(path: &Path, cap: Cap) -> Result<Self, ReadError> {
        let before = std::fs::symlink_metadata(path).map_err(|e| ReadError::io(path, e))?;
        Self::open_checked(path, path, &before, cap, Follow::No)
    }

    /// Opens `open_as` (whose `lstat`/`stat` is `before`), reporting errors as `path`.
    pub(crate) fn open_checked(
        path: &Path,
        open_as: &Path,
        before: &std::fs::Metadata,
        cap: Cap,
        follow: Follow,
    ) -> Result<Self, ReadError> {
        if !before.is_file() {
            return Err(ReadError::NotRegular {
                path: path.to_path_buf(),
                kind: FileKind::of(before.file_type()),
            });
        }
        let file = open_nonblocking(open_as, follow).map_err(|e| ReadError::io(path, e))?;
        let meta = file.metadata().map_err(|e| ReadError::io(path, e))?;
        if !meta.is_file() {
            return Err(ReadError::NotRegular {
                path: path.to_path_buf(),
                kind: FileKind::of(meta.file_type()),
            });
        }
        let stamp = FileStamp::from_metadata(&meta);
        let executable = is_executable(&meta);
        let first = FileStamp::from_metadata(before);
        if (stamp.device, stamp.inode) != (first.device, first.inode) {
            return Err(ReadError::Changed {
                path: path.to_path_buf(),
            });
        }
        check_filesystem(&file, path)?;
        if stamp.len > cap.bytes() {
            return Err(ReadError::TooLarge {
                path: path.to_path_buf(),
                cap,
            });
        }
        Ok(Self {
            file,
            path: path.to_path_buf(),
            stamp,
            executable,
            cap,
            read: 0,
        })
    }

    /// True when the owner may execute it (a script in a package keeps its mode).
    pub fn is_executable(&self) -> bool {
        self.executable
    }

    /// The path it was opened as.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's stamp, from `fstat` on the open handle.
    pub fn stamp(&self) -> FileStamp {
        self.stamp
    }

    /// The file's size when it was opened.
    pub fn len(&self) -> u64 {
        self.stamp.len
    }

    /// True when the file was empty when it was opened.
    pub fn is_empty(&self) -> bool {
        self.stamp.len == 0
    }

    /// The cap it is read under.
    pub fn cap(&self) -> Cap {
        self.cap
    }

    /// Appends up to `max` more bytes to `buf`; returns how many (0 at the end of the file).
    /// Past the cap this is [`ReadError::TooLarge`].
    pub fn read_chunk(&mut self, buf: &mut Vec<u8>, max: usize) -> Result<usize, ReadError> {
        let start = buf.len();
        buf.resize(start + max, 0);
        let result = loop {
            match self.read(&mut buf[start..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other,
            }
        };
        match result {
            Ok(n) => {
                buf.truncate(start + n);
                Ok(n)
            }
            Err(e) => {
                buf.truncate(start);
                Err(self.error(e))
            }
        }
    }

    /// Reads the rest of the file into `buf`.
    pub fn read_rest(&mut self, buf: &mut Vec<u8>) -> Result<(), ReadError> {
        let remaining = self.stamp.len.saturating_sub(self.read);
        // One byte more than expected, to see the end without a second allocation.
        buf.reserve(usize::try_from(remaining.min(self.cap.bytes())).unwrap_or(0) + 1);
        self.read_to_end(buf).map(|_| ()).map_err(|e| self.error(e))
    }

    /// Reads the whole file as it was when opened: as many bytes as its size then (which
    /// [`open`](Self::open) checked against the cap). Bytes appended since are not read, so
    /// the end needs no extra read; a file that shrank ends early.
    pub fn read_all(mut self) -> Result<Vec<u8>, ReadError> {
        let len = usize::try_from(self.stamp.len).map_err(|_| ReadError::TooLarge {
            path: self.path.clone(),
            cap: self.cap,
        })?;
        let mut buf = vec![0; len];
        let mut filled = 0;
        while filled < len {
            match self.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.error(e)),
            }
        }
        buf.truncate(filled);
        Ok(buf)
    }

    /// The open file, for streaming readers that bound their own output (a tool that reads a
    /// range of lines). The checks are done; the cap no longer applies.
    pub fn into_file(self) -> File {
        self.file
    }

    fn error(&self, e: io::Error) -> ReadError {
        if e.kind() == io::ErrorKind::FileTooLarge {
            ReadError::TooLarge {
                path: self.path.clone(),
                cap: self.cap,
            }
        } else {
            ReadError::io(&self.path, e)
        }
    }
}

impl Read for RegularFile {
    /// Reads like a [`File`], but one byte past the cap is an [`io::ErrorKind::FileTooLarge`]
    /// error instead of data.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let allowed = self.cap.bytes().saturating_sub(self.read).saturating_add(1);
        let want = buf
            .len()
            .min(usize::try_from(allowed).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..want])?;
        self.read += n as u64;
        if self.read > self.cap.bytes() {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!("more than the {}", self.cap),
            ));
        }
        Ok(n)
    }
}

/// Reads the whole regular file at `path`, at most `cap` bytes (see [`RegularFile`]).
///
/// ```
/// use weft_fs::{Cap, ReadError, read_regular};
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("notes.md");
/// std::fs::write(&path, "hello").unwrap();
/// assert_eq!(read_regular(&path, Cap::new(1024, "notes")).unwrap(), b"hello");
/// assert!(matches!(
///     read_regular(&path, Cap::new(4, "notes")),
///     Err(ReadError::TooLarge { .. })
/// ));
/// ```
pub fn read_regular(path: &Path, cap: Cap) -> Result<Vec<u8>, ReadError> {
    RegularFile::open(path, cap)?.read_all()
}

/// Whether the last path component may be a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Follow {
    Yes,
    No,
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o100 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
fn open_nonblocking(path: &Path, follow: Follow) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let mut flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
    if follow == Follow::No {
        flags |= OFlags::NOFOLLOW;
    }
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    Ok(File::from(fd))
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path, _follow: Follow) -> io::Result<File> {
    File::open(path)
}

/// Refuses a handle on a pseudo-filesystem.
#[cfg(unix)]
pub(crate) fn check_filesystem(fd: impl rustix::fd::AsFd, path: &Path) -> Result<(), ReadError> {
    match crate::pseudo::pseudo_filesystem(fd) {
        Ok(None) => Ok(()),
        Ok(Some(filesystem)) => Err(ReadError::PseudoFilesystem {
            path: path.to_path_buf(),
            filesystem,
        }),
        Err(e) => Err(ReadError::io(path, e)),
    }
}

#[cfg(not(unix))]
pub(crate) fn check_filesystem(_file: &File, _path: &Path) -> Result<(), ReadError> {
    Ok(())
}
