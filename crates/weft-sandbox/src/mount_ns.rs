//! Read-only paths inside writable roots, by a mount namespace: the helper enters a user
//! namespace of its own (its user and group mapped to themselves) and a mount namespace, and
//! bind-mounts each existing read-only path onto itself, read-only. Only the sandboxed command
//! and what it starts see these mounts; they vanish with the last of them. The rest of a
//! writable root stays fully writable: new files can be created beside the read-only paths,
//! which Landlock alone cannot grant (see [`crate::carve`]).
//!
//! Where user namespaces are unavailable (or the kernel refuses a step), the caller falls back
//! to carving the read-only paths out of the Landlock write grants.

use std::path::{Path, PathBuf};

use rustix::fs::{StatVfsMountFlags, statvfs};
use rustix::io::Errno;
use rustix::mount::{MountFlags, MountPropagationFlags, mount_bind, mount_change, mount_remount};
use rustix::process::{getgid, getuid};
use rustix::thread::UnshareFlags;

/// Why the read-only mounts could not be made.
#[derive(Debug)]
pub(crate) struct MountFailure {
    pub(crate) what: String,
    pub(crate) source: Errno,
}

impl std::fmt::Display for MountFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.what, self.source)
    }
}

/// Enters new user and mount namespaces and makes each existing path of `paths` a read-only
/// bind mount of itself. `Ok(false)`: nothing to mount (no namespace entered). The process must
/// be single-threaded (a user namespace requires it).
pub(crate) fn mount_read_only(paths: &[PathBuf]) -> Result<bool, MountFailure> {
    let existing: Vec<&PathBuf> = paths
        .iter()
        .filter(|p| std::fs::metadata(p).is_ok())
        .collect();
    if existing.is_empty() {
        return Ok(false);
    }
    let (uid, gid) = (getuid().as_raw(), getgid().as_raw());
    // `unshare` is deprecated in favour of `unshare_unsafe` only because of `CLONE_FILES`,
    // which can leave threads with each other's descriptors; these flags do not touch the
    // descriptor table.
    #[allow(deprecated)]
    rustix::thread::unshare(UnshareFlags::NEWUSER | UnshareFlags::NEWNS)
        .map_err(|e| failure("entering a user and mount namespace", e))?;
    write_map("/proc/self/setgroups", "deny")?;
    write_map("/proc/self/uid_map", &format!("{uid} {uid} 1"))?;
    write_map("/proc/self/gid_map", &format!("{gid} {gid} 1"))?;
    // Nothing mounted here may reach the namespace weft runs in.
    mount_change(
        "/",
        MountPropagationFlags::REC | MountPropagationFlags::PRIVATE,
    )
    .map_err(|e| failure("making the mounts private", e))?;
    for path in existing {
        read_only_bind(path)?;
    }
    Ok(true)
}

/// `path` bind-mounted onto itself, then remounted read-only with the flags the kernel keeps
/// locked for a mount copied from a more privileged namespace (`nosuid`, `nodev`, `noexec`,
/// the atime flags): clearing one of them is refused.
fn read_only_bind(path: &Path) -> Result<(), MountFailure> {
    let shown = path.display();
    mount_bind(path, path).map_err(|e| failure(&format!("bind-mounting {shown}"), e))?;
    let current = statvfs(path)
        .map_err(|e| failure(&format!("reading the mount flags of {shown}"), e))?
        .f_flag;
    let mut flags = MountFlags::BIND | MountFlags::RDONLY;
    for (has, keep) in [
        (StatVfsMountFlags::NOSUID, MountFlags::NOSUID),
        (StatVfsMountFlags::NODEV, MountFlags::NODEV),
        (StatVfsMountFlags::NOEXEC, MountFlags::NOEXEC),
        (StatVfsMountFlags::NOATIME, MountFlags::NOATIME),
        (StatVfsMountFlags::NODIRATIME, MountFlags::NODIRATIME),
        (StatVfsMountFlags::RELATIME, MountFlags::RELATIME),
    ] {
        if current.contains(has) {
            flags |= keep;
        }
    }
    mount_remount(path, flags, "").map_err(|e| failure(&format!("making {shown} read-only"), e))
}

fn write_map(file: &str, text: &str) -> Result<(), MountFailure> {
    std::fs::write(file, text).map_err(|e| MountFailure {
        what: format!("writing {file}"),
        source: Errno::from_io_error(&e).unwrap_or(Errno::IO),
    })
}

fn failure(what: &str, source: Errno) -> MountFailure {
    MountFailure {
        what: what.to_owned(),
        source,
    }
}
