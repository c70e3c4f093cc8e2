//! What the kernel offers: Landlock (and its ABI), seccomp filters, user namespaces; and
//! whether a policy can be enforced with them.

use landlock::{LandlockStatus, RestrictSelf};

use crate::landlock_fs::abi_number;

/// Landlock on this kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LandlockSupport {
    /// Available, with this ABI version.
    Available {
        /// The ABI version (1 = Linux 5.13; 4 adds TCP rules; 6 adds scopes).
        abi: u32,
    },
    /// Built in but not enabled (not in the `lsm=` boot list).
    NotEnabled,
    /// Not built into the kernel.
    NotImplemented,
}

/// What the running kernel offers for sandboxing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SandboxStatus {
    /// Landlock.
    pub landlock: LandlockSupport,
    /// seccomp filters with the `errno` action.
    pub seccomp: bool,
    /// Unprivileged user namespaces (not used by the sandbox; reported for information).
    pub user_namespaces: bool,
}

/// Probes the running kernel. Has no effect on the calling process.
pub fn probe() -> SandboxStatus {
    SandboxStatus {
        landlock: probe_landlock(),
        seccomp: probe_seccomp(),
        user_namespaces: probe_user_namespaces(),
    }
}

impl SandboxStatus {
    /// Why a policy with `network` on or off cannot be enforced here, or `None` when it can.
    /// Landlock is always needed; seccomp only to switch the network off.
    pub fn missing_for(&self, network: bool) -> Option<String> {
        match self.landlock {
            LandlockSupport::Available { .. } => {}
            LandlockSupport::NotEnabled => {
                return Some(
                    "Landlock is built into this kernel but not enabled (add `landlock` to the `lsm=` boot parameter)"
                        .to_owned(),
                );
            }
            LandlockSupport::NotImplemented => {
                return Some("this kernel has no Landlock (Linux 5.13 or newer with CONFIG_SECURITY_LANDLOCK)".to_owned());
            }
        }
        if !network && !self.seccomp {
            return Some(
                "this kernel has no seccomp filters, so the network cannot be switched off (set `sandbox.network: true` to run without that)"
                    .to_owned(),
            );
        }
        None
    }
}

fn probe_landlock() -> LandlockSupport {
    // With no flags and no `no_new_privs`, `apply` only asks the kernel for its ABI version.
    match RestrictSelf::default().no_new_privs(false).apply() {
        Ok(status) => match status.landlock {
            LandlockStatus::Available { effective_abi, .. } => LandlockSupport::Available {
                abi: abi_number(effective_abi),
            },
            LandlockStatus::NotEnabled => LandlockSupport::NotEnabled,
            LandlockStatus::NotImplemented => LandlockSupport::NotImplemented,
        },
        Err(err) => {
            tracing::debug!(%err, "Landlock probe failed");
            LandlockSupport::NotImplemented
        }
    }
}

/// seccomp filter mode with `SECCOMP_RET_ERRNO`, as the kernel lists it.
fn probe_seccomp() -> bool {
    std::fs::read_to_string("/proc/sys/kernel/seccomp/actions_avail")
        .is_ok_and(|actions| actions.split_whitespace().any(|a| a == "errno"))
}

fn probe_user_namespaces() -> bool {
    let max = std::fs::read_to_string("/proc/sys/user/max_user_namespaces")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(0);
    // Debian's switch, where present.
    let allowed = std::fs::read_to_string("/proc/sys/kernel/unprivileged_userns_clone")
        .map(|s| s.trim() != "0")
        .unwrap_or(true);
    max > 0 && allowed
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: SandboxStatus = SandboxStatus {
        landlock: LandlockSupport::Available { abi: 7 },
        seccomp: true,
        user_namespaces: true,
    };

    #[test]
    fn landlock_is_always_needed_and_seccomp_only_without_network() {
        assert_eq!(FULL.missing_for(false), None);
        let no_seccomp = SandboxStatus {
            seccomp: false,
            ..FULL
        };
        assert_eq!(no_seccomp.missing_for(true), None);
        assert!(
            no_seccomp
                .missing_for(false)
                .is_some_and(|r| r.contains("network cannot be switched off"))
        );
        let no_landlock = SandboxStatus {
            landlock: LandlockSupport::NotImplemented,
            ..FULL
        };
        assert!(
            no_landlock
                .missing_for(true)
                .is_some_and(|r| r.contains("no Landlock"))
        );
    }
}
