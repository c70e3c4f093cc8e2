//! A file to hold an advisory lock on, opened as carefully as a file to read.

use std::fs::File;
use std::path::Path;

use crate::error::{FileKind, ReadError};

/// Opens (creating it when missing, mode `0600`) the regular file at `path` for writing, to
/// take an advisory lock on (`File::lock`): the last component is never followed when it is
/// a symbolic link, the open never blocks (a FIFO committed in its place would otherwise
/// hang the open until a reader came), and the file type is checked on the open handle.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let lock = weft_fs::open_lock_file(&dir.path().join("lock")).unwrap();
/// lock.lock().unwrap();
/// ```
pub fn open_lock_file(path: &Path) -> Result<File, ReadError> {
    // A FIFO or device is refused before it is opened (opening has side effects on some).
    if let Ok(before) = std::fs::symlink_metadata(path)
        && !before.is_file()
    {
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
            kind: FileKind::of(before.file_type()),
        });
    }
    let file = imp::open(path).map_err(|e| match e.raw_os_error() {
        // `O_NOFOLLOW` on a link.
        Some(code) if code == imp::ELOOP => ReadError::NotRegular {
            path: path.to_path_buf(),
            kind: FileKind::Symlink,
        },
        _ => ReadError::io(path, e),
    })?;
    let meta = file.metadata().map_err(|e| ReadError::io(path, e))?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
            kind: FileKind::of(meta.file_type()),
        });
    }
    crate::regular::check_filesystem(&file, path)?;
    Ok(file)
}

#[cfg(unix)]
mod imp {
    use super::*;
    use rustix::fs::{Mode, OFlags};

    pub(super) const ELOOP: i32 = rustix::io::Errno::LOOP.raw_os_error();

    pub(super) fn open(path: &Path) -> std::io::Result<File> {
        let flags = OFlags::WRONLY
            | OFlags::CREATE
            | OFlags::CLOEXEC
            | OFlags::NONBLOCK
            | OFlags::NOCTTY
            | OFlags::NOFOLLOW;
        let fd = rustix::fs::open(path, flags, Mode::from_raw_mode(0o600))?;
        Ok(File::from(fd))
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;

    pub(super) const ELOOP: i32 = -1;

    pub(super) fn open(path: &Path) -> std::io::Result<File> {
        File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_or_a_link_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert!(matches!(
            open_lock_file(&fifo),
            Err(ReadError::NotRegular {
                kind: FileKind::Fifo,
                ..
            })
        ));
        let target = dir.path().join("target");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            open_lock_file(&link),
            Err(ReadError::NotRegular {
                kind: FileKind::Symlink,
                ..
            })
        ));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        let made = dir.path().join("new");
        open_lock_file(&made).unwrap().lock().unwrap();
        assert!(made.is_file());
    }
}
