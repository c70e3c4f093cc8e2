//! Pseudo-filesystems: `/proc`, `/sys` and their kin, whose "files" are views of the kernel
//! and of processes (`/proc/self/environ` holds the API keys of the process reading it).
//!
//! Recognised by the file system's magic number, asked of the open handle with `fstatfs`
//! (Linux and Android). A path prefix would not do: a bind mount or a link puts the same files
//! anywhere. Other platforms have no procfs that exposes the environment; devices are refused
//! by their file type everywhere.

/// The file systems refused, by `statfs` magic number (from `linux/magic.h`).
#[cfg(any(target_os = "linux", target_os = "android"))]
const PSEUDO_FILESYSTEMS: [(u32, &str); 17] = [
    (0x0000_9fa0, "proc"),
    (0x6265_6572, "sysfs"),
    (0x6462_6720, "debugfs"),
    (0x7472_6163, "tracefs"),
    (0x7363_6673, "securityfs"),
    (0x0027_e0eb, "cgroup"),
    (0x6367_7270, "cgroup2"),
    (0x0000_1cd1, "devpts"),
    (0x6265_6570, "configfs"),
    (0xcafe_4a11, "bpf"),
    (0x6165_676c, "pstore"),
    (0xde5e_81e4, "efivarfs"),
    (0x6573_5543, "fusectl"),
    (0x4249_4e4d, "binfmt_misc"),
    (0xf97c_ff8c, "selinuxfs"),
    (0x1980_0202, "mqueue"),
    (0x6e73_6673, "nsfs"),
];

/// The name of the pseudo-filesystem holding `fd`, or `None` for an ordinary one.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn pseudo_filesystem(
    fd: impl rustix::fd::AsFd,
) -> std::io::Result<Option<&'static str>> {
    let stats = rustix::fs::fstatfs(fd)?;
    // `f_type` is a signed or unsigned word depending on the architecture; every magic
    // number fits in 32 bits.
    #[allow(clippy::unnecessary_cast)]
    let magic = (stats.f_type as i64) as u32;
    Ok(PSEUDO_FILESYSTEMS
        .iter()
        .find(|(m, _)| *m == magic)
        .map(|(_, name)| *name))
}

/// Other platforms: nothing is known to be a pseudo-filesystem.
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
pub(crate) fn pseudo_filesystem(
    _fd: impl rustix::fd::AsFd,
) -> std::io::Result<Option<&'static str>> {
    Ok(None)
}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use super::*;

    #[test]
    fn proc_and_sys_are_recognised_and_tmp_is_not() {
        let proc = std::fs::File::open("/proc/self/stat").unwrap();
        assert_eq!(pseudo_filesystem(&proc).unwrap(), Some("proc"));
        if let Ok(sys) = std::fs::File::open("/sys/kernel") {
            assert_eq!(pseudo_filesystem(&sys).unwrap(), Some("sysfs"));
        }
        let tmp = tempfile::tempfile().unwrap();
        assert_eq!(pseudo_filesystem(&tmp).unwrap(), None);
    }
}
