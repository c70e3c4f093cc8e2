//! Reading a directory on disk into a package tree: links are recorded, never followed;
//! files are opened without following links and without blocking, and read only when the
//! handle says they are regular files; FIFOs, sockets and devices are refused.

use std::path::Path;

use weft_fs::{Cap, ReadError, RegularFile};
use weft_scan::Package;

use crate::error::InstallError;
use crate::tree::{Limits, TreeBuilder};

/// Directories never read from a source: version-control metadata.
const VCS_DIRS: [&str; 3] = [".git", ".hg", ".svn"];

/// Whether a read leaves version-control directories out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Vcs {
    /// A source: its `.git` is not part of the package.
    Skip,
    /// An installed skill: nothing of it is skipped, so a `.git/hooks/post-checkout` added
    /// after the install is an extra file.
    Read,
}

/// Reads the tree under `root` (a directory) for installing: a link leaving the tree or a
/// special file refuses it; version-control directories are left out.
pub fn read_dir_tree(root: &Path, limits: Limits) -> Result<Package, InstallError> {
    read_with(root, TreeBuilder::new(limits), Vcs::Skip)
}

/// Reads an installed skill's directory as it is, version-control directories included
/// (what `verify` and `update` compare with the lockfile).
pub fn read_installed_tree(root: &Path, limits: Limits) -> Result<Package, InstallError> {
    read_with(root, TreeBuilder::new(limits), Vcs::Read)
}

/// Reads the tree under `root` for scanning: links leaving it and special files are kept
/// for the scanner to report.
pub fn read_dir_tree_for_scan(root: &Path, limits: Limits) -> Result<Package, InstallError> {
    read_with(root, TreeBuilder::for_scan(limits), Vcs::Skip)
}

fn read_with(root: &Path, mut builder: TreeBuilder, vcs: Vcs) -> Result<Package, InstallError> {
    let meta = std::fs::metadata(root).map_err(|e| InstallError::io(root, e))?;
    if !meta.is_dir() {
        return Err(InstallError::BadSource(format!(
            "{} is not a directory",
            root.display()
        )));
    }
    walk(root, "", 0, &mut builder, vcs)?;
    builder.finish()
}

fn walk(
    dir: &Path,
    rel: &str,
    depth: usize,
    builder: &mut TreeBuilder,
    vcs: Vcs,
) -> Result<(), InstallError> {
    if depth > builder.limits().max_depth {
        return Err(InstallError::unsafe_entry(rel, "nested too deep"));
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| InstallError::io(dir, e))?
        .collect::<Result<_, _>>()
        .map_err(|e| InstallError::io(dir, e))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(InstallError::unsafe_entry(
                format!("{rel}/{}", name.to_string_lossy()),
                "file name is not UTF-8",
            ));
        };
        let path = entry.path();
        let child = if rel.is_empty() {
            name.to_owned()
        } else {
            format!("{rel}/{name}")
        };
        let kind = entry.file_type().map_err(|e| InstallError::io(&path, e))?;
        if kind.is_symlink() {
            let target = std::fs::read_link(&path).map_err(|e| InstallError::io(&path, e))?;
            let Some(target) = target.to_str() else {
                return Err(InstallError::unsafe_entry(
                    child,
                    "link target is not UTF-8",
                ));
            };
            builder.add_symlink(&child, target)?;
        } else if kind.is_dir() {
            if vcs == Vcs::Read || !VCS_DIRS.contains(&name) {
                walk(&path, &child, depth + 1, builder, vcs)?;
            }
        } else if kind.is_file() {
            let (bytes, executable) = read_regular(&path, &child, builder.room())?;
            builder.add_file(&child, bytes, executable)?;
        } else {
            builder.add_special(&child, special_kind(&kind))?;
        }
    }
    Ok(())
}

fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "FIFO"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "device"
    } else {
        "special file"
    }
}

/// Reads a regular file of the package at `path` (entry `name`) through weft-fs: never a
/// link's target, never blocking on a FIFO, never a device or a pseudo-file, at most
/// `room + 1` bytes (so the tree builder can report an oversized file without it being read
/// whole). Returns the bytes and whether the file is executable.
pub fn read_regular(path: &Path, name: &str, room: u64) -> Result<(Vec<u8>, bool), InstallError> {
    let cap = Cap::new(room.saturating_add(1), "package files");
    let refused = |e: ReadError| match e {
        ReadError::TooLarge { .. } => {
            InstallError::TooLarge(format!("{name} is larger than {room} bytes"))
        }
        ReadError::Io { path, source } => InstallError::Io { path, source },
        other => InstallError::unsafe_entry(name, other.reason()),
    };
    let file = RegularFile::open_no_follow(path, cap).map_err(refused)?;
    let executable = file.is_executable();
    let bytes = file.read_all().map_err(refused)?;
    Ok((bytes, executable))
}
