//! Why a file was not read.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::cap::Cap;

/// What a path turned out to be, when it is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A named pipe: reading one blocks until a writer appears.
    Fifo,
    /// A character device (`/dev/zero`, a terminal): may never end.
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// A Unix socket.
    Socket,
    /// A symbolic link (only reported where links are not followed).
    Symlink,
    /// Something else the platform knows about.
    Other,
}

impl FileKind {
    /// Classifies a [`std::fs::FileType`] that is not a regular file.
    pub(crate) fn of(file_type: std::fs::FileType) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt as _;
            if file_type.is_fifo() {
                return FileKind::Fifo;
            }
            if file_type.is_char_device() {
                return FileKind::CharDevice;
            }
            if file_type.is_block_device() {
                return FileKind::BlockDevice;
            }
            if file_type.is_socket() {
                return FileKind::Socket;
            }
        }
        if file_type.is_dir() {
            FileKind::Directory
        } else if file_type.is_symlink() {
            FileKind::Symlink
        } else {
            FileKind::Other
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Socket => "a socket",
            FileKind::Symlink => "a symbolic link",
            FileKind::Other => "not a regular file",
        })
    }
}

/// Why a file was refused or could not be read. Every variant names the path; [`reason`]
/// gives the same message without it (for diagnostics that carry the path separately).
///
/// [`reason`]: ReadError::reason
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path is not a regular file (a FIFO, a device, a socket, a directory).
    #[error("{}: {}", .path.display(), self.reason())]
    NotRegular {
        /// The path as given.
        path: PathBuf,
        /// What it is instead.
        kind: FileKind,
    },
    /// The file lives on a pseudo-filesystem (`/proc`, `/sys`, ...), whose files are views of
    /// the kernel or of processes, not data.
    #[error("{}: {}", .path.display(), self.reason())]
    PseudoFilesystem {
        /// The path as given.
        path: PathBuf,
        /// The file system's name, e.g. `proc`.
        filesystem: &'static str,
    },
    /// The file is larger than the cap for its kind (or grew past it while being read).
    #[error("{}: {}", .path.display(), self.reason())]
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// The cap that was exceeded.
        cap: Cap,
    },
    /// The path is a symbolic link whose target lies outside the directory it must stay in.
    #[error("{}: {}", .path.display(), self.reason())]
    OutsideRoot {
        /// The path as given.
        path: PathBuf,
        /// Where the link leads (canonical).
        target: PathBuf,
        /// The directory it had to stay in.
        root: PathBuf,
    },
    /// The file changed between the checks and the open (it was replaced while weft looked).
    #[error("{}: {}", .path.display(), self.reason())]
    Changed {
        /// The path as given.
        path: PathBuf,
    },
    /// The operating system refused (missing file, permissions, ...).
    #[error("{}: {}", .path.display(), self.reason())]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

impl ReadError {
    pub(crate) fn io(path: &Path, source: io::Error) -> Self {
        ReadError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::NotRegular { path, .. }
            | ReadError::PseudoFilesystem { path, .. }
            | ReadError::TooLarge { path, .. }
            | ReadError::OutsideRoot { path, .. }
            | ReadError::Changed { path }
            | ReadError::Io { path, .. } => path,
        }
    }

    /// Why, without the path: `is a FIFO (named pipe)`, `is larger than the 1 MiB limit for
    /// config files`.
    pub fn reason(&self) -> String {
        match self {
            ReadError::NotRegular { kind, .. } => format!("is {kind}, not a regular file"),
            ReadError::PseudoFilesystem { filesystem, .. } => {
                format!("is on a pseudo-filesystem ({filesystem}), not a regular file")
            }
            ReadError::TooLarge { cap, .. } => format!("is larger than the {cap}"),
            ReadError::OutsideRoot { target, root, .. } => format!(
                "is a symbolic link to {}, outside {}",
                target.display(),
                root.display()
            ),
            ReadError::Changed { .. } => "changed while it was being opened".to_owned(),
            ReadError::Io { source, .. } => source.to_string(),
        }
    }

    /// True when the file does not exist (callers often treat that as "nothing to read").
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }

    /// True when weft refused the file on purpose (type, file system, size, confinement),
    /// as opposed to the operating system failing to read it.
    pub fn is_refusal(&self) -> bool {
        !matches!(self, ReadError::Io { .. })
    }
}

impl From<ReadError> for io::Error {
    fn from(e: ReadError) -> Self {
        let kind = match &e {
            ReadError::Io { source, .. } => source.kind(),
            ReadError::TooLarge { .. } => io::ErrorKind::FileTooLarge,
            ReadError::NotRegular {
                kind: FileKind::Directory,
                ..
            } => io::ErrorKind::IsADirectory,
            _ => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_path_and_the_reason() {
        let e = ReadError::TooLarge {
            path: PathBuf::from("/p/config.json"),
            cap: Cap::new(1 << 20, "config files"),
        };
        assert_eq!(
            e.to_string(),
            "/p/config.json: is larger than the 1 MiB limit for config files"
        );
        let e = ReadError::NotRegular {
            path: PathBuf::from("x/SKILL.md"),
            kind: FileKind::Fifo,
        };
        assert_eq!(
            e.to_string(),
            "x/SKILL.md: is a FIFO (named pipe), not a regular file"
        );
        let e = ReadError::PseudoFilesystem {
            path: PathBuf::from("a"),
            filesystem: "proc",
        };
        assert_eq!(
            e.reason(),
            "is on a pseudo-filesystem (proc), not a regular file"
        );
        assert!(e.is_refusal());
    }
}
