//! The seccomp filter of a network-off policy: `socket(2)` and `socketpair(2)` fail with
//! `EACCES` for every domain but `AF_UNIX`, and io_uring (which can open and connect sockets
//! without those system calls) is refused. Everything else is allowed; a system call of
//! another architecture (a 32-bit binary) kills the process, as seccompiler does.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use crate::SandboxError;

/// x86-64's x32 ABI numbers its system calls with this bit set; they pass the architecture
/// check, so they get rules of their own.
#[cfg(target_arch = "x86_64")]
const X32_SYSCALL_BIT: i64 = 0x4000_0000;

/// Installs the filter on the calling thread (it is inherited across `exec`).
pub(crate) fn deny_network_sockets() -> Result<(), SandboxError> {
    let program = network_filter()?;
    Ok(seccompiler::apply_filter(&program)?)
}

/// The compiled filter.
fn network_filter() -> Result<BpfProgram, SandboxError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(seccomp_error)?;
    let not_unix = SeccompRule::new(vec![
        SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_UNIX as u64,
        )
        .map_err(seccomp_error)?,
    ])
    .map_err(seccomp_error)?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for nr in with_x32(&[libc::SYS_socket, libc::SYS_socketpair]) {
        rules.insert(nr, vec![not_unix.clone()]);
    }
    let io_uring = [
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
    ];
    for nr in with_x32(&io_uring) {
        // An empty rule list matches every call.
        rules.insert(nr, Vec::new());
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(seccomp_error)?;
    BpfProgram::try_from(filter).map_err(seccomp_error)
}

/// The numbers, plus their x32 twins on x86-64.
fn with_x32(numbers: &[i64]) -> Vec<i64> {
    let mut all = numbers.to_vec();
    #[cfg(target_arch = "x86_64")]
    all.extend(numbers.iter().map(|n| n | X32_SYSCALL_BIT));
    all
}

fn seccomp_error(e: seccompiler::BackendError) -> SandboxError {
    SandboxError::Seccomp(e.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_compiles_for_this_architecture() {
        let program = network_filter();
        assert!(program.is_ok_and(|p| !p.is_empty()));
    }
}
